"""The Celery tasks, for the services that queue work (a simulation run, the odds after a result).

``matches.tasks`` calls the services, so the services cannot import it: each task registers itself here
when ``matches.tasks`` is imported (``MatchesConfig.ready`` imports it at start-up, as Celery's worker does),
and a service queues it with ``task("simulate_run").delay(...)``.
"""

from __future__ import annotations

from typing import Any

_tasks: dict[str, Any] = {}


def register(task: Any) -> Any:
    """Decorator for a Celery task: make it available to the services by its short name."""
    _tasks[task.name.rpartition(".")[2]] = task
    return task


def task(name: str) -> Any:
    """The registered Celery task ``name`` (``simulate_run``, ``simulate_fixture``, ``compute_odds``)."""
    return _tasks[name]
