"""REST API of an event's players: registering (anyone, while registration is open; limited per client), the
organisers' list with contacts, approval, edits, removal and CSV export, the public list of players (public
names only, ``league.registration_selectors.public_name``) and the nation draws.

Permissions are the pages' (``league.permissions.event_for``): a draft event is a 404 to all but its organisers;
contacts, surnames and the organisers' actions need an organiser of the event (401 without credentials, 403 for
others). Writes go through ``league.services.registrations``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from league import registration_selectors as selectors
from league.clients import limit_wait
from league.errors import DomainError, NotFound
from league.models import Division, Event, NationDraw, Registration, Team
from league.permissions import event_for
from league.serializers import ErrorSerializer
from league.services import registrations as services

SLUG = "[-a-zA-Z0-9_]+"
# The per-client counter of sign-ups, shared with the sign-up page (``web.registrations``).
REGISTRATION_LIMIT = "event-registration"


class RegistrationThrottle(BaseThrottle):
    """Sign-ups are limited per client (``league.clients.client_ip``), signed in or not, on the same counter as
    the sign-up page (``settings.EVENT_REGISTRATION_RATE``)."""

    seconds: int | None = None

    def allow_request(self, request, view):
        self.seconds = limit_wait(request._request, group=REGISTRATION_LIMIT, rate=settings.EVENT_REGISTRATION_RATE)
        return self.seconds is None

    def wait(self):
        return self.seconds


# --- serializers --------------------------------------------------------------------------------------------------


class _DivisionField(serializers.SlugField):
    """A division named by its tournament's slug (null: any division)."""

    def __init__(self, **kwargs):
        super().__init__(max_length=60, allow_null=True, required=False, **kwargs)


class _TeamCodeField(serializers.CharField):
    """A team named by its code (a nation's: FRA; or an organiser's own team card's)."""

    def __init__(self, **kwargs):
        super().__init__(max_length=5, allow_null=True, required=False, **kwargs)


def _division(event: Event, slug: str | None) -> Division | None:
    if not slug:
        return None
    found = Division.objects.select_related("tournament").filter(event=event, tournament__slug=slug).first()
    if found is None:
        raise DomainError({"division": [_("No such division in this event.")]})
    return found


def _team(code: str | None, field: str = "choice") -> Team | None:
    if not code:
        return None
    found = Team.objects.filter(code=code.strip().upper()).order_by("-is_nation", "pk").first()
    if found is None:
        raise DomainError({field: [_("No team has the code %(code)s.") % {"code": code}]})
    return found


class SignUpSerializer(serializers.Serializer):
    """A player registers: first name and surname, optional contact, under 18, consent to show the first name,
    the division (its slug) and the nation (its code) they would like."""

    first_name = serializers.CharField(max_length=60)
    surname = serializers.CharField(max_length=60)
    contact = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                    help_text=_("E-mail or phone; seen by the organisers only."))
    minor = serializers.BooleanField(required=False, default=False, help_text=_("Under 18."))
    show_name = serializers.BooleanField(required=False, default=False,
                                         help_text=_("The first name may be shown publicly."))
    division = _DivisionField(help_text=_("The division's slug (optional)."))
    choice = _TeamCodeField(help_text=_("The nation wanted, by its code (optional; first come)."))


class SignUpReceiptSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The player's number in the event."))
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    waiting_position = serializers.IntegerField(allow_null=True, help_text=_("Place on the waiting list."))


class RegistrationSerializer(serializers.ModelSerializer):
    """A registration as its organisers see it (contact included)."""

    division = serializers.SlugField(source="division.tournament.slug", read_only=True, allow_null=True)
    choice = serializers.CharField(source="choice.code", read_only=True, allow_null=True)
    team = serializers.CharField(source="entry.team.code", read_only=True, allow_null=True,
                                 help_text=_("The nation or team card drawn (null: not drawn yet)."))

    class Meta:
        model = Registration
        fields = ["id", "number", "first_name", "surname", "contact", "minor", "show_name", "status", "division",
                  "choice", "team", "created_at"]
        read_only_fields = fields


class RegistrationEditSerializer(serializers.Serializer):
    """An organiser corrects a registration; only the fields given change."""

    first_name = serializers.CharField(max_length=60, required=False)
    surname = serializers.CharField(max_length=60, required=False)
    contact = serializers.CharField(max_length=120, required=False, allow_blank=True)
    minor = serializers.BooleanField(required=False)
    show_name = serializers.BooleanField(required=False)
    division = _DivisionField()
    choice = _TeamCodeField()


class PublicPlayerSerializer(serializers.Serializer):
    """An approved player as the public sees them."""

    number = serializers.IntegerField()
    name = serializers.CharField(help_text=_("The public name: first name and initial, or a neutral label."))
    team = serializers.CharField(source="team.code", allow_null=True, default=None)
    team_name = serializers.CharField(source="team.name", allow_null=True, default=None)
    division = serializers.SlugField(source="division.slug", allow_null=True, default=None)


