"""REST API views: teams, tournaments, entries, pools, fixtures, results and standings.

Thin views: they pick the rows the caller may see (``league.permissions``), validate with the
serializers and hand writes that carry rules to ``league.services``. Lists filter in the database
and fetch related rows up front, so each list costs a fixed number of queries whatever its length.

Who may do what (the same rules as the web pages):
- read: anyone, for tournaments that are not drafts (lists show public ones plus the caller's own;
  an unlisted tournament is read through its slug or with ``?tournament=<slug>``); drafts only
  their organisers (others get 404);
- write: only the tournament's organisers (and superusers); others get 403 with a message,
  anonymous callers 401/403;
- teams: anyone reads, signed-in users create their own, only their creator changes them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

from axes.helpers import get_cool_off
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from league import format_selectors, live_selectors, match_clock, schedule_selectors, selectors, services
from league.cache import FRAGMENT_TIMEOUT, TEMPLATE_REVISION, data_version, fixed_fact, versioned_answer
from league.clients import client_ip, too_many_requests
from league.errors import DomainError, error_text
from league.formats import FORMATS
from league.models import Entry, Pool, Result, Team, Tournament
from league.permissions import (
    EDIT_DENIED_MESSAGE,
    AuthenticateWhenAsked,
    TournamentPermission,
    can_edit_tournament,
    listed_tournaments,
    tournament_for,
    viewable_tournaments,
)
from league.selectors import teams_for
from league.serializers import (
    BracketMatchSerializer,
    EntrySerializer,
    EntryWithdrawResultSerializer,
    EntryWithdrawSerializer,
    ErrorSerializer,
    FixtureFilterSerializer,
    FixtureSerializer,
    FixtureSwapSerializer,
    ImportSummarySerializer,
    LeaderboardRowSerializer,
    LiveEventsSerializer,
    LiveSerializer,
    PoolSerializer,
    PoolStandingsSerializer,
    PushSerializer,
    ResultChangeSerializer,
    ResultSerializer,
    ResultsImportSerializer,
    ResultWriteSerializer,
    ScheduleChangeSerializer,
    SchedulePlanSerializer,
    ScheduleResultSerializer,
    SwissRowSerializer,
    TeamFilterSerializer,
    TeamSerializer,
    TournamentFilterSerializer,
    TournamentScopeFilterSerializer,
    TournamentSerializer,
)
from league.services import live as live_services


class TokenObtainThrottle(AnonRateThrottle):
    """Password guesses through the token endpoint are limited per client (``league.clients.client_ip``: a new
    ``X-Forwarded-For`` per request is the same client). Wrong passwords also count towards the sign-in
    lock-out (django-axes), shared with the sign-in page."""

    scope = "token-obtain"

    def get_rate(self):
        return settings.TOKEN_RATE  # "20/m": DRF reads the first letter of the period

    def get_ident(self, request):
        return client_ip(request)

    def get_cache_key(self, request, view):
        # Counted for every caller, signed in or not: it is the password being tried, not the session.
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenObtainView(ObtainAuthToken):
    """Exchange a username and password for an API token (``Authorization: Token <key>``)."""

    throttle_classes = [TokenObtainThrottle]

    def post(self, request, *args, **kwargs):
        try:
            return super().post(request, *args, **kwargs)
        except DRFValidationError:
            # django-axes marks the request when this client is locked out: the same 429 as the sign-in page.
            if getattr(request, "axes_locked_out", False) or getattr(request._request, "axes_locked_out", False):
                cool_off = get_cool_off(request._request)
                return too_many_requests(request._request, int(cool_off.total_seconds()) if cool_off else 900)
            raise


# What the filters' SlugField accepts as it is (anything else goes through the serializer, for its message).
_PLAIN_SLUG = re.compile(r"[-a-zA-Z0-9_]+")


def _query_params(serializer_class, request) -> dict:
    """Validate a list's query parameters: a bad value is a 400 with the parameter's message."""
    serializer = serializer_class(data=request.query_params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _apply(instance, data: dict):
    """Set a serializer's validated fields on its instance (the service saves it)."""
    for name, value in data.items():
        setattr(instance, name, value)
    return instance


