"""Swiss pairings: pure functions, no database.

A round pairs the teams by a minimum-cost perfect matching (Edmonds' blossom
algorithm, networkx) over the pairs that have not met yet. The costs are
ordered, each one only deciding between pairings equal on the ones before:

1. **score groups**: as few pairs as possible of teams on different points
   (a *cross-group pair*: one team floats down, one up);
2. **home and away**: as few teams as possible given a third home or a third
   away game in a row (counting games only: a bye neither breaks nor extends a
   run) — only unavoidable when both teams' last two games were home, or both
   away;
3. **float distance**: the smallest total points gap between opponents;
4. **ranking**: the smallest sum of squared ranking gaps, so neighbours meet
   (round one pairs 1-2, 3-4, ...; a group of winners A, C, E, G pairs A-C, E-G).

**Look-ahead, so the promised rounds never dead-end.** A round is refused if
the pairs still unplayed after it no longer hold a perfect matching for every
round still to play (``rounds_left`` disjoint perfect matchings, the bye
counted as a team). If the current unplayed pairs hold ``rounds_left + 1``
disjoint perfect matchings (true before round one for any number of rounds up
to :func:`swiss_rounds_possible`, since a round robin exists), one of them is an
acceptable round and leaves the rest, so by induction every promised round can
be paired whatever the results. When ``rounds_left`` is at most the unplayed
degree minus half the teams, Dirac's theorem (minimum degree at least half the
vertices: a Hamiltonian cycle, so a perfect matching, even after removing that
many matchings one by one) proves every round acceptable without a search;
otherwise the cheapest rounds are taken in order of cost (Murty's ranking of
matchings) and the first one whose remaining pairs can be split into the
rounds still to play (a search for disjoint perfect matchings) is kept. The
search is exact but has a step budget: a search out of steps counts as a
refusal, and the round falls back on the first of a set of disjoint matchings
found for this round and the rest together (the tests and bench/swiss.py
check that no search runs out). When even the current state cannot complete
every promised round (a team withdrew, say), the round is chosen to keep as
many of them as possible.

**Bye** (odd count): the lowest-ranked team among those with the fewest byes,
unless that leaves no acceptable round, then the next one up. The bye is part
of the look-ahead: a rest is one more "opponent" every team meets once.

**Home and away** of a pair, FIDE-like: the orientation that avoids a third
home or away game in a row; then the team with more away than home games
hosts; then the team that was away the last time their venues differed; then
the higher-ranked team.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import networkx as nx


class SwissError(ValueError):
    """No round can be paired under the rules (every remaining pairing would be a rematch)."""


@dataclass(frozen=True)
class SwissRound:
    """A round's pairings as (home, away) pairs, and the team resting (None with an even count)."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


def swiss_rounds_possible(team_count: int) -> int:
    """How many Swiss rounds ``team_count`` teams can always complete without a rematch (0 below two teams).

    Each pair meets at most once, so an even count plays at most n - 1 rounds and
    an odd count n (each team rests once). :func:`swiss_pairings`, told the rounds
    still to play, never pairs a round that leaves them unpairable, so any number
    of rounds up to this one is guaranteed whatever the results.
    """
    if team_count < 2:
        return 0
    return team_count - 1 + team_count % 2


def swiss_first_round(seeded: Sequence[Hashable]) -> SwissRound:
    """Round one of a Swiss by seed (best first): the top half against the bottom half, 1 v n/2+1, 2 v n/2+2...
    (FIDE's Dutch system), the last seed resting when the count is odd. The higher seed is at home on the
    first, third... pairing and away on the others, so home games are shared across the field.

    Any perfect matching of the teams is one round of some round robin (relabel the teams of a round robin
    that has it), so after this round every number of rounds up to :func:`swiss_rounds_possible` can still be
    paired without a rematch: :func:`swiss_pairings`' look-ahead takes over from round two.
    """
    teams = list(seeded)
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice in the seeding")
    if len(teams) < 2:
        raise SwissError("a Swiss round needs at least two teams")
    bye = teams.pop() if len(teams) % 2 else None
    half = len(teams) // 2
    pairs = []
    for board, (higher, lower) in enumerate(zip(teams[:half], teams[half:], strict=True)):
        pairs.append((higher, lower) if board % 2 == 0 else (lower, higher))
    return SwissRound(tuple(pairs), bye)