class DrawCardSerializer(serializers.Serializer):
    name = serializers.CharField(help_text=_("The player's public name."))
    team = serializers.CharField(source="team.code")
    team_name = serializers.CharField(source="team.name")
    throws = serializers.ListField(child=serializers.ListField(child=serializers.IntegerField()))


class NationDrawSerializer(serializers.Serializer):
    """A nation draw: its division, method, seed (replay it with ``league.nation_draws``) and cards in the order
    revealed."""

    id = serializers.IntegerField()
    division = serializers.SlugField()
    method = serializers.ChoiceField(choices=NationDraw.Method.choices)
    seed = serializers.IntegerField(allow_null=True)
    picking = serializers.BooleanField(help_text=_("A dice draw still being picked in turn: its cards so far."))
    made_at = serializers.DateTimeField()
    cards = DrawCardSerializer(many=True)


class NationDrawCreateSerializer(serializers.Serializer):
    """Draw a division's nations: ``nations`` (codes; default all 20, best-ranked first) and ``custom_cards``
    (team cards' names, made as your own teams) are the cards; ``seed`` replays a draw."""

    division = serializers.SlugField(max_length=60)
    method = serializers.ChoiceField(choices=NationDraw.Method.choices)
    nations = serializers.ListField(child=serializers.CharField(max_length=5), required=False, max_length=64)
    custom_cards = serializers.ListField(child=serializers.CharField(max_length=80), required=False, default=list,
                                        max_length=64)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=2 ** 63 - 1)
    live = serializers.BooleanField(required=False, default=False,
                                    help_text="Dice throws only: the throws give the order, then each player picks "
                                              "in turn (POST draws/{id}/pick/).")
    pools = serializers.ChoiceField(choices=["", *services.POOL_ORDERS], required=False, default="",
                                    help_text="Then put the division's entries into its pools: \"seeded\" (its "
                                              "seeded pool draw) or \"draw_order\" (dealt in the order drawn).")


class NationPickSerializer(serializers.Serializer):
    """The card (a team's code) the player whose turn it is picks."""

    team = serializers.CharField(max_length=5)


def draw_data(draw: NationDraw, event: Event) -> dict:
    return {"id": draw.pk, "division": draw.division.tournament.slug, "method": draw.method, "seed": draw.seed,
            "made_at": draw.made_at, "cards": selectors.draw_reveal(draw, event),
            "picking": selectors.next_turn(draw) is not None}


# --- views --------------------------------------------------------------------------------------------------------

_UNAUTHENTICATED = OpenApiResponse(ErrorSerializer, description="Not signed in")
_NOT_ORGANISER = OpenApiResponse(ErrorSerializer, description="Not an organiser of the event")


class _EventScoped(viewsets.ViewSet):
    """An event's sub-resource: the event found (404 when hidden), and its organisers checked for their reads."""

    permission_classes = [AllowAny]  # each action checks the caller through ``event_for``

    def _event(self, edit: bool = False) -> Event:
        if edit and not self.request.user.is_authenticated:
            event_for(self.request.user, self.kwargs["slug"])  # a hidden event stays a 404
            raise NotAuthenticated()
        return event_for(self.request.user, self.kwargs["slug"], edit=edit)


