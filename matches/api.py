"""REST API of online play: a match's view, the move endpoint, the action log and replay steps.

Thin views: they find the caller's seat (``permissions``) and call ``services``; a refused move is answered by
``config.api.exception_handler``.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.cache import patch_cache_control
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authentication import CSRFCheck
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import get_ruleset
from matches import permissions, selectors, services
from matches.models import Match


def _match_or_404(pk) -> Match:
    try:
        return selectors.get_match(pk)
    except (Match.DoesNotExist, ValueError):
        raise Http404("No such match.")


def _archived_body(match: Match) -> dict:
    """What the API says of a match the engine cannot replay (recorded under other rules): what was stored."""
    return {"id": match.pk, "ruleset": match.ruleset, "status": match.status, "ply": match.ply,
            "rules_version": match.rules_version, "archived": True,
            "outcome": selectors.outcome_for_reader(match.outcome),
            "detail": "this match was recorded under another version of the rules: it cannot be replayed; its "
                      "stored outcome and its action log (/actions/) are given instead"}


def _state_or_409(match: Match, upto: int | None = None):
    state = services.match_state_or_none(match, upto=upto)
    if state is None:
        raise services.MatchError(_archived_body(match)["detail"], code="conflict", reason="rules_changed")
    return state


def _can_watch(request, match) -> bool:
    """``permissions.can_watch`` for a match named by its id: a match of an unlisted tournament needs
    ``?tournament=<slug>`` (numeric ids alone reach only the listed tournaments' matches)."""
    return permissions.can_watch(request.user, match, by_id=True, slug=request.query_params.get("tournament"))


def _seat_param(request) -> int | None:
    raw = request.query_params.get("seat")
    if raw in (None, ""):
        return None
    try:
        return int(raw)
    except ValueError:
        return None


def _enforce_csrf_for_session(request) -> None:
    """A pupil signed in by code has no account, so DRF skips its CSRF check: do it here."""
    django_request = request._request
    session = django_request.session
    by_code = session.get(permissions.SESSION_SEATS) or session.get(permissions.SESSION_ENTRIES)
    if request.user.is_authenticated or not by_code:
        return
    check = CSRFCheck(lambda req: None)
    check.process_request(django_request)
    reason = check.process_view(django_request, None, (), {})
    if reason:
        raise PermissionDenied(f"CSRF failed: {reason}")


class ActionInput(serializers.Serializer):
    ply = serializers.IntegerField(min_value=1, help_text="The ply this action becomes: the view's next_ply.")
    action = serializers.CharField(max_length=80)
    seat = serializers.IntegerField(min_value=0, max_value=1, required=False,
                                    help_text="Needed only by someone who holds both seats.")


class MatchViewAPI(APIView):
    """GET the match as the caller's seat sees it (or as a spectator). Conditional: ETag / If-None-Match."""

    permission_classes = [AllowAny]
    detail_scope_parameter = True  # ?tournament=<slug> (config.schema)

    @extend_schema(parameters=[OpenApiParameter("seat", int), OpenApiParameter("events_from", int)],
                   responses={200: dict, 304: None})
    def get(self, request, pk):
        try:
            light = selectors.get_match_version(pk)
        except Match.DoesNotExist:
            raise Http404("No such match.")
        seat = permissions.viewer_seat(light, user=request.user, session=request.session,
                                     requested=_seat_param(request))
        if seat is None and not _can_watch(request, light):
            raise Http404("No such match.")
        if selectors.clock_due(light) and services.match_clock_expire(match=light):
            light = selectors.get_match_version(pk)
        etag = selectors.match_etag(light, seat)
        if etag in request.headers.get("If-None-Match", "") and "events_from" not in request.query_params:
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            match = _match_or_404(pk)
            etag = selectors.match_etag(match, seat)
            state = services.match_state_or_none(match)
            try:
                events_from = int(request.query_params["events_from"]) if "events_from" in request.query_params \
                    else None
            except ValueError:
                events_from = None
            if state is None:
                response = Response(_archived_body(match))
            else:
                response = Response(selectors.match_view(match, state, seat, events_from=events_from))
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=True)
        return response


