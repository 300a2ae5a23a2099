"""Types: mypy (settings in pyproject.toml's [tool.mypy], with the Django and REST framework stubs) on the
modules other code builds on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The write and read APIs of the apps, and the errors, hooks and permissions they raise and use.
SERVICES_AND_SELECTORS = [
    "league/services", "league/selectors.py", "league/format_selectors.py", "league/errors.py", "league/hooks.py",
    "league/rulesets.py", "matches/services.py", "matches/selectors.py", "matches/permissions.py",
    "matches/workers.py",
]


def test_services_and_selectors_type_check():
    pytest.importorskip("mypy")
    pytest.importorskip("mypy_django_plugin")
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", *SERVICES_AND_SELECTORS], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
