"""Swiss pairings: pure functions, no database.

Each round pairs teams on the same points (or as close as possible), never
twice the same two teams, and when the number of teams is odd one team rests:
the lowest-ranked team among those with the fewest byes so far, so the bye
moves to a different team each round until everybody has had one.

The pairing is first a depth-first search: the best-placed unpaired team takes
the nearest team below it in the ranking that it has not met yet, and the
search backs up when that leaves the rest unpairable. That search is
exponential in bad cases, so when its step budget runs out the round is paired
as a maximum-weight perfect matching (Edmonds' blossom algorithm, networkx)
that minimises the squared ranking gaps between opponents: it finds a
rematch-free round whenever one exists. After ``r`` rounds of ``n`` teams each
team still has at least ``n - 1 - r`` possible opponents, so by Dirac's theorem
a rematch-free round always exists while ``r < n / 2``; later rounds usually
work too, and :class:`SwissError` says so when none does.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx


class SwissError(ValueError):
    """No round can be paired under the rules (every remaining pairing would be a rematch)."""


@dataclass(frozen=True)
class SwissRound:
    """A round's pairings as (home, away) pairs, and the team resting (None with an even count)."""

    pairs: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


# The search is exponential in the worst case; bound it so a hopeless round fails fast.
_MAX_STEPS = 20_000


def _pair_by_matching(ranked: list[Hashable], met: set[frozenset]) -> list[tuple] | None:
    """A rematch-free perfect matching minimising the squared ranking gaps, or None."""
    graph = nx.Graph()
    n = len(ranked)
    for i in range(n):
        for j in range(i + 1, n):
            if frozenset((ranked[i], ranked[j])) not in met:
                graph.add_edge(i, j, weight=n * n - (j - i) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return [(ranked[i], ranked[j]) for i, j in sorted((min(a, b), max(a, b)) for a, b in matching)]


def _pair(ranked: list[Hashable], met: set[frozenset], budget: list[int]) -> list[tuple] | None:
    if not ranked:
        return []
    top, rest = ranked[0], ranked[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((top, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, budget)
        if tail is not None:
            return [(top, other), *tail]
    return None


def swiss_pairings(ranked: Sequence[Hashable], *, played: Iterable[tuple[Hashable, Hashable]] = (),
                   byes: Mapping[Hashable, int] | None = None,
                   home_counts: Mapping[Hashable, int] | None = None) -> SwissRound:
    """The next round for ``ranked`` (best first: by points, then the tie-breakers).

    ``played`` are the pairs that already met (in either order); ``byes`` how
    many byes each team had; ``home_counts`` how often each was at home, to
    give home advantage to the team that had it less (the higher-ranked on a tie).
    """
    teams = list(ranked)
    if len(set(teams)) != len(teams):
        raise ValueError("a team appears twice in the ranking")
    if len(teams) < 2:
        raise SwissError("a Swiss round needs at least two teams")
    met = {frozenset(p) for p in played}
    byes = byes or {}
    home_counts = home_counts or {}
    if len(teams) % 2:
        # Fewest byes first, then the lowest-ranked: the bye rotates down the table.
        candidates = sorted(range(len(teams)), key=lambda i: (byes.get(teams[i], 0), -i))
        bye_options = [teams[i] for i in candidates]
    else:
        bye_options = [None]
    for bye in bye_options:
        rest = [t for t in teams if t != bye]
        budget = [_MAX_STEPS]
        pairs = _pair(rest, met, budget)
        if pairs is None and budget[0] < 0:
            pairs = _pair_by_matching(rest, met)
        if pairs is not None:
            oriented = tuple((b, a) if home_counts.get(b, 0) < home_counts.get(a, 0) else (a, b) for a, b in pairs)
            return SwissRound(pairs=oriented, bye=bye)
    raise SwissError("every possible pairing for the next round would repeat a match already played")


def swiss_rounds_possible(team_count: int) -> int:
    """Rounds that can always be paired without a rematch (Dirac's bound), at least one."""
    return max(1, team_count // 2) if team_count % 2 == 0 else max(1, (team_count - 1) // 2)
