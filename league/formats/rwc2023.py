"""Format "rwc2023": the 20 nations in the real 2023 pools A-D, then the 2023 quarter-finals to the final."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets
from league.errors import DomainError
from league.formats.base import WEEKLY_PLAN, plan_fields
from league.formats.pooled import PooledFormat
from league.models import Team, Tournament
from league.nations import RWC2023_NATIONS
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin
from league.services.teams import entries_add, pool_create
from league.services.tournaments import tournament_create

# The nine stadiums of Rugby World Cup 2023, used as the default venues of the rwc2023 preset.
RWC2023_VENUES = [
    "Stade de France", "Stade Vélodrome", "OL Stadium", "Stade Pierre-Mauroy", "Stade de Bordeaux",
    "Stade de Nice", "Stade Geoffroy-Guichard", "Stade de la Beaujoire", "Stadium de Toulouse",
]


class Rwc2023Format(PooledFormat):
    id = Tournament.Format.RWC2023.value
    schedule_defaults = WEEKLY_PLAN  # a World Cup is weeks long: a round a week
    label = gettext_noop("Rugby World Cup 2023 (20 nations, pools A-D)")
    description = gettext_noop(
        "The 20 nations in their real 2023 pools, each pool a single round robin, then the 2023 quarter-"
        "finals, semi-finals, bronze final and final.")
    default_pool_count = 4
    fixed_teams = True
    round_robin = False  # the 2023 pools: a single round robin each

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """The 20 RWC 2023 nations in pools A-D as drawn, seeded by World Rugby ranking, pool fixtures made."""
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system,
                points_rules=kwargs.get("points_rules"), format=self.id, double_round_robin=False, status=status,
                visibility=visibility, user=user, **plan_fields(self, kwargs, RWC2023_VENUES))
            nations = {t.code: t for t in Team.objects.filter(is_nation=True,
                                                              code__in=[row[0] for row in RWC2023_NATIONS])}
            missing = [row[0] for row in RWC2023_NATIONS if row[0] not in nations]
            if missing:
                raise DomainError(_("The RWC 2023 nations are missing (%(codes)s): run migrate.")
                                    % {"codes": ', '.join(missing)})
            # Seeds follow the ranking (1 = best) so that seeds and the last tie-breaker agree.
            by_ranking = sorted(RWC2023_NATIONS, key=lambda row: row[5])
            pools = {pool: pool_create(tournament=tournament, name=pool, order=order)
                     for order, pool in enumerate("ABCD", start=1)}
            for code, _name, _primary, _secondary, pool_name, _ranking in by_ranking:
                entries_add(tournament=tournament, pool=pools[pool_name], teams=[nations[code]], user=user)
            fixtures_generate_round_robin(tournament=tournament, double=False)
            # The quarter-finals, semi-finals, bronze final and final as in 2023, filled as pools finish.
            bracket_fixtures_create(tournament=tournament, plans=self.bracket_plans(tournament), user=user)
        return tournament

    def bracket_plans(self, tournament: Tournament) -> list[brackets.Bracket]:
        return [brackets.rwc2023_knockout()]


FORMAT = Rwc2023Format()
