"""Writes that depend on the tournament's format: presets, generating fixtures, brackets, draws.

Each asks the format (``league.formats``) what to do: no format is named here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from league import draws
from league.errors import DomainError
from league.formats import FORMATS, format_of
from league.models import Fixture, Tournament
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin, pools_fill


def tournament_create_from_preset(preset: str, /, **kwargs: Any) -> Tournament:
    """Set a whole tournament up with a format's preset (teams, pools, fixtures, bracket) in one transaction.

    ``kwargs``: ``name``, ``slug`` and the preset's options (``teams``, ``double``, ``ruleset``,
    ``points_system``, ``start_date``, ``venues``, ``first_kickoff``, ``slot_minutes``,
    ``days_between_rounds``, ``user``, ``status``, ``visibility`` and the format's own, such as ``pools``);
    a preset ignores the ones it has no use for. An unknown preset is refused, naming the known ones.
    """
    fmt = FORMATS.get(preset)
    if fmt is None:
        raise DomainError(f"Unknown preset {preset!r}; choose one of: {', '.join(sorted(FORMATS))}.")
    with transaction.atomic():
        return fmt.preset(**kwargs)


@transaction.atomic
def fixtures_generate(*, tournament: Tournament, user: Any = None, **schedule: Any) -> None:
    """Make the fixtures the tournament's format needs now: its pools' round robins and its knockout
    bracket; or the next Swiss round; or each solo entrant's attempts. ``schedule``: the round robin's
    ``double``, ``start_date``, ``first_kickoff``, ``slot_minutes``, ``days_between_rounds``, ``venues``."""
    format_of(tournament).generate_fixtures(tournament, user=user, **schedule)


def bracket_create(*, tournament: Tournament, replace: bool = False, user: Any = None, days_between_rounds: int = 7,
                   slot_minutes: int = 90) -> list[Fixture]:
    """Make the knockout fixtures of the tournament's format (``services.bracket_fixtures_create``)."""
    with transaction.atomic():
        plans = format_of(tournament).bracket_plans(tournament)
        return bracket_fixtures_create(tournament=tournament, plans=plans, replace=replace, user=user,
                                       days_between_rounds=days_between_rounds, slot_minutes=slot_minutes)


@transaction.atomic
def pools_draw(*, tournament: Tournament, method: str = draws.SEEDED, pools: int | Sequence[str] = 4,
               seed: int | None = None, assignment: Mapping[str, str] | None = None, generate_fixtures: bool = True,
               user: Any = None, **schedule: Any) -> dict[str, list[str]]:
    """Draw the entries into pools (``services.pools_fill``) and (by default) make the pools' round robins.

    The knockout's slots name pools ("pool:C:1"): when the tournament has its knockout fixtures already they
    are made again for the new pools. ``schedule``: options of ``fixtures_generate_round_robin``.
    """
    drawn = pools_fill(tournament=tournament, method=method, pools=pools, seed=seed, assignment=assignment)
    if generate_fixtures:
        fixtures_generate_round_robin(tournament=tournament, replace=True, **schedule)
    if Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT).exists():
        bracket_create(tournament=tournament, replace=True, user=user)
    return drawn
