"""Static types: mypy, through its API, on the packages listed here; any error fails the test.

How strict each package is lives in pyproject.toml (``[tool.mypy]`` and one ``[[tool.mypy.overrides]]`` per
package), so adding a package is a line in ``CHECKS`` and an override there. ``engine/`` is held to ``--strict``
on the command line as well, so loosening the config alone cannot lower it.
"""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# name -> mypy arguments (paths relative to the repository's root)
CHECKS = {
    "engine": ["--strict", "engine"],
}


@pytest.mark.parametrize("name", CHECKS)
def test_mypy_finds_no_errors(name, monkeypatch):
    from mypy import api

    monkeypatch.chdir(ROOT)
    # No cache: pytest-xdist workers may run this at once, and a cold run of engine/ takes about a second.
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", "/dev/null",
                                      "--no-error-summary", *CHECKS[name]])
    assert status == 0, f"mypy on {name}:\n{stdout}{stderr}"
