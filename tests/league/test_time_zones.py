"""Time zones: a tournament's kick-offs are entered and shown in its own zone, across daylight-saving changes,
and its calendar files (built with ``icalendar``) carry the right moments and cannot be injected into."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from league import exports, services
from league.models import Fixture, Team
from league.services import tournament_create_from_preset as preset_run
from league.timezones import local_datetime, short_label

pytestmark = pytest.mark.django_db

JNB = ZoneInfo("Africa/Johannesburg")
AKL = ZoneInfo("Pacific/Auckland")


@pytest.fixture
def cape_town(organiser):
    """A Saturday-morning league in Cape Town: 09:00 kick-offs, a round a week."""
    return preset_run("league", name="Cape schools", slug="cape", user=organiser, teams=["FRA", "NZL", "IRE", "RSA"],
                      start_date=dt.date(2026, 6, 13), first_kickoff=dt.time(9, 0), venues=["Newlands A", "Newlands B"],
                      time_zone="Africa/Johannesburg")


@pytest.fixture
def auckland(organiser):
    """A weekly league in Auckland over the end of daylight saving (Sunday 5 April 2026, 03:00 -> 02:00)."""
    return preset_run("league", name="Auckland club", slug="akl", user=organiser, teams=["FRA", "NZL", "IRE", "RSA"],
                      start_date=dt.date(2026, 3, 28), first_kickoff=dt.time(14, 0), time_zone="Pacific/Auckland")


def parse(text: str) -> icalendar.Calendar:
    calendar = icalendar.Calendar.from_ical(text)
    assert calendar.get_missing_tzids() == set()  # every TZID used has its VTIMEZONE
    return calendar


def events(calendar: icalendar.Calendar) -> list[icalendar.Event]:
    return list(calendar.walk("VEVENT"))


# --- conversion -------------------------------------------------------------------------------------------------


def test_johannesburg_kickoffs_are_local_nine_oclock(cape_town):
    fixtures = list(Fixture.objects.filter(tournament=cape_town))
    assert {f.kickoff.astimezone(JNB).strftime("%H:%M") for f in fixtures} == {"09:00"}
    assert {f.kickoff.astimezone(dt.UTC).strftime("%H:%M") for f in fixtures} == {"07:00"}  # SAST is UTC+2


def test_auckland_keeps_two_oclock_across_the_end_of_daylight_saving(auckland):
    rounds = sorted(Fixture.objects.filter(tournament=auckland), key=lambda f: f.kickoff)
    local = [(f.kickoff.astimezone(AKL).date().isoformat(), f.kickoff.astimezone(AKL).strftime("%H:%M %Z"))
             for f in rounds[::2]]
    assert local == [("2026-03-28", "14:00 NZDT"), ("2026-04-04", "14:00 NZDT"), ("2026-04-11", "14:00 NZST")]
    # The same wall-clock time is a different UTC time once the clocks go back.
    assert [f.kickoff.astimezone(dt.UTC).hour for f in rounds[::2]] == [1, 1, 2]


def test_push_across_a_daylight_saving_change_counts_real_minutes(organiser):
    t = services.tournament_create_blank(name="Night", slug="night", format="league", time_zone="Pacific/Auckland",
                                         user=organiser)
    services.entries_add(tournament=t, teams=["FRA", "NZL"], pool="A")
    services.fixtures_generate_round_robin(tournament=t, start_date=dt.date(2026, 4, 5), first_kickoff=dt.time(1, 50),
                                           days_between_rounds=0)
    fixture = Fixture.objects.get(tournament=t)
    services.fixtures_push(tournament=t, day=dt.date(2026, 4, 5), after=dt.time(1, 0), minutes=80)
    fixture.refresh_from_db()
    # 01:50 NZDT + 80 real minutes = 02:10 NZST (the clocks went back an hour at 03:00 NZDT).
    assert fixture.kickoff.astimezone(AKL).strftime("%H:%M %Z") == "02:10 NZST"


def test_a_time_the_clocks_skip_is_refused_with_a_message():
    # New Zealand's clocks go forward at 02:00 on 27 September 2026: 02:30 does not exist.
    with pytest.raises(ValidationError, match="does not exist"):
        local_datetime("Pacific/Auckland", dt.date(2026, 9, 27), dt.time(2, 30))
    moment = local_datetime("Africa/Johannesburg", dt.date(2026, 9, 27), dt.time(2, 30))
    assert moment.astimezone(dt.UTC).hour == 0


def test_unknown_zone_refused_and_default_from_settings(settings, organiser):
    settings.TIME_ZONE = "Africa/Johannesburg"
    t = services.tournament_create_blank(name="Default", slug="default-zone", user=organiser)
    assert t.time_zone == "Africa/Johannesburg"
    with pytest.raises(ValidationError):
        services.tournament_create_blank(name="Bad", slug="bad-zone", time_zone="Europe/Atlantis")


def test_pages_show_local_times_with_the_zone(client, cape_town):
    html = client.get(reverse("league:tournament", args=["cape"])).content.decode()
    assert "09:00 SAST" in html and "07:00" not in html
    fixture = Fixture.objects.filter(tournament=cape_town).first()
    html = client.get(reverse("league:fixture", args=["cape", fixture.pk])).content.decode()
    assert "09:00 SAST" in html
    assert short_label(fixture.kickoff, "Africa/Johannesburg").endswith("09:00 SAST")


# --- the calendar -----------------------------------------------------------------------------------------------


def test_calendar_carries_the_zone_and_validates(client, cape_town):
    response = client.get(reverse("league:calendar", args=["cape"]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = parse(response.content.decode())
    found = events(calendar)
    assert len(found) == Fixture.objects.filter(tournament=cape_town).count() == 6
    for event in found:
        start = event.decoded("dtstart")
        assert start.tzinfo is not None and str(event["dtstart"].params["TZID"]) == "Africa/Johannesburg"
        assert start.astimezone(JNB).strftime("%H:%M") == "09:00"
        assert event.decoded("dtend") - start == dt.timedelta(minutes=cape_town.slot_minutes)
        assert str(event["location"]) in ("Newlands A", "Newlands B")
    assert [tz.tz_name for tz in calendar.timezones] == ["Africa/Johannesburg"]
    starts = sorted(e.decoded("dtstart") for e in found)
    stored = sorted(f.kickoff for f in Fixture.objects.filter(tournament=cape_town))
    assert starts == stored  # the same moments


def test_calendar_across_daylight_saving_in_auckland(client, auckland):
    calendar = parse(client.get(reverse("league:calendar", args=["akl"])).content.decode())
    stored = {f"fixture-{f.pk}": f.kickoff for f in Fixture.objects.filter(tournament=auckland)}
    for event in events(calendar):
        start = event.decoded("dtstart")
        assert start == stored[str(event["uid"]).split("@")[0]]
        assert start.astimezone(AKL).strftime("%H:%M") == "14:00"
    offsets = {event.decoded("dtstart").astimezone(AKL).utcoffset() for event in events(calendar)}
    assert offsets == {dt.timedelta(hours=13), dt.timedelta(hours=12)}


def test_control_characters_cannot_inject_calendar_lines(client, cape_town):
    fixture = Fixture.objects.filter(tournament=cape_town).order_by("kickoff").first()
    services.fixture_move(fixture=fixture, kickoff=fixture.kickoff, venue="Pitch 1")  # no change: a no-op
    Fixture.objects.filter(pk=fixture.pk).update(venue="Pitch\r1\rBEGIN:VEVENT\rSUMMARY:Free beer\nX:1\x0bY")
    Team.objects.filter(code="FRA").update(name="France\r\nEND:VCALENDAR\u202e")
    text = client.get(reverse("league:calendar", args=["cape"])).content.decode()
    assert "\r" not in text.replace("\r\n", "") and "\n" not in text.replace("\r\n", "")
    lines = text.replace("\r\n ", "").split("\r\n")
    assert lines.count("BEGIN:VEVENT") == 6 and lines.count("END:VCALENDAR") == 1
    assert not any(line.startswith(("SUMMARY:Free", "X:1")) for line in lines)
    calendar = parse(text)
    moved = next(e for e in events(calendar) if str(e["uid"]).startswith(f"fixture-{fixture.pk}@"))
    assert str(moved["location"]) == "Pitch 1 BEGIN:VEVENT SUMMARY:Free beer X:1 Y"
    assert all("\u202e" not in str(e["summary"]) for e in events(calendar))


def test_calendar_text_helper():
    assert exports.calendar_text("A\rB\nC\r\nD\tE\x00F\u202eG") == "A B C D E FG"
