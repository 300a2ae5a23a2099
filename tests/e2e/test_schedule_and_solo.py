"""In Chromium on a 390 px phone: an organiser schedules a one-day festival with knockouts in Johannesburg, moves
a fixture, pushes the afternoon back 20 minutes and sees the new times on the public page and in the calendar
file; then a solo player types the code from their sheet, starts an attempt and plays it through to the
leaderboard. Screenshots go to test-artifacts/ (schedule-*.png)."""

from __future__ import annotations

import datetime as dt
import random
import re
from zoneinfo import ZoneInfo

import icalendar
import pytest

from tests.e2e.browser import fits, phone_page, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations")]

SAST = ZoneInfo("Africa/Johannesburg")
SCHOOLS = ["Grey College", "Paul Roos", "Paarl Gim", "Bishops", "Rondebosch", "SACS", "Wynberg", "Boland Landbou"]


def test_organiser_schedules_a_festival_day_on_a_phone(browser, live_server, debug_off, signed_up_organiser):
    from league.models import Fixture, ScheduleChange, Tournament

    base = live_server.url
    page = signed_up_organiser
    page.get_by_label("Name", exact=True).fill("Winelands festival")
    page.get_by_label("Format").select_option("pools_knockout")
    page.get_by_text("More options").click()
    page.get_by_label("Web address (slug)").fill("winelands")
    page.get_by_label("Time zone").select_option("Africa/Johannesburg")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/t/winelands/manage/teams/")  # no team yet: a draft, on its Teams page

    page.goto(f"{base}/t/winelands/manage/teams/")
    page.get_by_label("Teams, one per line").fill("\n".join(SCHOOLS))
    page.get_by_role("button", name="Add these teams").click()
    page.get_by_text("8 teams added").wait_for()
    page.goto(f"{base}/t/winelands/manage/draw/")
    page.get_by_label("Number of pools").fill("2")
    page.get_by_role("button", name="Draw the pools").click()
    page.locator("#draw-seed").wait_for()

    # The fixtures page starts from the festival's plan: one day, rounds one after another.
    page.goto(f"{base}/t/winelands/manage/fixtures/")
    assert page.get_by_label("Days between rounds").input_value() == "0"
    page.get_by_label("First day").fill("2026-06-13")
    page.get_by_label("First kick-off").fill("09:00")
    page.get_by_label("Minutes per match").fill("30")
    page.get_by_label("Change-over minutes").fill("10")
    page.get_by_label("Pitches or tables, separated by commas").fill("Pitch 1, Pitch 2")
    shot(page, "schedule-01-plan")
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_url("**/manage/schedule/")
    page.get_by_text("Times are in Africa/Johannesburg").wait_for()
    assert fits(page)
    shot(page, "schedule-02-schedule")

    tournament = Tournament.objects.get(slug="winelands")
    fixtures = list(Fixture.objects.filter(tournament=tournament).order_by("kickoff", "venue"))
    assert fixtures and all(f.kickoff for f in fixtures)
    knockouts = [f for f in fixtures if f.stage == "knockout"]
    assert knockouts and min(k.kickoff for k in knockouts) > max(f.kickoff for f in fixtures if f.stage == "pool")
    assert "09:00 SAST" in page.content()

    # Move one morning fixture to a third pitch at the same time; then a clash is refused with its name.
    moved = fixtures[1]
    page.locator(f"#fixture-{moved.pk}").get_by_role("link", name="Move or swap").click()
    page.get_by_label("Pitch or table").fill("Pitch 3")
    page.get_by_label("Reason (kept in the log)").first.fill("Pitch 2 waterlogged")
    shot(page, "schedule-03-move")
    page.get_by_role("button", name="Move", exact=True).click()
    page.wait_for_url("**/manage/schedule/**")
    page.get_by_text("moved.").first.wait_for()
    moved.refresh_from_db()
    assert moved.venue == "Pitch 3"
    page.locator(f"#fixture-{moved.pk}").get_by_role("link", name="Move or swap").click()
    page.get_by_label("Pitch or table").fill(fixtures[0].venue)
    page.get_by_role("button", name="Move", exact=True).click()
    page.get_by_text("would be double-booked").wait_for()
    shot(page, "schedule-04-clash")

    # The day runs late: push everything from the first knockout on back 20 minutes.
    first_ko = min(k.kickoff for k in knockouts).astimezone(SAST)
    page.goto(f"{base}/t/winelands/manage/schedule/")
    page.get_by_text("Running late? Push back the rest of the day").click()
    assert page.get_by_label("Fixtures kicking off at or after").input_value() == "09:00"  # the next to play
    page.get_by_label("Fixtures kicking off at or after").fill(first_ko.strftime("%H:%M"))
    page.get_by_label("Push back by (minutes)").fill("20")
    page.get_by_role("button", name="Push back").click()
    page.get_by_text("fixtures moved by 20 minutes").wait_for()
    shot(page, "schedule-05-pushed")
    later = (first_ko + dt.timedelta(minutes=20)).strftime("%H:%M")
    assert f"{later} SAST" in page.content()
    assert [c.action for c in ScheduleChange.objects.filter(tournament=tournament).order_by("changed_at")] == [
        "move", "push"]

    # Publish; a parent's phone shows the new times, and the calendar file carries them.
    page.goto(f"{base}/t/winelands/manage/")
    page.get_by_role("button", name="Publish").click()
    page.get_by_text("The tournament is published").wait_for()
    parent = phone_page(browser)
    parent.goto(f"{base}/t/winelands/?by=day")
    parent.get_by_role("heading", name="Fixtures and results").wait_for()
    assert f"{later} SAST" in parent.content() and "Pitch 3" in parent.content()
    assert fits(parent)
    shot(parent, "schedule-06-public-day")
    ics = parent.request.get(f"{base}/t/winelands/calendar.ics").text()
    calendar = icalendar.Calendar.from_ical(ics)
    starts = {str(e["uid"]).split("@")[0]: e.decoded("dtstart") for e in calendar.walk("VEVENT")}
    for f in Fixture.objects.filter(tournament=tournament):
        assert starts[f"fixture-{f.pk}"] == f.kickoff
    ko_starts = sorted(starts[f"fixture-{k.pk}"].astimezone(SAST).strftime("%H:%M") for k in knockouts)
    assert ko_starts[0] == later


