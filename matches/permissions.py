"""Who holds a seat, who may watch a match and who may manage it: one module for the pages, the API and the
services of online play. (Who may see or change a tournament is ``league.permissions``.)"""

from __future__ import annotations

from typing import Any

from league.permissions import can_edit_tournament, can_view_tournament
from matches.models import Match, MatchSeat

# Session keys: seats held through a join code, entries held through a pass code.
SESSION_SEATS = "matches.seats"
SESSION_ENTRIES = "matches.entries"


def seats_held(match: Match, *, user: Any = None, session: Any = None) -> set[int]:
    """The seat numbers the caller holds: by account, as the entry's player, or by code in the session."""
    held = set()
    signed_in = user is not None and user.is_authenticated
    session_seats = set(session.get(SESSION_SEATS, [])) if session is not None else set()
    session_entries = set(session.get(SESSION_ENTRIES, [])) if session is not None else set()
    for seat in match.seats.all():
        if seat.kind == MatchSeat.Kind.COMPUTER:
            continue
        by_account = signed_in and (seat.user_id == user.pk or (
            seat.entry_id is not None and getattr(seat.entry, "player_id", None) == user.pk))
        by_code = seat.pk in session_seats or (seat.entry_id is not None and seat.entry_id in session_entries)
        if by_account or by_code:
            held.add(seat.seat)
    return held


def viewer_seat(match: Match, *, user: Any = None, session: Any = None, requested: int | None = None) -> int | None:
    """The seat whose view the caller gets: the one asked for if held, else the first held, else None."""
    held = seats_held(match, user=user, session=session)
    if requested is not None and requested in held:
        return requested
    return min(held) if held else None


def can_watch(user: Any, match: Match, *, by_id: bool = False, slug: str | None = None) -> bool:
    """Spectators: anyone for a friendly (the link is the key) or a match of a tournament they may view.

    ``by_id``: the caller names the match by its number alone (the API): a match of an unlisted tournament is
    then only shown with the tournament's slug (``slug``, the link), so walking the ids finds none of them.
    """
    if match.fixture is None:
        return True
    tournament = match.fixture.tournament
    if not can_view_tournament(user, tournament):
        return False
    if by_id and slug != tournament.slug:
        return tournament.visibility == tournament.Visibility.PUBLIC or can_edit_tournament(user, tournament)
    return True


def can_manage(user: Any, match: Match) -> bool:
    """Organisers of the fixture's tournament; for a friendly, its creator. Superusers always."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    if match.fixture is None:
        return bool(match.created_by_id == user.pk)
    return can_edit_tournament(user, match.fixture.tournament)
