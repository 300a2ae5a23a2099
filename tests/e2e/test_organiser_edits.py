"""An organiser on a 390 px phone (Playwright + Debian's Chromium), issues 14.1, 14.2 and 14.8: creates a
tournament with every format from the "new tournament" page (one without teams: a draft that leads to its Teams
page), renames and recolours a team, moves a team to another pool, deletes a result and sees the table change,
removes a co-organiser and deletes a tournament. Screenshots go to test-artifacts/ (``edits-*.png``).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.browser import ARTIFACTS, fits

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations")]

PHONE = {"width": 390, "height": 844}
TEAMS = "Grey High, GHS\nKingswood, KIN\nSt Andrew's, SAC\nSelborne, SEL\nDale, DAL\nQueens, QUE"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"edits-{name}.png"), full_page=True)


def create(page, base, name, format_id, *, teams=None, nations=False, swiss_rounds=None):
    page.goto(f"{base}/new/")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Format").select_option(format_id)
    if nations:
        page.get_by_label("The 20 Rugby World Cup 2023 nations").check()
    if teams:
        page.get_by_label(re.compile("Paste a list of teams")).fill(teams)
    if swiss_rounds:
        page.get_by_label("Swiss rounds").fill(str(swiss_rounds))
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_load_state()


def test_an_organiser_creates_edits_and_deletes_on_a_phone(browser, live_server, django_user_model):
    from league.models import Entry, Fixture, Result, Team, Tournament
    from league.selectors import tournament_standings

    django_user_model.objects.create_user(username="assistant", password="pw-assistant-1")
    base = live_server.url
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/signup/")
    page.get_by_label("Username").fill("coach")
    page.get_by_label("E-mail address").fill("coach@example.org")
    page.get_by_label("Password", exact=True).fill("a-long-pass-phrase")
    page.get_by_label("Password confirmation").fill("a-long-pass-phrase")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/new/")
    shot(page, "01-new")
    assert fits(page)
    # The form shows only what the chosen format uses (a little script; the server checks regardless).
    page.get_by_label("Format").select_option("swiss")
    assert page.get_by_label("Swiss rounds").is_visible() and not page.get_by_label("Number of pools").is_visible()
    page.get_by_label("Format").select_option("rwc2023")
    assert not page.get_by_label(re.compile("Paste a list of teams")).is_visible()

    # Every format from the form: pasted teams, the nations, RWC 2023's own; one with no teams is a draft.
    create(page, base, "Club league", "league", teams=TEAMS)
    page.wait_for_url("**/t/club-league/manage/")
    create(page, base, "Pools day", "pools_knockout", teams=TEAMS + "\nHudson Park, HUD\nCambridge, CAM")
    create(page, base, "World Cup", "rwc2023")
    create(page, base, "Sevens festival", "cup_plate", nations=True)
    create(page, base, "Knockout", "single_elimination", teams=TEAMS)
    create(page, base, "Swiss", "swiss", nations=True, swiss_rounds=25)
    assert page.get_by_text("20 teams can play 1 to 19 Swiss rounds without a rematch, not 25.").is_visible()
    shot(page, "02-swiss-rounds-error")
    page.get_by_label("Swiss rounds").fill("4")
    page.get_by_role("button", name="Create the tournament").click()
    page.wait_for_url("**/t/swiss/manage/")
    create(page, base, "Solo night", "solo", teams="Thandi\nPieter\nAmélie")
    create(page, base, "Club league", "league")  # no teams yet, and the name is taken: a free web address
    page.wait_for_url("**/t/club-league-2/manage/teams/")
    assert page.get_by_text("Draft “Club league” created").is_visible()
    shot(page, "03-draft-teams-page")
    made = dict(Tournament.objects.values_list("slug", "format"))
    assert made == {"club-league": "league", "pools-day": "pools_knockout", "world-cup": "rwc2023",
                    "sevens-festival": "cup_plate", "knockout": "single_elimination", "swiss": "swiss",
                    "solo-night": "solo", "club-league-2": "league"}
    assert all(Fixture.objects.filter(tournament__slug=slug).exists() for slug in made if slug != "club-league-2")
    assert Tournament.objects.get(slug="club-league-2").status == "draft"

    # The draft's teams: the organiser's own, from the earlier league, ticked; then its fixtures, no draw needed.
    page.get_by_label("Grey High (GHS)").check()
    page.get_by_label("Kingswood (KIN)").check()
    page.get_by_label("Dale (DAL)").check()
    page.get_by_role("button", name="Add the teams ticked").click()
    page.get_by_text("3 teams added").wait_for()
    page.get_by_role("link", name="Next: make the fixtures").click()
    page.get_by_role("button", name="Generate fixtures").click()
    page.wait_for_url("**/manage/schedule/")  # fixtures made: their schedule, to move or push
    assert Fixture.objects.filter(tournament__slug="club-league-2").count() == 3

    # Rename and recolour a team from a Teams page: every tournament it plays in shows the new name.
    page.goto(f"{base}/t/club-league/manage/teams/")
    page.get_by_role("link", name="Edit GHS").click()
    page.get_by_label("Name").fill("Grey High School")
    page.get_by_label("Primary colour").fill("#aa2211")
    shot(page, "04-edit-team")
    page.get_by_role("button", name="Save the team").click()
    page.wait_for_url("**/t/club-league/manage/teams/")
    team = Team.objects.get(code="GHS", owner__username="coach")
    assert (team.name, team.primary_colour) == ("Grey High School", "#AA2211")
    for slug in ("club-league", "club-league-2"):
        page.goto(f"{base}/t/{slug}/")
        # A phone's standings show the code and crest (the name is hidden to fit 390 px): the new colour is
        # visible, the new name is in the row; the team's own page shows it in its heading.
        row = page.locator("main th.team", has=page.locator("span.code", has_text="GHS")).first
        assert row.locator("span.name").text_content() == "Grey High School"
        assert "AA2211" in row.locator("img").get_attribute("src")
        page.goto(f"{base}/t/{slug}/teams/GHS/")
        assert "Grey High School" in page.locator("main h1").inner_text()  # what a visitor sees

    # Move a team to another pool before the fixtures exist: a pools tournament drawn, not yet scheduled.
    create(page, base, "Pools later", "pools_knockout")
    page.get_by_label(re.compile("Teams, one per line")).fill(TEAMS + "\nHudson Park, HUD\nCambridge, CAM")
    page.get_by_role("button", name="Add these teams").click()
    page.get_by_role("link", name="Next: draw the pools").click()
    assert page.get_by_label("Number of pools").input_value() == "2"  # one pool for every four teams
    page.get_by_role("button", name="Draw the pools").click()
    page.get_by_text("Pools drawn").wait_for()
    page.goto(f"{base}/t/pools-later/manage/teams/")
    kingswood = Entry.objects.get(tournament__slug="pools-later", team__code="KIN")
    target = "B" if kingswood.pool.name == "A" else "A"
    page.get_by_label("Pool of Kingswood").select_option(target)
    shot(page, "05-seeds-and-pools")
    page.get_by_role("button", name="Save seeds and pools").click()
    page.get_by_text("Seeds and pools saved").wait_for()
    kingswood.refresh_from_db()
    assert kingswood.pool.name == target

    # Delete a result: the table changes.
    league = Tournament.objects.get(slug="club-league")
    fixture = Fixture.objects.filter(tournament=league).select_related("home__team", "away__team").first()
    page.goto(f"{base}/t/club-league/manage/results/{fixture.pk}/")
    page.get_by_label(f"{fixture.home.team.name}: points").fill("24")
    page.get_by_label(f"{fixture.away.team.name}: points").fill("10")
    page.get_by_label(f"{fixture.home.team.name}: tries").fill("4")
    page.get_by_label(f"{fixture.away.team.name}: tries").fill("1")
    page.get_by_role("button", name="Save the result").click()
    page.get_by_text("Result saved").wait_for()
    leader = [r for _pool, rows in tournament_standings(league) for r in rows][0]
    assert (leader.team_code, leader.points) == (fixture.home.team.code, 5)
    page.goto(f"{base}/t/club-league/manage/results/{fixture.pk}/")
    page.get_by_role("link", name="Delete this result").click()
    page.get_by_label("Yes, delete this result").check()
    page.get_by_label(re.compile("Why")).fill("entered for the wrong match")
    shot(page, "06-delete-result")
    page.get_by_role("button", name="Delete the result").click()
    page.get_by_text("Result deleted").wait_for()
    assert not Result.objects.filter(fixture=fixture).exists()
    assert all(r.points == 0 for _pool, rows in tournament_standings(league) for r in rows)
    page.goto(f"{base}/t/club-league/")
    assert page.locator("table.standings td.pts").first.inner_text() == "0"

    # A co-organiser invited, then removed; the last organiser cannot leave.
    page.goto(f"{base}/t/club-league/manage/organisers/")
    page.get_by_label("Username").fill("assistant")
    page.get_by_role("button", name="Invite").click()
    page.get_by_text("assistant now organises this tournament").wait_for()
    page.get_by_role("button", name="Remove assistant").click()
    page.get_by_text("assistant no longer organises this tournament").wait_for()
    assert list(league.organisers.values_list("username", flat=True)) == ["coach"]
    assert page.get_by_role("button", name="Leave this tournament").count() == 0
    shot(page, "07-organisers")

    # The history shows who changed what.
    page.goto(f"{base}/t/club-league/manage/history/")
    for text in ("Result deleted", "Co-organiser removed", "Co-organiser added"):
        assert page.get_by_text(text).first.is_visible()
    assert page.get_by_text("entered for the wrong match").is_visible()
    shot(page, "08-history")
    assert fits(page)

    # Delete a tournament, after a confirmation.
    page.goto(f"{base}/t/knockout/manage/settings/")
    page.get_by_role("link", name="Delete this tournament").click()
    page.get_by_role("button", name="Delete the tournament").click()  # not confirmed: nothing happens
    assert Tournament.objects.filter(slug="knockout").exists()
    page.get_by_label(re.compile("Yes, delete")).check()
    shot(page, "09-delete-tournament")
    page.get_by_role("button", name="Delete the tournament").click()
    page.get_by_text("“Knockout” is deleted").wait_for()
    assert not Tournament.objects.filter(slug="knockout").exists()
    context.close()
