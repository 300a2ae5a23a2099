"""Writes that depend on the tournament's format: presets, generating fixtures, brackets, draws.

Each asks the format (``league.formats``) what to do: no format is named here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date, time
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from league import draws, queue
from league.errors import Conflict, DomainError, Unavailable, error_text
from league.formats import FORMATS, format_of
from league.models import Entry, Fixture, FixtureJob, Team, Tournament
from league.services.fixtures import bracket_fixtures_create, fixtures_generate_round_robin, pools_fill
from league.services.schedule import schedule_settings_save
from league.services.teams import entries_add, teams_from_rows
from league.services.tournaments import tournament_create, tournament_require_open, tournament_update


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
        raise DomainError(_("Unknown preset %(preset)s; choose one of: %(choices)s.")
                            % {"preset": repr(preset), "choices": ', '.join(sorted(FORMATS))})
    with transaction.atomic():
        return fmt.preset(**kwargs)


def tournament_create_blank(*, format: str = Tournament.Format.LEAGUE, **fields: Any) -> Tournament:
    """A tournament to set up step by step (``services.tournament_create``), with its format's plan of days
    (a weekly league, or a one-day festival) unless ``fields`` say otherwise."""
    fmt = FORMATS.get(format)
    if fmt is None:
        raise DomainError({"format": [_("Unknown format %(format)s; choose one of: %(choices)s.")
                                        % {"format": repr(format), "choices": ', '.join(sorted(FORMATS))}]})
    return tournament_create(format=format, **{**fmt.schedule_defaults, **fields})


@transaction.atomic
def tournament_start(*, format: str, name: str, user: Any, slug: str | None = None, teams: Sequence[Team] = (),
                     team_rows: Sequence[Mapping[str, Any]] = (), nations: bool = False,
                     ruleset: str | None = None, **options: Any) -> Tournament:
    """Create a tournament from the "new tournament" page: a format, and the teams chosen with it.

    The teams, entered in this order (their seeds): the 20 RWC 2023 nations (``nations``, by ranking),
    ``teams`` (the organiser's own, chosen from a list), then ``team_rows`` (a pasted list or a CSV:
    ``teams_from_rows``, which makes the new ones the organiser's). With teams, the format's preset sets the
    whole tournament up (pools, fixtures, bracket); a format that brings its own teams (RWC 2023) always
    does. With none, the tournament is a draft that keeps the format's options for later, and the organiser
    adds the teams on its Teams page. ``ruleset`` None or "": the format's default. ``options``: the preset's
    (``points_system``, ``points_rules``, ``visibility``, ``double``, ``pools``, ``rounds``, ``attempts``...).
    All or nothing, in one transaction.
    """
    fmt = FORMATS.get(format)
    if fmt is None:
        raise DomainError({"format": [_("Unknown format %(format)s; choose one of: %(choices)s.")
                                        % {"format": repr(format), "choices": ', '.join(sorted(FORMATS))}]})
    ruleset = ruleset or fmt.default_ruleset()
    chosen: list[Team] = []
    if not fmt.fixed_teams:
        if nations:
            chosen += list(Team.objects.filter(is_nation=True).order_by("world_ranking", "code"))
        chosen += list(teams)
        chosen += teams_from_rows(rows=team_rows, owner=user)
    too_many = round_robin_fixtures(fmt, len(chosen), options) > int(settings.FIXTURES_PER_REQUEST)
    if (chosen and not too_many) or fmt.fixed_teams:
        return fmt.preset(name=name, slug=slug, teams=chosen, user=user, ruleset=ruleset, **options)
    fields = {key: options[key] for key in ("points_system", "points_rules", "visibility", "time_zone")
              if options.get(key) is not None}
    tournament = tournament_create_blank(name=name, slug=slug, format=format, ruleset=ruleset, user=user,
                                         double_round_robin=bool(options.get("double")),
                                         status=Tournament.Status.DRAFT, format_options=fmt.options(options), **fields)
    if chosen:
        # More fixtures than one request makes (a 1,000-team league: 499,500): a draft with its teams, whose
        # fixtures a worker makes from its Fixtures page (``fixtures_generate_or_queue``, with a progress page).
        entries_add(tournament=tournament, teams=chosen, user=user)
    return tournament


def round_robin_fixtures(fmt: Any, teams: int, options: Mapping[str, Any]) -> int:
    """How many fixtures ``fmt``'s preset would make at once for ``teams`` teams: its pools' round robins (the
    other formats make a round or a bracket, a few per team)."""
    if not fmt.round_robin or teams < 2:
        return 0
    try:
        pools = max(1, int(options.get("pools") or fmt.default_pool_count))
    except (TypeError, ValueError):
        pools = fmt.default_pool_count
    per_pool = -(-teams // pools)
    return pools * per_pool * (per_pool - 1) // 2 * (2 if options.get("double") else 1)


@transaction.atomic
def tournament_settings_change(*, tournament: Tournament, user: Any = None, **fields: Any) -> Tournament:
    """Change a tournament's settings (``services.tournament_update``), after its format has checked any new
    format options (a Swiss tournament's rounds against its teams and the rounds already paired)."""
    if "format_options" in fields:
        options = fields["format_options"]
        if not isinstance(options, dict):
            raise DomainError({"format_options": [_("Format options must be a JSON object.")]})
        format_of(tournament).check_options(tournament, options)
    return tournament_update(tournament=tournament, user=user, **fields)


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


# -- Large generations: on the workers, with progress -----------------------------------------------------------

logger = logging.getLogger(__name__)


def fixtures_planned_count(tournament: Tournament, *, double: bool | None = None) -> int:
    """How many fixtures a round-robin generation would write at most: every pool's round robin (all the entries
    in one when there are no pools), doubled for home and away. Other formats write far fewer."""
    double = tournament.double_round_robin if double is None else double
    sizes = list(Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True, pool__isnull=False)
                 .values("pool").annotate(n=Count("pk")).values_list("n", flat=True))
    if not sizes:
        sizes = [Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()]
    return sum(n * (n - 1) // 2 for n in sizes) * (2 if double else 1)


def _options_json(schedule: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value.isoformat() if isinstance(value, date | time) else value for key, value in schedule.items()}


def _options_from_json(options: Mapping[str, Any]) -> dict[str, Any]:
    values = dict(options)
    if values.get("start_date"):
        values["start_date"] = date.fromisoformat(values["start_date"])
    if values.get("first_kickoff"):
        values["first_kickoff"] = time.fromisoformat(values["first_kickoff"])
    return values


def fixtures_generate_or_queue(*, tournament: Tournament, user: Any = None, **schedule: Any) -> FixtureJob | None:
    """Generate the fixtures now (as :func:`fixtures_generate`) when they are few; when there would be more than
    ``settings.FIXTURES_PER_REQUEST``, make a :class:`FixtureJob` and let a worker do it (returned, for its
    progress page). Refused beyond ``settings.MAX_FIXTURES_PER_TOURNAMENT``, while another job of the tournament
    is going, and (``Unavailable``) when the workers cannot be reached."""
    planned = fixtures_planned_count(tournament, double=schedule.get("double"))
    limit = int(settings.MAX_FIXTURES_PER_TOURNAMENT)
    if planned > limit:
        raise DomainError(_("That would make %(planned)s fixtures; a tournament can have at most %(limit)s. Split the "
                            "teams into more pools.") % {"planned": format(planned, ','), "limit": format(limit, ',')})
    if planned <= int(settings.FIXTURES_PER_REQUEST):
        fixtures_generate(tournament=tournament, user=user, **schedule)
        return None
    if FixtureJob.objects.filter(tournament=tournament, status__in=[FixtureJob.Status.QUEUED,
                                                                    FixtureJob.Status.RUNNING]).exists():
        raise Conflict(_("The fixtures of this tournament are being generated already: wait for them."))
    if not queue.broker_available():
        raise Unavailable(_("%(planned)s fixtures are made by the workers, and they cannot be reached now (their "
                            "queue, Redis, is down): nothing was changed. Try again in a minute.")
                            % {"planned": format(planned, ',')})
    with transaction.atomic():
        job = FixtureJob.objects.create(tournament=tournament, options=_options_json(schedule), total=planned,
                                        created_by=user if getattr(user, "is_authenticated", False) else None)
        transaction.on_commit(lambda: _queue_job(job.pk))
    return job


def _queue_job(job_id: int) -> None:
    if not queue.queue("fixture_job_run", (job_id,)):
        FixtureJob.objects.filter(pk=job_id, status=FixtureJob.Status.QUEUED).update(
            status=FixtureJob.Status.FAILED, finished_at=timezone.now(), error_code=FixtureJob.UNREACHABLE)


def fixture_job_run(*, job_id: int) -> FixtureJob | None:
    """Run a queued fixture generation (the worker's task): the same generation as in a request, in one
    transaction; the job records how many fixtures were written, or why it was refused."""
    claimed = FixtureJob.objects.filter(pk=job_id, status=FixtureJob.Status.QUEUED).update(
        status=FixtureJob.Status.RUNNING)
    job = FixtureJob.objects.select_related("tournament", "created_by").filter(pk=job_id).first()
    if job is None or not claimed:
        return job  # gone, or another delivery of the message has it
    before = Fixture.objects.filter(tournament=job.tournament).count()
    try:
        fixtures_generate(tournament=job.tournament, user=job.created_by, **_options_from_json(job.options))
    except ValidationError as exc:
        job.status, job.error_code = FixtureJob.Status.FAILED, FixtureJob.REFUSED
        job.error_params = {"detail": error_text(exc)}
    except Exception as exc:
        logger.exception("fixture job %s failed", job_id)
        job.status, job.error_code = FixtureJob.Status.FAILED, FixtureJob.CRASHED
        job.error_params = {"detail": str(exc)}
    else:
        job.status = FixtureJob.Status.FINISHED
        job.done = Fixture.objects.filter(tournament=job.tournament).count() - before
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "error_code", "error_params", "done", "finished_at"])
    return job
