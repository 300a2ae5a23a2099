"""Reads shaped for the pages, shared by the league's views and the ``web`` pages above it.

Tables as dicts, fixtures grouped by round or by day, the bracket and the format's own table.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from league import exports, format_selectors, selectors
from league.formats import format_of
from league.models import Fixture, Tournament


def fixtures(tournament: Tournament) -> list[Fixture]:
    """The tournament's fixtures in playing order, with what the pages print."""
    return list(exports.tournament_fixtures(tournament).order_by("round_number", "kickoff", "slot", "id"))


def standings(tournament: Tournament) -> list[tuple[Any, list[dict[str, Any]]]]:
    """Every pool's table as (pool, rows of dicts with the standings keys plus ``name`` and ``difference``)."""
    tables = []
    for pool, rows in selectors.tournament_standings(tournament):
        dict_rows = []
        for row in rows:
            data = row.as_dict()
            data["name"] = getattr(row, "team_name", None) or data["team"]
            data["difference"] = data["points_for"] - data["points_against"]
            dict_rows.append(data)
        tables.append((pool, dict_rows))
    return tables


def format_table(tournament: Tournament) -> tuple[str, list[dict[str, Any]]]:
    """The format's own table (``("swiss", rows)``, ``("solo", rows)``), or ``("", [])`` for pool tables."""
    return format_of(tournament).table(tournament)


def bracket(tournament: Tournament) -> dict[str, Any] | None:
    """The knockout brackets (``format_selectors.bracket_for_tournament``), or None without any."""
    data = format_selectors.bracket_for_tournament(tournament)
    return data if any(b["rounds"] for b in data.get("brackets", [])) else None


def bracket_html(tournament: Tournament, data: dict[str, Any] | None) -> str:
    """The knockout bracket drawn as HTML ("" without one)."""
    if data is None:
        return ""
    return render_to_string("league/_bracket_view.html", {"bracket": data, "tournament": tournament})


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
