"""In Chromium on a 390 px phone: an organiser creates a festival day (an event) with three divisions on four
pitches -- one made on the event's page with its teams typed in, two of their tournaments taken in -- and
schedules the whole day with no clash; moving a division's match onto another division's pitch and time is
refused with the clash named; the day is pushed back as one; a parent's phone shows every division with what
is on each pitch, and the big screen cycles through them. Screenshots go to test-artifacts/ (event-*.png)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tests.e2e.browser import fits, phone_page, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations")]

SAST = ZoneInfo("Africa/Johannesburg")
UNDER_9 = ["Grey", "Paul Roos", "Paarl Gim", "Bishops"]


def test_organiser_runs_a_three_division_day_on_four_pitches(browser, live_server, debug_off,
                                                               signed_up_organiser):
    from django.contrib.auth import get_user_model

    from league import services
    from league.event_selectors import event_clashes
    from league.models import Event, Fixture, ScheduleChange

    base = live_server.url
    page = signed_up_organiser
    # Two divisions the coach already runs (made on their own, as any tournament).
    coach = get_user_model().objects.get(username="coach")
    services.tournament_create_from_preset("league", name="Under 11", slug="u11", user=coach,
                                           teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"])
    services.tournament_create_from_preset("league", name="Under 13", slug="u13", user=coach,
                                           teams=["WAL", "FIJ", "SCO", "AUS"])

    # The event: the day, four pitches, 20-minute matches, 5 minutes' change-over, 10 minutes' rest.
    page.goto(f"{base}/events/")
    page.get_by_role("link", name="Create an event").click()
    page.get_by_label("Name", exact=True).fill("Saturday festival")
    page.get_by_label("Day").fill("2026-06-13")
    page.get_by_label("First kick-off").fill("09:00")
    page.get_by_label("Minutes per match").fill("20")
    page.get_by_label("Change-over minutes").fill("5")
    page.get_by_label("Rest between a team's matches (minutes)").fill("10")
    page.get_by_label("Pitches or tables, one a line").fill("Pitch 1\nPitch 2\nPitch 3\nPitch 4")
    page.get_by_label("Time zone").select_option("Africa/Johannesburg")
    page.get_by_label("Status").select_option("in_progress")
    shot(page, "event-01-new")
    assert fits(page)
    page.get_by_role("button", name="Create the event").click()
    page.wait_for_url("**/e/saturday-festival/manage/")
    page.get_by_text("No divisions yet").wait_for()

    # Division 1, made here: its teams typed in on the tournament's own page, its fixtures generated.
    page.get_by_label("Division's name").fill("Under 9")
    page.get_by_role("button", name="Add the division").click()
    page.wait_for_url("**/t/saturday-festival-under-9/manage/")
    page.goto(f"{base}/t/saturday-festival-under-9/manage/teams/")
    page.get_by_label("Teams, one per line").fill("\n".join(UNDER_9))
    page.get_by_role("button", name="Add these teams").click()
    page.get_by_text("4 teams added").wait_for()
    page.goto(f"{base}/t/saturday-festival-under-9/manage/draw/")
    page.get_by_label("Number of pools").fill("1")
    page.get_by_role("button", name="Draw the pools").click()
    page.locator("#draw-seed").wait_for()
    page.goto(f"{base}/t/saturday-festival-under-9/manage/fixtures/")
    assert page.get_by_label("Pitches or tables, separated by commas").input_value() == (
        "Pitch 1, Pitch 2, Pitch 3, Pitch 4")  # the event's plan
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_url("**/manage/schedule/")
    page.get_by_text("This tournament is a division of Saturday festival").wait_for()
    page.get_by_role("link", name="The event's day").click()
    page.wait_for_url("**/e/saturday-festival/manage/")

    # Divisions 2 and 3: two of the coach's tournaments taken in.
    for name in ("Under 11", "Under 13"):
        page.get_by_text("Add one of your tournaments").click()
        page.get_by_label("One of your tournaments").select_option(label=name)
        page.get_by_role("button", name="Add it as a division").click()
        page.get_by_text(f"Division “{name}” added.").wait_for()
    assert page.locator("[data-division]").count() == 3

    page.get_by_role("button", name="Schedule the whole day").click()
    page.get_by_text("The day is scheduled: 27 fixtures placed with no clash.").wait_for()
    assert page.locator("#event-clashes").count() == 0
    shot(page, "event-02-day")
    assert fits(page)  # the grid scrolls inside its own box
    event = Event.objects.get(slug="saturday-festival")
    assert event_clashes(event) == []
    fixtures = list(Fixture.objects.filter(tournament__division__event=event).select_related("tournament"))
    assert len(fixtures) == 27 and all(f.venue.startswith("Pitch ") and f.kickoff for f in fixtures)
    assert {f.tournament.slug for f in fixtures if f.kickoff.astimezone(SAST).strftime("%H:%M") == "09:00"} == {
        "saturday-festival-under-9", "u11", "u13"}

    # A forced clash: an Under 9 match moved onto an Under 11 match's pitch and time is refused, named.
    ours = max((f for f in fixtures if f.tournament.slug == "saturday-festival-under-9"), key=lambda f: f.kickoff)
    busy = {f.kickoff for f in fixtures if {f.home_id, f.away_id} & {ours.home_id, ours.away_id}}
    theirs = min((f for f in fixtures if f.tournament.slug == "u11"
                  and all(abs(f.kickoff - k) >= dt.timedelta(minutes=30) for k in busy)), key=lambda f: f.kickoff)
    local = theirs.kickoff.astimezone(SAST)
    page.locator(f"a[href$='/manage/schedule/{ours.pk}/']").click()
    page.get_by_label("Day").fill(local.strftime("%Y-%m-%d"))
    page.get_by_label("Kick-off").fill(local.strftime("%H:%M"))
    page.get_by_label("Pitch or table").fill(theirs.venue)
    page.get_by_role("button", name="Move", exact=True).click()
    page.get_by_text("would be double-booked").wait_for()
    assert "Under 11" in page.content()
    shot(page, "event-03-clash-refused")
    ours.refresh_from_db()
    assert ours.kickoff != theirs.kickoff and event_clashes(event) == []

    # The day runs late: everything from 09:25 on moves 15 minutes, every division at once.
    page.goto(f"{base}/e/saturday-festival/manage/")
    page.get_by_text("Running late? Push back the rest of the day").click()
    page.get_by_label("Fixtures kicking off at or after").fill("09:25")
    page.get_by_label("Push back by (minutes)").fill("15")
    page.get_by_role("button", name="Push back").click()
    page.get_by_text("fixtures moved by 15 minutes.").wait_for()
    assert ScheduleChange.objects.filter(action="push").count() == 3 and event_clashes(event) == []

    # A parent's phone: every division, now and next per pitch, one link and QR code.
    parent = phone_page(browser)
    parent.goto(f"{base}/e/saturday-festival/")
    parent.get_by_role("heading", name="On the pitches now and next").wait_for()
    for name in ("Under 9", "Under 11", "Under 13"):
        assert parent.get_by_role("heading", name=name).count() == 1
    assert parent.locator("img.qr").evaluate("img => img.naturalWidth") > 0
    assert fits(parent)
    shot(parent, "event-04-public")
    screen = browser.new_page(viewport={"width": 1280, "height": 720})
    screen.goto(f"{base}/e/saturday-festival/screen/?seconds=2")
    screen.wait_for_function("() => document.getElementById('screen')?.dataset.slide === '0'")
    assert screen.locator(".slide:not([hidden])").count() == 1
    screen.wait_for_function("() => document.getElementById('screen')?.dataset.slide === '2'")  # cycles the divisions
    assert screen.locator(".slide:not([hidden]) > h2").inner_text() == "Under 11"
    shot(screen, "event-05-screen")
