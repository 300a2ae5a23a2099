"""Round-robin fixtures are planned and written in bulk without model instances (issue 17: a 1,000-team league in
seconds): every column holds what the model would have saved, and the times are what the general planner of
``league.services.schedule`` gives the same fixtures."""

from __future__ import annotations

from datetime import date, time

import pytest
from django.forms.models import model_to_dict

from league import services
from league.models import Fixture
from tests.league.api_factories import make_tournament

pytestmark = pytest.mark.django_db

PLACE = ("kickoff", "venue", "slot")


def assert_planner_agrees(tournament) -> None:
    """The pool fixtures' places are what ``fixtures_time`` -- the general planner, fed the same fixtures made
    without a place -- gives them."""
    pool = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL)
    fast = {f.pk: tuple(getattr(f, name) for name in PLACE) for f in pool}
    pool.update(kickoff=None, venue="", slot=0)
    services.fixtures_time(tournament=tournament, fixtures=list(pool))
    assert {f.pk: tuple(getattr(f, name) for name in PLACE) for f in pool.all()} == fast


@pytest.mark.parametrize(("venues", "start_date"), [
    ([], date(2027, 3, 6)), (["Pitch 1", "Pitch 2", "Pitch 3"], date(2027, 3, 6)), (["Table 1", "Table 2"], None)])
def test_fast_generation_writes_what_the_model_and_the_planner_would(organiser, venues, start_date):
    tournament = make_tournament("gen", user=organiser, teams=("FRA", "NZL", "ITA", "URU", "NAM", "IRE", "RSA"),
                                 pools=2, fixtures=False)
    count = services.fixtures_generate_round_robin(tournament=tournament, start_date=start_date,
                                                   first_kickoff=time(10, 30), venues=venues, double=True)
    saved = list(Fixture.objects.filter(tournament=tournament).order_by("pk"))
    assert count == len(saved) == 2 * (3 + 6)  # pools of 3 and 4, double round robin
    # Every column as a model instance saved with the same values would hold (the defaults included).
    for got in saved:
        want = Fixture(tournament=tournament, pool_id=got.pool_id, stage=Fixture.Stage.POOL,
                       round_number=got.round_number, round_name=f"Round {got.round_number}", home_id=got.home_id,
                       away_id=got.away_id, slot=got.slot, venue=got.venue, kickoff=got.kickoff)
        assert model_to_dict(got, exclude=["id"]) == model_to_dict(want, exclude=["id"])
    assert saved[0].status == Fixture.Status.SCHEDULED and saved[0].code == "" and saved[0].bracket == ""
    assert all((f.kickoff is None) == (start_date is None) for f in saved)
    assert {f.venue for f in saved} == (set(venues) or {""})
    # Ids in pool, round and board order, as the fixtures were always made.
    assert [(f.pool.order, f.pool.name, f.round_number) for f in saved] == sorted(
        (f.pool.order, f.pool.name, f.round_number) for f in saved)
    assert_planner_agrees(tournament)


def test_generation_plans_around_timed_fixtures_of_other_stages(organiser):
    tournament = make_tournament("gen2", user=organiser, teams=("FRA", "NZL", "ITA", "URU"), fixtures=False)
    services.fixtures_generate_round_robin(tournament=tournament, start_date=date(2027, 3, 6),
                                           first_kickoff=time(10, 0), venues=["P1"])
    first = Fixture.objects.filter(tournament=tournament).order_by("pk").first()
    # A fixture of another stage stays booked on the only pitch at round 1's first kick-off.
    Fixture.objects.filter(tournament=tournament).update(stage=Fixture.Stage.KNOCKOUT)
    Fixture.objects.filter(tournament=tournament).exclude(pk=first.pk).delete()
    services.fixtures_generate_round_robin(tournament=tournament)
    assert Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).count() == 6
    assert_planner_agrees(tournament)
