"""API lists from the cache (issue 17): a repeated read costs no query, a change is seen at once, and the cache
never shows anyone what they may not see."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client, RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config import middleware
from league import services
from league.models import Fixture, Pool, Result, Tournament
from league.serializers import FixtureSerializer, ResultSerializer
from league.services import tournament_create_from_preset as preset_run
from tests.league.api_factories import make_tournament
from tests.worlds import class_world, world_row

pytestmark = pytest.mark.django_db

TOURNAMENT_LISTS = ["/api/fixtures/?tournament={slug}", "/api/fixtures/?tournament={slug}&team=FRA&stage=pool",
                    "/api/entries/?tournament={slug}", "/api/pools/?tournament={slug}",
                    "/api/tournaments/{slug}/standings/", "/api/tournaments/{slug}/bracket/",
                    "/api/pools/{pool}/standings/"]
SITE_LISTS = ["/api/tournaments/", "/api/teams/", "/api/fixtures/", "/api/entries/", "/api/pools/"]


def _client(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


def _world_cup() -> dict:
    """The organiser's RWC 2023 tournament (slug wc) with its first three pool results."""
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    tournament = preset_run("rwc2023", name="World Cup", slug="wc", user=organiser)
    for fixture in Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk")[:3]:
        services.result_record(fixture=fixture, home_score=27, away_score=13, home_tries=4, away_tries=1)
    return {"organiser": organiser, "rwc": tournament}


