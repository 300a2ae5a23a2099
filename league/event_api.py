"""REST API of events: the event, its divisions, its day's timetable and the changes to it.

The same rules as tournaments (``league.permissions``): anyone reads an event that is not a draft (lists show
public ones plus the caller's own), only its organisers (and superusers) change it; a draft is a 404 to others.
Taking an existing tournament in as a division also needs the caller to organise that tournament. Writes go
through ``league.services.events`` (and ``league.services.schedule`` for one fixture: ``/api/fixtures/<id>/``
already refuses a move that clashes with another division).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response

from league import event_selectors
from league.errors import DomainError
from league.exports import fixture_title, result_of
from league.models import Division, Event, Fixture, Tournament
from league.permissions import (
    EVENT_EDIT_DENIED_MESSAGE,
    EventPermission,
    can_edit_event,
    listed_events,
    tournament_for,
    viewable_events,
)
from league.services import events as event_services
from league.services import registrations as registration_services

# --- serializers --------------------------------------------------------------------------------------------------


@extend_schema_field({"type": "string", "pattern": r"^\d{2}:\d{2}$", "example": "09:00"})
class LocalTimeField(serializers.TimeField):
    """A local time of the event's day, read and written as "HH:MM" (no zone: the event's zone is its own)."""

    def __init__(self, **kwargs):
        super().__init__(format="%H:%M", **kwargs)


class DivisionSerializer(serializers.ModelSerializer):
    """A division: its tournament (slug, name, format, points system, status) and its place in the event."""

    slug = serializers.CharField(source="tournament.slug", read_only=True)
    name = serializers.CharField(source="tournament.name", read_only=True)
    format = serializers.CharField(source="tournament.format", read_only=True)
    points_system = serializers.CharField(source="tournament.points_system", read_only=True)
    status = serializers.CharField(source="tournament.status", read_only=True)

    class Meta:
        model = Division
        fields = ["slug", "name", "format", "points_system", "status", "order"]
        read_only_fields = fields


class EventSerializer(serializers.ModelSerializer):
    """An event and its plan of the day; its divisions (read only: add them with ``/divisions/``)."""

    divisions = DivisionSerializer(many=True, read_only=True)
    pitches = serializers.ListField(child=serializers.CharField(max_length=80, allow_blank=True), required=False,
                                    max_length=100)
    slug = serializers.SlugField(max_length=60, required=False, allow_blank=True)
    first_kickoff = LocalTimeField(required=False, help_text=_("First kick-off, HH:MM (the event's local time)."))
    finish_by = LocalTimeField(required=False, allow_null=True,
                               help_text=_("The last match must be over by then, HH:MM; null: no limit."))

    class Meta:
        model = Event
        fields = ["slug", "name", "visibility", "status", "time_zone", "day", "first_kickoff", "finish_by",
                  "slot_minutes", "changeover_minutes", "rest_minutes", "pitches", "registration_open",
                  "registration_cap", "hide_surnames", "divisions", "version"]
        read_only_fields = ["divisions", "version"]
        # The services check every field (and the slug's uniqueness), so errors read the same as on the web.
        extra_kwargs = {"name": {"validators": []}, "time_zone": {"validators": []}}

    def validate_slug(self, value):
        if self.instance is not None and value and value != self.instance.slug:
            raise serializers.ValidationError(_("An event's web address cannot change."))
        return value


class DivisionCreateSerializer(serializers.Serializer):
    """Either ``tournament`` (the slug of one of your tournaments to take in) or a new division's ``name``
    (with its ``format`` and ``points_system``)."""

    tournament = serializers.SlugField(max_length=60, required=False)
    name = serializers.CharField(max_length=120, required=False)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default=Tournament.Format.LEAGUE)
    points_system = serializers.ChoiceField(choices=Tournament.PointsSystem.choices,
                                            default=Tournament.PointsSystem.WORLD_RUGBY)

    def validate(self, attrs):
        if bool(attrs.get("tournament")) == bool(attrs.get("name")):
            raise serializers.ValidationError(_("Give either a tournament to add or a new division's name."))
        return attrs


class EventPushSerializer(serializers.Serializer):
    """The day runs late: every fixture still to play from ``after`` moves ``minutes`` later."""

    after = LocalTimeField(help_text=_("Fixtures kicking off at or after this local time, HH:MM."))
    minutes = serializers.IntegerField(min_value=-12 * 60, max_value=12 * 60,
                                       help_text=_("Minutes later (negative: earlier); not 0."))
    day = serializers.DateField(required=False, help_text=_("The local day (default: the event's)."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def validate_minutes(self, value):
        if value == 0:
            raise serializers.ValidationError(_("Give a number of minutes other than 0."))
        return value


class EventScheduleSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class TimetableFixtureSerializer(serializers.ModelSerializer):
    """One fixture of the day: its division, teams, kick-off, pitch and whether it has been played."""

    division = serializers.CharField(source="tournament.slug", read_only=True)
    status = serializers.CharField(read_only=True, help_text=_("scheduled, live, played or cancelled"))
    title = serializers.SerializerMethodField()
    played = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = ["id", "division", "title", "round_number", "code", "kickoff", "venue", "status", "played"]
        read_only_fields = fields

    def get_title(self, fixture: Fixture) -> str:
        return fixture_title(fixture)

    def get_played(self, fixture: Fixture) -> bool:
        return result_of(fixture) is not None


class NowNextSerializer(serializers.Serializer):
    pitch = serializers.CharField()
    now = TimetableFixtureSerializer(allow_null=True)
    next = TimetableFixtureSerializer(allow_null=True)


# --- views ------------------------------------------------------------------------------------------------------


class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Events, by slug. Whoever creates one becomes its organiser; only organisers change it."""

    serializer_class = EventSerializer
    permission_classes = [EventPermission]
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]+"

    def get_queryset(self):
        queryset = Event.objects.order_by("-created_at", "name")
        if self.action in ("list", "retrieve", "create", "update", "partial_update"):  # they show divisions
            queryset = queryset.prefetch_related("organisers", "divisions__tournament")
        if self.action == "list":
            return listed_events(self.request.user, queryset)
        return viewable_events(self.request.user, queryset)

    def get_object(self):
        event = super().get_object()
        timezone.activate(event.zone)
        return event

    def _edited(self) -> Event:
        if not self.request.user.is_authenticated:  # an organisers' read: sign in first (401), then 403
            raise NotAuthenticated()
        event = self.get_object()
        if not can_edit_event(self.request.user, event):
            raise PermissionDenied(EVENT_EDIT_DENIED_MESSAGE)
        return event

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        registration = {k: data.pop(k) for k in registration_services.SETTINGS_FIELDS if k in data}
        with transaction.atomic():
            event = event_services.event_create(user=self.request.user, slug=data.pop("slug", ""), **data)
            if registration:
                registration_services.registration_settings_save(event=event, user=self.request.user,
                                                                 **registration)
        serializer.instance = self.get_queryset().get(pk=event.pk)

    def perform_update(self, serializer):
        data = {k: v for k, v in serializer.validated_data.items() if k != "slug"}
        registration = {k: data.pop(k) for k in registration_services.SETTINGS_FIELDS if k in data}
        with transaction.atomic():
            if data or not registration:
                event_services.event_update(event=serializer.instance, user=self.request.user, **data)
            if registration:  # players registering (``league.services.registrations``)
                registration_services.registration_settings_save(event=serializer.instance, user=self.request.user,
                                                                 **registration)
        serializer.instance = self.get_queryset().get(pk=serializer.instance.pk)

    def perform_destroy(self, instance):
        event_services.event_delete(event=instance)

    @extend_schema(request=DivisionCreateSerializer,
                   responses={200: DivisionSerializer(many=True), 201: DivisionSerializer,
                              403: OpenApiResponse(description="Not an organiser of the event or tournament"),
                              409: OpenApiResponse(description="The tournament is in an event already")},
                   summary="The event's divisions; add one: a new tournament or one of yours (organisers)")
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    def divisions(self, request, slug=None):
        if request.method == "GET":
            event = self.get_object()
            return Response(DivisionSerializer(event_selectors.event_divisions(event), many=True).data)
        event = self._edited()
        serializer = DivisionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        if data.get("tournament"):
            tournament = tournament_for(request.user, data["tournament"], edit=True)
            division = event_services.division_add(event=event, tournament=tournament, user=request.user)
        else:
            tournament = event_services.division_create(event=event, name=data["name"], format=data["format"],
                                                        points_system=data["points_system"], user=request.user)
            division = tournament.division
        return Response(DivisionSerializer(division).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None, 404: OpenApiResponse(description="No such division")},
                   summary="Take a division out of the event (the tournament stays, on its own)")
    @action(detail=True, methods=["delete"], url_path=r"divisions/(?P<division>[-a-zA-Z0-9_]+)")
    def division_remove(self, request, slug=None, division=None):
        event = self._edited()
        found = Division.objects.select_related("tournament").filter(event=event, tournament__slug=division).first()
        if found is None:
            raise DomainError(_("No such division in this event."), code="not_found")
        event_services.division_remove(event=event, tournament=found.tournament)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=EventScheduleSerializer,
                   responses={200: OpenApiResponse(description='{"fixtures": placed}'),
                              400: OpenApiResponse(description="No day, pitches or fixtures"),
                              409: OpenApiResponse(description="The day does not fit (by N slots)")},
                   summary="Schedule the whole day across the divisions (organisers)")
    @action(detail=True, methods=["post"], pagination_class=None)
    def schedule(self, request, slug=None):
        event = self._edited()
        serializer = EventScheduleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        count = event_services.event_schedule(event=event, user=request.user, **serializer.validated_data)
        return Response({"fixtures": count})

    @extend_schema(request=EventPushSerializer,
                   responses={200: OpenApiResponse(description='{"fixtures": moved}'),
                              409: OpenApiResponse(description="The push would make a clash (named)")},
                   summary="Push the rest of the day back (every division) by some minutes (organisers)")
    @action(detail=True, methods=["post"], pagination_class=None)
    def push(self, request, slug=None):
        event = self._edited()
        serializer = EventPushSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        count = event_services.event_push(event=event, user=request.user, **serializer.validated_data)
        return Response({"fixtures": count})

    @extend_schema(responses=TimetableFixtureSerializer(many=True),
                   summary="Every fixture of the day across the divisions, in kick-off order")
    @action(detail=True, methods=["get"], pagination_class=None)
    def timetable(self, request, slug=None):
        event = self.get_object()
        fixtures = event_selectors.event_fixtures(event).filter(
            tournament__in=self._shown_tournaments(event)).order_by("kickoff", "venue", "id")
        return Response(TimetableFixtureSerializer(fixtures, many=True).data)

    @extend_schema(responses=NowNextSerializer(many=True), summary="Per pitch: the match on now and the next one")
    @action(detail=True, methods=["get"], pagination_class=None)
    def now(self, request, slug=None):
        event = self.get_object()
        return Response(NowNextSerializer(event_selectors.now_and_next(event, timezone.now()), many=True).data)

    @extend_schema(responses={200: OpenApiResponse(description='{"clashes": [messages]}'),
                              401: OpenApiResponse(description="Not signed in"),
                              403: OpenApiResponse(description="Not an organiser of the event")},
                   summary="The clashes of the day now, across the divisions (organisers)")
    @action(detail=True, methods=["get"], pagination_class=None)
    def clashes(self, request, slug=None):
        event = self._edited()
        return Response({"clashes": event_selectors.event_clashes(event)})

    def _shown_tournaments(self, event: Event):
        """The divisions the caller may see: drafts only for the event's organisers."""
        queryset = Tournament.objects.filter(division__event=event)
        if can_edit_event(self.request.user, event):
            return queryset
        return queryset.exclude(status=Tournament.Status.DRAFT)
