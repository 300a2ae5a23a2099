"""Pure-Python, deterministic, seedable game engine. Never imports Django.

Use :func:`get_ruleset`, :func:`rulesets`, :func:`new_game` and :func:`replay`.
"""

from engine.chance import ChanceError, ScriptedChance, SeededChance, derive_seed
from engine.core import AWAY, HOME, Event, GameState, IllegalAction, Option, Outcome, RuleSetSpec
from engine.registry import get_ruleset, new_game, register, replay, rulesets

__all__ = [
    "AWAY", "HOME", "ChanceError", "Event", "GameState", "IllegalAction", "Option", "Outcome",
    "RuleSetSpec", "ScriptedChance", "SeededChance", "derive_seed", "get_ruleset", "new_game",
    "register", "replay", "rulesets",
]