class TestTheWorldCup:
    """The API's lists of a published RWC 2023 tournament with three results. The tournament (some 0.6 s of CPU,
    every test of the class made its own) is made once for the class (tests/worlds.py): each test runs in a
    savepoint of it."""

    _world = class_world(_world_cup)
    organiser = world_row("organiser")
    rwc = world_row("rwc")

    @pytest.mark.parametrize("url", TOURNAMENT_LISTS + SITE_LISTS)
    def test_a_repeated_read_costs_no_query(self, rwc, url, django_assert_num_queries):
        client = _client()
        url = url.format(slug=rwc.slug, pool=Pool.objects.filter(tournament=rwc).first().pk)
        first = client.get(url)
        assert first.status_code == 200
        with django_assert_num_queries(0):
            again = client.get(url)
        assert again.status_code == 200 and again.json() == first.json()
        assert again["Content-Type"] == "application/json"

    @pytest.mark.parametrize("url", TOURNAMENT_LISTS)
    def test_a_repeated_read_of_a_tournament_list_is_one_cache_round_trip(self, rwc, url, cache_round_trips,
                                                                          cache_mirror_deaf):
        """The tournament row and its version: one round trip to the shared cache, the answer from this process's
        memory (a pool's tournament too: a pool never moves)."""
        client = _client()
        url = url.format(slug=rwc.slug, pool=Pool.objects.filter(tournament=rwc).first().pk)
        first = client.get(url)
        cache_round_trips.clear()
        again = client.get(url)
        assert again.status_code == 200 and again.json() == first.json()
        assert cache_round_trips == ["get"]

    @pytest.mark.parametrize("url", TOURNAMENT_LISTS)
    def test_with_the_mirror_listening_a_repeated_read_makes_no_cache_round_trip(self, rwc, url, cache_round_trips,
                                                                                cache_mirror):
        """The tournament row is kept by the mirror (config.cache): nothing is asked of Redis, and a result recorded
        afterwards is in the next answer (the writer's own process forgets the row at once)."""
        client = _client()
        url = url.format(slug=rwc.slug, pool=Pool.objects.filter(tournament=rwc).first().pk)
        first = client.get(url)
        client.get(url)  # the row read from Redis while the mirror listens is kept from now on
        cache_round_trips.clear()
        again = client.get(url)
        assert again.status_code == 200 and again.json() == first.json()
        assert cache_round_trips == []
        fixture = Fixture.objects.filter(tournament=rwc, status=Fixture.Status.SCHEDULED, pool__isnull=False).first()
        services.result_record(fixture=fixture, home_score=30, away_score=3, home_tries=4, away_tries=0)
        cache_round_trips.clear()
        assert client.get(url).status_code == 200
        assert cache_round_trips[0] == "get"  # the row (a new version) is read again

    def test_with_the_mirror_listening_a_result_is_in_the_next_answer(self, rwc, cache_mirror):
        client = _client()
        url = f"/api/tournaments/{rwc.slug}/standings/"
        first = client.get(url).json()
        assert client.get(url).json() == first
        fixture = Fixture.objects.filter(tournament=rwc, status=Fixture.Status.SCHEDULED, pool__isnull=False).first()
        services.result_record(fixture=fixture, home_score=30, away_score=3, home_tries=4, away_tries=0)
        assert client.get(url).json() != first

    def test_a_deleted_pool_is_not_found_after_it_was_read(self, rwc):
        pool = Pool.objects.create(tournament=rwc, name="Z", order=9)
        url = f"/api/pools/{pool.pk}/standings/"
        assert _client().get(url).json() == {"pool": "Z", "rows": []}
        services.pool_delete(pool=pool)
        missing = _client().get(url)
        assert missing.status_code == 404 and "pool" in missing.json()["detail"].lower()

    def test_a_bad_tournament_parameter_of_a_pool_is_refused_only_where_it_is_read(self, rwc, organiser):
        """The parameter names an unlisted tournament's pool; a listed one's pool does not need it."""
        pool = Pool.objects.filter(tournament=rwc).first()
        assert _client().get(f"/api/pools/{pool.pk}/standings/?tournament=no%20such!").status_code == 200
        hidden = preset_run("rwc2023", name="Hidden", slug="hidden", user=organiser, visibility="unlisted")
        hidden_pool = Pool.objects.filter(tournament=hidden).first()
        assert _client().get(f"/api/pools/{hidden_pool.pk}/standings/").status_code == 404
        assert _client().get(f"/api/pools/{hidden_pool.pk}/standings/?tournament=no%20such!").status_code == 400
        assert _client().get(f"/api/pools/{hidden_pool.pk}/standings/?tournament=hidden").status_code == 200

    def test_a_result_is_in_the_next_read(self, rwc):
        client = _client()
        fixture = Fixture.objects.filter(tournament=rwc, stage="pool", result__isnull=True).order_by("pk").first()
        url = f"/api/fixtures/?tournament={rwc.slug}&limit=100"
        standings = f"/api/tournaments/{rwc.slug}/standings/"
        before, table = client.get(url).json(), client.get(standings).json()
        services.result_record(fixture=fixture, home_score=3, away_score=30, home_tries=0, away_tries=4)
        after = {row["id"]: row for row in client.get(url).json()["results"]}
        assert next(r for r in before["results"] if r["id"] == fixture.pk)["result"] is None
        assert after[fixture.pk]["result"]["away_score"] == 30
        assert client.get(standings).json() != table

    def test_a_fixture_lists_its_result_as_the_result_serializer_does(self, rwc):
        fixture = Fixture.objects.filter(tournament=rwc, result__isnull=False).select_related(
            "home__team", "away__team", "result", "pool", "tournament").first()
        Result.objects.filter(fixture=fixture).update(winner=fixture.home, decided_by="tries")
        fixture.result.refresh_from_db()
        assert FixtureSerializer(fixture).data["result"] == ResultSerializer(fixture.result).data

    def test_a_signed_in_read_of_a_public_list_costs_nothing_and_of_ones_own_only_the_user(
            self, rwc, organiser, django_assert_num_queries):
        """A published tournament's lists are the same for everyone: a signed-in phone polling them is not even
        authenticated (no user query, no session read); a list that depends on the caller loads the user, or takes
        the one loaded for the session in the last seconds (``config.middleware``)."""
        client = _client(organiser)
        for url, queries in ((f"/api/fixtures/?tournament={rwc.slug}", 0),
                             (f"/api/tournaments/{rwc.slug}/standings/", 0),
                             ("/api/tournaments/", 1)):
            middleware.forget_recent_users()
            client.get(f"/api/fixtures/?tournament={rwc.slug}")
            client.get(url)
            with django_assert_num_queries(queries):  # the session comes from the cache (cached_db), the user does not
                middleware.forget_recent_users()
                assert client.get(url).status_code == 200
            with django_assert_num_queries(0):  # the user remembered
                assert client.get(url).status_code == 200

    def test_a_bad_parameter_is_refused_even_after_good_reads(self, rwc):
        """A read from the cache skips the parameters' serializer: only a valid URL's answer is ever kept, and any
        other URL is checked in full."""
        client = _client()
        assert client.get(f"/api/fixtures/?tournament={rwc.slug}").status_code == 200
        assert client.get(f"/api/fixtures/?tournament={rwc.slug}").status_code == 200
        bad = client.get(f"/api/fixtures/?tournament={rwc.slug}&round=first")
        assert bad.status_code == 400 and "round" in bad.json()
        assert client.get("/api/fixtures/?tournament=no%20such!").status_code == 400
        assert client.get("/api/entries/?tournament=nowhere").status_code == 404
        assert client.get(f"/api/entries/?tournament=%20{rwc.slug}%20").status_code == 200  # trimmed, as before


def test_lists_across_tournaments_follow_new_tournaments_and_teams(organiser):
    client = _client(organiser)
    make_tournament("first", user=organiser)
    assert [t["slug"] for t in client.get("/api/tournaments/").json()["results"]] == ["first"]
    assert client.post("/api/tournaments/", {"name": "Second", "slug": "second"}, format="json").status_code == 201
    assert {t["slug"] for t in client.get("/api/tournaments/").json()["results"]} == {"first", "second"}
    teams = client.get("/api/teams/?search=Greenfield").json()["count"]
    assert client.post("/api/teams/", {"code": "GRN", "name": "Greenfield"}, format="json").status_code == 201
    assert client.get("/api/teams/?search=Greenfield").json()["count"] == teams + 1


