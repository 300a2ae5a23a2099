"""Writes of tournaments: create, change settings, publish or hide, organisers, delete."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from engine import MANUAL
from league.cache import data_changed, forget_tournament, tournament_changed
from league.errors import Conflict, DomainError
from league.models import Tournament
from league.services.schedule import fixtures_keep_wall_clock
from league.standings import POINTS_PRESETS
from league.text import clean_text

_UNSET: Any = object()


def _user_or_none(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def tournament_create(
    *,
    name: str,
    slug: str,
    ruleset: str = MANUAL,
    points_system: str = Tournament.PointsSystem.WORLD_RUGBY,
    format: str = Tournament.Format.LEAGUE,
    double_round_robin: bool = False,
    visibility: str = Tournament.Visibility.PUBLIC,
    status: str = Tournament.Status.DRAFT,
    user: Any = None,
    organisers: Iterable[Any] = (),
    win_points: Any = _UNSET,
    draw_points: Any = _UNSET,
    loss_points: Any = _UNSET,
    try_bonus_threshold: Any = _UNSET,
    losing_bonus_margin: Any = _UNSET,
    **other_fields: Any,
) -> Tournament:
    """Create a tournament; ``user`` (if given) becomes an organiser.

    A points-system preset (world_rugby, rugby_league, football) fills the win,
    draw, loss and bonus numbers; numbers passed explicitly override it (and
    "custom" starts from the World Rugby numbers). ``other_fields`` are further
    Tournament fields (ruleset_options, format_options, walkover_score...).
    """
    preset = POINTS_PRESETS.get(points_system, POINTS_PRESETS["world_rugby"])
    numbers = {
        "win_points": preset.win, "draw_points": preset.draw, "loss_points": preset.loss,
        "try_bonus_threshold": preset.try_bonus_threshold, "losing_bonus_margin": preset.losing_bonus_margin,
    }
    for key, value in (("win_points", win_points), ("draw_points", draw_points), ("loss_points", loss_points),
                       ("try_bonus_threshold", try_bonus_threshold), ("losing_bonus_margin", losing_bonus_margin)):
        if value is not _UNSET:
            numbers[key] = value
    allowed = {f.name for f in Tournament._meta.get_fields() if getattr(f, "editable", False) and f.concrete}
    unknown = sorted(set(other_fields) - allowed)
    if unknown:
        raise DomainError(f"Unknown tournament field(s): {', '.join(unknown)}.")
    if Tournament.objects.filter(slug=slug).exists():
        raise DomainError({"slug": [f"A tournament with the slug {slug!r} already exists: choose another."]})
    tournament = Tournament(name=name, slug=slug, ruleset=ruleset, points_system=points_system, format=format,
                            double_round_robin=double_round_robin, visibility=visibility, status=status,
                            **numbers, **other_fields)
    return tournament_save(tournament=tournament, user=user, organisers=organisers)


@transaction.atomic
def tournament_save(*, tournament: Tournament, user: Any = None, organisers: Iterable[Any] = ()) -> Tournament:
    """Save a tournament whose fields the caller has set (a new one, or the admin's changes), after checking it.

    ``full_clean`` checks the slug's form and uniqueness, the choices (rule set included), the numbers and
    the rule set's options (``Tournament.clean``). A new tournament's ``user`` becomes its organiser;
    a changed one's cached pages are refreshed.
    """
    created = tournament.pk is None
    tournament.name = clean_text(tournament.name)
    tournament.full_clean()
    tournament.save()
    people = [*organisers, *([user] if created and _user_or_none(user) is not None else [])]
    if people:
        tournament.organisers.add(*people)
    if not created:
        tournament_changed(tournament)
    else:
        data_changed()  # a new tournament in the lists
    return tournament


# Fields an organiser changes after creation (the settings page, the API, the admin's actions).
SETTINGS_FIELDS = frozenset({
    "name", "visibility", "status", "points_system", "win_points", "draw_points", "loss_points",
    "try_bonus_threshold", "losing_bonus_margin", "walkover_score", "walkover_tries", "ruleset_options",
    "format_options", "time_zone", "move_clock_seconds", "half_minutes",
    "live_result_needs_confirmation",
})


def tournament_update(*, tournament: Tournament, user: Any = None, **fields: Any) -> Tournament:
    """Change a tournament's settings (name, visibility, status, points numbers, walkover score, options,
    time zone). A new time zone keeps every kick-off's local time (09:00 stays 09:00, in the new zone)."""
    unknown = sorted(set(fields) - SETTINGS_FIELDS)
    if unknown:
        raise DomainError({name: ["This cannot be changed once the tournament exists."] for name in unknown})
    old_zone = tournament.time_zone
    for name, value in fields.items():
        setattr(tournament, name, value)
    try:
        with transaction.atomic():
            tournament_save(tournament=tournament)
            if tournament.time_zone != old_zone:
                fixtures_keep_wall_clock(tournament=tournament, old_zone=old_zone, user=user)
        return tournament
    except ValidationError:
        tournament.refresh_from_db()  # the caller's object is not left half-changed
        raise


def tournament_require_open(tournament: Tournament) -> None:
    """Refuse (409) a change of results, a simulation or a draw on a finished tournament: finished is final
    until an organiser reopens it (:func:`tournament_reopen`)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(f"{tournament.name} is finished: its results cannot change. An organiser can reopen it "
                       "from its dashboard to correct them.", reason="finished")


def tournament_reopen(*, tournament: Tournament) -> Tournament:
    """Reopen a finished tournament (back to in progress) so its results can be corrected; it finishes again
    with the next result that completes it."""
    if tournament.status != Tournament.Status.FINISHED:
        raise Conflict("Only a finished tournament can be reopened.", reason="not_finished")
    return tournament_update(tournament=tournament, status=Tournament.Status.IN_PROGRESS)


def tournament_publish(*, tournament: Tournament) -> Tournament:
    """Publish: listed for everyone (public), and no longer a draft (in progress)."""
    status = Tournament.Status.IN_PROGRESS if tournament.status == Tournament.Status.DRAFT else tournament.status
    return tournament_update(tournament=tournament, visibility=Tournament.Visibility.PUBLIC, status=status)


def tournament_hide(*, tournament: Tournament) -> Tournament:
    """Hide from the lists (unlisted): people with the link still see it."""
    return tournament_update(tournament=tournament, visibility=Tournament.Visibility.UNLISTED)


@transaction.atomic
def tournament_delete(*, tournament: Tournament) -> None:
    """Delete a tournament with everything in it (entries, pools, fixtures, results and their audit rows)."""
    slug = tournament.slug
    tournament.delete()
    forget_tournament(slug)


def organiser_add(*, tournament: Tournament, user: Any) -> None:
    """Make ``user`` an organiser of ``tournament``."""
    if _user_or_none(user) is None:
        raise DomainError({"username": ["Only a signed-up user can organise a tournament."]})
    tournament.organisers.add(user)
    data_changed()  # in their list of tournaments now


def organisers_set(*, tournament: Tournament, users: Iterable[Any]) -> None:
    """Replace the organisers of ``tournament`` (the admin's organisers field)."""
    tournament.organisers.set(list(users))
    data_changed()
