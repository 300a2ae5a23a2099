"""REST API of an event's money and prize-giving, with the pages' permissions.

Anyone who may read the event reads its total raised and goal (``/money/``), its thank-you list (``/thanks/``)
and its awards (``/awards/``): public names only, no amounts per person, no contacts. Only its organisers read and
change the money's details: the settings (``PATCH /money/``), entry fees (``/fees/``), donations
(``/donations/``) and pledges (``/pledges/``, with what each comes to from the results now). Anonymous callers
of those get 401, other signed-in users 403, a draft event is a 404 to non-organisers. Writes go through
``league.services.fundraising``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from league import award_selectors
from league import fundraising_selectors as money
from league.errors import NotFound
from league.models import CURRENCY_CHOICES, Donation, Event, PaymentMethod, Pledge, Tournament
from league.money import ZERO
from league.permissions import can_edit_event, event_for
from league.services import fundraising

_AMOUNT = {"max_digits": 10, "decimal_places": 2}
DENIED = {401: OpenApiResponse(description="Not signed in"),
          403: OpenApiResponse(description="Not an organiser of the event"),
          404: OpenApiResponse(description="No such event (or a draft of someone else's)")}
INVALID = {400: OpenApiResponse(description="Bad input: field errors")}


def _organised(request: Request, slug: str) -> Event:
    """The event, for its organisers only: 401 for anonymous callers, 404 for hidden drafts, then 403."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    return event_for(request.user, slug, edit=True)


# --- serializers --------------------------------------------------------------------------------------------------


class PublicMoneySerializer(serializers.Serializer):
    """What anyone sees: the total raised so far and the goal, in the event's currency."""

    currency = serializers.CharField()
    raised = serializers.DecimalField(**_AMOUNT, help_text=_("Paid entry fees, donations and pledges so far."))
    goal = serializers.DecimalField(**_AMOUNT, allow_null=True)
    percent = serializers.IntegerField(allow_null=True, help_text=_("How far towards the goal, 0 to 100."))


class MoneyDetailsSerializer(PublicMoneySerializer):
    """The organisers' totals: each part of the money."""

    entry_fee = serializers.DecimalField(**_AMOUNT)
    fees_paid = serializers.DecimalField(**_AMOUNT)
    fees_due = serializers.DecimalField(**_AMOUNT)
    donations = serializers.DecimalField(**_AMOUNT)
    pledges = serializers.DecimalField(**_AMOUNT)


class MoneySettingsSerializer(serializers.Serializer):
    """The event's currency (ISO 4217), goal (null: none) and entry fee per player."""

    currency = serializers.ChoiceField(choices=CURRENCY_CHOICES, required=False)
    fundraising_goal = serializers.DecimalField(**_AMOUNT, min_value=0, required=False, allow_null=True)
    entry_fee = serializers.DecimalField(**_AMOUNT, min_value=0, required=False)


class FeeSerializer(serializers.Serializer):
    """A registered player's entry fee (``amount`` null: not recorded yet)."""

    registration = serializers.IntegerField()
    name = serializers.CharField()
    plays = serializers.CharField()
    amount = serializers.DecimalField(**_AMOUNT, allow_null=True)
    paid = serializers.BooleanField()
    method = serializers.CharField()


class FeeWriteSerializer(serializers.Serializer):
    """Record a fee: the amount (the event's fee when left out), paid or not and how."""

    amount = serializers.DecimalField(**_AMOUNT, min_value=0, required=False, allow_null=True)
    paid = serializers.BooleanField(default=False)
    method = serializers.ChoiceField(choices=PaymentMethod.choices, allow_blank=True, required=False, default="",
                                     help_text=_("Cash, card or transfer; empty: not paid."))


