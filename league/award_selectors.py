"""The prize-giving of an event: each division's champion and runner-up, and the awards the results across the
event decide (most tries, top points scorer, best losing side, top fundraiser). Read at the time it is shown:
a corrected result changes the awards.

Ties are shared and said (``shared``). An award nobody has earned yet (no results) is left out. The biggest
comeback needs to know how the score went: only matches scored live (``ScoreEvent``: every score in order)
tell it, so it is awarded from those alone, and left out with its reason when none was scored live (a typed or
imported result keeps only the final score). Names are public names
(``registration_selectors.public_name``): a minor's surname and any contact never appear.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import get_spec
from league import format_selectors
from league.event_selectors import event_divisions
from league.formats import format_of
from league.fundraising_selectors import (
    SideRecord,
    event_donations,
    fundraising_by_registration,
    pledge_rows,
    result_rows,
    side_records,
    winner_of,
)
from league.models import Entry, Event, Registration, ScoreEvent, Tournament
from league.registration_selectors import public_name

COMEBACK_REASON = gettext_lazy(
    "Biggest comeback is not awarded: no match was scored live (or its result was changed since), and a typed-in "
    "result keeps only the final score, not how the score went.")
NO_COMEBACK = gettext_lazy("Biggest comeback is not awarded: in the matches scored live, no winner was ever behind.")
# Awards decided by the results across the event, in the order they are given.
AWARD_TITLES: dict[str, Any] = {
    "champion": gettext_lazy("Champion"),
    "runner_up": gettext_lazy("Runner-up"),
    "most_tries": gettext_lazy("Most tries"),
    "top_points": gettext_lazy("Top points scorer of the evening"),
    "best_losing_side": gettext_lazy("Best losing side"),
    "biggest_comeback": gettext_lazy("Biggest comeback"),
    "top_fundraiser": gettext_lazy("Top fundraiser"),
}


def _side(event: Event, entry: Entry, registration: Registration | None) -> dict[str, Any]:
    """An entry as a certificate names it: the player's public name (if a registered player plays it) and the
    side (nation or team) and division."""
    side = entry.team.name
    if registration is not None:
        name = public_name(registration, event, nation=side)
    else:
        name = " ".join(entry.player_name.split()) or side
    return {"name": name, "side": side if name != side else "", "division": entry.tournament.name,
            "entry_id": entry.pk, "colour": entry.team.primary_colour}


def _best(records: dict[int, SideRecord], value: Callable[[SideRecord], int]) -> tuple[list[int], int]:
    """The entries with the highest positive ``value`` (all of them when tied), and that value."""
    top = max((value(r) for r in records.values()), default=0)
    if top <= 0:
        return [], 0
    return sorted(pk for pk, r in records.items() if value(r) == top), top


def _award(key: str, winners: list[dict[str, Any]], detail: str) -> dict[str, Any]:
    return {"key": key, "title": str(AWARD_TITLES[key]), "winners": winners, "shared": len(winners) > 1,
            "detail": detail}


def _division_awards(tournament: Tournament, sides: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The champion and runner-up of a division once decided: its final played, or the division finished."""
    fmt = format_of(tournament)
    honours = format_selectors.tournament_honours(tournament, lambda: fmt.table(tournament))
    finished = tournament.status == Tournament.Status.FINISHED
    found = []
    for honour in honours:
        title = honour["title"]
        decided = finished or bool(honour.get("bracket"))
        if title == "winner" and finished:
            title = "champion"
        if title not in ("champion", "runner_up") or not decided:
            continue
        side = sides.get(honour.get("entry_id") or 0)
        if side is None:
            continue
        award = _award(title, [side], tournament.name)
        award["division"] = tournament.name
        found.append(award)
    # A Swiss or solo table may have more than one leader: one champion award, shared.
    merged: dict[str, dict[str, Any]] = {}
    for award in found:
        if award["key"] in merged:
            merged[award["key"]]["winners"] += award["winners"]
            merged[award["key"]]["shared"] = True
        else:
            merged[award["key"]] = award
    return list(merged.values())


