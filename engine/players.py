"""Computer players and the loop that plays a whole match.

A player takes what its seat may see (``view``), the legal actions and its own
rng, and returns one of the legal actions. Each seat's rng is derived from the
match seed, so a simulated match is reproducible from its seed alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TypeVar

from engine.chance import derive_seed
from engine.core import GameState, View
from engine.registry import get_ruleset

LEVELS = ("random", "aware")


class Player:
    """Base computer player."""

    level = "random"
    # The play loop only builds the (costly) view for players that read it.
    needs_view = False

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        """One of ``legal`` (``view`` is this seat's ``state.view(seat)``, or None if ``needs_view`` is False)."""
        raise NotImplementedError


class RandomPlayer(Player):
    """Picks uniformly among the legal actions."""

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        # rng.choice draws exactly what rng.randrange(len(legal)) would, with less overhead.
        return rng.choice(legal)


# (ruleset id) -> factory of its rule-set-aware player
_AWARE: dict[str, Callable[[], Player]] = {}

P = TypeVar("P", bound=type[Player])


def register_aware_player(ruleset_id: str) -> Callable[[P], P]:
    """Class decorator for a rule set's aware player."""

    def decorator(cls: P) -> P:
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
    if player.needs_view:
        view = state.view(seat, labels=False)
        return player.choose(view, view["legal_actions"], rng)
    return player.choose(None, state.legal_actions(seat), rng)


def play_match(state: GameState, players: Mapping[int, Player], *, checked: bool = False,
               max_actions: int = 1_000_000) -> GameState:
    """Play ``state`` to the end with computer players; returns the same (finished) state."""
    rngs = {seat: seat_rng(state.seed, seat) for seat in players}
    apply = state.apply if checked else state.apply_unchecked
    # The body of choose_action, inlined: this loop is the simulation hot path. A player that reads the view
    # takes the legal actions from it (the same list) and no labels (it never reads them).
    to_act, legal_actions, view_of = state.to_act, state.legal_actions, state.view
    for _ in range(max_actions):
        acting = to_act()
        if not acting:
            return state
        seat = acting[0]
        player = players[seat]
        if player.needs_view:
            view = view_of(seat, labels=False)
            apply(seat, player.choose(view, view["legal_actions"], rngs[seat]))
        else:
            apply(seat, player.choose(None, legal_actions(seat), rngs[seat]))
    raise RuntimeError(f"match did not end within {max_actions} actions")
