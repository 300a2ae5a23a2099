"""Celery tasks of the league: thin, they call the services (a large fixture generation)."""

from __future__ import annotations

from celery import shared_task

from league import queue, services


@queue.register
@shared_task(acks_late=True, reject_on_worker_lost=True)
def fixture_job_run(job_id: int) -> str:
    """Generate a tournament's fixtures on a worker (``services.fixture_job_run``)."""
    job = services.fixture_job_run(job_id=job_id)
    return job.status if job is not None else "gone"
