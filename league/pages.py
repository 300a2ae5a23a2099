"""Reads shaped for the league's own pages (printing, the schedule): the fixtures in playing order, grouped by
round or by day.

The public pages (``web``) are made of sections (``web.sections``) that each read only what they show.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import exports
from league import standings as standings_module
from league.models import AuditRecord, Entry, Fixture, ResultChange, ScheduleChange, Team, Tournament
from league.templatetags.league_tags import side_name


def fixtures(tournament: Tournament) -> list[Fixture]:
    """The tournament's fixtures in playing order, with what the pages print."""
    return list(exports.tournament_fixtures(tournament).order_by("round_number", "kickoff", "slot", "id"))


# How a table's note names each tie-breaker: "above Scotland on points difference".
_ABOVE_ON = {
    standings_module.HEAD_TO_HEAD_POINTS: gettext_lazy("above %(teams)s on table points in the matches between them"),
    standings_module.HEAD_TO_HEAD_POINTS_DIFFERENCE: gettext_lazy(
        "above %(teams)s on points difference in the matches between them"),
    standings_module.HEAD_TO_HEAD_TRIES_DIFFERENCE: gettext_lazy(
        "above %(teams)s on tries difference in the matches between them"),
    standings_module.WINS: gettext_lazy("above %(teams)s on matches won"),
    standings_module.POINTS_DIFFERENCE: gettext_lazy("above %(teams)s on points difference"),
    standings_module.TRIES_DIFFERENCE: gettext_lazy("above %(teams)s on tries difference"),
    standings_module.POINTS_FOR: gettext_lazy("above %(teams)s on points scored"),
    standings_module.TRIES_FOR: gettext_lazy("above %(teams)s on tries scored"),
    standings_module.WORLD_RANKING: gettext_lazy("above %(teams)s on World Rugby ranking"),
    standings_module.DRAWING_LOTS: gettext_lazy("above %(teams)s by drawing of lots"),
    standings_module.TEAM_CODE: gettext_lazy("above %(teams)s in team-code order (level on every criterion)"),
    standings_module.HEAD_TO_HEAD: gettext_lazy("head-to-head win over %(teams)s"),
    standings_module.PLACED_EQUALLY: gettext_lazy("placed equally with %(teams)s"),
}


def tie_break_text(decision: standings_module.TieBreak) -> str:
    """One tie-break decision in the visitor's language ("above Scotland on points difference")."""
    names = list(decision.names)
    teams = names[0] if len(names) == 1 else _("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]),
                                                                            "last": names[-1]}
    return str(_ABOVE_ON[decision.criterion]) % {"teams": teams}


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


def manage_entries(tournament: Tournament, user: Any) -> list[Entry]:
    """The tournament's entries for its Teams page (one query), each with ``has_results``, ``has_fixtures``,
    ``in_bracket`` (a knockout or Swiss fixture: withdraw rather than remove) and ``owned`` (``user`` owns the
    team: they may change it)."""
    mine = Fixture.objects.filter(Q(home=OuterRef("pk")) | Q(away=OuterRef("pk")))
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team", "pool")
                   .annotate(has_fixtures=Exists(mine), has_results=Exists(mine.filter(result__isnull=False)),
                             in_bracket=Exists(mine.filter(stage__in=[Fixture.Stage.KNOCKOUT, Fixture.Stage.SWISS])))
                   .order_by("seed", "team__name"))
    for entry in entries:
        entry.owned = entry.team.owner_id is not None and entry.team.owner_id == getattr(user, "pk", None)
    return entries


def own_teams(user: Any) -> list[Team]:
    """The teams ``user`` owns, each with ``entered``: the names of the tournaments it is in (two queries)."""
    teams = list(Team.objects.filter(owner=user).order_by("name", "code"))
    entered: dict[int, list[str]] = {}
    for team_id, name in Entry.objects.filter(team__in=teams).order_by("tournament__name").values_list(
            "team_id", "tournament__name"):
        entered.setdefault(team_id, []).append(name)
    for team in teams:
        team.entered = entered.get(team.pk, [])
    return teams


