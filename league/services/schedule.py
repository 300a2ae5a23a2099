"""Writes of the timetable: fixtures timed by the tournament's plan, re-timed, moved, pushed back, swapped.

Every stage gets a date, a kick-off and a pitch (or table): pools, then the knockout (after the pools, on
the same pitches, earlier rounds first, a match never before those it takes its teams from), Swiss rounds
and solo attempts. The plan is stored on the tournament (first day, first kick-off, minutes per match,
change-over, days between rounds, pitches) so fixtures made later -- the knockout once the pools are
drawn, the next Swiss round after a result -- follow it. The placing and the clash checks are the pure
``league.timetable``; this module feeds it the tournament's fixtures and writes back what it decides.

A change by hand (``fixture_move``, ``fixtures_push``, ``fixtures_swap``) is refused with a message naming
the clash it would make (a team twice at once, a pitch double-booked, a match before one it depends on),
and every change is a ``ScheduleChange`` row.

A tournament that is a division of an event shares the event's pitches and day: its fixtures are placed
around the other divisions' (``league.event_selectors``: a team or player in two divisions is one side, with
the event's rest between its matches) and a change by hand is refused for a clash with another division too.
The event's row is locked before the tournament's, as ``league.services.events`` does.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable
from typing import Any, cast

from django.db import transaction
from django.utils.translation import gettext as _

from league import timetable
from league.cache import tournament_changed
from league.errors import Conflict, DomainError
from league.event_selectors import (
    entry_sides,
    event_bookings,
    event_clash_messages,
    event_fixtures,
    fixture_sides,
    rest_gap,
)
from league.exports import fixture_title, result_of
from league.models import Entry, Event, Fixture, ScheduleChange, Tournament
from league.schedule_selectors import (
    clash_messages,
    dependencies,
    fixture_teams,
    is_booked,
    is_bye,
    is_open,
    match_length,
    timetable_fixtures,
)
from league.stored_texts import Coded
from league.text import clean_text
from league.timezones import zone

# The plan's fields on the tournament, with their bounds.
SETTINGS_FIELDS = ("first_day", "first_kickoff", "slot_minutes", "changeover_minutes", "days_between_rounds",
                   "pitches")
MAX_PITCHES = 100
MAX_PUSH_MINUTES = 12 * 60
# A day with no kick-off yet is planned on this one to give pitches and slots, then the times are dropped.
_NO_DAY = dt.date(2000, 1, 1)


# --- clashes -------------------------------------------------------------------------------------------------------


def _all_fixtures(tournament: Tournament) -> list[Fixture]:
    """Every fixture of the tournament, locked until the change commits (two organisers cannot both pass
    the clash check with moves that clash with each other)."""
    return list(timetable_fixtures(tournament).select_for_update(of=("self",)))


def _lock_event(tournament_id: int) -> Event | None:
    """The event the tournament is a division of, locked until the change commits (two organisers of two
    divisions cannot both pass the clash check with moves that clash with each other); None: on its own."""
    return Event.objects.select_for_update().filter(divisions__tournament_id=tournament_id).first()


def _other_divisions(event: Event, tournament: Tournament) -> list[Fixture]:
    """The fixtures of the event's other divisions, locked like the tournament's own."""
    return list(event_fixtures(event).exclude(tournament=tournament).select_for_update(of=("self",)))


def _refuse_clashes(tournament: Tournament, fixtures: list[Fixture], moved: Collection[int]) -> None:
    """Raise ``Conflict`` naming the first clash that the fixtures ``moved`` are in (others are not ours);
    in an event, with the other divisions' fixtures and the event's rest between a team's matches too."""
    messages = clash_messages(tournament, fixtures, involving=set(moved))
    event = _lock_event(tournament.pk)
    if not messages and event is not None:
        for f in fixtures:  # the event's messages name each fixture's division
            f.tournament = tournament
        messages = event_clash_messages(event, fixtures + _other_divisions(event, tournament),
                                        involving=set(moved))
    if messages:
        message = messages[0]
        if len(messages) > 1:
            message += " " + _("(%(count)s clashes in all.)") % {"count": len(messages)}
        raise Conflict(message, reason="clash")


