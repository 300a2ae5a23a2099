"""REST API routes of the league: teams, tournaments, entries, pools, fixtures (with results), events, tokens."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from league import api, event_api, registration_api

router = DefaultRouter()
router.register("teams", api.TeamViewSet, basename="team")
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("pools", api.PoolViewSet, basename="pool")
router.register("fixtures", api.FixtureViewSet, basename="fixture")
router.register("events", event_api.EventViewSet, basename="event")
router.register(rf"events/(?P<slug>{registration_api.SLUG})/registrations", registration_api.EventRegistrationViewSet,
                basename="event-registration")
router.register(rf"events/(?P<slug>{registration_api.SLUG})/players", registration_api.EventPlayerViewSet,
                basename="event-player")
router.register(rf"events/(?P<slug>{registration_api.SLUG})/draws", registration_api.EventDrawViewSet,
                basename="event-draw")

urlpatterns = [
    path("token/", api.TokenObtainView.as_view(), name="api-token"),
    *router.urls,
]
