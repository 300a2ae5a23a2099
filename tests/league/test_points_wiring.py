"""Issue 21.3-21.4 wired: the whole points system stored on the tournament, chosen on the web form and the API,
"custom" editing every part; a change re-derives every table and the knockout places (refused when it would alter
a played knockout match); bye points from the schedule, the Grand Slam over a double round robin, the drawing of
lots from the tournament's seed; explained tables in the API, the CSV and the page; shared positions."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import selectors, services
from league.models import Entry, Fixture, Tournament
from league.services import tournament_create_from_preset as preset_run
from league.standings import POINTS_PRESETS, PointsSystem
from tests.league.core_helpers import fixture_between

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def org(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def record(tournament, home, away, hs, as_, ht=0, at=0):
    fixture = fixture_between(tournament, home, away)
    if fixture.home.team.code != home:
        hs, as_, ht, at = as_, hs, at, ht
    services.result_record(fixture=fixture, home_score=hs, away_score=as_, home_tries=ht, away_tries=at)


def order(tournament):
    return [[row.team_code for row in rows] for _pool, rows in selectors.tournament_standings(tournament)]


def test_the_models_choices_are_the_presets():
    assert [c for c in Tournament.PointsSystem.values if c != "custom"] == list(POINTS_PRESETS)


def test_every_preset_is_stored_whole_and_read_back(organiser):
    for name, system in POINTS_PRESETS.items():
        t = services.tournament_create(name=name, user=organiser, points_system=name)
        assert t.points_rules == system.as_dict() and PointsSystem.from_tournament(t) == system


def test_custom_on_the_settings_page_sets_every_part(org, organiser):
    league = preset_run("league", name="Club", slug="club", teams=["FRA", "NZL", "ITA"], user=organiser)
    response = org.post(reverse("league:manage_settings", args=["club"]), {
        "name": "Club", "visibility": "public", "status": "in_progress", "walkover_score": 28, "walkover_tries": 4,
        "points_system": "custom", "win": 3, "draw": 2, "loss": 1, "try_bonus": "more_tries", "try_bonus_tries": 3,
        "losing_bonus_margin": 5, "bye": 2, "all_wins_bonus": 3, "tie_breaker_1": "points_difference",
        "tie_breaker_2": "tries_for", "tie_breaker_3": "drawing_lots"})
    assert response.status_code == 302, response.content.decode()[:2000]
    league.refresh_from_db()
    assert league.points_system == "custom"
    assert league.points == PointsSystem(3, 2, 1, 3, 5, try_bonus_relative=True, bye=2, all_wins_bonus=3,
                                         tie_breakers=("points_difference", "tries_for", "drawing_lots"))
    # The form shows the stored system again, part by part.
    html = org.get(reverse("league:manage_settings", args=["club"])).content.decode()
    assert 'value="more_tries" selected' in html and '<option value="drawing_lots" selected>' in html
    # Back to a preset: its rules, whatever the custom fields still say.
    org.post(reverse("league:manage_settings", args=["club"]), {
        "name": "Club", "visibility": "public", "status": "in_progress", "walkover_score": 28, "walkover_tries": 4,
        "points_system": "sevens", "win": 9})
    league.refresh_from_db()
    assert (league.points_system, league.points) == ("sevens", POINTS_PRESETS["sevens"])


def test_the_api_takes_a_preset_or_custom_rules(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    body = client.post("/api/tournaments/", {"name": "Sevens", "points_system": "sevens"}, format="json").json()
    assert body["slug"] == "sevens" and body["points_rules"] == POINTS_PRESETS["sevens"].as_dict()
    rules = {**POINTS_PRESETS["top14"].as_dict(), "bye": 1}
    response = client.patch("/api/tournaments/sevens/", {"points_rules": rules}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["points_system"] == "custom" and response.json()["points_rules"]["bye"] == 1
    response = client.patch("/api/tournaments/sevens/", {"points_system": "six_nations"}, format="json")
    assert response.json()["points_rules"]["all_wins_bonus"] == 3


def test_a_points_change_rederives_the_knockout_and_is_refused_once_it_would_alter_a_played_match(organiser):
    # Two pools of two, the winners in a final. Pool A: IRE and ITA draw 20-20, ITA with four tries.
    cup = preset_run("pools_knockout", name="Cup", slug="cup", teams=["IRE", "RSA", "ITA", "SCO"], pools=2,
                     qualifiers=1, third_place=False, user=organiser, start_date=date(2027, 3, 6))
    services.pools_draw(tournament=cup, method="manual", pools=["A", "B"],
                        assignment={"IRE": "A", "ITA": "A", "RSA": "B", "SCO": "B"})
    record(cup, "IRE", "ITA", 20, 20, 2, 4)
    record(cup, "RSA", "SCO", 30, 10, 4, 1)
    final = Fixture.objects.get(tournament=cup, stage="knockout")
    assert final.home.team.code == "ITA"  # World Rugby: ITA's try bonus puts it above IRE
    # No try bonus, ties broken by World Rugby ranking: IRE (1st) goes through instead.
    custom = {"try_bonus_threshold": None, "tie_breakers": ["world_ranking"]}
    services.tournament_update(tournament=cup, points_system="custom", points_rules=custom, user=organiser)
    final.refresh_from_db()
    assert final.home.team.code == "IRE"
    # Once the final is played, a change that would put another team in it is refused, and nothing changes.
    services.result_record(fixture=final, home_score=13, away_score=10, home_tries=1, away_tries=1)
    with pytest.raises(ValidationError, match="already been played"):
        services.tournament_update(tournament=cup, points_system="world_rugby", user=organiser)
    cup.refresh_from_db()
    final.refresh_from_db()
    assert cup.points_system == "custom" and final.home.team.code == "IRE"


def test_rugby_league_gives_bye_points_from_the_schedule(organiser):
    # Three teams: a round robin gives one team a bye each round (no fixture is stored for it).
    league = preset_run("league", name="NRL", slug="nrl", teams=["FRA", "NZL", "ITA"], points_system="rugby_league",
                        user=organiser)
    (table,) = [rows for _pool, rows in selectors.tournament_standings(league)]
    assert {row.points for row in table} == {0}  # no round under way: no bye counted yet
    (match,) = Fixture.objects.filter(tournament=league, round_number=1).select_related("home__team", "away__team")
    resting = ({"FRA", "NZL", "ITA"} - {match.home.team.code, match.away.team.code}).pop()
    services.result_record(fixture=match, home_score=20, away_score=10, home_tries=2, away_tries=1)
    (table,) = [rows for _pool, rows in selectors.tournament_standings(league)]
    points = {row.team_code: row.points for row in table}
    assert points == {resting: 2, match.home.team.code: 2, match.away.team.code: 0}


def test_the_grand_slam_counts_every_match_of_a_double_round_robin(organiser):
    six = preset_run("league", name="Six", slug="six", teams=["FRA", "IRE", "ITA"], double=True,
                     points_system="six_nations", user=organiser)
    first_half = Fixture.objects.filter(tournament=six, round_number__lte=3).select_related("home__team")
    for fixture in first_half:
        france_home = fixture.home.team.code == "FRA"
        if "FRA" in (fixture.home.team.code, fixture.away.team.code):
            hs, as_, ht, at = (30, 10, 3, 1) if france_home else (10, 30, 1, 3)
        else:
            hs, as_, ht, at = 20, 10, 2, 1
        services.result_record(fixture=fixture, home_score=hs, away_score=as_, home_tries=ht, away_tries=at)
    france = next(r for _p, rows in selectors.tournament_standings(six) for r in rows if r.team_code == "FRA")
    assert (france.won, france.played, france.bonus_points) == (2, 2, 0)  # two of four: no Grand Slam yet
    for fixture in Fixture.objects.filter(tournament=six, round_number__gt=3).select_related("home__team"):
        france_home = fixture.home.team.code == "FRA"
        if "FRA" in (fixture.home.team.code, fixture.away.team.code):
            hs, as_, ht, at = (30, 10, 3, 1) if france_home else (10, 30, 1, 3)
        else:
            hs, as_, ht, at = 20, 10, 2, 1
        services.result_record(fixture=fixture, home_score=hs, away_score=as_, home_tries=ht, away_tries=at)
    france = next(r for _p, rows in selectors.tournament_standings(six) for r in rows if r.team_code == "FRA")
    assert (france.won, france.bonus_points, france.points) == (4, 3, 19)


def test_drawing_of_lots_follows_the_tournaments_seed(organiser):
    t = preset_run("league", name="Sevens", slug="sevens", teams=["FRA", "NZL"], points_system="sevens",
                   user=organiser)
    (fixture,) = Fixture.objects.filter(tournament=t)
    services.result_record(fixture=fixture, home_score=14, away_score=14, home_tries=2, away_tries=2)
    orders = set()
    for seed in range(12):
        Tournament.objects.filter(pk=t.pk).update(draw_seed=seed)
        t.refresh_from_db()
        (rows,) = [rows for _p, rows in selectors.tournament_standings(t)]
        assert rows[0].tie_break == "drawing_lots"
        assert [r.team_code for r in rows] == [r.team_code for _p, again in selectors.tournament_standings(t)
                                               for r in again]  # the same seed, the same order
        orders.add(tuple(r.team_code for r in rows))
    assert len(orders) == 2  # the seed decides, not the team codes


def test_a_tie_decided_by_points_difference_is_explained_everywhere(organiser, client):
    t = preset_run("league", name="Six", slug="six", teams=["IRE", "SCO", "ITA", "WAL"], points_system="six_nations",
                   user=organiser)
    # SCO and ITA level on 8; ITA beat SCO but SCO has the better points difference: the Six Nations puts SCO
    # first (World Rugby's head-to-head would put ITA first).
    record(t, "SCO", "IRE", 13, 10, 1, 1)  # SCO 4, IRE 1
    record(t, "IRE", "ITA", 60, 0, 3, 0)  # IRE 4 (no try bonus: three tries, and 13 penalties)
    record(t, "ITA", "SCO", 13, 0, 1, 0)  # ITA 4, SCO 0
    record(t, "WAL", "IRE", 20, 0, 3, 0)  # IRE 0
    record(t, "WAL", "SCO", 0, 20, 0, 3)  # SCO 4
    record(t, "WAL", "ITA", 0, 20, 0, 3)  # ITA 4
    (rows,) = [rows for _p, rows in selectors.tournament_standings(t)]
    assert [(r.team_code, r.points) for r in rows] == [("SCO", 8), ("ITA", 8), ("IRE", 5), ("WAL", 4)]
    assert rows[0].explanation == "above Italy on points difference"  # ITA beat SCO: no head-to-head here
    api = APIClient().get("/api/tournaments/six/standings/").json()[0]["rows"]
    assert api[0]["tie_breaks"] == [{"criterion": "points_difference", "teams": ["ITA"],
                                     "text": "above Italy on points difference"}]
    csv_rows = list(csv.DictReader(io.StringIO(client.get("/t/six/export/standings.csv").content.decode())))
    assert csv_rows[0]["team"] == "SCO" and csv_rows[0]["explanation"] == "above Italy on points difference"
    html = client.get(reverse("league:tournament", args=["six"])).content.decode()
    assert 'class="explained"' in html and "Scotland: above Italy on points difference" in html
    # In French, the note is French.
    client.cookies["django_language"] = "fr"
    assert "au-dessus" in client.get(reverse("league:tournament", args=["six"])).content.decode()


def test_teams_placed_equally_share_their_position(organiser, client):
    t = preset_run("league", name="Six", slug="six", teams=["IRE", "SCO"], points_system="six_nations",
                   user=organiser)
    record(t, "IRE", "SCO", 10, 10, 1, 1)  # level on everything: the Six Nations places them equally
    (rows,) = [rows for _p, rows in selectors.tournament_standings(t)]
    assert [r.position for r in rows] == [1, 1]
    api = APIClient().get("/api/tournaments/six/standings/").json()[0]["rows"]
    assert [r["position"] for r in api] == [1, 1]
    assert "placed equally with" in api[0]["explanation"]
    html = client.get(reverse("league:tournament", args=["six"])).content.decode()
    assert "placed equally with" in html


def test_a_change_of_points_system_changes_the_public_table(org, organiser, client):
    t = preset_run("league", name="Club", slug="club", teams=["FRA", "NZL"], user=organiser)
    record(t, "FRA", "NZL", 30, 0, 4, 0)  # World Rugby: 4 and a try bonus
    assert Entry.objects.filter(tournament=t).count() == 2
    assert ">5</strong>" in client.get(reverse("league:tournament", args=["club"])).content.decode()
    org.post(reverse("league:manage_settings", args=["club"]), {
        "name": "Club", "visibility": "public", "status": "in_progress", "walkover_score": 28, "walkover_tries": 4,
        "points_system": "football"})
    assert ">3</strong>" in client.get(reverse("league:tournament", args=["club"])).content.decode()


def test_custom_alone_keeps_the_rules_to_edit_from_there(organiser):
    t = services.tournament_create(name="Cup", user=organiser, points_system="sevens")
    services.tournament_update(tournament=t, points_system="custom", user=organiser)
    t.refresh_from_db()
    assert (t.points_system, t.points) == ("custom", POINTS_PRESETS["sevens"])
