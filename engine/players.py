"""Computer players and the loop that plays a whole match.

A player takes what its seat may see (``view``), the legal actions and its own
rng, and returns one of the legal actions. Each seat's rng is derived from the
match seed, so a simulated match is reproducible from its seed alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from engine.chance import derive_seed
from engine.core import GameState
from engine.registry import get_ruleset

LEVELS = ("random", "aware")


class Player:
    """Base computer player."""

    level = "random"
    # The play loop only builds the (costly) view for players that read it.
    needs_view = False

    def choose(self, view: Mapping | None, legal: list[str], rng: random.Random) -> str:
        raise NotImplementedError


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    def choose(self, view, legal, rng):
        # rng.choice draws exactly what rng.randrange(len(legal)) would, with less overhead.
        return rng.choice(legal)


# (ruleset id) -> factory of its rule-set-aware player
_AWARE: dict[str, Callable[[], Player]] = {}


def register_aware_player(ruleset_id: str):
    """Class decorator for a rule set's aware player."""

    def decorator(cls):
        _AWARE[ruleset_id] = cls
        return cls

    return decorator


def make_player(ruleset_id: str, level: str) -> Player:
    """A computer player of ``level`` ("random" or "aware") for a rule set."""
    if level == "random":
        return RandomPlayer()
    if level == "aware":
        get_ruleset(ruleset_id)  # importing the rule set registers its aware player
        if ruleset_id not in _AWARE:
            raise KeyError(f"no aware player for {ruleset_id!r}")
        return _AWARE[ruleset_id]()
    raise ValueError(f"unknown player level {level!r}; choose from {', '.join(LEVELS)}")


def seat_rng(seed: int, seat: int) -> random.Random:
    """The independent rng of one seat's computer player, derived from the match seed."""
    return random.Random(derive_seed(seed, "seat", seat))


def choose_action(state: GameState, seat: int, player: Player, rng: random.Random) -> str:
    """Ask ``player`` for its move at ``seat`` in ``state``."""
    legal = state.legal_actions(seat)
    view = state.view(seat) if player.needs_view else None
    return player.choose(view, legal, rng)


def play_match(state: GameState, players: Mapping[int, Player], *, checked: bool = False,
               max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to the end with computer players; returns the same (finished) state."""
    rngs = {seat: seat_rng(state.seed, seat) for seat in players}
    apply = state.apply if checked else state.apply_unchecked
    # The body of choose_action, inlined: this loop is the simulation hot path.
    to_act, legal_actions = state.to_act, state.legal_actions
    for _ in range(max_actions):
        acting = to_act()
        if not acting:
            return state
        seat = acting[0]
        player = players[seat]
        view = state.view(seat) if player.needs_view else None
        apply(seat, player.choose(view, legal_actions(seat), rngs[seat]))
    raise RuntimeError(f"match did not end within {max_actions} actions")
