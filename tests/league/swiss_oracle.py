"""An independent referee for Swiss rounds: what the best possible round would have been, by other means.

``league.swiss`` picks a round by Murty's ranking of matchings and a colouring
search; this module decides the same questions without any of that code:

* :func:`best_score`: the fewest cross-group pairs, then the fewest unavoidable
  third home / away games in a row, over every rematch-free round with the same
  bye that leaves the rounds still to play pairable. A plain minimum-weight
  matching (networkx) gives the best score without look-ahead; when the round
  under test scores worse, that matching is the answer if it leaves the rest
  pairable, and otherwise every cheaper round is enumerated by brute force, its
  future checked by brute force too.
* :func:`rounds_remain`: whether ``k`` rounds can still be paired (brute-force
  recursion over perfect matchings, memoised; Dirac's theorem as the only
  shortcut).

:func:`play` runs a whole random tournament through a pairing function and
counts what the referee saw. Used by ``tests/league/test_swiss.py`` and
``bench/swiss.py``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache

import networkx as nx

CROSS, TRIPLE = 1000, 1  # score = cross-group pairs * CROSS + unavoidable triples (fewer than 1000 pairs)


class Inconclusive(Exception):
    """The brute force would take too long for this state."""


def ends_in_three(seq: str) -> bool:
    return seq[-3:] in ("HHH", "AAA")


def pair_score(a: Hashable, b: Hashable, points: Mapping, venues: Mapping[Hashable, str]) -> int:
    """CROSS for teams on different points, plus TRIPLE when either venue gives someone a third in a row."""
    last_a, last_b = venues.get(a, "")[-2:], venues.get(b, "")[-2:]
    triple = last_a == last_b and last_a in ("HH", "AA")
    return CROSS * (points.get(a, 0) != points.get(b, 0)) + TRIPLE * triple


def round_score(pairs, points, venues) -> int:
    return sum(pair_score(a, b, points, venues) for a, b in pairs)


def split(score: int) -> tuple[int, int]:
    """(cross-group pairs, unavoidable triples) of a score."""
    return divmod(score, CROSS)


def _graph(teams: Sequence[Hashable], played, byes: Mapping, rest: Hashable | None):
    """The vertices and unplayed pairs (frozensets) among ``teams``; with an odd count a vertex ``"<rest>"``
    (the bye) joins the teams with the fewest byes (other than ``rest``, who takes this round's)."""
    met = {frozenset(p) for p in played}
    edges = {frozenset((a, b)) for i, a in enumerate(teams) for b in teams[i + 1:] if frozenset((a, b)) not in met}
    if len(teams) % 2:
        fewest = min(byes.get(t, 0) for t in teams)
        edges |= {frozenset((t, "<rest>")) for t in teams if byes.get(t, 0) == fewest and t != rest}
        return [*teams, "<rest>"], edges
    return list(teams), edges


def rounds_remain(vertices: Sequence, edges: frozenset, k: int, limit: int = 200_000) -> bool:
    """Whether ``edges`` hold ``k`` disjoint perfect matchings of ``vertices``."""
    vertices = list(vertices)
    budget = [limit]

    @cache
    def solve(remaining: frozenset, k: int) -> bool:
        if k == 0:
            return True
        degree = dict.fromkeys(vertices, 0)
        for e in remaining:
            for v in e:
                degree[v] += 1
        if min(degree.values()) < k:
            return False
        if k <= min(degree.values()) - len(vertices) // 2 + 1:
            return True  # Dirac: minimum degree >= m/2 means a perfect matching, again after each removal
        adjacency = {v: set() for v in vertices}
        for e in remaining:
            a, b = tuple(e)
            adjacency[a].add(b)
            adjacency[b].add(a)
        for matching in _perfect_matchings(vertices, adjacency):
            budget[0] -= 1
            if budget[0] < 0:
                raise Inconclusive
            if solve(remaining - frozenset(frozenset(p) for p in matching), k - 1):
                return True
        return False

    if len(vertices) % 2:
        return k == 0
    return solve(frozenset(edges), k)


def _perfect_matchings(vertices, adjacency, taken=frozenset()):
    free = [v for v in vertices if v not in taken]
    if not free:
        yield []
        return
    # The free vertex with the fewest free partners first.
    v = min(free, key=lambda x: len(adjacency[x] - taken))
    for u in sorted(adjacency[v] - taken, key=str):
        for rest in _perfect_matchings(vertices, adjacency, taken | {v, u}):
            yield [(v, u), *rest]


def best_score(ranked: Sequence[Hashable], *, played, byes: Mapping, points: Mapping, venues: Mapping,
               bye: Hashable | None, rounds_left: int, beat: int | None = None, limit: int = 20_000) -> int:
    """The best score of a round with ``bye`` resting that leaves ``rounds_left`` rounds pairable.

    ``beat``: the score of the round under test; only rounds scoring less are
    searched for (the answer is then ``beat`` when none is found).
    Raises :class:`Inconclusive` past ``limit`` enumerated rounds.
    """
    teams = list(ranked)
    playing = [t for t in teams if t != bye]
    met = {frozenset(p) for p in played}
    graph = nx.Graph()
    graph.add_nodes_from(playing)
    for i, a in enumerate(playing):
        for b in playing[i + 1:]:
            if frozenset((a, b)) not in met:
                graph.add_edge(a, b, weight=10**6 - pair_score(a, b, points, venues))
    plain = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(plain) != len(playing):
        raise ValueError("no rematch-free round at all")
    lower = round_score(plain, points, venues)
    if beat is not None and beat <= lower:
        return beat
    vertices, edges = _graph(teams, played, byes, bye)
    try:
        if rounds_remain(vertices, frozenset(edges) - frozenset(frozenset(p) for p in plain), rounds_left):
            return lower  # the best round without look-ahead leaves the rest pairable: nothing can beat it
    except Inconclusive:
        pass
    adjacency = {v: {u for u in playing if u != v and frozenset((u, v)) in edges} for v in playing}
    best = beat
    count = 0
    for matching in _perfect_matchings(playing, adjacency):
        count += 1
        if count > limit:
            raise Inconclusive
        score = round_score(matching, points, venues)
        if best is not None and score >= best:
            continue
        future = frozenset(edges) - frozenset(frozenset(p) for p in matching)
        if rounds_remain(vertices, future, rounds_left):
            best = score
            if best == lower:
                break
    return best


# -- Playing whole tournaments -----------------------------------------------------------------------------

@dataclass
class Report:
    """What happened in one simulated Swiss tournament (counts over its rounds)."""

    rounds: int = 0  # rounds paired
    dead_end: bool = False  # a round could not be paired without a rematch
    rematches: int = 0
    cross: int = 0  # cross-group pairs made
    cross_min: int = 0  # the fewest possible, round by round on the same states (the referee's)
    avoidable_triples: int = 0  # thirds in a row beyond the fewest possible (in rounds with the fewest floats)
    triples: int = 0  # teams given a third home or away game in a row
    teams_with_triple: int = 0
    pairing_seconds: float = 0.0
    inconclusive: int = 0  # rounds the referee could not settle by brute force


def result_for(seed, number: int, home, away, strength: Mapping, bonus: bool) -> tuple[int, int]:
    """Table points (home, away) of a match: the same teams in the same round give the same result, whatever
    algorithm paired them (so two algorithms play "the same tournament" as far as their pairings allow)."""
    rng = random.Random(f"{seed}:{number}:{home}:{away}")
    edge = strength[home] - strength[away]
    roll = rng.random() + edge
    home_points, away_points = (4, 0) if roll > 0.55 else (0, 4) if roll < 0.45 else (2, 2)
    if bonus:
        home_points += rng.choice((0, 0, 1))
        away_points += rng.choice((0, 0, 1))
    return home_points, away_points


def play(pair, n: int, rounds: int, seed, *, bonus: bool, referee: bool = True) -> Report:
    """Play ``rounds`` Swiss rounds of ``n`` teams, pairing with ``pair(ranked, played=, byes=, points=, venues=,
    rounds_left=)`` (a :class:`league.swiss.SwissRound`), with random results; the referee checks each round."""
    rng = random.Random(f"strengths:{seed}")
    teams = [f"T{i:02d}" for i in range(n)]
    strength = {t: rng.uniform(-0.3, 0.3) for t in teams}
    points = dict.fromkeys(teams, 0)
    played: list[tuple] = []
    byes: dict = {}
    venues = dict.fromkeys(teams, "")
    report = Report()
    for number in range(1, rounds + 1):
        ranked = sorted(teams, key=lambda t: (-points[t], t))
        rounds_left = rounds - number
        start = time.perf_counter()
        try:
            rnd = pair(ranked, played=played, byes=byes, points=points, venues=venues, rounds_left=rounds_left)
        except ValueError:  # SwissError
            report.dead_end = True
            break
        finally:
            report.pairing_seconds += time.perf_counter() - start
        report.rounds += 1
        met = {frozenset(p) for p in played}
        report.rematches += sum(frozenset(p) in met for p in rnd.pairs)
        score = round_score(rnd.pairs, points, venues)
        cross = split(score)[0]
        report.cross += cross
        best = None
        if referee and not report.rematches:
            try:
                best = best_score(ranked, played=played, byes=byes, points=points, venues=venues, bye=rnd.bye,
                                  rounds_left=rounds_left, beat=score)
            except Inconclusive:
                report.inconclusive += 1
                best = score
            report.cross_min += split(best)[0]
        triples = 0
        for home, away in rnd.pairs:
            played.append((home, away))
            venues[home] += "H"
            venues[away] += "A"
            triples += ends_in_three(venues[home]) + ends_in_three(venues[away])
        report.triples += triples
        if best is not None and split(best)[0] == cross:
            # With as few floats as possible, no more thirds in a row than the fewest such a round allows.
            report.avoidable_triples += max(0, triples - split(best)[1])
        for home, away in rnd.pairs:
            home_points, away_points = result_for(seed, number, home, away, strength, bonus)
            points[home] += home_points
            points[away] += away_points
        if rnd.bye is not None:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
            points[rnd.bye] += 4  # a bye counts as a win
    report.teams_with_triple = sum(any(v[i:i + 3] in ("HHH", "AAA") for i in range(len(v))) for v in venues.values())
    return report


@contextmanager
def searches_out_of_steps(module):
    """Within the block, list the look-ahead searches of ``module`` (league.swiss) that ran out of steps.

    Such a search counts as "no", so the round it judged might not have been the best one possible; the
    tests require none and bench/swiss.py reports how many.
    """
    original = module._disjoint_perfect_matchings
    ran_out: list = []

    def counted(*args, **kwargs):
        found = original(*args, **kwargs)
        if found is module._UNKNOWN:
            ran_out.append(args)
        return found

    module._disjoint_perfect_matchings = counted
    try:
        yield ran_out
    finally:
        module._disjoint_perfect_matchings = original
