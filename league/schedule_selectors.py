"""Reads of the timetable: which fixtures take a pitch, what each depends on, the clashes now, the days.

``league.services.schedule`` writes the timetable with these; the schedule page and the API read them.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from typing import cast

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from league import brackets, timetable
from league.exports import fixture_title, result_of
from league.models import Fixture, ScheduleChange, Tournament
from league.timezones import short_label, zone


def is_bye(fixture: Fixture) -> bool:
    """A Swiss bye: kept as a fixture with one team and no match."""
    return brackets.BYE in (fixture.home_source, fixture.away_source)


def is_open(fixture: Fixture) -> bool:
    """Still to be played -- no result, not live, not cancelled, not a bye -- so its time may change."""
    return fixture.status == Fixture.Status.SCHEDULED and result_of(fixture) is None and not is_bye(fixture)


def is_booked(fixture: Fixture) -> bool:
    """Takes a pitch and its teams' time: a match with a kick-off that is not cancelled."""
    return fixture.kickoff is not None and fixture.status != Fixture.Status.CANCELLED and not is_bye(fixture)


def fixture_teams(fixture: Fixture) -> frozenset[int]:
    """The entries the fixture needs (none yet for a knockout slot still to fill)."""
    return frozenset(e for e in (fixture.home_id, fixture.away_id) if e is not None)


def dependencies(fixtures: Sequence[Fixture]) -> dict[int, frozenset[int]]:
    """For each knockout fixture, the fixtures it takes its teams from: the matches its "winner:"/"loser:"
    sources name, and every fixture of a pool its "pool:" sources name."""
    by_code = {f.code: f.pk for f in fixtures if f.code}
    by_pool: dict[str, list[int]] = defaultdict(list)
    for f in fixtures:
        if f.pool is not None and f.stage == Fixture.Stage.POOL:
            by_pool[f.pool.name].append(f.pk)
    found: dict[int, frozenset[int]] = {}
    for f in fixtures:
        keys: set[int] = set()
        for source in (f.home_source, f.away_source):
            kind, _sep, rest = source.partition(":")
            if kind in ("winner", "loser") and rest in by_code:
                keys.add(by_code[rest])
            elif kind == "pool":
                keys.update(by_pool.get(rest.partition(":")[0], ()))
        if keys:
            found[f.pk] = frozenset(keys)
    return found


def timetable_fixtures(tournament: Tournament) -> QuerySet[Fixture]:
    """The tournament's fixtures with what the timetable and its messages need, in round order."""
    return (Fixture.objects.filter(tournament=tournament)
            .select_related("pool", "home__team", "away__team", "home__registration", "away__registration", "result")
            .order_by("round_number", "id"))


def match_length(tournament: Tournament) -> dt.timedelta:
    """How long a match takes a pitch (the tournament's minutes per match)."""
    return dt.timedelta(minutes=tournament.slot_minutes)


def bookings(tournament: Tournament, fixtures: Iterable[Fixture], deps: dict[int, frozenset[int]]
             ) -> list[timetable.Booking]:
    """The fixtures that take a pitch, as ``league.timetable`` bookings (fixture ids as keys)."""
    length = match_length(tournament)
    return [timetable.Booking(key=f.pk, start=f.kickoff, end=f.kickoff + length, pitch=f.venue or None,
                              teams=fixture_teams(f), after=deps.get(f.pk, frozenset()))
            for f in fixtures if is_booked(f) and f.kickoff is not None]


def clash_message(clash: timetable.Clash, fixtures: dict[int, Fixture], tournament: Tournament) -> str:
    """A clash in words, naming the team or pitch, both fixtures and their local kick-offs."""
    first, second = fixtures[cast(int, clash.first.key)], fixtures[cast(int, clash.second.key)]
    values = {"first": fixture_title(first), "second": fixture_title(second),
              "first_time": short_label(clash.first.start, tournament.time_zone),
              "second_time": short_label(clash.second.start, tournament.time_zone),
              "minutes": tournament.slot_minutes}
    if clash.kind == timetable.TEAM:
        team = next((e.team.name for e in (first.home, first.away) if e is not None and e.pk == clash.subject), "")
        return _("Clash: %(team)s would play twice at once, in %(first)s at %(first_time)s and in %(second)s "
                 "at %(second_time)s (a match lasts %(minutes)s minutes).") % {**values, "team": team}
    if clash.kind == timetable.PITCH:
        return _("Clash: %(pitch)s would be double-booked, for %(first)s at %(first_time)s and %(second)s at "
                 "%(second_time)s (a match lasts %(minutes)s minutes).") % {**values, "pitch": clash.subject}
    return _("Clash: %(second)s would start at %(second_time)s, before %(first)s (%(first_time)s) is over, and "
             "it takes a team from that match.") % values


def clash_messages(tournament: Tournament, fixtures: list[Fixture], *,
                   involving: Collection[int] | None = None) -> list[str]:
    """The clashes of these fixtures' timetable (only those of the fixtures ``involving``, if given)."""
    found = timetable.find_clashes(bookings(tournament, fixtures, dependencies(fixtures)), involving=involving)
    by_pk = {f.pk: f for f in fixtures}
    return [clash_message(c, by_pk, tournament) for c in found]


def schedule_clashes(tournament: Tournament) -> list[str]:
    """Every clash in the tournament's timetable now (the schedule page warns of them)."""
    return clash_messages(tournament, list(timetable_fixtures(tournament)))


def schedule_days(tournament: Tournament) -> list[dt.date]:
    """The local days on which the tournament has fixtures, in order (the push form's choices)."""
    tz = zone(tournament.time_zone)
    kickoffs = Fixture.objects.filter(tournament=tournament, kickoff__isnull=False).exclude(
        status=Fixture.Status.CANCELLED).values_list("kickoff", flat=True)
    return sorted({k.astimezone(tz).date() for k in kickoffs if k is not None})


def schedule_changes(tournament: Tournament, limit: int = 50) -> list[ScheduleChange]:
    """The latest changes to the timetable, newest first (organisers only: it names who changed what)."""
    return list(ScheduleChange.objects.filter(tournament=tournament).select_related("changed_by")
                .order_by("-changed_at", "-id")[:limit])
