"""The move API, the pages, joining by code, conditional polling and the hidden-information guarantee."""

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from engine import get_spec, rulesets
from league.models import Tournament
from matches import services
from matches.models import Match, MatchAction, MatchSeat
from tests.matches.conftest import make_fixture

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def api_for(user):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def post_action(client, match, ply, action, **extra):
    return client.post(f"/api/matches/{match.pk}/actions/", {"ply": ply, "action": action, **extra}, format="json")


@pytest.fixture
def match(fixture_people):
    return services.match_start_for_fixture(fixture=fixture_people, seed=5)


# ---- POST /api/matches/{id}/actions/ ----------------------------------------------------------------


def test_api_201_with_the_new_view(match, players):
    response = post_action(api_for(players[0]), match, 1, "card:2")
    assert response.status_code == 201
    body = response.json()
    assert body["ply"] == 1 and body["next_ply"] == 2 and body["seat"] == 0
    assert body["view"]["board"]["your_choice"] == 2 and body["replayed"] is False
    assert response["ETag"]


def test_api_400_lists_the_legal_actions(match, players):
    response = post_action(api_for(players[0]), match, 1, "kick-for-goal")
    assert response.status_code == 400
    assert response.json()["legal_actions"] == [f"card:{i}" for i in range(1, 7)]
    assert post_action(api_for(players[0]), match, "one", "card:1").status_code == 400


def test_api_403_when_the_caller_holds_no_seat(match, organiser):
    response = post_action(api_for(organiser), match, 1, "card:1")
    assert response.status_code == 403
    assert post_action(api_for(None), match, 1, "card:1").status_code == 403
    # Naming the other player's seat is refused too.
    assert post_action(api_for(organiser), match, 1, "card:1", seat=0).status_code == 403


def test_api_409_stale_ply_and_not_your_turn(match, players):
    home, away = api_for(players[0]), api_for(players[1])
    assert post_action(home, match, 1, "card:1").status_code == 201
    stale = post_action(away, match, 1, "card:1")
    assert stale.status_code == 409 and stale.json()["next_ply"] == 2
    turn = post_action(home, match, 2, "card:2")
    assert turn.status_code == 409 and turn.json()["code"] == "not_your_turn"


def test_api_retry_gives_the_same_answer_and_applies_nothing(match, players):
    client = api_for(players[0])
    first = post_action(client, match, 1, "card:4")
    second = post_action(client, match, 1, "card:4")
    assert first.status_code == second.status_code == 201
    assert second.json()["replayed"] is True
    assert second.json()["view"] == first.json()["view"]
    assert MatchAction.objects.filter(match=match).count() == 1


def test_api_404_for_unknown_match_and_draft_tournament(match, players):
    assert api_for(None).get("/api/matches/999999/").status_code == 404
    tournament = match.fixture.tournament
    tournament.status = Tournament.Status.DRAFT
    tournament.save()
    assert api_for(None).get(f"/api/matches/{match.pk}/").status_code == 404
    # The players themselves still see their match.
    assert api_for(players[0]).get(f"/api/matches/{match.pk}/").status_code == 200


