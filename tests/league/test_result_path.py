"""A result in constant time (issue 17): recording, correcting or deleting one result runs a fixed, small number
of queries whatever the size of the tournament, and advancement follows only the path the result changes.

The incremental advancement (``league.advancement.after_result_change``) is checked against the full derivation
(``league.advancement.rederive``) on random tournaments played in random order, with corrections, deletions and
withdrawals: after every change, deriving everything again finds nothing left to change.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase

from league import advancement, services
from league.errors import DomainError
from league.models import Entry, Fixture, Result, Team
from league.nations import RWC2023_CODES
from league.services import tournament_create_from_preset as preset_run

# The bound of the issue: recording or correcting one result, whatever the tournament's size.
RESULT_QUERIES = 12


def _teams(count: int, prefix: str) -> list[str]:
    """``count`` team codes: the nations first, then made-up club sides. Any that is missing is made: these tests
    run outside a test transaction, after others (the browser tests) have emptied the tables of the migrations'
    data."""
    codes = list(RWC2023_CODES[:count])
    codes += [f"{prefix}{i:03d}" for i in range(count - len(codes))]
    existing = set(Team.objects.filter(code__in=codes).values_list("code", flat=True))
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes if code not in existing])
    return codes


def _score(home_wins: bool) -> dict:
    return ({"home_score": 24, "away_score": 10, "home_tries": 3, "away_tries": 1} if home_wins else
            {"home_score": 10, "away_score": 24, "home_tries": 1, "away_tries": 3})


def _queries(func) -> list[str]:
    """The SQL statements ``func`` runs outside any test transaction, as in production; SQLite's explicit BEGIN
    (IMMEDIATE) is left out (PostgreSQL's is implicit and never captured)."""
    with CaptureQueriesContext(connection) as captured:
        func()
    return [q["sql"] for q in captured.captured_queries if q["sql"] not in ("BEGIN", "BEGIN IMMEDIATE")]


def _fill_pools_but_one(tournament) -> Fixture:
    """Results for every pool fixture but the last one of pool A, which is returned."""
    fixtures = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).order_by("pool__name",
                                                                                                  "pk"))
    last = next(f for f in reversed(fixtures) if f.pool.name == "A")
    Result.objects.bulk_create([Result(fixture=f, **_score(i % 3 != 0)) for i, f in enumerate(fixtures) if f != last])
    Fixture.objects.filter(pk__in=[f.pk for f in fixtures if f != last]).update(status=Fixture.Status.PLAYED)
    advancement.rederive(tournament)  # the other pools' slots, as their results would have filled them
    return last


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("teams", [6, 120])
def test_a_league_result_costs_the_same_queries_whatever_the_size(teams):
    league = preset_run("league", name="League", slug=f"league-{teams}", teams=_teams(teams, "L"))
    fixture = Fixture.objects.filter(tournament=league).order_by("pk").first()
    record = _queries(lambda: services.result_record(fixture=fixture, **_score(True)))
    correct = _queries(lambda: services.result_correct(fixture=fixture, **_score(False), reason="typo"))
    delete = _queries(lambda: services.result_delete(fixture=fixture))
    # lock, result, audit, fixture, version, knockout slots fed by the pool, anything left to play (finishing)
    assert len(record) <= 8, record
    assert len(correct) <= 8, correct
    assert len(delete) <= 8, delete
    assert not Result.objects.filter(fixture=fixture).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("pools, per_pool", [(2, 4), (8, 6)])