# --- the audit trail --------------------------------------------------------------------------------------------


def _where(fixture: Fixture) -> dict[str, Any]:
    return {"kickoff": fixture.kickoff.isoformat() if fixture.kickoff else None, "venue": fixture.venue}


def _record(tournament: Tournament, action: str, summary: Coded, changes: list[dict[str, Any]], user: Any,
            reason: str) -> ScheduleChange:
    """The audit row of a timetable change: what it did as a code (``summary``, shown in each reader's
    language), the fixtures it moved and the organiser's reason as typed."""
    return ScheduleChange.objects.create(
        tournament=tournament, action=action, summary="", summary_code=summary.code,
        summary_params=dict(summary.params), fixtures=changes, reason=reason[:200],
        changed_by=user if getattr(user, "is_authenticated", False) else None)


def _when(value: dt.datetime | None, tournament: Tournament) -> dict[str, Any]:
    """A kick-off as a summary's parameters: shown later as the pages show kick-offs, in the reader's language."""
    return {"when": value.isoformat() if value is not None else None, "tz": tournament.time_zone}


def _save_places(fixtures: list[Fixture], before: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """Write the fixtures' new kick-offs, venues and slots; the audit rows of those that changed."""
    Fixture.objects.bulk_update(fixtures, ["kickoff", "venue", "slot"])
    return [{"fixture": f.pk, "label": fixture_title(f), "old": before[f.pk], "new": _where(f)}
            for f in fixtures if before[f.pk] != _where(f)]


# --- the plan ------------------------------------------------------------------------------------------------------


def schedule_settings_validate(values: dict[str, Any]) -> dict[str, Any]:
    """The plan's fields checked and tidied (pitches stripped, each named once); field errors otherwise."""
    errors: dict[str, list[str]] = {}
    unknown = sorted(set(values) - set(SETTINGS_FIELDS))
    if unknown:
        raise DomainError(_("Unknown schedule setting(s): %(choices)s.") % {"choices": ', '.join(unknown)})
    out = dict(values)
    bounds = {"slot_minutes": (1, 24 * 60), "changeover_minutes": (0, 24 * 60), "days_between_rounds": (0, 365)}
    for name, (low, high) in bounds.items():
        if name in out:
            value = out[name]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                errors[name] = [_("Give a whole number from %(low)s to %(high)s.") % {"low": low, "high": high}]
    day = out.get("first_day")
    if day is not None and (not isinstance(day, dt.date) or not 1900 <= day.year <= 2999):
        errors["first_day"] = [_("Give a day between the years 1900 and 2999.")]
    if "first_kickoff" in out and not isinstance(out["first_kickoff"], dt.time):
        errors["first_kickoff"] = [_("Give a time such as 09:00.")]
    if "pitches" in out:
        raw = out["pitches"] or []
        if isinstance(raw, str) or not all(isinstance(p, str) for p in raw):
            errors["pitches"] = [_("Give the pitches as a list of names.")]
        else:
            pitches = [clean_text(p) for p in raw]
            pitches = [p for p in pitches if p]
            if any(len(p) > 80 for p in pitches):
                errors["pitches"] = [_("A pitch's name has 80 characters at most.")]
            elif len({p.casefold() for p in pitches}) != len(pitches):
                errors["pitches"] = [_("Each pitch may be named only once.")]
            elif len(pitches) > MAX_PITCHES:
                errors["pitches"] = [_("At most %(count)s pitches or tables.") % {"count": MAX_PITCHES}]
            out["pitches"] = pitches
    if errors:
        raise DomainError(errors)
    return out


def schedule_settings_save(*, tournament: Tournament, **values: Any) -> Tournament:
    """Store the plan's fields that are given (the others are kept)."""
    values = schedule_settings_validate({k: v for k, v in values.items() if v is not None or k == "first_day"})
    if values:
        Tournament.objects.filter(pk=tournament.pk).update(**values)
        for name, value in values.items():
            setattr(tournament, name, value)
        tournament_changed(tournament)
    return tournament


def _round_order(fixtures: list[Fixture]) -> list[Fixture]:
    """One round's fixtures in the order they take slots: pools interleaved (A, B, C, A, ...), the rest as
    made (bracket order, board order)."""
    pools: dict[Any, list[Fixture]] = defaultdict(list)
    others = []
    for f in fixtures:
        if f.stage == Fixture.Stage.POOL and f.pool is not None:
            pools[(f.pool.order, f.pool.name)].append(f)
        else:
            others.append(f)
    interleaved: list[Fixture] = []
    lists = [sorted(group, key=lambda f: (f.slot, f.pk)) for _key, group in sorted(pools.items())]
    for index in range(max((len(g) for g in lists), default=0)):
        interleaved.extend(g[index] for g in lists if index < len(g))
    return interleaved + sorted(others, key=lambda f: (f.slot, f.pk))


def _round_starts(tournament: Tournament, numbers: list[int]) -> list[dt.datetime]:
    """The earliest start of each round by the plan (on a made-up day when the plan has no first day)."""
    day0 = tournament.first_day or _NO_DAY
    tz = zone(tournament.time_zone)
    return [dt.datetime.combine(day0 + dt.timedelta(days=(n - 1) * tournament.days_between_rounds),
                                tournament.first_kickoff).replace(tzinfo=tz) for n in numbers]


def new_matches_places(tournament: Tournament, rounds: dict[int, list[tuple[int, int]]]
                       ) -> dict[int, list[tuple[dt.datetime | None, str, int]]]:
    """Where matches not yet written would go by the plan, around the tournament's timed fixtures: for each
    round number, each match's (kick-off, pitch, slot), the matches given as (home, away) entry ids in the order
    they take slots. What ``fixtures_time`` decides for the same fixtures once written, without a model instance
    per match (a 1,000-team league's round robin is half a million)."""
    fixed: dict[int, list[Fixture]] = defaultdict(list)
    for f in timetable_fixtures(tournament):
        if is_booked(f):
            fixed[f.round_number].append(f)
    # In an event: around the other divisions, a team or player being one side across them (as ``_plan``).
    event = _lock_event(tournament.pk)
    busy: list[timetable.Booking] = []
    rest = dt.timedelta(0)
    sides: Callable[[Fixture], frozenset[Hashable]] = fixture_teams
    entries: dict[int, Entry] = {}
    if event is not None:
        sides, rest = fixture_sides, rest_gap(event)
        busy = event_bookings(_other_divisions(event, tournament))
        entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("team", "registration")}

    def needs(teams: tuple[int, int]) -> frozenset[Hashable]:
        if not entries:
            return frozenset(teams)
        return frozenset(side for entry_id in teams for side in entry_sides(entries[entry_id]))
    numbers = sorted(set(rounds) | set(fixed))
    starts, pitches = _round_starts(tournament, numbers), list(tournament.pitches or [])
    length, changeover = match_length(tournament), dt.timedelta(minutes=tournament.changeover_minutes)
    timed = tournament.first_day is not None

    def place(start: dt.datetime, pitch: Any, slot: int) -> tuple[dt.datetime | None, str, int]:
        return start if timed else None, str(pitch) if pitch is not None else "", slot

    if not fixed and not busy and all(len(set().union(*teams)) == 2 * len(teams) for teams in rounds.values()):
        # Nothing else booked and nobody twice in a round (a round robin): the planner's arithmetic alone.
        names = [str(pitch) for pitch in pitches]
        apart = timetable.plan_apart([len(rounds[n]) for n in numbers], starts=starts, pitches=names,
                                     length=length, changeover=changeover)
        if timed and names:
            # Each place is already (kick-off, pitch, slot): no call of ``place`` per match (half a million in a
            # timed 1,000-team league, 0.1 s of the 0.35 s this took under load, before any row is written).
            return cast(dict[int, list[tuple[dt.datetime | None, str, int]]], dict(zip(numbers, apart, strict=True)))
        if not names:  # a round's matches all at its start, on no pitch, in slot 0: one place, repeated
            return {n: [place(*placed[0])] * len(placed) if placed else [] for n, placed in zip(numbers, apart,
                                                                                                strict=True)}
        return {n: [place(*p) for p in placed] for n, placed in zip(numbers, apart, strict=True)}
    matches = [[timetable.Match(key=(n, index), teams=needs(teams))
                for index, teams in enumerate(rounds.get(n, ()))]
               + [timetable.Match(key=f.pk, teams=sides(f), start=f.kickoff, pitch=f.venue or None)
                  for f in sorted(fixed[n], key=lambda f: (f.slot, f.pk))]
               for n in numbers]
    places: dict[int, list[tuple[dt.datetime | None, str, int]]] = {n: [] for n in rounds}
    for booking, slot in timetable.plan(matches, starts=starts, pitches=pitches, length=length,
                                        changeover=changeover, busy=busy, rest=rest):
        if isinstance(booking.key, tuple):  # in input order: a round's matches in the order given
            places[booking.key[0]].append(place(booking.start, booking.pitch, slot))
    return places


