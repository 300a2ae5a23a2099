"""Writes of tournaments: create, change settings (the points system among them), publish or hide,
organisers, delete. Each change that is not a result is kept in the audit trail (``AuditRecord``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine import MANUAL, get_spec
from league import advancement, hooks
from league.cache import data_changed, forget_tournament, tournament_changed
from league.errors import Conflict, DomainError
from league.models import AuditRecord, Tournament
from league.services.audit import audit_record
from league.services.schedule import fixtures_keep_wall_clock
from league.standings import POINTS_PRESETS, PointsSystem
from league.text import clean_text

CUSTOM = Tournament.PointsSystem.CUSTOM.value
SLUG_LENGTH: int = Tournament._meta.get_field("slug").max_length or 60


def _user_or_none(user: Any) -> Any:
    return user if getattr(user, "is_authenticated", False) else None


def tournament_free_slug(name: str) -> str:
    """A web address made from ``name`` that no tournament has yet: "winter-league", then "winter-league-2"..."""
    base = slugify(name)[:SLUG_LENGTH].strip("-") or "tournament"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    for n in range(2, 10_000):
        suffix = f"-{n}"
        candidate = base[:SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
        if candidate not in taken:
            return candidate
    raise DomainError({"slug": [_("Choose a web address for this tournament.")]})


def points_rules_for(points_system: str, points_rules: Mapping[str, Any] | None = None) -> tuple[str, dict]:
    """The (preset name, whole system) a tournament stores for a chosen points system.

    A preset's name gives its rules; rules sent with a preset's name must be exactly the preset's (a preset
    never silently replaces what was chosen with it: choose "custom" to set the parts); "custom" takes the
    rules given (checked by ``PointsSystem.from_dict``), starting from World Rugby's for the parts not given.
    """
    if points_system != CUSTOM and points_system not in POINTS_PRESETS:
        known = ", ".join([*POINTS_PRESETS, CUSTOM])
        raise DomainError({"points_system": [_("Unknown points system %(name)s; choose one of: %(known)s.")
                                             % {"name": points_system, "known": known}]})
    if points_system != CUSTOM:
        preset = POINTS_PRESETS[points_system].as_dict()
        if points_rules is not None and dict(points_rules) and _checked(points_rules).as_dict() != preset:
            raise DomainError({"points_rules": [
                _("These rules are not the %(name)s points system's: choose “custom” to set every part.")
                % {"name": points_system}]})
        return points_system, preset
    rules = {**POINTS_PRESETS["world_rugby"].as_dict(), **dict(points_rules or {})}
    return CUSTOM, _checked(rules).as_dict()


def _checked(rules: Mapping[str, Any]) -> PointsSystem:
    try:
        return PointsSystem.from_dict(dict(rules))
    except (TypeError, ValueError) as exc:
        raise DomainError({"points_rules": [str(exc)]})


def _check_ruleset_fits_format(ruleset: str, format: str) -> None:
    """A solo game is played in a solo challenge, and a solo challenge needs a solo game (or results by hand)."""
    try:
        spec = get_spec(ruleset)
    except KeyError:
        return  # the field's own check (full_clean) names the unknown rule set
    solo_format = format == Tournament.Format.SOLO
    if spec.solo and not solo_format:
        raise DomainError({"ruleset": [_("%(game)s is a game for one player: choose the solo challenge format, "
                                         "or a game for two sides.") % {"game": spec.name}]})
    if solo_format and ruleset != MANUAL and not spec.solo:
        raise DomainError({"ruleset": [_("A solo challenge is played against a solo game (or off the site, with "
                                         "results entered by hand); %(game)s is played by two sides.")
                                       % {"game": spec.name}]})


def tournament_create(
    *,
    name: str,
    slug: str | None = None,
    ruleset: str = MANUAL,
    points_system: str = Tournament.PointsSystem.WORLD_RUGBY,
    points_rules: Mapping[str, Any] | None = None,
    format: str = Tournament.Format.LEAGUE,
    double_round_robin: bool = False,
    visibility: str = Tournament.Visibility.PUBLIC,
    status: str = Tournament.Status.DRAFT,
    user: Any = None,
    organisers: Iterable[Any] = (),
    **other_fields: Any,
) -> Tournament:
    """Create a tournament; ``user`` (if given) becomes an organiser.

    ``slug``: its web address; when None or empty, a free one is made from the name ("winter-league-2" when
    "winter-league" is taken). ``points_system``: a preset's name (its rules) or "custom" with
    ``points_rules`` (see ``points_rules_for``). ``other_fields`` are further Tournament fields
    (ruleset_options, format_options, walkover_score...).
    """
    points_system, rules = points_rules_for(points_system, points_rules)
    allowed = {f.name for f in Tournament._meta.get_fields() if getattr(f, "editable", False) and f.concrete}
    unknown = sorted(set(other_fields) - allowed)
    if unknown:
        raise DomainError(_("Unknown tournament field(s): %(names)s.") % {"names": ", ".join(unknown)})
    if not slug:
        slug = tournament_free_slug(name)
    elif Tournament.objects.filter(slug=slug).exists():
        raise DomainError({"slug": [_("A tournament with the web address “%(slug)s” already exists: choose another.")
                                    % {"slug": slug}]})
    _check_ruleset_fits_format(ruleset, format)
    tournament = Tournament(name=name, slug=slug, ruleset=ruleset, points_system=points_system, points_rules=rules,
                            format=format, double_round_robin=double_round_robin, visibility=visibility,
                            status=status, **other_fields)
    return tournament_save(tournament=tournament, user=user, organisers=organisers)


# Fields an organiser changes after creation (the settings page, the API, the admin's actions).
SETTINGS_FIELDS = frozenset({
    "name", "visibility", "status", "points_system", "points_rules", "walkover_score", "walkover_tries",
    "ruleset_options", "format_options", "time_zone", "move_clock_seconds", "half_minutes",
    "live_result_needs_confirmation",
})
_POINTS_FIELDS = ("points_system", "points_rules")


@transaction.atomic
def tournament_save(*, tournament: Tournament, user: Any = None, organisers: Iterable[Any] = ()) -> Tournament:
    """Save a tournament whose fields the caller has set (a new one, or the admin's or a service's changes).

    ``full_clean`` checks the slug's form and uniqueness, the choices (rule set included), the rule set's
    options and the points rules (``Tournament.clean``). A new tournament's ``user`` becomes its organiser.
    A changed one's settings changes are kept in the audit trail (``user`` made them) and its pages
    refreshed; a new time zone keeps every kick-off's local time (``fixtures_keep_wall_clock``, which records
    it in the schedule's trail); when its points system changed, every table is derived again and with them the knockout
    slots filled from pools, which refuses (and rolls back) a change that would alter a knockout match
    already played, as a result correction does.
    """
    created = tournament.pk is None
    tournament.name = clean_text(tournament.name)
    if not tournament.points_rules:
        preset = POINTS_PRESETS.get(tournament.points_system, POINTS_PRESETS["world_rugby"])
        tournament.points_rules = preset.as_dict()
    if tournament.points_system != CUSTOM and tournament.points_system in POINTS_PRESETS and \
            _checked(tournament.points_rules or {}).as_dict() != POINTS_PRESETS[tournament.points_system].as_dict():
        # Rules edited part by part (the admin's JSON) are no longer the preset they started from.
        tournament.points_system = CUSTOM
    before = None if created else Tournament.objects.filter(pk=tournament.pk).values(*SETTINGS_FIELDS).first()
    if before is not None and before["status"] == Tournament.Status.FINISHED and \
            tournament.status == Tournament.Status.FINISHED and \
            any(before[name] != getattr(tournament, name) for name in _POINTS_FIELDS):
        # A new points system works every table out again: on a finished tournament that is a change of its
        # final standings, refused as a result correction is until an organiser reopens it.
        tournament_require_open(tournament)
    tournament.full_clean()
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:  # the same web address taken by another request a moment ago
        raise DomainError({"slug": [_("A tournament with this web address was just created: choose another.")]})
    people = [*organisers, *([user] if created and _user_or_none(user) is not None else [])]
    if people:
        tournament.organisers.add(*people)
    if not created:
        after = {name: getattr(tournament, name) for name in SETTINGS_FIELDS}
        changed = sorted(name for name in SETTINGS_FIELDS if before is not None and before[name] != after[name])
        if "time_zone" in changed and before is not None:
            # The schedule's trail records a zone change with every kick-off it kept at its local time (09:00
            # stays 09:00): once, there, whoever changed it (the page, the API or the admin).
            fixtures_keep_wall_clock(tournament=tournament, old_zone=before["time_zone"], user=user)
            changed.remove("time_zone")
        if changed:
            audit_record(action=AuditRecord.Action.SETTINGS_CHANGED, tournament=tournament, user=user,
                         old={name: before[name] for name in changed} if before else None,
                         new={name: after[name] for name in changed})
        if any(name in changed for name in _POINTS_FIELDS):
            advancement.rederive(tournament, user=user)
            hooks.results_changed(tournament.pk)
        tournament_changed(tournament)
    else:
        data_changed()  # a new tournament in the lists
    return tournament


def tournament_update(*, tournament: Tournament, user: Any = None, **fields: Any) -> Tournament:
    """Change a tournament's settings (name, visibility, status, points system, walkover score, options, time
    zone).

    ``points_system`` alone (a preset's name) brings that preset's rules; "custom" takes ``points_rules``.
    A new time zone keeps every kick-off's local time (09:00 stays 09:00, in the new zone). A refused change
    leaves the caller's object as it was.
    """
    unknown = sorted(set(fields) - SETTINGS_FIELDS)
    if unknown:
        raise DomainError({name: [_("This cannot be changed once the tournament exists.")] for name in unknown})
    if "points_system" in fields or "points_rules" in fields:
        system = fields.get("points_system", tournament.points_system)
        rules = fields.get("points_rules")
        if "points_system" not in fields and rules is not None:
            system = CUSTOM  # rules sent alone are a custom system
        if system == CUSTOM and rules is None:
            rules = tournament.points_rules  # "custom" alone keeps the rules as they are, to edit from there
        fields["points_system"], fields["points_rules"] = points_rules_for(system, rules)
    for name, value in fields.items():
        setattr(tournament, name, value)
    try:
        return tournament_save(tournament=tournament, user=user)
    except ValidationError:
        tournament.refresh_from_db()  # the caller's object is not left half-changed
        raise


def tournament_require_open(tournament: Tournament) -> None:
    """Refuse (409) a change of results, a simulation or a draw on a finished tournament: finished is final
    until an organiser reopens it (:func:`tournament_reopen`)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("%(tournament)s is finished: its results cannot change. An organiser can reopen it from its "
                         "dashboard to correct them.") % {"tournament": tournament.name}, reason="finished")


