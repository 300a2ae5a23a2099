"""The league's own pages: exports, printing, accounts and the organiser's workflow.

Mounted by ``config.urls`` in the ``league`` namespace together with ``web.urls`` (the pages that show
matches too: the tournament, team and fixture pages, the dashboard).
"""

from django.urls import path

from league import live_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/<str:code>/", views.set_language, name="set_language"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("teams/", views.my_teams, name="my_teams"),
    path("teams/<int:pk>/", views.team_edit, name="team_edit"),
    # Badges: a crest drawn from a team's colours and initials, an uploaded logo; a tournament's QR code.
    path("crest/<str:spec>.svg", views.team_crest, name="team_crest"),
    path("media/logos/<str:name>", views.team_logo, name="team_logo"),
    path("t/<slug:slug>/qr.svg", views.tournament_qr, name="tournament_qr"),
    # Public pages of one tournament.
    path("t/<slug:slug>/teams/<str:code>/calendar.ics", views.team_calendar, name="team_calendar"),
    path("t/<slug:slug>/calendar.ics", views.tournament_calendar, name="calendar"),
    path("t/<slug:slug>/export/<str:what>.csv", views.export_csv, name="export_csv"),
    path("t/<slug:slug>/print/fixtures/", views.print_fixtures, name="print_fixtures"),
    path("t/<slug:slug>/print/score-sheets/", views.print_scoresheets, name="print_scoresheets"),
    # The organiser's pages.
    # Live scoring: a scorer link's pages (no account), an organiser's scoreboard and scorer links.
    path("score/<str:token>/", live_views.scorer, name="scorer"),
    path("score/<str:token>/<int:pk>/", live_views.scorer_board, name="scorer_board"),
    path("score/<str:token>/<int:pk>/events/", live_views.scorer_events, name="scorer_events"),
    path("t/<slug:slug>/manage/score/<int:pk>/", live_views.organiser_board, name="live_board"),
    path("t/<slug:slug>/manage/score/<int:pk>/events/", live_views.organiser_events, name="live_events"),
    path("t/<slug:slug>/manage/score/<int:pk>/confirm/", live_views.live_confirm, name="live_confirm"),
    path("t/<slug:slug>/manage/scorers/", live_views.manage_scorers, name="manage_scorers"),
    path("t/<slug:slug>/manage/scorers/<int:pk>/qr.svg", live_views.scorer_qr, name="scorer_qr"),
    path("t/<slug:slug>/manage/settings/", views.manage_settings, name="manage_settings"),
    path("t/<slug:slug>/manage/delete/", views.manage_delete, name="manage_delete"),
    path("t/<slug:slug>/manage/history/", views.manage_history, name="manage_history"),
    path("t/<slug:slug>/manage/publish/", views.manage_publish, name="manage_publish"),
    path("t/<slug:slug>/manage/organisers/", views.manage_organisers, name="manage_organisers"),
    path("t/<slug:slug>/manage/teams/", views.manage_teams, name="manage_teams"),
    path("t/<slug:slug>/manage/teams/<int:entry_pk>/withdraw/", views.manage_withdraw, name="manage_withdraw"),
    path("t/<slug:slug>/manage/teams/<int:entry_pk>/logo/", views.manage_team_logo, name="manage_team_logo"),
    path("t/<slug:slug>/manage/teams/<int:entry_pk>/remove/", views.manage_entry_remove, name="manage_entry_remove"),
    path("t/<slug:slug>/manage/draw/", views.manage_draw, name="manage_draw"),
    path("t/<slug:slug>/manage/fixtures/", views.manage_fixtures, name="manage_fixtures"),
    path("t/<slug:slug>/manage/schedule/", views.manage_schedule, name="manage_schedule"),
    path("t/<slug:slug>/manage/schedule/<int:pk>/", views.manage_schedule_fixture, name="manage_schedule_fixture"),
    path("t/<slug:slug>/manage/fixtures/jobs/<int:pk>/", views.manage_fixture_job, name="manage_fixture_job"),
    path("t/<slug:slug>/manage/fixtures/delete/", views.manage_fixtures_clear, name="manage_fixtures_clear"),
    path("t/<slug:slug>/manage/players/", views.manage_players, name="manage_players"),
    path("t/<slug:slug>/manage/results/", views.manage_results, name="manage_results"),
    path("t/<slug:slug>/manage/results/import/", views.manage_results_import, name="manage_results_import"),
    path("t/<slug:slug>/manage/results/<int:pk>/", views.manage_result, name="manage_result"),
    path("t/<slug:slug>/manage/results/<int:pk>/delete/", views.manage_result_delete, name="manage_result_delete"),
]
