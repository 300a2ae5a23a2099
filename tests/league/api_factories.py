"""Small builders for the API and admin tests: tournaments with pools, entries and fixtures."""

from __future__ import annotations

from datetime import date

from league import services
from league.models import Team, Tournament


def make_team(code: str, name: str | None = None, user=None) -> Team:
    """An organiser's own team (not a nation): ``user``'s (the site's when None)."""
    return Team.objects.create(code=code, name=name or f"Team {code}", created_by=user, owner=user)


def make_tournament(slug: str, *, user=None, teams=("FRA", "NZL", "ITA", "URU"), pools: int = 1,
                    visibility: str = Tournament.Visibility.PUBLIC,
                    status: str = Tournament.Status.IN_PROGRESS, fixtures: bool = True) -> Tournament:
    """A tournament organised by ``user`` with ``teams`` spread over ``pools`` pools and round-robin fixtures."""
    tournament = services.tournament_create(name=f"Cup {slug}", slug=slug, user=user, visibility=visibility,
                                            status=status)
    per_pool = max(1, len(teams) // pools)
    for index in range(pools):
        chunk = list(teams[index * per_pool:(index + 1) * per_pool] if index < pools - 1
                     else teams[index * per_pool:])
        services.entries_add(tournament=tournament, teams=chunk, pool=chr(ord("A") + index))
    if fixtures:
        services.fixtures_generate_round_robin(tournament=tournament, start_date=date(2027, 3, 6),
                                               venues=["Pitch 1", "Pitch 2"])
    tournament.refresh_from_db()
    return tournament