class EventRegistrationViewSet(_EventScoped):
    """The event's registrations: anyone registers (POST); its organisers list, edit, approve, remove, export."""

    lookup_value_regex = r"\d+"
    throttle_classes = [RegistrationThrottle]

    def get_throttles(self):
        # Only registering is limited (the schema documents the 429 on the view's operations).
        return super().get_throttles() if self.action == "create" else []

    def _registration(self, event: Event, pk: str) -> Registration:
        found = (Registration.objects.select_related("division__tournament", "choice", "entry__team", "event")
                 .filter(pk=int(pk), event=event).first())
        if found is None:
            raise NotFound(_("No such registration in this event."))
        return found

    @extend_schema(responses={200: RegistrationSerializer(many=True), 401: _UNAUTHENTICATED, 403: _NOT_ORGANISER},
                   summary="Every registration with contacts, in order of registration (organisers)")
    def list(self, request, slug=None):
        event = self._event(edit=True)
        return Response(RegistrationSerializer(selectors.event_registrations(event), many=True).data)

    @extend_schema(request=SignUpSerializer,
                   responses={201: SignUpReceiptSerializer,
                              409: OpenApiResponse(ErrorSerializer, description="Registration is closed")},
                   summary="Register for the event (anyone, while registration is open; limited per client)")
    def create(self, request, slug=None):
        event = self._event()
        serializer = SignUpSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        data["division"] = _division(event, data.get("division"))
        data["choice"] = _team(data.get("choice"))
        registration = services.registration_create(event=event, **data)
        return Response({"number": registration.number, "status": registration.status,
                         "waiting_position": selectors.waiting_position(registration)},
                        status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: RegistrationSerializer, 401: _UNAUTHENTICATED, 403: _NOT_ORGANISER},
                   summary="One registration (organisers)")
    def retrieve(self, request, slug=None, pk=None):
        event = self._event(edit=True)
        return Response(RegistrationSerializer(self._registration(event, pk)).data)

    @extend_schema(request=RegistrationEditSerializer, responses={200: RegistrationSerializer},
                   summary="Correct a registration (organisers); a drawn player's entry shows the new public name")
    def partial_update(self, request, slug=None, pk=None):
        event = self._event(edit=True)
        registration = self._registration(event, pk)
        serializer = RegistrationEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if "division" in data:
            data["division"] = _division(event, data["division"])
        if "choice" in data:
            data["choice"] = _team(data["choice"])
        registration = services.registration_update(registration=registration, user=request.user, **data)
        return Response(RegistrationSerializer(self._registration(event, str(registration.pk))).data)

    @extend_schema(request=None, responses={200: RegistrationSerializer},
                   summary="Remove a player (organisers): the first waiting player moves up")
    def destroy(self, request, slug=None, pk=None):
        event = self._event(edit=True)
        registration = services.registration_remove(registration=self._registration(event, pk), user=request.user)
        return Response(RegistrationSerializer(self._registration(event, str(registration.pk))).data)

    @extend_schema(request=None, responses={200: RegistrationSerializer},
                   summary="Approve a player (organisers)")
    @action(detail=True, methods=["post"])
    def approve(self, request, slug=None, pk=None):
        event = self._event(edit=True)
        registration = services.registration_approve(registration=self._registration(event, pk), user=request.user)
        return Response(RegistrationSerializer(self._registration(event, str(registration.pk))).data)

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR, 401: _UNAUTHENTICATED, 403: _NOT_ORGANISER},
                   summary="Every registration with contacts as CSV, formula-safe (organisers)")
    @action(detail=False, methods=["get"])
    def export(self, request, slug=None):
        event = self._event(edit=True)
        response = HttpResponse(selectors.registrations_csv(event), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-players.csv"'
        return response


class EventPlayerViewSet(_EventScoped):
    """The event's approved players as the public sees them."""

    @extend_schema(responses=PublicPlayerSerializer(many=True),
                   summary="The approved players: public names (no surname of a minor, nothing without consent)")
    def list(self, request, slug=None):
        event = self._event()
        return Response(PublicPlayerSerializer(selectors.public_players(event), many=True).data)


class EventDrawViewSet(_EventScoped):
    """The event's nation draws: anyone reads them; organisers make one."""

    lookup_value_regex = r"\d+"

    @extend_schema(responses=NationDrawSerializer(many=True), summary="The event's nation draws, newest first")
    def list(self, request, slug=None):
        event = self._event()
        return Response(NationDrawSerializer([draw_data(d, event) for d in selectors.event_draws(event)],
                                             many=True).data)

    @extend_schema(responses=NationDrawSerializer, summary="One nation draw, its cards in the order revealed")
    def retrieve(self, request, slug=None, pk=None):
        event = self._event()
        draw = NationDraw.objects.select_related("division__tournament").filter(pk=int(pk), event=event).first()
        if draw is None:
            raise NotFound(_("No such draw."))
        return Response(NationDrawSerializer(draw_data(draw, event)).data)

    @extend_schema(request=NationDrawCreateSerializer, responses={201: NationDrawSerializer},
                   summary="Draw a division's nations for its approved players (organisers)")
    def create(self, request, slug=None):
        event = self._event(edit=True)
        serializer = NationDrawCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        division = _division(event, data["division"])
        if "nations" in data:
            nations = [_team(code, "nations") for code in data["nations"]]
            if any(t is None or not t.is_nation for t in nations):
                raise DomainError({"nations": [_("Give nations by their codes (FRA, NZL...).")]})
        else:
            nations = list(Team.objects.filter(is_nation=True).order_by("world_ranking", "name"))
        cards = [t for t in nations if t is not None]
        cards += services.team_cards_create(names=data["custom_cards"], user=request.user)
        draw = services.nations_draw(event=event, division=division, method=data["method"], cards=cards,
                                     seed=data.get("seed"), pools=data["pools"], live=data["live"],
                                     user=request.user)
        draw = NationDraw.objects.select_related("division__tournament").get(pk=draw.pk)
        return Response(NationDrawSerializer(draw_data(draw, event)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=NationPickSerializer, responses=NationDrawSerializer,
                   summary="Record the pick of the player whose turn it is in a dice draw picked in turn (organisers)")
    @action(detail=True, methods=["post"])
    def pick(self, request, slug=None, pk=None):
        event = self._event(edit=True)
        serializer = NationPickSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        draw = NationDraw.objects.select_related("division__tournament", "event").filter(
            pk=int(pk), event=event).first()
        if draw is None:
            raise NotFound(_("No such draw."))
        services.nation_pick(draw=draw, team=_team(serializer.validated_data["team"], "team"), user=request.user)
        draw = NationDraw.objects.select_related("division__tournament").get(pk=draw.pk)
        return Response(NationDrawSerializer(draw_data(draw, event)).data)