HISTORY_LIMIT = 300


def _value(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, dict | list):
        return ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) if isinstance(value, dict) else \
            ", ".join(str(v) for v in value)
    return str(value)


def _changes_text(old: Any, new: Any, prefix: str = "") -> str:
    """"name: Greenfield → Greenfield High; code: GF → GFH" from an audit record's old and new values (of a
    changed dict, such as the points rules, only the parts that changed: "points_rules.win: 4 → 3")."""
    if isinstance(old, dict) and isinstance(new, dict):
        parts = []
        for key in dict.fromkeys([*old, *new]):
            before, after = old.get(key), new.get(key)
            if isinstance(before, dict) and isinstance(after, dict):
                if before != after:
                    parts.append(_changes_text(before, after, f"{prefix}{key}."))
            elif before != after or not prefix:
                parts.append(f"{prefix}{key}: {_value(before)} → {_value(after)}")
        return "; ".join(parts)
    return _value(new if new is not None else old)


def _result_text(values: dict | None) -> str:
    if not values:
        return "—"
    text = f"{values.get('home_score')}–{values.get('away_score')}"
    if values.get("home_tries") or values.get("away_tries"):
        text += " " + _("(tries %(home)s–%(away)s)") % {"home": values.get("home_tries"),
                                                        "away": values.get("away_tries")}
    return text


_RESULT_ACTIONS = {"created": gettext_lazy("Result entered"), "updated": gettext_lazy("Result corrected"),
                   "deleted": gettext_lazy("Result deleted")}


def history(tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament's audit trail, newest first (at most ``HISTORY_LIMIT`` rows, three queries): its own
    changes, the changes of the teams entered in it, every result change and every schedule change (the
    three trails in one list: what the organiser reads). Each row: ``at``, ``who``, ``what`` and ``details``."""
    teams = Entry.objects.filter(tournament=tournament).values("team_id")
    records = (AuditRecord.objects.filter(Q(tournament=tournament) | Q(tournament__isnull=True, team__in=teams))
               .select_related("changed_by", "team").order_by("-changed_at", "-id")[:HISTORY_LIMIT])
    results = (ResultChange.objects.filter(fixture__tournament=tournament)
               .select_related("changed_by", "fixture__home__team", "fixture__away__team")
               .order_by("-changed_at", "-id")[:HISTORY_LIMIT])
    moves = (ScheduleChange.objects.filter(tournament=tournament).select_related("changed_by")
             .order_by("-changed_at", "-id")[:HISTORY_LIMIT])
    rows = []
    for move in moves:
        details = f"{move.summary} ({move.reason})" if move.reason else move.summary
        rows.append({"at": move.changed_at, "who": move.changed_by,
                     "what": _("Schedule: %(action)s") % {"action": move.get_action_display()}, "details": details})
    for record in records:
        what = record.get_action_display()
        if record.team is not None and record.action == AuditRecord.Action.TEAM_CHANGED:
            what = f"{what}: {record.team.name}"
        rows.append({"at": record.changed_at, "who": record.changed_by, "what": what,
                     "details": _changes_text(record.old, record.new)})
    for change in results:
        fixture = change.fixture
        match = f"{side_name(fixture, 'home')} v {side_name(fixture, 'away')}"
        details = _("%(old)s → %(new)s") % {"old": _result_text(change.old), "new": _result_text(change.new)}
        if change.reason:
            details += f" ({change.reason})"
        rows.append({"at": change.changed_at, "who": change.changed_by,
                     "what": f"{_RESULT_ACTIONS.get(change.action, change.action)}: {match}", "details": details})
    rows.sort(key=lambda row: row["at"], reverse=True)
    return rows[:HISTORY_LIMIT]
