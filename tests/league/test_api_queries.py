"""Every API list runs a fixed number of queries: the same bound for a small and a much larger data set."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league import services
from league.models import Fixture, Pool, Tournament
from league.nations import RWC2023_CODES
from tests.league.api_factories import make_team, make_tournament

pytestmark = pytest.mark.django_db


def _grow(organiser, prefix: str, count: int) -> None:
    """Add ``count`` tournaments of 8 teams in 2 pools with fixtures and some results, plus own teams."""
    for index in range(count):
        slug = f"{prefix}-{index}"
        teams = RWC2023_CODES[(index * 3) % 12:(index * 3) % 12 + 8]
        tournament = make_tournament(slug, user=organiser, teams=teams, pools=2,
                                     visibility=Tournament.Visibility.PUBLIC if index % 2 == 0
                                     else Tournament.Visibility.UNLISTED)
        for fixture in Fixture.objects.filter(tournament=tournament).order_by("id")[:5]:
            services.result_record(fixture=fixture, home_score=24, away_score=17, home_tries=4, away_tries=2,
                                   user=organiser)
        make_team(f"{prefix[0].upper()}{index}X", user=organiser)


def _pool_id(slug):
    return Pool.objects.filter(tournament__slug=slug).order_by("order").first().pk


# (url, bound). The bound covers authentication (session + user), the tournament filter, the page's
# count and rows, and prefetches; it must not depend on the number of rows.
ENDPOINTS = [
    ("/api/teams/", 4),
    ("/api/tournaments/", 5),
    ("/api/entries/", 4),
    ("/api/entries/?tournament=big-0", 5),
    ("/api/pools/", 6),
    ("/api/pools/?tournament=big-0", 7),
    ("/api/fixtures/", 4),
    ("/api/fixtures/?tournament=big-0&team=FRA", 5),
    ("/api/tournaments/big-0/standings/", 7),
    ("/api/pools/{pool}/standings/", 7),
]


@pytest.mark.parametrize("url, bound", ENDPOINTS)
@pytest.mark.parametrize("signed_in", [False, True])
def test_list_queries_do_not_grow_with_rows(organiser, django_assert_max_num_queries, url, bound, signed_in):
    client = APIClient()
    if signed_in:
        client.force_login(organiser)  # a real session: its queries are part of the bound
    _grow(organiser, "big", 1)
    resolved = url.format(pool=_pool_id("big-0"))
    with django_assert_max_num_queries(bound):
        small = client.get(resolved)
    assert small.status_code == 200
    _grow(organiser, "more", 8)
    with django_assert_max_num_queries(bound):
        large = client.get(resolved)
    assert large.status_code == 200
    body_small, body_large = small.json(), large.json()
    if isinstance(body_large, dict) and "count" in body_large and "?tournament=" not in url:
        assert body_large["count"] > body_small["count"]  # the larger set really is larger