def swiss_pairings(ranked: Sequence[Hashable], *, played: Iterable[tuple[Hashable, Hashable]] = (),
                   byes: Mapping[Hashable, int] | None = None,
                   points: Mapping[Hashable, int | float | Fraction] | None = None,
                   venues: Mapping[Hashable, str] | None = None,
                   home_counts: Mapping[Hashable, int] | None = None,
                   rounds_left: int = 0) -> SwissRound:
    """The next round for ``ranked`` (best first: by points, then the tie-breakers).

    ``played``: the pairs that already met (either order; pairs with a team not
    in ``ranked`` are ignored). ``byes``: how many byes each team had.
    ``points``: each team's table points; teams on equal points form a score
    group (without it the whole field is one group). ``venues``: each team's
    games so far in round order, "H" for home and "A" for away (byes left out).
    ``home_counts``: only when ``venues`` is not given, how often each team was
    at home (the team with fewer home games hosts). ``rounds_left``: the rounds
    still to play after this one; the round is chosen so that they can all be
    paired without a rematch when that is possible, and so that as many of them
    as possible can be when it is not.
    """
    teams = list(ranked)
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice in the ranking")
    if len(teams) < 2:
        raise SwissError("a Swiss round needs at least two teams")
    if rounds_left < 0:
        raise ValueError("rounds_left cannot be negative")
    problem = _Round(teams, played, byes or {}, points, venues, home_counts or {})
    for depth in range(min(rounds_left, problem.max_depth()), -1, -1):
        for bye in problem.bye_candidates(depth):
            matching = problem.pair(bye, depth)
            if matching is not None:
                return problem.result(matching, bye)
    raise SwissError("every possible pairing for the next round would repeat a match already played")


# -- Inside a round: teams are numbered by ranking (0 is the best); with an odd count the rest is one more
# vertex ("dummy"), joined to the teams that may still take the bye.

_UNKNOWN = object()  # a search that ran out of steps: neither proved nor refuted

# Steps (edge assignments) for the first search for disjoint perfect matchings and for all its restarts, and
# rounds tried in order of cost before settling for the one the look-ahead proved possible. Generous: the
# property tests fail, and bench/swiss.py reports, whenever a search runs out of steps (none has so far).
FIRST_STEPS = 2_000
SEARCH_STEPS = 200_000
MAX_CANDIDATES = 500


def _found(result) -> bool:
    """Whether a search for disjoint perfect matchings found them (not refuted, not out of steps)."""
    return result is not None and result is not _UNKNOWN


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _triple(seq: str, venue: str) -> bool:
    """Whether one more ``venue`` game would be the third in a row."""
    return len(seq) >= 2 and seq[-1] == seq[-2] == venue