def test_solo_player_plays_an_attempt_with_a_code(browser, live_server, debug_off):
    from league import services
    from league.format_selectors import solo_leaderboard
    from league.models import Result
    from matches import services as match_services

    organiser = services.user_create(username="host", password="a-long-pass-phrase")
    tournament = services.tournament_create_from_preset(
        "solo", name="Solo night", slug="solo-night", user=organiser, teams=["FRA", "NZL"],
        start_date=dt.date(2026, 6, 13), first_kickoff=dt.time(18, 0), venues=["Table 1"],
        time_zone="Africa/Johannesburg")
    entry = tournament.entries.get(team__code="FRA")
    code = match_services.entry_pass_for(entry).display_code

    page = phone_page(browser)
    page.goto(f"{live_server.url}/matches/join/")
    page.get_by_label(re.compile("code", re.I)).fill(code)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url("**/matches/mine/")
    page.get_by_text("Start your attempt when you are ready").wait_for()
    assert "18:00 SAST" in page.content()
    shot(page, "schedule-07-solo-start")
    page.get_by_test_id("start-attempt").first.click()
    page.wait_for_url(re.compile(r"/matches/\d+/$"))
    page.locator("#match-live").wait_for()
    shot(page, "schedule-08-solo-play")
    rng = random.Random(5)
    for _ in range(400):
        if page.locator("#match-live").get_attribute("data-status") != "live":
            break
        buttons = page.locator("form.actions button:not([disabled])")
        if buttons.count():
            try:
                with page.expect_response(lambda r: "/act/" in r.url, timeout=10_000):
                    buttons.nth(rng.randrange(buttons.count())).click(timeout=3_000)
            except Exception:  # the fragment was swapped under the click: look again
                pass
        else:
            page.wait_for_timeout(200)
    assert page.locator("#match-live").get_attribute("data-status") == "finished"
    shot(page, "schedule-09-solo-over")
    result = Result.objects.get(fixture__tournament=tournament, fixture__home=entry)
    assert result.source == "online"
    board = solo_leaderboard(tournament)
    assert board[0]["attempts"] == 1 and board[0]["name"].startswith("France")
    page.goto(f"{live_server.url}/t/solo-night/")
    # The public page opens on the format's own table: the solo leaderboard.
    page.get_by_role("table", name="Best attempt of each player: margin, then points scored").wait_for()
    shot(page, "schedule-10-solo-leaderboard")
    assert fits(page)
