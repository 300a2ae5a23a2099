"""Writes of events: a festival day or a fundraiser evening with several divisions on shared pitches.

An event's plan of the day (day, first kick-off, minutes per match, change-over, pitches, time zone) is its
divisions' plan: every change of it is copied onto each division's tournament, so a fixture a division makes
later (its knockout once the pools are played) follows the same day, and ``league.services.schedule`` places
it around the other divisions. ``event_schedule`` places the whole day at once (``league.timetable.
plan_divisions``: no pitch double-booked, no team or player twice at once, the event's rest between a team's
matches, the knockouts after their pools) or says by how many slots it does not fit before the event's
"finish by"; ``event_push`` pushes the day back as one and a new day moves it. Every change of a division's
timetable is a ``ScheduleChange`` row of that division, as for a tournament on its own.

Later parts of an event (registrations, nation draws, money, the prize-giving) are further modules beside
this one, each writing its own rows against the event.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils.text import slugify
from django.utils.translation import gettext as _

from league import timetable
from league.cache import tournament_changed
from league.errors import Conflict, DomainError, NotFound
from league.event_selectors import (
    event_bookings,
    event_clash_messages,
    event_dependencies,
    event_fixtures,
    fixture_sides,
    rest_gap,
)
from league.models import Division, Event, Fixture, ScheduleChange, Tournament
from league.schedule_selectors import is_booked, is_open
from league.services.schedule import (
    MAX_PUSH_MINUTES,
    _record,
    _round_order,
    _save_places,
    _where,
    schedule_settings_save,
    schedule_settings_validate,
)
from league.services.setup import tournament_create_blank
from league.services.tournaments import tournament_update
from league.stored_texts import Coded
from league.timezones import validate_time_zone, zone

# What an organiser sets on an event (the API, the forms and the admin give these to ``event_update``).
EVENT_FIELDS = ("name", "visibility", "status", "time_zone", "day", "first_kickoff", "finish_by", "slot_minutes",
                "changeover_minutes", "rest_minutes", "pitches")
MAX_DIVISIONS = 24


# --- checks ----------------------------------------------------------------------------------------------------


def event_values_validate(values: dict[str, Any]) -> dict[str, Any]:
    """The event's fields checked and tidied (pitches as ``schedule_settings_validate`` has them); field
    errors otherwise."""
    unknown = sorted(set(values) - set(EVENT_FIELDS))
    if unknown:
        raise DomainError({name: [_("This cannot be set on an event.")] for name in unknown})
    errors: dict[str, list[str]] = {}
    out = dict(values)
    plan: dict[str, Any] = {k: out[k] for k in ("slot_minutes", "changeover_minutes", "pitches") if k in out}
    try:
        out.update(schedule_settings_validate(plan))
    except ValidationError as exc:
        errors.update(exc.message_dict)
    if "rest_minutes" in out:
        value = out["rest_minutes"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 24 * 60:
            errors["rest_minutes"] = [_("Give a whole number from %(low)s to %(high)s.") % {"low": 0,
                                                                                        "high": 24 * 60}]
    if "name" in out:
        name = " ".join(str(out["name"] or "").split())
        if not name or len(name) > 120:
            errors["name"] = [_("Give the event a name of 1 to 120 characters.")]
        out["name"] = name
    day = out.get("day")
    if day is not None and (not isinstance(day, dt.date) or not 1900 <= day.year <= 2999):
        errors["day"] = [_("Give a day between the years 1900 and 2999.")]
    for name in ("first_kickoff", "finish_by"):
        if out.get(name) is not None and not isinstance(out[name], dt.time):
            errors[name] = [_("Give a time such as 09:00.")]
    if "first_kickoff" in out and out["first_kickoff"] is None:
        errors["first_kickoff"] = [_("Give a time such as 09:00.")]
    if "time_zone" in out:
        try:
            validate_time_zone(out["time_zone"])
        except ValidationError as exc:
            errors["time_zone"] = exc.messages
    if "visibility" in out and out["visibility"] not in Tournament.Visibility.values:
        errors["visibility"] = [_("Choose public or unlisted.")]
    if "status" in out and out["status"] not in Tournament.Status.values:
        errors["status"] = [_("Choose draft, in progress or finished.")]
    if errors:
        raise DomainError(errors)
    return out


def _check_finish(event: Event) -> None:
    if event.finish_by is not None and event.finish_by <= event.first_kickoff:
        raise DomainError({"finish_by": [_("The day must finish after its first kick-off.")]})


def event_changed(event: Event) -> None:
    """Mark the event's pages out of date (its divisions' own changes bump their tournaments' versions)."""
    Event.objects.filter(pk=event.pk).update(version=F("version") + 1)
    event.refresh_from_db(fields=["version"])


