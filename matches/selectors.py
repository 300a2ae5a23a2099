"""Reads for online play: matches with what their pages need, the view a seat (or a spectator) gets, the live
matches of a tournament. Who holds a seat and who may watch is ``matches.permissions``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import get_language

from engine import get_spec
from engine.core import SEAT_NAMES, GameState
from league.models import Fixture
from matches.models import Match, MatchEvent, MatchSeat

# How many commentary lines a page shows (the API gives any range with ?events_from=).
RECENT_EVENTS = 40


@dataclass
class LoggedAction:
    """One action of a match's log, whichever way it is stored (a ``MatchAction`` row or ``Match.action_log``)."""

    ply: int
    seat: int
    action: str
    by_computer: bool
    created_at: datetime | None
    user_id: int | None = None


def match_actions(match: Match, *, after: int = 0, upto: int | None = None) -> list[LoggedAction]:
    """The match's actions from ply ``after + 1`` to ``upto`` (default: the last), in order (at most one query).

    A simulated match keeps its whole log in ``Match.action_log`` (played by its computer seats, at the time it
    finished); a match played online has one ``MatchAction`` row per action.
    """
    if match.action_log is not None:
        end = len(match.action_log) if upto is None else max(0, min(upto, len(match.action_log)))
        when = match.finished_at or match.created_at
        return [LoggedAction(ply, seat, action, True, when)
                for ply, (seat, action) in enumerate(match.action_log[after:end], start=after + 1)]
    rows = match.actions.filter(ply__gt=after)
    if upto is not None:
        rows = rows.filter(ply__lte=upto)
    return [LoggedAction(*row) for row in rows.order_by("ply").values_list(
        "ply", "seat", "action", "by_computer", "created_at", "user_id")]


def match_action(match: Match, ply: int) -> LoggedAction | None:
    """The action played at ``ply`` (None for ply 0 or beyond the log)."""
    if ply < 1:
        return None
    found = match_actions(match, after=ply - 1, upto=ply)
    return found[0] if found else None


def match_queryset() -> QuerySet:
    """Matches with what every page needs in a fixed number of queries."""
    return Match.objects.select_related(
        "fixture__tournament", "fixture__home__team", "fixture__away__team",
    ).prefetch_related("seats__user", "seats__entry__team", "fixture__tournament__organisers")


def get_match(pk) -> Match:
    """A match with its seats and fixture loaded; ``Match.DoesNotExist`` if absent."""
    return match_queryset().get(pk=pk)


def get_match_version(pk) -> Match:
    """Only what the ETag and the access checks need: no snapshot (tens of kB of JSON) and no seats.

    The idle poll (answered 304) runs on this; ``Match.DoesNotExist`` if absent.
    """
    return Match.objects.select_related("fixture__tournament").only(
        "id", "ply", "status", "updated_at", "created_by_id", "move_clock", "moved_at", "ruleset", "rules_version",
        "fixture__id", "fixture__tournament__id",
        "fixture__tournament__status", "fixture__tournament__visibility").prefetch_related(
        Prefetch("seats", queryset=MatchSeat.objects.select_related("entry"))).get(pk=pk)


def match_etag(match: Match, seat: int | None) -> str:
    """The version of what ``seat`` sees: changes with every move and every seat or status change."""
    stamp = int(match.updated_at.timestamp() * 1000) if match.updated_at else 0
    return f'W/"m{match.pk}-p{match.ply}-{match.status}-{stamp}-s{"x" if seat is None else seat}"'


def rules_current(match: Match) -> bool:
    """Whether the engine still plays the rules the match was recorded under (an empty version is unknown:
    today's engine is tried). A match of other rules is shown as stored, never replayed."""
    try:
        current = get_spec(match.ruleset).rules_version
    except KeyError:
        return False
    return not match.rules_version or match.rules_version == current


def clock_deadline(match: Match) -> datetime | None:
    """When the seats to act lose their turn to the computer (the move clock), or None: no clock, not started
    (a seat still open) or not live."""
    if match.status != Match.Status.LIVE or not match.move_clock or match.moved_at is None:
        return None
    return match.moved_at + timedelta(seconds=match.move_clock)


def clock_due(match: Match) -> bool:
    """The move clock has run out (``services.match_clock_expire`` then hands the late seats to the computer)."""
    deadline = clock_deadline(match)
    return deadline is not None and timezone.now() >= deadline