class _Round:
    """One round to pair: the unplayed pairs as bit masks (``adj``, the rest included), the cost of each pair,
    and each team's venues so far."""

    def __init__(self, teams, played, byes, points, venues, home_counts):
        self.teams = teams
        n = self.n = len(teams)
        index = {team: i for i, team in enumerate(teams)}
        adj = [((1 << n) - 1) & ~(1 << i) for i in range(n)]
        for pair in played:
            a, b = tuple(pair)
            i, j = index.get(a), index.get(b)
            if i is not None and j is not None and i != j:
                adj[i] &= ~(1 << j)
                adj[j] &= ~(1 << i)
        self.byes = [byes.get(team, 0) for team in teams]
        self.dummy = None
        if n % 2:
            # The rest is one more vertex, joined to the teams with the fewest byes.
            fewest = min(self.byes)
            self.dummy = n
            may_rest = sum(1 << i for i in range(n) if self.byes[i] == fewest)
            adj = [a | (1 << n if may_rest >> i & 1 else 0) for i, a in enumerate(adj)] + [may_rest]
        self.adj = adj
        self.size = len(adj)
        self.seqs = [venues.get(team, "") if venues is not None else "" for team in teams]
        if venues is not None:
            self.balance = [s.count("A") - s.count("H") for s in self.seqs]
        else:
            self.balance = [-home_counts.get(team, 0) for team in teams]
        self._costs(points)

    def _costs(self, points) -> None:
        n = self.n
        values = [Fraction(points.get(team, 0)) if points is not None else Fraction(0) for team in self.teams]
        scale = lcm(*(v.denominator for v in values))
        scaled = [int(v * scale) for v in values]
        # One integer per pair, the criteria in order of priority: each unit exceeds what all the criteria
        # below it can add up to over a whole round, so a matching's total compares them lexicographically.
        pairs = n // 2
        rank_max = (n - 1) ** 2
        gap_max = max(scaled) - min(scaled)
        unit_gap = pairs * rank_max + 1
        unit_venue = pairs * (gap_max * unit_gap + rank_max) + 1
        unit_cross = pairs * (unit_venue + gap_max * unit_gap + rank_max) + 1
        self.cost = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                gap = abs(scaled[i] - scaled[j])
                venue = int(self.unavoidable_triple(i, j))
                cost = (gap > 0) * unit_cross + venue * unit_venue + gap * unit_gap + (j - i) ** 2
                self.cost[i][j] = self.cost[j][i] = cost
        self.max_cost = unit_cross * 2

    def unavoidable_triple(self, i: int, j: int) -> bool:
        a, b = self.seqs[i], self.seqs[j]
        return (_triple(a, "H") and _triple(b, "H")) or (_triple(a, "A") and _triple(b, "A"))

    def max_depth(self) -> int:
        """No more rounds can follow this one than the fewest unplayed opponents (the rest counted) allow."""
        return max(0, min(a.bit_count() for a in self.adj) - 1)

    def bye_candidates(self, depth: int) -> list[int | None]:
        if self.dummy is None:
            return [None]
        order = sorted(range(self.n), key=lambda i: (self.byes[i], -i))
        if depth == 0:
            return order  # the last resort: anyone may rest, fewest byes and lowest-ranked first
        return [i for i in order if self.adj[self.dummy] >> i & 1]

    # -- choosing the round

    def pair(self, bye: int | None, depth: int) -> list[tuple[int, int]] | None:
        """The cheapest round with ``bye`` resting that leaves ``depth`` rounds pairable, or None."""
        nodes = [i for i in range(self.n) if i != bye]
        ranked = self._by_cost(nodes)
        best = next(ranked, None)
        if best is None:
            return None
        if depth == 0 or self._any_round_leaves(depth):
            return best[1]
        if _found(_disjoint_perfect_matchings(self._without(best[1], bye), depth)):
            return best[1]
        # The cheapest round dead-ends: find one that does not (a witness), then the cheapest such round.
        fixed = [(bye, self.dummy)] if bye is not None else []
        witness = _disjoint_perfect_matchings(self.adj, depth + 1, fixed=fixed)
        if witness is None:
            return None
        fallback = None
        if witness is not _UNKNOWN:
            fallback = sorted(e for e in witness[0] if self.dummy not in e)
            fallback_cost = self._total(fallback)
        for count, (cost, matching) in enumerate(ranked):
            if fallback is not None and cost >= fallback_cost:
                return fallback
            if count >= MAX_CANDIDATES:
                break
            if _found(_disjoint_perfect_matchings(self._without(matching, bye), depth)):
                return matching
        return fallback

    def _any_round_leaves(self, depth: int) -> bool:
        """Dirac: with minimum degree d on m vertices, any d - m/2 + 1 perfect matchings can be removed in turn.

        This round removes one, so ``depth`` more are certain when depth <= d - m / 2.
        """
        degree = min(a.bit_count() for a in self.adj)
        return depth <= degree - self.size // 2

    def _without(self, matching, bye) -> list[int]:
        adj = list(self.adj)
        edges = list(matching) + ([(bye, self.dummy)] if bye is not None else [])
        for i, j in edges:
            adj[i] &= ~(1 << j)
            adj[j] &= ~(1 << i)
        return adj

    def _total(self, matching) -> int:
        return sum(self.cost[i][j] for i, j in matching)

    def _cheapest(self, nodes, forced, forbidden) -> list[tuple[int, int]] | None:
        taken = {v for edge in forced for v in edge}
        rest = [v for v in nodes if v not in taken]
        graph = nx.Graph()
        graph.add_nodes_from(rest)
        top = self.max_cost + 1
        for x, i in enumerate(rest):
            row, cost = self.adj[i], self.cost[i]
            for j in rest[x + 1:]:
                if row >> j & 1 and (i, j) not in forbidden:
                    graph.add_edge(i, j, weight=top - cost[j])
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(rest):
            return None
        return sorted([*forced, *((min(a, b), max(a, b)) for a, b in matching)])

    def _by_cost(self, nodes) -> Iterator[tuple[int, list[tuple[int, int]]]]:
        """The perfect matchings of unplayed pairs among ``nodes``, cheapest first (Murty's partitioning)."""
        first = self._cheapest(nodes, (), frozenset())
        if first is None:
            return
        heap = [(self._total(first), 0, first, (), frozenset())]
        counter = 1
        while heap:
            cost, _n, matching, forced, forbidden = heapq.heappop(heap)
            yield cost, matching
            free = [edge for edge in matching if edge not in forced]
            for k, edge in enumerate(free[:-1]):  # the last free edge is forced by the others
                child_forced = (*forced, *free[:k])
                child_forbidden = forbidden | {edge}
                child = self._cheapest(nodes, child_forced, child_forbidden)
                if child is not None:
                    heapq.heappush(heap, (self._total(child), counter, child, child_forced, child_forbidden))
                    counter += 1

    # -- the result

    def result(self, matching, bye) -> SwissRound:
        pairs = tuple(self._orient(i, j) for i, j in sorted(matching))
        return SwissRound(pairs=pairs, bye=self.teams[bye] if bye is not None else None)

    def _orient(self, i: int, j: int) -> tuple[Hashable, Hashable]:
        """(home, away) for teams ranked i < j."""
        a, b = self.seqs[i], self.seqs[j]
        i_home_bad = _triple(a, "H") or _triple(b, "A")
        j_home_bad = _triple(b, "H") or _triple(a, "A")
        if i_home_bad != j_home_bad:
            host = j if i_home_bad else i
        elif self.balance[i] != self.balance[j]:
            host = i if self.balance[i] > self.balance[j] else j
        else:
            host = i
            for x, y in zip(reversed(a), reversed(b), strict=False):
                if x != y:
                    host = i if x == "A" else j
                    break
        other = j if host == i else i
        return self.teams[host], self.teams[other]


