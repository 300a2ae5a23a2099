"""What the formats with pools then a knockout share: round robins in pools, then the format's brackets."""

from __future__ import annotations

from typing import Any

from league.errors import DomainError
from league.formats.base import ONE_DAY_PLAN, TournamentFormat, format_teams, int_option, plan_fields
from league.models import Entry, Pool, Tournament
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin, pools_fill
from league.services.teams import entries_add
from league.services.tournaments import tournament_create


class PooledFormat(TournamentFormat):
    """Pools play round robins; their places fill the knockout slots ("pool:A:1"). A festival: one day."""

    schedule_defaults = ONE_DAY_PLAN

    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)
        bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), replace=True,
                                user=user)

    def pool_sizes(self, tournament: Tournament) -> tuple[list[str], int]:
        """The pools' names and the size of the smallest (refused before the draw)."""
        pools = list(Pool.objects.filter(tournament=tournament))
        if not pools:
            raise DomainError("Draw the pools before making the knockout bracket.")
        sizes = [Entry.objects.filter(pool=p).count() for p in pools]
        return [p.name for p in pools], min(sizes)

    def pooled_preset(self, format_options: dict[str, Any], *, name: str, slug: str, teams: Any, ruleset: str,
                      points_system: str, user: Any, status: str, visibility: str, kwargs: dict[str, Any]
                      ) -> Tournament:
        """Enter the teams (seeds in the order given), draw the pools, make pool fixtures and the knockout."""
        teams = format_teams(teams, 4, "Pools then knockout")
        pools = int_option(kwargs, "pools", max(1, len(teams) // 4))
        if pools < 1 or len(teams) < 2 * pools:
            raise DomainError(f"{len(teams)} teams cannot fill {pools} pools (at least two teams per pool).")
        tournament = tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=self.id, status=status,
            visibility=visibility, user=user, format_options=format_options, **plan_fields(self, kwargs))
        entries_add(tournament=tournament, teams=teams)
        seed = kwargs.get("draw_seed")
        pools_fill(tournament=tournament, method=kwargs.get("draw") or "seeded", pools=pools,
                   seed=int(seed) if seed not in (None, "") else None)
        fixtures_generate_round_robin(tournament=tournament, replace=True)
        bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), user=user)
        return tournament


def third_place(tournament: Tournament) -> bool:
    return bool((tournament.format_options or {}).get("third_place", False))

