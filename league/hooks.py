"""Hooks: how a higher layer reacts to league changes without the league importing it.

``league`` never imports ``matches`` or ``web``. When an app above it must do something after a league change
(``matches`` queues the qualification odds after a result), it registers a listener here, from its
``AppConfig.ready``; the league's services call :func:`results_changed`, and the listeners run once the
transaction commits (never for a change that is rolled back).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial

from django.db import transaction

logger = logging.getLogger(__name__)

ResultListener = Callable[[int], None]
_result_listeners: list[ResultListener] = []


def on_results_changed(listener: ResultListener) -> ResultListener:
    """Register ``listener(tournament_id)``, called after the commit of any change of a tournament's results."""
    if listener not in _result_listeners:
        _result_listeners.append(listener)
    return listener


def _notify(listeners: list[ResultListener], tournament_id: int) -> None:
    for listener in listeners:
        try:
            listener(tournament_id)
        except Exception:  # a listener (a broker that is down...) must never turn a saved result into an error
            logger.exception("result listener %r failed for tournament %s", listener, tournament_id)


def results_changed(tournament_id: int) -> None:
    """Called by the services that change results: the listeners run when the transaction commits."""
    if _result_listeners:
        transaction.on_commit(partial(_notify, list(_result_listeners), tournament_id))
