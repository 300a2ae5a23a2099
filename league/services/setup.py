"""Writes that depend on the tournament's format: presets, generating fixtures, brackets, draws.

Each asks the format (``league.formats``) what to do: no format is named here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.db import transaction

from league import draws
from league.errors import DomainError
from league.formats import FORMATS, format_of
from league.models import Fixture, Tournament
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin, pools_fill
from league.services.schedule import schedule_settings_save
from league.services.tournaments import tournament_create, tournament_require_open


def tournament_create_from_preset(preset: str, /, **kwargs: Any) -> Tournament:
    """Set a whole tournament up with a format's preset (teams, pools, fixtures, bracket) in one transaction.

    ``kwargs``: ``name``, ``slug`` and the preset's options (``teams``, ``double``, ``ruleset``,
    ``points_system``, ``start_date``, ``venues``, ``first_kickoff``, ``slot_minutes``, ``changeover_minutes``,
    ``days_between_rounds``, ``time_zone``, ``user``, ``status``, ``visibility`` and the format's own, such as
    ``pools``); the plan of days not given is the format's (a weekly league, a one-day festival);
    a preset ignores the ones it has no use for. An unknown preset is refused, naming the known ones.
    """
    fmt = FORMATS.get(preset)
    if fmt is None:
        raise DomainError(f"Unknown preset {preset!r}; choose one of: {', '.join(sorted(FORMATS))}.")
    with transaction.atomic():
        return fmt.preset(**kwargs)


def tournament_create_blank(*, format: str = Tournament.Format.LEAGUE, **fields: Any) -> Tournament:
    """A tournament to set up step by step (``services.tournament_create``), with its format's plan of days
    (a weekly league, or a one-day festival) unless ``fields`` say otherwise."""
    fmt = FORMATS.get(format)
    if fmt is None:
        raise DomainError({"format": [f"Unknown format {format!r}; choose one of: {', '.join(sorted(FORMATS))}."]})
    return tournament_create(format=format, **{**fmt.schedule_defaults, **fields})


@transaction.atomic
def fixtures_generate(*, tournament: Tournament, user: Any = None, double: bool | None = None,
                      start_date: date | None = None, venues: Sequence[str] | None = None, **plan: Any) -> None:
    """Make the fixtures the tournament's format needs now: its pools' round robins and its knockout
    bracket; or the next Swiss round; or each solo entrant's attempts -- timed by the tournament's plan.

    ``start_date`` (the first day), ``venues`` (the pitches or tables) and ``plan`` (``first_kickoff``,
    ``slot_minutes``, ``changeover_minutes``, ``days_between_rounds``) given here are stored as the plan first;
    ``double``: a round robin home and away."""
    tournament_require_open(tournament)
    given = {**plan, "first_day": start_date, "pitches": list(venues) if venues is not None else None}
    schedule_settings_save(tournament=tournament, **{k: v for k, v in given.items() if v is not None})
    options = {} if double is None else {"double": double}
    format_of(tournament).generate_fixtures(tournament, user=user, **options)


def bracket_create(*, tournament: Tournament, replace: bool = False, user: Any = None) -> list[Fixture]:
    """Make the knockout fixtures of the tournament's format (``services.bracket_fixtures_create``), timed
    after the pools."""
    tournament_require_open(tournament)
    with transaction.atomic():
        plans = format_of(tournament).bracket_plans(tournament)
        return bracket_fixtures_create(tournament=tournament, plans=plans, replace=replace, user=user)


@transaction.atomic
def pools_draw(*, tournament: Tournament, method: str = draws.SEEDED, pools: int | Sequence[str] = 4,
               seed: int | None = None, assignment: Mapping[str, str] | None = None, generate_fixtures: bool = True,
               user: Any = None, **schedule: Any) -> dict[str, list[str]]:
    """Draw the entries into pools (``services.pools_fill``) and (by default) make the pools' round robins.

    The knockout's slots name pools ("pool:C:1"): when the tournament has its knockout fixtures already they
    are made again for the new pools. ``schedule``: options of ``fixtures_generate_round_robin``.
    """
    tournament_require_open(tournament)
    drawn = pools_fill(tournament=tournament, method=method, pools=pools, seed=seed, assignment=assignment)
    if generate_fixtures:
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)
    if Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT).exists():
        bracket_create(tournament=tournament, replace=True, user=user)
    return drawn
