"""Format "single_elimination": a knockout of the teams in seed order, 1 v N, byes to the top seeds
(``format_options``: ``{"third_place": false}``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets
from league.errors import DomainError
from league.formats.base import ONE_DAY_PLAN, TournamentFormat, bool_option, format_teams, plan_fields
from league.formats.pooled import third_place
from league.models import Tournament
from league.services.fixtures import bracket_fixtures_create, entries_in_seed_order
from league.services.teams import entries_add
from league.services.tournaments import tournament_create


class SingleEliminationFormat(TournamentFormat):
    id = Tournament.Format.SINGLE_ELIMINATION.value
    schedule_defaults = ONE_DAY_PLAN
    label = gettext_noop("Single elimination (knockout)")
    description = gettext_noop(
        "A knockout of the teams in seed order (the order given): 1 v N, 2 v N-1, byes to the top seeds, and "
        "a bronze final if wanted.")
    fixtures_intro = gettext_noop("Make the knockout bracket from the seeds (byes to the top seeds).")
    option_names = ("third_place",)

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return {"third_place": bool_option(kwargs, "third_place", False)}

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """A seeded single-elimination bracket of the given teams (seed 1 first)."""
        teams = format_teams(teams, self.min_teams, "A knockout")
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system,
                points_rules=kwargs.get("points_rules"), format=self.id, status=status, visibility=visibility,
                user=user, format_options=self.options(kwargs), **plan_fields(self, kwargs))
            entries_add(tournament=tournament, teams=teams, user=user)
            self.generate_fixtures(tournament, user=user)
        return tournament

    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), replace=True,
                                user=user)

    def bracket_plans(self, tournament: Tournament) -> list[brackets.Bracket]:
        entries = entries_in_seed_order(tournament)
        if len(entries) < 2:
            raise DomainError(_("A knockout needs at least two teams."))
        return [brackets.knockout([f"seed:{e.seed}" for e in entries], third_place=third_place(tournament))]


FORMAT = SingleEliminationFormat()
