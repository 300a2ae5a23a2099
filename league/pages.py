"""Reads shaped for the league's own pages (printing, the schedule): the fixtures in playing order, grouped by
round or by day.

The public pages (``web``) are made of sections (``web.sections``) that each read only what they show.
"""

from __future__ import annotations

import datetime as dt
from collections import OrderedDict
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import exports
from league.models import (
    TIE_BREAKER_CHOICES,
    AuditRecord,
    Entry,
    Fixture,
    ResultChange,
    ScheduleChange,
    Team,
    Tournament,
)
from league.templatetags.league_tags import side_name


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


# What the History page calls the keys of an audit record's values that are not fields of its model (the
# points rules' parts, the counts kept with a removal or a deletion); the rest take their model field's name.
_AUDIT_LABELS = {
    "win": gettext_lazy("Points for a win"), "draw": gettext_lazy("Points for a draw"),
    "loss": gettext_lazy("Points for a loss"), "bye": gettext_lazy("Points for a bye"),
    "try_bonus_threshold": gettext_lazy("Try bonus point"),
    "try_bonus_relative": gettext_lazy("Try bonus for more tries than the opponent"),
    "losing_bonus_margin": gettext_lazy("Losing bonus point for losing by at most (points)"),
    "all_wins_bonus": gettext_lazy("Bonus for winning every match (Grand Slam)"),
    "tie_breakers": gettext_lazy("Tie-breakers"), "team": gettext_lazy("Team"), "name": gettext_lazy("Name"),
    "pool": gettext_lazy("Pool"),
    "username": gettext_lazy("Organiser"), "fixtures_deleted": gettext_lazy("Fixtures deleted"),
    "fixtures": gettext_lazy("Fixtures"), "entries": gettext_lazy("Teams"),
    "walkovers": gettext_lazy("Walkovers"), "voided": gettext_lazy("Results voided"),
    "reason": gettext_lazy("Reason"),
}
_TIE_BREAKER_LABELS = dict(TIE_BREAKER_CHOICES)
# The model whose fields an audit action's values are (their verbose names and choices label them).
_AUDIT_MODELS = {AuditRecord.Action.TEAM_CHANGED: Team, AuditRecord.Action.SETTINGS_CHANGED: Tournament,
                 AuditRecord.Action.TOURNAMENT_DELETED: Tournament, AuditRecord.Action.ENTRY_REMOVED: Entry,
                 AuditRecord.Action.ENTRY_WITHDRAWN: Entry, AuditRecord.Action.ENTRIES_ARRANGED: Entry}


def _model_field(model: type[models.Model] | None, key: str) -> models.Field | None:
    try:
        field = model._meta.get_field(key) if model is not None else None
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, models.Field) else None


def _label(model: type[models.Model] | None, key: str) -> str:
    """A value's name as the organiser reads it: its model field's verbose name (translated), else a known
    part's label, else the key with spaces (never silently missing)."""
    if key in _AUDIT_LABELS:
        return str(_AUDIT_LABELS[key])
    field = _model_field(model, key)
    if field is not None:
        return capfirst(str(field.verbose_name))
    return capfirst(key.replace("_", " "))


def _value(value: Any, model: type[models.Model] | None = None, key: str = "") -> str:
    """A stored value as the organiser reads it: a choice's label, yes/no, the tie-breakers' names, a dash
    for nothing."""
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if key == "tie_breakers" and isinstance(value, list):
        return ", ".join(str(_TIE_BREAKER_LABELS.get(name, name)) for name in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(None, str(k))}: {_value(v, None, str(k))}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_value(v) for v in value)
    field = _model_field(model, key)
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    return str(value)


def _changes_text(old: Any, new: Any, model: type[models.Model] | None = None, prefix: str = "") -> str:
    """"Name: Greenfield → Greenfield High; Primary colour: #1F6F3F → #AA0000" from an audit record's old and
    new values, each named as on the forms (of a changed dict, such as the points rules, only the parts that
    changed: "Points rules, Points for a win: 4 → 3")."""
    if isinstance(old, dict) and isinstance(new, dict):
        parts = []
        for key in dict.fromkeys([*old, *new]):
            before, after = old.get(key), new.get(key)
            if isinstance(before, dict) and isinstance(after, dict):
                if before != after:
                    # A dict's parts (the points rules, one team's seed and pool) are not its model's fields.
                    parts.append(_changes_text(before, after, None, f"{prefix}{_label(model, key)}, "))
            elif before != after or not prefix:
                parts.append(_("%(name)s: %(old)s → %(new)s") % {
                    "name": f"{prefix}{_label(model, key)}", "old": _value(before, model, key),
                    "new": _value(after, model, key)})
        return "; ".join(parts)
    values = new if new is not None else old
    if isinstance(values, dict):
        return "; ".join(f"{_label(model, key)}: {_value(value, model, key)}" for key, value in values.items())
    return _value(values)


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
        details = f"{move.summary_text} ({move.reason})" if move.reason else move.summary_text
        rows.append({"at": move.changed_at, "who": move.changed_by,
                     "what": _("Schedule: %(action)s") % {"action": move.get_action_display()}, "details": details})
    for record in records:
        what = record.get_action_display()
        if record.team is not None and record.action == AuditRecord.Action.TEAM_CHANGED:
            what = f"{what}: {record.team.name}"
        rows.append({"at": record.changed_at, "who": record.changed_by, "what": what,
                     "details": _changes_text(record.old, record.new, _AUDIT_MODELS.get(record.action))})
    for change in results:
        fixture = change.fixture
        match = f"{side_name(fixture, 'home')} v {side_name(fixture, 'away')}"
        details = _("%(old)s → %(new)s") % {"old": _result_text(change.old), "new": _result_text(change.new)}
        if change.reason_text:
            details += f" ({change.reason_text})"
        rows.append({"at": change.changed_at, "who": change.changed_by,
                     "what": f"{_RESULT_ACTIONS.get(change.action, change.action)}: {match}", "details": details})
    rows.sort(key=lambda row: row["at"], reverse=True)
    return rows[:HISTORY_LIMIT]