class DonationSerializer(serializers.ModelSerializer):
    """A donation; ``registration``: the player it is for (their fundraising), or null."""

    registration = serializers.IntegerField(source="registration_id", allow_null=True, required=False)
    amount = serializers.DecimalField(**_AMOUNT, min_value=0)
    method = serializers.ChoiceField(choices=PaymentMethod.choices, allow_blank=True, required=False)

    class Meta:
        model = Donation
        fields = ["id", "donor_name", "amount", "message", "anonymous", "registration", "method", "created_at"]
        read_only_fields = ["id", "created_at"]

    def values(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        if "registration_id" in data:
            data["registration"] = data.pop("registration_id")
        return data


class PledgeSerializer(serializers.ModelSerializer):
    """A sponsor's pledge per try, point or win of a player (``registration``) or a side (``entry``);
    ``count`` and ``amount``: what the results make of it now (never stored)."""

    registration = serializers.IntegerField(source="registration_id", allow_null=True, required=False)
    entry = serializers.IntegerField(source="entry_id", allow_null=True, required=False)
    rate = serializers.DecimalField(**_AMOUNT, min_value=0)
    cap = serializers.DecimalField(**_AMOUNT, min_value=0, allow_null=True, required=False)
    count = serializers.SerializerMethodField()
    amount = serializers.SerializerMethodField()

    class Meta:
        model = Pledge
        fields = ["id", "sponsor_name", "anonymous", "basis", "rate", "cap", "registration", "entry", "count",
                  "amount", "created_at"]
        read_only_fields = ["id", "created_at", "count", "amount"]

    def _row(self, pledge: Pledge) -> dict[str, Any]:
        return self.context.get("amounts", {}).get(pledge.pk, {"count": 0, "amount": ZERO})

    def get_count(self, pledge: Pledge) -> int:
        return int(self._row(pledge)["count"])

    @extend_schema_field(serializers.DecimalField(**_AMOUNT))
    def get_amount(self, pledge: Pledge) -> str:
        return str(self._row(pledge)["amount"])

    def values(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        for name in ("registration", "entry"):
            if f"{name}_id" in data:
                data[name] = data.pop(f"{name}_id")
        return data


class WinnerSerializer(serializers.Serializer):
    name = serializers.CharField(help_text=_("The player's public name (or the side's)."))
    side = serializers.CharField()
    division = serializers.CharField()


class AwardSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    shared = serializers.BooleanField()
    detail = serializers.CharField()
    winners = WinnerSerializer(many=True)


class DivisionAwardsSerializer(serializers.Serializer):
    slug = serializers.CharField(source="tournament.slug")
    name = serializers.CharField(source="tournament.name")
    awards = AwardSerializer(many=True)


class AwardsSerializer(serializers.Serializer):
    divisions = DivisionAwardsSerializer(many=True)
    awards = AwardSerializer(many=True)
    not_awarded = serializers.ListField(child=serializers.CharField())


class ThanksDonorSerializer(serializers.Serializer):
    name = serializers.CharField()
    message = serializers.CharField(required=False)


class ThanksSerializer(serializers.Serializer):
    donors = ThanksDonorSerializer(many=True)
    sponsors = ThanksDonorSerializer(many=True)


# --- views --------------------------------------------------------------------------------------------------------


def _details(event: Event) -> dict[str, Any]:
    totals = money.money_totals(event)
    return {"currency": event.currency, "raised": totals.raised, "goal": totals.goal, "percent": totals.percent,
            "entry_fee": event.entry_fee, "fees_paid": totals.fees_paid, "fees_due": totals.fees_due,
            "donations": totals.donations, "pledges": totals.pledges}


class EventMoneyView(APIView):
    """The money of an event: its total and goal (anyone), its settings (organisers)."""

    @extend_schema(responses={200: PublicMoneySerializer, 404: DENIED[404]},
                   summary="The total raised so far and the goal (public)")
    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request.user, slug)
        totals = money.money_totals(event)
        return Response(PublicMoneySerializer({"currency": event.currency, "raised": totals.raised,
                                               "goal": totals.goal, "percent": totals.percent}).data)

    @extend_schema(request=MoneySettingsSerializer, responses={200: MoneyDetailsSerializer, **INVALID, **DENIED},
                   summary="Set the currency, goal and entry fee; gives every part of the money (organisers)")
    def patch(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        serializer = MoneySettingsSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fundraising.event_money_update(event=event, user=request.user, **serializer.validated_data)
        return Response(MoneyDetailsSerializer(_details(event)).data)


class EventMoneyDetailsView(APIView):
    """Every part of the event's money (organisers)."""

    @extend_schema(responses={200: MoneyDetailsSerializer, **DENIED},
                   summary="Every part of the money: fees paid and due, donations, pledges (organisers)")
    def get(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        return Response(MoneyDetailsSerializer(_details(event)).data)


def _fee_data(row: dict[str, Any]) -> dict[str, Any]:
    fee = row["fee"]
    return {"registration": row["registration"].pk, "name": row["name"], "plays": row["side"],
            "amount": fee.amount if fee else None, "paid": bool(fee and fee.paid), "method": fee.method if fee
            else ""}


class EventFeesView(APIView):
    """Every registered player's entry fee (organisers)."""

    @extend_schema(responses={200: FeeSerializer(many=True), **DENIED},
                   summary="Every registered player with their entry fee (organisers)")
    def get(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        return Response(FeeSerializer([_fee_data(row) for row in money.fee_rows(event)], many=True).data)


class EventFeeView(APIView):
    """One player's entry fee: record it (paid or not, how) or forget it (organisers)."""

    @extend_schema(request=FeeWriteSerializer, responses={200: FeeSerializer, **INVALID, **DENIED},
                   summary="Record a player's entry fee (organisers)")
    def put(self, request: Request, slug: str, registration: int) -> Response:
        event = _organised(request, slug)
        serializer = FeeWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        fundraising.entry_fee_set(event=event, registration=registration, user=request.user,
                                  **serializer.validated_data)
        row = next(r for r in money.fee_rows(event) if r["registration"].pk == registration)
        return Response(FeeSerializer(_fee_data(row)).data)

    @extend_schema(request=None, responses={204: None, **DENIED}, summary="Forget a player's entry fee (organisers)")
    def delete(self, request: Request, slug: str, registration: int) -> Response:
        event = _organised(request, slug)
        fundraising.entry_fee_delete(event=event, registration=registration, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventDonationsView(APIView):
    """The event's donations (organisers)."""

    @extend_schema(responses={200: DonationSerializer(many=True), **DENIED},
                   summary="The event's donations (organisers)")
    def get(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        return Response(DonationSerializer(money.event_donations(event), many=True).data)

    @extend_schema(request=DonationSerializer, responses={201: DonationSerializer, **INVALID, **DENIED},
                   summary="Record a donation (organisers)")
    def post(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        serializer = DonationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        donation = fundraising.donation_create(event=event, user=request.user, **serializer.values())
        return Response(DonationSerializer(donation).data, status=status.HTTP_201_CREATED)


def _donation(event: Event, pk: int) -> Donation:
    found = Donation.objects.select_related("event").filter(event=event, pk=pk).first()
    if found is None:
        raise NotFound(_("No such donation."))
    return found


class EventDonationView(APIView):
    """One donation: read, change or delete it (organisers)."""

    @extend_schema(responses={200: DonationSerializer, **DENIED}, summary="A donation (organisers)")
    def get(self, request: Request, slug: str, id: int) -> Response:
        return Response(DonationSerializer(_donation(_organised(request, slug), id)).data)

    @extend_schema(request=DonationSerializer, responses={200: DonationSerializer, **INVALID, **DENIED},
                   summary="Change a donation (organisers)")
    def patch(self, request: Request, slug: str, id: int) -> Response:
        donation = _donation(_organised(request, slug), id)
        serializer = DonationSerializer(donation, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        donation = fundraising.donation_update(donation=donation, user=request.user, **serializer.values())
        return Response(DonationSerializer(donation).data)

    @extend_schema(request=None, responses={204: None, **DENIED}, summary="Delete a donation (organisers)")
    def delete(self, request: Request, slug: str, id: int) -> Response:
        fundraising.donation_delete(donation=_donation(_organised(request, slug), id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _pledge_context(event: Event) -> dict[str, Any]:
    return {"amounts": {row["pledge"].pk: row for row in money.pledge_rows(event)}}


class EventPledgesView(APIView):
    """The event's pledges with what each comes to now (organisers)."""

    @extend_schema(responses={200: PledgeSerializer(many=True), **DENIED},
                   summary="The sponsors' pledges with what each comes to from the results (organisers)")
    def get(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        rows = money.pledge_rows(event)
        return Response(PledgeSerializer([row["pledge"] for row in rows], many=True,
                                         context={"amounts": {row["pledge"].pk: row for row in rows}}).data)

    @extend_schema(request=PledgeSerializer, responses={201: PledgeSerializer, **INVALID, **DENIED},
                   summary="Record a pledge per try, point or win of a player or a side (organisers)")
    def post(self, request: Request, slug: str) -> Response:
        event = _organised(request, slug)
        serializer = PledgeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pledge = fundraising.pledge_create(event=event, user=request.user, **serializer.values())
        return Response(PledgeSerializer(pledge, context=_pledge_context(event)).data,
                        status=status.HTTP_201_CREATED)


def _pledge(event: Event, pk: int) -> Pledge:
    found = Pledge.objects.select_related("event").filter(event=event, pk=pk).first()
    if found is None:
        raise NotFound(_("No such pledge."))
    return found


class EventPledgeView(APIView):
    """One pledge: read, change or delete it (organisers)."""

    @extend_schema(responses={200: PledgeSerializer, **DENIED}, summary="A pledge (organisers)")
    def get(self, request: Request, slug: str, id: int) -> Response:
        event = _organised(request, slug)
        return Response(PledgeSerializer(_pledge(event, id), context=_pledge_context(event)).data)

    @extend_schema(request=PledgeSerializer, responses={200: PledgeSerializer, **INVALID, **DENIED},
                   summary="Change a pledge (organisers)")
    def patch(self, request: Request, slug: str, id: int) -> Response:
        event = _organised(request, slug)
        pledge = _pledge(event, id)
        serializer = PledgeSerializer(pledge, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        pledge = fundraising.pledge_update(pledge=pledge, user=request.user, **serializer.values())
        return Response(PledgeSerializer(pledge, context=_pledge_context(event)).data)

    @extend_schema(request=None, responses={204: None, **DENIED}, summary="Delete a pledge (organisers)")
    def delete(self, request: Request, slug: str, id: int) -> Response:
        fundraising.pledge_delete(pledge=_pledge(_organised(request, slug), id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EventThanksView(APIView):
    """The thank-you list: donors and sponsors by name (anonymous ones as "Anonymous"), no amounts."""

    @extend_schema(responses={200: ThanksSerializer, 404: DENIED[404]}, summary="The thank-you list (public)")
    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request.user, slug)
        return Response(ThanksSerializer(money.thank_you_list(event)).data)


class EventAwardsView(APIView):
    """The prize-giving: each division's champion and runner-up and the awards across the event."""

    @extend_schema(responses={200: AwardsSerializer, 404: DENIED[404]},
                   summary="The prize-giving's awards, worked out from the results (public)")
    def get(self, request: Request, slug: str) -> Response:
        event = event_for(request.user, slug)
        shown = Tournament.objects.filter(division__event=event)
        if not can_edit_event(request.user, event):
            shown = shown.exclude(status=Tournament.Status.DRAFT)
        return Response(AwardsSerializer(award_selectors.event_awards(event, shown=list(shown))).data)