def _pool_standings_json(pool, rows) -> dict:
    return {"pool": pool.name, "rows": [selectors.standing_row_data(row) for row in rows]}


# -- Cached reads ----------------------------------------------------------------------------------------------
#
# Every list is read far more often than it changes (a crowd's phones polling the fixtures and the standings), so
# its JSON is built once and kept, as the public pages are (``league.cache``): a tournament's lists under its
# version (bumped by every service that changes what they show), the lists across tournaments under the site's
# data version and the caller. A hit costs no query and no serializer: the bytes go out as they were rendered.


def tournament_scope(tournament: Tournament) -> str:
    """The cache scope of a tournament's lists: a new version is a new key."""
    return f"t{tournament.pk}:v{tournament.version}"


def site_scope(request, *, per_caller: bool = True) -> str:
    """The cache scope of a list across tournaments: the site's data version, and who is asking (lists show a
    caller their own tournaments and whether they may change each)."""
    user = request.user
    caller = (f"u{user.pk}" if user.is_authenticated else "anon") if per_caller else "all"
    return f"d{data_version()}:{caller}"


def cached_json(view, request, scope: str, build: Callable[[], Response]):
    """A GET answered with the JSON ``build()`` gave for the same URL in the same ``scope``, built once.

    Only JSON answers are kept (the browsable API is built every time), and only successful ones. The key holds
    the whole URL (host and query: pagination links name them) and the language.
    """
    renderer = getattr(request, "accepted_renderer", None)
    if type(renderer) is not JSONRenderer:
        return build()
    url = hashlib.sha1(request.build_absolute_uri().encode()).hexdigest()
    key = f"league:api:r{TEMPLATE_REVISION}:{scope}:{get_language() or 'en'}:{url}"
    refused: list[HttpResponse] = []

    def render() -> bytes | None:
        response = build()
        if not isinstance(response, Response) or response.status_code != 200:
            refused.append(response)
            return None
        return renderer.render(response.data, renderer.media_type, view.get_renderer_context())

    body = versioned_answer(key, render, FRAGMENT_TIMEOUT)
    if body is None:
        return refused[0]
    return HttpResponse(body, content_type=renderer.media_type)


class TeamPermission(permissions.BasePermission):
    """Anyone reads the teams they may see; signed-in users create their own; only a team's owner (or a
    superuser) changes it (the queryset already hides other organisers' teams: a 404)."""

    message = gettext_lazy("Only the organiser who owns this team may change it; the RWC nations cannot be changed.")

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        if request.method in permissions.SAFE_METHODS:
            return True
        if request.user.is_superuser:
            return True
        return obj.owner_id is not None and obj.owner_id == request.user.pk


@extend_schema_view(list=extend_schema(parameters=[TeamFilterSerializer]))
class TeamViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                  mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Teams, named by their short code: the 20 RWC 2023 nations and the caller's own teams (codes are unique
    per owner, so another organiser's "STJ" is not yours: it is not found here)."""

    serializer_class = TeamSerializer
    permission_classes = [TeamPermission]
    lookup_field = "code"
    lookup_value_regex = "[A-Za-z0-9]{1,5}"

    def get_queryset(self):
        # The caller's own "ITA" before the nation of that code, should both exist (get_object takes the first).
        queryset = teams_for(self.request.user).select_related("owner").order_by("name", "code")
        if self.action != "list":
            return queryset.order_by("is_nation", "pk")
        params = _query_params(TeamFilterSerializer, self.request)
        if params.get("nation") is not None:
            queryset = queryset.filter(is_nation=params["nation"])
        if params.get("search"):
            term = params["search"].strip()
            queryset = queryset.filter(Q(name__icontains=term) | Q(code__iexact=term))
        return queryset

    def get_object(self):
        code = self.kwargs[self.lookup_field].upper()
        team = self.get_queryset().filter(code=code).first()
        if team is None:
            raise NotFound(_("No team with this code among the nations and your teams."))
        self.check_object_permissions(self.request, team)
        return team

    def list(self, request, *args, **kwargs):
        # Per caller: each organiser sees the nations and their own teams (issue 16.1).
        return cached_json(self, request, site_scope(request),
                           lambda: super(TeamViewSet, self).list(request, *args, **kwargs))

    def perform_create(self, serializer):
        serializer.instance = services.team_save(team=Team(**serializer.validated_data), user=self.request.user)

    def perform_update(self, serializer):
        services.team_save(team=_apply(serializer.instance, serializer.validated_data), user=self.request.user)


