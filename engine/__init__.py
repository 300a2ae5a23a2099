"""Pure-Python, deterministic, seedable game engine. Never imports Django.

Use :func:`get_ruleset`, :func:`rulesets`, :func:`new_game` and :func:`replay`. Every rule set's
``view(seat)`` has the same envelope (:class:`View`) and its actions one grammar (:func:`parse_action`,
:func:`format_action`); both are described in :mod:`engine.core`.
"""

from engine.chance import ChanceError, ScriptedChance, SeededChance, derive_seed
from engine.core import (
    AWAY,
    HOME,
    Action,
    Event,
    GameState,
    IllegalAction,
    Option,
    Outcome,
    RuleSetSpec,
    View,
    format_action,
    is_action,
    parse_action,
)
from engine.registry import MANUAL, get_ruleset, get_spec, new_game, register, replay, rulesets, specs
from engine.scoring import Card, MatchResult, Scoring, ScoringEvent, SideTally

__all__ = [
    "AWAY", "HOME", "MANUAL", "Action", "Card", "ChanceError", "Event", "GameState", "IllegalAction",
    "MatchResult", "Option", "Outcome", "RuleSetSpec", "Scoring", "ScoringEvent", "ScriptedChance", "SeededChance",
    "SideTally", "View",
    "derive_seed", "format_action", "get_ruleset", "get_spec", "is_action", "new_game", "parse_action", "register",
    "replay", "rulesets", "specs",
]
