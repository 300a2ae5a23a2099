"""Issue 19 in a real browser (Playwright + Debian's Chromium).

* Two players click their blind choices at the same instant in 15 fresh matches, on a real gunicorn site with
  DEBUG off, on SQLite (the demo's default) and on PostgreSQL: no error, every choice applied.
* A move that met another and was answered 409 "send it again" is sent again by the page itself.
* A player resigns; a move clock hands a late seat to the computer and the opponent is told; a replay autoplays
  to its end without reloading the page.
* Screenshots of each board on a 390-px phone with the legend and the help panel open (test-artifacts/).
"""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from pathlib import Path

import pytest

from engine import rulesets
from league.models import Result, Tournament
from matches import services
from matches.models import Match, MatchEvent, MatchSeat
from tests.live_site import SETUP, LiveSite, postgres_available
from tests.matches.conftest import make_fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
# Before issue 19, 12 of 15 fresh matches lost a click at once (tests/matches/test_concurrent_moves.py, which keeps
# proving the server's side at a barrier of 90 requests); here the pages' own clicks, in 15 matches: a page that
# still lost one in even a tenth of them would fail this test four times in five.
SIMULTANEOUS_MATCHES = 15


def _page(browser, **kwargs):
    page = browser.new_context(viewport=PHONE, device_scale_factor=2, **kwargs).new_page()
    page.set_default_timeout(15_000)
    return page


