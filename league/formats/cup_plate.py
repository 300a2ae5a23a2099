"""Format "cup_plate": pools in the morning, then one bracket per tier of pool places (Cup, Plate, Bowl,
Shield).

``format_options``: ``{"tiers": [["Cup", [1, 2]], ["Plate", [3]], ["Bowl", [4]]], "plate_from_cup_losers":
false, "third_place": false}`` — with ``plate_from_cup_losers`` the losers of the Cup's first round make the
Plate.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets
from league.errors import DomainError
from league.formats.base import bool_option
from league.formats.pooled import PooledFormat, third_place
from league.models import Tournament


def default_tiers(pool_size: int, *, plate_from_cup_losers: bool = False) -> list[tuple[str, list[int]]]:
    """Cup for the top two of each pool, then Plate, Bowl and Shield for 3rd, 4th and 5th (as far as they go).

    When the Cup's first-round losers make the Plate, 3rd places go to the Bowl and 4th to the Shield.
    """
    tiers = [("Cup", [1, 2])]
    names = brackets.DEFAULT_TIER_NAMES[2 if plate_from_cup_losers else 1:]
    for position, name in zip(range(3, pool_size + 1), names, strict=False):
        tiers.append((name, [position]))
    return tiers


class CupPlateFormat(PooledFormat):
    id = Tournament.Format.CUP_PLATE.value
    label = gettext_noop("Pools then Cup / Plate / Bowl / Shield")
    description = gettext_noop(
        "Pools in the morning; in the afternoon the Cup for the top two of each pool, then Plate, Bowl and "
        "Shield for the next places.")
    option_names = ("pools", "third_place", "plate_from_cup_losers", "tiers")

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        options = {**super().options(kwargs), "third_place": bool_option(kwargs, "third_place", False),
                   "plate_from_cup_losers": bool_option(kwargs, "plate_from_cup_losers", False)}
        if not kwargs.get("tiers"):
            options.pop("tiers", None)
        return options

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """A sevens-festival day: pools, then one bracket per tier of pool positions."""
        options = self.options(kwargs)
        with transaction.atomic():
            return self.pooled_preset(options, name=name, slug=slug, teams=teams, ruleset=ruleset,
                                      points_system=points_system, user=user, status=status,
                                      visibility=visibility, kwargs=kwargs)

    def bracket_plans(self, tournament: Tournament) -> list[brackets.Bracket]:
        names, smallest = self.pool_sizes(tournament)
        options = tournament.format_options or {}
        third = third_place(tournament)
        losers = bool(options.get("plate_from_cup_losers"))
        tiers = [(str(t[0]), [int(p) for p in t[1]])
                 for t in options.get("tiers") or default_tiers(smallest, plate_from_cup_losers=losers)]
        too_deep = [name for name, positions in tiers if max(positions) > smallest]
        if too_deep:
            raise DomainError(_("Tier(s) %(tiers)s take a pool position that the smallest pool (%(smallest)s teams) "
                                "does not have.") % {"tiers": ', '.join(too_deep), "smallest": smallest})
        plans = brackets.tiered_knockouts(names, tiers, third_place=third)
        if losers:
            plate = brackets.losers_knockout(plans[0], name=options.get("losers_tier_name", "Plate"),
                                             third_place=third)
            plans.insert(1, plate)
        return plans


FORMAT = CupPlateFormat()
