"""Celery tasks of simulation and odds: thin, they fetch by id and call the services.

Every task is acknowledged late and rejected (so requeued) when its worker is lost, and retried with
backoff on database connection errors. The services make a repeated delivery harmless: a fixture that
already has a result is skipped, and a run hands each ready fixture out once (see ``matches.simulation``).
When a worker starts it resumes the runs still going, so a tournament whose worker was killed finishes
on the next worker even with a broker that cannot redeliver (the file-system broker of the demo).
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import task_postrun, task_prerun, worker_ready
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import InterfaceError, OperationalError, close_old_connections
from kombu.exceptions import OperationalError as BrokerOperationalError
from redis.exceptions import RedisError

from league.stored_texts import Coded
from matches import odds, simulation, workers
from matches.models import SimulationRun

logger = logging.getLogger(__name__)

# Raised when a message cannot be sent: the broker is down or hangs.
BROKER_ERRORS = (BrokerOperationalError, RedisError, OSError)

RELIABLE = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 1,
    "retry_backoff_max": 30,
    "retry_jitter": True,
    "max_retries": 10,
}


def _send(run_id: int):
    def send(fixture_ids: list[int]) -> None:
        for fixture_id in fixture_ids:
            simulate_fixture.delay(run_id, fixture_id)

    return send


@workers.register
@shared_task(**RELIABLE)
def simulate_run(run_id: int, again: bool = False) -> int:
    """Start (or, with ``again``, resume) a run: queue every fixture of its scope that is ready."""
    ids = simulation.run_queue_ready(run_id=run_id, again=again, send=_send(run_id))
    simulation.run_update_progress(run_id=run_id)
    return len(ids)


@workers.register
@shared_task(**RELIABLE)
def simulate_fixture(run_id: int, fixture_id: int) -> str:
    """Play one fixture of a run, then queue the fixtures its result made ready (the next stage)."""
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None or run.status != SimulationRun.Status.RUNNING:
        return "stopped"
    try:
        outcome = simulation.fixture_simulate(fixture_id=fixture_id, run_seed=run.seed)
    except (OperationalError, InterfaceError):
        raise  # retried with backoff
    except ValidationError as exc:
        simulation.run_fail(run_id=run_id, note=Coded(SimulationRun.FIXTURE_FAILED, {
            "fixture": fixture_id, "detail": " ".join(exc.messages)[:1000]}))
        return "failed"
    except Exception as exc:
        # A bug must not leave the run "running" for ever: say so on the progress bar, then fail the task.
        simulation.run_fail(run_id=run_id, note=Coded(SimulationRun.FIXTURE_FAILED, {
            "fixture": fixture_id, "detail": repr(exc)[:1000]}))
        raise
    try:
        simulation.run_after_fixture(run_id=run_id, fixture_id=fixture_id, status=outcome.status, send=_send(run_id))
    except BROKER_ERRORS:
        # The result is recorded; the fixtures it made ready could not be queued (the broker is down). The run
        # keeps going: resume_stalled_runs hands them out once the broker is back.
        logger.warning("run %s: could not queue the next fixtures, the broker is down; they wait", run_id)
    return outcome.status


@workers.register
@shared_task(**RELIABLE)
def compute_odds(tournament_id: int, version: int | None = None, runs: int | None = None) -> str:
    """Recompute a tournament's qualification odds, unless a newer result came in (debounce by version)."""
    return odds.odds_refresh(tournament_id=tournament_id, version=version, runs=runs)


@workers.register
@shared_task(**RELIABLE)
def refresh_odds(tournament_id: int) -> str:
    """The one odds refresh of a burst of results: put off while results keep coming, then computed once."""
    return odds.odds_refresh_after_burst(tournament_id=tournament_id)


@workers.register
@shared_task
def resume_stalled_runs() -> int:
    """Periodic (celery beat): hand out again the ready fixtures of runs that have not moved for a while, whose
    messages were lost (Redis restarted, a worker died). A fixture played twice is recorded once."""
    stalled = simulation.stalled_runs(seconds=float(settings.SIMULATION_STALL_SECONDS))
    for run_id in stalled:
        simulate_run.delay(run_id, again=True)
    return len(stalled)


@workers.register
@shared_task
def odds_catch_up() -> int:
    """Periodic (celery beat): queue the odds that could not be queued after a result (the broker was down)."""
    stale = odds.tournaments_with_stale_odds()
    for tournament_id, version in stale:
        compute_odds.delay(tournament_id, version)
    return len(stale)


@task_prerun.connect
@task_postrun.connect
def _database_hygiene(task=None, **kwargs) -> None:
    """Around every task on a worker, as around every web request: close a connection that broke or outlived
    CONN_MAX_AGE (the settings' CELERY_DB_REUSE_MAX stops Celery closing every one, which costs a new
    PostgreSQL connection per task). Not for eager tasks: they run inside the caller's transaction."""
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()


@worker_ready.connect
def resume_runs(sender=None, **kwargs) -> None:
    """A worker that starts resumes the runs still going (their worker may have died)."""
    try:
        for run_id in simulation.runs_to_resume():
            simulate_run.delay(run_id, again=True)
    except Exception:  # the database may not be migrated yet: never stop the worker from starting
        logger.exception("could not resume simulation runs")
    finally:
        close_old_connections()
