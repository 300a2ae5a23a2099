"""URLs of the pages that show both apps. ``config.urls`` mounts them in the ``league`` namespace, beside the
league's own pages, so their names (``league:tournament``, ``league:manage``...) stay what they always were."""

from django.urls import path

from web import views

urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/teams/<str:code>/", views.team_detail, name="team"),
    path("t/<slug:slug>/matches/<int:pk>/", views.fixture_detail, name="fixture"),
    path("t/<slug:slug>/manage/", views.manage, name="manage"),
    path("t/<slug:slug>/manage/simulate/", views.manage_simulate, name="manage_simulate"),
]
