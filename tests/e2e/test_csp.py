"""Content-Security-Policy (issue 16.9): Chromium visits every page with the policy enforced and finds no
violation, htmx's live updates and the API docs (Swagger UI and Redoc) included.

Violations are caught twice: by a ``securitypolicyviolation`` listener installed before any page script runs,
and by Chromium's console ("Refused to ..."). Every response also carries the policy and a Permissions-Policy.
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


@pytest.fixture(autouse=True)
def nations(transactional_db):
    from league.models import Team
    from league.nations import RWC2023_NATIONS

    for code, name, primary, secondary, pool, ranking in RWC2023_NATIONS:
        Team.objects.get_or_create(code=code, defaults={
            "name": name, "primary_colour": primary, "secondary_colour": secondary, "is_nation": True,
            "rwc2023_pool": pool, "world_ranking": ranking})


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _world(organiser):
    from league import services
    from league.models import Entry, FixtureJob
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
    return {"cup": cup, "played": played, "match": match, "entry": entry, "fixture": fixture,
            "open_fixture": open_fixture, "job": job}


def _pages(world) -> list[str]:
    played, match, entry = world["played"], world["match"], world["entry"]
    open_fixture, job = world["open_fixture"], world["job"]
    public = ["/", "/t/sevens/", "/t/sevens/?by=day", "/t/sevens/teams/FRA/", f"/t/sevens/matches/{played.pk}/",
              "/t/sevens/print/fixtures/", "/t/sevens/print/score-sheets/", "/matches/join/",
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
                 f"/matches/{match.pk}/", f"/matches/{match.pk}/manage/", "/matches/mine/"]
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
    checked = 0
    for role, url in _pages(world):
        page = contexts[role].new_page()
        console: list[str] = []
        page.on("console", lambda message, console=console: console.append(message.text))
        response = page.goto(f"{live_server.url}{url}")
        assert response is not None and response.status < 500, (url, response and response.status)
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, (url, policy)
        assert "camera=()" in response.headers.get("permissions-policy", ""), url
        # Give htmx's polling, Swagger UI and Redoc time to run their scripts and add their styles.
        page.wait_for_timeout(2500 if "/api/" in url or "/matches/" in url else 400)
        found = page.evaluate("window.__csp") + [text for text in console if "Content Security Policy" in text]
        violations += [f"{role} {url}: {v}" for v in found]
        checked += 1
        page.close()
    assert checked == len(_pages(world))
    assert violations == [], "\n".join(violations)
    # The docs really rendered under the policy (an empty page would have no violation either).
    docs = contexts["visitor"].new_page()
    docs.goto(f"{live_server.url}/api/docs/")
    docs.wait_for_selector(".swagger-ui .info", timeout=15000)
    docs.goto(f"{live_server.url}/api/redoc/")
    docs.wait_for_selector("#redoc-container h1", timeout=15000)
    for context in contexts.values():
        context.close()