def event_awards(event: Event, *, shown: list[Tournament] | None = None) -> dict[str, Any]:
    """The prize-giving: ``divisions`` (each division's champion and runner-up), ``awards`` (across the event),
    ``not_awarded`` (the awards left out and why). A fixed number of queries per division, whatever the number
    of results, pledges or donations."""
    divisions = [d.tournament for d in event_divisions(event)]
    if shown is not None:
        ids = {t.pk for t in shown}
        divisions = [t for t in divisions if t.pk in ids]
    entries = {e.pk: e for e in Entry.objects.filter(tournament__division__event=event)
               .select_related("team", "tournament")}
    registrations = {r.entry_id: r for r in Registration.objects.filter(event=event, entry__isnull=False)
                     .exclude(status=Registration.Status.REMOVED)}
    sides = {pk: _side(event, entry, registrations.get(pk)) for pk, entry in entries.items()}
    division_ids = {t.pk for t in divisions}
    rows = [row for row in result_rows(event) if row["tournament_id"] in division_ids]
    records = {pk: r for pk, r in side_records(rows).items() if pk in entries}

    division_rows = []
    for tournament in divisions:
        division_rows.append({"tournament": tournament, "awards": _division_awards(tournament, sides)})

    awards = []
    tries, most = _best(records, lambda r: r.tries)
    if tries:
        awards.append(_award("most_tries", [sides[pk] for pk in tries],
                             _("%(count)s tries") % {"count": most}))
    points, top = _best(records, lambda r: r.points)
    if points:
        awards.append(_award("top_points", [sides[pk] for pk in points],
                             _("%(count)s points") % {"count": top}))
    losses = [(margin, pk, bonus) for pk, r in records.items() for margin, _fixture, bonus in r.losses
              if margin > 0]
    if losses:
        closest = min(margin for margin, _pk, _bonus in losses)
        losers = sorted({pk for margin, pk, _bonus in losses if margin == closest})
        bonus = any(b for margin, _pk, b in losses if margin == closest)
        detail = _("lost by %(margin)s") % {"margin": closest}
        if bonus:
            detail += " · " + _("a losing bonus point")
        awards.append(_award("best_losing_side", [sides[pk] for pk in losers], detail))

    comeback, not_awarded = _comeback(rows)
    if comeback is not None:
        deficit, came_back = comeback
        awards.append(_award("biggest_comeback", [sides[pk] for pk in came_back if pk in sides],
                             _("won from %(points)s points down") % {"points": deficit}))

    pledges = pledge_rows(event)
    raised = fundraising_by_registration(event, pledges, event_donations(event))
    best = max(raised.values(), default=Decimal(0))
    if best > 0:
        by_pk = {r.pk: r for r in Registration.objects.filter(pk__in=[pk for pk, v in raised.items() if v == best])
                 .select_related("entry__team", "entry__tournament")}
        winners = []
        for pk in sorted(by_pk):
            reg = by_pk[pk]
            if reg.entry is not None:
                winners.append(_side(event, reg.entry, reg))
            else:
                winners.append({"name": public_name(reg, event), "side": "", "division": "",
                                "entry_id": None, "colour": ""})
        # No amount: what one person raised is the organisers' to see (the public sees the event's total).
        awards.append(_award("top_fundraiser", winners, ""))
    return {"divisions": division_rows, "awards": awards, "not_awarded": not_awarded}


def _comeback(rows: list[dict[str, Any]]) -> tuple[tuple[int, list[int]] | None, list[str]]:
    """The biggest deficit a winner came back from, and who, from the matches scored live whose score events add
    up to their result (a result corrected since is not trusted): ((points, [entry ids]) or None, reasons left
    out). One query."""
    by_fixture = {row["id"]: row for row in rows}
    events: dict[int, list[tuple[int, str]]] = {}
    rulesets: dict[int, str] = {}
    for fixture_id, side, code, ruleset in (ScoreEvent.objects.filter(
            fixture_id__in=list(by_fixture), kind=ScoreEvent.Kind.SCORE, undone_by__isnull=True)
            .order_by("fixture_id", "seq").values_list("fixture_id", "side", "code", "fixture__tournament__ruleset")):
        events.setdefault(fixture_id, []).append((side or 0, code))
        rulesets[fixture_id] = ruleset
    if not events:
        return None, [str(COMEBACK_REASON)]
    best, winners, trusted = 0, set(), 0
    for fixture_id, scored in events.items():
        row = by_fixture[fixture_id]
        winner = winner_of(row)
        if winner is None:
            continue
        scoring = get_spec(rulesets[fixture_id]).scoring
        running, deficit = [0, 0], 0
        for side, code in scored:
            found = scoring.event(code)
            running[side] += found.points if found is not None else 0
            lead = running[0] - running[1] if winner == row["home_id"] else running[1] - running[0]
            deficit = max(deficit, -lead)
        if (running[0], running[1]) != (row["result__home_score"], row["result__away_score"]):
            continue  # the result was changed after the live score: how it went is not known
        trusted += 1
        if deficit > best:
            best, winners = deficit, {winner}
        elif deficit == best and deficit > 0:
            winners.add(winner)
    if not trusted:
        return None, [str(COMEBACK_REASON)]
    if best == 0:
        return None, [str(NO_COMEBACK)]
    return (best, sorted(winners)), []


def certificates(event: Event, prizes: dict[str, Any]) -> list[dict[str, Any]]:
    """One certificate per winner of every award (a shared award gives each winner one)."""
    found = []
    for division in prizes["divisions"]:
        for award in division["awards"]:
            for winner in award["winners"]:
                found.append({**winner, "award": award["title"], "key": award["key"],
                              "division": division["tournament"].name, "shared": award["shared"], "detail": ""})
    for award in prizes["awards"]:
        for winner in award["winners"]:
            found.append({**winner, "award": award["title"], "key": award["key"], "shared": award["shared"],
                          "detail": award["detail"]})
    return found