def match_events(match: Match) -> list[MatchEvent]:
    """The match's audit trail besides its moves (seats taken, resignations, draw offers, the clock), oldest
    first. Nothing in it is hidden: none of it names a move."""
    return list(match.events.order_by("id"))


def score_of(state: GameState) -> dict:
    """Score so far as the engine counts it (points and tries per side)."""
    try:
        out = state.outcome().to_dict()
    except Exception:  # some rule sets can only score a finished game
        return {}
    return out


def outcome_for_reader(outcome: dict | None) -> dict | None:
    """A finished match's stored outcome as its reader sees it: a refusal of its result (``result_error``, kept in
    every language of the site) worded in the active language."""
    if not outcome or not isinstance(outcome.get("result_error"), dict):
        return outcome  # none, or stored as one text before the refusal was kept in every language
    words = outcome["result_error"]
    text = words.get(get_language() or "") or words.get(settings.LANGUAGE_CODE) or next(iter(words.values()), "")
    return {**outcome, "result_error": text}


def seat_summary(seat: MatchSeat) -> dict:
    entry = seat.entry
    return {"seat": seat.seat, "side": SEAT_NAMES[seat.seat], "kind": seat.kind, "name": seat.label,
            "computer_level": seat.computer_level or None,
            "team": entry.team.code if entry is not None else None,
            "colour": entry.team.primary_colour if entry is not None else ("#1f5f3a", "#b3261e")[seat.seat]}


def match_view(match: Match, state: GameState, seat: int | None, *, events_from: int | None = None) -> dict:
    """Everything a player at ``seat`` (or a spectator, ``None``) may see: JSON for the API and the pages.

    Only ``state.view(seat)`` and events visible to that seat are used, so another seat's hidden
    cards never reach this response.
    """
    acting = list(state.to_act())
    seats = sorted(match.seats.all(), key=lambda s: s.seat)
    # Nobody moves before every seat is taken (a friendly waiting for its second player).
    started = all(s.kind != MatchSeat.Kind.OPEN for s in seats)
    legal = state.legal_actions(seat) if seat is not None and seat in acting and match.status == "live" \
        and started else []
    total = len(state.events)
    start = max(0, total - RECENT_EVENTS) if events_from is None else max(0, min(int(events_from), total))
    return {
        "id": match.pk,
        "ruleset": match.ruleset,
        "ruleset_name": state.spec.name,
        "status": match.status,
        "ply": match.ply,
        "next_ply": match.ply + 1,
        "seat": seat,
        "side": SEAT_NAMES[seat] if seat is not None else None,
        "to_act": acting,
        "your_turn": bool(legal),
        "legal_actions": [{"action": a, "label": state.describe_action(a)} for a in legal],
        "seats": [seat_summary(s) for s in seats],
        "score": score_of(state),
        "outcome": outcome_for_reader(match.outcome),
        "fixture": match.fixture_id,
        "tournament": match.fixture.tournament.slug if match.fixture is not None else None,
        "view": state.view(seat),
        "events_from": start,
        "event_count": total,
        "events": state.visible_events(seat, start),
    }


HIDDEN_ACTION = "hidden"


def action_visible(match: Match, seat_of_action: int, viewer: int | None, hidden_information: bool) -> bool:
    """Whether a viewer may read an action string from the log.

    In a live match of a hidden-information rule set, the other seat's actions stay hidden (a blind
    choice in the card game is a face-down position the engine's views never reveal); once the match
    is over the whole log is open, for replays and disputes.
    """
    return not hidden_information or match.status != Match.Status.LIVE or viewer == seat_of_action


def live_matches(tournament) -> QuerySet:
    """Live matches of a tournament, most recently active first (for the "live now" list)."""
    return match_queryset().filter(fixture__tournament=tournament, status=Match.Status.LIVE).order_by(
        "-updated_at")


def solo_attempts_to_start(entry_ids: Iterable[int]) -> list[Fixture]:
    """The solo attempts these entries may start themselves: fixtures of a solo game played on the site, theirs,
    with no result and no match being played or played (an abandoned one may be started again)."""
    ids = list(entry_ids)
    if not ids:
        return []
    fixtures = (Fixture.objects.filter(home_id__in=ids, result__isnull=True)
                .exclude(status=Fixture.Status.CANCELLED)
                .filter(Q(match__isnull=True) | Q(match__status=Match.Status.ABANDONED))
                .select_related("tournament", "home__team").order_by("tournament_id", "round_number", "pk")[:50])
    return [f for f in fixtures if f.tournament.spec.playable and f.tournament.spec.solo]
