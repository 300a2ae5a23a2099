"""Selectors: standings from the database in a fixed number of queries, and fixture queries."""

from datetime import date

import pytest

from league import selectors, services
from league.models import Fixture
from league.services import tournament_create_from_preset as preset_run
from tests.league.core_helpers import fixture_between, make_four_team_league, make_rwc

pytestmark = pytest.mark.django_db

@pytest.fixture
def four_team_league(db):
    return make_four_team_league()


@pytest.fixture
def rwc(db):
    return make_rwc()


HOME_SCORES = [10, 12, 13, 15, 17, 20]  # possible with 2 tries
AWAY_SCORES = [5, 7, 8, 10, 11, 14]  # possible with 1 try


def _play(fixtures, limit=None):
    for i, fixture in enumerate(fixtures[:limit] if limit else fixtures):
        services.result_record(fixture=fixture, home_score=HOME_SCORES[i % 6], away_score=AWAY_SCORES[(i * 5) % 6],
                               home_tries=2, away_tries=1)


def test_tournament_standings_queries_do_not_grow_with_results(rwc, django_assert_max_num_queries):
    fixtures = list(Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.POOL).order_by("pk"))
    _play(fixtures, 4)
    with django_assert_max_num_queries(3):
        few = selectors.tournament_standings(rwc)
    _play(fixtures[4:])
    with django_assert_max_num_queries(3):
        tables = selectors.tournament_standings(rwc)
    assert [pool.name for pool, _rows in tables] == ["A", "B", "C", "D"]
    assert sum(row.played for _pool, rows in few for row in rows) == 8
    assert sum(row.played for _pool, rows in tables for row in rows) == 80
    assert all(len(rows) == 5 for _pool, rows in tables)


def test_pool_standings_queries_and_values(four_team_league, django_assert_max_num_queries):
    services.result_record(fixture=fixture_between(four_team_league, "FRA", "NZL"), home_score=22, away_score=20,
                           home_tries=4, away_tries=4)
    _play(list(Fixture.objects.filter(tournament=four_team_league, result__isnull=True)))
    pool = four_team_league.pools.get()
    pool = type(pool).objects.select_related("tournament").get(pk=pool.pk)
    with django_assert_max_num_queries(2):
        rows = selectors.pool_standings(pool)
    assert [r.position for r in rows] == [1, 2, 3, 4]
    assert sum(r.played for r in rows) == 12
    assert sum(r.won for r in rows) == 6


def test_standings_ignore_knockout_results(rwc):
    data = selectors.tournament_standings_data(rwc)
    assert [d["pool"] for d in data] == ["A", "B", "C", "D"]
    assert all(list(row) == ["position", "team", "played", "won", "drawn", "lost", "points_for",
                             "points_against", "tries_for", "tries_against", "bonus_points", "points",
                             "tie_breaks", "explanation"]
               for d in data for row in d["rows"])


def test_fixture_list_filters(rwc, django_assert_max_num_queries):
    pool_a = rwc.pools.get(name="A")
    assert selectors.fixture_list(tournament=rwc, stage=Fixture.Stage.POOL).count() == 40
    assert selectors.fixture_list(tournament=rwc, pool=pool_a).count() == 10
    assert selectors.fixture_list(tournament=rwc, round_number=1).count() == 8
    assert selectors.fixture_list(tournament=rwc, team="fra").count() == 4
    assert selectors.fixture_list(tournament=rwc, on_date=date(2023, 9, 15)).count() == 8  # round 2
    assert selectors.fixture_list(tournament=rwc, on_date=date(2023, 9, 16)).count() == 0
    fixture = selectors.fixture_list(tournament=rwc, team="NZL").first()
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1)
    assert selectors.fixture_list(tournament=rwc, status=Fixture.Status.PLAYED).get() == fixture
    with django_assert_max_num_queries(1):
        listed = list(selectors.fixture_list(tournament=rwc))
        text = [(f.home.team.code if f.home else "", f.pool.name if f.pool else "",
                 getattr(getattr(f, "result", None), "home_score", None)) for f in listed]
    assert len(text) == len(listed) >= 40


def test_fixture_rounds_and_result_changes(four_team_league, organiser):
    rounds = selectors.fixture_rounds(four_team_league)
    assert [number for number, _f in rounds] == [1, 2, 3]
    assert all(len(fixtures) == 2 for _n, fixtures in rounds)
    fixture = rounds[0][1][0]
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1, user=organiser)
    services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=1, away_tries=1,
                           user=organiser)
    changes = list(selectors.result_changes(fixture))
    assert [c.action for c in changes] == ["created", "updated"]
    assert selectors.tournament_get("four") == four_team_league and selectors.tournament_get("nope") is None


def test_double_league_standings_with_many_results(django_assert_max_num_queries):
    teams = ["FRA", "NZL", "ITA", "URU", "NAM", "IRE", "RSA", "SCO"]
    t = preset_run("league", name="Big", slug="big", teams=teams, double=True)
    _play(list(Fixture.objects.filter(tournament=t)))
    with django_assert_max_num_queries(3):
        tables = selectors.tournament_standings(t)
    (_pool, rows), = tables
    assert sum(r.played for r in rows) == 2 * 56
    assert all(r.played == 14 for r in rows)