def test_the_result_that_completes_a_pool_fills_the_knockout_in_the_same_bound(pools, per_pool):
    codes = _teams(pools * per_pool, "P")
    tournament = preset_run("cup_plate", name="Festival", slug=f"festival-{pools}", teams=codes, pools=pools)
    last = _fill_pools_but_one(tournament)
    sql = _queries(lambda: services.result_record(fixture=last, **_score(True)))
    assert len(sql) <= RESULT_QUERIES, "\n".join(sql)
    filled = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT,
                                    home_source__startswith="pool:A:", home__isnull=False)
    assert filled.exists()
    assert advancement.rederive(tournament) == []  # the full derivation agrees: nothing left to fill


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("teams", [4, 64])
def test_a_knockout_result_and_its_correction_touch_only_their_path(teams):
    tournament = preset_run("single_elimination", name="Knockout", slug=f"ko-{teams}", teams=_teams(teams, "K"))
    first = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT).order_by(
        "round_number", "slot").first()
    record = _queries(lambda: services.result_record(fixture=first, **_score(True)))
    assert len(record) <= RESULT_QUERIES, "\n".join(record)
    # One UPDATE of a fixture's teams: the next match's, not the whole bracket's.
    assert sum(1 for sql in record if sql.startswith('UPDATE "league_fixture" SET "home_id"')) == 1
    nxt = Fixture.objects.get(tournament=tournament, home_source=f"winner:{first.code}")
    assert nxt.home_id == first.home_id
    correct = _queries(lambda: services.result_correct(fixture=first, **_score(False), reason="wrong way round"))
    assert len(correct) <= RESULT_QUERIES, "\n".join(correct)
    nxt.refresh_from_db()
    assert nxt.home_id == first.away_id


@pytest.mark.django_db(transaction=True)
def test_a_correction_that_resets_later_rounds_follows_the_path_down():
    tournament = preset_run("single_elimination", name="Eight", slug="eight", teams=_teams(8, "E"))
    for _ in range(3):
        for fixture in Fixture.objects.filter(tournament=tournament, result__isnull=True, home__isnull=False,
                                              away__isnull=False):
            services.result_record(fixture=fixture, **_score(True))
    qf1 = Fixture.objects.get(tournament=tournament, code="QF1")
    tournament.refresh_from_db()
    services.tournament_reopen(tournament=tournament)  # the final finished it: finished is final until reopened
    with pytest.raises(DomainError, match="already been played"):
        services.result_correct(fixture=qf1, **_score(False))
    services.result_correct(fixture=qf1, **_score(False), reset_later_rounds=True)
    sf = Fixture.objects.get(tournament=tournament, home_source="winner:QF1")
    final = Fixture.objects.get(tournament=tournament, code="F")
    assert sf.home_id == qf1.away_id and not Result.objects.filter(fixture=sf).exists()
    assert not Result.objects.filter(fixture=final).exists() and final.home_id is None
    assert advancement.rederive(tournament) == []


class IncrementalAdvancementAgreesWithTheFullDerivation(TestCase):
    """Any order of results, corrections, deletions and withdrawals: after each, nothing is left to derive."""

    @hsettings(max_examples=40, deadline=None)
    @given(preset=st.sampled_from(["rwc2023", "pools_knockout", "single_elimination", "cup_plate"]),
           coin=st.integers(0, 2**32), steps=st.integers(10, 70))
    def test_after_every_change_rederive_finds_nothing(self, preset, coin, steps):
        rng = random.Random(coin)
        options = {} if preset == "rwc2023" else {"teams": list(RWC2023_CODES[:rng.randint(4, 12)])}
        if preset in ("pools_knockout", "cup_plate"):
            options["pools"] = 2
        tournament = preset_run(preset, name="P", slug=f"p-{coin}", **options)
        for _ in range(steps):
            fixtures = list(Fixture.objects.filter(tournament=tournament).select_related("result"))
            ready = [f for f in fixtures if f.home_id and f.away_id and advancement.result_of(f) is None]
            played = [f for f in fixtures if advancement.result_of(f) is not None]
            roll = rng.random()
            try:
                if roll < 0.05:
                    entry = rng.choice(list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True)))
                    services.entry_withdraw(entry=entry)
                elif roll < 0.2 and played:
                    services.result_delete(fixture=rng.choice(played))
                elif roll < 0.35 and played:
                    services.result_correct(fixture=rng.choice(played), **_score(rng.random() < 0.5),
                                            reset_later_rounds=rng.random() < 0.7)
                elif ready:
                    services.result_record(fixture=rng.choice(ready), **_score(rng.random() < 0.5))
                else:
                    break
            except DomainError:
                pass  # refused (a played match downstream): nothing changed, which the check below confirms
            with advancement.resets_allowed():
                self.assertEqual(advancement.rederive(tournament), [])
