"""Reads of events: their divisions, the whole day's fixtures, who a fixture needs across divisions, the clashes
across divisions, and what is on each pitch now and next.

Across divisions a fixture's "sides" are what may not be in two places at once: the team (an organiser's own
team entered in two divisions is the same children), the player who plays an entry (a person in the cup and
the social competition of one evening), and the entry itself. A nation (a shared RWC team row) is not a side
on its own: France in the cup and France in the social competition are two different people.

A player is known by who they are, not by the name the pages show: a registered player by their registration
(two players shown as "Sam K." are two people), a signed-in player by their account, and only a player the
organiser typed in by hand by that typed name (the organiser's own way of saying "the same Sam").
``league.services.events`` and ``league.services.schedule`` check and place fixtures with these.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable
from typing import Any, cast

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from league import timetable
from league.event_lookup import event_of as event_of  # read here by the pages and services
from league.exports import fixture_title, result_of
from league.models import Division, Entry, Event, Fixture
from league.schedule_selectors import dependencies, is_booked, is_bye
from league.timezones import short_label, zone

# How far back "now" looks for a match still being played (the longest match a pitch may hold).
NOW_LOOKBACK = dt.timedelta(hours=6)


def event_divisions(event: Event) -> list[Division]:
    """The event's divisions in order, with their tournaments and how far each is set up (one query)."""
    return list(event.divisions.select_related("tournament").annotate(
        entry_count=Count("tournament__entries", distinct=True),
        fixture_count=Count("tournament__fixtures", distinct=True),
        timed_count=Count("tournament__fixtures", filter=Q(tournament__fixtures__kickoff__isnull=False),
                          distinct=True),
    ).order_by("order", "id"))


def event_fixtures(event: Event) -> QuerySet[Fixture]:
    """Every fixture of every division, with what the timetable and its messages need."""
    return (Fixture.objects.filter(tournament__division__event=event)
            .select_related("tournament", "pool", "home__team", "away__team", "home__player", "away__player",
                            "home__registration", "away__registration", "result")
            .order_by("tournament_id", "round_number", "id"))


# --- sides and bookings ----------------------------------------------------------------------------------------


def entry_sides(entry: Entry) -> set[Hashable]:
    """What an entry needs that may not be in two places at once (see the module)."""
    sides: set[Hashable] = {("entry", entry.pk)}
    if not entry.team.is_nation:
        sides.add(("team", entry.team_id))
    if entry.player_id is not None:
        sides.add(("player", entry.player_id))
    registration = getattr(entry, "registration", None)
    if registration is not None:
        # The registration is the person; their shown name ("Sam K.") may be another player's too.
        sides.add(("registration", registration.pk))
        return sides
    name = " ".join(entry.player_name.split()).casefold()
    if name:
        sides.add(("name", name))
    return sides


def fixture_sides(fixture: Fixture) -> frozenset[Hashable]:
    """The sides of both entries of a fixture (none yet for a knockout slot still to fill)."""
    sides: set[Hashable] = set()
    for entry in (fixture.home, fixture.away):
        if entry is not None:
            sides |= entry_sides(entry)
    return frozenset(sides)


def event_dependencies(fixtures: Iterable[Fixture]) -> dict[int, frozenset[int]]:
    """``schedule_selectors.dependencies`` division by division (codes such as QF1 repeat across them)."""
    by_tournament: dict[int, list[Fixture]] = defaultdict(list)
    for f in fixtures:
        by_tournament[f.tournament_id].append(f)
    found: dict[int, frozenset[int]] = {}
    for group in by_tournament.values():
        found.update(dependencies(group))
    return found


def fixture_length(fixture: Fixture) -> dt.timedelta:
    """How long the fixture takes its pitch: its division's minutes per match."""
    return dt.timedelta(minutes=fixture.tournament.slot_minutes)


def event_bookings(fixtures: Iterable[Fixture]) -> list[timetable.Booking]:
    """The fixtures that take a pitch, as bookings keyed by fixture id, with their sides as the teams."""
    fixtures = list(fixtures)
    deps = event_dependencies(fixtures)
    return [timetable.Booking(key=f.pk, start=f.kickoff, end=f.kickoff + fixture_length(f), pitch=f.venue or None,
                              teams=fixture_sides(f), after=deps.get(f.pk, frozenset()))
            for f in fixtures if is_booked(f) and f.kickoff is not None]


def rest_gap(event: Event) -> dt.timedelta:
    """The least time between two matches of one team or player."""
    return dt.timedelta(minutes=event.rest_minutes)


# --- clashes -------------------------------------------------------------------------------------------------


def division_title(fixture: Fixture) -> str:
    """"Under 11 · France v Fiji (Pool A)": the fixture named with its division."""
    return f"{fixture.tournament.name} · {fixture_title(fixture)}"


def _side_name(subject: Any, fixtures: Iterable[Fixture]) -> str:
    for f in fixtures:
        for entry in (f.home, f.away):
            if entry is None or subject not in entry_sides(entry):
                continue
            kind = subject[0]
            if kind == "player" and entry.player is not None:
                return entry.player.get_full_name() or entry.player.get_username()
            if kind in ("name", "registration"):
                return entry.player_name or entry.team.name
            return entry.team.name
    return str(subject)


