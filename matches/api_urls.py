"""REST API routes of online play (mounted under /api/)."""

from django.urls import path

from matches import api, simulation_api

urlpatterns = [
    path("matches/<int:pk>/", api.MatchViewAPI.as_view(), name="api-match"),
    path("matches/<int:pk>/actions/", api.MatchActionsAPI.as_view(), name="api-match-actions"),
    path("matches/<int:pk>/replay/<int:n>/", api.MatchReplayAPI.as_view(), name="api-match-replay"),
    path("matches/<int:pk>/resign/", api.MatchResignAPI.as_view(), name="api-match-resign"),
    path("matches/<int:pk>/draw/", api.MatchDrawAPI.as_view(), name="api-match-draw"),
    path("tournaments/<slug:slug>/simulation/", simulation_api.SimulationAPI.as_view(), name="api-simulation"),
    path("tournaments/<slug:slug>/odds/", simulation_api.OddsAPI.as_view(), name="api-odds"),
]
