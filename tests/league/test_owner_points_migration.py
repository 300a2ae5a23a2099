"""The data migration of issues 16.1 and 21.3 (``*_org14a_owners_and_points_data``), run on rows made with the
models as they were before it: every team gets its owner, a team shared across organisers is copied so nobody
can change another's page, and every tournament keeps exactly the table it had."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0012_live18_scoring")]


def _latest():
    executor = MigrationExecutor(connection)
    return [key for key in executor.loader.graph.leaf_nodes() if key[0] == "league"]


@pytest.fixture
def old_apps():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    yield executor.loader.project_state(BEFORE).apps
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(_latest())


def test_owners_copies_and_points_rules(old_apps, django_user_model):
    User = old_apps.get_model("auth", "User")
    Team = old_apps.get_model("league", "Team")
    Tournament = old_apps.get_model("league", "Tournament")
    Entry = old_apps.get_model("league", "Entry")
    alice = User.objects.create(username="alice")
    bob = User.objects.create(username="bob")
    # Bob made "Greenfield School"; Alice's league entered it (the hijack of issue 16).
    greenfield = Team.objects.create(name="Greenfield School", code="GFS", created_by=bob)
    # Made from the command line, only in Alice's tournaments: hers. In both organisers' tournaments: the site's.
    hill = Team.objects.create(name="Hill College", code="HIL")
    shared = Team.objects.create(name="Shared XV", code="SHX")
    league = Tournament.objects.create(name="Winter", slug="winter", points_system="world_rugby")
    league.organisers.add(alice)
    sevens = Tournament.objects.create(name="Bob's sevens", slug="sevens", points_system="rugby_league",
                                       win_points=2, draw_points=1, loss_points=0, try_bonus_threshold=None,
                                       losing_bonus_margin=None)
    sevens.organisers.add(bob)
    Tournament.objects.create(name="Odd", slug="odd", points_system="world_rugby", win_points=5)
    for tournament, team, seed in ((league, greenfield, 1), (league, hill, 2), (league, shared, 3),
                                   (sevens, greenfield, 1), (sevens, shared, 2)):
        Entry.objects.create(tournament=tournament, team=team, seed=seed)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(_latest())
    apps = executor.loader.project_state(_latest()).apps
    Team = apps.get_model("league", "Team")
    Tournament = apps.get_model("league", "Tournament")
    Entry = apps.get_model("league", "Entry")

    assert Team.objects.get(pk=greenfield.pk).owner_id == bob.pk
    assert Team.objects.get(pk=hill.pk).owner_id == alice.pk
    assert Team.objects.get(pk=shared.pk).owner_id is None
    assert all(t.owner_id is None for t in Team.objects.filter(is_nation=True))
    # Alice's league now has her own copy of Greenfield School: Bob's renames stay on his pages.
    alices = Entry.objects.get(tournament__slug="winter", team__name="Greenfield School").team
    assert alices.pk != greenfield.pk and alices.owner_id == alice.pk and alices.code == "GFS"
    assert Entry.objects.get(tournament__slug="sevens", team__name="Greenfield School").team_id == greenfield.pk

    rules = {t.slug: (t.points_system, t.points_rules) for t in Tournament.objects.all()}
    wr_order = ["head_to_head", "points_difference", "tries_difference", "points_for", "tries_for", "world_ranking"]
    assert rules["winter"] == ("world_rugby", {"win": 4, "draw": 2, "loss": 0, "try_bonus_threshold": 4,
                                               "try_bonus_relative": False, "losing_bonus_margin": 7, "bye": 0,
                                               "all_wins_bonus": 0, "tie_breakers": wr_order})
    # Today's rugby_league preset gives bye points and another order: the old table is kept as "custom".
    assert rules["sevens"][0] == "custom"
    assert rules["sevens"][1] == {"win": 2, "draw": 1, "loss": 0, "try_bonus_threshold": None,
                                  "try_bonus_relative": False, "losing_bonus_margin": None, "bye": 0,
                                  "all_wins_bonus": 0, "tie_breakers": wr_order}
    assert rules["odd"][0] == "custom" and rules["odd"][1]["win"] == 5
