"""A Seasons player that knows the rules: a two-ply search over the draft.

Both teams and the draft are public, so the player looks at each of its
exchanges (and passing), the opponent's best reply to it, and scores the
season that would follow. It reads only ``view(seat)``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.core import View
from engine.players import Player
from engine.seasons.rules import PASS, score_season, swap_action


def _value(mine: list[str], theirs: list[str]) -> int:
    """How good ``mine`` is against ``theirs``: winning the season first, then the margin."""
    a, b = score_season(mine, theirs)
    sign = (a > b) - (a < b)
    return 100 * sign + (a - b)


def _swapped(team: list[str], draft: list[str], take: str, give: str) -> tuple[list[str], list[str]]:
    return ([take if c == give else c for c in team], [give if c == take else c for c in draft])


def _options(team: list[str], draft: list[str], can_swap: bool) -> Iterator[tuple[str, list[str], list[str]]]:
    yield PASS, team, draft
    if can_swap:
        for take in draft:
            for give in team:
                new_team, new_draft = _swapped(team, draft, take, give)
                yield swap_action(take, give), new_team, new_draft


class SeasonsAwarePlayer(Player):
    """Chooses the exchange that is best against the opponent's best reply."""

    level = "aware"
    needs_view = True

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        assert view is not None and view["seat"] is not None
        me = view["seat"]
        board = view["board"]
        mine, theirs, draft = board["teams"][me], board["teams"][1 - me], board["draft"]
        limit = board["max_exchanges"]
        opp_can_swap = board["exchanges"][1 - me] < limit
        best, best_value = PASS, None
        for action, team, pool in _options(mine, draft, True):
            if action not in legal:
                continue
            worst = None
            # After any reply of theirs we may act again, so this is a floor on what the exchange is worth.
            for _reply, their_team, _ in _options(theirs, pool, opp_can_swap):
                value = _value(team, their_team)
                worst = value if worst is None else min(worst, value)
            # Prefer passing on ties so drafts end; then the order of the legal list (stable).
            key = (worst, action == PASS)
            if best_value is None or key > best_value:
                best, best_value = action, key
        return best
