"""One odds refresh per burst of results (issue 17): a simulation's 48 results queue one task, not 48."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from league.models import Fixture, Tournament
from matches import odds, simulation, tasks
from matches.models import QualificationOdds
from tests.matches.sim_helpers import rwc_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(settings, monkeypatch):
    settings.ODDS_AFTER_RESULT = True
    settings.ODDS_COALESCE = True
    settings.ODDS_RUNS = 200
    settings.ODDS_MODEL_MATCHES = 20
    cache.clear()
    calls: list[tuple] = []
    monkeypatch.setattr(tasks.refresh_odds, "apply_async", lambda args, countdown: calls.append((args, countdown)))
    monkeypatch.setattr(tasks.compute_odds, "apply_async", lambda *a, **k: pytest.fail("one task per version"))
    return calls


def test_a_burst_of_results_queues_one_refresh(queued, django_capture_on_commit_callbacks):
    tournament = rwc_tournament()
    for fixture in Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk")[:6]:
        with django_capture_on_commit_callbacks(execute=True):
            simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=1)
    assert queued == [((tournament.pk,), 3.0)]


def test_the_refresh_waits_for_the_burst_to_end_then_computes_once(queued, settings):
    tournament = rwc_tournament()
    odds.odds_after_result(tournament.pk)
    assert odds.odds_refresh_after_burst(tournament_id=tournament.pk) == "deferred"  # results may still come
    assert len(queued) == 2 and 0 < queued[-1][1] <= 3
    settings.ODDS_DELAY = 0  # the burst is over
    assert odds.odds_refresh_after_burst(tournament_id=tournament.pk) == "computed"
    assert QualificationOdds.objects.get(tournament=tournament).version == tournament.version
    odds.odds_after_result(tournament.pk)  # a later result starts a new burst: one more refresh
    assert len(queued) == 3


def test_a_long_burst_still_refreshes_after_the_longest_wait(queued, settings):
    tournament = rwc_tournament()
    odds.odds_after_result(tournament.pk)
    settings.ODDS_MAX_WAIT = 0  # the burst began longer ago than the longest wait
    odds.odds_after_result(tournament.pk)  # ... and results are still coming
    assert odds.odds_refresh_after_burst(tournament_id=tournament.pk) == "computed"
    assert Tournament.objects.get(pk=tournament.pk).odds.runs == 200