def _plan(tournament: Tournament, fixtures: list[Fixture], to_place: set[int]) -> list[Fixture]:
    """Place the fixtures ``to_place`` round after round around the others; returns those it changed."""
    deps = dependencies(fixtures)
    # In an event: placed around the other divisions, a team or player being one side across them.
    event = _lock_event(tournament.pk)
    sides: Callable[[Fixture], frozenset[Hashable]] = fixture_teams
    busy: list[timetable.Booking] = []
    rest = dt.timedelta(0)
    if event is not None:
        sides, rest = fixture_sides, rest_gap(event)
        busy = event_bookings(_other_divisions(event, tournament))
    rounds: dict[int, list[Fixture]] = defaultdict(list)
    for f in fixtures:
        if f.pk in to_place or is_booked(f):
            rounds[f.round_number].append(f)
    numbers = sorted(rounds)
    ordered = [_round_order(rounds[n]) for n in numbers]
    byes = {n: [f for f in rounds[n] if is_bye(f) and f.pk in to_place] for n in numbers}
    matches = [[timetable.Match(key=f.pk, teams=sides(f), after=deps.get(f.pk, frozenset()),
                                start=None if f.pk in to_place else f.kickoff,
                                pitch=None if f.pk in to_place else (f.venue or None))
                for f in group if not is_bye(f)] for group in ordered]
    placed = timetable.plan(matches, starts=_round_starts(tournament, numbers), pitches=list(tournament.pitches or []),
                            length=match_length(tournament),
                            changeover=dt.timedelta(minutes=tournament.changeover_minutes), busy=busy, rest=rest)
    by_pk = {f.pk: f for f in fixtures}
    changed = []
    for booking, slot in placed:
        f = by_pk[cast(int, booking.key)]
        if f.pk in to_place:
            f.kickoff = booking.start if tournament.first_day else None
            f.venue = str(booking.pitch) if booking.pitch is not None else ""
            if f.stage != Fixture.Stage.KNOCKOUT:  # a knockout's slot is its place in the bracket's plan
                f.slot = slot
            changed.append(f)
    starts_of = defaultdict(list)
    for booking, _slot in placed:
        starts_of[by_pk[cast(int, booking.key)].round_number].append(booking.start)
    for number, group in byes.items():
        for f in group:  # a bye "happens" when its round starts
            f.kickoff = min(starts_of[number]) if tournament.first_day and starts_of[number] else None
            f.venue, f.slot = "", 0
            changed.append(f)
    return changed