class TournamentScopedMixin(AuthenticateWhenAsked):
    """Limit a viewset's rows to tournaments the caller may see.

    Lists show the listed tournaments (public ones plus the caller's own), or exactly one
    tournament when ``?tournament=<slug>`` names one the caller may see (404 otherwise: an unlisted
    tournament is found through its slug, a draft only by its organisers). Detail views (``/pools/<id>/``...)
    see the same listed tournaments; an object of an unlisted tournament is reached with its tournament's slug,
    ``?tournament=<slug>`` (the link), so walking the numeric ids finds nothing of it. Writes are then checked
    against ``can_edit_tournament``.
    """

    tournament_field = "tournament"
    permission_classes = [TournamentPermission]
    filter_serializer = TournamentScopeFilterSerializer
    # config.schema documents the ``tournament`` query parameter of the detail operations.
    detail_scope_parameter = True

    def tournament_from_params(self, slug: str | None):
        """The tournament ``?tournament=`` names (checked for the caller; the cached row), or None."""
        if not slug:
            return None
        if getattr(self, "_tournament", None) is None or self._tournament.slug != slug:
            self._tournament = tournament_for(self.caller, slug, cached=True)
        return self._tournament

    def list(self, request, *args, **kwargs):
        """The list, from the cache: one tournament's under its version, all listed ones under the site's."""
        slug = request.query_params.get("tournament")
        if slug is not None and not _PLAIN_SLUG.fullmatch(slug):
            # The other parameters are checked when the list is built: only a valid URL's answer is ever kept.
            slug = _query_params(self.filter_serializer, request).get("tournament")
        tournament = self.tournament_from_params(slug)
        scope = tournament_scope(tournament) if tournament is not None else site_scope(request)
        return cached_json(self, request, scope, lambda: super(TournamentScopedMixin, self).list(
            request, *args, **kwargs))

    def scope(self, queryset, slug: str | None = None):
        user = self.request.user
        if self.action != "list":
            slug = _query_params(TournamentScopeFilterSerializer, self.request).get("tournament")
        tournament = self.tournament_from_params(slug)
        if tournament is not None:
            return queryset.filter(**{self.tournament_field: tournament})
        return queryset.filter(**{f"{self.tournament_field}__in": listed_tournaments(user)})


