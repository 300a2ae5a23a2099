"""The Celery tasks in eager mode (no worker): thin wrappers, retries, resume after a lost worker."""

import pytest
from django.db import OperationalError

from config.celery import app
from league.models import Result
from league.stored_texts import Coded
from matches import simulation, tasks
from matches.models import SimulationRun
from tests.matches.sim_helpers import champion, rwc_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    old = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


def test_tasks_are_acked_late_rejected_on_worker_lost_and_retried_on_database_errors():
    for task in (tasks.simulate_run, tasks.simulate_fixture, tasks.compute_odds):
        assert task.acks_late is True
        assert task.reject_on_worker_lost is True
        assert OperationalError in task.autoretry_for
        assert task.retry_backoff


def test_start_queues_on_commit_and_the_tasks_play_the_whole_tournament(eager, django_capture_on_commit_callbacks):
    tournament = rwc_tournament()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        run = simulation.simulation_start(tournament=tournament, stage="all", seed=21)
    assert callbacks  # the run is queued only once the transaction commits
    run.refresh_from_db()
    assert (run.status, run.done, run.total) == ("finished", 48, 48)
    assert champion(tournament) is not None


def test_a_redelivered_fixture_task_is_skipped(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks, "_send", lambda run_id: sent.extend)
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="pools", seed=2)
    fixture_id = simulation.ready_fixture_ids(run)[0]
    assert tasks.simulate_fixture.apply(args=(run.pk, fixture_id)).get() == "played"
    assert tasks.simulate_fixture.apply(args=(run.pk, fixture_id)).get() == "skipped"
    assert Result.objects.filter(fixture_id=fixture_id).count() == 1
    assert len(sent) == 39  # the other pool fixtures were handed out once, by the first delivery


def test_resume_hands_out_the_ready_fixtures_of_running_runs_again(monkeypatch):
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="pools", seed=2)
    simulation.run_queue_ready(run_id=run.pk)  # handed out, then the worker died with the messages
    sent = []
    monkeypatch.setattr(tasks.simulate_run, "delay", lambda run_id, again=False: sent.append((run_id, again)))
    tasks.resume_runs()
    assert sent == [(run.pk, True)]


def test_a_fixture_task_of_a_finished_or_failed_run_does_nothing(eager):
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="pools", seed=2)
    fixture_id = simulation.ready_fixture_ids(run)[0]
    simulation.run_fail(run_id=run.pk, note=Coded(SimulationRun.FIXTURE_FAILED, {"fixture": fixture_id,
                                                                                 "detail": "stopped by the test"}))
    assert SimulationRun.objects.get(pk=run.pk).status == "failed"
    assert tasks.simulate_fixture.apply(args=(run.pk, fixture_id)).get() == "stopped"
    assert not Result.objects.filter(fixture_id=fixture_id).exists()


def test_a_fixture_that_cannot_be_played_is_handed_back_and_a_crash_fails_the_run(monkeypatch):
    from league.models import Fixture

    monkeypatch.setattr(tasks, "_send", lambda run_id: [].extend)
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="all", seed=2)
    qf = Fixture.objects.get(tournament=tournament, code="QF1")
    simulation._set_queued(run, {qf.pk})
    assert tasks.simulate_fixture.apply(args=(run.pk, qf.pk)).get() == "not_ready"
    run.refresh_from_db()
    assert qf.pk not in simulation._queued(run)

    def crash(*args, **kwargs):
        raise RuntimeError("engine bug")

    monkeypatch.setattr(simulation, "play_fixture", crash)
    fixture_id = simulation.ready_fixture_ids(run)[0]
    with pytest.raises(RuntimeError):
        tasks.simulate_fixture.apply(args=(run.pk, fixture_id), throw=True).get()
    run.refresh_from_db()
    assert run.status == "failed" and "engine bug" in run.error_text and run.error_code == "fixture_failed"


def test_a_broker_that_is_down_fails_the_run_with_a_message(monkeypatch, django_capture_on_commit_callbacks):
    def down(*args, **kwargs):
        raise ConnectionRefusedError("Connection refused")

    monkeypatch.setattr(tasks.simulate_run, "delay", down)
    tournament = rwc_tournament()
    with django_capture_on_commit_callbacks(execute=True):
        run = simulation.simulation_start(tournament=tournament, stage="pools", seed=1)
    run.refresh_from_db()
    assert run.status == "failed" and "broker" in run.error_text and run.error_code == "not_queued"