def fixtures_time(*, tournament: Tournament, fixtures: Iterable[Fixture] | None = None) -> int:
    """Give ``fixtures`` (just made) a kick-off, a pitch and a slot by the tournament's plan, around the
    fixtures already timed; ``None``: every fixture still to play (re-timing). Without a first day the
    fixtures get pitches and slots but no kick-off. Returns how many fixtures it placed."""
    with transaction.atomic():
        everything = list(timetable_fixtures(tournament))
        if fixtures is None:
            to_place = {f.pk for f in everything if is_open(f) or (is_bye(f) and result_of(f) is None)}
        else:
            to_place = {f.pk for f in fixtures}
        if not to_place:
            return 0
        changed = _plan(tournament, everything, to_place)
        Fixture.objects.bulk_update(changed, ["kickoff", "venue", "slot"])
        tournament_changed(tournament)
    return len(changed)


def schedule_retime(*, tournament: Tournament, user: Any = None, reason: str = "", **settings: Any) -> int:
    """Store the plan's ``settings`` (first day, first kick-off, minutes per match, change-over, days between
    rounds, pitches) and re-time every fixture still to play by it; fixtures played or being played stay
    where they were and the others are placed after them. Returns how many fixtures were placed."""
    caller = tournament
    with transaction.atomic():
        _lock_event(tournament.pk)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        schedule_settings_save(tournament=tournament, **settings)
        for name in SETTINGS_FIELDS:  # the caller's copy shows the plan it asked for
            setattr(caller, name, getattr(tournament, name))
        everything = _all_fixtures(tournament)
        before = {f.pk: _where(f) for f in everything}
        to_place = {f.pk for f in everything if is_open(f) or (is_bye(f) and result_of(f) is None)}
        if not to_place:
            raise DomainError(_("There is no fixture left to schedule: generate the fixtures first."))
        changed = _plan(tournament, everything, to_place)
        changes = _save_places(changed, before)
        first = min((f.kickoff for f in changed if f.kickoff), default=None)
        summary = (Coded("retimed", {"count": len(changed), **_when(first, tournament)}) if first
                   else Coded("retimed_no_day", {"count": len(changed)}))
        _record(tournament, ScheduleChange.Action.RETIME, summary, changes, user, reason)
        tournament_changed(tournament)
    return len(changed)


