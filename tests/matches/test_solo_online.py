"""The solo challenge online: a player with a pass code starts their own attempt, plays it in the browser, and
the result reaches the leaderboard; the organiser's fixture page offers "Play online" for a solo game too."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse

from league.format_selectors import solo_leaderboard
from league.models import Fixture, Result
from league.services import tournament_create_from_preset as preset_run
from matches import services
from matches.models import Match, MatchSeat
from matches.permissions import SESSION_ENTRIES

pytestmark = pytest.mark.django_db


@pytest.fixture
def solo(organiser):
    t = preset_run("solo", name="Solo night", slug="solo", user=organiser, teams=["FRA", "NZL"], attempts=2)
    assert t.spec.solo and t.spec.playable
    return t


def pass_code(tournament, code):
    entry = tournament.entries.get(team__code=code)
    return entry, services.entry_pass_for(entry).code


def play_out(match, seat=0, seed=1):
    """The person plays random legal moves through the service until the game is over."""
    rng = random.Random(seed)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.LIVE:
            return match
        state = services.match_state(match)
        services.match_submit_action(match=match, seat=seat, ply=match.ply + 1,
                                     action=rng.choice(state.legal_actions(seat)), held_seats={seat})
    raise AssertionError("the game did not end")


def test_player_with_a_code_starts_and_plays_an_attempt(solo):
    entry, code = pass_code(solo, "FRA")
    player = Client()
    response = player.post(reverse("matches:join"), {"code": code})
    assert response.status_code == 302 and response["Location"] == "/matches/mine/"
    page = player.get("/matches/mine/").content.decode()
    assert "Start your attempt when you are ready" in page and "not live yet" not in page
    first = Fixture.objects.filter(tournament=solo, home=entry).order_by("round_number").first()
    assert reverse("matches:start-attempt", args=[first.pk]) in page
    response = player.post(reverse("matches:start-attempt", args=[first.pk]))
    match = Match.objects.get(fixture=first)
    assert response.status_code == 302 and response["Location"] == reverse("matches:play", args=[match.pk])
    seat = match.seats.get(seat=0)
    assert seat.kind == MatchSeat.Kind.PERSON and seat.entry_id == entry.pk and seat.joined_at is not None
    play_page = player.get(response["Location"]).content.decode()
    assert "form" in play_page and "actions" in play_page  # the player's buttons, not the spectator view
    # Starting again opens the same attempt; the second attempt waits until this one is over.
    assert player.post(reverse("matches:start-attempt", args=[first.pk]))["Location"].endswith(f"/{match.pk}/")
    second = Fixture.objects.filter(tournament=solo, home=entry, round_number=2).get()
    assert player.post(reverse("matches:start-attempt", args=[second.pk]))["Location"].endswith(f"/{match.pk}/")
    assert not Match.objects.filter(fixture=second).exists()
    play_out(match)
    result = Result.objects.get(fixture=first)
    assert result.source == Result.Source.ONLINE
    row = next(r for r in solo_leaderboard(solo) if r["name"].startswith("France"))
    assert row["attempts"] == 1 and row["points_for"] == result.home_score


def test_an_attempt_is_only_its_players(solo):
    _entry, code = pass_code(solo, "FRA")
    other = Fixture.objects.filter(tournament=solo, home__team__code="NZL").first()
    player = Client()
    player.post(reverse("matches:join"), {"code": code})
    response = player.post(reverse("matches:start-attempt", args=[other.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("matches:mine")
    assert not Match.objects.exists()
    assert Client().post(reverse("matches:start-attempt", args=[other.pk])).status_code == 302
    assert not Match.objects.exists()
    assert Client().post(reverse("matches:start-attempt", args=[10**9])).status_code == 404


def test_duels_are_not_started_by_a_player(organiser):
    t = preset_run("league", name="Cards", slug="cards", user=organiser, teams=["FRA", "NZL"],
                   ruleset="rugby-league-cards")
    fixture = Fixture.objects.get(tournament=t)
    player = Client()
    session = player.session
    session[SESSION_ENTRIES] = [fixture.home_id]
    session.save()
    player.post(reverse("matches:start-attempt", args=[fixture.pk]))
    assert not Match.objects.exists()


def test_organiser_fixture_page_offers_play_online_for_solo(solo, organiser):
    client = Client()
    client.force_login(organiser)
    fixture = Fixture.objects.filter(tournament=solo).first()
    page = client.get(reverse("league:fixture", args=["solo", fixture.pk])).content.decode()
    assert "Play online" in page
    response = client.post(reverse("matches:start-fixture", args=[fixture.pk]), {"next": "/"})
    match = Match.objects.get(fixture=fixture)
    assert response["Location"] == reverse("matches:manage", args=[match.pk])
    # A solo player is a person, waiting with their pass code (the computer alone would be a simulation).
    assert match.seats.get(seat=0).kind == MatchSeat.Kind.PERSON and match.status == Match.Status.LIVE
    manual = preset_run("league", name="Pitch", slug="pitch", user=organiser, teams=["FRA", "NZL"])
    played_off_site = Fixture.objects.get(tournament=manual)
    assert "Play online" not in client.get(reverse("league:fixture", args=["pitch", played_off_site.pk])
                                           ).content.decode()
