"""Format "solo": each entrant plays a solo game alone, once or more (``format_options``: ``{"attempts": 1}``);
the leaderboard ranks by margin, then points scored."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL, rulesets
from league.errors import DomainError
from league.format_selectors import solo_leaderboard
from league.formats.base import ONE_DAY_PLAN, TournamentFormat, format_teams, int_option, plan_fields
from league.models import Fixture, Tournament
from league.services.fixtures import entries_in_seed_order, fixtures_create
from league.services.teams import entries_add
from league.services.tournaments import tournament_create


def solo_ruleset() -> str:
    """The rule set a solo challenge is played with when none is chosen: the first solo game the engine has
    (else results entered by hand). Choosing "played off the site" explicitly keeps it off the site."""
    return next((spec.id for spec in rulesets() if spec.solo), MANUAL)


class SoloFormat(TournamentFormat):
    id = Tournament.Format.SOLO.value
    schedule_defaults = ONE_DAY_PLAN
    label = gettext_noop("Solo challenge (leaderboard)")
    description = gettext_noop(
        "Each player plays a solo game alone, once or more; the leaderboard ranks by margin, then points "
        "scored.")
    table_kind = "solo"
    fixtures_intro = gettext_noop("Make each player's solo attempts.")
    min_teams = 1
    option_names = ("attempts",)

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return {"attempts": int_option(kwargs, "attempts", 1)}

    def default_ruleset(self) -> str:
        return solo_ruleset()

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str | None = None,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """A solo challenge: one solo fixture per entrant and attempt."""
        teams = format_teams(teams, self.min_teams, "A solo challenge")
        ruleset = ruleset or solo_ruleset()
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system,
                points_rules=kwargs.get("points_rules"), format=self.id, status=status, visibility=visibility,
                user=user, format_options=self.options(kwargs), **plan_fields(self, kwargs))
            entries_add(tournament=tournament, teams=teams, user=user)
            self.generate_fixtures(tournament)
        return tournament

    @transaction.atomic
    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, attempts: int | None = None,
                          **schedule: Any) -> None:
        """One solo fixture per entrant and attempt: the entrant at home, the game itself as the opposition."""
        attempts = int(attempts or (tournament.format_options or {}).get("attempts", 1))
        if attempts < 1:
            raise DomainError(_("Each entrant needs at least one attempt."))
        entries = entries_in_seed_order(tournament)
        if not entries:
            raise DomainError(_("Enter the players before making their solo challenges."))
        fixtures_create(tournament=tournament, fixtures=[
            Fixture(tournament=tournament, stage=Fixture.Stage.SOLO, round_number=attempt,
                    round_name=f"Attempt {attempt}", home=entry, away_source="solo", slot=i)
            for attempt in range(1, attempts + 1) for i, entry in enumerate(entries)])

    def table(self, tournament: Tournament) -> tuple[str, list[dict[str, Any]]]:
        return self.table_kind, solo_leaderboard(tournament)


FORMAT = SoloFormat()
