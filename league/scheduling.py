"""Round-robin fixtures and their calendar: pure functions, no database.

Pairings come from the circle (Berger) method: one team stays put and the
others rotate one place per round, so every pair meets exactly once and nobody
plays twice in a round. With an odd number of teams a "bye" joins the circle;
the team drawn against it rests that round.

Home and away: in a single round robin every team's home and away counts differ
by at most one (0 with an odd number of teams, 1 with an even number, since each
team then plays an odd number of matches). A double round robin repeats the
rounds with home and away swapped, so every team is at home exactly as often as
away and meets every opponent once at home and once away.

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


_BYE = object()  # a sentinel that cannot clash with a real team value


def round_robin(teams: Sequence[Hashable], *, double: bool = False) -> list[Round]:
    """The rounds of a round robin between ``teams`` by the circle (Berger) method.

    ``double`` adds the return rounds (home and away swapped) after the first
    half. Teams must be distinct; fewer than two teams make no rounds.
    """
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("each team may appear only once in a round robin")
    if len(teams) < 2:
        return []
    # With an odd count the bye takes the fixed place: it then meets every team
    # once, and the orientation rule below gives every team as many home as away
    # matches (checked for every size by the property tests).
    circle: list = ([_BYE] + teams) if len(teams) % 2 else teams[:]
    size = len(circle)
    fixed, rotating = circle[0], circle[1:]
    first_half: list[Round] = []
    for index in range(size - 1):
        ordered = [fixed] + rotating
        matches: list[tuple[Hashable, Hashable]] = []
        bye = None
        for i in range(size // 2):
            home, away = ordered[i], ordered[size - 1 - i]
            # Alternate the fixed team's venue by round and the other pairs by
            # board position: this is what keeps everyone's home/away balanced.
            if (i == 0 and index % 2 == 1) or (i > 0 and i % 2 == 1):
                home, away = away, home
            if home is _BYE or away is _BYE:
                bye = away if home is _BYE else home
                continue
            matches.append((home, away))
        first_half.append(Round(number=index + 1, matches=tuple(matches), bye=bye))
        rotating = rotating[-1:] + rotating[:-1]
    if not double:
        return first_half
    second_half = [
        Round(number=len(first_half) + r.number, matches=tuple((a, h) for h, a in r.matches), bye=r.bye)
        for r in first_half
    ]
    return first_half + second_half


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
