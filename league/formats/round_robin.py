"""Format "league": one pool (or several), a single or double round robin, the pool table is the table.

A league needs no draw: its teams are one pool ("League"), made when its fixtures are (teams added later join
it). An organiser who wants several divisions draws pools as for any format.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from engine import MANUAL
from league.formats.base import TournamentFormat, format_teams, plan_fields
from league.models import Tournament
from league.services.fixtures import fixtures_generate_round_robin
from league.services.teams import entries_add, entries_into_one_pool, pool_create
from league.services.tournaments import tournament_create

LEAGUE_POOL = "League"


class LeagueFormat(TournamentFormat):
    id = Tournament.Format.LEAGUE.value
    label = gettext_noop("League (one pool, round robin)")
    description = gettext_noop("One pool of all the teams: everyone plays everyone, once or home and away.")
    round_robin = True

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, double: bool = False,
               ruleset: str = MANUAL, points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """One pool ("League") of the given teams, in the order given, with its round-robin fixtures."""
        teams = format_teams(teams, self.min_teams, "A league")
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system,
                points_rules=kwargs.get("points_rules"), format=self.id, double_round_robin=double, status=status,
                visibility=visibility, user=user, **plan_fields(self, kwargs))
            pool = pool_create(tournament=tournament, name=LEAGUE_POOL, order=1)
            entries_add(tournament=tournament, teams=teams, pool=pool, user=user)
            fixtures_generate_round_robin(tournament=tournament, double=double)
        return tournament

    @transaction.atomic
    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        """The round robin of every pool; a league not split into pools is one pool of all its teams."""
        entries_into_one_pool(tournament=tournament, name=LEAGUE_POOL)
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)


FORMAT = LeagueFormat()