def _plan_of(event: Event) -> dict[str, Any]:
    """The event's plan as a division's schedule settings (every round on the event's day)."""
    return {"first_day": event.day, "first_kickoff": event.first_kickoff, "slot_minutes": event.slot_minutes,
            "changeover_minutes": event.changeover_minutes, "days_between_rounds": 0,
            "pitches": list(event.pitches or [])}


def _sync_division(event: Event, tournament: Tournament, user: Any = None) -> None:
    """Give a division the event's plan and time zone (its kick-offs keep their local times)."""
    if tournament.time_zone != event.time_zone:
        tournament_update(tournament=tournament, user=user, time_zone=event.time_zone)
    schedule_settings_save(tournament=tournament, **_plan_of(event))


def _locked_tournaments(event: Event) -> list[Tournament]:
    """The event's divisions' tournaments in the divisions' order, locked (after the event's row)."""
    return list(Tournament.objects.select_for_update().filter(division__event=event)
                .order_by("division__order", "pk"))


# --- the event ---------------------------------------------------------------------------------------------------


def event_create(*, name: str, slug: str, user: Any = None, **fields: Any) -> Event:
    """Create an event; ``user`` becomes its organiser. ``fields``: any of ``EVENT_FIELDS``."""
    values = event_values_validate({"name": name, **fields})
    slug = slug or slugify(values["name"])[:60]
    event = Event(slug=slug, **values)
    _check_finish(event)
    try:
        event.full_clean()
    except ValidationError as exc:
        raise DomainError(exc.message_dict)
    with transaction.atomic():
        event.save()
        if getattr(user, "is_authenticated", False):
            event.organisers.add(user)
    return event


def event_update(*, event: Event, user: Any = None, reason: str = "", **fields: Any) -> Event:
    """Change an event's settings; its divisions follow (plan of the day, time zone, status, visibility).

    A new day moves every fixture still to play to the same local time on the new day (refused when a match
    of the day has been played); other changes of the plan take effect at the next ``event_schedule``.
    """
    values = event_values_validate(fields)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        old_day = locked.day
        for name, value in values.items():
            setattr(locked, name, value)
        _check_finish(locked)
        try:
            locked.full_clean()
        except ValidationError as exc:
            raise DomainError(exc.message_dict)
        locked.save()
        tournaments = _locked_tournaments(locked)
        if old_day is not None and locked.day is not None and locked.day != old_day:
            _move_day(locked, tournaments, old_day, locked.day, user, reason)
        for tournament in tournaments:
            shown = {k: values[k] for k in ("status", "visibility") if k in values
                     and getattr(tournament, k) != values[k]}
            if shown:
                tournament_update(tournament=tournament, user=user, **shown)
            _sync_division(locked, tournament, user)
        event_changed(locked)
    for name in (*EVENT_FIELDS, "version"):
        setattr(event, name, getattr(locked, name))
    return event


def _move_day(event: Event, tournaments: list[Tournament], old: dt.date, new: dt.date, user: Any,
              reason: str) -> None:
    tz = zone(event.time_zone)
    fixtures = list(event_fixtures(event).select_for_update(of=("self",)))
    on_day = [f for f in fixtures if f.kickoff is not None and f.kickoff.astimezone(tz).date() == old]
    played = [f for f in on_day if not is_open(f)]
    if played:
        raise Conflict(_("%(count)s matches of %(day)s have been played or are being played: the day cannot "
                         "move.") % {"count": len(played), "day": old.isoformat()}, reason="played")
    before = {f.pk: _where(f) for f in on_day}
    for f in on_day:
        if f.kickoff is not None:
            local = f.kickoff.astimezone(tz)
            f.kickoff = dt.datetime.combine(new, local.time()).replace(tzinfo=tz)
    by_pk = {t.pk: t for t in tournaments}
    _record_by_division(by_pk, on_day, before, ScheduleChange.Action.MOVE, user, reason,
                        Coded("event_day_moved", {"old": old.isoformat(), "new": new.isoformat()}))


def event_delete(*, event: Event) -> None:
    """Delete an event; its divisions' tournaments stay, each on its own."""
    with transaction.atomic():
        tournaments = _locked_tournaments(event)
        event.delete()
        for tournament in tournaments:
            tournament_changed(tournament)


def event_organiser_add(*, event: Event, username: str) -> Any:
    """Make the user called ``username`` an organiser of the event and of every division's tournament."""
    user = get_user_model().objects.filter(username=username.strip()).first() if username else None
    if user is None or not user.is_active:
        raise NotFound({"username": [_("No user is called “%(name)s”.") % {"name": username.strip()}]})
    with transaction.atomic():
        event.organisers.add(user)
        for tournament in _locked_tournaments(event):
            tournament.organisers.add(user)
        event_changed(event)
    return user


