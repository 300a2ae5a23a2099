"""No enumeration (issue 16.7): the objects of an unlisted tournament are not reached by walking numeric ids.

Its pools, entries, fixtures (and their results) and matches answer 404 by id alone; with the tournament's slug
(``?tournament=<slug>``, what its link gives) they answer as before. Public tournaments' URLs are unchanged.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Tournament
from matches import services as match_services
from tests.league.api_factories import make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournaments(organiser):
    public = make_tournament("open-cup", user=organiser, teams=("FRA", "NZL"))
    hidden = make_tournament("quiet-cup", user=organiser, teams=("IRE", "RSA"),
                             visibility=Tournament.Visibility.UNLISTED)
    return public, hidden


def _urls(tournament) -> list[str]:
    fixture = tournament.fixtures.get()
    return [f"/api/pools/{tournament.pools.get().pk}/", f"/api/pools/{tournament.pools.get().pk}/standings/",
            f"/api/entries/{tournament.entries.first().pk}/", f"/api/fixtures/{fixture.pk}/"]


def test_walking_ids_finds_nothing_of_an_unlisted_tournament(tournaments):
    public, hidden = tournaments
    anon = APIClient()
    found = []
    for url in _urls(public) + _urls(hidden):
        response = anon.get(url)
        if response.status_code == 200:
            found.append(response.json().get("tournament", "open-cup" if "standings" in url else None))
    assert "quiet-cup" not in found and found.count("open-cup") == 4
    # A walk over every id in a range: only the public tournament's rows answer.
    for kind in ("pools", "entries", "fixtures"):
        for pk in range(1, 40):
            response = anon.get(f"/api/{kind}/{pk}/")
            assert response.status_code == 404 or response.json()["tournament"] == "open-cup"


def test_the_slug_opens_an_unlisted_tournaments_objects(tournaments):
    _public, hidden = tournaments
    anon = APIClient()
    for url in _urls(hidden):
        assert anon.get(url).status_code == 404
        assert anon.get(url + "?tournament=quiet-cup").status_code == 200
        # Another tournament's slug does not open it.
        assert anon.get(url + "?tournament=open-cup").status_code == 404


def test_organisers_reach_their_unlisted_objects_by_id(tournaments, organiser):
    _public, hidden = tournaments
    client = APIClient()
    client.force_authenticate(organiser)
    for url in _urls(hidden):
        assert client.get(url).status_code == 200


def test_matches_of_an_unlisted_tournament_need_the_slug(tournaments, organiser):
    _public, hidden = tournaments
    hidden.ruleset = "rugby-league-cards"
    hidden.ruleset_options = {"sets_per_half": 1}
    hidden.save()
    fixture = hidden.fixtures.get()
    match = match_services.match_start_for_fixture(fixture=fixture, user=organiser)
    anon = APIClient()
    assert anon.get(f"/api/matches/{match.pk}/").status_code == 404
    assert anon.get(f"/api/matches/{match.pk}/actions/").status_code == 404
    assert anon.get(f"/api/matches/{match.pk}/?tournament=quiet-cup").status_code == 200
    assert anon.get(f"/api/matches/{match.pk}/replay/0/?tournament=quiet-cup").status_code == 200


def test_the_schema_documents_the_tournament_parameter(client):
    schema = client.get("/api/schema/?format=json").json()
    for path in ("/api/pools/{id}/", "/api/fixtures/{id}/", "/api/entries/{id}/", "/api/matches/{id}/"):
        names = {p["name"] for op in schema["paths"][path].values() if isinstance(op, dict)
                 for p in op.get("parameters", [])}
        assert "tournament" in names, path