def tournament_reopen(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Reopen a finished tournament (back to in progress) so its results can be corrected; it finishes again
    with the next result that completes it."""
    if tournament.status != Tournament.Status.FINISHED:
        raise Conflict(_("Only a finished tournament can be reopened."), reason="not_finished")
    return tournament_update(tournament=tournament, status=Tournament.Status.IN_PROGRESS, user=user)


def tournament_publish(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Publish: listed for everyone (public), and no longer a draft (in progress)."""
    status = Tournament.Status.IN_PROGRESS if tournament.status == Tournament.Status.DRAFT else tournament.status
    return tournament_update(tournament=tournament, visibility=Tournament.Visibility.PUBLIC, status=status,
                             user=user)


def tournament_hide(*, tournament: Tournament, user: Any = None) -> Tournament:
    """Hide from the lists (unlisted): people with the link still see it."""
    return tournament_update(tournament=tournament, visibility=Tournament.Visibility.UNLISTED, user=user)


@transaction.atomic
def tournament_delete(*, tournament: Tournament, user: Any = None) -> None:
    """Delete a tournament with everything in it (entries, pools, fixtures, results and their audit rows);
    the audit trail keeps one record of the deletion (who, when, the name)."""
    slug = tournament.slug
    audit_record(action=AuditRecord.Action.TOURNAMENT_DELETED, tournament=tournament, user=user,
                 old={"name": tournament.name, "slug": slug, "format": tournament.format,
                      "entries": tournament.entries.count(), "fixtures": tournament.fixtures.count()})
    tournament.delete()
    forget_tournament(slug)


@transaction.atomic
def organiser_add(*, tournament: Tournament, user: Any, by: Any = None) -> None:
    """Make ``user`` an organiser of ``tournament`` (``by``: who added them, for the audit trail)."""
    if _user_or_none(user) is None:
        raise DomainError({"username": [_("Only a signed-up user can organise a tournament.")]})
    if tournament.organisers.filter(pk=user.pk).exists():
        return
    tournament.organisers.add(user)
    data_changed()  # in their list of tournaments now
    audit_record(action=AuditRecord.Action.ORGANISER_ADDED, tournament=tournament, user=by,
                 new={"username": user.get_username()})


@transaction.atomic
def organiser_remove(*, tournament: Tournament, user: Any, by: Any = None) -> None:
    """Stop ``user`` organising ``tournament`` (``by``: who did it). The last organiser is never removed:
    a tournament nobody organises could not be changed or deleted by anyone but the site's administrators."""
    organisers = list(Tournament.objects.select_for_update().get(pk=tournament.pk).organisers.all())
    if all(o.pk != user.pk for o in organisers):
        raise DomainError(_("%(name)s does not organise this tournament.") % {"name": user.get_username()},
                          code="not_found")
    if len(organisers) == 1:
        raise Conflict(_("%(name)s is the only organiser: invite another before leaving, or delete the "
                         "tournament.") % {"name": user.get_username()})
    tournament.organisers.remove(user)
    data_changed()  # no longer in their list of tournaments
    audit_record(action=AuditRecord.Action.ORGANISER_REMOVED, tournament=tournament, user=by,
                 old={"username": user.get_username()})


def organisers_set(*, tournament: Tournament, users: Iterable[Any]) -> None:
    """Replace the organisers of ``tournament`` (the admin's organisers field)."""
    tournament.organisers.set(list(users))
    data_changed()
