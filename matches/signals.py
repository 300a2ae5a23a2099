"""After a result changes: queue the tournament's qualification odds (debounced, see ``matches.odds``)."""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from league.models import Fixture, Result

logger = logging.getLogger(__name__)


def _queue_odds(tournament_id: int) -> None:
    from matches.odds import odds_after_result

    try:
        odds_after_result(tournament_id)
    except Exception:  # a broker that is down must never turn a saved result into an error page
        logger.exception("could not queue the odds of tournament %s", tournament_id)


@receiver(post_save, sender=Result, dispatch_uid="matches-odds-after-result-save")
@receiver(post_delete, sender=Result, dispatch_uid="matches-odds-after-result-delete")
def result_changed(sender, instance: Result, **kwargs) -> None:
    """Once the result's transaction commits, queue the odds of its tournament (if switched on)."""
    if not getattr(settings, "ODDS_AFTER_RESULT", True):
        return
    try:
        tournament_id = instance.fixture.tournament_id
    except Fixture.DoesNotExist:  # the fixture itself is being deleted
        return
    transaction.on_commit(partial(_queue_odds, tournament_id))
