"""Round-robin fixtures are planned and written in bulk without model instances (issue 17: a 1,000-team league in
seconds): every column holds what the model would have saved, and the times are what the general planner of
``league.services.schedule`` gives the same fixtures."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest
from django.db import IntegrityError, connection, transaction
from django.forms.models import model_to_dict

from league import services
from league.errors import Conflict
from league.models import Fixture, Team
from league.services import fixtures as fixtures_service
from tests.league.api_factories import make_tournament
from tests.league.plans import plan_with_only

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


# -- PostgreSQL's path (issue 17: a 1,000-team league under 5 s): COPY, and the foreign keys checked once ----------

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY and row triggers are PostgreSQL's")

SAVED = ("pool", "stage", "bracket", "round_number", "round_name", "code", "home", "away", "home_source",
         "away_source", "kickoff", "venue", "slot", "status")


def generated(tournament) -> list[tuple]:
    """The pool fixtures as saved, in id order, without their ids."""
    return [tuple(model_to_dict(f, fields=SAVED)[name] for name in SAVED)
            for f in Fixture.objects.filter(tournament=tournament).order_by("pk")]


def regenerate(tournament) -> list[tuple]:
    services.fixtures_generate_round_robin(tournament=tournament, start_date=date(2027, 3, 6),
                                           first_kickoff=time(9, 0), venues=["Pitch\t1", "Back\\field"], replace=True)
    return generated(tournament)


def league_of(slug: str, teams: int, *, user=None, pools: int = 1):
    codes = [f"Q{i:03d}" for i in range(teams)]
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes])
    return make_tournament(slug, user=user, teams=tuple(codes), pools=pools, fixtures=False)


@on_postgresql
def test_copy_with_checks_once_writes_what_the_plain_inserts_write(organiser, monkeypatch):
    tournament = league_of("paths", 13, user=organiser, pools=2)
    fast = regenerate(tournament)
    monkeypatch.setattr(fixtures_service, "_row_checks_off", lambda cursor: None)  # COPY, checked row by row
    checked_per_row = regenerate(tournament)
    monkeypatch.setattr(fixtures_service, "_copy_supported", lambda: False)  # SQLite's plain INSERTs
    plain = regenerate(tournament)
    assert len(fast) == 6 * 5 // 2 + 7 * 6 // 2
    assert fast == checked_per_row == plain
    assert {row[SAVED.index("venue")] for row in fast} == {"Pitch 1", "Back\\field"}  # tab cleaned, backslash kept


@on_postgresql
def test_the_row_checks_are_back_on_after_the_copy(organiser):
    tournament = league_of("back-on", 4, user=organiser)
    with transaction.atomic(), connection.cursor() as cursor:
        services.fixtures_generate_round_robin(tournament=tournament)
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
        # A row written afterwards in the same transaction is still checked: its missing team is refused.
        with pytest.raises(IntegrityError), transaction.atomic():
            Fixture.objects.create(tournament=tournament, home_id=10**9, away=None)
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@on_postgresql
def test_a_missing_reference_is_refused_and_nothing_is_written(organiser):
    tournament = league_of("missing", 4, user=organiser)
    pool = tournament.pools.get()
    entry = tournament.entries.first()
    with pytest.raises(Conflict, match="changed while the fixtures were being made"), transaction.atomic():
        fixtures_service._rows_insert(
            Fixture, common={"tournament": tournament, "stage": Fixture.Stage.POOL}, columns=("pool", "home", "away"),
            rows=[(pool.pk, entry.pk, 10**9)])
    assert not Fixture.objects.filter(tournament=tournament).exists()


@on_postgresql
def test_a_timed_league_makes_each_kickoff_text_once(organiser, monkeypatch):
    """Each distinct kick-off is made COPY text once, not once per match: a match's kick-off, pitch and slot are
    together a different value for every timed match, and making half a million of them text one by one was most
    of a timed 1,000-team league's Python (about 4 s of it)."""
    tournament = league_of("timed-text", 40, user=organiser)
    made = []
    as_text = fixtures_service._copy_text
    monkeypatch.setattr(fixtures_service, "_copy_text", lambda value: made.append(value) or as_text(value))
    count = services.fixtures_generate_round_robin(tournament=tournament, start_date=date(2027, 3, 6),
                                                   venues=[f"Pitch {n}" for n in range(1, 9)])
    kickoffs = set(Fixture.objects.filter(tournament=tournament).values_list("kickoff", flat=True))
    assert count == 40 * 39 // 2 and len(kickoffs) == 39 * 3  # 20 matches a round on 8 pitches: 3 kick-offs
    assert sorted(value for value in made if isinstance(value, datetime)) == sorted(kickoffs)


def test_a_big_league_is_a_complete_round_robin(organiser, settings):
    """The path a 1,000-team league takes (one pool, COPY on PostgreSQL), at a size CI runs in seconds; the
    1,000-team figure is ``bench/fixture_generation.py``'s."""
    settings.MAX_TEAMS_PER_TOURNAMENT = 200
    tournament = league_of("big", 120, user=organiser)
    count = services.fixtures_generate_round_robin(tournament=tournament)
    pairs = list(Fixture.objects.filter(tournament=tournament).values_list("round_number", "home", "away"))
    assert count == len(pairs) == 120 * 119 // 2
    assert len({frozenset((home, away)) for _, home, away in pairs}) == count  # every pair once
    by_round: dict[int, list[int]] = {}
    for number, home, away in pairs:
        by_round.setdefault(number, []).extend((home, away))
    assert len(by_round) == 119 and all(len(set(teams)) == len(teams) == 120 for teams in by_round.values())


@on_postgresql
@pytest.mark.parametrize(("queryset", "index"), [
    (lambda t: Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT).order_by("round_number"),
     "fixture_later_stage"),
    (lambda t: Fixture.objects.filter(tournament=t, venue="Pitch 2").order_by("kickoff"), "fixture_pitch"),
    # A day's fixtures (``web.sections.build_day``) and the days that have fixtures (``web.views``).
    (lambda t: Fixture.objects.filter(tournament=t, kickoff__gte=datetime(2026, 5, 2, tzinfo=UTC),
                                      kickoff__lt=datetime(2026, 5, 3, tzinfo=UTC)).order_by("kickoff"),
     "fixture_day"),
    (lambda t: Fixture.objects.filter(tournament=t, kickoff__isnull=False).order_by("kickoff"), "fixture_day"),
])
def test_the_partial_indexes_serve_their_queries(organiser, queryset, index):
    """Pool fixtures stay out of the later stages' index, fixtures without a pitch out of the pitches' and those
    without a kick-off out of the days' (a big league generated without a plan writes none of them); the queries
    that need them still find them (``plan_with_only``: the plan shows whether the index can serve the query at
    all)."""
    tournament = make_tournament("idx", user=organiser, teams=("FRA", "NZL", "ITA", "URU"), pools=1)
    plan = plan_with_only(queryset(tournament), index)
    assert index in plan, plan
