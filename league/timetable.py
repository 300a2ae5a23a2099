"""Timetables: when and where each match is played, and what clashes — pure functions, no database.

The scheduling core of the league, kept apart from the pairings (``league.scheduling``) and from the
database (``league.services.schedule`` feeds it fixtures and writes back what it decides):

* a :class:`Booking` is one match in the timetable: its start and end, its pitch (or table), the teams it
  needs, and the matches that must be over before it starts (a semi-final after the quarter-finals it
  takes its teams from);
* :func:`find_clashes` lists what is wrong with a timetable: a team booked twice at once (or without its
  rest between two matches), a pitch booked twice at once, a match starting before one it depends on is
  over;
* :func:`plan` places rounds of matches on a grid of time slots (a slot's length plus a change-over) over
  the pitches, round after round, around bookings that already exist;
* :func:`plan_divisions` places several divisions of one event on the same pitches and grid (round *i* of
  every division together, the divisions' matches taking turns), and :func:`overrun` says by how many slots
  a day does not fit before the time it must be over by.

Keys, teams and pitches are any hashable values: fixture ids, entry ids and venue names for one
tournament; ``(tournament, fixture)`` pairs and club-wide pitch names when several divisions share the
pitches of one ground. Times are ``datetime`` values, all aware or all naive; a pitch of ``None`` is no
pitch at all (as many matches at once as needed).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar

T = TypeVar("T")

TEAM = "team"
PITCH = "pitch"
ORDER = "order"

# A round never needs more slots than this: the cap turns a planning bug into an error, not a hang.
MAX_SLOTS = 10_000


@dataclass(frozen=True)
class Booking:
    """One match in the timetable: [start, end) on ``pitch``, needing ``teams``, after the matches ``after``."""

    key: Hashable
    start: datetime
    end: datetime
    pitch: Hashable | None = None
    teams: frozenset[Hashable] = frozenset()
    after: frozenset[Hashable] = frozenset()

    def overlaps(self, other: Booking, gap: timedelta = timedelta(0)) -> bool:
        """True when the two are less than ``gap`` apart (``gap`` 0: they share some time)."""
        return self.start < other.end + gap and other.start < self.end + gap


@dataclass(frozen=True)
class Clash:
    """What is wrong: ``kind`` TEAM (``subject`` is the team), PITCH (the pitch) or ORDER (``first`` must be
    over before ``second`` starts; ``subject`` is ``first``'s key)."""

    kind: str
    first: Booking
    second: Booking
    subject: Hashable


@dataclass(frozen=True)
class Match:
    """Something to place: its key, its teams and the matches it must follow.

    ``start`` (and ``pitch``) given: the match stays where it is (played already, or placed by hand) and the
    others are placed around it.
    """

    key: Hashable
    teams: frozenset[Hashable] = frozenset()
    after: frozenset[Hashable] = frozenset()
    start: datetime | None = None
    pitch: Hashable | None = None


@dataclass
class _Calendar:
    """Bookings so far, by pitch and by team, for the overlap checks of :func:`plan`."""

    rest: timedelta
    by_key: dict[Hashable, Booking] = field(default_factory=dict)
    by_pitch: dict[Hashable, list[Booking]] = field(default_factory=lambda: defaultdict(list))
    by_team: dict[Hashable, list[Booking]] = field(default_factory=lambda: defaultdict(list))
    latest_end: datetime | None = None

    def add(self, booking: Booking) -> None:
        self.by_key[booking.key] = booking
        if self.latest_end is None or booking.end > self.latest_end:
            self.latest_end = booking.end
        if booking.pitch is not None:
            self.by_pitch[booking.pitch].append(booking)
        for team in booking.teams:
            self.by_team[team].append(booking)

    def pitch_free(self, pitch: Hashable | None, trial: Booking) -> bool:
        return pitch is None or not any(trial.overlaps(b) for b in self.by_pitch.get(pitch, ()))

    def teams_free(self, trial: Booking) -> bool:
        return not any(trial.overlaps(b, self.rest) for team in trial.teams for b in self.by_team.get(team, ()))


def find_clashes(bookings: Iterable[Booking], *, rest: timedelta = timedelta(0),
                 involving: Collection[Hashable] | None = None) -> list[Clash]:
    """Every clash of a timetable, earliest first.

    A team clashes when two of its matches overlap or are less than ``rest`` apart; a pitch when two matches
    on it overlap (a pitch of ``None`` never clashes); an order clash is a match that starts before one of
    its ``after`` matches is over. ``involving``: only the clashes of these keys (the fixtures just moved),
    so an old clash elsewhere does not block an unrelated change.
    """
    items = sorted(bookings, key=lambda b: (b.start, b.end))
    by_key = {b.key: b for b in items}
    wanted = (lambda a, b: a.key in involving or b.key in involving) if involving is not None else (
        lambda a, b: True)
    clashes: list[Clash] = []

    def sweep(groups: dict[Hashable, list[Booking]], kind: str, gap: timedelta) -> None:
        for subject, group in groups.items():
            active: list[Booking] = []
            for booking in group:  # in start order
                active = [a for a in active if a.end + gap > booking.start]
                clashes.extend(Clash(kind, a, booking, subject) for a in active if wanted(a, booking))
                active.append(booking)

    by_team: dict[Hashable, list[Booking]] = defaultdict(list)
    by_pitch: dict[Hashable, list[Booking]] = defaultdict(list)
    for booking in items:
        for team in booking.teams:
            by_team[team].append(booking)
        if booking.pitch is not None:
            by_pitch[booking.pitch].append(booking)
    sweep(by_team, TEAM, rest)
    sweep(by_pitch, PITCH, timedelta(0))
    for booking in items:
        for key in booking.after:
            earlier = by_key.get(key)
            if earlier is not None and booking.start < earlier.end and wanted(earlier, booking):
                clashes.append(Clash(ORDER, earlier, booking, key))
    return sorted(clashes, key=lambda c: (c.second.start, c.first.start, c.kind))


def plan(rounds: Sequence[Sequence[Match]], *, starts: Sequence[datetime], pitches: Sequence[Hashable],
         length: timedelta, changeover: timedelta = timedelta(0), busy: Iterable[Booking] = (),
         rest: timedelta = timedelta(0)) -> list[tuple[Booking, int]]:
    """Place rounds of matches; returns each match's booking and its slot in its round, in input order.

    Round *i* starts at ``starts[i]`` or, if the previous round is not over by then, one ``changeover``
    after its last match ends: rounds are played one after another, earlier rounds first. Within a round,
    slots follow each other every ``length + changeover``; each match takes the first slot and then the
    first pitch (in ``pitches``' order) where the pitch is free, none of its teams is busy (``rest``
    apart) and every match in its ``after`` has been over for a change-over. No ``pitches``: matches are
    on no pitch, as many at a time as their teams allow. ``busy``: bookings that are there already (other
    divisions on the same pitches, matches already played); matches given a ``start`` stay where they are.
    """
    if len(starts) != len(rounds):
        raise ValueError("give one earliest start per round")
    if length <= timedelta(0):
        raise ValueError("a match must last some time")
    if changeover < timedelta(0) or rest < timedelta(0):
        raise ValueError("change-over and rest cannot be negative")
    if len(set(pitches)) != len(pitches):
        raise ValueError("pitch names must be distinct")
    calendar = _Calendar(rest=rest)
    for booking in busy:
        calendar.add(booking)
    step = length + changeover
    placed: list[tuple[Booking, int]] = []
    previous_end: datetime | None = None
    for matches, earliest in zip(rounds, starts, strict=True):
        first = earliest if previous_end is None else max(earliest, previous_end + changeover)
        round_end: datetime | None = None
        if _apart(matches, calendar, first):
            # Nothing booked reaches this round and no team plays twice in it (a round of a round robin): each
            # match takes the next pitch, slot after slot -- what the search below finds, without searching.
            for match, (start, pitch, slot) in zip(matches, _in_order(len(matches), first, step, pitches),
                                                   strict=True):
                booking = Booking(match.key, start, start + length, pitch, match.teams, match.after)
                calendar.add(booking)
                placed.append((booking, slot))
            if matches:
                previous_end = calendar.latest_end
            continue
        for match in matches:
            if match.start is not None:
                booking = Booking(match.key, match.start, match.start + length, match.pitch, match.teams,
                                  match.after)
                slot = max(0, (match.start - first) // step) if match.start >= first else 0
            else:
                booking, slot = _place(match, calendar, first=first, step=step, length=length,
                                       changeover=changeover, pitches=pitches)
            calendar.add(booking)
            placed.append((booking, slot))
            round_end = booking.end if round_end is None else max(round_end, booking.end)
        if round_end is not None:
            previous_end = round_end if previous_end is None else max(previous_end, round_end)
    return placed


def plan_apart(round_sizes: Sequence[int], *, starts: Sequence[datetime], pitches: Sequence[Hashable],
               length: timedelta, changeover: timedelta = timedelta(0)
               ) -> list[list[tuple[datetime, Hashable | None, int]]]:
    """What :func:`plan` gives rounds of ``round_sizes`` matches when nothing else is booked and no team plays
    twice in a round (a round robin's rounds): each match's (start, pitch, slot), round by round, in order.

    The same arithmetic as :func:`plan`'s shortcut, without a ``Match`` or a ``Booking`` per match: a
    1,000-team league's round robin is half a million matches.
    """
    if len(starts) != len(round_sizes):
        raise ValueError("give one earliest start per round")
    if length <= timedelta(0):
        raise ValueError("a match must last some time")
    if changeover < timedelta(0):
        raise ValueError("change-over and rest cannot be negative")
    step = length + changeover
    places: list[list[tuple[datetime, Hashable | None, int]]] = []
    previous_end: datetime | None = None
    for size, earliest in zip(round_sizes, starts, strict=True):
        first = earliest if previous_end is None else max(earliest, previous_end + changeover)
        placed = _in_order(size, first, step, pitches)
        if placed:
            previous_end = placed[-1][0] + length
        places.append(placed)
    return places


def _in_order(count: int, first: datetime, step: timedelta, pitches: Sequence[Hashable]
              ) -> list[tuple[datetime, Hashable | None, int]]:
    """``count`` matches, each on the next pitch, slot after slot from ``first``: (start, pitch, slot)."""
    if not pitches:
        return [(first, None, 0)] * count
    width = len(pitches)
    slot_starts = [first + step * slot for slot in range(-(-count // width))]
    return [(slot_starts[index // width], pitches[index % width], index // width) for index in range(count)]


def _apart(matches: Sequence[Match], calendar: _Calendar, first: datetime) -> bool:
    """True when every booking so far is over (a rest apart) by ``first`` and the matches, all still to place and
    after nothing, share no team."""
    if calendar.latest_end is not None and calendar.latest_end + calendar.rest > first:
        return False
    teams: set[Hashable] = set()
    for match in matches:
        if match.start is not None or match.after or not teams.isdisjoint(match.teams):
            return False
        teams.update(match.teams)
    return True


def _place(match: Match, calendar: _Calendar, *, first: datetime, step: timedelta, length: timedelta,
           changeover: timedelta, pitches: Sequence[Hashable]) -> tuple[Booking, int]:
    ready = first
    for key in match.after:
        before = calendar.by_key.get(key)
        if before is not None:
            ready = max(ready, before.end + changeover)
    # The first slot at or after ``ready`` (a ceiling division of timedeltas).
    skip = -((first - ready) // step) if ready > first else 0
    for slot in range(skip, skip + MAX_SLOTS):
        start = first + step * slot
        trial = Booking(match.key, start, start + length, None, match.teams, match.after)
        if not calendar.teams_free(trial):
            continue
        for pitch in pitches or [None]:
            if calendar.pitch_free(pitch, trial):
                return Booking(match.key, start, start + length, pitch, match.teams, match.after), slot
    raise ValueError(f"no slot found for {match.key!r} in {MAX_SLOTS} slots")


def interleave(groups: Sequence[Sequence[T]]) -> list[T]:
    """The groups' items taking turns: the first of each group, then the second of each... (A, B, C, A, ...)."""
    out: list[T] = []
    for index in range(max((len(g) for g in groups), default=0)):
        out.extend(g[index] for g in groups if index < len(g))
    return out


def plan_divisions(divisions: Sequence[Sequence[Sequence[Match]]], *, start: datetime,
                   pitches: Sequence[Hashable], length: timedelta, changeover: timedelta = timedelta(0),
                   busy: Iterable[Booking] = (), rest: timedelta = timedelta(0)) -> list[tuple[Booking, int]]:
    """Place several divisions' rounds on one day's grid of shared pitches (see :func:`plan`).

    ``divisions``: each division's rounds in playing order. Round *i* of every division is played together,
    the divisions' matches taking turns for the slots, so no division waits for another's whole day; a team
    (any hashable: give the same value to a team or a player entered in two divisions) is never booked twice
    at once or less than ``rest`` apart, and a pitch never twice at once. Keys must be unique across the
    divisions. Returns each match's booking and its slot, rounds in order.
    """
    count = max((len(d) for d in divisions), default=0)
    rounds = [interleave([d[i] for d in divisions if i < len(d)]) for i in range(count)]
    return plan(rounds, starts=[start] * count, pitches=pitches, length=length, changeover=changeover,
                busy=busy, rest=rest)


def overrun(bookings: Iterable[Booking], *, finish: datetime, step: timedelta) -> tuple[int, int]:
    """How many matches end after ``finish``, and by how many slots of ``step`` the latest is late: the day
    "does not fit by N slots" (``(0, 0)`` when everything is over in time)."""
    late = [b.end for b in bookings if b.end > finish]
    if not late:
        return 0, 0
    return len(late), -(-(max(late) - finish) // step)