# --- changes by hand -------------------------------------------------------------------------------------------


def _refuse_played(fixture: Fixture) -> None:
    if result_of(fixture) is not None:
        raise Conflict(_("%(fixture)s has been played: a played match keeps its time and place.")
                       % {"fixture": fixture_title(fixture)})


def _venue(value: str) -> str:
    venue = clean_text(value or "")
    if len(venue) > 80:
        raise DomainError({"venue": [_("A pitch's name has 80 characters at most.")]})
    return venue


def _check_kickoff(value: dt.datetime | None) -> None:
    if value is not None and (value.tzinfo is None or not 1900 <= value.year <= 2999):
        raise DomainError({"kickoff": [_("Give a kick-off between the years 1900 and 2999.")]})


def fixture_move(*, fixture: Fixture, kickoff: dt.datetime | None, venue: str, user: Any = None,
                 reason: str = "") -> Fixture:
    """Move one fixture to another kick-off (aware; ``None``: to be decided) and pitch; refused if it has
    been played or would clash."""
    _check_kickoff(kickoff)
    venue = _venue(venue)
    with transaction.atomic():
        _lock_event(fixture.tournament_id)
        tournament = Tournament.objects.select_for_update().get(pk=fixture.tournament_id)
        everything = _all_fixtures(tournament)
        target = next((f for f in everything if f.pk == fixture.pk), None)
        if target is None:
            raise DomainError(_("No such fixture in this tournament."), code="not_found")
        before = {target.pk: _where(target)}
        if before[target.pk] == {"kickoff": kickoff.isoformat() if kickoff else None, "venue": venue}:
            return target
        _refuse_played(target)
        target.kickoff, target.venue = kickoff, venue
        _refuse_clashes(tournament, everything, {target.pk})
        changes = _save_places([target], before)
        summary = Coded("moved", {"fixture": fixture_title(target), **_when(kickoff, tournament),
                                  "where": f", {venue}" if venue else ""})
        _record(tournament, ScheduleChange.Action.MOVE, summary, changes, user, reason)
        tournament_changed(tournament)
    fixture.kickoff, fixture.venue = target.kickoff, target.venue
    return target


