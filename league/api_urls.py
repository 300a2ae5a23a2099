"""REST API routes of the league: teams, tournaments, entries, pools, fixtures (with results), events, tokens."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from league import api, event_api

router = DefaultRouter()
router.register("teams", api.TeamViewSet, basename="team")
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("pools", api.PoolViewSet, basename="pool")
router.register("fixtures", api.FixtureViewSet, basename="fixture")
router.register("events", event_api.EventViewSet, basename="event")

urlpatterns = [
    path("token/", api.TokenObtainView.as_view(), name="api-token"),
    *router.urls,
]