@extend_schema_view(list=extend_schema(parameters=[TournamentFilterSerializer]))
class TournamentViewSet(AuthenticateWhenAsked, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                        mixins.CreateModelMixin,
                        mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Tournaments, by slug. Whoever creates one becomes its organiser; only organisers change it."""

    serializer_class = TournamentSerializer
    permission_classes = [TournamentPermission]
    lookup_field = "slug"
    # Only what a slug can be: anything else is a 404 from the URL map (a NUL would be a 500 on PostgreSQL).
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    def list(self, request, *args, **kwargs):
        return cached_json(self, request, site_scope(request),
                           lambda: super(TournamentViewSet, self).list(request, *args, **kwargs))

    def readable(self, slug: str) -> Tournament:
        """The tournament of a read-only action: the cached row, checked for the caller (404 if not theirs to see)."""
        return tournament_for(self.caller, slug, cached=True)

    def get_queryset(self):
        queryset = Tournament.objects.prefetch_related("organisers").order_by("-created_at", "name")
        user = self.request.user
        if self.action != "list":
            return viewable_tournaments(user, queryset)
        params = _query_params(TournamentFilterSerializer, self.request)
        queryset = listed_tournaments(user, queryset)
        if params.get("mine"):
            queryset = queryset.filter(
                pk__in=Tournament.organisers.through.objects.filter(user_id=user.pk).values("tournament_id")
            )
        if params.get("status"):
            queryset = queryset.filter(status=params["status"])
        return queryset

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        preset, teams, options = data.pop("preset", None), data.pop("teams", None), data.pop("preset_options", {})
        if preset:
            tournament = self._create_from_preset(preset, data, teams, options)
        else:
            if teams or options:
                raise DRFValidationError({"preset": [_("Teams and preset options need a preset.")]})
            tournament = services.tournament_create_blank(user=self.request.user, **data)
        serializer.instance = Tournament.objects.prefetch_related("organisers").get(pk=tournament.pk)

    def _create_from_preset(self, preset, data, teams, options):
        # A preset writes everything in this request: a generation that large belongs on the workers.
        fmt = FORMATS.get(preset)  # an unknown preset is refused by the service, naming the known ones
        planned = services.round_robin_fixtures(fmt, len(teams or []), {
            "pools": options.get("pools"), "double": data.get("double_round_robin")}) if fmt else 0
        if planned > settings.FIXTURES_PER_REQUEST:
            raise DRFValidationError({"teams": [_(
                "A preset makes at most %(limit)s fixtures at once (these teams would need %(planned)s). Create the "
                "tournament without a preset, enter the teams (/api/entries/), and generate its fixtures on its "
                "Fixtures page: a worker makes them, with a progress page.") % {
                    "limit": settings.FIXTURES_PER_REQUEST, "planned": planned}]})
        kwargs = {**options, **data, "user": self.request.user}
        if teams is not None:
            kwargs["teams"] = teams
        if "double_round_robin" in kwargs:
            kwargs["double"] = kwargs.pop("double_round_robin")
        try:
            return services.tournament_create_from_preset(preset, **kwargs)
        except (TypeError, ValueError) as exc:
            # A preset option of the wrong kind (the presets check most of them themselves): a 400, not a 500.
            raise DRFValidationError({"preset_options": [str(exc)]})

    def perform_update(self, serializer):
        fixed = TournamentSerializer.Meta.create_only_fields  # checked unchanged by the serializer
        services.tournament_settings_change(
            tournament=serializer.instance, user=self.request.user,
            **{k: v for k, v in serializer.validated_data.items() if k not in fixed})

    def _edited(self):
        tournament = self.get_object()
        if not can_edit_tournament(self.request.user, tournament):
            raise PermissionDenied(EDIT_DENIED_MESSAGE)
        return tournament

    @extend_schema(request=SchedulePlanSerializer,
                   responses={200: ScheduleResultSerializer, 400: OpenApiResponse(description="Bad plan"),
                              403: OpenApiResponse(description="Not an organiser")},
                   summary="Store the plan of the days and schedule every fixture still to play by it (organisers)")
    @action(detail=True, methods=["post"], pagination_class=None)
    def schedule(self, request, slug=None):
        """Times are the tournament's local times; fixtures played or being played keep theirs."""
        tournament = self.get_object()
        serializer = SchedulePlanSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        plan = dict(serializer.validated_data)
        reason = plan.pop("reason", "")
        count = services.schedule_retime(tournament=tournament, user=request.user, reason=reason, **plan)
        return Response({"fixtures": count})

    @extend_schema(request=PushSerializer,
                   responses={200: ScheduleResultSerializer, 400: OpenApiResponse(description="Nothing to push"),
                              403: OpenApiResponse(description="Not an organiser"),
                              409: OpenApiResponse(description="The push would make a clash (named)")},
                   summary="Push every later fixture of a day back by some minutes (organisers)")
    @action(detail=True, methods=["post"], pagination_class=None)
    def push(self, request, slug=None):
        """The day runs late: fixtures still to play on ``day`` from ``after`` (local) move ``minutes``."""
        tournament = self.get_object()
        serializer = PushSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        count = services.fixtures_push(tournament=tournament, user=request.user, **serializer.validated_data)
        return Response({"fixtures": count})

    @extend_schema(responses={200: ScheduleChangeSerializer(many=True),
                              403: OpenApiResponse(description="Not an organiser")},
                   summary="The timetable's audit trail, newest first (organisers)")
    @action(detail=True, methods=["get"], url_path="schedule-changes", pagination_class=None)
    def schedule_changes(self, request, slug=None):
        """Every move, push, swap and re-timing, with each fixture's old and new kick-off and venue."""
        tournament = self._edited()
        return Response(ScheduleChangeSerializer(schedule_selectors.schedule_changes(tournament, limit=500),
                                                 many=True).data)

    @extend_schema(request=None, responses={200: TournamentSerializer},
                   summary="Reopen a finished tournament (organisers) so its results can be corrected")
    @action(detail=True, methods=["post"], pagination_class=None)
    def reopen(self, request, slug=None):
        """A finished tournament refuses results, corrections, simulations and draws (409) until this reopens it;
        it finishes again with the result that completes it. 409 when it is not finished."""
        tournament = self.get_object()
        services.tournament_reopen(tournament=tournament, user=request.user)
        return Response(self.get_serializer(tournament).data)

    @extend_schema(responses=PoolStandingsSerializer(many=True),
                   summary="The tournament's pool tables, each {\"pool\": \"A\", \"rows\": [...]}")
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, slug=None):
        """The standings of every pool, in the league's JSON form."""
        tournament = self.readable(slug)
        return cached_json(self, request, tournament_scope(tournament),
                           lambda: Response(selectors.tournament_standings_data(tournament)))

    @extend_schema(responses=LiveSerializer, summary="The matches being played now (score, tries, clock) and the "
                   "live projection of the standings")
    @action(detail=True, methods=["get"], pagination_class=None)
    def live(self, request, slug=None):
        """Every live match's score, tries and clock, and the pools' standings if the live scores stayed."""
        return Response(live_selectors.live_data(self.get_object()))

    @extend_schema(responses=SwissRowSerializer(many=True), summary="The Swiss table")
    @action(detail=True, methods=["get"], url_path="swiss-table", pagination_class=None)
    def swiss_table(self, request, slug=None):
        """A Swiss tournament's table: standings keys, with each bye counted as a win."""
        tournament = self.readable(slug)
        return cached_json(self, request, tournament_scope(tournament),
                           lambda: Response(format_selectors.swiss_table(tournament)))

    @extend_schema(responses=LeaderboardRowSerializer(many=True), summary="The solo challenge's leaderboard")
    @action(detail=True, methods=["get"], pagination_class=None)
    def leaderboard(self, request, slug=None):
        """A solo challenge's leaderboard: each entrant's best attempt, by margin then points scored."""
        tournament = self.readable(slug)
        return cached_json(self, request, tournament_scope(tournament),
                           lambda: Response(format_selectors.solo_leaderboard(tournament)))

    @extend_schema(request=ResultsImportSerializer, responses={200: ImportSummarySerializer},
                   summary="Import results from CSV (organisers); any bad line refuses the whole file")
    @action(detail=True, methods=["post"], url_path="results-import", pagination_class=None,
            parser_classes=[MultiPartParser, FormParser, JSONParser])
    def results_import(self, request, slug=None):
        """Import ``pool,round,date,home,away,home_score,away_score,home_tries,away_tries`` rows.

        Every invalid or unmatched row is reported as "Line N: ..." in a 400, and nothing is saved.
        """
        tournament = self.get_object()
        serializer = ResultsImportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        source = serializer.validated_data.get("file") or serializer.validated_data["csv"]
        summary = services.results_import_csv(tournament=tournament, file=source, user=request.user)
        return Response({"created": summary.created, "updated": summary.updated, "unchanged": summary.unchanged})

    @extend_schema(responses=serializers.ListSerializer(child=BracketMatchSerializer(many=True)),
                   summary="The knockout bracket: a list of rounds, each a list of matches")
    @action(detail=True, methods=["get"], pagination_class=None)
    def bracket(self, request, slug=None):
        """The knockout bracket as JSON (an empty list when the tournament has no knockout stage)."""
        tournament = self.readable(slug)
        return cached_json(self, request, tournament_scope(tournament),
                           lambda: Response(format_selectors.bracket_rounds(tournament)))