class MatchActionsAPI(APIView):
    """GET the action log (ply, seat, action); POST {"ply", "action"} to make a move."""

    permission_classes = [AllowAny]
    detail_scope_parameter = True  # ?tournament=<slug> (config.schema)

    @extend_schema(responses={200: dict})
    def get(self, request, pk):
        match = _match_or_404(pk)
        if not _can_watch(request, match) and permissions.viewer_seat(
                match, user=request.user, session=request.session) is None:
            raise Http404("No such match.")
        viewer = permissions.viewer_seat(match, user=request.user, session=request.session)
        hidden = get_ruleset(match.ruleset).spec.hidden_information
        actions = [{"ply": logged.ply, "seat": logged.seat, "by_computer": logged.by_computer,
                    "created_at": logged.created_at,
                    "action": logged.action if selectors.action_visible(match, logged.seat, viewer, hidden)
                    else selectors.HIDDEN_ACTION}
                   for logged in selectors.match_actions(match)]
        return Response({"id": match.pk, "ruleset": match.ruleset, "status": match.status, "ply": match.ply,
                         "actions": actions})

    # A 400 is either an illegal move (detail, code and the legal actions) or a malformed request (the
    # field's errors, e.g. {"ply": ["This field is required."]}): hence no key is required.
    @extend_schema(request=ActionInput, responses={
        201: dict, 400: inline_serializer("IllegalAction", {
            "detail": serializers.CharField(required=False), "code": serializers.CharField(required=False),
            "legal_actions": serializers.ListField(child=serializers.CharField(), required=False)}),
        403: dict, 409: dict})
    def post(self, request, pk):
        match = _match_or_404(pk)
        _enforce_csrf_for_session(request)
        data = ActionInput(data=request.data)
        data.is_valid(raise_exception=True)
        held = permissions.seats_held(match, user=request.user, session=request.session)
        seat = data.validated_data.get("seat")
        if seat is None:
            if not held:
                if not _can_watch(request, match):
                    raise Http404("No such match.")
                return Response({"detail": "you do not hold a seat in this match", "code": "not_your_seat"},
                                status=status.HTTP_403_FORBIDDEN)
            seat = min(held) if len(held) == 1 else None
            if seat is None:
                # Someone holding both seats (a teacher demoing) acts for whichever is to act.
                acting = _state_or_409(match).to_act()
                seat = next((s for s in acting if s in held), min(held))
        # A refused move is a MatchError: config.api's handler answers it (400 with the legal actions, 403,
        # or 409 with the next ply).
        outcome = services.match_submit_action(match=match, seat=seat, ply=data.validated_data["ply"],
                                               action=data.validated_data["action"], user=request.user,
                                               held_seats=held)
        fresh = selectors.get_match(match.pk)
        body = selectors.match_view(fresh, outcome.state, seat)
        body["replayed"] = outcome.replayed
        response = Response(body, status=status.HTTP_201_CREATED)
        response["ETag"] = selectors.match_etag(fresh, seat)
        return response


class MatchReplayAPI(APIView):
    """GET the match after ply ``n`` (0 = before the first move), as a spectator sees it (or your seat)."""

    permission_classes = [AllowAny]
    detail_scope_parameter = True  # ?tournament=<slug> (config.schema)

    @extend_schema(responses={200: dict})
    def get(self, request, pk, n):
        match = _match_or_404(pk)
        seat = permissions.viewer_seat(match, user=request.user, session=request.session,
                                     requested=_seat_param(request))
        if seat is None and not _can_watch(request, match):
            raise Http404("No such match.")
        if n > match.ply:
            return Response({"detail": f"the match has {match.ply} plies"}, status=status.HTTP_404_NOT_FOUND)
        state = _state_or_409(match, upto=n)
        body = selectors.match_view(match, state, seat, events_from=0)
        body.update({"step": n, "steps": match.ply, "legal_actions": [], "your_turn": False})
        last = selectors.match_action(match, n)
        if last and not selectors.action_visible(match, last.seat, seat, state.spec.hidden_information):
            body["last_action"] = {"seat": last.seat, "action": selectors.HIDDEN_ACTION, "label": "A hidden move"}
        else:
            body["last_action"] = ({"seat": last.seat, "action": last.action,
                                    "label": state.describe_action(last.action)} if last else None)
        return Response(body)


class SeatInput(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=1, required=False,
                                    help_text="Needed only by someone who holds both seats.")


class DrawInput(SeatInput):
    do = serializers.ChoiceField(choices=["offer", "accept", "decline"])


def _acting_seat(request, match: Match, given: int | None) -> tuple[set[int], int]:
    held = permissions.seats_held(match, user=request.user, session=request.session)
    if not held:
        if not _can_watch(request, match):
            raise Http404("No such match.")
        raise PermissionDenied("you do not hold a seat in this match")
    return held, given if given is not None else min(held)


class MatchResignAPI(APIView):
    """POST: the caller's seat resigns; the match ends and the fixture's result follows (a walkover to the other
    side in a duel). Recorded in the match's log."""

    permission_classes = [AllowAny]

    @extend_schema(request=SeatInput, responses={200: dict, 403: dict, 409: dict})
    def post(self, request, pk):
        match = _match_or_404(pk)
        _enforce_csrf_for_session(request)
        data = SeatInput(data=request.data)
        data.is_valid(raise_exception=True)
        held, seat = _acting_seat(request, match, data.validated_data.get("seat"))
        services.match_resign(match=match, seat=seat, user=request.user, held_seats=held)
        fresh = selectors.get_match(match.pk)
        return Response(selectors.match_view(fresh, _state_or_409(fresh), seat))


class MatchDrawAPI(APIView):
    """POST ``{"do": "offer" | "accept" | "decline"}``: offer a draw, or answer the other side's offer (409 when the
    rule set or the score does not allow one now)."""

    permission_classes = [AllowAny]

    @extend_schema(request=DrawInput, responses={200: dict, 403: dict, 409: dict})
    def post(self, request, pk):
        match = _match_or_404(pk)
        _enforce_csrf_for_session(request)
        data = DrawInput(data=request.data)
        data.is_valid(raise_exception=True)
        held, seat = _acting_seat(request, match, data.validated_data.get("seat"))
        if data.validated_data["do"] == "offer":
            services.match_draw_offer(match=match, seat=seat, user=request.user, held_seats=held)
        else:
            services.match_draw_answer(match=match, seat=seat, accept=data.validated_data["do"] == "accept",
                                       user=request.user, held_seats=held)
        fresh = selectors.get_match(match.pk)
        body = selectors.match_view(fresh, _state_or_409(fresh), seat)
        body["draw_offer"] = fresh.draw_offer
        return Response(body)
