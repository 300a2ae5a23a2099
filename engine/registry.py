"""Registry of rule sets.

Rule-set modules register themselves with :func:`register`. The registry knows
where each rule set lives and imports it on first use, so a rule set that has
not landed yet is simply absent from :func:`rulesets`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from engine.chance import Chance
from engine.core import GameState, RuleSetSpec
from engine.scoring import UNION

# A match played off the site — on a real pitch, or on a board at a table — whose result is entered by hand.
MANUAL = "manual"
OFFSITE_SPECS = {
    MANUAL: RuleSetSpec(
        id=MANUAL, name="Played on a real pitch or board (results entered by hand)", players=2,
        hidden_information=False, rules_version="", scoring=UNION, playable=False,
        description="Rugby union scoring: try 5, conversion 2, penalty goal 3, drop goal 3, penalty try 7."),
}

# id -> module that registers it. The league's rule-set choice list is built from this.
KNOWN_RULESETS = {
    "rugby-league-cards": "engine.rugby_league_cards",
    "bokx": "engine.bokx",
    "seasons": "engine.seasons",
    "rugby-champion-solo": "engine.rugby_champion_solo",
}

_REGISTRY: dict[str, type[GameState]] = {}


def register(cls: type[GameState]) -> type[GameState]:
    """Class decorator: add a GameState subclass to the registry under its spec id."""
    _REGISTRY[cls.spec.id] = cls
    return cls


def _load(ruleset_id: str) -> None:
    module = KNOWN_RULESETS.get(ruleset_id)
    if module and ruleset_id not in _REGISTRY:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def get_ruleset(ruleset_id: str) -> type[GameState]:
    """The GameState class of a rule set; ``KeyError`` with the known ids if absent."""
    _load(ruleset_id)
    try:
        return _REGISTRY[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown rule set {ruleset_id!r}; known: {', '.join(s.id for s in rulesets())}") from None


def rulesets() -> list[RuleSetSpec]:
    """Specs of every rule set that is available, in a stable order."""
    for ruleset_id in KNOWN_RULESETS:
        _load(ruleset_id)
    return [_REGISTRY[k].spec for k in sorted(_REGISTRY, key=lambda k: list(KNOWN_RULESETS).index(k)
                                                   if k in KNOWN_RULESETS else 99)]


def get_spec(ruleset_id: str) -> RuleSetSpec:
    """The spec of any rule set a tournament may use: one the engine plays, or one played off the site."""
    if ruleset_id in OFFSITE_SPECS:
        return OFFSITE_SPECS[ruleset_id]
    return get_ruleset(ruleset_id).spec


def specs() -> list[RuleSetSpec]:
    """Every rule set a tournament may use: those played off the site first, then those the engine plays."""
    return list(OFFSITE_SPECS.values()) + rulesets()


def new_game(ruleset_id: str, *, seed: int = 0, options: Mapping[str, Any] | None = None,
             chance: Chance | None = None) -> GameState:
    """Start a game of a rule set. Chance defaults to an RNG derived from ``seed``."""
    return get_ruleset(ruleset_id)(options=options, chance=chance, seed=seed)


def replay(ruleset_id: str, *, seed: int, options: Mapping[str, Any] | None,
           actions: Iterable[tuple[int, str] | list[Any]],
           chance: Chance | None = None) -> GameState:
    """Rebuild a game from its seed, options and ordered (seat, action) log (checked)."""
    state = new_game(ruleset_id, seed=seed, options=options, chance=chance)
    for seat, action in actions:
        state.apply(int(seat), action)
    return state
