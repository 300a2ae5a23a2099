"""The public tournament page in a real browser on a 390 x 844 phone (issue 15): standings first, any pool's table
and any team's next fixture within two taps, results appearing by themselves within 2 s, the big screen cycling,
the embed framed by another site. Screenshots of every tab, the big screen and the poster go to test-artifacts/.
"""

from __future__ import annotations

import datetime as dt
import http.server
import threading
import time

import pytest

from tests.e2e.browser import ARTIFACTS, fits, phone_page, shot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations", "fresh_cache")]


def visitor_phone(browser, *, live: bool = False):
    # Pages that do not test the live updates check rarely: the local SQLite live server shares one in-memory
    # database between its threads, and a check in flight while the next page loads can lock it.
    return phone_page(browser, timeout=10_000, init_script="" if live else "window.rugbyLiveInterval = 60000;")


def rwc(user, played: int = 20):
    from league import services
    from league.models import Fixture
    from league.services import tournament_create_from_preset as preset_run

    tournament = preset_run("rwc2023", name="School World Cup", slug="wc", user=user,
                            start_date=dt.date(2026, 9, 8), venues=["Main field", "Back field"])
    # The first rounds in every pool (main's timetable creates fixtures pool by pool).
    played_first = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("round_number", "pk")[:played]
    for i, fixture in enumerate(played_first):
        home_tries = (i % 4) + 1
        services.result_record(fixture=fixture, user=user, home_score=home_tries * 7, away_score=5,
                               home_tries=home_tries, away_tries=1)
    return tournament