@extend_schema_view(list=extend_schema(parameters=[TournamentScopeFilterSerializer]))
class EntryViewSet(TournamentScopedMixin, viewsets.ModelViewSet):
    """Entries: the teams of a tournament, with their seeds and pools. Organisers add and change them."""

    serializer_class = EntrySerializer

    def get_queryset(self):
        queryset = Entry.objects.select_related("tournament", "team", "pool").order_by(
            "tournament_id", "seed", "team__name", "id")
        slug = _query_params(TournamentScopeFilterSerializer, self.request).get("tournament") \
            if self.action == "list" else None
        return self.scope(queryset, slug)

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        tournament = data.pop("tournament")
        self.check_object_permissions(self.request, tournament)
        pool = EntrySerializer.pool_name(data)
        if data.get("seed") is None:
            data.pop("seed", None)  # the service gives the next seed
        (entry,) = services.entries_add(tournament=tournament, teams=[data.pop("team")], pool=pool, **data)
        serializer.instance = Entry.objects.select_related("tournament", "team", "pool").get(pk=entry.pk)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        if "pool" in data:
            data["pool"] = EntrySerializer.pool_name(data) or None
        data.pop("tournament", None), data.pop("team", None)  # checked unchanged by the serializer
        services.entry_update(entry=serializer.instance, **data)

    @extend_schema(request=EntryWithdrawSerializer, responses={200: EntryWithdrawResultSerializer},
                   summary="Withdraw the team (organisers): its remaining fixtures become walkovers")
    @action(detail=True, methods=["post"], pagination_class=None)
    def withdraw(self, request, pk=None):
        """Withdraw the team; a knockout place it had goes to its opponent. Returns what was changed."""
        entry = self.get_object()
        serializer = EntryWithdrawSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        counts = services.entry_withdraw(entry=entry, user=request.user, **serializer.validated_data)
        return Response(counts)

    def perform_destroy(self, instance):
        """Remove a team entered by mistake: refused (409) once it has a result (withdraw it instead)."""
        services.entry_delete(entry=instance, user=self.request.user)


