"""Static types: mypy on the packages listed here; any error fails the test.

How strict each package is lives in pyproject.toml (``[tool.mypy]`` and one ``[[tool.mypy.overrides]]`` per
package), so adding a package is a line in ``CHECKS`` and an override there. ``engine/`` is held to ``--strict``
on the command line as well, so loosening the config alone cannot lower it. mypy runs in a subprocess: its
Django plugin sets Django up itself, which must not happen inside the test process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# name -> mypy arguments (paths relative to the repository's root)
CHECKS = {
    "engine": ["--strict", "engine"],
    # The write and read APIs of the apps, and the errors, hooks and permissions they raise and use.
    "services and selectors": [
        "league/services", "league/selectors.py", "league/format_selectors.py", "league/schedule_selectors.py",
        "league/event_selectors.py", "league/event_lookup.py", "league/registration_selectors.py",
        "league/nation_draws.py",
        "league/fundraising_selectors.py", "league/award_selectors.py",
        "league/timetable.py", "league/timezones.py", "league/errors.py",
        "league/hooks.py", "league/rulesets.py", "league/live_selectors.py", "league/match_clock.py",
        "matches/services.py", "matches/selectors.py",
        "matches/permissions.py", "matches/workers.py", "league/queue.py", "league/clients.py", "league/text.py",
    ],
}


@pytest.mark.parametrize("name", CHECKS)
def test_mypy_finds_no_errors(name):
    pytest.importorskip("mypy_django_plugin")
    # No cache: pytest-xdist workers may run this at once.
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                          "--cache-dir", "/dev/null", "--no-error-summary", *CHECKS[name]],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"mypy on {name}:\n{run.stdout}{run.stderr}"
