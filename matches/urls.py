"""Web pages of online play (mounted under /matches/)."""

from django.urls import path

from matches import simulation_views, views

app_name = "matches"

urlpatterns = [
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_code, name="join-code"),
    path("mine/", views.my_matches, name="mine"),
    path("new/", views.new_friendly, name="new"),
    path("fixture/<int:fixture_pk>/start/", views.start_fixture, name="start-fixture"),
    path("attempt/<int:fixture_pk>/start/", views.start_attempt, name="start-attempt"),
    path("tournament/<slug:slug>/passes/", views.tournament_passes, name="passes"),
    path("tournament/<slug:slug>/live/", views.live_now, name="live-now"),
    path("tournament/<slug:slug>/simulation/", simulation_views.simulation_progress, name="simulation-progress"),
    path("tournament/<slug:slug>/odds/", simulation_views.odds_partial, name="odds"),
    path("<int:pk>/", views.play, name="play"),
    path("<int:pk>/watch/", views.watch, name="watch"),
    path("<int:pk>/board/", views.board, name="board"),
    path("<int:pk>/act/", views.act, name="act"),
    path("<int:pk>/resign/", views.resign, name="resign"),
    path("<int:pk>/draw/", views.draw, name="draw"),
    path("<int:pk>/replay/", views.replay, name="replay"),
    path("rules/<slug:ruleset>/", views.rules, name="rules"),
    path("<int:pk>/manage/", views.manage, name="manage"),
]
