"""Fixtures for online-play tests: a public card-game league of two entries with one fixture."""

import pytest

from league.models import Entry, Fixture, Pool, Team, Tournament

RULESET = "rugby-league-cards"
SHORT = {"sets_per_half": 1}
TEAM_NAMES = {"FRA": "France", "NZL": "New Zealand", "RSA": "South Africa", "ENG": "England"}


@pytest.fixture
def players(django_user_model):
    home = django_user_model.objects.create_user(username="hannah", password="pw-hannah-1")
    away = django_user_model.objects.create_user(username="ari", password="pw-ari-1")
    return home, away


@pytest.fixture
def tournament(organiser):
    t = Tournament.objects.create(name="Schools Cup", slug="schools-cup", ruleset=RULESET, ruleset_options=SHORT,
                                  status=Tournament.Status.IN_PROGRESS, visibility=Tournament.Visibility.PUBLIC)
    t.organisers.add(organiser)
    return t


def make_fixture(tournament, *, home_player=None, away_player=None, home_name="", away_name="",
                 codes=("FRA", "NZL"), stage=Fixture.Stage.POOL):
    pool, _ = Pool.objects.get_or_create(tournament=tournament, name="A")
    # get_or_create: a transactional test before this one may have flushed the migrated nations.
    teams = [Team.objects.get_or_create(code=c, defaults={"name": TEAM_NAMES.get(c, c), "is_nation": True})[0]
             for c in codes]
    home = Entry.objects.create(tournament=tournament, team=teams[0], pool=pool, seed=1, player=home_player,
                                player_name=home_name)
    away = Entry.objects.create(tournament=tournament, team=teams[1], pool=pool, seed=2, player=away_player,
                                player_name=away_name)
    return Fixture.objects.create(tournament=tournament, pool=pool if stage == Fixture.Stage.POOL else None,
                                  stage=stage, home=home, away=away, code="" if stage == Fixture.Stage.POOL else "F")


@pytest.fixture
def fixture_people(tournament, players):
    """A fixture whose two entries are played by two account holders."""
    return make_fixture(tournament, home_player=players[0], away_player=players[1])
