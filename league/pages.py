"""Reads shaped for the league's own pages (printing, the schedule): the fixtures in playing order, grouped by
round or by day.

The public pages (``web``) are made of sections (``web.sections``) that each read only what they show.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from league import exports
from league.models import Fixture, Tournament


def fixtures(tournament: Tournament) -> list[Fixture]:
    """The tournament's fixtures in playing order, with what the pages print."""
    return list(exports.tournament_fixtures(tournament).order_by("round_number", "kickoff", "slot", "id"))


def group_rounds(items: list[Fixture]) -> list[dict[str, Any]]:
    """Fixtures grouped by round: pool rounds by number, knockout rounds by name, in playing order."""
    groups: OrderedDict[Any, dict[str, Any]] = OrderedDict()
    for f in items:
        if f.stage == Fixture.Stage.POOL:
            key: Any = ("pool", f.round_number)
            label = _("Round %(number)s") % {"number": f.round_number}
        else:
            key = (f.stage, f.round_number, f.round_name)
            label = f.round_name or _("Round %(number)s") % {"number": f.round_number}
        groups.setdefault(key, {"label": label, "fixtures": []})["fixtures"].append(f)
    return list(groups.values())


def group_days(items: list[Fixture]) -> list[dict[str, Any]]:
    """Fixtures grouped by the day they are played (fixtures without a date last)."""
    days: dict[Any, list[Fixture]] = {}
    for f in items:
        day = timezone.localtime(f.kickoff).date() if f.kickoff else None
        days.setdefault(day, []).append(f)
    ordered = sorted(days.items(), key=lambda item: (item[0] is None, item[0] or dt.date.min))
    return [{"day": day, "fixtures": sorted(group, key=lambda f: (f.kickoff or timezone.now(), f.slot, f.venue))}
            for day, group in ordered]
