"""Issue 19, players' conveniences: friendlies that wait for both seats, resigning, draw offers, the move clock,
the audit trail of all of them, and the results they give through the league's result service."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from league.errors import DomainError
from league.models import Fixture, Result, ResultChange, Tournament
from matches import services
from matches.models import Match, MatchAction, MatchEvent, MatchSeat
from tests.matches.conftest import make_fixture

pytestmark = pytest.mark.django_db


def _play(match: Match, seat: int, action: str | None = None, user=None):
    match.refresh_from_db()
    state = services.match_state(match)
    action = action or state.legal_actions(seat)[0]
    return services.match_submit_action(match=match, seat=seat, ply=match.ply + 1, action=action, user=user,
                                        held_seats={0, 1})


def _kinds(match: Match) -> list[str]:
    return list(match.events.order_by("id").values_list("kind", flat=True))


# ---- friendlies wait for both seats ----------------------------------------------------------------------------


def test_a_friendly_with_an_open_seat_waits_until_it_is_taken(players):
    match = services.match_create_friendly(ruleset="rugby-league-cards", user=players[0], home="computer:club",
                                           away="open", seed=3, options={"sets_per_half": 1})
    # The computer holds home and would choose at once: it waits for the away player.
    assert match.ply == 0 and match.moved_at is None and not match.actions.exists()
    away = match.seats.get(seat=1)
    services.seat_join(seat=away, user=players[1])
    match.refresh_from_db()
    assert match.moved_at is not None
    assert match.actions.filter(seat=0, by_computer=True).count() == 1  # the computer chose its card
    assert _kinds(match) == ["joined"]


def test_nobody_moves_before_the_other_seat_is_taken(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="open", seed=2)
    with pytest.raises(services.MatchError) as exc:
        services.match_submit_action(match=match, seat=0, ply=1, action="pass", user=players[0])
    assert exc.value.code == "conflict" and exc.value.reason == "waiting"
    client = Client()
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Waiting for the other player to take their seat" in page and 'class="actions"' not in page
    assert f"/matches/{match.pk}/manage/" in page  # the creator is shown where the code is
    services.seat_join(seat=match.seats.get(seat=1), user=players[1])
    assert services.match_submit_action(match=match, seat=0, ply=1, action="pass", user=players[0]).state


# ---- resigning -------------------------------------------------------------------------------------------------


def test_resigning_a_fixture_gives_the_other_side_a_walkover_through_the_league(fixture_people, players):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    _play(match, 0, "card:2", players[0])
    with pytest.raises(services.MatchError) as exc:  # only the seat's holder may resign it
        services.match_resign(match=match, seat=1, user=players[0])
    assert exc.value.code == "forbidden"
    services.match_resign(match=match, seat=1, user=players[1])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["ended_by"] == "resigned" and match.outcome["by"] == "away"
    assert match.outcome["winner"] == "home"
    result = Result.objects.get(fixture=fixture_people)
    assert result.kind == Result.Kind.WALKOVER_HOME and result.source == Result.Source.ONLINE
    assert result.winner_id == fixture_people.home_id and result.stats["resigned"] == "away"
    change = ResultChange.objects.get(fixture=fixture_people, reason_code="online_resigned")
    assert change.reason_params == {"match": match.pk, "side": "away"} and change.reason == ""
    event = match.events.get(kind=MatchEvent.Kind.RESIGNED)
    assert (event.seat, event.user, event.ply) == (1, players[1], 1)
    fixture_people.refresh_from_db()
    assert fixture_people.status == Fixture.Status.PLAYED
    with pytest.raises(services.MatchError) as exc:
        services.match_resign(match=match, seat=0, user=players[0])
    assert exc.value.reason == "over"


def test_resigning_a_solo_attempt_keeps_its_score(players):
    match = services.match_create_friendly(ruleset="rugby-champion-solo", user=players[0], home="me",
                                           away="computer:club", seed=3)
    for _ in range(3):
        _play(match, 0)
    match.refresh_from_db()
    before = services.match_state(match).outcome().score()
    services.match_resign(match=match, seat=0, user=players[0])
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["ended_by"] == "resigned"
    assert match.outcome["home"]["points"] == before["home"]["points"]


def test_resign_through_the_page_and_the_api(fixture_people, players):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    client = Client()
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="resign"' in page and "a walkover in the standings" in page
    assert Client().post(f"/matches/{match.pk}/resign/").status_code == 403  # a spectator holds no seat
    response = client.post(f"/matches/{match.pk}/resign/", {"seat": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "resigned" in response.content.decode()
    assert Result.objects.get(fixture=fixture_people).kind == Result.Kind.WALKOVER_AWAY
    api = APIClient()
    api.force_authenticate(players[1])
    refused = api.post(f"/api/matches/{match.pk}/resign/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "over"


# ---- draw offers -----------------------------------------------------------------------------------------------


def test_a_draw_is_offered_and_accepted_at_a_level_score(tournament, players):
    tournament.ruleset, tournament.ruleset_options = "bokx", {"half_minutes": 10}
    tournament.save()
    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    match = services.match_start_for_fixture(fixture=fixture, seed=1)
    services.match_draw_offer(match=match, seat=0, user=players[0])
    match.refresh_from_db()
    assert match.draw_offer == 0
    client = Client()
    client.force_login(players[1])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="draw-offer"' in page and 'data-draw-offered="1"' in page
    response = client.post(f"/matches/{match.pk}/draw/", {"do": "accept", "seat": 1}, HTTP_HX_REQUEST="true")
    assert "A draw was agreed." in response.content.decode()
    match.refresh_from_db()
    assert match.status == "finished" and match.outcome["winner"] == "draw"
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.kind) == (0, 0, Result.Kind.PLAYED)
    assert result.winner_id is None and result.stats["ended_by"] == "draw_agreed"
    assert _kinds(match) == ["draw_offered", "draw_accepted"]


def test_a_move_withdraws_the_offer_and_a_decline_is_recorded(players):
    match = services.match_create_friendly(ruleset="bokx", user=players[0], home="me", away=players[1], seed=1,
                                           options={"half_minutes": 10})
    acting = services.match_state(match).to_act()[0]
    services.match_draw_offer(match=match, seat=1 - acting, held_seats={1 - acting})
    services.match_draw_answer(match=match, seat=acting, accept=False, held_seats={acting})
    match.refresh_from_db()
    assert match.draw_offer is None and match.status == "live"
    services.match_draw_offer(match=match, seat=acting, held_seats={acting})
    _play(match, acting)
    match.refresh_from_db()
    assert match.draw_offer is None
    with pytest.raises(services.MatchError) as exc:
        services.match_draw_answer(match=match, seat=1 - acting, accept=True, held_seats={1 - acting})
    assert exc.value.reason == "no_offer"
    assert _kinds(match) == ["draw_offered", "draw_declined", "draw_offered"]


def test_no_draw_where_the_rule_set_settles_level_scores_or_against_the_computer(players, fixture_people):
    # The card game plays extra time by the book: a match cannot end level, so there is nothing to agree.
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    with pytest.raises(services.MatchError) as exc:
        services.match_draw_offer(match=match, seat=0, user=players[0])
    assert exc.value.reason == "no_draw"
    client = Client()
    client.force_login(players[0])
    assert 'data-testid="draw-offer-button"' not in client.get(f"/matches/{match.pk}/").content.decode()
    computer = services.match_create_friendly(ruleset="bokx", user=players[0], home="me", away="computer:beginner",
                                              seed=2)
    with pytest.raises(services.MatchError) as exc:
        services.match_draw_offer(match=computer, seat=0, user=players[0])
    assert exc.value.reason == "no_draw"


def test_draw_api(players):
    match = services.match_create_friendly(ruleset="bokx", user=players[0], home="me", away=players[1], seed=1)
    home, away = APIClient(), APIClient()
    home.force_authenticate(players[0])
    away.force_authenticate(players[1])
    assert home.post(f"/api/matches/{match.pk}/draw/", {"do": "offer"}, format="json").json()["draw_offer"] == 0
    assert away.post(f"/api/matches/{match.pk}/draw/", {"do": "maybe"}, format="json").status_code == 400
    body = away.post(f"/api/matches/{match.pk}/draw/", {"do": "accept"}, format="json").json()
    assert body["status"] == "finished" and body["outcome"]["winner"] == "draw"


# ---- the move clock ----------------------------------------------------------------------------------------------


def _run_out(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(moved_at=timezone.now() - timedelta(seconds=match.move_clock + 1))


def test_the_move_clock_hands_a_late_seat_to_the_computer_and_tells_the_opponent(tournament, players):
    tournament.move_clock_seconds = 60
    tournament.save()
    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    fixture.away.computer_level = "beginner"
    fixture.away.save()
    match = services.match_start_for_fixture(fixture=fixture, seed=5)
    assert match.move_clock == 60
    _play(match, 0, "card:4", players[0])  # home chose; away is the late one
    match.refresh_from_db()
    assert not services.match_clock_expire(match=match)  # not yet
    home = Client()
    home.force_login(players[0])
    etag = home.get(f"/matches/{match.pk}/board/")["ETag"]
    assert home.get(f"/matches/{match.pk}/board/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    _run_out(match)
    # Home's page polls: the poll hands the late seat over, and home's fragment says so.
    fragment = home.get(f"/matches/{match.pk}/board/", HTTP_IF_NONE_MATCH=etag)
    seat = MatchSeat.objects.get(match=match, seat=1)
    assert (seat.kind, seat.computer_level) == ("computer", "beginner")
    assert fragment.status_code == 200
    assert "The move clock ran out for" in fragment.content.decode()
    assert MatchAction.objects.filter(match=match, seat=1, by_computer=True).exists()
    event = match.events.get(kind=MatchEvent.Kind.CLOCK)
    assert (event.seat, event.data) == (1, {"level": "beginner", "seconds": 60})
    # Away's person no longer holds the seat: the computer plays it.
    match.refresh_from_db()
    with pytest.raises(services.MatchError) as exc:
        services.match_submit_action(match=match, seat=1, ply=match.ply + 1, action="card:1", user=players[1])
    assert exc.value.code == "forbidden"


def test_the_clock_does_not_run_before_both_seats_are_taken_and_has_bounds(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="open", seed=2,
                                           move_clock=30)
    match.refresh_from_db()
    assert match.moved_at is None and not services.match_clock_expire(match=match)
    with pytest.raises(DomainError):
        services.match_create_friendly(ruleset="seasons", user=players[0], move_clock=3)


def test_friendly_form_sets_the_move_clock(players):
    client = Client()
    client.force_login(players[0])
    response = client.post("/matches/new/", {"ruleset": "seasons", "home": "me", "away": "computer:beginner",
                                             "move_clock": "120", "options": ""})
    assert response.status_code == 302
    assert Match.objects.latest("id").move_clock == 120


def test_the_tournament_settings_form_sets_the_move_clock(tournament, organiser):
    client = Client()
    client.force_login(organiser)
    data = {"name": tournament.name, "visibility": tournament.visibility, "status": tournament.status,
            "points_system": tournament.points_system, "time_zone": tournament.time_zone,
            "walkover_score": 28, "walkover_tries": 4, "move_clock_seconds": 5}
    page = client.post(f"/t/{tournament.slug}/manage/settings/", data)
    assert page.status_code == 200 and "greater than or equal to 10" in page.content.decode()
    data["move_clock_seconds"] = 90
    assert client.post(f"/t/{tournament.slug}/manage/settings/", data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.move_clock_seconds == 90


def test_the_organiser_sees_the_log(fixture_people, organiser, players):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    services.match_replace_seat_with_computer(match=match, seat=1, user=organiser, level="beginner")
    client = Client()
    client.force_login(organiser)
    log = client.get(f"/matches/{match.pk}/manage/").content.decode()
    assert 'data-testid="match-log"' in log and "The organiser gave the seat to the computer" in log
    player = Client()
    player.force_login(players[0])
    assert "The organiser gave" in player.get(f"/matches/{match.pk}/").content.decode()


# ---- a result the league refuses -------------------------------------------------------------------------------


def test_a_refused_result_is_kept_in_every_language_and_shown_in_the_readers(fixture_people, players):
    """The match ends (a resignation, in French) after the tournament was finished: the league refuses the
    result, and each reader of the match sees why in their own language, whoever finished it."""
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    Tournament.objects.filter(pk=fixture_people.tournament_id).update(status=Tournament.Status.FINISHED)
    with translation.override("fr"):
        services.match_resign(match=match, seat=0, user=players[0])
    match.refresh_from_db()
    assert match.status == "finished" and not Result.objects.filter(fixture=fixture_people).exists()
    words = match.outcome["result_error"]
    assert set(words) == {code for code, _name in settings.LANGUAGES}
    assert "is finished: its results cannot change" in words["en"]
    assert "est terminé" in words["fr"] and "is klaar" in words["af"]
    client = Client()
    client.force_login(players[1])
    english = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "is finished: its results cannot change" in english and "est terminé" not in english
    api = APIClient()
    api.force_authenticate(players[1])
    body = api.get(f"/api/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="af").json()
    assert "is klaar" in body["outcome"]["result_error"]
    organiser = Client()
    organiser.force_login(fixture_people.tournament.organisers.first())
    manage = organiser.get(f"/matches/{match.pk}/manage/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The result could not be recorded:" in manage and "is finished: its results cannot change" in manage
