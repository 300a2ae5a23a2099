"""Format "pools_knockout": a seeded draw into pools, round robins, then the top K of each pool into a
crossover knockout (``format_options``: ``{"qualifiers": 2, "third_place": true}``)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets
from league.errors import DomainError
from league.formats.base import bool_option, int_option
from league.formats.pooled import PooledFormat, third_place
from league.models import Tournament


class PoolsKnockoutFormat(PooledFormat):
    id = Tournament.Format.POOLS_KNOCKOUT.value
    label = gettext_noop("Pools then knockout")
    description = gettext_noop(
        "A seeded draw into pools, a round robin in each, then the top teams of each pool into a crossover "
        "knockout.")
    option_names = ("pools", "qualifiers", "third_place")

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return {**super().options(kwargs), "qualifiers": int_option(kwargs, "qualifiers", 2),
                "third_place": bool_option(kwargs, "third_place", True)}

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """Pools by a seeded draw, then the top ``qualifiers`` of each into a knockout where pool-mates meet late."""
        options = self.options(kwargs)
        with transaction.atomic():
            return self.pooled_preset(options, name=name, slug=slug, teams=teams, ruleset=ruleset,
                                      points_system=points_system, user=user, status=status,
                                      visibility=visibility, kwargs=kwargs)

    def bracket_plans(self, tournament: Tournament) -> list[brackets.Bracket]:
        names, smallest = self.pool_sizes(tournament)
        k = int((tournament.format_options or {}).get("qualifiers", 2))
        if not 1 <= k <= smallest:
            raise DomainError(_("Each pool can send 1 to %(smallest)s teams to the knockout, not %(count)s.")
                                % {"smallest": smallest, "count": k})
        if k * len(names) < 2:
            raise DomainError(_("A knockout needs at least two qualifiers: let more teams through."))
        return [brackets.pools_knockout(names, k, third_place=third_place(tournament))]


FORMAT = PoolsKnockoutFormat()
