"""Regressions found by the bad-input fuzzing (tests/league/test_api_fuzz.py, test_web_bad_input.py): each was a
500, a wrong response shape or a silently stored bad value before its fix."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league import cache as league_cache
from league import forms, rulesets, services
from league.models import Fixture, Result, Team, Tournament
from league.services import tournament_create_from_preset as preset_run

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def api_as(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_patching_a_knockout_fixture_keeps_its_null_pool_in_the_answer(organiser):
    # A partial update skipped the default of CharField(source="pool.name"): the "pool" key went missing.
    preset_run("single_elimination", name="KO", slug="ko", teams=["ENG", "JPN", "ARG", "FIJ"],
                       user=organiser, start_date=date(2027, 4, 3))
    final = Fixture.objects.get(tournament__slug="ko", code="F")
    response = api_as(organiser).patch(f"/api/fixtures/{final.pk}/", {"venue": "Pitch 2"}, format="json")
    assert response.status_code == 200
    assert "pool" in response.json() and response.json()["pool"] is None


@pytest.mark.parametrize("options", [{"sets_per_half": 0}, {"sets_per_half": -1}, {"sets_per_half": 10**40},
                                     {"sets_per_half": "lots"}, {"no_such_option": 1}, {"sets_per_half": [1]}])
def test_tournament_api_refuses_rule_set_options_the_engine_would_refuse(organiser, options):
    # They used to be stored, and the first match of the tournament then failed with a 500.
    client = api_as(organiser)
    response = client.post("/api/tournaments/", {"name": "Cards", "slug": "cards", "ruleset": "rugby-league-cards",
                                                 "ruleset_options": options}, format="json")
    assert response.status_code == 400 and "ruleset_options" in response.json()
    assert not Tournament.objects.filter(slug="cards").exists()
    client.post("/api/tournaments/", {"name": "Cards", "slug": "cards", "ruleset": "rugby-league-cards",
                                      "ruleset_options": {"sets_per_half": 2}}, format="json")
    response = client.patch("/api/tournaments/cards/", {"ruleset_options": options}, format="json")
    assert response.status_code == 400 and "ruleset_options" in response.json()
    assert Tournament.objects.get(slug="cards").ruleset_options == {"sets_per_half": 2}


def test_rule_set_options_validate_fills_defaults_and_names_the_problem():
    assert rulesets.ruleset_options_validate("rugby-league-cards", {"sets_per_half": 2})["sets_per_half"] == 2
    with pytest.raises(ValidationError, match="at least 1"):
        rulesets.ruleset_options_validate("rugby-league-cards", {"sets_per_half": 0})
    with pytest.raises(ValidationError, match="Unknown rule set"):
        rulesets.ruleset_options_validate("chess", {})


@pytest.fixture
def league_cup():
    return preset_run("league", name="Four", slug="four", teams=["FRA", "NZL", "ITA", "URU"],
                              start_date=date(2027, 3, 6))


@pytest.mark.parametrize("content,message", [
    (b"A,1,2027-03-06,FRA,NZL,24,17,3,2\nA,1," + b"x" * 200_000 + b",ITA,URU,1,0,0,0\n", "Line 2"),
    (b"A,1,2027-03-06,FRA,NZL,24,17,3,2\n\"A,1,2027-03-06,ITA,URU,1,0,0,0\n", "cannot be read"),
    (b"A\x00,1,2027-03-06,FRA,NZL,24,17,3,2\n", "NUL"),
    ("A,1,2027-03-06,FRA,NZL,24,17,3,2\n".encode("utf-16-le"), "NUL"),
])
def test_results_import_refuses_unreadable_csv_with_a_message(league_cup, content, message):
    # A cell over the csv module's limit raised csv.Error (a 500); a stray quote swallowed the rest of the file.
    with pytest.raises(ValidationError, match=message):
        services.results_import_csv(tournament=league_cup, file=content)
    assert not Result.objects.filter(fixture__tournament=league_cup).exists()


def test_results_import_api_answers_an_over_long_cell_with_a_400(league_cup, organiser):
    league_cup.organisers.add(organiser)
    text = "A,1,2027-03-06,FRA,NZL," + "9" * 200_000 + ",17,3,2\n"
    response = api_as(organiser).post("/api/tournaments/four/results-import/", {"csv": text}, format="json")
    assert response.status_code == 400


@pytest.mark.parametrize("content,message", [
    ("name,code,seed\nGrey College,GCB,\u00b2\n".encode(), "whole number"),  # "²".isdigit() but int("²") fails
    (b"name,code\nGrey College,GCB,extra\n", "more cells"),
    (b"name,code\n\x00\x00,GC\n", "NUL"),
    (b"name,code\n\"Grey College,GCB\nKES,KES\n", "cannot be read"),
    (b"name,code\n" + b"x" * 200_000 + b",GCB\n", "cannot be read"),
])
def test_teams_csv_form_refuses_unreadable_rows(content, message):
    form = forms.TeamsCsvForm(files={"file": SimpleUploadedFile("teams.csv", content)})
    assert not form.is_valid()
    assert message in " ".join(form.errors["file"])


def test_teams_page_says_so_for_an_unknown_way_of_adding_teams(client, organiser, league_cup):
    league_cup.organisers.add(organiser)
    client.force_login(organiser)
    response = client.post("/t/four/manage/teams/", {"action": "nonsense"})
    assert response.status_code == 200
    assert "Choose one of the ways to add teams" in response.content.decode()
    assert Team.objects.filter(is_nation=False).count() == 0


def test_a_slug_longer_than_any_slug_is_not_looked_up(league_cup):
    assert league_cache.tournament_by_slug("x" * 300) is None
    assert league_cache.tournament_by_slug("four") == league_cup


# NUL characters: PostgreSQL refuses them in text and jsonb, so each of these was a 500 there (SQLite stored them).


def test_entry_with_a_nul_in_the_team_code_is_a_400(league_cup, organiser):
    league_cup.organisers.add(organiser)
    response = api_as(organiser).post("/api/entries/", {"tournament": "four", "team": "FR\x00"}, format="json")
    assert response.status_code == 400 and "team" in response.json()
    response = api_as(organiser).post("/api/entries/", {"tournament": "fo\x00ur", "team": "ENG"}, format="json")
    assert response.status_code == 400 and "tournament" in response.json()


@pytest.mark.parametrize("field,value", [("format_options", {"tiers": "Cup\x00"}),
                                         ("format_options", {"\x00": 1}),
                                         ("ruleset_options", {"half": ["\x00"]})])
def test_tournament_json_options_with_a_nul_are_a_400(league_cup, organiser, field, value):
    league_cup.organisers.add(organiser)
    response = api_as(organiser).patch("/api/tournaments/four/", {field: value}, format="json")
    assert response.status_code == 400 and field in response.json()


def test_result_stats_with_a_nul_are_a_400(league_cup, organiser):
    league_cup.organisers.add(organiser)
    fixture = league_cup.fixtures.first()
    response = api_as(organiser).post(f"/api/fixtures/{fixture.pk}/result/", {
        "home_score": 7, "away_score": 0, "home_tries": 1, "away_tries": 0, "stats": {"note": "a\x00b"}},
        format="json")
    assert response.status_code == 400 and "stats" in response.json()
    assert not Result.objects.filter(fixture=fixture).exists()


def test_a_tournament_address_that_cannot_be_a_slug_is_a_404(league_cup):
    assert APIClient().get("/api/tournaments/fo%00ur/").status_code == 404
    assert APIClient().get("/api/tournaments/four/").status_code == 200


def test_team_calendar_of_a_code_that_cannot_be_one_is_a_404(client, league_cup):
    assert client.get("/t/four/teams/%00/calendar.ics").status_code == 404
    assert client.get("/t/four/teams/fra/calendar.ics").status_code == 200


def test_a_tournament_with_options_the_engine_refuses_does_not_validate(organiser):
    # Tournament.clean: the admin, the services and the API all refuse them before they are stored.
    with pytest.raises(ValidationError, match="at least 1"):
        services.tournament_create(name="Cards", slug="cards", ruleset="rugby-league-cards",
                                   ruleset_options={"sets_per_half": 0}, user=organiser)
    assert not Tournament.objects.filter(slug="cards").exists()
    Tournament(name="Manual", slug="manual", ruleset="manual", ruleset_options={"anything": 1}).full_clean()


@pytest.mark.parametrize("kickoff", ["0016-12-01T23:00:50-18:59", "0001-01-01T00:30:00Z", "9999-12-31T23:59:00Z"])
def test_a_kickoff_in_another_millennium_is_a_400(league_cup, organiser, kickoff):
    # The fuzzer's "0016-12-01T23:00:50-18:59" was stored; near year 1 or 9999 a time zone shift overflows.
    league_cup.organisers.add(organiser)
    fixture = league_cup.fixtures.order_by("pk").first()
    before = fixture.kickoff
    response = api_as(organiser).patch(f"/api/fixtures/{fixture.pk}/", {"kickoff": kickoff}, format="json")
    assert response.status_code == 400 and "kickoff" in response.json()
    fixture.refresh_from_db()
    assert fixture.kickoff == before


@pytest.mark.parametrize("query", ["limit=575932363486966228975616&offset=-104798", "offset=" + "9" * 30,
                                   "limit=-1&offset=abc"])
def test_list_pages_with_huge_limits_or_offsets_are_not_a_500(league_cup, query):
    # LIMIT/OFFSET beyond the database's integers were a 500 ("datatype mismatch", "bigint out of range").
    response = APIClient().get(f"/api/tournaments/?{query}")
    assert response.status_code == 200
    assert len(response.json()["results"]) <= 1000
