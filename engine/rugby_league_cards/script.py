"""Scripted (stacked) decks: reproduce a position from the rule book with :class:`engine.ScriptedChance`.

The game shuffles the deck once at the start (and the discards whenever the
pile runs out) and then deals off the top, so a scripted deck is one shuffle
outcome: the 52 cards in the order they will come off the pile. A :class:`Deck`
lists the deals and tie-break draws in that order (each deal: the home row,
positions 1.., then the away row); the cards a scenario does not name are
filled with cards it never names::

    deck = Deck().deal(home="7S 3H JC", away="5D QD QS").deal(home="4H 10S", away="8C JD")
    state = deck.game()
"""

from __future__ import annotations

from typing import Any

from engine.chance import ScriptedChance
from engine.rugby_league_cards.rules import KICK_ROW, ROW, RugbyLeagueCardsState, parse_cards


class Deck:
    """Build a scripted chance source deal by deal."""

    def __init__(self) -> None:
        self._steps: list[tuple[str, list[int], list[int], int]] = []

    def deal(self, home: str = "", away: str = "", size: int = ROW) -> Deck:
        """A deal of two rows; ``home`` and ``away`` name the first cards of each row."""
        self._steps.append(("deal", parse_cards(home), parse_cards(away), size))
        return self

    def kick(self, home: str = "", away: str = "") -> Deck:
        """The three-card rows of a conversion or a kick at goal."""
        return self.deal(home, away, size=KICK_ROW)

    def draw(self, cards: str) -> Deck:
        """Tie-break draws in order (in each pair the attacking or kicking side draws first)."""
        self._steps.append(("draw", parse_cards(cards), [], 0))
        return self

    def order(self) -> list[int]:
        """The stacked deck: all 52 card ints, top of the pile first.

        The cards the scenario never touched come last, so play can go on past the scripted deals.
        """
        named = [card for step in self._steps for card in step[1] + step[2]]
        if len(named) != len(set(named)):
            raise ValueError("a scenario names the same card twice")
        spare = [card for card in range(52) if card not in set(named)]
        fillers = sum(size + size - len(home) - len(away) for kind, home, away, size in self._steps if kind == "deal")
        if fillers > len(spare):
            raise ValueError("a scripted deck holds 52 cards: this scenario needs more before the first reshuffle")
        out: list[int] = []
        for kind, home, away, size in self._steps:
            if kind == "draw":
                out.extend(home)
                continue
            for row in (home, away):
                out.extend(row)
                out.extend(spare.pop() for _ in range(size - len(row)))
        out.extend(reversed(spare))
        return out

    def outcomes(self) -> list[list[int]]:
        """The scripted chance outcomes: the one shuffle that stacks the deck."""
        return [self.order()]

    def game(self, **options: Any) -> RugbyLeagueCardsState:
        """A new game whose chance follows this script."""
        return RugbyLeagueCardsState(seed=0, options=options, chance=ScriptedChance(self.outcomes()))
