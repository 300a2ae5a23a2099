"""REST API: who may read and write each endpoint, validation as 400s, 404s, results, standings and tokens."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import models
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league import services
from league.models import Entry, Fixture, Result, ResultChange, Team, Tournament
from tests.league.api_factories import make_team, make_tournament

pytestmark = pytest.mark.django_db

DENIED_ANONYMOUS = {401, 403}
STANDINGS_KEYS = ["position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
                  "tries_for", "tries_against", "bonus_points", "points", "tie_breaks", "explanation"]


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-boss-1")


@pytest.fixture
def anon():
    return APIClient()


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def world(organiser):
    """A public, an unlisted and a draft tournament, all organised by ``organiser``."""
    return {
        "public": make_tournament("pub", user=organiser),
        "unlisted": make_tournament("hid", user=organiser, teams=("IRE", "RSA", "SCO"),
                                    visibility=Tournament.Visibility.UNLISTED),
        "draft": make_tournament("draft", user=organiser, teams=("WAL", "AUS"), status=Tournament.Status.DRAFT),
    }


def slugs(response) -> set[str]:
    return {row["slug"] for row in response.json()["results"]}


def first_fixture(tournament) -> Fixture:
    return Fixture.objects.filter(tournament=tournament).order_by("round_number", "id").first()


# --- Teams ---------------------------------------------------------------------------------------


def test_anyone_lists_and_reads_teams(anon):
    response = anon.get("/api/teams/?nation=true")
    assert response.status_code == 200
    assert response.json()["count"] == 20
    assert anon.get("/api/teams/fra/").json()["name"] == "France"
    assert anon.get("/api/teams/?search=zeal").json()["results"][0]["code"] == "NZL"
    assert anon.get("/api/teams/XYZ/").status_code == 404


def test_team_create_needs_a_signed_in_user(anon, stranger):
    assert anon.post("/api/teams/", {"name": "Grey College", "code": "GC"}, format="json").status_code \
        in DENIED_ANONYMOUS
    response = client_for(stranger).post(
        "/api/teams/", {"name": "Grey College", "code": "gcb", "primary_colour": "#002147"}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["code"] == "GCB"
    team = Team.objects.get(code="GCB")
    assert team.created_by == stranger and not team.is_nation


@pytest.mark.parametrize("payload, field", [
    ({"name": "Paarl Boys", "code": "TOOLONG"}, "code"),
    ({"name": "Paarl Boys", "code": "P!"}, "code"),
    ({"name": "Paarl Boys", "code": "PB", "primary_colour": "red"}, "primary_colour"),
    ({"name": "", "code": "PB"}, "name"),
    ({"name": "Another France", "code": "FRA"}, "code"),
])
def test_team_create_invalid_is_400_with_the_field(stranger, payload, field):
    response = client_for(stranger).post("/api/teams/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_only_its_owner_changes_a_team(stranger, organiser, superuser):
    team = make_team("GCB", user=stranger)
    # Another organiser's team is not one of theirs: not found (their own "GCB" would be).
    response = client_for(organiser).patch("/api/teams/GCB/", {"name": "Hijacked"}, format="json")
    assert response.status_code == 404
    assert client_for(stranger).patch("/api/teams/GCB/", {"name": "Grey"}, format="json").status_code == 200
    team.refresh_from_db()
    assert team.name == "Grey"
    assert client_for(stranger).patch("/api/teams/FRA/", {"name": "Gaul"}, format="json").status_code == 403
    assert client_for(superuser).patch("/api/teams/FRA/", {"name": "France"}, format="json").status_code == 200


# --- Tournaments ---------------------------------------------------------------------------------


def test_tournament_list_shows_public_ones_plus_the_callers_own(world, anon, stranger, organiser, superuser):
    assert slugs(anon.get("/api/tournaments/")) == {"pub"}
    assert slugs(client_for(stranger).get("/api/tournaments/")) == {"pub"}
    assert slugs(client_for(organiser).get("/api/tournaments/")) == {"pub", "hid", "draft"}
    assert slugs(client_for(superuser).get("/api/tournaments/")) == {"pub", "hid", "draft"}
    assert slugs(client_for(stranger).get("/api/tournaments/?mine=true")) == set()
    assert slugs(client_for(organiser).get("/api/tournaments/?mine=true&status=draft")) == {"draft"}


def test_tournament_retrieve_public_unlisted_and_draft(world, anon, stranger, organiser):
    public = anon.get("/api/tournaments/pub/")
    assert public.status_code == 200
    assert public.json()["can_edit"] is False
    assert public.json()["organisers"] == ["organiser"]
    assert anon.get("/api/tournaments/hid/").status_code == 200  # unlisted: readable with the link
    assert anon.get("/api/tournaments/draft/").status_code == 404  # drafts: only organisers
    assert client_for(stranger).get("/api/tournaments/draft/").status_code == 404
    own = client_for(organiser).get("/api/tournaments/draft/")
    assert own.status_code == 200 and own.json()["can_edit"] is True
    assert anon.get("/api/tournaments/no-such-cup/").status_code == 404


def test_tournament_create_makes_the_caller_an_organiser(anon, stranger):
    payload = {"name": "Craven Week", "slug": "craven-week", "points_system": "rugby_league"}
    assert anon.post("/api/tournaments/", payload, format="json").status_code in DENIED_ANONYMOUS
    response = client_for(stranger).post("/api/tournaments/", payload, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["organisers"] == ["stranger"] and body["can_edit"] is True
    # The points preset filled the rules: rugby league is 2/1/0 with no bonus, two points for a bye.
    rules = body["points_rules"]
    assert (rules["win"], rules["draw"], rules["try_bonus_threshold"], rules["bye"]) == (2, 1, None, 2)
    assert Tournament.objects.get(slug="craven-week").organisers.filter(pk=stranger.pk).exists()


def test_tournament_create_from_a_preset(stranger, anon):
    client = client_for(stranger)
    response = client.post("/api/tournaments/", {"name": "RWC again", "slug": "rwc-again", "preset": "rwc2023"},
                           format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["format"] == "rwc2023" and response.json()["organisers"] == ["stranger"]
    tournament = Tournament.objects.get(slug="rwc-again")
    assert tournament.entries.count() == 20
    assert Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).count() == 40
    tables = anon.get("/api/tournaments/rwc-again/standings/").json()
    assert [t["pool"] for t in tables] == ["A", "B", "C", "D"]
    response = client.post("/api/tournaments/", {"name": "Derby", "slug": "derby", "preset": "league",
                                                 "teams": ["ENG", "wales", "SCO"], "double_round_robin": True,
                                                 "preset_options": {"start_date": "2027-05-01",
                                                                    "venues": ["Newlands"]}},
                           format="json")
    assert response.status_code == 201, response.json()
    fixtures = Fixture.objects.filter(tournament__slug="derby")
    assert fixtures.count() == 6
    assert {f.venue for f in fixtures} == {"Newlands"}
    assert min(timezone.localtime(f.kickoff).date() for f in fixtures) == dt.date(2027, 5, 1)


@pytest.mark.parametrize("payload, field", [
    ({"name": "X", "slug": "x1", "preset": "world-domination"}, "preset"),
    ({"name": "X", "slug": "x2", "preset": "league", "teams": ["ENG"]}, None),
    ({"name": "X", "slug": "x3", "preset": "league", "teams": ["ENG", "NOPE"]}, None),
    ({"name": "X", "slug": "x4", "teams": ["ENG", "FRA"]}, "preset"),
    ({"name": "X", "slug": "x5", "preset": "league", "teams": "ENG,FRA"}, "teams"),
    ({"name": "X", "slug": "x6", "preset": "league", "teams": ["ENG", "FRA"], "preset_options": {"venues": 5}},
     "preset_options"),
    ({"name": "X", "slug": "x7", "preset": "league", "teams": ["ENG", "FRA"],
      "preset_options": {"start_date": "soon"}}, "preset_options"),
    ({"name": "X", "slug": "x8", "preset": "league", "teams": ["ENG", "FRA"], "preset_options": {"colour": 1}},
     "preset_options"),
    ({"name": "X", "slug": "x9", "preset": "pools_knockout", "teams": ["ENG", "FRA", "IRE", "RSA"],
      "preset_options": {"pools": 3}}, None),
])
def test_tournament_create_from_a_bad_preset_is_400(stranger, payload, field):
    response = client_for(stranger).post("/api/tournaments/", payload, format="json")
    assert response.status_code == 400, response.json()
    if field:
        assert field in response.json()
    assert not Tournament.objects.filter(slug=payload["slug"]).exists()


@pytest.mark.parametrize("payload, field", [
    ({"name": "Again", "slug": "pub"}, "slug"),
    ({"name": "Bad slug", "slug": "no spaces"}, "slug"),
    ({"name": "Odd points", "slug": "odd", "points_system": "cricket"}, "points_system"),
    ({"name": "Odd game", "slug": "odd-game", "ruleset": "chess"}, "ruleset"),
    ({"slug": "no-name"}, "name"),
])
def test_tournament_create_invalid_is_400(world, stranger, payload, field):
    response = client_for(stranger).post("/api/tournaments/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_only_organisers_update_a_tournament(world, anon, stranger, organiser, superuser):
    assert anon.patch("/api/tournaments/pub/", {"name": "X"}, format="json").status_code in DENIED_ANONYMOUS
    response = client_for(stranger).patch("/api/tournaments/pub/", {"name": "X"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Only the organisers of this tournament may change it."
    version = world["public"].version
    response = client_for(organiser).patch("/api/tournaments/pub/", {"name": "Schools Cup", "visibility": "unlisted"},
                                           format="json")
    assert response.status_code == 200
    world["public"].refresh_from_db()
    assert world["public"].name == "Schools Cup" and world["public"].visibility == "unlisted"
    assert world["public"].version > version  # cached public pages are rebuilt
    assert client_for(superuser).patch("/api/tournaments/pub/", {"status": "finished"}, format="json") \
        .status_code == 200
    # A draft is not even visible to a stranger: 404, not 403.
    assert client_for(stranger).patch("/api/tournaments/draft/", {"name": "X"}, format="json").status_code == 404


@pytest.mark.parametrize("payload, field", [
    ({"points_rules": {"win": 99999999}}, "points_rules"),
    ({"points_rules": {"tie_breakers": ["coin_toss"]}}, "points_rules"),
    ({"points_system": "rugby_union_1890"}, "points_system"),
    ({"walkover_score": -1}, "walkover_score"),
    ({"ruleset_options": "fast"}, "ruleset_options"),
    ({"format_options": [1, 2]}, "format_options"),
    ({"visibility": "secret"}, "visibility"),
])
def test_tournament_update_invalid_is_400(world, organiser, payload, field):
    response = client_for(organiser).patch("/api/tournaments/pub/", payload, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_create_only_fields_cannot_change(world, organiser):
    response = client_for(organiser).patch("/api/tournaments/pub/", {"slug": "moved", "format": "swiss"},
                                           format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"slug", "format"}


def test_tournament_delete_is_not_offered(world, organiser):
    assert client_for(organiser).delete("/api/tournaments/pub/").status_code == 405


# --- Entries and pools ---------------------------------------------------------------------------


def test_entry_lists_follow_tournament_visibility(world, anon, organiser):
    listed = anon.get("/api/entries/").json()
    assert {row["tournament"] for row in listed["results"]} == {"pub"}
    assert anon.get("/api/entries/?tournament=hid").json()["count"] == 3
    assert anon.get("/api/entries/?tournament=draft").status_code == 404
    assert anon.get("/api/entries/?tournament=nope").status_code == 404
    assert client_for(organiser).get("/api/entries/?tournament=draft").json()["count"] == 2
    entry = Entry.objects.get(tournament=world["draft"], team__code="WAL")
    assert anon.get(f"/api/entries/{entry.pk}/").status_code == 404
    assert client_for(organiser).get(f"/api/entries/{entry.pk}/").status_code == 200


def test_only_organisers_add_entries(world, anon, stranger, organiser):
    payload = {"tournament": "pub", "team": "ENG", "pool": "B"}
    assert anon.post("/api/entries/", payload, format="json").status_code in DENIED_ANONYMOUS
    response = client_for(stranger).post("/api/entries/", payload, format="json")
    assert response.status_code == 403
    assert "organisers" in response.json()["detail"]
    response = client_for(organiser).post("/api/entries/", payload, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["pool"] == "B" and response.json()["seed"] == 5
    # A stranger cannot even name a draft tournament.
    response = client_for(stranger).post("/api/entries/", {"tournament": "draft", "team": "ENG"}, format="json")
    assert response.status_code == 400 and "tournament" in response.json()


@pytest.mark.parametrize("payload, field", [
    ({"tournament": "pub", "team": "FRA"}, "team"),  # already entered
    ({"tournament": "pub", "team": "XYZ"}, "team"),
    ({"tournament": "pub", "team": "ENG", "seed": 1}, "seed"),
    ({"tournament": "pub", "team": "ENG", "computer_level": "genius"}, "computer_level"),
    ({"tournament": "pub", "team": "ENG", "seed": 99999999}, "seed"),
    ({"team": "ENG"}, "tournament"),
])
def test_entry_invalid_is_400(world, organiser, payload, field):
    response = client_for(organiser).post("/api/entries/", payload, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()


def test_entry_update_and_delete(world, stranger, organiser):
    entry = Entry.objects.get(tournament=world["public"], team__code="FRA")
    assert client_for(stranger).patch(f"/api/entries/{entry.pk}/", {"player_name": "X"}, format="json") \
        .status_code == 403
    response = client_for(organiser).patch(f"/api/entries/{entry.pk}/", {"player_name": "Thandi"}, format="json")
    assert response.status_code == 200, response.json()
    entry.refresh_from_db()
    assert entry.player_name == "Thandi"
    # The fixtures follow the pools: moving FRA now is refused with a message (not a 500), and nothing changes.
    response = client_for(organiser).patch(f"/api/entries/{entry.pk}/", {"pool": "B"}, format="json")
    assert response.status_code == 409 and "delete the fixtures" in str(response.json())
    entry.refresh_from_db()
    assert entry.pool.name == "A" and not entry.tournament.pools.filter(name="B").exists()
    # Once FRA has a result it can only be withdrawn.
    fixture = Fixture.objects.filter(tournament=world["public"], home=entry).first()
    services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1)
    response = client_for(organiser).delete(f"/api/entries/{entry.pk}/")
    assert response.status_code == 409
    assert "withdraw" in str(response.json())
    new = client_for(organiser).post("/api/entries/", {"tournament": "pub", "team": "ENG"}, format="json").json()
    assert client_for(organiser).delete(f"/api/entries/{new['id']}/").status_code == 204


def test_pools_and_pool_standings(world, anon):
    pools = anon.get("/api/pools/?tournament=pub").json()["results"]
    assert [(p["name"], p["teams"]) for p in pools] == [("A", ["FRA", "NZL", "ITA", "URU"])]
    table = anon.get(f"/api/pools/{pools[0]['id']}/standings/").json()
    assert table["pool"] == "A" and [row["team"] for row in table["rows"]] == ["FRA", "NZL", "ITA", "URU"]
    draft_pool = world["draft"].pools.get()
    assert anon.get(f"/api/pools/{draft_pool.pk}/").status_code == 404
    assert anon.get(f"/api/pools/{draft_pool.pk}/standings/").status_code == 404
    assert anon.post("/api/pools/", {"name": "Z"}, format="json").status_code in DENIED_ANONYMOUS | {405}


# --- Fixtures ------------------------------------------------------------------------------------


def test_fixture_filters(world, anon, organiser):
    base = "/api/fixtures/?tournament=pub"
    assert anon.get(base).json()["count"] == 6
    assert anon.get(base + "&round=1").json()["count"] == 2
    assert anon.get(base + "&pool=A").json()["count"] == 6
    assert anon.get(base + "&pool=B").json()["count"] == 0
    fra = anon.get(base + "&team=fra").json()["results"]
    assert len(fra) == 3 and all("FRA" in (row["home"], row["away"]) for row in fra)
    fixture = first_fixture(world["public"])
    day = timezone.localtime(fixture.kickoff).date()
    on_day = anon.get(base + f"&date={day.isoformat()}").json()
    assert on_day["count"] == Fixture.objects.filter(tournament=world["public"], kickoff__date=day).count() > 0
    assert anon.get(base + f"&date={(day + dt.timedelta(days=365)).isoformat()}").json()["count"] == 0
    assert anon.get(base + "&stage=pool&status=scheduled").json()["count"] == 6
    # Without a tournament: the listed ones only (the caller's own drafts too for an organiser).
    assert {row["tournament"] for row in anon.get("/api/fixtures/").json()["results"]} == {"pub"}
    assert {row["tournament"] for row in client_for(organiser).get("/api/fixtures/").json()["results"]} == {
        "pub", "hid", "draft"}


@pytest.mark.parametrize("query, field", [
    ("round=first", "round"), ("date=21-11-2026", "date"), ("stage=final", "stage"), ("status=won", "status"),
    ("round=99999999999999", "round"),
])
def test_fixture_filter_bad_values_are_400(world, anon, query, field):
    response = anon.get(f"/api/fixtures/?tournament=pub&{query}")
    assert response.status_code == 400
    assert field in response.json()


def test_fixture_filter_by_a_huge_pool_number_is_empty_not_an_error(world, anon):
    response = anon.get("/api/fixtures/?tournament=pub&pool=99999999999999999999999")
    assert response.status_code == 200 and response.json()["count"] == 0
    pool = world["public"].pools.get()
    assert anon.get(f"/api/fixtures/?pool={pool.pk}").json()["count"] == 6


def test_fixture_shows_teams_kickoff_venue_and_slot_descriptions(world, anon, organiser):
    fixture = first_fixture(world["public"])
    row = anon.get(f"/api/fixtures/{fixture.pk}/").json()
    assert row["home"] == fixture.home.team.code and row["home_label"] == row["home"]
    assert row["pool"] == "A" and row["status"] == "scheduled" and row["result"] is None
    assert "kickoff" in row and "venue" in row
    final = Fixture.objects.create(tournament=world["public"], stage=Fixture.Stage.KNOCKOUT, code="F",
                                   round_number=9, home_source="pool:A:1", away_source="pool:A:2")
    row = anon.get(f"/api/fixtures/{final.pk}/").json()
    assert (row["home"], row["home_label"], row["away_label"]) == (None, "Winner Pool A", "Runner-up Pool A")
    # Result on a fixture whose teams are not known yet: 400 with a message.
    response = client_for(organiser).post(f"/api/fixtures/{final.pk}/result/", {"home_score": 10, "away_score": 3},
                                          format="json")
    assert response.status_code == 400


def test_only_organisers_change_a_fixture(world, anon, stranger, organiser):
    fixture = first_fixture(world["public"])
    url = f"/api/fixtures/{fixture.pk}/"
    assert anon.patch(url, {"venue": "Pitch 9"}, format="json").status_code in DENIED_ANONYMOUS
    assert client_for(stranger).patch(url, {"venue": "Pitch 9"}, format="json").status_code == 403
    response = client_for(organiser).patch(url, {"venue": "Table 3", "status": "cancelled"}, format="json")
    assert response.status_code == 200
    fixture.refresh_from_db()
    assert fixture.venue == "Table 3" and fixture.status == "scheduled"  # status is not changed here
    assert anon.get("/api/fixtures/999999/").status_code == 404
    draft_fixture = first_fixture(world["draft"])
    assert anon.get(f"/api/fixtures/{draft_fixture.pk}/").status_code == 404


# --- Results and standings -----------------------------------------------------------------------


def test_organiser_records_and_corrects_a_result_and_the_standings_follow(world, anon, organiser):
    fixture = first_fixture(world["public"])
    url = f"/api/fixtures/{fixture.pk}/result/"
    assert anon.get(url).status_code == 404  # no result yet
    client = client_for(organiser)
    response = client.post(url, {"home_score": 31, "away_score": 24, "home_tries": 4, "away_tries": 3},
                           format="json")
    assert response.status_code == 201, response.json()
    home = fixture.home.team.code
    assert response.json()["winner"] == home
    tables = anon.get("/api/tournaments/pub/standings/").json()
    assert [table["pool"] for table in tables] == ["A"]
    top = tables[0]["rows"][0]
    assert list(top) == STANDINGS_KEYS
    assert (top["team"], top["points"], top["bonus_points"]) == (home, 5, 1)
    loser = next(row for row in tables[0]["rows"] if row["team"] == fixture.away.team.code)
    assert (loser["points"], loser["bonus_points"], loser["lost"]) == (1, 1, 1)  # lost by 7 or fewer

    response = client.put(url, {"home_score": 10, "away_score": 24, "home_tries": 2, "away_tries": 3,
                                "reason": "scores swapped on the sheet"}, format="json")
    assert response.status_code == 200
    assert anon.get(url).json()["away_score"] == 24
    rows = {row["team"]: row for row in anon.get("/api/tournaments/pub/standings/").json()[0]["rows"]}
    assert rows[fixture.away.team.code]["won"] == 1 and rows[home]["lost"] == 1
    changes = list(ResultChange.objects.filter(fixture=fixture).values_list("action", "reason", "changed_by"))
    assert changes == [("created", "", organiser.pk), ("updated", "scores swapped on the sheet", organiser.pk)]
    # And the fixture list shows it.
    row = anon.get(f"/api/fixtures/{fixture.pk}/").json()
    assert row["status"] == "played" and row["result"]["home_score"] == 10


@pytest.mark.parametrize("payload, field", [
    ({"home_score": 3, "away_score": 0, "home_tries": 2}, "home_score"),  # 2 tries are worth at least 10
    ({"home_score": -5, "away_score": 0}, "home_score"),
    ({"home_score": "many", "away_score": 0}, "home_score"),
    ({"away_score": 7, "away_tries": 1}, "home_score"),  # missing
    ({"home_score": 10, "away_score": 3, "home_tries": 1.5}, "home_tries"),
    ({"home_score": 10, "away_score": 3, "kind": "forfeit"}, "kind"),
    ({"home_score": 10, "away_score": 10, "winner": "ENG"}, "winner"),
    ({"home_score": 10, "away_score": 3, "stats": "lots"}, "stats"),
])
def test_invalid_results_are_400_with_the_field(world, organiser, payload, field):
    fixture = first_fixture(world["public"])
    response = client_for(organiser).post(f"/api/fixtures/{fixture.pk}/result/", payload, format="json")
    assert response.status_code == 400, response.json()
    assert field in response.json()
    assert not Result.objects.filter(fixture=fixture).exists()


def test_walkover_takes_the_tournament_walkover_score(world, organiser):
    fixture = first_fixture(world["public"])
    response = client_for(organiser).post(f"/api/fixtures/{fixture.pk}/result/", {"kind": "walkover_away"},
                                          format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["home_score"], body["away_score"], body["away_tries"]) == (0, 28, 4)
    assert body["winner"] == fixture.away.team.code


def test_only_organisers_write_results(world, anon, stranger, organiser):
    fixture = first_fixture(world["public"])
    url = f"/api/fixtures/{fixture.pk}/result/"
    payload = {"home_score": 12, "away_score": 5, "home_tries": 2, "away_tries": 1}
    assert anon.post(url, payload, format="json").status_code in DENIED_ANONYMOUS
    response = client_for(stranger).post(url, payload, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Only the organisers of this tournament may change it."
    assert client_for(stranger).put(url, payload, format="json").status_code == 403
    assert client_for(organiser).post(url, payload, format="json").status_code == 201
    assert client_for(stranger).delete(url).status_code == 403
    assert anon.get(url).json()["home_score"] == 12  # read by all who can view
    assert client_for(organiser).delete(url).status_code == 204
    assert anon.get(url).status_code == 404
    assert client_for(organiser).delete(url).status_code == 404
    assert list(ResultChange.objects.filter(fixture=fixture).values_list("action", flat=True)) == [
        "created", "deleted"]


def test_results_of_unlisted_and_draft_tournaments(world, anon, organiser):
    unlisted = first_fixture(world["unlisted"])
    client_for(organiser).post(f"/api/fixtures/{unlisted.pk}/result/", {"home_score": 7, "away_score": 0,
                                                                       "home_tries": 1}, format="json")
    # An unlisted tournament's objects are not found by walking ids; with the tournament's slug (the link) they are.
    assert anon.get(f"/api/fixtures/{unlisted.pk}/result/").status_code == 404
    assert anon.get(f"/api/fixtures/{unlisted.pk}/result/?tournament=hid").status_code == 200
    draft = first_fixture(world["draft"])
    assert anon.get(f"/api/fixtures/{draft.pk}/result/").status_code == 404
    assert anon.get("/api/tournaments/draft/standings/").status_code == 404
    assert anon.get("/api/tournaments/hid/standings/").status_code == 200


def test_malformed_json_is_400(world, organiser):
    fixture = first_fixture(world["public"])
    response = client_for(organiser).generic("POST", f"/api/fixtures/{fixture.pk}/result/", "{not json",
                                             content_type="application/json")
    assert response.status_code == 400


def test_standings_json_form_for_several_pools(organiser, anon):
    make_tournament("rwc", user=organiser, teams=("FRA", "NZL", "IRE", "RSA"), pools=2)
    tables = anon.get("/api/tournaments/rwc/standings/").json()
    assert [(t["pool"], [r["team"] for r in t["rows"]]) for t in tables] == [("A", ["FRA", "NZL"]),
                                                                            ("B", ["IRE", "RSA"])]
    assert all(list(row) == STANDINGS_KEYS for t in tables for row in t["rows"])


# --- Authentication ------------------------------------------------------------------------------


def test_token_obtain_and_use(world, organiser):
    from django.core.cache import cache

    cache.delete("throttle_token-obtain_127.0.0.1")
    client = APIClient()
    assert client.post("/api/token/", {"username": "organiser", "password": "wrong"}, format="json") \
        .status_code == 400
    response = client.post("/api/token/", {"username": "organiser", "password": "pw-organiser-1"}, format="json")
    assert response.status_code == 200
    token = response.json()["token"]
    assert Token.objects.get(user=organiser).key == token
    fixture = first_fixture(world["public"])
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(f"/api/fixtures/{fixture.pk}/result/", {"home_score": 5, "away_score": 0,
                                                                   "home_tries": 1}, format="json")
    assert response.status_code == 201
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert client.get("/api/tournaments/").status_code in DENIED_ANONYMOUS


def test_session_auth_needs_csrf_for_writes(world, organiser):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(organiser)
    fixture = first_fixture(world["public"])
    response = client.post(f"/api/fixtures/{fixture.pk}/result/", {"home_score": 5, "away_score": 0,
                                                                   "home_tries": 1}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert client.get("/api/tournaments/draft/").status_code == 200  # reads work with the session


# --- Bracket -------------------------------------------------------------------------------------


def test_bracket_json_lists_rounds_of_matches(world, anon, organiser):
    tournament = world["public"]
    assert anon.get("/api/tournaments/pub/bracket/").json() == []
    fra, nzl = (Entry.objects.get(tournament=tournament, team__code=code) for code in ("FRA", "NZL"))
    sf1 = Fixture.objects.create(tournament=tournament, stage=Fixture.Stage.KNOCKOUT, code="SF1", round_number=1,
                                 round_name="Semi-finals", home=fra, away=nzl)
    Fixture.objects.create(tournament=tournament, stage=Fixture.Stage.KNOCKOUT, code="SF2", round_number=1,
                           round_name="Semi-finals", home_source="pool:A:3", away_source="pool:A:4", slot=1)
    Fixture.objects.create(tournament=tournament, stage=Fixture.Stage.KNOCKOUT, code="F", round_number=2,
                           round_name="Final", home_source="winner:SF1", away_source="winner:SF2")
    response = client_for(organiser).post(f"/api/fixtures/{sf1.pk}/result/", {
        "home_score": 13, "away_score": 13, "home_tries": 1, "away_tries": 1, "winner": "nzl",
        "decided_by": "kicking"}, format="json")
    assert response.status_code == 201, response.json()
    rounds = anon.get("/api/tournaments/pub/bracket/").json()
    assert [[m["code"] for m in matches] for matches in rounds] == [["SF1", "SF2"], ["F"]]
    first = rounds[0][0]
    assert {k: first[k] for k in ("home", "away", "home_score", "away_score", "winner")} == {
        "home": "FRA", "away": "NZL", "home_score": 13, "away_score": 13, "winner": "NZL"}
    assert (rounds[0][1]["home"], rounds[1][0]["away"]) == ("3rd place Pool A", "Winner SF2")
    assert rounds[1][0]["winner"] is None and rounds[1][0]["home_score"] is None
    assert anon.get("/api/tournaments/draft/bracket/").status_code == 404


# --- Results import ------------------------------------------------------------------------------


def test_results_import_by_organisers_only(world, anon, stranger, organiser):
    fixture = first_fixture(world["public"])
    home, away = fixture.home.team.code, fixture.away.team.code
    good = f"pool,round,date,home,away,home_score,away_score,home_tries,away_tries\nA,1,,{home},{away},20,13,2,1\n"
    url = "/api/tournaments/pub/results-import/"
    assert anon.post(url, {"csv": good}, format="json").status_code in DENIED_ANONYMOUS
    assert client_for(stranger).post(url, {"csv": good}, format="json").status_code == 403
    bad = good + f"A,1,,{home},XYZ,20,13,2,1\nA,1,,{home},{away},3,0,2,0\n"
    response = client_for(organiser).post(url, {"csv": bad}, format="json")
    assert response.status_code == 400
    text = str(response.json())
    assert "Line 3" in text and "Line 4" in text
    assert not Result.objects.filter(fixture__tournament=world["public"]).exists()  # nothing saved
    response = client_for(organiser).post(url, {"file": _upload(good)}, format="multipart")
    assert response.status_code == 200, response.json()
    assert response.json() == {"created": 1, "updated": 0, "unchanged": 0}
    assert Result.objects.get(fixture=fixture).home_score == 20
    assert client_for(organiser).post(url, {}, format="json").status_code == 400


def _upload(text: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("results.csv", text.encode(), content_type="text/csv")


def test_result_history_is_for_organisers(world, anon, stranger, organiser):
    fixture = first_fixture(world["public"])
    url = f"/api/fixtures/{fixture.pk}/result/"
    client_for(organiser).post(url, {"home_score": 5, "away_score": 0, "home_tries": 1}, format="json")
    client_for(organiser).put(url, {"home_score": 7, "away_score": 0, "home_tries": 1, "reason": "conversion"},
                              format="json")
    assert anon.get(url + "history/").status_code in DENIED_ANONYMOUS
    assert client_for(stranger).get(url + "history/").status_code == 403
    history = client_for(organiser).get(url + "history/").json()
    assert [(h["action"], h["reason"], h["changed_by"]) for h in history] == [
        ("created", "", "organiser"), ("updated", "conversion", "organiser")]
    assert (history[1]["old"]["home_score"], history[1]["new"]["home_score"]) == (5, 7)


# --- Knockout corrections and withdrawals ----------------------------------------------------------


def _knockout(client) -> dict:
    response = client.post("/api/tournaments/", {"name": "Knockout", "slug": "ko", "preset": "single_elimination",
                                                 "teams": ["FRA", "NZL", "IRE", "RSA"]}, format="json")
    assert response.status_code == 201, response.json()
    return {f.code: f for f in Fixture.objects.filter(tournament__slug="ko")}


def _play(client, fixture, home, away, status=201, **extra):
    response = client.post(f"/api/fixtures/{fixture.pk}/result/", {
        "home_score": home, "away_score": away, "home_tries": 0, "away_tries": 0, **extra}, format="json")
    assert response.status_code == status, response.json()
    return response


def test_knockout_correction_needs_reset_later_rounds(organiser, anon):
    client = client_for(organiser)
    ko = _knockout(client)
    semis = sorted((f for f in ko.values() if f.home_id and f.away_id), key=lambda f: f.code)
    for semi in semis:
        _play(client, semi, 9, 3)
    final = next(f for f in Fixture.objects.filter(tournament__slug="ko", home__isnull=False, away__isnull=False)
                 if f.pk not in {s.pk for s in semis})
    _play(client, final, 6, 3)
    # The final was the last match: the tournament is finished, and finished is final until it is reopened.
    assert Tournament.objects.get(slug="ko").status == Tournament.Status.FINISHED
    refused = _play(client, semis[0], 3, 9, status=409)
    assert refused.json()["code"] == "finished" and "reopen" in refused.json()["detail"]
    assert anon.post("/api/tournaments/ko/reopen/").status_code in DENIED_ANONYMOUS
    assert client.post("/api/tournaments/ko/reopen/").json()["status"] == Tournament.Status.IN_PROGRESS
    assert client.post("/api/tournaments/ko/reopen/").status_code == 409  # not finished any more
    # Turning the first semi-final round would change the final, which was played: refused, naming it.
    response = _play(client, semis[0], 3, 9, status=400)
    assert final.code in str(response.json())
    assert Result.objects.filter(fixture=final).exists()
    _play(client, semis[0], 3, 9, status=200, reset_later_rounds=True)
    assert not Result.objects.filter(fixture=final).exists()
    rounds = anon.get("/api/tournaments/ko/bracket/").json()
    final_row = next(m for matches in rounds for m in matches if m["code"] == final.code)
    assert final_row["winner"] is None and final_row["home_score"] is None


def test_only_organisers_withdraw_a_team(world, anon, stranger, organiser):
    entry = Entry.objects.get(tournament=world["public"], team__code="FRA")
    url = f"/api/entries/{entry.pk}/withdraw/"
    played = Fixture.objects.filter(models.Q(home=entry) | models.Q(away=entry)).order_by("id").first()
    _play(client_for(organiser), played, 9, 0)
    assert anon.post(url, {}, format="json").status_code in DENIED_ANONYMOUS
    assert client_for(stranger).post(url, {}, format="json").status_code == 403
    response = client_for(organiser).post(url, {"keep_played_results": True, "reason": "injuries"}, format="json")
    assert response.status_code == 200, response.json()
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None
    remaining = Fixture.objects.filter(tournament=world["public"]).filter(
        models.Q(home=entry) | models.Q(away=entry)).exclude(pk=played.pk)
    assert response.json()["walkovers"] == remaining.count() > 0
    assert all(f.result.kind.startswith("walkover") for f in remaining)
    again = client_for(organiser).post(url, {}, format="json")
    assert again.status_code == 400 and "already withdrawn" in str(again.json())


def test_swiss_table_and_solo_leaderboard(stranger, anon):
    client = client_for(stranger)
    response = client.post("/api/tournaments/", {"name": "Club night", "slug": "swiss", "preset": "swiss",
                                                 "teams": ["FRA", "NZL", "IRE", "RSA", "ENG"],
                                                 "preset_options": {"rounds": 3}}, format="json")
    assert response.status_code == 201, response.json()
    table = anon.get("/api/tournaments/swiss/swiss-table/").json()
    assert len(table) == 5 and {"team", "points", "byes", "position"} <= set(table[0])
    response = client.post("/api/tournaments/", {"name": "Solo", "slug": "solo", "preset": "solo",
                                                 "teams": ["FRA", "NZL"]}, format="json")
    assert response.status_code == 201, response.json()
    board = anon.get("/api/tournaments/solo/leaderboard/").json()
    assert sorted(row["team"] for row in board) == ["FRA", "NZL"]
    assert all(row["position"] is None for row in board)  # nobody has played yet


def test_token_endpoint_is_rate_limited(organiser):
    """Wrong passwords count towards the sign-in lock-out: the 10th (the default limit) is answered 429."""
    from django.core.cache import cache

    cache.clear()
    client = APIClient()
    responses = [client.post("/api/token/", {"username": "organiser", "password": f"guess-{n}"}, format="json")
                 for n in range(11)]
    assert [r.status_code for r in responses] == [400] * 9 + [429] * 2
    assert int(responses[10]["Retry-After"]) > 0
    cache.clear()


def test_standings_and_bracket_json_match_the_commands(organiser, anon):
    import json
    from io import StringIO

    from django.core.management import call_command

    client = client_for(organiser)
    client.post("/api/tournaments/", {"name": "Pools", "slug": "pk", "preset": "pools_knockout",
                                      "teams": ["FRA", "NZL", "IRE", "RSA", "ENG", "WAL", "SCO", "ARG"],
                                      "preset_options": {"pools": 2, "qualifiers": 2}}, format="json")
    for fixture in Fixture.objects.filter(tournament__slug="pk", stage=Fixture.Stage.POOL).order_by("id")[:5]:
        _play(client, fixture, 15, 6)
    for command, endpoint in (("standings", "standings"), ("bracket", "bracket")):
        out = StringIO()
        call_command(command, "pk", "--format", "json", stdout=out)
        assert anon.get(f"/api/tournaments/pk/{endpoint}/").json() == json.loads(out.getvalue()), command