# --- divisions ---------------------------------------------------------------------------------------------------


def _free_slug(base: str) -> str:
    base = (slugify(base) or "division")[:54]
    slug, number = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def _check_room(event: Event) -> None:
    if event.divisions.count() >= MAX_DIVISIONS:
        raise DomainError(_("An event has at most %(count)s divisions.") % {"count": MAX_DIVISIONS})


def division_create(*, event: Event, name: str, user: Any = None, slug: str = "",
                    format: str = Tournament.Format.LEAGUE,
                    points_system: str = Tournament.PointsSystem.WORLD_RUGBY) -> Tournament:
    """A new tournament made as a division of the event: the event's plan, zone, status and visibility, and
    its organisers. Its teams and fixtures are set up on the tournament's own pages."""
    name = " ".join((name or "").split())
    if not name or len(name) > 120:
        raise DomainError({"name": [_("Give the division a name of 1 to 120 characters.")]})
    if points_system not in Tournament.PointsSystem.values:
        raise DomainError({"points_system": [_("Choose a points system from the list.")]})
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        _check_room(event)
        slug = slug or _free_slug(f"{event.slug}-{name}")
        tournament = tournament_create_blank(
            format=format, name=name, slug=slug, points_system=points_system, user=user,
            organisers=list(event.organisers.all()), status=event.status, visibility=event.visibility,
            time_zone=event.time_zone, **_plan_of(event))
        order = (event.divisions.order_by("-order").values_list("order", flat=True).first() or 0) + 1
        Division.objects.create(event=event, tournament=tournament, order=order)
        event_changed(event)
    return tournament


def division_add(*, event: Event, tournament: Tournament, user: Any = None) -> Division:
    """Take an existing tournament into the event as a division (the caller has checked that ``user``
    organises both): it gets the event's plan and zone and the event's organisers; its fixtures keep their
    times until the day is scheduled."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if Division.objects.filter(tournament=tournament).exists():
            raise Conflict(_("%(name)s is already a division of an event.") % {"name": tournament.name},
                           reason="in_event")
        _check_room(event)
        order = (event.divisions.order_by("-order").values_list("order", flat=True).first() or 0) + 1
        division = Division.objects.create(event=event, tournament=tournament, order=order)
        tournament.organisers.add(*event.organisers.all())
        _sync_division(event, tournament, user)
        event_changed(event)
    return division


def division_remove(*, event: Event, tournament: Tournament) -> None:
    """Take a division out of the event: the tournament stays, on its own, with its fixtures and times."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        deleted, _rows = Division.objects.filter(event=event, tournament=tournament).delete()
        if not deleted:
            raise NotFound(_("%(name)s is not a division of this event.") % {"name": tournament.name})
        tournament_changed(tournament)
        event_changed(event)


# --- the day -----------------------------------------------------------------------------------------------------


def _record_by_division(tournaments: dict[int, Tournament], fixtures: list[Fixture],
                        before: dict[int, dict[str, Any]], action: str, user: Any, reason: str,
                        summary: Coded) -> int:
    """Write the fixtures' places; one ``ScheduleChange`` per division that changed; bump the divisions."""
    changes = _save_places(fixtures, before)
    by_division: dict[int, list[dict[str, Any]]] = defaultdict(list)
    tournament_of = {f.pk: f.tournament_id for f in fixtures}
    for change in changes:
        by_division[tournament_of[change["fixture"]]].append(change)
    for tournament_id, rows in by_division.items():
        _record(tournaments[tournament_id], action, summary, rows, user, reason)
    for tournament in tournaments.values():
        tournament_changed(tournament)
    return len(changes)