def fixtures_push(*, tournament: Tournament, day: dt.date, after: dt.time, minutes: int, user: Any = None,
                  reason: str = "") -> int:
    """The day runs late: every fixture still to play on ``day`` (the tournament's local date) kicking off at
    or after ``after`` moves ``minutes`` later (earlier when negative). Refused if that makes a clash."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 \
            or abs(minutes) > MAX_PUSH_MINUTES:
        raise DomainError({"minutes": [_("Give the minutes to push by: a whole number from 1 to %(max)s (or "
                                         "-1 to -%(max)s to bring the fixtures forward).")
                                       % {"max": MAX_PUSH_MINUTES}]})
    tz = zone(tournament.time_zone)
    start = dt.datetime.combine(day, after).replace(tzinfo=tz)
    end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 0)).replace(tzinfo=tz)
    with transaction.atomic():
        _lock_event(tournament.pk)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        everything = _all_fixtures(tournament)
        moving = [f for f in everything if f.kickoff is not None and start <= f.kickoff < end and is_open(f)]
        if not moving:
            raise DomainError(_("No fixture still to play kicks off on %(day)s at or after %(time)s.") % {
                "day": day.strftime("%Y-%m-%d"), "time": after.strftime("%H:%M")})
        before = {f.pk: _where(f) for f in moving}
        for f in moving:
            f.kickoff = f.kickoff + dt.timedelta(minutes=minutes) if f.kickoff else None
        _refuse_clashes(tournament, everything, before.keys())
        changes = _save_places(moving, before)
        summary = Coded("pushed", {"count": len(moving), "time": after.strftime("%H:%M"),
                                   "day": day.strftime("%Y-%m-%d"), "minutes": f"{minutes:+d}"})
        _record(tournament, ScheduleChange.Action.PUSH, summary, changes, user, reason)
        tournament_changed(tournament)
    return len(moving)


def fixtures_swap(*, first: Fixture, second: Fixture, user: Any = None, reason: str = "") -> None:
    """Swap the kick-offs and pitches of two fixtures of one tournament; refused if either has been played
    or the swap makes a clash."""
    if first.tournament_id != second.tournament_id:
        raise DomainError(_("Both fixtures must belong to the same tournament."))
    if first.pk == second.pk:
        raise DomainError({"other": [_("Choose another fixture to swap with.")]})
    with transaction.atomic():
        _lock_event(first.tournament_id)
        tournament = Tournament.objects.select_for_update().get(pk=first.tournament_id)
        everything = _all_fixtures(tournament)
        by_pk = {f.pk: f for f in everything}
        a, b = by_pk.get(first.pk), by_pk.get(second.pk)
        if a is None or b is None:
            raise DomainError(_("No such fixture in this tournament."), code="not_found")
        _refuse_played(a)
        _refuse_played(b)
        before = {a.pk: _where(a), b.pk: _where(b)}
        (a.kickoff, a.venue, a.slot), (b.kickoff, b.venue, b.slot) = (b.kickoff, b.venue, b.slot), (
            a.kickoff, a.venue, a.slot)
        _refuse_clashes(tournament, everything, {a.pk, b.pk})
        changes = _save_places([a, b], before)
        summary = Coded("swapped", {"first": fixture_title(a), "second": fixture_title(b)})
        _record(tournament, ScheduleChange.Action.SWAP, summary, changes, user, reason)
        tournament_changed(tournament)


def fixtures_keep_wall_clock(*, tournament: Tournament, old_zone: str, user: Any = None) -> int:
    """After the tournament's zone changed from ``old_zone``: every kick-off keeps its local time (09:00 stays
    09:00, now in the new zone). Returns how many fixtures were moved."""
    old, new = zone(old_zone), zone(tournament.time_zone)
    with transaction.atomic():
        fixtures = list(Fixture.objects.select_for_update(of=("self",))
                        .filter(tournament=tournament, kickoff__isnull=False)
                        .select_related("pool", "home__team", "away__team"))
        before = {f.pk: _where(f) for f in fixtures}
        for f in fixtures:
            if f.kickoff is not None:
                f.kickoff = f.kickoff.astimezone(old).replace(tzinfo=new)
        changes = _save_places(fixtures, before)
        if changes or old_zone != tournament.time_zone:
            _record(tournament, ScheduleChange.Action.ZONE,
                    Coded("zone", {"old": old_zone, "new": tournament.time_zone}), changes, user, "")
        tournament_changed(tournament)
    return len(changes)
