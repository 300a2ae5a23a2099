"""Who may see and who may change a tournament: one module for the web pages, the API and the admin.

The rules (the same everywhere):

- **Public** tournaments that are not drafts are readable by anyone, signed in or not, and are listed.
- **Unlisted** tournaments that are not drafts are readable by anyone who has the link (its slug, or
  the id of one of its fixtures, pools or entries), but they are never *listed* to people who do not
  organise them. Unlisted means "not advertised", not "secret": the slug is the link.
- **Drafts** (status ``draft``, whatever the visibility) are readable only by their organisers: a
  tournament being set up is not shown to the public, and others get a 404 rather than a 403, so a
  draft's existence is not revealed.
- Only a tournament's **organisers** (and superusers) may change it, its entries, pools, fixtures and
  results.

``can_view_tournament``/``can_edit_tournament`` decide for one tournament; ``viewable_tournaments`` and
``listed_tournaments`` give the same decisions as querysets, so list pages and API lists filter in the
database instead of checking row by row (a fixed number of queries whatever the number of rows).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _
from rest_framework import permissions

from league.cache import tournament_by_slug
from league.errors import Forbidden, NotFound
from league.models import Event, Tournament

EDIT_DENIED_MESSAGE = _("Only the organisers of this tournament may change it.")


def _is_signed_in(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_active)


def is_organiser(user, tournament: Tournament) -> bool:
    """True when ``user`` is one of ``tournament``'s organisers (uses prefetched organisers if present)."""
    if not _is_signed_in(user) or tournament.pk is None:
        return False
    prefetched = getattr(tournament, "_prefetched_objects_cache", {}).get("organisers")
    if prefetched is not None:
        return any(organiser.pk == user.pk for organiser in prefetched)
    return tournament.organisers.filter(pk=user.pk).exists()


def can_edit_tournament(user, tournament: Tournament) -> bool:
    """True when ``user`` may change ``tournament`` and everything in it: its organisers and superusers."""
    if not _is_signed_in(user):
        return False
    return user.is_superuser or is_organiser(user, tournament)


def can_view_tournament(user, tournament: Tournament) -> bool:
    """True when ``user`` may read ``tournament``: anyone unless it is a draft, then only its organisers."""
    if tournament.status != Tournament.Status.DRAFT:
        # Public and unlisted alike: an unlisted tournament is readable by whoever has the link.
        return True
    return can_edit_tournament(user, tournament)


def _organised_by(user) -> Q:
    if not _is_signed_in(user):
        return Q(pk__in=[])
    # A subquery rather than a join on organisers, so the rows are never duplicated.
    return Q(pk__in=Tournament.organisers.through.objects.filter(user_id=user.pk).values("tournament_id"))


def viewable_tournaments(user, queryset: QuerySet | None = None) -> QuerySet:
    """The tournaments ``user`` may read (``can_view_tournament`` as a queryset)."""
    queryset = Tournament.objects.all() if queryset is None else queryset
    if _is_signed_in(user) and user.is_superuser:
        return queryset
    return queryset.filter(~Q(status=Tournament.Status.DRAFT) | _organised_by(user))


def listed_tournaments(user, queryset: QuerySet | None = None) -> QuerySet:
    """The tournaments shown to ``user`` in lists: public non-drafts plus the ones ``user`` organises."""
    queryset = Tournament.objects.all() if queryset is None else queryset
    if _is_signed_in(user) and user.is_superuser:
        return queryset
    return queryset.filter(
        Q(visibility=Tournament.Visibility.PUBLIC) & ~Q(status=Tournament.Status.DRAFT) | _organised_by(user)
    )


def editable_tournaments(user, queryset: QuerySet | None = None) -> QuerySet:
    """The tournaments ``user`` may change (``can_edit_tournament`` as a queryset)."""
    queryset = Tournament.objects.all() if queryset is None else queryset
    if not _is_signed_in(user):
        return queryset.none()
    if user.is_superuser:
        return queryset
    return queryset.filter(_organised_by(user))


def tournament_of(obj) -> Tournament | None:
    """The tournament an object belongs to: itself, ``obj.tournament`` or ``obj.fixture.tournament``."""
    if isinstance(obj, Tournament):
        return obj
    if hasattr(obj, "tournament"):
        return obj.tournament
    fixture = getattr(obj, "fixture", None)
    if fixture is not None:
        return fixture.tournament
    return None


class AuthenticateWhenAsked:
    """A viewset mixin: the caller is authenticated the first time something asks who it is, not before every
    request (DRF's documented lazy form of ``perform_authentication``).

    A crowd of signed-in phones polling a published tournament's lists is then answered from the cache without
    loading the session's user (a query, and a cache read of the session, per request). Writes still
    authenticate before anything else (the permission asks whether the caller is signed in), and so do reads
    whose answer depends on the caller (a draft, a list of one's own tournaments); a bad token is then a 401
    there, while a public read with one is answered as it is to anyone.
    """

    def perform_authentication(self, request):
        pass

    @property
    def caller(self):
        """The request's user, authenticated only when one of its attributes is read."""
        request = self.request
        return SimpleLazyObject(lambda: request.user)