def event_schedule(*, event: Event, user: Any = None, reason: str = "") -> int:
    """Schedule the whole day: every fixture still to play of every division, on the event's pitches from its
    first kick-off, around the matches played or being played (which keep their places).

    Refused (nothing changes) when the event has no day or pitches, no fixture to place, or the day does not
    fit before its "finish by" (``Conflict``, reason ``does_not_fit``, saying by how many slots). Returns how
    many fixtures were placed.
    """
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event.day is None:
            raise DomainError({"day": [_("Give the event's day first.")]})
        if not event.pitches:
            raise DomainError({"pitches": [_("Name the pitches or tables first.")]})
        tournaments = _locked_tournaments(event)
        if not tournaments:
            raise DomainError(_("Add a division first."))
        for tournament in tournaments:  # the event's plan is the divisions' plan
            _sync_division(event, tournament, user)
        fixtures = list(event_fixtures(event).select_for_update(of=("self",)))
        to_place = [f for f in fixtures if is_open(f)]
        if not to_place:
            raise DomainError(_("There is no fixture to schedule: generate each division's fixtures first."))
        placing = {f.pk for f in to_place}
        busy = event_bookings(f for f in fixtures if f.pk not in placing and is_booked(f))
        deps = event_dependencies(fixtures)
        by_division: dict[int, dict[int, list[Fixture]]] = defaultdict(lambda: defaultdict(list))
        for f in to_place:
            by_division[f.tournament_id][f.round_number].append(f)
        divisions = [[[timetable.Match(key=f.pk, teams=fixture_sides(f), after=deps.get(f.pk, frozenset()))
                       for f in _round_order(rounds[number])] for number in sorted(rounds)]
                     for rounds in (by_division[t.pk] for t in tournaments) if rounds]
        tz = zone(event.time_zone)
        start = dt.datetime.combine(event.day, event.first_kickoff).replace(tzinfo=tz)
        length = dt.timedelta(minutes=event.slot_minutes)
        changeover = dt.timedelta(minutes=event.changeover_minutes)
        try:
            placed = timetable.plan_divisions(divisions, start=start, pitches=list(event.pitches), length=length,
                                              changeover=changeover, busy=busy, rest=rest_gap(event))
        except ValueError:
            raise Conflict(_("The day cannot be planned: there are far too many matches for its pitches."),
                           reason="does_not_fit")
        if event.finish_by is not None:
            finish = dt.datetime.combine(event.day, event.finish_by).replace(tzinfo=tz)
            late, slots = timetable.overrun([b for b, _slot in placed], finish=finish, step=length + changeover)
            if late:
                raise Conflict(
                    _("The day does not fit by %(slots)s slots: %(late)s matches would end after %(finish)s. Add "
                      "a pitch, shorten the matches, the change-over or the rest, or finish later.")
                    % {"slots": slots, "late": late, "finish": event.finish_by.strftime("%H:%M")},
                    reason="does_not_fit", data={"slots": slots, "late": late})
        by_pk = {f.pk: f for f in to_place}
        before = {f.pk: _where(f) for f in to_place}
        for booking, slot in placed:
            f = by_pk[booking.key]  # type: ignore[index]
            f.kickoff, f.venue = booking.start, str(booking.pitch) if booking.pitch is not None else ""
            if f.stage != Fixture.Stage.KNOCKOUT:
                f.slot = slot
        summary = Coded("event_scheduled", {"count": len(to_place), "when": start.isoformat(),
                                            "tz": event.time_zone})
        _record_by_division({t.pk: t for t in tournaments}, to_place, before, ScheduleChange.Action.RETIME, user,
                            reason, summary)
        event_changed(event)
    return len(to_place)


def event_push(*, event: Event, after: dt.time, minutes: int, day: dt.date | None = None, user: Any = None,
               reason: str = "") -> int:
    """The day runs late: every fixture still to play of every division kicking off on ``day`` (the event's
    day by default) at or after ``after`` moves ``minutes`` later (earlier when negative). Refused, naming
    the clash, if that makes one with a match that stays (played, or before ``after``)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0 \
            or abs(minutes) > MAX_PUSH_MINUTES:
        raise DomainError({"minutes": [_("Give the minutes to push by: a whole number from 1 to %(max)s (or "
                                         "-1 to -%(max)s to bring the fixtures forward).")
                                       % {"max": MAX_PUSH_MINUTES}]})
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        day = day or event.day
        if day is None:
            raise DomainError({"day": [_("Give the event's day first.")]})
        tz = zone(event.time_zone)
        start = dt.datetime.combine(day, after).replace(tzinfo=tz)
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0, 0)).replace(tzinfo=tz)
        tournaments = _locked_tournaments(event)
        fixtures = list(event_fixtures(event).select_for_update(of=("self",)))
        moving = [f for f in fixtures if f.kickoff is not None and start <= f.kickoff < end and is_open(f)]
        if not moving:
            raise DomainError(_("No fixture still to play kicks off on %(day)s at or after %(time)s.") % {
                "day": day.strftime("%Y-%m-%d"), "time": after.strftime("%H:%M")})
        before = {f.pk: _where(f) for f in moving}
        for f in moving:
            if f.kickoff is not None:
                f.kickoff += dt.timedelta(minutes=minutes)
        messages = event_clash_messages(event, fixtures, involving=before.keys())
        if messages:
            message = messages[0]
            if len(messages) > 1:
                message += " " + _("(%(count)s clashes in all.)") % {"count": len(messages)}
            raise Conflict(message, reason="clash")
        summary = Coded("event_pushed", {"count": len(moving), "time": after.strftime("%H:%M"),
                                         "day": day.strftime("%Y-%m-%d"), "minutes": f"{minutes:+d}"})
        _record_by_division({t.pk: t for t in tournaments}, moving, before, ScheduleChange.Action.PUSH, user,
                            reason, summary)
        event_changed(event)
    return len(moving)
