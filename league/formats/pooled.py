"""What the formats with pools then a knockout share: round robins in pools, then the format's brackets."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from league.errors import DomainError
from league.formats.base import ONE_DAY_PLAN, TournamentFormat, bool_option, format_teams, int_option, plan_fields
from league.models import Entry, Pool, Tournament
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin, pools_fill
from league.services.teams import entries_add
from league.services.tournaments import tournament_create


class PooledFormat(TournamentFormat):
    """Pools play round robins; their places fill the knockout slots ("pool:A:1"). A festival: one day."""

    schedule_defaults = ONE_DAY_PLAN

    needs_draw = True
    round_robin = True
    min_teams = 4
    option_names = ("pools",)

    def pool_count(self, tournament: Tournament) -> int:
        """The organiser's number of pools, else one pool for every four teams (as the presets draw them)."""
        if (tournament.format_options or {}).get("pools") or self.default_pool_count > 1:
            return super().pool_count(tournament)
        return max(1, Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count() // 4)

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        options = super().options(kwargs)
        if "pools" in options:
            options["pools"] = int_option(kwargs, "pools", 1)
        return options

    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)
        bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), replace=True,
                                user=user)

    def pool_sizes(self, tournament: Tournament) -> tuple[list[str], int]:
        """The pools' names and the size of the smallest (refused before the draw)."""
        pools = list(Pool.objects.filter(tournament=tournament))
        if not pools:
            raise DomainError(_("Draw the pools before making the knockout bracket."))
        sizes = [Entry.objects.filter(pool=p).count() for p in pools]
        return [p.name for p in pools], min(sizes)

    def pooled_preset(self, format_options: dict[str, Any], *, name: str, slug: str | None, teams: Any,
                      ruleset: str, points_system: str, user: Any, status: str, visibility: str,
                      kwargs: dict[str, Any]) -> Tournament:
        """Enter the teams (seeds in the order given), draw the pools, make pool fixtures and the knockout."""
        teams = format_teams(teams, self.min_teams, "Pools then knockout")
        pools = int_option(kwargs, "pools", max(1, len(teams) // 4))
        if pools < 1 or len(teams) < 2 * pools:
            raise DomainError({"pools": [_("%(teams)s teams cannot fill %(pools)s pools (at least two teams per "
                                           "pool).") % {"teams": len(teams), "pools": pools}]})
        double = bool_option(kwargs, "double", False)
        tournament = tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=points_system,
            points_rules=kwargs.get("points_rules"), format=self.id, status=status, visibility=visibility,
            user=user, format_options=format_options, double_round_robin=double, **plan_fields(self, kwargs))
        entries_add(tournament=tournament, teams=teams, user=user)
        seed = kwargs.get("draw_seed")
        pools_fill(tournament=tournament, method=kwargs.get("draw") or "seeded", pools=pools,
                   seed=int(seed) if seed not in (None, "") else None)
        fixtures_generate_round_robin(tournament=tournament, replace=True, double=double)
        bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), user=user)
        return tournament


def third_place(tournament: Tournament) -> bool:
    return bool((tournament.format_options or {}).get("third_place", False))

