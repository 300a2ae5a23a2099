"""The site in a real browser (Playwright + Debian's Chromium).

An organiser runs a World Cup of the 20 nations through the pages only:
signs up, creates it ("pools then knockout", no teams yet: a draft that leads
to its Teams page), adds the 20 nations, draws the pools, generates the
fixtures, enters the pool results (CSV import plus one by hand; simulation
comes with the Celery issue), enters a quarter-final by hand and publishes.
A visitor on a 360 x 740 phone then sees the right tables and bracket.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import pytest

from tests.e2e.browser import ARTIFACTS, fits, shot, sign_in, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations")]

PHONE = {"width": 360, "height": 740}  # a small phone


def pool_score(home, away) -> tuple[int, int, int, int]:
    """The better-ranked nation wins 31-10 (four tries to one): a deterministic, valid rugby score."""
    if home.team.world_ranking < away.team.world_ranking:
        return 31, 10, 4, 1
    return 10, 31, 1, 4


def test_organiser_runs_rwc2023_and_a_visitor_follows_on_a_phone(browser, live_server):
    from league.models import Fixture, Tournament
    from league.selectors import tournament_standings

    base = live_server.url
    organiser = browser.new_context(viewport={"width": 1024, "height": 900})
    page = organiser.new_page()
    page.set_default_timeout(15000)

    # Sign up (username, e-mail address and password) and land on "new tournament".
    sign_up(page, base, "teacher")

    # Create: pools then knockout, World Rugby points, no teams yet (a draft, then its Teams page).
    page.get_by_label("Name", exact=True).fill("School World Cup")
    page.get_by_label("Format").select_option("pools_knockout")
    page.get_by_label("Points system").select_option("world_rugby")
    page.get_by_text("More options").click()
    page.get_by_label("Web address (slug)").fill("school-wc")
    shot(page, "site-01-new-tournament")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/t/school-wc/manage/teams/")

    # The 20 nations in one click.
    page.get_by_role("button", name="Add the 20 nations").click()
    page.get_by_text("20 nations added").wait_for()
    shot(page, "site-02-teams")

    # Seeded draw with a chosen seed, shown afterwards.
    page.get_by_role("navigation", name="Organiser").get_by_role("link", name="Draw").click()
    page.get_by_label("Method").select_option("seeded")
    page.get_by_label("Number of pools").fill("4")
    page.get_by_label("Random seed").fill("2023")
    page.get_by_role("button", name="Draw the pools").click()
    page.locator("#draw-seed").wait_for()
    assert "2023" in page.locator("#draw-seed").inner_text()
    shot(page, "site-03-draw")

    # Fixtures with dates, times and venues.
    page.get_by_role("navigation", name="Organiser").get_by_role("link", name="Fixtures").click()
    page.get_by_label("First day").fill("2026-09-08")
    page.get_by_label("First kick-off").fill("15:00")
    page.get_by_label("Pitches or tables, separated by commas").fill("Main field, Back field, Hall")
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_url("**/manage/schedule/")
    tournament = Tournament.objects.get(slug="school-wc")
    pool_fixtures = list(Fixture.objects.filter(tournament=tournament, stage="pool")
                         .select_related("home__team", "away__team", "pool").order_by("pk"))
    assert len(pool_fixtures) == 40
    assert Fixture.objects.filter(tournament=tournament, stage="knockout").count() == 8

    # Publish the draw and fixtures before the first match.
    page.goto(f"{base}/t/school-wc/manage/")
    page.get_by_role("button", name="Publish").click()
    page.get_by_text("The tournament is published").wait_for()

    # One pool result by hand, with a validation error first (3 points cannot hold 2 tries).
    first = pool_fixtures[0]
    page.goto(f"{base}/t/school-wc/manage/results/{first.pk}/")
    home, away = first.home.team.name, first.away.team.name
    page.get_by_label(f"{home}: points").fill("3")
    page.get_by_label(f"{away}: points").fill("0")
    page.get_by_label(f"{home}: tries").fill("2")
    page.get_by_role("button", name="Save the result").click()
    page.get_by_role("alert").first.wait_for()
    shot(page, "site-04-result-error")
    hs, as_, ht, at = pool_score(first.home, first.away)
    page.get_by_label(f"{home}: points").fill(str(hs))
    page.get_by_label(f"{away}: points").fill(str(as_))
    page.get_by_label(f"{home}: tries").fill(str(ht))
    page.get_by_label(f"{away}: tries").fill(str(at))
    page.get_by_role("button", name="Save the result").click()
    page.get_by_text("Result saved").wait_for()

    # The other 39 pool results from a CSV file through the import page.
    lines = ["pool,round,date,home,away,home_score,away_score,home_tries,away_tries"]
    for f in pool_fixtures[1:]:
        hs, as_, ht, at = pool_score(f.home, f.away)
        lines.append(f"{f.pool.name},{f.round_number},,{f.home.team.code},{f.away.team.code},{hs},{as_},{ht},{at}")
    csv_path = ARTIFACTS / "site-pool-results.csv"
    ARTIFACTS.mkdir(exist_ok=True)
    csv_path.write_text("\n".join(lines) + "\n")
    page.goto(f"{base}/t/school-wc/manage/results/import/")
    page.get_by_label("CSV file").set_input_files(str(csv_path))
    page.get_by_role("button", name="Import").click()
    page.get_by_text("Results imported: 39 new").wait_for()

    # The quarter-finals are filled; QF1 by hand: an upset, the away side wins 23-20.
    qf1 = Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code="QF1")
    assert qf1.home_id and qf1.away_id
    page.get_by_role("link", name=f"Enter {qf1.home.team.code} v {qf1.away.team.code}").click()
    page.get_by_label(f"{qf1.home.team.name}: points").fill("20")
    page.get_by_label(f"{qf1.away.team.name}: points").fill("23")
    page.get_by_label(f"{qf1.home.team.name}: tries").fill("2")
    page.get_by_label(f"{qf1.away.team.name}: tries").fill("2")
    shot(page, "site-05-quarter-final")
    page.get_by_role("button", name="Save the result").click()
    page.get_by_text("Result saved").wait_for()

    page.goto(f"{base}/t/school-wc/manage/")
    shot(page, "site-06-manage")
    organiser.close()

    # A visitor on a phone.
    visitor = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    phone = visitor.new_page()
    phone.goto(f"{base}/")
    phone.get_by_role("link", name="School World Cup").click()
    phone.get_by_role("heading", name="Standings").wait_for()
    shot(phone, "site-07-phone-tournament")
    assert fits(phone)

    expected = tournament_standings(tournament)
    assert len(expected) == 4
    for pool, rows in expected:
        table = phone.get_by_role("table", name=f"Pool {pool.name}")
        codes = table.locator("tbody th .code").all_inner_texts()
        assert codes == [r.team_code for r in rows]
        points = table.locator("tbody td.pts").all_inner_texts()
        assert [int(p) for p in points] == [r.points for r in rows]
        # Every team played four matches and each won match gave 5 points (win + try bonus).
        assert all(r.played == 4 for r in rows)

    phone.get_by_role("navigation", name="Tournament").get_by_role("link", name="Bracket").click()
    bracket = phone.get_by_role("region", name="Knockout bracket")
    bracket.scroll_into_view_if_needed()
    bracket.screenshot(path=str(ARTIFACTS / "site-08-phone-bracket.png"))
    qf1.refresh_from_db()
    sf1 = Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code="SF1")
    assert sf1.home_id == qf1.away_id  # QF1's winner went through to SF1
    sf1_box = bracket.locator('li.bracket-match:has(span.code:text-is("SF1"))')
    assert qf1.away.team.code in sf1_box.inner_text()
    qf1_box = bracket.locator('li.bracket-match:has(span.code:text-is("QF1"))')
    assert "23" in qf1_box.inner_text() and "20" in qf1_box.inner_text()

    # The team page and the match page on the phone.
    phone.goto(f"{base}/t/school-wc/teams/{qf1.away.team.code}/")
    shot(phone, "site-09-phone-team")
    assert fits(phone)
    phone.goto(f"{base}/t/school-wc/matches/{qf1.pk}/")
    assert "23" in phone.locator("h1").inner_text()
    shot(phone, "site-10-phone-match")
    visitor.close()


def test_pages_have_no_serious_accessibility_violations(browser, live_server, django_user_model):
    from axe_playwright_python.sync_playwright import Axe

    from league import services
    from league.models import Fixture
    from league.services import tournament_create_from_preset as preset_run

    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    tournament = preset_run("rwc2023", name="RWC 2023", slug="rwc", user=user)
    first = tournament.fixtures.filter(stage="pool").order_by("pk").first()
    for f in tournament.fixtures.filter(stage="pool").select_related("home__team", "away__team"):
        hs, as_, ht, at = pool_score(f.home, f.away)
        services.result_record(fixture=f, home_score=hs, away_score=as_, home_tries=ht, away_tries=at, user=user)
    qf = Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code="QF1")

    axe = Axe()
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    base = live_server.url
    public = ["/", "/t/rwc/", "/t/rwc/fixtures/?by=day", "/t/rwc/fixtures/?by=pitch", "/t/rwc/bracket/",
              "/t/rwc/chances/", "/t/rwc/teams/FRA/", f"/t/rwc/matches/{first.pk}/", "/t/rwc/poster/",
              "/t/rwc/screen/", "/t/rwc/embed/standings/", "/t/rwc/print/standings/", "/accounts/login/",
              "/signup/", "/t/rwc/print/fixtures/"]
    page.goto(f"{base}/accounts/login/")
    failures = {}

    def check(path):
        page.goto(base + path)
        violations = axe.run(page).response["violations"]
        bad = [(v["id"], v["impact"], len(v["nodes"])) for v in violations if v["impact"] in ("serious", "critical")]
        if bad:
            failures[path] = bad

    for path in public:
        check(path)
    sign_in(page, base, "org", "pw-organiser-1")
    for path in ["/new/", "/t/rwc/manage/", "/t/rwc/manage/teams/", "/t/rwc/manage/draw/",
                 "/t/rwc/manage/fixtures/", "/t/rwc/manage/players/", "/t/rwc/manage/results/",
                 f"/t/rwc/manage/results/{qf.pk}/", f"/t/rwc/manage/results/{first.pk}/delete/",
                 "/t/rwc/manage/settings/", "/t/rwc/manage/organisers/", "/t/rwc/manage/history/",
                 "/t/rwc/manage/delete/", "/t/rwc/manage/fixtures/delete/", "/teams/"]:
        check(path)
    # A form with errors must stay accessible too.
    page.goto(f"{base}/t/rwc/manage/results/{qf.pk}/")
    page.get_by_label(f"{qf.home.team.name}: points").fill("3")
    page.get_by_label(f"{qf.away.team.name}: points").fill("0")
    page.get_by_label(f"{qf.home.team.name}: tries").fill("2")
    page.get_by_role("button", name="Save the result").click()
    violations = axe.run(page).response["violations"]
    bad = [(v["id"], v["impact"]) for v in violations if v["impact"] in ("serious", "critical")]
    if bad:
        failures["result form with errors"] = bad
    context.close()
    assert failures == {}


@pytest.fixture
def eager_celery():
    from config.celery import app

    old = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = old


def test_organiser_simulates_the_pools_then_enters_a_quarter_final(browser, live_server, django_user_model,
                                                                   eager_celery):
    """The same event with the card game's rule set: the pools are simulated from the page (Celery run
    eagerly here, in the request), the quarter-final is entered by hand, a phone shows tables and bracket."""
    from league.models import Fixture, Result, Tournament
    from league.selectors import tournament_standings

    django_user_model.objects.create_user(username="coach", password="pw-coach-123")
    base = live_server.url
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    page = context.new_page()
    page.set_default_timeout(60000)
    sign_in(page, base, "coach", "pw-coach-123")

    page.goto(f"{base}/new/")
    page.get_by_label("Name", exact=True).fill("Card World Cup")
    page.get_by_label("Format").select_option("rwc2023")
    page.get_by_text("More options").click()
    page.get_by_label("Web address (slug)").fill("card-wc")
    page.get_by_label("Rule set").select_option("rugby-league-cards")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/t/card-wc/manage/")

    page.get_by_role("navigation", name="Organiser").get_by_role("link", name="Simulate").click()
    page.get_by_label("Pool matches").check()
    page.get_by_label("Seed").fill("7")
    page.get_by_role("button", name="Start the simulation").click()
    page.get_by_text("Simulation started").wait_for()
    tournament = Tournament.objects.get(slug="card-wc")
    assert Result.objects.filter(fixture__tournament=tournament, fixture__stage="pool",
                                 source="simulated").count() == 40
    shot(page, "site-sim-01-simulated")

    qf1 = Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code="QF1")
    assert qf1.home_id and qf1.away_id
    page.goto(f"{base}/t/card-wc/manage/results/{qf1.pk}/")
    # Card-game rugby league: try 4, conversion 2, penalty 2, drop goal 1.
    page.get_by_label(f"{qf1.home.team.name}: points").fill("12")
    page.get_by_label(f"{qf1.away.team.name}: points").fill("14")
    page.get_by_label(f"{qf1.home.team.name}: tries").fill("2")
    page.get_by_label(f"{qf1.away.team.name}: tries").fill("2")
    page.get_by_role("button", name="Save the result").click()
    page.get_by_text("Result saved").wait_for()
    context.close()

    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(f"{base}/t/card-wc/")
    for pool, rows in tournament_standings(tournament):
        table = phone.get_by_role("table", name=f"Pool {pool.name}")
        assert table.locator("tbody th .code").all_inner_texts() == [r.team_code for r in rows]
        assert all(r.played == 4 for r in rows)
    phone.get_by_role("navigation", name="Tournament").get_by_role("link", name="Bracket").click()
    bracket = phone.get_by_role("region", name="Knockout bracket")
    sf1_box = bracket.locator('li.bracket-match:has(span.code:text-is("SF1"))')
    assert qf1.away.team.code in sf1_box.inner_text()
    assert fits(phone)
    shot(phone, "site-sim-02-phone-tournament")
    phone.context.close()


def test_printed_fixture_list_and_score_sheets_have_one_page_per_round(browser, live_server, django_user_model):
    import datetime as dt
    import re

    from league.services import tournament_create_from_preset as preset_run

    user = django_user_model.objects.create_user(username="printer", password="pw-printer-1")
    tournament = preset_run("rwc2023", name="Printed Cup", slug="printed", user=user, start_date=dt.date(2026, 9, 8))
    rounds = len(set(tournament.fixtures.values_list("round_number", "round_name")))
    assert rounds == 9  # five pool rounds, quarter-finals, semi-finals, bronze final, final
    page = browser.new_context().new_page()
    for path in ("print/fixtures/", "print/score-sheets/"):
        page.goto(f"{live_server.url}/t/printed/{path}")
        page.emulate_media(media="print")
        pdf = page.pdf(format="A4")
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"site-print-{path.split('/')[1]}.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == rounds, path
    page.context.close()