def test_api_get_is_conditional(match, players):
    client = api_for(players[1])
    first = client.get(f"/api/matches/{match.pk}/")
    assert first.status_code == 200 and first.json()["seat"] == 1
    etag = first["ETag"]
    assert client.get(f"/api/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    post_action(api_for(players[0]), match, 1, "card:1")
    assert client.get(f"/api/matches/{match.pk}/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_api_replay_steps_and_log(match, players):
    post_action(api_for(players[0]), match, 1, "card:1")
    post_action(api_for(players[1]), match, 2, "card:6")
    spectator = api_for(None)
    log = spectator.get(f"/api/matches/{match.pk}/actions/").json()
    # Live, hidden information: a spectator sees who moved, not the blind choices.
    assert [(a["ply"], a["seat"], a["action"]) for a in log["actions"]] == [(1, 0, "hidden"), (2, 1, "hidden")]
    mine = api_for(players[0]).get(f"/api/matches/{match.pk}/actions/").json()
    assert [a["action"] for a in mine["actions"]] == ["card:1", "hidden"]
    step0 = spectator.get(f"/api/matches/{match.pk}/replay/0/").json()
    step2 = spectator.get(f"/api/matches/{match.pk}/replay/2/").json()
    assert step0["view"]["board"]["tackle"] == 0 and step2["view"]["board"]["tackle"] == 1
    assert step2["last_action"]["action"] == "hidden" and step2["seat"] is None
    match.__class__.objects.filter(pk=match.pk).update(status="finished")
    step2 = spectator.get(f"/api/matches/{match.pk}/replay/2/")
    assert step2.status_code == 200, step2.content
    assert step2.json()["last_action"]["action"] == "card:6"
    assert spectator.get(f"/api/matches/{match.pk}/actions/").json()["actions"][0]["action"] == "card:1"
    assert spectator.get(f"/api/matches/{match.pk}/replay/3/").status_code == 404


# ---- joining with codes ------------------------------------------------------------------------------


@pytest.fixture
def coded_match(tournament):
    fixture = make_fixture(tournament, home_name="Pupil A", away_name="Pupil B")
    return services.match_start_for_fixture(fixture=fixture, seed=9)


def test_join_code_signs_the_browser_into_that_seat_only(coded_match):
    seat = coded_match.seats.get(seat=1)
    client = Client(enforce_csrf_checks=False)
    page = client.get(f"/matches/join/{seat.join_code}/")
    assert page.status_code == 200 and b"away" in page.content
    response = client.post(f"/matches/join/{seat.join_code}/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{coded_match.pk}/"
    seat.refresh_from_db()
    assert seat.joined_at is not None
    api = APIClient()
    api.cookies = client.cookies
    view = api.get(f"/api/matches/{coded_match.pk}/").json()
    assert view["seat"] == 1
    # Holding the away seat gives nothing over the home seat.
    assert post_action(api, coded_match, 1, "card:1", seat=0).status_code == 403
    assert post_action(api, coded_match, 1, "card:1").status_code == 201


def test_typed_code_with_dashes_and_lowercase_works(coded_match):
    seat = coded_match.seats.get(seat=0)
    typed = "-".join(seat.join_code[i:i + 4] for i in (0, 4, 8)).lower()
    response = Client().post("/matches/join/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == f"/matches/{coded_match.pk}/"


def test_entry_pass_opens_the_entrys_live_match(coded_match):
    entry = coded_match.fixture.home
    code = services.entry_pass_for(entry).code
    client = Client()
    response = client.post(f"/matches/join/{code}/")
    assert response.status_code == 302 and response["Location"] == f"/matches/{coded_match.pk}/"
    page = client.get(f"/matches/{coded_match.pk}/")
    assert page.context["seat"] == 0


def test_wrong_codes_are_rate_limited_per_address(coded_match):
    from django.core.cache import cache

    cache.clear()
    client = Client()
    for _ in range(30):  # settings.JOIN_FAILURE_RATE: 30 per 10 minutes
        assert client.post("/matches/join/", {"code": "AAAA-BBBB-CCCC"}).status_code == 200
    assert client.post("/matches/join/", {"code": "AAAA-BBBB-CCCC"}).status_code == 429
    # Even the right code waits now: guessing cannot continue from this address.
    right = coded_match.seats.get(seat=0).join_code
    assert client.post("/matches/join/", {"code": right}).status_code == 429
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/matches/join/", {"code": right}).status_code == 302


def test_code_session_api_post_needs_csrf(coded_match):
    client = Client(enforce_csrf_checks=True)
    client.get(f"/matches/join/{coded_match.seats.get(seat=0).join_code}/")
    token = client.cookies["csrftoken"].value
    client.post(f"/matches/join/{coded_match.seats.get(seat=0).join_code}/", HTTP_X_CSRFTOKEN=token)
    url = f"/api/matches/{coded_match.pk}/actions/"
    body = json.dumps({"ply": 1, "action": "card:1"})
    assert client.post(url, body, content_type="application/json").status_code == 403
    assert client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token).status_code == 201


def test_codes_are_long_and_unambiguous(coded_match):
    codes = [s.join_code for s in MatchSeat.objects.all()]
    assert all(len(c) == 12 and not set(c) & set("01ILO") for c in codes)


# ---- pages ---------------------------------------------------------------------------------------------


def test_play_page_for_player_and_spectator(match, players, client):
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'hx-trigger="every 1s"' in html and 'data-action="card:1"' in html and "<svg" in html
    watcher = Client()
    page = watcher.get(f"/matches/{match.pk}/watch/")
    assert page.status_code == 200 and 'data-action=' not in page.content.decode()


def test_web_move_and_board_poll_with_304(match, players, client):
    client.force_login(players[0])
    board = client.get(f"/matches/{match.pk}/board/")
    etag = board["ETag"]
    assert client.get(f"/matches/{match.pk}/board/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    response = client.post(f"/matches/{match.pk}/act/", {"ply": 1, "action": "card:3", "seat": 0},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "You chose card 3" in response.content.decode()
    assert client.get(f"/matches/{match.pk}/board/", HTTP_IF_NONE_MATCH=etag).status_code == 200
    # Without htmx the form posts and redirects (works without JavaScript).
    other = Client()
    other.force_login(players[1])
    response = other.post(f"/matches/{match.pk}/act/", {"ply": 1, "action": "card:5", "seat": 1})
    assert response.status_code == 302
    assert MatchAction.objects.filter(match=match).count() == 2  # rebased past home's blind choice


def test_poll_and_pages_run_a_fixed_number_of_queries(match, players, client, django_assert_max_num_queries):
    client.force_login(players[0])
    etag = client.get(f"/matches/{match.pk}/board/")["ETag"]
    with django_assert_max_num_queries(8):
        assert client.get(f"/matches/{match.pk}/board/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert post_action(api_for(players[0]), match, 1, "card:1").status_code == 201
    assert post_action(api_for(players[1]), match, 2, "card:1").status_code == 201
    with django_assert_max_num_queries(14):
        assert client.get(f"/matches/{match.pk}/").status_code == 200
    with django_assert_max_num_queries(14):
        assert Client().get(f"/matches/{match.pk}/replay/?step=1").status_code == 200


def test_manage_page_for_organisers_only(match, organiser, players, client):
    client.force_login(players[0])
    assert client.get(f"/matches/{match.pk}/manage/").status_code == 404
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/manage/")
    assert page.status_code == 200 and match.seats.get(seat=0).display_code in page.content.decode()
    response = client.post(f"/matches/{match.pk}/manage/", {"do": "computer", "seat": 1, "level": "aware"})
    assert response.status_code == 302
    assert match.seats.get(seat=1).kind == MatchSeat.Kind.COMPUTER


def test_start_fixture_view_and_live_now(tournament, organiser, players, client):
    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    client.force_login(players[0])
    assert client.post(f"/matches/fixture/{fixture.pk}/start/").status_code == 403
    client.force_login(organiser)
    response = client.post(f"/matches/fixture/{fixture.pk}/start/")
    assert response.status_code == 302
    live = Client().get(f"/matches/tournament/{tournament.slug}/live/")
    assert live.status_code == 200 and "France" in live.content.decode()
    passes = client.get(f"/matches/tournament/{tournament.slug}/passes/")
    assert passes.status_code == 200 and passes.content.decode().count('class="code"') == 2


def test_friendly_page(players, client):
    client.force_login(players[0])
    response = client.post("/matches/new/", {"ruleset": "seasons", "home": "me", "away": "computer:beginner",
                                             "options": ""})
    # Against the computer the player goes straight to the board; with a seat left open, to the codes.
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{Match.objects.latest('id').pk}/"
    response = client.post("/matches/new/", {"ruleset": "rugby-champion-solo", "home": "me",
                                             "away": "computer:club", "options": ""})
    assert response["Location"] == f"/matches/{Match.objects.latest('id').pk}/"
    response = client.post("/matches/new/", {"ruleset": "bokx", "home": "me", "away": "open", "options": ""})
    assert response["Location"] == f"/matches/{Match.objects.latest('id').pk}/manage/"
    response = client.post("/matches/new/", {"ruleset": "bokx", "home": "computer:club", "away": "computer:beginner",
                                             "options": ""})
    assert response["Location"] == f"/matches/{Match.objects.latest('id').pk}/manage/"
    assert client.post("/matches/new/", {"ruleset": "seasons", "home": "me", "away": "open",
                                         "options": "{bad"}).status_code == 200


# ---- hidden information ----------------------------------------------------------------------------------


def _tokens(text: str, names) -> set[str]:
    return {n for n in names if re.search(rf"(?<![0-9A-Za-z]){re.escape(n)}(?![0-9A-Za-z])", text)}


def _hidden_card_game(match) -> set[str]:
    from engine.rugby_league_cards.rules import card_name

    state = services.match_state(match)
    return {card_name(c) for row in state.hands for c in row if c >= 0} | {card_name(c) for c in state.pile}


def test_responses_never_contain_a_hidden_card_of_the_card_game(match, players):
    home = api_for(players[0])
    assert post_action(home, match, 1, "card:3").status_code == 201
    hidden = _hidden_card_game(match)
    assert len(hidden) > 30
    opponent = api_for(players[1])
    watcher_web, opponent_web = Client(), Client()
    opponent_web.force_login(players[1])
    responses = [
        opponent.get(f"/api/matches/{match.pk}/").content.decode(),
        api_for(None).get(f"/api/matches/{match.pk}/").content.decode(),
        api_for(None).get(f"/api/matches/{match.pk}/replay/1/").content.decode(),
        watcher_web.get(f"/matches/{match.pk}/replay/?step=1").content.decode(),
        watcher_web.get(f"/matches/{match.pk}/watch/").content.decode(),
        opponent_web.get(f"/matches/{match.pk}/").content.decode(),
        opponent_web.get(f"/matches/{match.pk}/board/").content.decode(),
    ]
    for text in responses:
        assert _tokens(text, hidden) == set()
        # Home's blind choice (position 3) is not revealed before away has chosen.
        assert '"your_choice": 3' not in text and "You chose card 3" not in text
        assert "choose the face-down card at position 3" not in text
    # The action log and the replay step do not give the blind position away either.
    for text in (api_for(None).get(f"/api/matches/{match.pk}/actions/").content.decode(),
                 opponent.get(f"/api/matches/{match.pk}/actions/").content.decode(),
                 api_for(None).get(f"/api/matches/{match.pk}/replay/1/").content.decode()):
        assert "card:3" not in text


def test_responses_never_contain_the_seasons_stock(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away=players[1], seed=4)
    state = services.match_state(match)
    stock = set(state.stock)
    from engine.seasons.rules import card_label

    names = stock | {card_label(c) for c in stock}
    opponent = api_for(players[1])
    for text in (opponent.get(f"/api/matches/{match.pk}/").content.decode(),
                 api_for(None).get(f"/api/matches/{match.pk}/").content.decode(),
                 Client().get(f"/matches/{match.pk}/watch/").content.decode()):
        assert _tokens(text, names) == set()


@pytest.mark.parametrize("ruleset", [spec.id for spec in rulesets()])
def test_play_watch_and_replay_pages_of_every_rule_set(ruleset, players):
    """Every rule set's pages render (its own drawing, or the generic layout) for a player and a spectator."""
    match = services.match_create_friendly(ruleset=ruleset, user=players[0], home="me", away="computer:beginner",
                                           seed=8)
    for _ in range(4):
        match.refresh_from_db()
        state = services.match_state(match)
        if match.status != "live" or 0 not in state.to_act():
            break
        services.match_submit_action(match=match, seat=0, ply=match.ply + 1, action=state.legal_actions(0)[0],
                                     user=players[0])
    player = Client()
    player.force_login(players[0])
    page = player.get(f"/matches/{match.pk}/")
    assert page.status_code == 200 and page.context["seat"] == 0
    kind = page.context["board"]["kind"]
    assert kind == get_spec(ruleset).board_kind, f"{ruleset} fell back to the generic drawing"
    assert "<svg" in page.content.decode()
    assert Client().get(f"/matches/{match.pk}/watch/").status_code == 200
    assert Client().get(f"/matches/{match.pk}/replay/?step=2").status_code == 200


def test_fixture_match_tag_links_or_offers_to_start(tournament, organiser, players, rf):
    from django.template import Context, Template

    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    template = Template("{% load matches_tags %}{% fixture_match fixture %}")
    request = rf.get("/")
    request.user = organiser
    assert "Start the online match" in template.render(Context({"fixture": fixture, "request": request}))
    request.user = players[0]
    assert "Start" not in template.render(Context({"fixture": fixture, "request": request}))
    match = services.match_start_for_fixture(fixture=fixture, seed=1)
    fixture.refresh_from_db()
    html = template.render(Context({"fixture": fixture, "request": request}))
    assert f"/matches/{match.pk}/" in html
    live = Template("{% load matches_tags %}{% live_now t %}").render(Context({"t": tournament}))
    assert f"/matches/{match.pk}/watch/" in live
