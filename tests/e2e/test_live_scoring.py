"""Live scoring in real browsers (issue 18): a scorer on a 390 px phone scores a union match through a scorer link
(tries, conversions, a penalty), takes a time-out, goes offline for three events and comes back; a second browser
on the public page sees each score within 2 s; a second scorer sees the first one's events; full time puts the
result in the standings. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import datetime as dt
import time

import pytest

from tests.e2e.browser import phone_page, promised, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations", "fresh_cache")]


def phone(browser):
    page = phone_page(browser, timeout=10_000)
    return page.context, page


def festival(user):
    from league import services
    from league.models import Fixture, Tournament
    from league.services import live as live_services
    from league.services import tournament_create_from_preset as preset_run

    tournament = preset_run("league", name="School festival", slug="fest", teams=["RSA", "NZL", "FRA", "ENG"],
                            user=user, start_date=dt.date(2026, 9, 5), venues=["Pitch 1", "Pitch 2"])
    services.tournament_update(tournament=tournament, half_minutes=10)
    if tournament.status != Tournament.Status.IN_PROGRESS:
        services.tournament_publish(tournament=tournament)
    fixture = (Fixture.objects.filter(tournament=tournament).select_related("home__team", "away__team", "pool")
               .order_by("kickoff", "pk").first())
    link = live_services.scorer_link_create(tournament=tournament, fixture=fixture, user=user)
    return tournament, fixture, live_services.scorer_link_token(link)


def public_score(page) -> str:
    """The live score on the public page as "h-a" ("" when no match is live)."""
    return page.evaluate("""() => {
        const el = document.querySelector("[data-testid=live-score]");
        return el ? el.textContent.replace(/\\s+to\\s+/, "").replace("–", "-").replace(/\\s/g, "") : "";
    }""")


def wait_public(page, expected: str, since: float) -> float:
    page.wait_for_function("""(expected) => {
        const el = document.querySelector("[data-testid=live-score]");
        return el && el.textContent.replace(/\\s+to\\s+/, "").replace("–", "-").replace(/\\s/g, "") === expected;
    }""", arg=expected, timeout=8000)
    return time.monotonic() - since


def scoreboard_score(page) -> str:
    return (page.get_by_test_id("home-points").inner_text() + "-" + page.get_by_test_id("away-points").inner_text())


def test_a_scorer_scores_a_union_match_on_a_phone_and_the_public_page_follows(browser, live_server,
                                                                                django_user_model):
    from league.models import Result

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    tournament, fixture, token = festival(user)
    base = live_server.url
    home, away = fixture.home.team.code, fixture.away.team.code

    viewer_context, viewer = phone(browser)
    viewer.goto(f"{base}/t/fest/")
    viewer.evaluate("window.notReloaded = true")

    scorer_context, scorer = phone(browser)
    scorer.on("dialog", lambda dialog: dialog.accept())
    scorer.goto(f"{base}/score/{token}/")
    assert f"/score/{token}/{fixture.pk}/" in scorer.url
    scorer.get_by_test_id("clock-start").tap()
    scorer.get_by_test_id("phase").filter(has_text="1st half").wait_for()

    delays = []
    for test_id, expected in [("0-try", "5-0"), ("0-conversion", "7-0"), ("1-penalty-goal", "7-3"),
                              ("1-try", "7-8")]:
        scorer.get_by_test_id(test_id).tap()
        tapped = time.monotonic()
        assert scoreboard_score(scorer) == expected  # shown on the phone at once
        delays.append(wait_public(viewer, expected, tapped))
    assert max(delays) <= promised(2.0), f"the public page took {max(delays):.2f} s"
    assert "tries 1–1" in viewer.locator(".now-live").inner_text()
    # The live projection of the standings, marked as such.
    assert viewer.get_by_test_id("projection").is_visible()
    shot(viewer, "live-public-page")

    # A second scorer on the same link sees the first one's events.
    second_context, second = phone(browser)
    second.goto(f"{base}/score/{token}/{fixture.pk}/")
    second.wait_for_function("() => document.querySelector('[data-testid=home-points]').textContent === '7'")
    assert scoreboard_score(second) == "7-8"

    # A time-out stops the clock for everyone; the scorer resumes it.
    scorer.get_by_test_id("clock-timeout").tap()
    scorer.get_by_test_id("phase").filter(has_text="Time-out").wait_for()
    second.get_by_test_id("phase").filter(has_text="Time-out").wait_for()
    frozen = scorer.get_by_test_id("clock").inner_text()
    time.sleep(1.5)
    assert scorer.get_by_test_id("clock").inner_text() == frozen
    viewer.wait_for_function(
        "() => document.querySelector('[data-testid=live-clock]').textContent.includes('time-out')")
    scorer.get_by_test_id("clock-resume").tap()
    scorer.get_by_test_id("phase").filter(has_text="1st half").wait_for()

    # Offline for three events: kept on the phone, shown there, sent when the signal returns.
    scorer_context.set_offline(True)
    scorer.wait_for_function("() => !navigator.onLine")
    for test_id in ("0-try", "0-conversion", "1-drop-goal"):
        scorer.get_by_test_id(test_id).tap()
    assert scoreboard_score(scorer) == "14-11"
    scorer.get_by_test_id("status").filter(has_text="3").wait_for()
    assert "Offline" in scorer.get_by_test_id("status").inner_text()
    shot(scorer, "live-scorer-offline")
    # Nothing reached the server: the public page still shows the score before.
    time.sleep(1.5)
    assert public_score(viewer) == "7-8"
    # A reload while offline keeps the queue (localStorage).
    scorer_context.set_offline(False)
    back = time.monotonic()
    elapsed = wait_public(viewer, "14-11", back)
    assert elapsed <= promised(2.0), f"the queued events took {elapsed:.2f} s to reach the public page"
    scorer.get_by_test_id("status").filter(has_text="Online").wait_for()
    assert "waiting" not in scorer.get_by_test_id("status").inner_text()
    # The second scorer has the drop goal (away 11) before undoing it: an undo names the event its page shows last,
    # and the server refuses one that is not the latest (tapped a moment early, it named the conversion).
    second.wait_for_function("() => document.querySelector('[data-testid=home-points]').textContent === '14' && "
                             "document.querySelector('[data-testid=away-points]').textContent === '11'")

    # Undo the last event (the drop goal) from the second scorer.
    second.get_by_test_id("undo").tap()
    wait_public(viewer, "14-8", time.monotonic())
    scorer.wait_for_function("() => document.querySelector('[data-testid=away-points]').textContent === '8'")
    shot(scorer, "live-scorer")

    # Half-time, second half, full time: the result is in the standings.
    for step in ("half_time", "second_half", "full_time"):
        scorer.get_by_test_id(f"clock-{step}").tap()
        time.sleep(0.3)
    scorer.get_by_test_id("phase").filter(has_text="Full time").wait_for()
    viewer.wait_for_function("() => !document.querySelector('[data-testid=live-score]')", timeout=8000)
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.home_tries, result.away_tries) == (14, 8, 2, 1)
    assert result.source == "live"
    table = viewer.get_by_role("table", name=f"Pool {fixture.pool.name}")
    viewer.wait_for_function("""([home]) => {
        const row = [...document.querySelectorAll("table.standings tbody tr")].find(r => r.textContent.includes(home));
        return row && row.querySelectorAll("td")[1].textContent.trim() === "1";
    }""", arg=[home])
    assert table.locator("tr", has_text=away).locator("td").nth(1).inner_text() == "1"
    assert viewer.evaluate("window.notReloaded") is True
    shot(viewer, "live-after-full-time")
    for context in (viewer_context, scorer_context, second_context):
        context.close()


def test_the_big_screen_shows_twenty_tables_scoring_at_once(browser, live_server, django_user_model):
    from league import services
    from league.models import Fixture, Team, Tournament
    from league.services import live as live_services
    from league.services import tournament_create_from_preset as preset_run

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    codes = [services.team_save(team=Team(name=f"Player {i:02d}", code=f"P{i:02d}"), user=user).code
             for i in range(40)]
    tournament = preset_run("league", name="Fundraiser evening", slug="eve", teams=codes, user=user,
                            start_date=dt.date(2026, 9, 5), venues=[f"Table {i + 1}" for i in range(20)])
    if tournament.status != Tournament.Status.IN_PROGRESS:
        services.tournament_publish(tournament=tournament)
    fixtures = list(Fixture.objects.filter(tournament=tournament, round_number=1).order_by("pk")[:20])
    assert len(fixtures) == 20
    for i, fixture in enumerate(fixtures):
        live_services.live_event_record(fixture=fixture, client_id="ko", kind="clock", code="start", user=user)
        for n in range(i % 4):
            live_services.live_event_record(fixture=fixture, client_id=f"t{n}", kind="score", code="try",
                                            side=n % 2, user=user)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    screen = context.new_page()
    screen.goto(f"{live_server.url}/t/eve/screen/?only=live")
    screen.locator(".live-item").nth(19).wait_for()
    assert screen.locator(".live-item").count() == 20
    # Every table on the one screen, no scrolling.
    shot(screen, "live-big-screen-20-tables")
    assert screen.evaluate("document.documentElement.scrollHeight") <= 1080 + 2
    last = fixtures[19]
    live_services.live_event_record(fixture=last, client_id="late", kind="score", code="drop-goal", side=1, user=user)
    scored = time.monotonic()
    screen.wait_for_function("""(pk) => {
        const link = document.querySelector(`.live-item a[href$="/matches/${pk}/"]`);
        return link && link.querySelector("[data-testid=live-score]").textContent.replace(/\\D+/g, "-") === "10-8";
    }""", arg=last.pk, timeout=8000)
    assert time.monotonic() - scored <= promised(2.0)
    shot(screen, "live-big-screen-20-tables")
    context.close()
