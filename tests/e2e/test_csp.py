"""Content-Security-Policy (issue 16.9): Chromium visits every page with the policy enforced and finds no
violation, htmx's live updates and the API docs (Swagger UI and Redoc) included.

Violations are caught twice: by a ``securitypolicyviolation`` listener installed before any page script runs,
and by Chromium's console ("Refused to ..."). Every response also carries the policy and a Permissions-Policy.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from datetime import date

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]
PAGES_AT_ONCE = 8

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture(autouse=True)
def _nations(nations):
    """Every page here shows the nations (conftest's fixture: a browser test before may have flushed them)."""


def _world(organiser):
    from league import services
    from league.models import Entry, Fixture, FixtureJob, ScorerLink, Team
    from league.services import events as event_services
    from league.services import fundraising
    from league.services import live as live_services
    from matches import odds
    from matches import services as match_services

    cup = services.tournament_create_from_preset(
        "pools_knockout", name="Schools sevens", slug="sevens", user=organiser, status="in_progress",
        teams=["FRA", "NZL", "IRE", "RSA", "ENG", "WAL", "SCO", "ARG"], pools=2, qualifiers=2,
        start_date=date(2027, 4, 3), venues=["Pitch 1", "Pitch 2"])
    played = cup.fixtures.filter(stage="pool").order_by("round_number", "pk").first()
    services.result_correct(fixture=played, home_score=21, away_score=7, home_tries=3, away_tries=1, user=organiser)
    cards = services.tournament_create(name="Card league", slug="cards", ruleset="rugby-league-cards",
                                       ruleset_options={"sets_per_half": 1}, user=organiser, status="in_progress")
    services.entries_add(tournament=cards, teams=["FRA", "NZL"], pool="A")
    services.fixtures_generate_round_robin(tournament=cards, start_date=date(2027, 4, 3))
    fixture = cards.fixtures.get()
    match = match_services.match_start_for_fixture(fixture=fixture, user=organiser)
    entry = Entry.objects.filter(tournament=cup).first()
    open_fixture = cup.fixtures.filter(stage="pool", result__isnull=True).order_by("round_number", "pk").first()
    job = FixtureJob.objects.create(tournament=cup, total=19900, done=0)  # the progress page of a large generation
    # A match scored live on its pitch (the live section, big screen and scorer pages show it), the pitches'
    # scorer links, the chances, an own team (its edit page) and a festival day of two divisions (the event pages).
    live_services.scorer_links_make_all(tournament=cup, user=organiser)
    link = ScorerLink.objects.filter(tournament=cup, venue=open_fixture.venue).first()
    for number, (kind, code, side) in enumerate([("clock", "start", None), ("score", "try", 0),
                                                 ("score", "conversion", 0), ("card", "yellow", 1)]):
        live_services.live_event_record(fixture=open_fixture, client_id=f"csp{number}", kind=kind, code=code,
                                        side=side, user=organiser)
    odds.odds_refresh(tournament_id=cup.pk, runs=200)
    own = services.team_save(team=Team(name="Greenfield High", code="GFH"), user=organiser)
    event = event_services.event_create(
        name="Saturday festival", slug="festival", user=organiser, day=date(2027, 4, 10),
        first_kickoff=dt.time(9, 0), slot_minutes=20, changeover_minutes=5, rest_minutes=0,
        pitches=["Field A", "Field B"], time_zone="Africa/Johannesburg", status="in_progress")
    for slug, teams in (("u11", ["ITA", "JPN", "FIJ", "AUS"]), ("u13", ["GEO", "POR", "SAM", "TGA"])):
        division = services.tournament_create_from_preset("league", name=slug.upper(), slug=slug, teams=teams,
                                                          user=organiser)
        event_services.division_add(event=event, tournament=division, user=organiser)
    event_services.event_schedule(event=event, user=organiser)
    first = Fixture.objects.filter(tournament__slug="u11").order_by("kickoff", "pk").first()
    services.result_record(fixture=first, home_score=12, away_score=5, home_tries=2, away_tries=1, user=organiser)
    # The money's delete confirmations (events22c).
    donation = fundraising.donation_create(event=event, donor_name="Gran", amount="5", user=organiser)
    pledge = fundraising.pledge_create(event=event, sponsor_name="Bakery", rate="1", user=organiser,
                                       entry=first.home_id)
    return {"cup": cup, "played": played, "match": match, "entry": entry, "fixture": fixture,
            "open_fixture": open_fixture, "job": job, "scorer": live_services.scorer_link_token(link),
            "team": own, "event": event, "donation": donation, "pledge": pledge}


def _pages(world) -> list[str]:
    played, match, entry = world["played"], world["match"], world["entry"]
    open_fixture, job, scorer = world["open_fixture"], world["job"], world["scorer"]
    public = ["/", "/t/sevens/", "/t/sevens/?by=day", "/t/sevens/teams/FRA/", f"/t/sevens/matches/{played.pk}/",
              "/t/sevens/print/fixtures/", "/t/sevens/print/score-sheets/", "/matches/join/",
              # The public sections, the big screen, the poster, the embeds and prints (public15).
              "/t/sevens/fixtures/", "/t/sevens/bracket/", "/t/sevens/chances/", "/t/sevens/live/",
              "/t/sevens/screen/", "/t/sevens/screen/?only=live", "/t/sevens/poster/", "/t/sevens/embed/standings/",
              "/t/sevens/embed/bracket/", "/t/sevens/print/standings/", "/t/sevens/print/bracket/",
              f"/t/sevens/teams/{open_fixture.home.team.code}/",
              # A scorer on a phone, with the pitch's link (live18).
              f"/score/{scorer}/", f"/score/{scorer}/{open_fixture.pk}/",
              # The festival day and its divisions (events22).
              "/events/", "/e/festival/", "/e/festival/screen/", "/t/u11/", "/t/u11/fixtures/",
              f"/matches/{match.pk}/watch/", f"/matches/{match.pk}/replay/", f"/matches/rules/{match.ruleset}/",
              "/matches/tournament/sevens/live/", "/accounts/login/", "/signup/",
              "/accounts/password_reset/", "/accounts/password_reset/done/", "/no-such-page/", "/t/nobody/",
              "/api/docs/", "/api/redoc/"]
    organiser = ["/new/", "/t/sevens/manage/", "/t/sevens/manage/settings/", "/t/sevens/manage/organisers/",
                 "/t/sevens/manage/teams/", "/t/sevens/manage/draw/", "/t/sevens/manage/fixtures/",
                 "/t/sevens/manage/schedule/", f"/t/sevens/manage/schedule/{open_fixture.pk}/",
                 f"/t/sevens/manage/fixtures/jobs/{job.pk}/", "/t/sevens/manage/players/", "/t/sevens/manage/results/",
                 f"/t/sevens/manage/results/{played.pk}/",
                 "/t/sevens/manage/results/import/", f"/t/sevens/manage/teams/{entry.pk}/withdraw/",
                 "/t/sevens/manage/simulate/", "/matches/tournament/sevens/passes/", "/matches/new/",
                 f"/matches/{match.pk}/", f"/matches/{match.pk}/manage/", "/matches/mine/",
                 "/t/sevens/manage/scorers/", f"/t/sevens/manage/score/{open_fixture.pk}/",
                 "/t/sevens/manage/history/", "/t/sevens/manage/delete/", f"/t/sevens/manage/teams/{entry.pk}/logo/",
                 f"/t/sevens/manage/teams/{entry.pk}/remove/", f"/t/sevens/manage/results/{played.pk}/delete/",
                 "/t/sevens/manage/fixtures/delete/", "/teams/", f"/teams/{world['team'].pk}/",
                 "/events/new/", "/e/festival/manage/", "/t/u11/manage/", "/e/festival/players/",
                 "/e/festival/manage/money/", f"/e/festival/manage/money/donations/{world['donation'].pk}/delete/",
                 f"/e/festival/manage/money/pledges/{world['pledge'].pk}/delete/"]
    return [("visitor", url) for url in public] + [("organiser", url) for url in organiser]


def test_every_page_passes_the_content_security_policy(browser, live_server, organiser):
    world = _world(organiser)
    contexts = {}
    for role in ("visitor", "organiser"):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.add_init_script(LISTEN)
        contexts[role] = context
    login = contexts["organiser"].new_page()
    login.goto(f"{live_server.url}/accounts/login/")
    login.get_by_label("Username").fill("organiser")
    login.get_by_label("Password").fill("pw-organiser-1")
    login.get_by_role("button", name="Sign in").click()
    login.wait_for_url(f"{live_server.url}/")

    violations: list[str] = []
    not_shown: list[str] = []  # every page renders its content, but the two that must not exist
    checked = 0
    pages = _pages(world)
    # A few pages open at once, each read when it has had its time since it loaded: the waits overlap instead of
    # adding up (about 70 s of the suite's slowest test, one page after the other).
    for first in range(0, len(pages), PAGES_AT_ONCE):
        opened = []
        for role, url in pages[first:first + PAGES_AT_ONCE]:
            page = contexts[role].new_page()
            console: list[str] = []
            page.on("console", lambda message, console=console: console.append(message.text))
            response = page.goto(f"{live_server.url}{url}")
            assert response is not None and response.status < 500, (url, response and response.status)
            if response.status != 200:
                not_shown.append(f"{response.status} {url}")
            policy = response.headers.get("content-security-policy", "")
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (url, policy)
            assert "camera=()" in response.headers.get("permissions-policy", ""), url
            # Give htmx's polling, Swagger UI and Redoc time to run their scripts and add their styles.
            slow = any(part in url for part in ("/api/", "/matches/", "/score/", "/live/", "/screen/"))
            opened.append((role, url, page, console, time.monotonic() + (2.5 if slow else 0.4)))
        for role, url, page, console, ready in opened:
            page.wait_for_timeout(max(0.0, ready - time.monotonic()) * 1000)
            found = page.evaluate("window.__csp") + [text for text in console if "Content Security Policy" in text]
            violations += [f"{role} {url}: {v}" for v in found]
            checked += 1
            page.close()
    assert checked == len(pages)
    assert not_shown == ["404 /no-such-page/", "404 /t/nobody/"]
    assert violations == [], "\n".join(violations)
    # The docs really rendered under the policy (an empty page would have no violation either).
    docs = contexts["visitor"].new_page()
    docs.goto(f"{live_server.url}/api/docs/")
    # Generous waits (they end as soon as the docs show): Redoc took over 15 s to render on two busy cores.
    docs.wait_for_selector(".swagger-ui .info", timeout=60_000)
    docs.goto(f"{live_server.url}/api/redoc/")
    docs.wait_for_selector("#redoc-container h1", timeout=60_000)
    for context in contexts.values():
        context.close()
