"""Round-robin fixtures and their calendar: pure functions, no database.

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

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta


@dataclass(frozen=True)
class Round:
    """One round: its number (from 1), its matches as (home, away) pairs, and the team resting (or None)."""

    number: int
    matches: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


@dataclass(frozen=True)
class ScheduledMatch:
    """A match with its place in the calendar.

    ``kickoff`` is naive (the caller gives it a time zone) and ``None`` when no
    start date was given; ``venue`` is "" when no venues were given; ``slot``
    counts the time slots within the round, from 0.
    """

    round_number: int
    home: Hashable
    away: Hashable
    slot: int
    venue: str
    kickoff: datetime | None
    pool: Hashable | None = None


def berger_table(team_count: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table for ``team_count`` teams: per round, the (home, away) numbers from 1, board order.

    With an odd count the table is that of ``team_count + 1`` numbers, the last
    one being the bye (its pairs are kept, so the table reads as published).
    """
    size = team_count + team_count % 2
    rounds = []
    for r in range(1, size):
        opponent = (r - 1) * (size // 2) % (size - 1) + 1
        boards = [(opponent, size) if r % 2 else (size, opponent)]
        for k in range(1, size // 2):
            boards.append(((opponent + k - 1) % (size - 1) + 1, (opponent - k - 1) % (size - 1) + 1))
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
    cycle = []
    for boards in berger_table(len(teams)):
        matches, bye = [], None
        for home, away in boards:
            if max(home, away) > len(teams):
                bye = teams[min(home, away) - 1]
            else:
                matches.append((teams[home - 1], teams[away - 1]))
        cycle.append((tuple(matches), bye))
    if not double:
        return [Round(number=i, matches=m, bye=b) for i, (m, b) in enumerate(cycle, start=1)]
    first = cycle[:-2] + cycle[-2:][::-1] if len(cycle) >= 2 else cycle
    second = [(tuple((a, h) for h, a in matches), bye) for matches, bye in cycle]
    return [Round(number=i, matches=m, bye=b) for i, (m, b) in enumerate(first + second, start=1)]


def assign_slots(matches: Sequence[tuple[Hashable, Hashable]], venues: Sequence[str] | None
                 ) -> list[tuple[int, str]]:
    """Give each match a (slot, venue) so that no venue and no team is booked twice in one slot.

    With no venues every match is in slot 0 with venue "". Otherwise matches
    fill the first slot in order, up to one per venue; a match whose team is
    already playing in that slot (possible when several pools share the
    venues and a team appears twice) waits for a later slot. The result is in
    the order of ``matches``.
    """
    if not venues:
        return [(0, "")] * len(matches)
    venues = list(venues)
    if len(set(venues)) != len(venues):
        raise ValueError("venue names must be distinct")
    placed: list[tuple[int, str] | None] = [None] * len(matches)
    waiting = list(range(len(matches)))
    slot = 0
    while waiting:
        busy: set = set()
        free = iter(venues)
        still_waiting = []
        for index in waiting:
            home, away = matches[index]
            venue = None if (home in busy or away in busy) else next(free, None)
            if venue is None:
                still_waiting.append(index)
                continue
            busy.update((home, away))
            placed[index] = (slot, venue)
        waiting = still_waiting
        slot += 1
    return placed  # type: ignore[return-value]


def schedule_rounds(
    rounds_by_pool: dict[Hashable, list[Round]],
    *,
    start_date: date | None = None,
    first_kickoff: time = time(14, 0),
    slot_minutes: int = 90,
    days_between_rounds: int = 7,
    venues: Sequence[str] | None = None,
) -> list[ScheduledMatch]:
    """Put the rounds of one or more pools in a calendar.

    Round *n* of every pool is played on the same day (``start_date`` plus
    ``(n - 1) * days_between_rounds``); the pools share the venues, so a round
    with more matches than venues is split into consecutive time slots of
    ``slot_minutes`` from ``first_kickoff``. When rounds fall on the same day
    (``days_between_rounds=0``: a one-day festival) each round starts when the
    previous one's last slot is over. Without ``start_date`` kick-offs stay
    empty (slots and venues are still assigned).
    """
    if slot_minutes <= 0:
        raise ValueError("a time slot must last at least one minute")
    if days_between_rounds < 0:
        raise ValueError("days between rounds cannot be negative")
    numbers = sorted({r.number for rounds in rounds_by_pool.values() for r in rounds})
    scheduled: list[ScheduledMatch] = []
    free_from: datetime | None = None  # when the previous round's last slot is over
    for number in numbers:
        # Interleave the pools (A1, B1, C1, A2, ...) so that early slots are shared fairly.
        per_pool = [[(pool, m) for m in r.matches] for pool, rounds in rounds_by_pool.items()
                    for r in rounds if r.number == number]
        entries = [pm for group in _interleave(per_pool) for pm in group]
        # Teams are keyed by pool too: the same value in two pools is two different sides.
        places = assign_slots([((p, h), (p, a)) for p, (h, a) in entries], venues)
        day = start_date + timedelta(days=(number - 1) * days_between_rounds) if start_date else None
        first = datetime.combine(day, first_kickoff) if day else None
        if first is not None and free_from is not None and free_from > first:
            # Rounds on the same day (a one-day festival): a round starts when the previous one is over.
            first = free_from
        if first is not None:
            free_from = first + timedelta(minutes=(max((slot for slot, _v in places), default=0) + 1) * slot_minutes)
        for (pool, (home, away)), (slot, venue) in zip(entries, places, strict=True):
            kickoff = first + timedelta(minutes=slot * slot_minutes) if first else None
            scheduled.append(ScheduledMatch(round_number=number, home=home, away=away, slot=slot, venue=venue,
                                            kickoff=kickoff, pool=pool))
    scheduled.sort(key=lambda m: (m.round_number, m.slot, _venue_index(venues, m.venue)))
    return scheduled


def slots_needed(match_count: int, venue_count: int) -> int:
    """How many time slots a round of ``match_count`` matches needs on ``venue_count`` venues (at least 1)."""
    if venue_count <= 0:
        return 1
    return max(1, math.ceil(match_count / venue_count))


def _interleave(groups: list[list]) -> list[list]:
    out = []
    for i in range(max((len(g) for g in groups), default=0)):
        out.append([g[i] for g in groups if i < len(g)])
    return out


def _venue_index(venues: Sequence[str] | None, venue: str) -> int:
    return list(venues).index(venue) if venues and venue in venues else 0