class TournamentPermission(permissions.BasePermission):
    """DRF permission: reading follows ``can_view_tournament``, writing ``can_edit_tournament``.

    Writes need a signed-in user (anonymous callers get 401/403 before any lookup). Object checks find
    the tournament through ``tournament_of``; objects with no tournament (teams) are readable by all.
    """

    message = EDIT_DENIED_MESSAGE

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return _is_signed_in(request.user)

    def has_object_permission(self, request, view, obj):
        tournament = tournament_of(obj)
        if tournament is None:
            return True
        if request.method in permissions.SAFE_METHODS:
            return can_view_tournament(request.user, tournament)
        return can_edit_tournament(request.user, tournament)


def tournament_for(user, slug: str, *, edit: bool = False, cached: bool = False) -> Tournament:
    """Find a tournament by slug and check the caller: the one helper of the pages, the API and the admin.

    ``NotFound`` when there is none or ``user`` may not see it (a draft's existence is not revealed);
    ``Forbidden`` when ``edit`` and ``user`` may see but not change it. ``cached``: the public pages' copy of
    the row (``league.cache.tournament_by_slug``: no query when it is cached).

    The tournament's time zone becomes the current one, so the page shows and reads times in it
    (``config.middleware.TimeZoneMiddleware`` puts the site's back after the request).
    """
    if cached:
        tournament = tournament_by_slug(slug)
    else:
        tournament = Tournament.objects.filter(slug=slug).first() if len(slug) <= 60 else None
    return tournament_checked(user, tournament, edit=edit)


def tournament_checked(user, tournament: Tournament | None, *, edit: bool = False) -> Tournament:
    """:func:`tournament_for`'s checks of a tournament row already found (None: there is none)."""
    if tournament is None or not can_view_tournament(user, tournament):
        raise NotFound(_("No such tournament."))
    if edit and not can_edit_tournament(user, tournament):
        raise Forbidden(EDIT_DENIED_MESSAGE)
    timezone.activate(tournament.zone)
    return tournament


# --- events: the same rules, for an event and its organisers ----------------------------------------------------

EVENT_EDIT_DENIED_MESSAGE = _("Only the organisers of this event may change it.")


def can_edit_event(user, event: Event) -> bool:
    """True when ``user`` may change ``event`` (its settings, divisions and day): its organisers and
    superusers. Its divisions' tournaments are changed by their own organisers (an event's organisers are
    made organisers of each division it creates or takes in)."""
    if not _is_signed_in(user) or event.pk is None:
        return False
    if user.is_superuser:
        return True
    prefetched = getattr(event, "_prefetched_objects_cache", {}).get("organisers")
    if prefetched is not None:
        return any(organiser.pk == user.pk for organiser in prefetched)
    return event.organisers.filter(pk=user.pk).exists()


def can_view_event(user, event: Event) -> bool:
    """True when ``user`` may read ``event``: anyone unless it is a draft, then only its organisers."""
    return event.status != Tournament.Status.DRAFT or can_edit_event(user, event)


def _organises_event(user) -> Q:
    if not _is_signed_in(user):
        return Q(pk__in=[])
    return Q(pk__in=Event.organisers.through.objects.filter(user_id=user.pk).values("event_id"))


def viewable_events(user, queryset: QuerySet | None = None) -> QuerySet:
    """The events ``user`` may read (``can_view_event`` as a queryset)."""
    queryset = Event.objects.all() if queryset is None else queryset
    if _is_signed_in(user) and user.is_superuser:
        return queryset
    return queryset.filter(~Q(status=Tournament.Status.DRAFT) | _organises_event(user))


def listed_events(user, queryset: QuerySet | None = None) -> QuerySet:
    """The events shown to ``user`` in lists: public non-drafts plus the ones ``user`` organises."""
    queryset = Event.objects.all() if queryset is None else queryset
    if _is_signed_in(user) and user.is_superuser:
        return queryset
    return queryset.filter(
        Q(visibility=Tournament.Visibility.PUBLIC) & ~Q(status=Tournament.Status.DRAFT) | _organises_event(user))


def event_for(user, slug: str, *, edit: bool = False) -> Event:
    """Find an event by slug and check the caller (``tournament_for`` for events): ``NotFound`` when there is
    none or it is a draft ``user`` does not organise, ``Forbidden`` when ``edit`` and ``user`` may only read it.
    The event's time zone becomes the current one."""
    event = Event.objects.filter(slug=slug).first() if len(slug) <= 60 else None
    if event is None or not can_view_event(user, event):
        raise NotFound(_("No such event."))
    if edit and not can_edit_event(user, event):
        raise Forbidden(EVENT_EDIT_DENIED_MESSAGE)
    timezone.activate(event.zone)
    return event


class EventPermission(permissions.BasePermission):
    """DRF permission of events: reading follows ``can_view_event``, writing ``can_edit_event``."""

    message = EVENT_EDIT_DENIED_MESSAGE

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return _is_signed_in(request.user)

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return can_view_event(request.user, obj)
        return can_edit_event(request.user, obj)


def can_score_fixture(user, link, fixture) -> bool:
    """True when ``user`` (an organiser) or the holder of ``link`` (a live scorer link, or None) may score
    ``fixture`` live: an organiser always may; a link only its own fixture, or the fixtures on its pitch."""
    if can_edit_tournament(user, fixture.tournament):
        return True
    if link is None or link.revoked_at is not None or link.tournament_id != fixture.tournament_id:
        return False
    if link.fixture_id is not None:
        return link.fixture_id == fixture.pk
    return bool(link.venue) and link.venue == fixture.venue
