"""Scripted decks: reproduce a position from the rule book with :class:`engine.ScriptedChance`.

A :class:`Deck` lists the deals and tie-break draws in the order the game asks
for them (each deal: the home row, positions 1.., then the away row). The cards
a scenario does not name are filled with cards it never names, so the script
stays legal (every scripted card is still in the pile when it is drawn)::

    deck = Deck().deal(home="7S 3H JC", away="5D QD QS").deal(home="4H 10S", away="8C JD")
    state = deck.game()
"""

from __future__ import annotations

from engine.chance import ScriptedChance
from engine.registry import new_game
from engine.rugby_league_cards.rules import KICK_ROW, ROW, SPEC, parse_cards


class Deck:
    """Build a scripted chance source deal by deal."""

    def __init__(self):
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

    def outcomes(self, *, pad: bool = True) -> list[int]:
        """The scripted outcomes (card ints in drawing order).

        With ``pad`` the cards the scenario never touched follow, so play can go on past the
        scripted deals (until those run out too).
        """
        named = [card for step in self._steps for card in step[1] + step[2]]
        if len(named) != len(set(named)):
            raise ValueError("a scenario names the same card twice")
        spare = [card for card in range(52) if card not in set(named)]
        out: list[int] = []
        for kind, home, away, size in self._steps:
            if kind == "draw":
                out.extend(home)
                continue
            for row in (home, away):
                out.extend(row)
                out.extend(spare.pop() for _ in range(size - len(row)))
        if pad:
            out.extend(reversed(spare))
        return out

    def game(self, **options):
        """A new game whose chance follows this script."""
        return new_game(SPEC.id, seed=0, options=options, chance=ScriptedChance(self.outcomes()))
