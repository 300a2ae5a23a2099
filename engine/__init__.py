"""Pure-Python, deterministic, seedable game engine. Never imports Django.

Use :func:`get_ruleset`, :func:`rulesets`, :func:`new_game` and :func:`replay`.
"""

from engine.chance import ChanceError, ScriptedChance, SeededChance, derive_seed
from engine.core import AWAY, HOME, Event, GameState, IllegalAction, Option, Outcome, RuleSetSpec
from engine.registry import MANUAL, get_ruleset, get_spec, new_game, register, replay, rulesets, specs
from engine.scoring import MatchResult, Scoring, ScoringEvent

__all__ = [
    "AWAY", "HOME", "MANUAL", "ChanceError", "Event", "GameState", "IllegalAction", "MatchResult", "Option",
    "Outcome", "RuleSetSpec", "Scoring", "ScoringEvent", "ScriptedChance", "SeededChance", "derive_seed",
    "get_ruleset", "get_spec", "new_game", "register", "replay", "rulesets", "specs",
]
