"""The site's own words in the audit trails, stored as a code and parameters, and shown in the reader's language.

A reason, a summary or a note written as a sentence is stored in the language active when it was saved, and
a French organiser then reads English (issue 14). So the services store a **code** (``live_full_time``) and
its **parameters** (``{"team": "Kenya"}``); the pages, the API and the exports render the text when they show
it, in the language of whoever reads it. What a person typed (an organiser's reason) is stored as typed.

A row saved before the codes has no code: its stored text is shown as it is (the data migrations turned the
known sentences into codes; anything else, e.g. a sentence in French, stays as stored).

The parameters hold data, not words: names, numbers, ISO dates. A kick-off is stored as ``when`` (ISO
date-time, ``None`` for "to be decided") with the zone ``tz``, and shown as the pages show kick-offs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, NamedTuple

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league import standings as standings_module
from league.timezones import short_label


class Coded(NamedTuple):
    """A text of the site's own, as stored: its code, its parameters and, when an organiser also typed a
    reason, their words (``typed``, shown after the site's text)."""

    code: str
    params: Mapping[str, Any] = {}
    typed: str = ""


# Why a result changed (``ResultChange.reason_code``).
RESULT_REASONS = {
    "live_full_time": gettext_lazy("Full time of the live score."),
    "live_confirmed": gettext_lazy("Live score confirmed by an organiser."),
    "csv_import": gettext_lazy("CSV import"),
    "simulated_match": gettext_lazy("Simulated match %(match)s"),
    "simulated_score": gettext_lazy("Simulated score (seed %(seed)s)"),
    "online_match": gettext_lazy("Online match %(match)s"),
    "online_resigned": gettext_lazy("Online match %(match)s: %(side)s resigned"),
    "online_draw_agreed": gettext_lazy("Online match %(match)s: %(side)s agreed a draw with the other side"),
    "bracket_reset": gettext_lazy("Reset: an earlier result was corrected."),
    "reset_from": gettext_lazy("Reset from %(fixture)s by the organiser."),
    "withdrew": gettext_lazy("%(team)s withdrew."),
    "withdrew_voided": gettext_lazy("%(team)s withdrew. Played results voided."),
    "demo": gettext_lazy("Demo data"),
}

# What a change of the timetable did (``ScheduleChange.summary_code``).
SCHEDULE_SUMMARIES = {
    "retimed": gettext_lazy("%(count)s fixtures scheduled from %(when)s."),
    "retimed_no_day": gettext_lazy("%(count)s fixtures given pitches (no first day yet)."),
    "moved": gettext_lazy("%(fixture)s moved to %(when)s%(where)s."),
    "pushed": gettext_lazy("%(count)s fixtures from %(time)s on %(day)s moved by %(minutes)s minutes."),
    "swapped": gettext_lazy("%(first)s and %(second)s swapped."),
    "zone": gettext_lazy("Time zone changed from %(old)s to %(new)s; kick-offs keep their local times."),
    "event_scheduled": gettext_lazy("The day scheduled: %(count)s fixtures from %(when)s."),
    "event_pushed": gettext_lazy("The day: %(count)s fixtures from %(time)s on %(day)s moved by %(minutes)s "
                                 "minutes."),
    "event_day_moved": gettext_lazy("The event's day moved from %(old)s to %(new)s."),
}

# What happened to an event's registrations (``RegistrationChange.summary_code``). ``player`` is "#3 Sam".
REGISTRATION_SUMMARIES = {
    "registered_place": gettext_lazy("%(player)s registered (holds a place)."),
    "registered_waiting": gettext_lazy("%(player)s registered (on the waiting list)."),
    "moved_up_more_places": gettext_lazy("%(player)s moved up from the waiting list (more places)."),
    "moved_up_after_removal": gettext_lazy("%(player)s moved up from the waiting list (%(removed)s removed)."),
    "settings": gettext_lazy("Registration: %(what)s."),  # before the changes were stored as values
    "settings_changed": gettext_lazy("Registration: %(changes)s."),
    "edited": gettext_lazy("%(player)s edited: %(fields)s."),
    "approved": gettext_lazy("%(player)s approved."),
    "removed": gettext_lazy("%(player)s removed."),
    "drawn": gettext_lazy("%(count)s players drawn in %(division)s (%(method)s)."),
    "drawn_seed": gettext_lazy("%(count)s players drawn in %(division)s (%(method)s, seed %(seed)s)."),
    "pools_filled": gettext_lazy("The players of %(division)s put into %(count)s pools (%(order)s)."),
    "dice_thrown": gettext_lazy("%(count)s players threw the dice in %(division)s (seed %(seed)s); they pick in "
                                "turn."),
    "picked": gettext_lazy("%(player)s picked %(team)s in %(division)s (turn %(turn)s of %(count)s)."),
}

# Parameters stored as a code of their own, shown by their label.
_PARAM_LABELS = {
    "side": {"home": gettext_lazy("home"), "away": gettext_lazy("away")},
    "method": {"choice": gettext_lazy("Players' choice"), "random": gettext_lazy("Random draw"),
               "dice": gettext_lazy("Dice throws")},
    "order": {"seeded": gettext_lazy("seeded draw"), "draw_order": gettext_lazy("in the order drawn")},
}


# A registration setting's change, [field, old, new] in ``changes``: "closed", "places 20 → 24".
_SETTING_CHANGES = {
    ("registration_open", True): gettext_lazy("opened"),
    ("registration_open", False): gettext_lazy("closed"),
    ("hide_surnames", True): gettext_lazy("surnames hidden"),
    ("hide_surnames", False): gettext_lazy("surnames shown"),
}


def _setting_change(field: str, old: Any, new: Any) -> str:
    text = _SETTING_CHANGES.get((field, new))
    if text is not None:
        return str(text)
    if field == "registration_cap":
        unlimited = _("no limit")
        return _("places %(old)s → %(new)s") % {"old": unlimited if old is None else old,
                                                 "new": unlimited if new is None else new}
    return f"{field} {old} → {new}"


def _param(key: str, value: Any, params: Mapping[str, Any]) -> Any:
    if key == "changes" and isinstance(value, list):
        return ", ".join(_setting_change(*change) for change in value)
    if key == "when":
        if value is None:
            return _("a time to be decided")
        try:
            return short_label(dt.datetime.fromisoformat(value), params.get("tz") or "UTC")
        except (TypeError, ValueError):
            return value  # a label converted from an old row: shown as it was written
    labels = _PARAM_LABELS.get(key)
    if labels is not None and value in labels:
        return str(labels[value])
    return value


def render(texts: Mapping[str, Any], code: str, params: Mapping[str, Any] | None, stored: str = "") -> str:
    """The text of ``code`` in the active language, filled with ``params``; ``stored`` (the text saved before
    the codes) when there is no code, or one this version does not know (never an error on a page)."""
    template = texts.get(code) if code else None
    if template is None:
        return stored
    params = params or {}
    try:
        return str(template) % {key: _param(key, value, params) for key, value in params.items()}
    except (KeyError, TypeError, ValueError):
        return stored or str(template)


def with_typed(text: str, typed: str) -> str:
    """The site's text followed by what the organiser typed, or whichever of them there is."""
    if text and typed:
        return _("%(text)s — %(reason)s") % {"text": text, "reason": typed}
    return text or typed


def reason_fields(reason: str | Coded | None) -> dict[str, Any]:
    """The ``ResultChange`` fields of a reason: the organiser's words in ``reason``, the site's as a code."""
    if isinstance(reason, Coded):
        return {"reason": reason.typed[:200], "reason_code": reason.code, "reason_params": dict(reason.params)}
    return {"reason": (reason or "")[:200], "reason_code": "", "reason_params": {}}


# How a table's note names each tie-breaker: "above Scotland on points difference".
TIE_BREAK_TEXTS = {
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
    """One tie-break decision in the reader's language ("above Scotland on points difference").

    The standings (cached or not) keep the decision as a criterion and the teams' names; the words are made
    here, when a page, the API or an export shows them."""
    names = list(decision.names)
    teams = names[0] if len(names) == 1 else _("%(some)s and %(last)s") % {"some": ", ".join(names[:-1]),
                                                                            "last": names[-1]}
    return str(TIE_BREAK_TEXTS[decision.criterion]) % {"teams": teams}


def tie_break_explanation(row: standings_module.StandingRow) -> str:
    """A row's tie-break decisions in the reader's language, "; "-separated ("" when none)."""
    return "; ".join(tie_break_text(decision) for decision in row.tie_breaks)
