"""REST API routes of the league: teams, tournaments, entries, pools, fixtures (with results), events, tokens."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from league import api, event_api, registration_api
from league import fundraising_api as money_api

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
    # An event's money and prize-giving (league.fundraising_api).
    path("events/<slug:slug>/money/", money_api.EventMoneyView.as_view(), name="event-money"),
    path("events/<slug:slug>/money/details/", money_api.EventMoneyDetailsView.as_view(), name="event-money-details"),
    path("events/<slug:slug>/fees/", money_api.EventFeesView.as_view(), name="event-fees"),
    path("events/<slug:slug>/fees/<int:registration>/", money_api.EventFeeView.as_view(), name="event-fee"),
    path("events/<slug:slug>/donations/", money_api.EventDonationsView.as_view(), name="event-donations"),
    path("events/<slug:slug>/donations/<int:id>/", money_api.EventDonationView.as_view(), name="event-donation"),
    path("events/<slug:slug>/pledges/", money_api.EventPledgesView.as_view(), name="event-pledges"),
    path("events/<slug:slug>/pledges/<int:id>/", money_api.EventPledgeView.as_view(), name="event-pledge"),
    path("events/<slug:slug>/thanks/", money_api.EventThanksView.as_view(), name="event-thanks"),
    path("events/<slug:slug>/awards/", money_api.EventAwardsView.as_view(), name="event-awards"),
    *router.urls,
]
