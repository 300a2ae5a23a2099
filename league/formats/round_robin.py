"""Format "league": one pool (or several), a single or double round robin, the pool table is the table."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from engine import MANUAL
from league.errors import DomainError
from league.formats.base import TournamentFormat, plan_fields
from league.models import Tournament
from league.services.fixtures import fixtures_generate_round_robin
from league.services.teams import entries_add, pool_create
from league.services.tournaments import tournament_create


class LeagueFormat(TournamentFormat):
    id = Tournament.Format.LEAGUE.value
    label = "League (one pool, round robin)"
    description = "One pool of the chosen teams, a single or double round robin."

    def preset(self, *, name: str, slug: str, teams: Any = None, double: bool = False, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """One pool ("League") of the given teams, in the order given, with its round-robin fixtures."""
        teams = [t for t in (teams or []) if t]
        if len(teams) < 2:
            raise DomainError("A league needs at least two teams (e.g. --teams FRA,NZL,IRE).")
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=self.id,
                double_round_robin=double, status=status, visibility=visibility, user=user,
                **plan_fields(self, kwargs))
            pool = pool_create(tournament=tournament, name="League", order=1)
            entries_add(tournament=tournament, teams=teams, pool=pool)
            fixtures_generate_round_robin(tournament=tournament, double=double)
        return tournament

    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)


FORMAT = LeagueFormat()
