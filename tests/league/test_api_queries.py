"""Every API list runs a fixed number of queries: the same bound for a small and a much larger data set."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from league.models import Fixture, Pool, Result, Tournament
from league.nations import RWC2023_CODES
from tests.league.api_factories import make_team, make_tournament

pytestmark = pytest.mark.django_db


def _build(organiser, slug: str, teams, pools: int, results: int, visibility=Tournament.Visibility.PUBLIC):
    tournament = make_tournament(slug, user=organiser, teams=teams, pools=pools, visibility=visibility)
    # Results straight into the table (the service's checks are tested elsewhere): only the rows matter here.
    fixtures = list(Fixture.objects.filter(tournament=tournament).order_by("id")[:results])
    Result.objects.bulk_create([Result(fixture=f, home_score=24, away_score=17, home_tries=4, away_tries=2,
                                       winner_id=f.home_id) for f in fixtures])
    Fixture.objects.filter(pk__in=[f.pk for f in fixtures]).update(status=Fixture.Status.PLAYED)
    return tournament


def _small(organiser):
    """One public tournament: 4 teams, 1 pool, 2 results, one own team."""
    make_team("SMA", user=organiser)
    make_team("SSA")  # a team of the site: anyone lists it
    return _build(organiser, "t-small", RWC2023_CODES[:4], 1, 2)


def _large(organiser):
    """Much more of everything: a 16-team, 2-pool tournament with 16 results, and two more tournaments."""
    for code in ("LGA", "LGB", "LGC"):
        make_team(code, user=organiser)
        make_team(f"S{code}")
    _build(organiser, "extra-0", RWC2023_CODES[10:16], 2, 4)
    _build(organiser, "extra-1", RWC2023_CODES[4:10], 1, 4, visibility=Tournament.Visibility.UNLISTED)
    return _build(organiser, "t-large", RWC2023_CODES[:16], 2, 16)


# (url, queries for an anonymous caller, nothing cached): the tournament filter, the page's count and rows,
# prefetches. A repeated read costs none (tests/league/test_api_cache.py).
# A signed-in caller adds two (session and user). The bounds are the exact counts, so one extra query
# per row would break them at once on the larger data set.
ENDPOINTS = [
    ("/api/teams/", 2),
    ("/api/tournaments/", 3),
    ("/api/entries/", 2),
    ("/api/entries/?tournament={slug}", 3),
    ("/api/pools/", 4),
    ("/api/pools/?tournament={slug}", 5),
    ("/api/fixtures/", 2),
    ("/api/fixtures/?tournament={slug}", 3),
    ("/api/fixtures/?tournament={slug}&team=FRA&stage=pool", 3),
    ("/api/tournaments/{slug}/standings/", 4),
    ("/api/pools/{pool}/standings/", 5),
]


def _rows(body) -> int:
    if isinstance(body, dict) and "results" in body:
        return len(body["results"])
    if isinstance(body, dict) and "rows" in body:
        return len(body["rows"])
    return sum(len(table["rows"]) for table in body)


@pytest.mark.parametrize("url, bound", ENDPOINTS)
@pytest.mark.parametrize("signed_in", [False, True])
def test_list_queries_do_not_grow_with_rows(organiser, django_assert_max_num_queries, url, bound, signed_in):
    client = APIClient()
    if signed_in:
        client.force_login(organiser)  # a real session: its queries are part of the bound
        bound += 2
    small = _small(organiser)
    resolved = url.format(slug=small.slug, pool=Pool.objects.filter(tournament=small).first().pk)
    cache.clear()  # the cost of building the list: nothing cached, not even the tournament's row
    with django_assert_max_num_queries(bound):
        response = client.get(resolved)
    assert response.status_code == 200
    small_rows = _rows(response.json())

    large = _large(organiser)
    resolved = url.format(slug=large.slug, pool=Pool.objects.filter(tournament=large).first().pk)
    cache.clear()  # the cost of building the list: nothing cached, not even the tournament's row
    with django_assert_max_num_queries(bound):
        response = client.get(resolved)
    assert response.status_code == 200
    assert _rows(response.json()) > small_rows  # the larger data set really gives more rows


FORMAT_ENDPOINTS = [
    # (preset, endpoint, teams small, teams large, queries for an anonymous caller)
    ("single_elimination", "bracket", 4, 16, 2),
    ("swiss", "swiss-table", 4, 14, 4),
    ("solo", "leaderboard", 2, 12, 3),
]


@pytest.mark.parametrize("preset, endpoint, small, large, bound", FORMAT_ENDPOINTS)
def test_format_tables_do_not_grow_with_rows(organiser, django_assert_max_num_queries, preset, endpoint, small,
                                             large, bound):
    client = APIClient()
    sizes = {}
    for label, count in (("s", small), ("l", large)):
        tournament = services_preset(preset, slug=f"{preset}-{label}", teams=RWC2023_CODES[:count], user=organiser)
        cache.clear()
        with django_assert_max_num_queries(bound):
            response = client.get(f"/api/tournaments/{tournament.slug}/{endpoint}/")
        assert response.status_code == 200
        body = response.json()
        sizes[label] = sum(len(r) for r in body) if body and isinstance(body[0], list) else len(body)
    assert sizes["l"] > sizes["s"]


def services_preset(preset, *, slug, teams, user):
    from league.services import tournament_create_from_preset as preset_run

    return preset_run(preset, name=slug, slug=slug, teams=list(teams), user=user)