def test_the_cache_shows_nobody_what_they_may_not_see(organiser, django_user_model):
    draft = make_tournament("secret", user=organiser, status=Tournament.Status.DRAFT)
    own, stranger = _client(organiser), _client(django_user_model.objects.create_user("x", password="pw-x-12345"))
    assert own.get("/api/fixtures/?tournament=secret").status_code == 200  # cached now
    assert _client().get("/api/fixtures/?tournament=secret").status_code == 404
    assert stranger.get("/api/fixtures/?tournament=secret").status_code == 404
    assert [t["slug"] for t in own.get("/api/tournaments/").json()["results"]] == [draft.slug]
    assert _client().get("/api/tournaments/").json()["results"] == []  # the organiser's list is theirs alone
    mine = own.get("/api/tournaments/?mine=true").json()["results"]
    assert mine and mine[0]["can_edit"] is True
    pool = Pool.objects.filter(tournament=draft).first()
    assert own.get(f"/api/pools/{pool.pk}/standings/").status_code == 200
    assert _client().get(f"/api/pools/{pool.pk}/standings/").status_code == 404
    assert _client().get("/api/pools/999999/standings/").status_code == 404


def test_the_caller_is_still_asked_for_where_it_matters(organiser, django_user_model):
    """Authentication on demand: a draft is still its organisers' alone (session or token), and a write with a
    bad token is still refused as unauthenticated."""
    make_tournament("secret", user=organiser, status=Tournament.Status.DRAFT)
    token = Token.objects.create(user=organiser).key
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert by_token.get("/api/fixtures/?tournament=secret").status_code == 200
    assert by_token.get("/api/tournaments/secret/standings/").status_code == 200
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert bad.get("/api/fixtures/?tournament=secret").status_code == 401
    assert bad.post("/api/tournaments/", {"name": "X", "slug": "x"}, format="json").status_code == 401
    assert not Tournament.objects.filter(slug="x").exists()
    stranger = _client(django_user_model.objects.create_user("y", password="pw-y-12345"))
    assert stranger.get("/api/tournaments/secret/standings/").status_code == 404


@pytest.mark.parametrize("count", [1, 12])
def test_the_home_page_costs_the_same_queries_whatever_the_tournaments(organiser, count, django_assert_num_queries):
    for i in range(count):
        make_tournament(f"home-{i}", user=organiser, fixtures=False,
                        status=Tournament.Status.DRAFT if i % 3 == 0 else Tournament.Status.IN_PROGRESS)
    client = _client(organiser)
    with django_assert_num_queries(3):  # user; the public tournaments and the caller's own
        first = client.get("/")
    with django_assert_num_queries(0):  # the whole page from the cache, the user remembered for the session
        again = client.get("/")
    middleware.forget_recent_users()
    with django_assert_num_queries(1):  # the user is read to key it
        client.get("/")
    def main(response) -> bytes:
        return response.content.split(b"<main")[1].split(b"</main>")[0]

    assert main(first) == main(again)
    page = first.content.decode()
    assert page.count("/manage/") == count  # the organiser's own, drafts included
    assert page.count('href="/t/home-') - count == len([i for i in range(count) if i % 3])  # and the public ones
    services.tournament_create(name="Another", slug="another", user=organiser, status=Tournament.Status.IN_PROGRESS)
    assert "/t/another/" in client.get("/").content.decode()
    assert "/t/another/" in _client().get("/").content.decode()


def test_the_home_page_is_served_whole_and_follows_changes(organiser, django_assert_num_queries):
    make_tournament("home-a", user=organiser, fixtures=False, status=Tournament.Status.IN_PROGRESS)
    anonymous = _client()
    first = anonymous.get("/")
    with django_assert_num_queries(0):
        again = anonymous.get("/")
    assert again.content == first.content and again["Content-Security-Policy"] == first["Content-Security-Policy"]
    services.tournament_create(name="Later", slug="later", user=organiser, status=Tournament.Status.IN_PROGRESS)
    assert "/t/later/" in anonymous.get("/").content.decode()


def test_a_cached_home_page_signs_out_and_shows_messages(organiser):
    """The signed-in page kept whole carries a token of the session's CSRF cookie, so its sign-out form works; a
    page with a message waiting is rendered, never kept or served from the cache."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(organiser)
    client.get("/")  # sets the CSRF cookie
    client.get("/")
    page = client.get("/").content.decode()
    assert organiser.username in page
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    client.cookies["messages"] = CookieStorage(RequestFactory().get("/"))._encode(
        [Message(constants.SUCCESS, "Tournament saved.")])
    assert "Tournament saved." in client.get("/").content.decode()
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": token}).status_code == 302
    assert organiser.username not in client.get("/").content.decode()