def _login(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form [type=submit]")
    page.wait_for_url(re.compile(r"/$"))


def _ply(page) -> int:
    return int(page.locator("#match-live").get_attribute("data-ply"))


# ---- simultaneous blind choices --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_blind_choices_clicked_at_the_same_instant_all_land(browser, tmp_path, static_root, request, kind):
    if kind == "postgresql" and not postgres_available():
        pytest.skip("needs PostgreSQL in DATABASE_URL (bash scripts/test starts one)")
    template = request.getfixturevalue("migrated_sqlite") if kind == "sqlite" else None
    with LiveSite(kind, tmp_path, static_root, sqlite_template=template) as site:
        data = site.shell_json(SETUP.format(n=SIMULTANEOUS_MATCHES))
        home, away = _page(browser), _page(browser)
        _login(home, site.url, "hannah", "pw-hannah-1")
        _login(away, site.url, "ari", "pw-ari-1")
        answers: list[int] = []
        for page in (home, away):
            page.on("response", lambda r: answers.append(r.status) if "/act/" in r.url else None)
        errors = []
        rng = random.Random(kind)
        for match in data["matches"]:
            pk = match["pk"]
            home.goto(f"{site.url}/matches/{pk}/")
            away.goto(f"{site.url}/matches/{pk}/")
            choices = {home: f"card:{rng.randint(1, 6)}", away: f"card:{rng.randint(1, 6)}"}
            for page in (home, away):
                page.locator(f'form.actions button[data-action="{choices[page]}"]').wait_for()
            # Both clicks at one instant: each page clicks at the same moment of the (shared) clock.
            at = int(time.time() * 1000) + 400
            for page in (home, away):
                page.evaluate("""([action, at]) => setTimeout(() => document.querySelector(
                    `form.actions button[data-action="${action}"]`).click(), Math.max(0, at - Date.now()))""",
                              [choices[page], at])
            for page in (home, away):
                # The round resolves once both choices are in: ply 2 at least, on both screens.
                page.wait_for_function("() => document.querySelector('#match-live')?.dataset.ply >= 2", timeout=15_000)
                error = page.locator('[data-testid="error"]')
                if error.count():
                    errors.append((pk, error.inner_text()))
            for seat, page in ((0, home), (1, away)):
                token = data["tokens"][seat]
                log = json.loads(urllib.request.urlopen(urllib.request.Request(
                    f"{site.url}/api/matches/{pk}/actions/", headers={"Authorization": f"Token {token}"}),
                    timeout=30).read())["actions"]
                first_round = log[:2]
                assert sorted(a["seat"] for a in first_round) == [0, 1], (kind, pk, log)
                assert [a["action"] for a in first_round if a["seat"] == seat] == [choices[page]], (kind, pk, log)
        home.screenshot(path=str(ARTIFACTS / f"issue19-simultaneous-{kind}.png"), full_page=True)
        assert errors == []
        assert answers and all(status in (200, 409) for status in answers), sorted(set(answers))
        assert answers.count(200) >= 2 * SIMULTANEOUS_MATCHES
        assert "Traceback" not in site.log()


def test_a_move_answered_409_send_it_again_is_sent_again_by_the_page(browser, live_server, players):
    match = services.match_create_friendly(ruleset="rugby-league-cards", user=players[0], home="me",
                                           away="computer:beginner", seed=3, options={"sets_per_half": 1})
    page = _page(browser)
    _login(page, live_server.url, "hannah", "pw-hannah-1")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    fragment = page.locator("#match-live").evaluate("e => e.outerHTML")
    seen = []

    def race_once(route):
        seen.append(route.request.post_data)
        if len(seen) == 1:  # as the server answers a move that met another in the database: nothing applied
            route.fulfill(status=409, headers={"X-Match-Retry": "1", "Content-Type": "text/html"}, body=fragment)
        else:
            route.continue_()

    page.route("**/act/", race_once)
    page.locator('form.actions button[data-action="card:4"]').click()
    page.wait_for_function("() => document.querySelector('#match-live')?.dataset.ply >= 2")
    assert len(seen) == 2 and seen[0] == seen[1]  # the very same request, sent again
    assert match.actions.filter(seat=0).values_list("action", flat=True)[0] == "card:4"


# ---- resign, the move clock, the replay --------------------------------------------------------------------------


@pytest.fixture
def players(django_user_model):
    return (django_user_model.objects.create_user(username="hannah", password="pw-hannah-1"),
            django_user_model.objects.create_user(username="ari", password="pw-ari-1"))


@pytest.fixture
def league(django_user_model):
    organiser = django_user_model.objects.create_user(username="organiser", password="pw-organiser-1")
    tournament = Tournament.objects.create(name="Friday Cards", slug="friday", ruleset="rugby-league-cards",
                                           ruleset_options={"sets_per_half": 1}, status=Tournament.Status.IN_PROGRESS,
                                           visibility=Tournament.Visibility.PUBLIC)
    tournament.organisers.add(organiser)
    return tournament


def test_a_player_resigns_and_the_standings_follow(browser, live_server, league, players):
    fixture = make_fixture(league, home_player=players[0], away_player=players[1], codes=("RSA", "ENG"))
    match = services.match_start_for_fixture(fixture=fixture, seed=9)
    home, away = _page(browser), _page(browser)
    _login(home, live_server.url, "hannah", "pw-hannah-1")
    _login(away, live_server.url, "ari", "pw-ari-1")
    home.goto(f"{live_server.url}/matches/{match.pk}/")
    away.goto(f"{live_server.url}/matches/{match.pk}/")
    away.get_by_test_id("resign-open").click()
    away.screenshot(path=str(ARTIFACTS / "issue19-resign-confirm.png"), full_page=True)
    away.get_by_test_id("resign").click()
    away.wait_for_function("() => document.querySelector('#match-live')?.dataset.status === 'finished'")
    assert "resigned" in away.locator("#match-live").inner_text()
    # The other screen learns it within its next poll.
    home.wait_for_function("() => document.querySelector('#match-live')?.dataset.status === 'finished'", timeout=5_000)
    assert "resigned" in home.get_by_test_id("turn").inner_text()
    result = Result.objects.get(fixture=fixture)
    assert result.kind == Result.Kind.WALKOVER_HOME and result.source == Result.Source.ONLINE
    home.goto(f"{live_server.url}/t/{league.slug}/")
    assert "RSA" in home.locator("table.standings").first.inner_text()


def test_the_move_clock_hands_a_late_seat_to_the_computer_and_the_opponent_is_told(browser, live_server, league,
                                                                                  players):
    league.move_clock_seconds = 10
    league.save()
    fixture = make_fixture(league, home_player=players[0], away_player=players[1])
    match = services.match_start_for_fixture(fixture=fixture, seed=4)
    home = _page(browser)
    _login(home, live_server.url, "hannah", "pw-hannah-1")
    home.goto(f"{live_server.url}/matches/{match.pk}/")
    assert home.get_by_test_id("move-clock").count() == 1
    home.locator('form.actions button[data-action="card:2"]').click()
    home.wait_for_function("() => document.querySelector('#match-live')?.dataset.ply >= 1")
    # Away never comes: after the clock, home's own polling page hands away's seat to the computer.
    home.get_by_test_id("notice-clock").wait_for(timeout=25_000)
    assert "The move clock ran out for" in home.get_by_test_id("notice-clock").inner_text()
    home.screenshot(path=str(ARTIFACTS / "issue19-move-clock.png"), full_page=True)
    seat = MatchSeat.objects.get(match=match, seat=1)
    assert seat.kind == MatchSeat.Kind.COMPUTER
    assert MatchEvent.objects.filter(match=match, kind=MatchEvent.Kind.CLOCK, seat=1).exists()
    assert match.actions.filter(seat=1, by_computer=True).exists()


def test_a_replay_autoplays_to_the_end_without_reloading(browser, live_server, players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="computer:beginner",
                                           away="computer:club", seed=6)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.ply > 5
    page = _page(browser)
    page.goto(f"{live_server.url}/matches/{match.pk}/replay/?step=0")
    page.evaluate("window.__sameDocument = true")
    page.get_by_test_id("speed").select_option("350")
    page.get_by_test_id("autoplay").click()
    page.wait_for_function(
        f"() => document.querySelector('[data-testid=step]')?.textContent.includes('Move {match.ply} of')",
        timeout=60_000)
    assert page.evaluate("window.__sameDocument") is True  # no page load on the way
    assert page.get_by_test_id("scrubber").input_value() == str(match.ply)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=autoplay]')?.getAttribute('aria-pressed') === 'false'")
    # The scrubber jumps back without a reload too.
    page.get_by_test_id("scrubber").fill("2")
    page.wait_for_function("() => document.querySelector('[data-testid=step]')?.textContent.includes('Move 2 of')")
    assert page.evaluate("window.__sameDocument") is True
    page.screenshot(path=str(ARTIFACTS / "issue19-replay.png"), full_page=True)


