"""Round-robin pairings: pure functions, no database (their times and pitches: ``league.timetable``).

Pairings and venues are FIDE's Berger tables (FIDE Handbook C.05, Annex 1):
``teams[i]`` plays as number ``i + 1``; in round ``r`` (from 1) of an even
count ``n``, number ``n`` meets number ``o = (r - 1) * n / 2 mod (n - 1) + 1``,
away in odd rounds and at home in even ones, and for ``k = 1 .. n/2 - 1``
number ``o + k`` is at home to ``o - k`` (counted round 1 .. n - 1). With an odd
count, the number ``n + 1`` is the bye: the team drawn against it rests. Every
pair meets once; every team's home and away counts differ by at most one, and
nobody plays three home or three away games in a row (byes skipped).

A double round robin plays the Berger rounds again with home and away swapped.
Swapped straight after the first cycle, the fixed number and one other would
play three home or three away games in a row at every even size (the first
cycle ends and the second starts with the same venue for them); FIDE's
recommendation, followed here, swaps the last two rounds of the first cycle,
which removes every such run for every size (checked for 2 to 40 teams by the
tests). Every team is then at home exactly as often as away, and meets every
opponent once at home and once away.

Teams are any hashable values (entry ids in the services, codes in tests).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

# The number an odd count adds to make the table even: whoever meets it rests that round.
_BYE = object()


@dataclass(frozen=True)
class Round:
    """One round: its number (from 1), its matches as (home, away) pairs, and the team resting (or None)."""

    number: int
    matches: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


def berger_table(team_count: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table for ``team_count`` teams: per round, the (home, away) numbers from 1, board order.

    With an odd count the table is that of ``team_count + 1`` numbers, the last
    one being the bye (its pairs are kept, so the table reads as published).
    """
    size = team_count + team_count % 2
    return _berger_rounds(list(range(1, size + 1)))


def _berger_rounds(labels: Sequence[Any]) -> list[list[tuple[Any, Any]]]:
    """The Berger table's rounds with ``labels[i]`` as number ``i + 1`` (an even count): the pairs of labels.

    Board ``k``'s home side ``o + k`` and away side ``o - k`` (mod ``n - 1``) run up and down the ring of
    numbers 1 .. n - 1 from ``o``: each round's boards are two slices of that ring, zipped, instead of two
    modular sums per board (a 1,000-team league has half a million boards, made before any fixture is written).
    """
    size = len(labels)
    if size < 2:
        return []
    half, cycle = size // 2, size - 1
    fixed = labels[-1]
    ring = list(labels[:cycle]) * 2  # twice round: a slice never wraps
    rounds = []
    for r in range(1, size):
        start = (r - 1) * half % cycle  # the fixed number's opponent o, as an index into the ring
        boards = [(ring[start], fixed) if r % 2 else (fixed, ring[start])]
        boards += zip(ring[start + 1:start + half], ring[start + cycle - 1:start + cycle - half:-1], strict=True)
        rounds.append(boards)
    return rounds


def round_robin(teams: Sequence[Hashable], *, double: bool = False) -> list[Round]:
    """The rounds of a round robin between ``teams`` by FIDE's Berger tables (``teams[0]`` is number 1).

    ``double`` adds the return rounds (home and away swapped) after the first
    cycle, whose last two rounds are then swapped (FIDE's recommendation, so
    nobody has three home or three away games in a row). Teams must be
    distinct; fewer than two teams make no rounds.
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("each team may appear only once in a round robin")
    if len(teams) < 2:
        return []
    odd = len(teams) % 2
    cycle = []
    for boards in _berger_rounds([*teams, _BYE] if odd else teams):
        bye = None
        if odd:
            # With an odd count the last number is the bye: board 0 always holds it, against the team resting.
            home, away = boards[0]
            bye = home if away is _BYE else away
            boards = boards[1:]
        cycle.append((tuple(boards), bye))
    if not double:
        return [Round(number=i, matches=m, bye=b) for i, (m, b) in enumerate(cycle, start=1)]
    first = cycle[:-2] + cycle[-2:][::-1] if len(cycle) >= 2 else cycle
    second = [(tuple((a, h) for h, a in matches), bye) for matches, bye in cycle]
    return [Round(number=i, matches=m, bye=b) for i, (m, b) in enumerate(first + second, start=1)]
