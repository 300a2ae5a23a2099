"""The audit trail of changes that are not results (``league.models.AuditRecord``): one helper that every
service changing settings, organisers, teams, entries or fixtures calls inside its transaction."""

from __future__ import annotations

from typing import Any

from league.models import AuditRecord, Event, Team, Tournament


def audit_record(*, action: str, tournament: Tournament | None = None, team: Team | None = None,
                 old: Any = None, new: Any = None, user: Any = None, event: Event | None = None) -> AuditRecord:
    """Append one row to the trail: what (``action``, an ``AuditRecord.Action``), on which tournament, team
    and/or event, the old and new values (JSON-ready), and who (``user``; None for the command line)."""
    return AuditRecord.objects.create(
        action=action, tournament=tournament, tournament_name=tournament.name if tournament is not None else "",
        team=team, event=event, old=old, new=new,
        changed_by=user if getattr(user, "is_authenticated", False) else None)