# ---- each board on a phone, with its legend and help open -------------------------------------------------------


@pytest.mark.parametrize("spec", rulesets(), ids=lambda s: s.id)
def test_each_board_on_a_phone_with_its_legend_and_help(browser, live_server, players, spec):
    away_user = players[1] if not spec.solo else "computer:club"
    match = services.match_create_friendly(ruleset=spec.id, user=players[0], home="me", away=away_user, seed=7)
    rng = random.Random(2)
    for _ in range(40):  # into the game: a few moves by both sides
        match.refresh_from_db()
        state = services.match_state(match)
        if match.status != "live" or match.ply >= 9:
            break
        seat = state.to_act()[0]
        services.match_submit_action(match=match, seat=seat, ply=match.ply + 1,
                                     action=rng.choice(state.legal_actions(seat)), held_seats={0, 1})
    for who, password in (("hannah", "pw-hannah-1"), ("ari", "pw-ari-1")):
        if who == "ari" and spec.solo:
            continue
        page = _page(browser)
        _login(page, live_server.url, who, password)
        page.goto(f"{live_server.url}/matches/{match.pk}/")
        page.get_by_test_id("legend").locator("summary").click()
        page.get_by_test_id("help").locator("summary").click()
        assert page.get_by_test_id("legend").get_attribute("open") is not None
        assert page.get_by_test_id("help").get_attribute("open") is not None
        assert page.get_by_test_id("rules-link").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing wider than a phone
        page.screenshot(path=str(ARTIFACTS / f"issue19-board-{spec.id}-{who}-390.png"), full_page=True)
        page.context.close()


# ---- motion ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_revealed_cards_and_the_ball_move_are_animated_unless_reduced_motion_is_asked(browser, live_server, players,
                                                                                     motion):
    match = services.match_create_friendly(ruleset="rugby-league-cards", user=players[0], home="me",
                                           away="computer:beginner", seed=3, options={"sets_per_half": 1})
    page = _page(browser, reduced_motion=motion)
    _login(page, live_server.url, "hannah", "pw-hannah-1")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    assert page.locator(".anim-in, .anim-move").count() == 0  # nothing moves on arrival
    page.locator('form.actions button[data-action="card:1"]').click()
    page.wait_for_function("() => document.querySelector('#match-live')?.dataset.ply >= 2")
    page.wait_for_timeout(100)
    revealed = page.locator("svg .card.anim-in").count()
    moved = page.locator(".coin .mover.anim-move").count()
    if motion == "reduce":
        assert revealed == moved == 0
    else:
        assert revealed == 2 and moved == 1  # the round's two cards turned over; the coin went forward
        duration = page.locator("svg .card.anim-in .face").first.evaluate("e => getComputedStyle(e).animationName")
        assert duration == "rugby-flip"
