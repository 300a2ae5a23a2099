"""Helpers for the RUGBY_Bokx scenario tests: a game with scripted dice and a placed ball."""

from engine.bokx.cards import GROUPS
from engine.bokx.rules import BokxState
from engine.chance import ScriptedChance

# Eight deck shuffles that keep the file's order, then the toss: home 6, away 1.
PRELUDE = ["keep"] * len(GROUPS) + [6, 1]


def game(dice=(), *, ball=None, poss=0, phase="call", options=None, **fields) -> BokxState:
    """A match whose next dice are ``dice``; with ``ball`` the position is set: ``poss`` to act in ``phase``."""
    g = BokxState(chance=ScriptedChance(PRELUDE + list(dice)), options=options)
    if ball is not None:
        g.first_kicker = 0
        g.x, g.y = ball
        g.poss = g.actor = poss
        g.phase = phase
        for name, value in fields.items():
            setattr(g, name, value)
    return g


def top(g: BokxState, group: str, card_id: str) -> None:
    """Rotate ``group``'s pile so that ``card_id`` is drawn next (the pile keeps its cards)."""
    deck = g.decks[group]
    i = deck.index(card_id)
    g.decks[group] = deck[i:] + deck[:i]


def script_left(g: BokxState) -> int:
    return g.chance.remaining
