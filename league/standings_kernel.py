"""A pool's finishing order for an inner loop: the same order as ``league.standings.compute_standings``, fast.

The qualification odds (``matches.odds``) build every pool's table 10,000 times, each time with the played
results plus a draw of scores for the fixtures left. :func:`~league.standings.compute_standings` makes a
whole table for people (rows, positions, the words of every tie-break) and is exact but slow for that. A
:class:`TableKernel` is made once per pool and then only answers "who finished where" for a draw:

* every score a remaining fixture can be drawn with is turned, once, into what it adds to each side's
  tally; a side's tally is one integer (table points, wins, played, points for and against, tries for and
  against packed in fixed-width fields), so adding a result is two integer additions;
* teams are ordered by table points; teams level on points go through the same tie-breakers as
  ``compute_standings`` (the points system's order, head-to-head only between exactly two, the process
  restarting for the next place, the team code when the list runs out), read from the packed tallies;
* the head-to-head mini-tables (``head_to_head_points``...) are not computed here: a tie that reaches one of
  them is handed to ``compute_standings`` itself, so the answer is always the exact one.

``tests/league/test_standings_kernel.py`` checks the order against ``compute_standings`` on random pools
and points systems, tie-breakers included.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from league.standings import (
    DRAWING_LOTS,
    HEAD_TO_HEAD,
    PLACED_EQUALLY,
    POINTS_DIFFERENCE,
    POINTS_FOR,
    TRIES_DIFFERENCE,
    TRIES_FOR,
    WINS,
    WORLD_RANKING,
    PointsSystem,
    StandingEntry,
    compute_standings,
)

# The packed tally: seven fields of WIDTH bits, table points highest. Tallies only ever grow (every field is a
# sum of non-negative numbers), so fields never borrow from each other below 2**WIDTH.
WIDTH = 24
_MASK = (1 << WIDTH) - 1
TRIES_AGAINST, TRIES_FOR_FIELD, AGAINST, FOR, PLAYED, WON, POINTS = range(7)


def _pack(points: int, won: int, played: int, scored: int, conceded: int, tries: int, tries_conceded: int) -> int:
    return ((((((points << WIDTH | won) << WIDTH | played) << WIDTH | scored) << WIDTH | conceded) << WIDTH
             | tries) << WIDTH | tries_conceded)


def _field(tally: int, field: int) -> int:
    return (tally >> (field * WIDTH)) & _MASK


def result_tallies(points_system: PointsSystem, home_score: int, away_score: int, home_tries: int, away_tries: int,
                   kind: str = "played") -> tuple[int, int, int]:
    """What one result adds to each side's packed tally, and who won it (1 home, -1 away, 0 a draw): the rules
    of ``compute_standings`` (bonus points, walkovers) for one match."""
    ps = points_system
    try_bonus = ps.try_bonus_threshold
    if ps.try_bonus_relative:
        home_bonus = away_bonus = 0
    else:
        home_bonus = 1 if try_bonus is not None and home_tries >= try_bonus else 0
        away_bonus = 1 if try_bonus is not None and away_tries >= try_bonus else 0
    if home_score == away_score:
        home_points = away_points = ps.draw
        winner = 0
    else:
        home_won = home_score > away_score
        winner = 1 if home_won else -1
        gave_walkover = kind == ("walkover_home" if home_won else "walkover_away")
        losing_bonus = int(ps.losing_bonus_margin is not None and abs(home_score - away_score) <= ps.losing_bonus_margin
                           and not gave_walkover)
        beaten = 0 if gave_walkover else ps.loss
        margin_bonus = int(ps.try_bonus_relative and try_bonus is not None
                           and abs(home_tries - away_tries) >= try_bonus and (home_tries > away_tries) == home_won)
        if home_won:
            home_bonus += margin_bonus
            away_bonus += losing_bonus
            home_points, away_points = ps.win, beaten
        else:
            away_bonus += margin_bonus
            home_bonus += losing_bonus
            home_points, away_points = beaten, ps.win
    home = _pack(home_points + home_bonus, int(winner == 1), 1, home_score, away_score, home_tries, away_tries)
    away = _pack(away_points + away_bonus, int(winner == -1), 1, away_score, home_score, away_tries, home_tries)
    return home, away, winner


# What each tie-breaker the kernel decides reads from a tally (bigger is better).
_TALLY_KEYS = {
    WINS: lambda t: _field(t, WON),
    POINTS_DIFFERENCE: lambda t: _field(t, FOR) - _field(t, AGAINST),
    TRIES_DIFFERENCE: lambda t: _field(t, TRIES_FOR_FIELD) - _field(t, TRIES_AGAINST),
    POINTS_FOR: lambda t: _field(t, FOR),
    TRIES_FOR: lambda t: _field(t, TRIES_FOR_FIELD),
}
_DECIDED_HERE = {HEAD_TO_HEAD, WORLD_RANKING, PLACED_EQUALLY, DRAWING_LOTS, *_TALLY_KEYS}


class TableKernel:
    """One pool: its entries, its played results and the fixtures left, each with the scores it may be drawn
    with. :meth:`order` gives the finishing order for one draw.

    ``fixtures``: (home entry id, away entry id, scores) per fixture left, scores being (home points, home
    tries, away points, away tries) tuples -- the odds' score model; a draw picks one index per fixture.
    """

    def __init__(self, entries: Sequence[StandingEntry], played: Sequence[tuple], points_system: PointsSystem,
                 fixtures: Sequence[tuple[int, int, Sequence[tuple[int, int, int, int]]]], *,
                 seed: int | str | None = None):
        self.entries = list(entries)
        self.played = list(played)
        self.points_system = points_system
        self.seed = seed
        index = {e.entry_id: i for i, e in enumerate(self.entries)}
        self.ids = [e.entry_id for e in self.entries]
        self.codes = [e.team_code for e in self.entries]
        self.rankings = [-e.world_ranking if e.world_ranking is not None else float("-inf") for e in self.entries]
        self.base = [0] * len(self.entries)
        # Matches won between two teams in the played results (head-to-head).
        self.base_wins: dict[tuple[int, int], int] = {}
        cache: dict[tuple, tuple[int, int, int]] = {}
        for home_id, away_id, home_score, away_score, home_tries, away_tries, kind in self.played:
            h, a = index.get(home_id), index.get(away_id)
            if h is None or a is None:
                continue  # another table's result, as compute_standings ignores it
            home, away, winner = result_tallies(points_system, home_score, away_score, home_tries, away_tries, kind)
            self.base[h] += home
            self.base[a] += away
            if winner:
                key = (h, a) if winner == 1 else (a, h)
                self.base_wins[key] = self.base_wins.get(key, 0) + 1
        # Per fixture left: (home index, away index, [(home tally, away tally, winner) per score]).
        self.fixtures: list[tuple[int, int, list[tuple[int, int, int]]]] = []
        self.meetings: dict[frozenset[int], list[tuple[int, int]]] = {}  # fixtures left between two teams
        for home_id, away_id, scores in fixtures:
            h, a = index[home_id], index[away_id]
            table = []
            for hp, ht, ap, at in scores:
                key = (hp, ht, ap, at)
                if key not in cache:
                    cache[key] = result_tallies(points_system, hp, ap, ht, at)
                table.append(cache[key])
            self.meetings.setdefault(frozenset((h, a)), []).append((len(self.fixtures), h))
            self.fixtures.append((h, a, table))
        self._left = [(home_id, away_id, list(scores)) for home_id, away_id, scores in fixtures]
        self.full_programme = len(self.entries) - 1
        self.exact_only = any(name not in _DECIDED_HERE for name in points_system.tie_breakers)
        self._lots: list[int] | None = None
        self.fallbacks = 0  # how many draws compute_standings decided (a tie reaching a mini-table)

    def order(self, picks: Sequence[int]) -> list[int]:
        """Entry ids in finishing order when fixture ``i`` left ends with its score number ``picks[i]``."""
        tallies = self.base[:]
        for (h, a, table), pick in zip(self.fixtures, picks, strict=True):
            home, away, _winner = table[pick]
            tallies[h] += home
            tallies[a] += away
        bonus = self.points_system.all_wins_bonus
        if bonus and self.full_programme > 0:
            for i, tally in enumerate(tallies):
                if _field(tally, WON) == _field(tally, PLAYED) == self.full_programme:
                    tallies[i] += bonus << (POINTS * WIDTH)
        shift = POINTS * WIDTH
        points = [tally >> shift for tally in tallies]
        ranked = sorted(range(len(tallies)), key=points.__getitem__, reverse=True)
        order: list[int] = []
        start = 0
        while start < len(ranked):
            end = start + 1
            while end < len(ranked) and points[ranked[end]] == points[ranked[start]]:
                end += 1
            if end - start == 1:
                order.append(ranked[start])
            else:
                if self.exact_only:
                    return self._exact(picks)
                placed = self._level(ranked[start:end], tallies, picks)
                if placed is None:
                    return self._exact(picks)
                order += placed
            start = end
        ids = self.ids
        return [ids[i] for i in order]

    def _level(self, group: list[int], tallies: list[int], picks: Sequence[int]) -> list[int] | None:
        """Teams level on points, in the order the tie-breakers give (None when a mini-table would decide)."""
        codes = self.codes
        remaining = sorted(group, key=codes.__getitem__)
        placed: list[int] = []
        while remaining:
            if len(remaining) == 1:
                placed.append(remaining.pop())
                break
            taken = self._contest(remaining, tallies, picks)
            if taken is None:
                return None
            for i in taken:
                placed.append(i)
                remaining.remove(i)
        return placed

    def _contest(self, candidates: list[int], tallies: list[int], picks: Sequence[int]) -> list[int] | None:
        """Who takes the next place among ``candidates`` (``league.standings._contest``, on tallies)."""
        for name in self.points_system.tie_breakers:
            if name == PLACED_EQUALLY:
                return list(candidates)
            if name == DRAWING_LOTS:
                lots = self._lots_order()
                return [min(candidates, key=lots.__getitem__)]
            if name == HEAD_TO_HEAD:
                if len(candidates) != 2:
                    continue
                a, b = candidates
                values = dict(zip((a, b), self._head_to_head(a, b, picks), strict=True))
            elif name == WORLD_RANKING:
                values = {i: self.rankings[i] for i in candidates}
            else:
                key = _TALLY_KEYS.get(name)
                if key is None:
                    return None  # a mini-table: compute_standings decides
                values = {i: key(tallies[i]) for i in candidates}
            best = max(values[i] for i in candidates)
            candidates = [i for i in candidates if values[i] == best]
            if len(candidates) == 1:
                return candidates
        return [min(candidates, key=self.codes.__getitem__)]

    def _head_to_head(self, a: int, b: int, picks: Sequence[int]) -> tuple[int, int]:
        """How many of their matches each of ``a`` and ``b`` won (played ones and this draw's)."""
        wins_a, wins_b = self.base_wins.get((a, b), 0), self.base_wins.get((b, a), 0)
        for fixture, home in self.meetings.get(frozenset((a, b)), ()):
            winner = self.fixtures[fixture][2][picks[fixture]][2]
            if winner:
                home_won = winner == 1
                if (home == a) == home_won:
                    wins_a += 1
                else:
                    wins_b += 1
        return wins_a, wins_b

    def _lots_order(self) -> list[int]:
        """Each team's place in the lots drawn from the seed: the draw ``compute_standings`` makes."""
        if self._lots is None:
            drawn = sorted(range(len(self.entries)), key=self.codes.__getitem__)
            random.Random(f"lots:{self.seed}").shuffle(drawn)
            self._lots = [0] * len(drawn)
            for place, i in enumerate(drawn):
                self._lots[i] = place
        return self._lots

    def _exact(self, picks: Sequence[int]) -> list[int]:
        """The order from ``compute_standings`` itself (a tie that reaches a mini-table)."""
        self.fallbacks += 1
        results = list(self.played)
        for (home_id, away_id, scores), pick in zip(self._left, picks, strict=True):
            hp, ht, ap, at = scores[pick]
            results.append((home_id, away_id, hp, ap, ht, at, "played"))
        rows = compute_standings(self.entries, results, self.points_system, seed=self.seed)
        return [row.entry_id for row in rows]