def event_clash_message(clash: timetable.Clash, fixtures: dict[int, Fixture], event: Event) -> str:
    """A clash across divisions in words, naming the team, player or pitch, both fixtures and their times."""
    first, second = fixtures[cast(int, clash.first.key)], fixtures[cast(int, clash.second.key)]
    values = {"first": division_title(first), "second": division_title(second),
              "first_time": short_label(clash.first.start, event.time_zone),
              "second_time": short_label(clash.second.start, event.time_zone)}
    if clash.kind == timetable.TEAM:
        side = _side_name(clash.subject, (first, second))
        if clash.first.overlaps(clash.second):
            return _("Clash: %(side)s would play twice at once, in %(first)s at %(first_time)s and in %(second)s "
                     "at %(second_time)s.") % {**values, "side": side}
        return _("Clash: %(side)s would not have %(rest)s minutes' rest between %(first)s at %(first_time)s and "
                 "%(second)s at %(second_time)s.") % {**values, "side": side, "rest": event.rest_minutes}
    if clash.kind == timetable.PITCH:
        return _("Clash: %(pitch)s would be double-booked, for %(first)s at %(first_time)s and %(second)s at "
                 "%(second_time)s.") % {**values, "pitch": clash.subject}
    return _("Clash: %(second)s would start at %(second_time)s, before %(first)s (%(first_time)s) is over, and "
             "it takes a team from that match.") % values


def event_clash_messages(event: Event, fixtures: list[Fixture], *,
                         involving: Collection[int] | None = None) -> list[str]:
    """The clashes of the whole day's timetable, rest gaps included (only those of ``involving``, if given)."""
    found = timetable.find_clashes(event_bookings(fixtures), rest=rest_gap(event), involving=involving)
    by_pk = {f.pk: f for f in fixtures}
    return [event_clash_message(c, by_pk, event) for c in found]


def event_clashes(event: Event) -> list[str]:
    """Every clash of the event's day now (its schedule page warns of them)."""
    return event_clash_messages(event, list(event_fixtures(event)))


# --- the day as visitors and organisers see it -------------------------------------------------------------


def event_pitches(event: Event, fixtures: Iterable[Fixture]) -> list[str]:
    """The event's pitches in its order, then any other venue its fixtures use."""
    names = list(event.pitches or [])
    for f in fixtures:
        if f.venue and f.venue not in names:
            names.append(f.venue)
    return names


def now_and_next(event: Event, now: dt.datetime) -> list[dict[str, Any]]:
    """Per pitch, across divisions: the match on it now (kicked off, not over, no result) and the next one
    to kick off. One query whatever the size of the day."""
    fixtures = [f for f in event_fixtures(event).filter(kickoff__gte=now - NOW_LOOKBACK).order_by("kickoff", "id")
                if is_booked(f) and not is_bye(f)]
    rows = []
    for pitch in event_pitches(event, fixtures):
        on_pitch = [f for f in fixtures if f.venue == pitch]
        current = next((f for f in on_pitch if f.kickoff is not None and f.kickoff <= now < f.kickoff
                        + fixture_length(f) and result_of(f) is None), None)
        upcoming = next((f for f in on_pitch if f.kickoff is not None and f.kickoff > now and f is not current
                         and result_of(f) is None), None)
        if current is not None or upcoming is not None:
            rows.append({"pitch": pitch, "now": current, "next": upcoming})
    return rows


def event_grid(event: Event, fixtures: list[Fixture]) -> dict[str, Any]:
    """The day as a grid for the organiser: one row per kick-off time, one column per pitch."""
    tz = zone(event.time_zone)
    pitches = event_pitches(event, fixtures)
    rows: dict[dt.datetime, dict[str, list[Fixture]]] = defaultdict(lambda: defaultdict(list))
    unplaced = []
    for f in fixtures:
        if is_bye(f):
            continue
        if f.kickoff is None:
            unplaced.append(f)
        else:
            rows[f.kickoff][f.venue].append(f)
    return {
        "pitches": pitches,
        "rows": [{"time": when.astimezone(tz), "cells": [rows[when].get(p, []) for p in pitches],
                  "elsewhere": [f for venue, group in rows[when].items() if venue not in pitches for f in group]}
                 for when in sorted(rows)],
        "unplaced": unplaced,
    }


def event_days(event: Event) -> list[dt.date]:
    """The local days on which the event's divisions have fixtures (the push form's choices)."""
    tz = zone(event.time_zone)
    kickoffs = Fixture.objects.filter(tournament__division__event=event, kickoff__isnull=False).exclude(
        status=Fixture.Status.CANCELLED).values_list("kickoff", flat=True)
    return sorted({k.astimezone(tz).date() for k in kickoffs if k is not None})


def division_versions(event: Event) -> list[tuple[int, int]]:
    """(tournament id, version) of every division: with the event's version, the key of its cached pages."""
    return list(Division.objects.filter(event=event).order_by("order", "id")
                .values_list("tournament_id", "tournament__version"))
