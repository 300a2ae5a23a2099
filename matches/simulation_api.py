"""REST API of simulation and odds: ``/api/tournaments/{slug}/simulation/`` and ``/api/tournaments/{slug}/odds/``.

Thin views: permissions from ``league.permissions`` (anyone who may read the tournament reads; only its
organisers start a simulation), work in ``matches.simulation`` and ``matches.odds``.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from league.api import cached_json, tournament_scope
from league.cache import ODDS, tokens_digest, tournament_with_tokens
from league.errors import Forbidden
from league.permissions import AuthenticateWhenAsked, can_edit_tournament, tournament_checked, tournament_for
from league.serializers import ErrorSerializer
from matches import odds, simulation


class SimulationStartSerializer(serializers.Serializer):
    stage = serializers.ChoiceField(choices=simulation.STAGES, default="all")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=simulation.SEED_MASK)
    round = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    fixture = serializers.IntegerField(required=False, allow_null=True, min_value=1)


_RUN = inline_serializer("SimulationRun", {
    "id": serializers.IntegerField(), "status": serializers.CharField(), "stage": serializers.CharField(),
    "seed": serializers.IntegerField(), "done": serializers.IntegerField(), "total": serializers.IntegerField(),
    "percent": serializers.IntegerField(), "started_at": serializers.DateTimeField(),
    "finished_at": serializers.DateTimeField(allow_null=True),
    "error": serializers.CharField(help_text="Why the run stopped short or failed, in the request's language"),
    "error_code": serializers.CharField(help_text="That reason's code (stuck, not_queued, fixture_failed) or empty"),
})


class SimulationAPI(APIView):
    """The latest simulation run of a tournament (progress), and starting one (organisers)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: _RUN, 404: OpenApiResponse(description="no such tournament or no run yet")})
    def get(self, request, slug):
        tournament = tournament_for(request.user, slug)
        data = simulation.run_data(simulation.latest_run(tournament))
        if data is None:
            raise Http404("This tournament has not been simulated.")
        return Response(data)

    @extend_schema(request=SimulationStartSerializer,
                   responses={202: _RUN, 400: OpenApiResponse(description="bad stage, seed or scope"),
                              403: OpenApiResponse(description="not an organiser"),
                              409: OpenApiResponse(ErrorSerializer, description="a simulation is already running"),
                              503: OpenApiResponse(ErrorSerializer, description="the workers' queue (Redis) is "
                                                   "down: nothing was started; try again later")})
    def post(self, request, slug):
        tournament = tournament_for(request.user, slug)
        if not request.user.is_authenticated:
            raise NotAuthenticated("Sign in as an organiser of this tournament to simulate it.")
        if not can_edit_tournament(request.user, tournament):
            raise Forbidden(_("Only the organisers of this tournament may simulate it."))
        params = SimulationStartSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        values = params.validated_data
        fixture = None
        if values.get("fixture"):
            fixture = tournament.fixtures.filter(pk=values["fixture"]).first()
            if fixture is None:
                return Response({"fixture": ["No such fixture in this tournament."]}, status=400)
        # Refused (a run already going: 409; a bad scope: 400): config.api's handler answers.
        run = simulation.simulation_start(tournament=tournament, stage=values["stage"], seed=values.get("seed"),
                                          user=request.user, fixture=fixture, round_number=values.get("round"))
        return Response(simulation.run_data(run), status=status.HTTP_202_ACCEPTED)


class OddsAPI(AuthenticateWhenAsked, APIView):
    """A tournament's latest qualification odds: per team, the chance of each pool place, round and the title."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiResponse(description="the odds"),
                              404: OpenApiResponse(description="no such tournament or no odds yet")})
    def get(self, request, slug):
        # The row and the odds' token in one cache round trip (a phone polls the odds as often as the tables).
        tournament, tokens = tournament_with_tokens(slug, [ODDS])
        tournament = tournament_checked(self.caller, tournament)

        def build() -> Response:
            stored = odds.stored_odds(tournament)
            if stored is None:
                raise Http404("No odds have been computed for this tournament yet.")
            return Response(stored)

        # Kept until the tournament changes ("current" compares versions) or new odds are stored (their token).
        odds_token = tokens_digest(tokens)
        return cached_json(self, request, f"{tournament_scope(tournament)}:odds{odds_token}", build)
