"""The simulation and odds API and the progress partial: who may do what, errors, query counts."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from league.models import Tournament
from matches import odds, simulation, tasks
from matches.models import SimulationRun
from tests.matches.sim_helpers import rwc_tournament
from tests.worlds import fresh, made_once

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _world(django_db_setup, django_db_blocker):
    """The organiser's rwc2023 tournament of the card game that every test reads, made once for the module (some
    0.6 s of CPU, each test made its own) in a transaction rolled back at the end, each test in a savepoint of it
    (tests/worlds.py)."""

    def make() -> dict:
        organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
        return {"organiser": organiser, "tournament": rwc_tournament(user=organiser)}

    with made_once(django_db_blocker, make) as rows:
        yield rows


@pytest.fixture
def organiser(_world):
    return fresh(_world, "organiser")


@pytest.fixture
def tournament(_world):
    return fresh(_world, "tournament")


@pytest.fixture
def queued(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.simulate_run, "delay", lambda run_id, again=False: sent.append(run_id))
    return sent


def url(t, what="simulation"):
    return f"/api/tournaments/{t.slug}/{what}/"


def test_get_progress_404_before_any_run_then_the_run(tournament, django_assert_max_num_queries):
    client = APIClient()
    assert client.get(url(tournament)).status_code == 404
    run = simulation.simulation_create(tournament=tournament, stage="pools", seed=5)
    with django_assert_max_num_queries(3):
        response = client.get(url(tournament))
    assert response.status_code == 200
    assert response.json() | {"started_at": None} == response.json() | {
        "id": run.pk, "status": "running", "stage": "pools", "seed": 5, "done": 0, "total": 40, "percent": 0,
        "started_at": None}


def test_organiser_starts_a_run_queued_after_commit(tournament, organiser, queued,
                                                    django_capture_on_commit_callbacks):
    client = APIClient()
    client.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(tournament), {"stage": "all", "seed": 42}, format="json")
    assert response.status_code == 202, response.content
    run = SimulationRun.objects.get()
    assert (run.seed, run.stage, run.total, run.created_by) == (42, "all", 48, organiser)
    assert queued == [run.pk]
    again = client.post(url(tournament), {"stage": "all"}, format="json")
    assert again.status_code == 409 and "already running" in again.json()["detail"]


@pytest.mark.parametrize("body,field", [({"stage": "everything"}, "stage"), ({"seed": -3}, "seed"),
                                        ({"seed": "x"}, "seed"), ({"fixture": 999999}, "fixture")])
def test_bad_requests_are_400(tournament, organiser, queued, body, field):
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(url(tournament), body, format="json")
    assert response.status_code == 400 and field in response.json()
    assert not SimulationRun.objects.exists()


def test_knockout_before_the_pools_is_400_with_a_message(tournament, organiser, queued):
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(url(tournament), {"stage": "knockout"}, format="json")
    assert response.status_code == 400 and "not known" in response.json()["detail"]


def test_only_organisers_start_and_drafts_are_hidden(tournament, django_user_model, queued):
    client = APIClient()
    assert client.post(url(tournament), {}, format="json").status_code in (401, 403)
    stranger = django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")
    client.force_authenticate(stranger)
    response = client.post(url(tournament), {}, format="json")
    assert response.status_code == 403 and "organisers" in response.json()["detail"]
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.DRAFT)
    assert client.get(url(tournament)).status_code == 404
    assert client.get(url(tournament, "odds")).status_code == 404
    assert APIClient().get("/api/tournaments/no-such-thing/simulation/").status_code == 404
    assert not SimulationRun.objects.exists()


def test_odds_api_404_until_computed_then_the_chances(tournament, settings, django_assert_max_num_queries):
    settings.ODDS_MODEL_MATCHES = 10
    client = APIClient()
    assert client.get(url(tournament, "odds")).status_code == 404
    odds.odds_refresh(tournament_id=tournament.pk, runs=30)
    with django_assert_max_num_queries(3):
        response = client.get(url(tournament, "odds"))
    data = response.json()
    assert response.status_code == 200 and data["runs"] == 30 and data["current"] is True
    assert {t["team"] for t in data["teams"]} >= {"FRA", "NZL", "RSA"}
    assert data["rounds"] == ["Quarter-final", "Semi-final", "Final"]


def test_odds_api_is_read_from_the_cache_until_the_odds_or_the_tournament_change(tournament, settings, organiser,
                                                                                django_assert_num_queries):
    settings.ODDS_MODEL_MATCHES = 10
    client, signed_in = APIClient(), APIClient()
    signed_in.force_login(organiser)
    odds.odds_refresh(tournament_id=tournament.pk, runs=30)
    assert client.get(url(tournament, "odds")).json()["runs"] == 30
    with django_assert_num_queries(0):
        assert client.get(url(tournament, "odds")).json()["current"] is True
        # Signed in, the same answer and still no query: who asks does not change it (nobody loads the user).
        assert signed_in.get(url(tournament, "odds")).json()["runs"] == 30
    fixture = tournament.fixtures.filter(stage="pool").order_by("pk").first()
    services.result_record(fixture=fixture, home_score=20, away_score=3, home_tries=3, away_tries=0)
    assert client.get(url(tournament, "odds")).json()["current"] is False  # the result is not in them yet
    odds.odds_refresh(tournament_id=tournament.pk, runs=40)
    data = client.get(url(tournament, "odds")).json()
    assert data["runs"] == 40 and data["current"] is True


@pytest.mark.parametrize(("mirror", "round_trips"), [("cache_mirror", []), ("cache_mirror_deaf", ["get_many"])],
                         ids=["mirror listening: none", "mirror deaf: the row and the odds token in one"])
def test_odds_api_cache_round_trips_of_a_repeated_read(tournament, settings, cache_round_trips, request, mirror,
                                                       round_trips):
    settings.ODDS_MODEL_MATCHES = 10
    request.getfixturevalue(mirror)
    odds.odds_refresh(tournament_id=tournament.pk, runs=30)
    client = APIClient()
    first = client.get(url(tournament, "odds")).json()
    client.get(url(tournament, "odds"))
    cache_round_trips.clear()
    assert client.get(url(tournament, "odds")).json() == first
    assert cache_round_trips == round_trips
    odds.odds_refresh(tournament_id=tournament.pk, runs=40)  # a new token: heard at once in this process
    assert client.get(url(tournament, "odds")).json()["runs"] == 40


def test_odds_api_of_a_slug_taken_again_are_the_new_tournaments(tournament, settings, organiser):
    """The process remembers which tournament a slug was; a slug taken by a new tournament is not mistaken for
    the old one (its odds, its tokens)."""
    settings.ODDS_MODEL_MATCHES = 10
    odds.odds_refresh(tournament_id=tournament.pk, runs=30)
    client = APIClient()
    assert client.get(url(tournament, "odds")).json()["runs"] == 30
    slug = tournament.slug
    services.tournament_delete(tournament=tournament, user=organiser)
    assert client.get(f"/api/tournaments/{slug}/odds/").status_code == 404
    again = rwc_tournament(user=organiser, slug=slug)
    assert client.get(f"/api/tournaments/{slug}/odds/").status_code == 404  # none computed for the new one
    odds.odds_refresh(tournament_id=again.pk, runs=40)
    assert client.get(f"/api/tournaments/{slug}/odds/").json()["runs"] == 40


def test_progress_partial_polls_while_running_and_reloads_the_page_when_done(client, tournament,
                                                                               django_assert_max_num_queries):
    path = reverse("matches:simulation-progress", args=[tournament.slug])
    assert client.get(path).content.strip() == b""
    run = simulation.simulation_create(tournament=tournament, round_number=1, seed=5)
    with django_assert_max_num_queries(3):
        response = client.get(path)
    html = response.content.decode()
    assert 'hx-trigger="every 1s"' in html and "0 of 8 matches" in html and "Seed 5" in html
    simulation.run_inline(run)
    response = client.get(path + "?was=running")
    html = response.content.decode()
    assert "hx-trigger" not in html and "8 of 8 matches" in html and "finished" in html
    assert response["HX-Refresh"] == "true"
    assert "HX-Refresh" not in client.get(path)


def test_site_hooks_find_the_simulation(tournament, organiser, client, queued, django_capture_on_commit_callbacks):
    """The site's pages (web/views.py) show the simulation's progress and odds."""
    from matches import odds

    assert simulation.simulation_progress(tournament) is None
    assert odds.tournament_odds(tournament) is None
    with django_capture_on_commit_callbacks(execute=True):
        run = simulation.simulation_start(tournament=tournament, stage="pools", user=organiser, seed=1)
    assert simulation.simulation_progress(tournament)["id"] == run.pk
    assert queued == [run.pk]
    client.force_login(organiser)
    page = client.get(reverse("league:manage_simulate", args=[tournament.slug]))
    html = page.content.decode()
    assert page.status_code == 200 and "0 of 40 matches" in html and 'hx-trigger="every 1s"' in html


def test_a_simulated_match_replays_on_the_online_play_pages_and_api(tournament, client):
    """Simulated matches are stored like online ones (seed + action log): the replay works on them."""
    from league.models import Fixture
    from matches.models import Match

    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk").first()
    outcome = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=6)
    match = Match.objects.get(pk=outcome.match_id)
    page = client.get(reverse("matches:replay", args=[match.pk]) + "?step=10")
    assert page.status_code == 200
    api = APIClient().get(f"/api/matches/{match.pk}/replay/{match.ply}/")
    assert api.status_code == 200
    body = api.json()
    assert body["status"] == "finished" and body["steps"] == match.ply
    fixture.refresh_from_db()
    assert body["outcome"]["home"]["points"] == fixture.result.home_score
