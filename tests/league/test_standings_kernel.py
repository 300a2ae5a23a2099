"""The odds' fast standings (``league.standings_kernel.TableKernel``) give exactly the order of
``league.standings.compute_standings``: random pools, results (walkovers included), points systems and tie-breaker
orders, with scores drawn from a small range so that ties are frequent."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from league import standings as s
from league.standings import PointsSystem, StandingEntry, compute_standings
from league.standings_kernel import TableKernel

# Every tie-breaker but the final ones (they can only come last), in any order.
ORDERABLE = [name for name in s.TIE_BREAKERS if name not in (s.PLACED_EQUALLY, s.DRAWING_LOTS)]


@st.composite
def points_systems(draw) -> PointsSystem:
    if draw(st.booleans()):
        return draw(st.sampled_from(list(s.POINTS_PRESETS.values())))
    order = draw(st.lists(st.sampled_from(ORDERABLE), unique=True, max_size=6))
    final = draw(st.sampled_from([None, s.PLACED_EQUALLY, s.DRAWING_LOTS]))
    return PointsSystem(
        win=draw(st.integers(1, 4)), draw=draw(st.integers(0, 2)), loss=draw(st.integers(0, 1)),
        try_bonus_threshold=draw(st.sampled_from([None, 2, 3, 4])), try_bonus_relative=draw(st.booleans()),
        losing_bonus_margin=draw(st.sampled_from([None, 3, 7])), all_wins_bonus=draw(st.sampled_from([0, 0, 3])),
        tie_breakers=tuple(order) + ((final,) if final else ()))


def _score(rng: random.Random) -> tuple[int, int, int, int]:
    """(home points, home tries, away points, away tries), from a small range: many draws and level tables."""
    home_tries, away_tries = rng.randint(0, 4), rng.randint(0, 4)
    return (home_tries * 5 + rng.choice([0, 2, 3]), home_tries, away_tries * 5 + rng.choice([0, 2, 3]), away_tries)


def _pool(rng: random.Random, teams: int, double: bool):
    codes = rng.sample(["FRA", "NZL", "ITA", "URU", "NAM", "IRE", "RSA", "SCO", "AAA", "BBB"], teams)
    entries = [StandingEntry(100 + i, code, code.title(), rng.choice([None, rng.randint(1, 30)]))
               for i, code in enumerate(codes)]
    pairs = [(a.entry_id, b.entry_id) for i, a in enumerate(entries) for b in entries[i + 1:]]
    if double:
        pairs += [(b, a) for a, b in pairs]
    rng.shuffle(pairs)
    return entries, pairs


@settings(max_examples=400, deadline=None)
@given(ps=points_systems(), coin=st.integers(0, 2**32), teams=st.integers(2, 6), double=st.booleans(),
       seed=st.sampled_from([None, 7, "cup"]))
def test_the_kernel_orders_every_draw_as_compute_standings_does(ps, coin, teams, double, seed):
    rng = random.Random(coin)
    entries, pairs = _pool(rng, teams, double)
    split = rng.randint(0, len(pairs))
    played = []
    for home, away in pairs[:split]:
        hp, ht, ap, at = _score(rng)
        kind = rng.choices(["played", "walkover_home", "walkover_away"], weights=[8, 1, 1])[0]
        if kind == "walkover_home":
            hp, ht, ap, at = 28, 4, 0, 0
        elif kind == "walkover_away":
            hp, ht, ap, at = 0, 0, 28, 4
        played.append((home, away, hp, ap, ht, at, kind))
    left = [(home, away, [_score(rng) for _ in range(rng.randint(1, 4))]) for home, away in pairs[split:]]
    kernel = TableKernel(entries, played, ps, left, seed=seed)
    for _ in range(12):
        picks = [rng.randrange(len(scores)) for _h, _a, scores in left]
        results = played + [(h, a, *(lambda x: (x[0], x[2], x[1], x[3]))(scores[p]), "played")
                            for (h, a, scores), p in zip(left, picks, strict=True)]
        expected = [row.entry_id for row in compute_standings(entries, results, ps, seed=seed)]
        assert kernel.order(picks) == expected
    mini_tables = {s.HEAD_TO_HEAD_POINTS, s.HEAD_TO_HEAD_POINTS_DIFFERENCE, s.HEAD_TO_HEAD_TRIES_DIFFERENCE}
    if not mini_tables & set(ps.tie_breakers):
        assert kernel.fallbacks == 0  # decided by the kernel itself, not handed to compute_standings


def test_world_rugby_ties_are_decided_without_the_exact_function():
    """The RWC's own tie-breakers (head-to-head, differences, points and tries for, ranking) are all the
    kernel's: no draw of an RWC pool falls back to compute_standings."""
    rng = random.Random(1)
    entries, pairs = _pool(rng, 5, False)
    left = [(home, away, [_score(rng) for _ in range(30)]) for home, away in pairs]
    kernel = TableKernel(entries, [], s.POINTS_PRESETS["world_rugby"], left)
    for _ in range(2000):
        kernel.order([rng.randrange(30) for _ in left])
    assert kernel.fallbacks == 0