def _disjoint_perfect_matchings(adj: Sequence[int], k: int, *, fixed: Sequence[tuple[int, int]] = ()):
    """``k`` edge-disjoint perfect matchings of the graph ``adj`` (bit masks), the ``fixed`` edges in the first.

    Returns the matchings (lists of edges), None when there are none, or
    ``_UNKNOWN`` when the searches ran out of steps. Quick refutations first (a
    vertex with fewer than ``k`` edges, a connected piece of odd size, an odd
    set of vertices with fewer than ``k`` edges leaving it, which every perfect
    matching must cross). Then a backtracking search (:func:`_colour_search`);
    such searches have heavy tails (most finish in a few hundred steps, a few
    wander for a million), so a search that has not finished in its share of
    steps is restarted with the vertices renumbered in a fixed pseudo-random
    order, with growing shares (Luby et al.'s restart strategy).
    """
    m = len(adj)
    if k == 0:
        return []
    if m % 2 or any(a.bit_count() < k for a in adj):
        return None
    # A connected piece with an odd number of vertices has no perfect matching.
    seen = 0
    for v in range(m):
        if seen >> v & 1:
            continue
        piece = frontier = 1 << v
        while frontier:
            reach = 0
            for u in _bits(frontier):
                reach |= adj[u]
            frontier = reach & ~piece
            piece |= frontier
        if piece.bit_count() % 2:
            return None
        seen |= piece
    found = _colour_search(adj, k, fixed, FIRST_STEPS)
    if found is not _UNKNOWN:
        return found
    if _min_odd_cut(adj) < k:
        return None
    rng = random.Random(m * 1000 + k)
    spent, attempt = FIRST_STEPS, 1
    while spent < SEARCH_STEPS:
        share = FIRST_STEPS * _luby(attempt)
        order = list(range(m))
        rng.shuffle(order)  # order[new] = old
        new_of = {old: new for new, old in enumerate(order)}
        renumbered = [sum(1 << new_of[u] for u in _bits(adj[old])) for old in order]
        found = _colour_search(renumbered, k, [(new_of[v], new_of[u]) for v, u in fixed], share)
        if found is None:
            return None
        if found is not _UNKNOWN:
            return [[(min(order[v], order[u]), max(order[v], order[u])) for v, u in matching] for matching in found]
        spent += share
        attempt += 1
    return _UNKNOWN


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


