"""The protocol every tournament format follows, and the helpers the formats share.

A format (one module each in this package, listed in ``league.formats.FORMATS``) says:

* ``preset(...)``: set a whole tournament up in one call (teams, pools, fixtures) — the presets of the
  "new tournament" page, the API and ``create_tournament --preset``;
* ``generate_fixtures(tournament, ...)``: make the fixtures it needs now (round robins and brackets, the
  next Swiss round, the solo attempts) — the organiser's "Generate fixtures";
* ``bracket_plans(tournament)``: its knockout brackets (``league.brackets.Bracket`` plans), if any;
* ``after_result(tournament, fixture, ...)``: what else happens after a result (the next Swiss round);
  knockout slots are filled for every format by ``league.advancement``;
* ``complete(tournament)``: whether its last result is in (the tournament then finishes by itself);
* ``table(tournament)``: its own table (the Swiss table, the solo leaderboard) as ``(kind, rows)``, or
  ``("", [])`` when the pool tables (``league.selectors.tournament_standings``) are its table;
* its texts: ``label`` and ``description`` (presets), ``fixtures_intro`` (the fixtures page).

Formats only write through ``league.services.teams``/``tournaments``/``fixtures``; ``league.services.setup``
and ``league.services.results`` call the formats.
"""

from __future__ import annotations

from datetime import time
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets, selectors
from league.errors import DomainError
from league.models import Fixture, Tournament
from league.services.schedule import schedule_settings_validate

DEFAULT_FIXTURES_INTRO = gettext_noop(
    "Every pool plays a round robin. Rounds are played on the same day in every pool; with more matches "
    "than venues a round is split into time slots.")


# How a format's days are laid out unless the organiser says otherwise: a league plays a round a week; a
# festival (pools then knockout, a Swiss evening, a solo challenge) is one day, rounds one after another.
WEEKLY_PLAN: dict[str, Any] = {"first_kickoff": time(14, 0), "slot_minutes": 90, "changeover_minutes": 0,
                               "days_between_rounds": 7}
ONE_DAY_PLAN: dict[str, Any] = {"first_kickoff": time(9, 0), "slot_minutes": 30, "changeover_minutes": 10,
                                "days_between_rounds": 0}


class TournamentFormat:
    """Base class of the formats: each method's default is "this format has none of it"."""

    id: str = ""
    label: str = ""
    description: str = ""
    fixtures_intro: str = DEFAULT_FIXTURES_INTRO
    # Pools the organiser's draw page suggests (``format_options["pools"]`` when the organiser chose a number).
    default_pool_count: int = 1
    # The plan of its days (``WEEKLY_PLAN`` or ``ONE_DAY_PLAN``, below): stored on a new tournament.
    schedule_defaults: dict[str, Any] = WEEKLY_PLAN
    # The kind of its own table (``table()``'s first value): "" when the pool tables are its table.
    table_kind: str = ""
    # Whether the organiser draws pools before the fixtures (pools then knockout); a league is one pool.
    needs_draw: bool = False
    # Whether its teams play round robins (single or double: the "home and away" choice).
    round_robin: bool = False
    # The fewest teams the format can be played with.
    min_teams: int = 2
    # The format brings its own teams (the RWC 2023 nations): none are chosen.
    fixed_teams: bool = False
    # Keyword arguments of ``preset`` that are format options (stored in ``Tournament.format_options``).
    option_names: tuple[str, ...] = ()

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The ``format_options`` a tournament of this format stores, from a preset's keyword arguments (a
        draft made without teams keeps them for later: the Swiss rounds, the solo attempts, the pools)."""
        return {name: kwargs[name] for name in self.option_names if kwargs.get(name) not in (None, "")}

    def check_options(self, tournament: Tournament, options: dict[str, Any]) -> None:
        """Refuse format options (changed on the settings page or the API) that the tournament cannot play."""
        return None

    def default_ruleset(self) -> str:
        """The rule set a tournament of this format is played with when the organiser leaves it to us."""
        return MANUAL

    def pool_count(self, tournament: Tournament) -> int:
        """The number of pools the draw page suggests: the organiser's choice, else the format's default."""
        try:
            return max(1, int((tournament.format_options or {}).get("pools") or self.default_pool_count))
        except (TypeError, ValueError):
            return self.default_pool_count

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        raise NotImplementedError

    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        raise NotImplementedError

    def bracket_plans(self, tournament: Tournament) -> list[brackets.Bracket]:
        raise DomainError(_("The %(format)s format has no knockout bracket.")
                            % {"format": tournament.get_format_display()})

    def after_result(self, tournament: Tournament, fixture: Fixture, *, user: Any = None) -> None:
        return None

    def complete(self, tournament: Tournament) -> bool:
        """Whether the tournament has fixtures and every one is decided (or cancelled): nothing left to play."""
        # Undecided first: while anything is left to play (nearly every result) this is the only query.
        return (not selectors.fixtures_undecided(tournament)
                and Fixture.objects.filter(tournament=tournament).exists())

    def table(self, tournament: Tournament) -> tuple[str, list[dict[str, Any]]]:
        return "", []


# -- Helpers of the presets --------------------------------------------------------------------------------


def plan_fields(fmt: TournamentFormat, kwargs: dict[str, Any], default_pitches: list[str] | None = None
                ) -> dict[str, Any]:
    """The tournament's plan (and time zone) from a preset's keyword arguments, the format's defaults filling
    what is not given: ``start_date``, ``first_kickoff``, ``slot_minutes``, ``changeover_minutes``,
    ``days_between_rounds``, ``venues``, ``time_zone``."""
    given = {"first_day": kwargs.get("start_date"), "first_kickoff": kwargs.get("first_kickoff"),
             "slot_minutes": kwargs.get("slot_minutes"), "changeover_minutes": kwargs.get("changeover_minutes"),
             "days_between_rounds": kwargs.get("days_between_rounds"),
             "pitches": kwargs.get("venues") if kwargs.get("venues") is not None else default_pitches}
    fields = schedule_settings_validate({**fmt.schedule_defaults, **{k: v for k, v in given.items() if v is not None}})
    if kwargs.get("time_zone"):
        fields["time_zone"] = kwargs["time_zone"]
    return fields


def format_teams(teams: Any, minimum: int, what: str) -> list[Any]:
    """The teams given to a preset (at least ``minimum``; ``what`` names the format in the message)."""
    teams = [t for t in (teams or []) if t]
    if len(teams) < minimum:
        raise DomainError({"teams": [_("%(what)s needs at least %(minimum)s teams; %(count)s chosen.")
                                     % {"what": what, "minimum": minimum, "count": len(teams)}]})
    return teams


def int_option(kwargs: dict[str, Any], key: str, default: int) -> int:
    value = kwargs.get(key, default)
    try:
        return int(value if value not in (None, "") else default)
    except (TypeError, ValueError):
        raise DomainError({key: [_("%(key)s must be a whole number, not %(value)s.")
                                   % {"key": key, "value": repr(value)}]})


def bool_option(kwargs: dict[str, Any], key: str, default: bool) -> bool:
    value = kwargs.get(key, default)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)
