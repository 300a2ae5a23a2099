"""The engine is pure Python: importing it, any rule set, the players or running ``python -m engine`` loads no
``django`` module. Each check runs in a fresh interpreter and reads its ``sys.modules``."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.registry import KNOWN_RULESETS

ROOT = Path(__file__).resolve().parents[2]

REPORT = """
import json, sys
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def _django_modules(code: str) -> list[str]:
    result = subprocess.run([sys.executable, "-c", code + REPORT], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("module", ["engine", "engine.core", "engine.registry", "engine.scoring", "engine.chance",
                                    "engine.players", "engine.__main__", *KNOWN_RULESETS.values()])
def test_importing_loads_no_django(module):
    assert _django_modules(f"import importlib; importlib.import_module({module!r})") == []


def test_every_rule_set_and_a_whole_match_load_no_django():
    code = """
import engine
from engine.players import make_player, play_match
for spec in engine.rulesets():
    state = engine.new_game(spec.id, seed=1)
    play_match(state, {0: make_player(spec.id, "aware"), 1: make_player(spec.id, "random")})
    state.view(0), state.view(None), state.to_dict(), spec.result_from_outcome(state.outcome())
"""
    assert _django_modules(code) == []


@pytest.mark.parametrize("argv", [["rulesets"], ["simulate", "seasons", "--seed", "3", "--json"],
                                  ["simulate", "rugby-champion-solo", "--games", "2", "--home", "aware"]])
def test_python_dash_m_engine_loads_no_django(argv):
    code = f"""
import contextlib, io, runpy, sys
sys.argv = ["engine", *{argv!r}]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        runpy.run_module("engine", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        assert not exc.code, exc.code
"""
    assert _django_modules(code) == []
