"""Knockout brackets as plans: pure functions, no database.

A plan is a list of :class:`MatchSpec`: each match has a code ("QF1", "SF2",
"F", or with a prefix for a second bracket, "PLATE-SF1"), a round, and two
*sources* that say where its teams come from:

* ``"seed:3"`` — the entry seeded 3 (single elimination);
* ``"pool:A:1"`` — the team placed 1st in Pool A when the pool is complete;
* ``"winner:QF1"`` / ``"loser:SF2"`` — the winner or loser of another match.

Byes are not matches: a team with a bye goes straight into the next round, so
the next match's source is the team's own source ("seed:1") rather than a
winner. ``Bracket.byes`` lists who had one, so views can still show them.

Seeding follows the standard order (1 v N, 2 v N-1, ...), built so that seeds
1 and 2 are in different halves, 1-4 in different quarters, and so on: with
the top seeds winning, the last four are seeds 1-4. When the number of teams
is not a power of two the byes go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

BYE = "bye"


@dataclass(frozen=True)
class MatchSpec:
    """One knockout match of a plan."""

    code: str
    round_number: int
    round_name: str
    home_source: str
    away_source: str
    bracket: str = ""
    slot: int = 0


@dataclass
class Bracket:
    """A knockout plan: its matches in playing order, and the sources that had a first-round bye."""

    name: str
    matches: list[MatchSpec] = field(default_factory=list)
    byes: list[str] = field(default_factory=list)

    @property
    def rounds(self) -> int:
        """How many rounds the bracket has (the third-place match shares the final's round)."""
        return max((m.round_number for m in self.matches), default=0)

    def match(self, code: str) -> MatchSpec:
        """The match with this code (KeyError if absent)."""
        for m in self.matches:
            if m.code == code:
                return m
        raise KeyError(code)


def bracket_size(n: int) -> int:
    """The smallest power of two holding ``n`` teams."""
    return 1 << max(0, n - 1).bit_length()


def seed_order(size: int) -> list[int]:
    """Seeds 1..size in bracket order: adjacent pairs play each other in round one.

    For 8: [1, 8, 4, 5, 2, 7, 3, 6] — 1 v 8 and 4 v 5 in the top half, 2 v 7 and
    3 v 6 in the bottom one. Each doubling puts seed s next to seed (2k + 1 - s),
    which keeps the seeds of each round's favourites as far apart as possible.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        k = len(order) * 2
        order = [x for s in order for x in (s, k + 1 - s)]
    return order


def round_label(teams_left: int) -> tuple[str, str]:
    """(round name, code stem) for a round starting with ``teams_left`` teams."""
    if teams_left == 2:
        return "Final", "F"
    if teams_left == 4:
        return "Semi-final", "SF"
    if teams_left == 8:
        return "Quarter-final", "QF"
    return f"Round of {teams_left}", f"R{teams_left}-"


def knockout(entrants: Sequence[str], *, name: str = "", prefix: str = "", third_place: bool = False,
             seeded: bool = True) -> Bracket:
    """A single-elimination plan for ``entrants`` (sources, best seed first).

    ``seeded``: place them in the standard seed order (byes to the top seeds);
    otherwise pair them as listed (1 v 2, 3 v 4...), used when the entrants are
    already a bracket order, e.g. the losers of the Cup quarter-finals dropping
    to the Plate. ``third_place`` adds a match between the semi-final losers
    (when both semi-finals are real matches).
    """
    n = len(entrants)
    if n < 2:
        raise ValueError("a knockout needs at least two teams")
    if len(set(entrants)) != n:
        raise ValueError("the same team appears twice in the knockout")
    size = bracket_size(n)
    if seeded or n != size:
        leaves: list[str | None] = [entrants[s - 1] if s <= n else None for s in seed_order(size)]
    else:
        leaves = list(entrants)
    plan = Bracket(name=name)
    current = leaves
    round_number = 0
    semi_codes: list[str] = []
    slot = 0
    while len(current) > 1:
        round_number += 1
        round_name, stem = round_label(len(current))
        nxt: list[str | None] = []
        index = 0
        for home, away in zip(current[::2], current[1::2], strict=True):
            if home is None or away is None:
                # A bye: the top seed goes through without a match.
                through = home if away is None else away
                plan.byes.append(through)
                nxt.append(through)
                continue
            index += 1
            code = f"{prefix}F" if stem == "F" else f"{prefix}{stem}{index}"
            if stem == "SF":
                semi_codes.append(code)
            if stem == "F" and third_place and len(semi_codes) == 2:
                plan.matches.append(MatchSpec(f"{prefix}BF", round_number, "Bronze final",
                                              f"loser:{semi_codes[0]}", f"loser:{semi_codes[1]}", name, slot))
                slot += 1
            plan.matches.append(MatchSpec(code, round_number, round_name, home, away, name, slot))
            slot += 1
            nxt.append(f"winner:{code}")
        current = nxt
    return plan


# -- Pools into knockouts ---------------------------------------------------------------------------------

def _pool_of(source: str) -> str:
    return source.split(":")[1]


def _early_meetings_cost(order: list[str | None], rounds: int, weight: int) -> int:
    """Penalty for teams of the same pool meeting early: a meeting in round r costs weight**(rounds - r).

    Leaves i and j (0-based bracket positions) can first meet in round
    ``(i ^ j).bit_length()``, so the sum compares arrangements by their number of
    same-pool meetings in round 1, then round 2, and so on.
    """
    cost = 0
    by_pool: dict[str, list[int]] = {}
    for position, source in enumerate(order):
        if source is not None:
            by_pool.setdefault(_pool_of(source), []).append(position)
    for positions in by_pool.values():
        for i, j in combinations(positions, 2):
            cost += weight ** (rounds - (i ^ j).bit_length())
    return cost


def crossover_entrants(pool_names: Sequence[str], positions: Sequence[int]) -> list[str]:
    """Qualifiers from pools in seed order, arranged so that teams of one pool meet as late as possible.

    The seed order is by finishing place (all pool winners, then all
    runners-up, ...), so winners meet runners-up and take any byes. Within one
    finishing place the teams are then swapped around (a local search over the
    whole bracket) to keep teams of the same pool apart for as many rounds as
    the numbers allow: with the top two of each pool, they can only meet in the
    final.
    """
    if not pool_names or not positions:
        raise ValueError("a crossover needs pools and at least one qualifying place")
    tiers: list[list[str]] = []
    for i, position in enumerate(positions):
        names = list(pool_names) if i % 2 == 0 else list(reversed(pool_names))
        tiers.append([f"pool:{p}:{position}" for p in names])
    seeds = [s for tier in tiers for s in tier]
    n = len(seeds)
    if n < 2:
        return seeds
    size = bracket_size(n)
    rounds = size.bit_length() - 1
    order = seed_order(size)
    weight = n * n + 1

    def cost_of(seed_list: list[str]) -> int:
        leaves = [seed_list[s - 1] if s <= n else None for s in order]
        return _early_meetings_cost(leaves, rounds, weight)

    # Place one finishing place at a time: each tier's pools go to that tier's seeds by an exact
    # minimum-cost assignment against the teams already placed, then a swap search polishes the whole.
    leaf_of_seed = {seed: leaf for leaf, seed in enumerate(order)}
    start = len(tiers[0])
    for tier in tiers[1:]:
        placed = seeds[:start]
        slots = list(range(start, start + len(tier)))
        matrix = []
        for default, source in enumerate(tier):
            pool = _pool_of(source)
            mates = [leaf_of_seed[i + 1] for i, other in enumerate(placed) if _pool_of(other) == pool]
            row = []
            for column, slot in enumerate(slots):
                leaf = leaf_of_seed[slot + 1]
                clash = sum(weight ** (rounds - (leaf ^ m).bit_length()) for m in mates)
                # Ties keep the listed order, so the plan is stable and easy to read.
                row.append(clash * (n + 1) + (column != default))
            matrix.append(row)
        for row_index, column in enumerate(_assignment(matrix)):
            seeds[slots[column]] = tier[row_index]
        start += len(tier)

    best = cost_of(seeds)
    tier_ranges = []
    start = 0
    for tier in tiers:
        tier_ranges.append(range(start, start + len(tier)))
        start += len(tier)
    improved = True
    while improved and best:
        improved = False
        # Lowest places first: pool winners keep their seeds (A1 = seed 1...) unless moving them helps.
        for seed_range in reversed(tier_ranges):
            for i, j in combinations(seed_range, 2):
                seeds[i], seeds[j] = seeds[j], seeds[i]
                cost = cost_of(seeds)
                if cost < best:
                    best = cost
                    improved = True
                else:
                    seeds[i], seeds[j] = seeds[j], seeds[i]
    return seeds


def _assignment(cost: list[list[int]]) -> list[int]:
    """Minimum-cost assignment (Hungarian method) of rows to columns of a square matrix: column per row."""
    n = len(cost)
    inf = float("inf")
    u = [0] * (n + 1)
    v = [0] * (n + 1)
    p = [0] * (n + 1)
    way = [0] * (n + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(n + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    result = [0] * n
    for j in range(1, n + 1):
        result[p[j] - 1] = j - 1
    return result


def pools_knockout(pool_names: Sequence[str], qualifiers_per_pool: int, *, name: str = "", prefix: str = "",
                   third_place: bool = False, positions: Sequence[int] | None = None) -> Bracket:
    """The knockout after pools: the top ``qualifiers_per_pool`` of each pool (or the given ``positions``)."""
    places = list(positions) if positions else list(range(1, qualifiers_per_pool + 1))
    return knockout(crossover_entrants(pool_names, places), name=name, prefix=prefix, third_place=third_place)


def rwc2023_knockout() -> Bracket:
    """The Rugby World Cup 2023 knockout stage, exactly as played.

    QF1 winner C v runner-up D, QF2 winner B v runner-up A, QF3 winner D v
    runner-up C, QF4 winner A v runner-up B; SF1 = winners of QF1 and QF2,
    SF2 = winners of QF3 and QF4; bronze final between the semi-final losers;
    final.
    """
    m = MatchSpec
    return Bracket(name="", matches=[
        m("QF1", 1, "Quarter-final", "pool:C:1", "pool:D:2", "", 0),
        m("QF2", 1, "Quarter-final", "pool:B:1", "pool:A:2", "", 1),
        m("QF3", 1, "Quarter-final", "pool:D:1", "pool:C:2", "", 2),
        m("QF4", 1, "Quarter-final", "pool:A:1", "pool:B:2", "", 3),
        m("SF1", 2, "Semi-final", "winner:QF1", "winner:QF2", "", 0),
        m("SF2", 2, "Semi-final", "winner:QF3", "winner:QF4", "", 1),
        m("BF", 3, "Bronze final", "loser:SF1", "loser:SF2", "", 0),
        m("F", 3, "Final", "winner:SF1", "winner:SF2", "", 1),
    ])


# -- Cup / Plate / Bowl / Shield ------------------------------------------------------------------------

DEFAULT_TIER_NAMES = ("Cup", "Plate", "Bowl", "Shield")


def tier_prefix(name: str) -> str:
    """The code prefix of a tier's matches: "CUP-", "PLATE-"... (codes stay unique per tournament)."""
    return "".join(ch for ch in name.upper() if ch.isalnum())[:8] + "-"


def tiered_knockouts(pool_names: Sequence[str], tiers: Sequence[tuple[str, Sequence[int]]], *,
                     third_place: bool = False) -> list[Bracket]:
    """One bracket per tier, each for the teams finishing in that tier's pool positions.

    ``tiers`` e.g. ``[("Cup", [1, 2]), ("Plate", [3]), ("Bowl", [4])]``. A tier
    with a single team (one pool, one position) gets no bracket.
    """
    brackets = []
    for name, positions in tiers:
        entrants = crossover_entrants(pool_names, positions)
        if len(entrants) < 2:
            continue
        brackets.append(knockout(entrants, name=name, prefix=tier_prefix(name), third_place=third_place))
    return brackets


def losers_knockout(cup: Bracket, *, name: str = "Plate", third_place: bool = False) -> Bracket:
    """The losers of the Cup's first played round drop into this bracket, paired as in the Cup.

    Loser of QF1 v loser of QF2, loser of QF3 v loser of QF4..., so teams that
    were in the same part of the Cup draw meet first (as at sevens festivals).
    """
    first = min(m.round_number for m in cup.matches)
    entrants = [f"loser:{m.code}" for m in cup.matches if m.round_number == first]
    if len(entrants) < 2:
        raise ValueError("the Cup's first round has fewer than two matches: nobody drops to the next tier")
    return knockout(entrants, name=name, prefix=tier_prefix(name), third_place=third_place, seeded=False)


def source_label(source: str) -> str:
    """A reader's description of a source: "Winner Pool A", "Runner-up Pool D", "Winner QF1", "Seed 3"."""
    kind, _, rest = source.partition(":")
    if kind == "pool":
        pool, _, position = rest.partition(":")
        place = {"1": "Winner", "2": "Runner-up"}.get(position)
        if place is None:
            place = f"{_ordinal(int(position))} place" if position.isdigit() else position
        return f"{place} Pool {pool}"
    if kind == "winner":
        return f"Winner {rest}"
    if kind == "loser":
        return f"Loser {rest}"
    if kind == "seed":
        return f"Seed {rest}"
    if source == BYE:
        return "Bye"
    return source or "TBD"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def resolve_slot_source(source: str, current: int | None, *, placings: dict[str, list[int]],
                        outcomes: dict[str, tuple[int, int] | None], seeds: dict[int, int],
                        entries: set[int] | dict | None = None) -> int | None:
    """The entry a knockout slot's source names now, or None while it is undecided.

    ``source`` is "pool:A:1" (``placings``: pool name -> entry ids in finishing order), "winner:QF1" or
    "loser:QF1" (``outcomes``: code -> (winner, loser) or None), "seed:3" (``seeds``: seed -> entry) or
    "entry:12" (checked against ``entries`` when given). A slot without a source was filled by hand and
    keeps ``current``. Used by knockout advancement and by the qualification-odds simulation alike.
    """
    if not source:
        return current
    kind, _, rest = source.partition(":")
    if kind == "pool":
        name, _, position = rest.rpartition(":")
        order = placings.get(name)
        index = int(position) - 1 if position.isdigit() else -1
        return order[index] if order is not None and 0 <= index < len(order) else None
    if kind in ("winner", "loser"):
        outcome = outcomes.get(rest)
        return None if outcome is None else outcome[0 if kind == "winner" else 1]
    if kind == "seed":
        return seeds.get(int(rest)) if rest.isdigit() else None
    if kind == "entry" and rest.isdigit():
        return int(rest) if entries is None or int(rest) in entries else None
    return None