class Taps:
    """Counts the taps a visitor makes."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator):
        locator.tap()
        self.count += 1


def test_any_pool_table_and_any_next_fixture_within_two_taps(browser, live_server, django_user_model):
    from django.db.models import Q

    from league.models import Fixture, Pool

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    tournament = rwc(user)
    page = visitor_phone(browser)
    base = live_server.url
    for pool in Pool.objects.filter(tournament=tournament):
        page.goto(f"{base}/t/wc/")
        # Standings first: every pool's table is on the first screen's tab, with no tap.
        table = page.get_by_role("table", name=f"Pool {pool.name}")
        assert table.is_visible()
        for entry in pool.entries.select_related("team"):
            page.goto(f"{base}/t/wc/")
            taps = Taps(page)
            taps.tap(page.get_by_role("table", name=f"Pool {pool.name}").get_by_role(
                "link", name=entry.team.code, exact=False).first)
            upcoming = (Fixture.objects.filter(Q(home=entry) | Q(away=entry), status="scheduled")
                        .order_by("kickoff", "round_number", "slot", "pk").first())
            next_match = page.get_by_role("region", name="Next match")
            next_match.wait_for()
            assert f"/t/wc/matches/{upcoming.pk}/" in next_match.inner_html()
            assert taps.count <= 2
    shot(page, "public-team")


def test_a_big_tournament_pool_and_team_within_two_taps(browser, live_server, django_user_model):
    from league import services
    from league.models import Team
    from league.services import tournament_create_from_preset as preset_run

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    codes = [services.team_save(team=Team(name=f"School {i:02d}", code=f"S{i:02d}"), user=user).code
             for i in range(48)]
    tournament = preset_run("pools_knockout", name="Big festival", slug="big", teams=codes, user=user, pools=12,
                            start_date=dt.date(2026, 9, 8), venues=["A", "B", "C"])
    page = visitor_phone(browser)
    pool = tournament.pools.order_by("order", "name").last()
    team = pool.entries.select_related("team").order_by("pk").last().team
    page.goto(f"{live_server.url}/t/big/")
    taps = Taps(page)
    taps.tap(page.get_by_role("navigation", name="Pools").get_by_role("link", name=f"Pool {pool.name}", exact=True))
    page.get_by_role("table", name=f"Pool {pool.name}").wait_for()
    taps.tap(page.get_by_role("table", name=f"Pool {pool.name}").get_by_role("link", name=team.code, exact=False))
    page.get_by_role("region", name="Next match").wait_for()
    assert team.name in page.locator("h1").inner_text()
    assert taps.count == 2
    shot(page, "public-big-pool-chips")


def test_a_result_entered_in_another_browser_appears_within_two_seconds(browser, live_server, django_user_model):
    from league.models import Fixture

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    tournament = rwc(user)
    fixture = (Fixture.objects.filter(tournament=tournament, status="scheduled", stage="pool")
               .select_related("home__team", "away__team", "pool").order_by("pk").first())
    base = live_server.url
    phone = visitor_phone(browser, live=True)
    phone.goto(f"{base}/t/wc/")
    phone.evaluate("window.notReloaded = true")
    table = phone.get_by_role("table", name=f"Pool {fixture.pool.name}")
    played_before = table.locator("tr", has_text=fixture.home.team.code).locator("td").nth(1).inner_text()

    organiser = browser.new_context(viewport={"width": 1024, "height": 800}).new_page()
    sign_in(organiser, base, "org", "pw-organiser-1")
    organiser.goto(f"{base}/t/wc/manage/results/{fixture.pk}/")
    organiser.get_by_label(f"{fixture.home.team.name}: points").fill("40")
    organiser.get_by_label(f"{fixture.away.team.name}: points").fill("3")
    organiser.get_by_label(f"{fixture.home.team.name}: tries").fill("6")
    organiser.get_by_label(f"{fixture.away.team.name}: tries").fill("0")
    organiser.get_by_role("button", name="Save the result").click()
    organiser.get_by_text("Result saved").wait_for()
    saved = time.monotonic()
    # The open page shows it by itself, without a reload: the played count of the home team goes up.
    phone.wait_for_function(
        """([pool, code, before]) => {
            const table = [...document.querySelectorAll("table")].find(
                t => t.caption && t.caption.textContent.trim() === "Pool " + pool);
            const row = [...table.querySelectorAll("tbody tr")].find(r => r.textContent.includes(code));
            return row && row.querySelectorAll("td")[1].textContent.trim() !== before;
        }""", arg=[fixture.pool.name, fixture.home.team.code, played_before], timeout=5000)
    elapsed = time.monotonic() - saved
    assert elapsed <= 2.0, f"the result took {elapsed:.2f} s to appear"
    assert phone.evaluate("window.notReloaded") is True
    phone.goto(f"{base}/t/wc/fixtures/?round={fixture.round_number}")
    assert "40" in phone.locator(f"#fixture-{fixture.pk}").inner_text()


def test_every_tab_the_big_screen_and_the_poster_on_a_phone(browser, live_server, django_user_model):
    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    rwc(user)
    page = visitor_phone(browser)
    base = live_server.url
    for name, path in (("standings", "/t/wc/"), ("fixtures-round", "/t/wc/fixtures/"),
                       ("fixtures-day", "/t/wc/fixtures/?by=day"), ("fixtures-pitch", "/t/wc/fixtures/?by=pitch"),
                       ("fixtures-team", "/t/wc/fixtures/?team=FRA"), ("bracket", "/t/wc/bracket/"),
                       ("chances", "/t/wc/chances/"), ("poster", "/t/wc/poster/"),
                       ("print-standings", "/t/wc/print/standings/")):
        page.goto(base + path)
        assert fits(page), path
        shot(page, name)
    # The bracket scrolls sideways inside its own box, not the page.
    page.goto(base + "/t/wc/bracket/")
    box = page.get_by_role("region", name="Knockout bracket")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    assert box.evaluate("el => getComputedStyle(el).overflowX") == "auto"


def test_the_big_screen_cycles_and_updates_itself(browser, live_server, django_user_model):
    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    rwc(user)
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{live_server.url}/t/wc/screen/?seconds=2")
    titles = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(set(titles)) < 3:
        tv.wait_for_timeout(500)
        title = tv.locator("#slide-title").inner_text()
        if title and (not titles or titles[-1] != title):
            titles.append(title)
            if len(titles) == 2:
                ARTIFACTS.mkdir(exist_ok=True)
                tv.screenshot(path=str(ARTIFACTS / "public-big-screen.png"))
    assert len(set(titles)) >= 3, titles
    assert "Now and next" in titles[0] or "Pool" in titles[0]
    assert tv.locator("#stage table, #stage .now-next, #stage .bracket").count() >= 1


def test_the_embed_loads_in_an_iframe_on_another_origin_and_the_site_does_not(browser, live_server,
                                                                              django_user_model, tmp_path):
    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    rwc(user)
    # Another site: a page on another port with the embed code the dashboard gives.
    host_page = tmp_path / "club.html"
    host_page.write_text(f"""<!doctype html><html><body><h1>Our club</h1>
<iframe id="standings" src="{live_server.url}/t/wc/embed/standings/" title="standings" width="600"
 height="500"></iframe>
<iframe id="site" src="{live_server.url}/t/wc/" title="site" width="600" height="300"></iframe>
</body></html>""")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(tmp_path), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_context(viewport={"width": 800, "height": 900}).new_page()
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/club.html")
        embed = page.frame_locator("#standings")
        embed.get_by_role("table", name="Pool A").wait_for(timeout=10000)
        assert embed.locator("caption").count() == 4
        # The rest of the site keeps X-Frame-Options: the browser refuses to show it in the frame.
        page.wait_for_timeout(500)
        site = page.frame(url=f"{live_server.url}/t/wc/")
        assert site is None or site.locator("table").count() == 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "public-embed-other-origin.png"), full_page=True)
    finally:
        server.shutdown()
