"""The one read of which event a tournament belongs to, in a module that imports nothing but the models, so the
template tags (loaded by the schedule selectors) and ``league.event_selectors`` share it without an import cycle."""

from __future__ import annotations

from league.models import Division, Event, Tournament


def event_of(tournament: Tournament) -> Event | None:
    """The event the tournament is a division of (None: a tournament on its own)."""
    division = Division.objects.select_related("event").filter(tournament_id=tournament.pk).first()
    return division.event if division is not None else None