@extend_schema_view(list=extend_schema(parameters=[TournamentScopeFilterSerializer]))
class PoolViewSet(TournamentScopedMixin, viewsets.ReadOnlyModelViewSet):
    """Pools and the codes of their teams (the draw fills them)."""

    serializer_class = PoolSerializer

    def get_queryset(self):
        queryset = Pool.objects.select_related("tournament").prefetch_related("entries__team").order_by(
            "tournament_id", "order", "name")
        slug = _query_params(TournamentScopeFilterSerializer, self.request).get("tournament") \
            if self.action == "list" else None
        return self.scope(queryset, slug)

    @extend_schema(responses=PoolStandingsSerializer, summary="The pool's table")
    @action(detail=True, methods=["get"], pagination_class=None)
    def standings(self, request, pk=None):
        """The pool's table: ``{"pool": "A", "rows": [...]}``."""
        tournament = self._tournament_of_pool(pk)

        def build() -> Response:
            pool = Pool.objects.filter(pk=pk, tournament=tournament).first()
            if pool is None:
                raise NotFound(_("No such pool."))
            pool.tournament = tournament
            return Response(_pool_standings_json(pool, selectors.pool_standings(pool)))

        return cached_json(self, request, tournament_scope(tournament), build)

    def _tournament_of_pool(self, pk) -> Tournament:
        """The pool's tournament, checked for the caller: its slug is kept (a pool never moves), the row cached."""
        slug = fixed_fact(f"pool-tournament:{pk}", lambda: Pool.objects.filter(pk=pk).values_list(
            "tournament__slug", flat=True).first() if str(pk).isdigit() and len(str(pk)) <= 18 else None)
        if slug is None:
            raise NotFound(_("No such pool."))
        tournament = tournament_for(self.caller, slug, cached=True)
        # No enumeration (as ``scope``): a pool of a tournament that is not listed is reached by its id only with
        # ``?tournament=<slug>``, or by the tournament's organisers.
        listed = tournament.visibility == Tournament.Visibility.PUBLIC and tournament.status != Tournament.Status.DRAFT
        if listed:
            return tournament
        given = _query_params(TournamentScopeFilterSerializer, self.request).get("tournament")
        if given != slug and not can_edit_tournament(self.caller, tournament):
            raise NotFound(_("No such pool."))
        return tournament


