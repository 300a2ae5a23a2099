"""Tournament presets: a whole tournament (teams, pools, fixtures) set up in one call.

``PRESETS`` maps a preset's name to a function that takes keyword arguments
(``name``, ``slug`` and the options below) and returns the new Tournament. The
``create_tournament`` command and the "new tournament" page offer every entry
of this dict; add a preset by decorating a function with ``@preset(...)``.

Common keyword arguments: ``name``, ``slug``, ``teams`` (codes or names),
``double``, ``ruleset``, ``points_system``, ``start_date``, ``venues``,
``first_kickoff``, ``slot_minutes``, ``days_between_rounds``, ``user``,
``status``, ``visibility``. A preset ignores the ones it has no use for.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import time

from django.core.exceptions import ValidationError
from django.db import transaction

from engine import MANUAL, rulesets
from league import formats, services
from league.models import Team, Tournament
from league.nations import RWC2023_NATIONS

PRESETS: dict[str, Callable[..., Tournament]] = {}

# The nine stadiums of Rugby World Cup 2023, used as the default venues of the rwc2023 preset.
RWC2023_VENUES = [
    "Stade de France", "Stade Vélodrome", "OL Stadium", "Stade Pierre-Mauroy", "Stade de Bordeaux",
    "Stade de Nice", "Stade Geoffroy-Guichard", "Stade de la Beaujoire", "Stadium de Toulouse",
]


def preset(name: str, *, label: str, description: str = ""):
    """Register a preset function under ``name``, with a label for menus and a one-line description."""

    def register(func: Callable[..., Tournament]) -> Callable[..., Tournament]:
        func.label = label
        func.description = description
        PRESETS[name] = func
        return func

    return register


def preset_run(preset_name: str, /, **kwargs) -> Tournament:
    """Create a tournament with the preset ``preset_name`` (unknown: a ValidationError naming the known ones)."""
    try:
        func = PRESETS[preset_name]
    except KeyError:
        raise ValidationError(f"Unknown preset {preset_name!r}; choose one of: {', '.join(sorted(PRESETS))}.")
    return func(**kwargs)


def _schedule_options(kwargs: dict, default_venues=None) -> dict:
    venues = kwargs.get("venues")
    return {
        "start_date": kwargs.get("start_date"),
        "first_kickoff": kwargs.get("first_kickoff") or time(14, 0),
        "slot_minutes": kwargs.get("slot_minutes") or 90,
        "days_between_rounds": kwargs.get("days_between_rounds", 7),
        "venues": venues if venues is not None else default_venues,
    }


@preset("rwc2023", label="Rugby World Cup 2023 (20 nations, pools A-D)",
        description="The 20 nations in their real 2023 pools, each pool a single round robin, then the "
                    "2023 quarter-finals, semi-finals, bronze final and final.")
def rwc2023(*, name: str, slug: str, ruleset: str = MANUAL, user=None, status: str = Tournament.Status.IN_PROGRESS,
            visibility: str = Tournament.Visibility.PUBLIC, **kwargs) -> Tournament:
    """The 20 RWC 2023 nations in pools A-D as drawn, seeded by World Rugby ranking, pool fixtures made."""
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=Tournament.PointsSystem.WORLD_RUGBY,
            format=Tournament.Format.RWC2023, double_round_robin=False, status=status, visibility=visibility,
            user=user)
        teams = {t.code: t for t in Team.objects.filter(code__in=[row[0] for row in RWC2023_NATIONS])}
        missing = [row[0] for row in RWC2023_NATIONS if row[0] not in teams]
        if missing:
            raise ValidationError(f"The RWC 2023 nations are missing ({', '.join(missing)}): run migrate.")
        # Seeds follow the ranking (1 = best) so that seeds and the last tie-breaker agree.
        by_ranking = sorted(RWC2023_NATIONS, key=lambda row: row[5])
        pools = {name: services.pool_create(tournament=tournament, name=name, order=order)
                 for order, name in enumerate("ABCD", start=1)}
        for code, _name, _primary, _secondary, pool_name, _ranking in by_ranking:
            services.entries_add(tournament=tournament, pool=pools[pool_name], teams=[teams[code]])
        services.fixtures_generate_round_robin(tournament=tournament, double=False,
                                               **_schedule_options(kwargs, RWC2023_VENUES))
        # The quarter-finals, semi-finals, bronze final and final as in 2023, filled as pools finish.
        formats.bracket_create(tournament=tournament, days_between_rounds=kwargs.get("days_between_rounds", 7),
                               slot_minutes=kwargs.get("slot_minutes") or 90)
    return tournament


@preset("league", label="League (one pool, round robin)",
        description="One pool of the chosen teams, a single or double round robin.")
def league(*, name: str, slug: str, teams=None, double: bool = False, ruleset: str = MANUAL,
           points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user=None,
           status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
           **kwargs) -> Tournament:
    """One pool ("League") of the given teams, in the order given, with its round-robin fixtures."""
    teams = [t for t in (teams or []) if t]
    if len(teams) < 2:
        raise ValidationError("A league needs at least two teams (e.g. --teams FRA,NZL,IRE).")
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=Tournament.Format.LEAGUE,
            double_round_robin=double, status=status, visibility=visibility, user=user)
        pool = services.pool_create(tournament=tournament, name="League", order=1)
        services.entries_add(tournament=tournament, teams=teams, pool=pool)
        services.fixtures_generate_round_robin(tournament=tournament, double=double, **_schedule_options(kwargs))
    return tournament


# -- Formats: pools into knockouts, single elimination, Cup/Plate/Bowl, Swiss, solo challenge -------------

def _format_teams(teams, minimum: int, what: str) -> list:
    teams = [t for t in (teams or []) if t]
    if len(teams) < minimum:
        raise ValidationError(f"{what} needs at least {minimum} teams (e.g. --teams FRA,NZL,IRE,RSA).")
    return teams


def _int_option(kwargs: dict, key: str, default: int) -> int:
    value = kwargs.get(key, default)
    try:
        return int(value if value not in (None, "") else default)
    except (TypeError, ValueError):
        raise ValidationError({key: [f"{key} must be a whole number, not {value!r}."]})


def _bool_option(kwargs: dict, key: str, default: bool) -> bool:
    value = kwargs.get(key, default)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def _pooled_tournament(fmt: str, format_options: dict, *, name, slug, teams, ruleset, points_system, user, status,
                       visibility, kwargs) -> Tournament:
    """Enter the teams (seeds in the order given), draw the pools, make pool fixtures and the knockout."""
    teams = _format_teams(teams, 4, "Pools then knockout")
    pools = _int_option(kwargs, "pools", max(1, len(teams) // 4))
    if pools < 1 or len(teams) < 2 * pools:
        raise ValidationError(f"{len(teams)} teams cannot fill {pools} pools (at least two teams per pool).")
    tournament = services.tournament_create(
        name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=fmt, status=status,
        visibility=visibility, user=user, format_options=format_options)
    services.entries_add(tournament=tournament, teams=teams)
    seed = kwargs.get("draw_seed")
    formats.draw_pools(tournament=tournament, method=kwargs.get("draw") or "seeded", pools=pools,
                       seed=int(seed) if seed not in (None, "") else None, user=user, **_schedule_options(kwargs))
    formats.bracket_create(tournament=tournament, user=user, days_between_rounds=kwargs.get("days_between_rounds", 7),
                           slot_minutes=kwargs.get("slot_minutes") or 90)
    return tournament


@preset("pools_knockout", label="Pools then knockout",
        description="A seeded draw into pools (--option pools=N), round robins, then the top teams of each pool "
                    "(--option qualifiers=K) into a crossover knockout.")
def pools_knockout(*, name: str, slug: str, teams=None, ruleset: str = MANUAL,
                   points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user=None,
                   status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
                   **kwargs) -> Tournament:
    """Pools by a seeded draw, then the top ``qualifiers`` of each into a knockout where pool-mates meet late."""
    options = {"qualifiers": _int_option(kwargs, "qualifiers", 2),
               "third_place": _bool_option(kwargs, "third_place", True)}
    with transaction.atomic():
        return _pooled_tournament(Tournament.Format.POOLS_KNOCKOUT, options, name=name, slug=slug, teams=teams,
                                  ruleset=ruleset, points_system=points_system, user=user, status=status,
                                  visibility=visibility, kwargs=kwargs)


@preset("cup_plate", label="Pools then Cup / Plate / Bowl / Shield",
        description="Pools in the morning; the afternoon's Cup for the top two of each pool, Plate, Bowl and "
                    "Shield for the next places (or --option plate_from_cup_losers=yes).")
def cup_plate(*, name: str, slug: str, teams=None, ruleset: str = MANUAL,
              points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user=None,
              status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
              **kwargs) -> Tournament:
    """A sevens-festival day: pools, then one bracket per tier of pool positions."""
    options = {"third_place": _bool_option(kwargs, "third_place", False),
               "plate_from_cup_losers": _bool_option(kwargs, "plate_from_cup_losers", False)}
    if kwargs.get("tiers"):
        options["tiers"] = kwargs["tiers"]
    with transaction.atomic():
        return _pooled_tournament(Tournament.Format.CUP_PLATE, options, name=name, slug=slug, teams=teams,
                                  ruleset=ruleset, points_system=points_system, user=user, status=status,
                                  visibility=visibility, kwargs=kwargs)


@preset("single_elimination", label="Single elimination (knockout)",
        description="A knockout of the teams in seed order (the order given): 1 v N, 2 v N-1, byes to the top "
                    "seeds; --option third_place=yes for a bronze final.")
def single_elimination(*, name: str, slug: str, teams=None, ruleset: str = MANUAL,
                       points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user=None,
                       status: str = Tournament.Status.IN_PROGRESS,
                       visibility: str = Tournament.Visibility.PUBLIC, **kwargs) -> Tournament:
    """A seeded single-elimination bracket of the given teams (seed 1 first)."""
    teams = _format_teams(teams, 2, "A knockout")
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=points_system,
            format=Tournament.Format.SINGLE_ELIMINATION, status=status, visibility=visibility, user=user,
            format_options={"third_place": _bool_option(kwargs, "third_place", False)})
        services.entries_add(tournament=tournament, teams=teams)
        formats.bracket_create(tournament=tournament, user=user)
    return tournament


@preset("swiss", label="Swiss (a set number of rounds)",
        description="Everybody plays every round (--option rounds=N); teams on equal points meet, never twice; "
                    "a rotating bye when the count is odd.")
def swiss_preset(*, name: str, slug: str, teams=None, ruleset: str = MANUAL,
                 points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user=None,
                 status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
                 **kwargs) -> Tournament:
    """A Swiss: round 1 paired by seed, each next round paired when the previous one is complete."""
    from league.swiss import swiss_rounds_possible

    teams = _format_teams(teams, 2, "A Swiss")
    rounds = _int_option(kwargs, "rounds", min(5, max(1, len(teams) // 2)))
    if not 1 <= rounds <= swiss_rounds_possible(len(teams)):
        raise ValidationError(f"{len(teams)} teams can play 1 to {swiss_rounds_possible(len(teams))} Swiss rounds "
                              f"without a rematch, not {rounds}.")
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=Tournament.Format.SWISS,
            status=status, visibility=visibility, user=user, format_options={"rounds": rounds})
        services.entries_add(tournament=tournament, teams=teams)
        formats.swiss_pair_next_round(tournament=tournament, user=user)
    return tournament


@preset("solo", label="Solo challenge (leaderboard)",
        description="Each entrant plays Rugby Champion's solo game alone (--option attempts=N); the leaderboard "
                    "ranks by margin, then points scored.")
def solo(*, name: str, slug: str, teams=None, ruleset: str | None = None, user=None,
         status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
         **kwargs) -> Tournament:
    """A solo challenge: one solo fixture per entrant and attempt."""
    teams = _format_teams(teams, 1, "A solo challenge")
    if not ruleset or ruleset == MANUAL:
        # A solo challenge is played against a solo game: the first the engine has (else results by hand).
        ruleset = next((spec.id for spec in rulesets() if spec.solo), MANUAL)
    with transaction.atomic():
        tournament = services.tournament_create(
            name=name, slug=slug, ruleset=ruleset, format=Tournament.Format.SOLO, status=status,
            visibility=visibility, user=user, format_options={"attempts": _int_option(kwargs, "attempts", 1)})
        services.entries_add(tournament=tournament, teams=teams)
        formats.solo_fixtures_create(tournament=tournament)
    return tournament