def _min_odd_cut(adj: Sequence[int]) -> int:
    """The fewest edges leaving a set of an odd number of vertices (Padberg and Rao: the odd cuts of a
    Gomory-Hu tree include a minimum one)."""
    graph = nx.Graph()
    graph.add_nodes_from(range(len(adj)))
    graph.add_edges_from(((v, u) for v in range(len(adj)) for u in _bits(adj[v]) if u > v), capacity=1)
    tree = nx.gomory_hu_tree(graph)
    best = len(adj) ** 2
    for u, v, data in list(tree.edges(data=True)):
        tree.remove_edge(u, v)
        if len(nx.node_connected_component(tree, u)) % 2:
            best = min(best, data["weight"])
        tree.add_edge(u, v, **data)
    return best


def _colour_search(adj: Sequence[int], k: int, fixed: Sequence[tuple[int, int]], budget: int):
    """Backtracking for :func:`_disjoint_perfect_matchings`: colour edges with ``k`` colours so that every
    vertex has one edge of each colour. It always fills the (vertex, colour) with the fewest possible edges,
    and opens a fresh colour only as the lowest unused one (colours are interchangeable). Returns the
    matchings, None when there are none, or ``_UNKNOWN`` after ``budget`` steps."""
    m = len(adj)
    free = list(adj)
    need = [(1 << k) - 1] * m
    lacking = [(1 << m) - 1] * k
    stack: list[tuple[int, int, int, bool]] = []  # (v, u, colour, whether it opened the colour)
    used = 0

    def assign(v: int, u: int, c: int) -> None:
        nonlocal used
        opened = c == used
        if opened:
            used += 1
        free[v] &= ~(1 << u)
        free[u] &= ~(1 << v)
        need[v] &= ~(1 << c)
        need[u] &= ~(1 << c)
        lacking[c] &= ~((1 << v) | (1 << u))
        stack.append((v, u, c, opened))

    def undo() -> None:
        nonlocal used
        v, u, c, opened = stack.pop()
        if opened:
            used -= 1
        free[v] |= 1 << u
        free[u] |= 1 << v
        need[v] |= 1 << c
        need[u] |= 1 << c
        lacking[c] |= (1 << v) | (1 << u)

    for v, u in fixed:
        if not (free[v] >> u & 1 and lacking[0] >> v & 1 and lacking[0] >> u & 1):
            return None
        assign(v, u, 0)
    target = m * k // 2
    frames: list[list[int]] = []  # per search level: [remaining candidates] for the (v, colour) it fills
    count = 0
    while True:
        if len(stack) == target:
            break
        best, bv, bc, bcands = m + 1, -1, -1, 0
        window = (1 << min(used + 1, k)) - 1
        for v in range(m):
            wanted = need[v] & window
            if not wanted:
                continue
            fv = free[v]
            for c in _bits(wanted):
                cands = fv & lacking[c]
                cnt = cands.bit_count()
                if cnt < best:
                    best, bv, bc, bcands = cnt, v, c, cands
                    if cnt <= 1:
                        break
            if best <= 1:
                break
        if best > 0:
            u = (bcands & -bcands).bit_length() - 1
            frames.append([bv, bc, bcands & ~(1 << u)])
            assign(bv, u, bc)
            count += 1
            if count > budget:
                return _UNKNOWN
            continue
        # Dead end: back up to the latest level with another candidate.
        while frames:
            frame = frames[-1]
            undo()
            if frame[2]:
                u = (frame[2] & -frame[2]).bit_length() - 1
                frame[2] &= ~(1 << u)
                assign(frame[0], u, frame[1])
                count += 1
                if count > budget:
                    return _UNKNOWN
                break
            frames.pop()
        else:
            return None
    matchings: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for v, u, c, _opened in stack:
        matchings[c].append((min(v, u), max(v, u)))
    return matchings