@extend_schema_view(list=extend_schema(parameters=[FixtureFilterSerializer]))
class FixtureViewSet(TournamentScopedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                     mixins.UpdateModelMixin, viewsets.GenericViewSet):
    """Fixtures with their results. Organisers change kick-off and venue here and results at ``result/``."""

    serializer_class = FixtureSerializer
    filter_serializer = FixtureFilterSerializer

    def get_queryset(self):
        if self.action != "list":
            return self.scope(selectors.fixture_list())
        params = _query_params(FixtureFilterSerializer, self.request)
        tournament = self.tournament_from_params(params.get("tournament"))
        team = params.get("team")
        queryset = selectors.fixture_list(
            tournament=tournament, round_number=params.get("round"), team=team.strip() if team else None,
            on_date=params.get("date"), stage=params.get("stage"), status=params.get("status"))
        if tournament is None:
            queryset = queryset.filter(tournament__in=listed_tournaments(self.request.user))
        if params.get("pool"):
            pool = params["pool"].strip()
            # An id when it is a number an id can be (a longer run of digits would overflow the column).
            by_id = pool.isdigit() and len(pool) <= 18
            queryset = queryset.filter(pool_id=int(pool)) if by_id else queryset.filter(pool__name=pool)
        return queryset.order_by("tournament_id", "round_number", "kickoff", "slot", "id")

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        where = {name: data.pop(name) for name in ("kickoff", "venue") if name in data}
        # One answer for the whole change: a move refused (a clash) leaves the other fields unchanged too.
        with transaction.atomic():
            if data:
                services.fixture_save(fixture=_apply(serializer.instance, data))
            if where:
                # When and where go through the schedule's service: clash checks and the audit trail.
                fixture = serializer.instance
                services.fixture_move(fixture=fixture, kickoff=where.get("kickoff", fixture.kickoff),
                                      venue=where.get("venue", fixture.venue), user=self.request.user)

    @extend_schema(request=FixtureSwapSerializer,
                   responses={200: FixtureSerializer(many=True), 400: OpenApiResponse(description="Bad fixture"),
                              403: OpenApiResponse(description="Not an organiser"),
                              404: OpenApiResponse(description="No such fixture"),
                              409: OpenApiResponse(description="Played already, or the swap would make a clash")},
                   summary="Swap this fixture's kick-off and venue with another's (organisers)")
    @action(detail=True, methods=["post"], pagination_class=None)
    def swap(self, request, pk=None):
        """Both fixtures, as they are after the swap."""
        fixture = self.get_object()
        serializer = FixtureSwapSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        other = selectors.fixture_list(tournament=fixture.tournament).filter(
            pk=serializer.validated_data["other"]).first()
        if other is None:
            raise NotFound(_("No such fixture in this tournament."))
        services.fixtures_swap(first=fixture, second=other, user=request.user,
                               reason=serializer.validated_data["reason"])
        both = selectors.fixture_list(tournament=fixture.tournament).filter(pk__in=[fixture.pk, other.pk])
        return Response(FixtureSerializer(both.order_by("pk"), many=True, context=self.get_serializer_context()).data)

    def _result_response(self, fixture, status_code=status.HTTP_200_OK):
        fixture = self.get_queryset().get(pk=fixture.pk)
        try:
            result = fixture.result
        except Result.DoesNotExist:
            raise NotFound(_("This fixture has no result yet."))
        return Response(ResultSerializer(result, context=self.get_serializer_context()).data, status=status_code)

    @extend_schema(methods=["GET"], responses={200: ResultSerializer}, summary="The fixture's result")
    @extend_schema(methods=["POST", "PUT"], request=ResultWriteSerializer,
                   responses={200: ResultSerializer, 201: ResultSerializer},
                   summary="Record or correct the fixture's result (organisers)")
    @extend_schema(methods=["DELETE"], request=None, responses={204: OpenApiResponse(description="Deleted")},
                   summary="Delete the fixture's result (organisers)")
    @action(detail=True, methods=["get", "post", "put", "delete"], url_path="result", pagination_class=None)
    def result(self, request, pk=None):
        """Read, record, correct or delete a fixture's result; every change is kept in the audit trail."""
        fixture = self.get_object()
        if request.method == "GET":
            return self._result_response(fixture)
        if request.method == "DELETE":
            services.result_delete(fixture=fixture, user=request.user, reason=request.data.get("reason", "")
                                   if hasattr(request.data, "get") else "")
            return Response(status=status.HTTP_204_NO_CONTENT)
        serializer = ResultWriteSerializer(data=request.data, context={"fixture": fixture, "request": request})
        serializer.is_valid(raise_exception=True)
        values = dict(serializer.validated_data)
        reset = values.pop("reset_later_rounds")
        # 201 only for the call that made the first result: decided by the service under the fixture's row lock,
        # so of simultaneous first entries exactly one is a 201 (the others correct it, or change nothing: 200).
        result = services.result_correct(fixture=fixture, reset_later_rounds=reset, user=request.user,
                                         source=Result.Source.MANUAL, **values)
        return self._result_response(fixture, status.HTTP_201_CREATED if result.was_created else status.HTTP_200_OK)

    @extend_schema(methods=["GET"], request=None, responses={200: OpenApiTypes.OBJECT},
                   summary="The match's live score: score, tries, clock and events")
    @extend_schema(methods=["POST"], request=LiveEventsSerializer,
                   responses={200: OpenApiTypes.OBJECT,
                              400: OpenApiResponse(description="Not a list of events: the field errors, e.g. "
                                                       "``{\"events\": [\"This field is required.\"]}``."),
                              401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
                              403: OpenApiResponse(ErrorSerializer, description="Not an organiser of the tournament.")},
                   summary="Send live scoring events (organisers): each applied once by its id")
    @action(detail=True, methods=["get", "post"], url_path="live", pagination_class=None)
    def live(self, request, pk=None):
        """The live score of a match played on a pitch or board, and (organisers) its scoring events, each
        answered ``applied``, ``duplicate`` (sent before) or ``refused`` with a message."""
        fixture = self.get_object()
        answers = []
        if request.method == "POST":
            if not request.user.is_authenticated:
                raise NotAuthenticated()
            if not can_edit_tournament(request.user, fixture.tournament):
                raise PermissionDenied(EDIT_DENIED_MESSAGE)
            serializer = LiveEventsSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            for item in serializer.validated_data["events"]:
                try:
                    outcome = live_services.live_event_record(
                        fixture=fixture, client_id=item["id"], kind=item["kind"], code=item["code"],
                        side=item["side"], player=item["player"], undoes=item["undoes"],
                        at=match_clock.from_epoch_ms(item["at_ms"]), user=request.user)
                except DomainError as exc:
                    answers.append({"id": item["id"], "status": "refused", "message": error_text(exc),
                                    "reason": exc.reason})
                    continue
                answers.append({"id": item["id"], "seq": outcome.event.seq,
                                "status": "applied" if outcome.applied else "duplicate"})
        fixture.refresh_from_db()
        return Response({"results": answers, "state": live_selectors.live_match_state(fixture)})

    @extend_schema(responses={200: ResultChangeSerializer(many=True),
                              401: OpenApiResponse(ErrorSerializer, description="Not signed in."),
                              403: OpenApiResponse(ErrorSerializer, description="Not an organiser of the tournament.")},
                   summary="The result's audit trail (organisers)")
    @action(detail=True, methods=["get"], url_path="result/history", pagination_class=None)
    def result_history(self, request, pk=None):
        """Every change of this fixture's result, oldest first: kept for corrections and disputes."""
        fixture = self.get_object()
        # The trail names who changed what: it is for the organisers, not the public.
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not can_edit_tournament(request.user, fixture.tournament):
            raise PermissionDenied(EDIT_DENIED_MESSAGE)
        changes = selectors.result_changes(fixture)
        return Response(ResultChangeSerializer(changes, many=True).data)
