"""The Celery tasks, for the services that queue work (a simulation run, the odds after a result, a large
fixture generation), and the broker's health as the services see it.

The tasks modules (``league.tasks``, ``matches.tasks``) call the services, so the services cannot import them:
each task registers itself here when its module is imported (the apps' ``ready`` import them at start-up, as
Celery's worker does), and a service queues it with ``task("simulate_run").delay(...)``.

Queueing is best-effort where the work can be done later (``queue``): with the broker down or hanging the
caller carries on (a result is still recorded), the failure is logged, and for the next
``CACHE_RETRY_SECONDS`` nothing more is tried from this process (the periodic tasks catch up). Work that must
start now asks :func:`broker_available` first and refuses with a clear message instead of half-starting.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import current_app
from django.conf import settings
from redis import Redis

logger = logging.getLogger(__name__)

_tasks: dict[str, Any] = {}
_down_until = [0.0]


def register(task: Any) -> Any:
    """Decorator for a Celery task: make it available to the services by its short name."""
    _tasks[task.name.rpartition(".")[2]] = task
    return task


def task(name: str) -> Any:
    """The registered Celery task ``name`` (``simulate_run``, ``simulate_fixture``, ``compute_odds``)."""
    return _tasks[name]


def _broker_marked_down() -> bool:
    return time.monotonic() < _down_until[0]


def _mark_broker_down(exc: Exception) -> None:
    if not _broker_marked_down():
        logger.warning("the workers' broker is unavailable (%s): queueing is skipped for %ss", exc,
                       settings.CACHE_RETRY_SECONDS)
    _down_until[0] = time.monotonic() + float(settings.CACHE_RETRY_SECONDS)


def queue(name: str, args: tuple = (), **options: Any) -> bool:
    """Queue task ``name`` if the broker takes it now; False (logged) when it is down or hanging. For work that
    a periodic task redoes later (the odds): the caller never fails because of the broker."""
    if _broker_marked_down() and not current_app.conf.task_always_eager:
        return False
    try:
        task(name).apply_async(args, **options)
    except Exception as exc:  # kombu's OperationalError, a socket timeout, redis' ConnectionError...
        _mark_broker_down(exc)
        return False
    return True


def broker_available() -> bool:
    """Whether the broker answers now (within its short timeouts): asked before starting work that needs it."""
    app = current_app
    if app.conf.task_always_eager:
        return True
    if _broker_marked_down():
        return False
    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    timeout = float(getattr(settings, "REDIS_TIMEOUT", 0.5)) * 4
    try:
        if url.startswith(("redis://", "rediss://")):
            # Connecting is not enough with a Redis that hangs (the kernel still accepts): ask it something, with
            # timeouts of our own whatever the transport's options.
            client = Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
            try:
                client.ping()
            finally:
                client.close()
        else:
            with app.connection_for_write() as connection:
                connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0.2, timeout=timeout)
    except Exception as exc:
        _mark_broker_down(exc)
        return False
    return True


def broker_reset() -> None:
    """Forget a past broker failure (tests)."""
    _down_until[0] = 0.0
