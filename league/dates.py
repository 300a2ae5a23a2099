"""Which day a moment falls on for a tournament's visitors: the one place that turns a kick-off into a local
date (the fixtures by day, their cache sections and the "now and next" box all ask here).

Days are the tournament's own (``Tournament.time_zone``), never the request's: a service that bumps a day's
cache token and the page that reads it must agree on the day even when no zone was activated (a Celery task).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone


def tournament_zone(tournament: Any = None) -> dt.tzinfo:
    """The time zone a tournament's pages show times in: its own, or the current one without a tournament."""
    if tournament is None:
        return timezone.get_current_timezone()
    return tournament.zone


def local_date(moment: dt.datetime | None, tournament: Any = None) -> dt.date | None:
    """The day ``moment`` falls on where the tournament is played (None for a kick-off still to be decided)."""
    if moment is None:
        return None
    return timezone.localtime(moment, tournament_zone(tournament)).date()


def day_bounds(day: dt.date, tournament: Any = None) -> tuple[dt.datetime, dt.datetime]:
    """The first moment of ``day`` and of the day after, where the tournament is played (for range queries)."""
    zone = tournament_zone(tournament)
    start = timezone.make_aware(dt.datetime.combine(day, dt.time.min), zone)
    end = timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min), zone)
    return start, end
