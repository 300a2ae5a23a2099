"""URLs of the pages that show both apps. ``config.urls`` mounts them in the ``league`` namespace, beside the
league's own pages, so their names (``league:tournament``, ``league:manage``...) stay what they always were.

A tournament's public page has one URL per tab (standings first), so a tab keeps its place in the address and
works without JavaScript.
"""

from django.urls import path

from web import events, fundraising, registrations, views

urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/fixtures/", views.tournament_fixtures, name="tournament_fixtures"),
    path("t/<slug:slug>/bracket/", views.tournament_bracket, name="tournament_bracket"),
    path("t/<slug:slug>/chances/", views.tournament_chances, name="tournament_chances"),
    path("t/<slug:slug>/live/", views.tournament_live, name="tournament_live"),
    path("t/<slug:slug>/screen/", views.tournament_screen, name="tournament_screen"),
    path("t/<slug:slug>/poster/", views.tournament_poster, name="tournament_poster"),
    path("t/<slug:slug>/embed/standings/", views.embed_standings, name="embed_standings"),
    path("t/<slug:slug>/embed/bracket/", views.embed_bracket, name="embed_bracket"),
    path("t/<slug:slug>/print/standings/", views.print_standings, name="print_standings"),
    path("t/<slug:slug>/print/bracket/", views.print_bracket, name="print_bracket"),
    path("t/<slug:slug>/teams/<str:code>/", views.team_detail, name="team"),
    path("t/<slug:slug>/matches/<int:pk>/", views.fixture_detail, name="fixture"),
    path("t/<slug:slug>/manage/", views.manage, name="manage"),
    path("t/<slug:slug>/manage/reopen/", views.manage_reopen, name="manage_reopen"),
    path("t/<slug:slug>/manage/simulate/", views.manage_simulate, name="manage_simulate"),
    # Events: several divisions on one day's pitches.
    path("events/", events.event_list, name="event_list"),
    path("events/new/", events.event_new, name="event_new"),
    path("e/<slug:slug>/", events.event_detail, name="event"),
    path("e/<slug:slug>/screen/", events.event_screen, name="event_screen"),
    path("e/<slug:slug>/qr.svg", events.event_qr, name="event_qr"),
    path("e/<slug:slug>/manage/", events.event_manage, name="event_manage"),
    path("e/<slug:slug>/register/", registrations.event_register, name="event_register"),
    path("e/<slug:slug>/register/qr.svg", registrations.event_register_qr, name="event_register_qr"),
    path("e/<slug:slug>/register/card/", registrations.event_register_card, name="event_register_card"),
    path("e/<slug:slug>/register/<str:token>/", registrations.event_registered, name="event_registered"),
    path("e/<slug:slug>/draw/", registrations.event_draw, name="event_draw"),
    path("e/<slug:slug>/players/", registrations.event_players, name="event_players"),
    path("e/<slug:slug>/players.csv", registrations.event_players_csv, name="event_players_csv"),
    path("e/<slug:slug>/players/<int:pk>/", registrations.event_player_edit, name="event_player_edit"),
    path("e/<slug:slug>/players/<int:pk>/<str:action>/", registrations.event_player_action,
         name="event_player_action"),
    # An event's money and prize-giving.
    path("e/<slug:slug>/manage/money/", fundraising.event_money, name="event_money"),
    path("e/<slug:slug>/manage/money.csv", fundraising.event_money_csv, name="event_money_csv"),
    path("e/<slug:slug>/manage/money/donations/<int:pk>/delete/", fundraising.event_donation_delete,
         name="event_donation_delete"),
    path("e/<slug:slug>/manage/money/pledges/<int:pk>/delete/", fundraising.event_pledge_delete,
         name="event_pledge_delete"),
    path("e/<slug:slug>/thanks/", fundraising.event_thanks, name="event_thanks"),
    path("e/<slug:slug>/prizes/", fundraising.event_prizes, name="event_prizes"),
    path("e/<slug:slug>/prizes/screen/", fundraising.event_prizes_screen, name="event_prizes_screen"),
    path("e/<slug:slug>/prizes/certificates/", fundraising.event_certificates, name="event_certificates"),
]
