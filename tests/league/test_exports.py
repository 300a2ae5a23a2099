"""Exports checked by content: iCalendar feeds (RFC 5545), CSV files, printable sheets."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse

from league import exports, services
from league.models import Fixture
from league.services import tournament_create_from_preset as preset_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def rwc(organiser):
    return preset_run("rwc2023", name="RWC 2023", slug="rwc", user=organiser, start_date=dt.date(2023, 9, 8))


def unfold(text: str) -> list[str]:
    """Undo RFC 5545 line folding."""
    return text.replace("\r\n ", "").split("\r\n")


# --- iCalendar feeds ---------------------------------------------------------------------------------------------


def test_tournament_calendar(client, rwc):
    response = client.get(reverse("league:calendar", args=["rwc"]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    text = response.content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:")
    assert text.endswith("END:VCALENDAR\r\n")
    assert "\n" not in text.replace("\r\n", "")  # every line ends with CRLF
    lines = unfold(text)
    assert all(len(raw.encode()) <= 75 for raw in text.split("\r\n"))
    dated = rwc.fixtures.filter(kickoff__isnull=False).count()
    assert dated >= 40
    assert lines.count("BEGIN:VEVENT") == dated == lines.count("END:VEVENT")
    uids = [line for line in lines if line.startswith("UID:")]
    assert len(set(uids)) == dated
    assert sum(1 for line in lines if line.startswith("DTSTAMP:") and line.endswith("Z")) == dated
    opener = rwc.fixtures.filter(kickoff__isnull=False).order_by("kickoff", "pk").first()
    start = opener.kickoff.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    assert f"DTSTART:{start}" in lines  # a tournament in UTC: times in UTC
    assert any(line.startswith("SUMMARY:") and "(Pool " in line for line in lines)
    assert any(line == "LOCATION:Stade de France" for line in lines)


def test_team_calendar_has_only_that_teams_matches_and_results(client, rwc, organiser):
    fixture = rwc.fixtures.filter(home__team__code="FRA").first() or rwc.fixtures.filter(
        away__team__code="FRA").first()
    services.result_record(fixture=fixture, home_score=27, away_score=13, home_tries=3, away_tries=1,
                           user=organiser)
    text = client.get(reverse("league:team_calendar", args=["rwc", "FRA"])).content.decode()
    lines = unfold(text)
    summaries = [line for line in lines if line.startswith("SUMMARY:")]
    assert len(summaries) == 4
    assert all("France" in s for s in summaries)
    assert "DESCRIPTION:Result: 27-13 (tries 3-1)" in lines
    assert "X-WR-CALNAME:RWC 2023: France" in lines
    assert client.get(reverse("league:team_calendar", args=["rwc", "XYZ"])).status_code == 404


def test_fixtures_without_a_kickoff_are_left_out(organiser):
    t = preset_run("rwc2023", name="Undated", slug="undated", user=organiser)
    assert "BEGIN:VEVENT" not in exports.ics_calendar(t.name, exports.tournament_fixtures(t))


# --- CSV ---------------------------------------------------------------------------------------------------------


def read_csv(response) -> list[dict]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_fixtures_csv(client, rwc):
    rows = read_csv(client.get(reverse("league:export_csv", args=["rwc", "fixtures"])))
    assert len(rows) == rwc.fixtures.count() >= 40
    assert list(rows[0]) == exports.FIXTURE_COLUMNS
    rows = [r for r in rows if r["stage"] == "pool"]
    assert len(rows) == 40
    assert {r["pool"] for r in rows} == {"A", "B", "C", "D"}
    assert rows[0]["date"] == "2023-09-08"
    assert all(r["home"] and r["away"] and r["venue"] for r in rows)


def test_results_csv(client, rwc, organiser):
    fixtures = list(rwc.fixtures.order_by("pk")[:3])
    for f in fixtures:
        services.result_record(fixture=f, home_score=24, away_score=10, home_tries=3, away_tries=1, user=organiser)
    response = client.get(reverse("league:export_csv", args=["rwc", "results"]))
    rows = read_csv(response)
    assert len(rows) == 3
    first = fixtures[0]
    row = next(r for r in rows if r["home"] == first.home.team.code)
    assert (row["away"], row["home_score"], row["away_score"], row["home_tries"], row["away_tries"]) == (
        first.away.team.code, "24", "10", "3", "1")
    assert list(rows[0])[:9] == list(services.IMPORT_COLUMNS)


def test_standings_csv(client, rwc, organiser):
    for f in rwc.fixtures.filter(pool__name="A"):
        services.result_record(fixture=f, home_score=20, away_score=0, home_tries=4, away_tries=0, user=organiser)
    rows = read_csv(client.get(reverse("league:export_csv", args=["rwc", "standings"])))
    assert len(rows) == 20
    assert list(rows[0]) == exports.STANDING_COLUMNS
    pool_a = [r for r in rows if r["pool"] == "A"]
    assert [r["position"] for r in pool_a] == ["1", "2", "3", "4", "5"]
    assert sum(int(r["played"]) for r in pool_a) == 20
    # Every win here is by 20-0 with four tries: 5 points each (4 + try bonus).
    assert all(int(r["points"]) == 5 * int(r["won"]) for r in pool_a)


def test_unknown_export_is_404(client, rwc):
    assert client.get(reverse("league:export_csv", args=["rwc", "other"])).status_code == 404


# --- printable sheets --------------------------------------------------------------------------------------------


def test_printable_fixture_list_one_page_per_round(client, rwc):
    html = client.get(reverse("league:print_fixtures", args=["rwc"])).content.decode()
    # Five rounds of pool matches for pools of five, then one page per knockout round.
    knockout_rounds = len(set(rwc.fixtures.filter(stage="knockout").values_list("round_number", "round_name")))
    assert html.count('class="print-page"') == 5 + knockout_rounds
    assert "Round 1" in html and "Stade de France" in html


def test_score_sheets(client, rwc):
    html = client.get(reverse("league:print_scoresheets", args=["rwc"])).content.decode()
    knockout_rounds = len(set(rwc.fixtures.filter(stage="knockout").values_list("round_number", "round_name")))
    assert html.count('class="print-page"') == 5 + knockout_rounds
    assert html.count('class="sheet"') == rwc.fixtures.count()
    assert "Signature" in html


def test_print_stylesheet_breaks_pages():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static/css/site.css").read_text()
    assert "@media print" in css and ".print-page { break-after: page; }" in css


def test_exports_of_a_draft_are_hidden(client, organiser):
    services.tournament_create(name="Draft", slug="draft", user=organiser)
    assert client.get(reverse("league:calendar", args=["draft"])).status_code == 404
    assert client.get(reverse("league:export_csv", args=["draft", "fixtures"])).status_code == 404
    assert Fixture.objects.count() == 0
