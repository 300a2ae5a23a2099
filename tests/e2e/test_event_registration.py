"""In Chromium on 390 px phones: a fundraiser evening's 20 players register from the event's sign-up link (two of
them minors, one who does not want their name shown, some asking for a nation; the last two go on the waiting
list); the organiser approves one with htmx, raises the places (the waiting players move up), approves the rest,
and draws the nations by dice throws; the big screen reveals the draw one card at a time, and a parent's phone
shows the players with their nations and no surname of a minor. No Content-Security-Policy violation on the way.
Screenshots go to test-artifacts/ (registration-*.png)."""

from __future__ import annotations

import pytest

from tests.e2e.browser import ARTIFACTS, fits, phone_page
from tests.e2e.test_csp import LISTEN

# The browser, debug_off and nations fixtures come from tests/e2e/conftest.py.
pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True),
              pytest.mark.usefixtures("nations")]

PLAYERS = [("Thandi", "Mokoena"), ("Pieter", "van Wyk"), ("Aisha", "Patel"), ("Johan", "Botha"),
           ("Lerato", "Nkosi"), ("Sipho", "Dlamini"), ("Emma", "Smith"), ("Ruan", "Pretorius"),
           ("Naledi", "Khumalo"), ("Jaco", "Steyn"), ("Zoe", "Williams"), ("Kagiso", "Molefe"),
           ("Liam", "Jacobs"), ("Anele", "Zulu"), ("Chloe", "Fourie"), ("Bongani", "Ndlovu"),
           ("Megan", "Kruger"), ("Tumelo", "Sithole"), ("Ayanda", "Mthembu"), ("Francois", "du Toit")]
MINORS = {"Lerato", "Jaco"}
NO_NAME = {"Sipho"}
WISHES = {"Thandi": "South Africa", "Pieter": "New Zealand", "Emma": "England"}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"registration-{name}.png"), full_page=True)


def test_twenty_players_register_from_their_phones_and_the_nations_are_drawn_on_the_big_screen(
        browser, live_server, debug_off, organiser):
    from league.models import Entry, NationDraw, Registration
    from league.services import events as event_services
    from league.services import registrations as reg_services

    base = live_server.url
    event = event_services.event_create(name="Bokx fundraiser", slug="bokx-night", user=organiser,
                                        status="in_progress", pitches=["Table 1", "Table 2"])
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True,
                                            registration_cap=18)
    cup = event_services.division_create(event=event, name="World Cup", user=organiser)

    # The players, from their phones (one phone context, reused, each a fresh page as if a new phone).
    phones = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
                                 has_touch=True)
    phones.add_init_script(LISTEN)
    violations: list[str] = []
    for index, (first, surname) in enumerate(PLAYERS):
        phone = phones.new_page()
        phone.set_default_timeout(15_000)
        phone.goto(f"{base}/e/bokx-night/register/")
        phone.get_by_label("First name", exact=True).fill(first)
        phone.get_by_label("Surname", exact=True).fill(surname)
        if index % 3 == 0:
            phone.get_by_label("Contact (e-mail or phone, optional)").fill(f"{first.lower()}@example.org")
        if first in MINORS:
            phone.get_by_label("I am under 18").check()
        if first not in NO_NAME:
            phone.get_by_label("My first name may be shown on the public pages and the big screen").check()
        if first in WISHES:
            phone.get_by_label("Nation I would like to play").select_option(label=WISHES[first])
        if index == 0:
            shot(phone, "01-form")
            assert fits(phone)
        phone.get_by_role("button", name="Register").click()
        phone.get_by_role("heading", name=f"Thank you, {first}!").wait_for()
        if index in (0, 19):
            shot(phone, f"02-thanks-{index + 1}")
        violations += phone.evaluate("window.__csp")
        phone.close()
    statuses = list(Registration.objects.filter(event=event).order_by("number").values_list("status", flat=True))
    assert statuses == ["pending"] * 18 + ["waiting"] * 2
    # A nation asked for is gone from the next player's list.
    phone = phones.new_page()
    phone.goto(f"{base}/e/bokx-night/register/")
    options = phone.get_by_label("Nation I would like to play").locator("option").all_inner_texts()
    assert "South Africa" not in options and "France" in options
    phone.close()

    # The organiser, on their phone: approve one player with htmx, raise the places, approve the rest.
    organiser_phone = phone_page(browser)
    organiser_phone.context.add_init_script(LISTEN)
    organiser_phone.goto(f"{base}/accounts/login/")
    organiser_phone.get_by_label("Username").fill("organiser")
    organiser_phone.get_by_label("Password").fill("pw-organiser-1")
    organiser_phone.get_by_role("button", name="Sign in").click()
    organiser_phone.wait_for_url(f"{base}/")
    organiser_phone.goto(f"{base}/e/bokx-night/players/")
    first = Registration.objects.get(event=event, number=1)
    organiser_phone.locator(f"#player-{first.pk}").get_by_role("button", name="Approve").click()
    organiser_phone.locator(f"#player-{first.pk}[data-status='approved']").wait_for()
    organiser_phone.get_by_label("Places").fill("20")
    organiser_phone.get_by_role("button", name="Save").first.click()
    organiser_phone.get_by_text("Registration settings saved.").wait_for()
    assert organiser_phone.locator("tr[data-status='waiting']").count() == 0
    assert "moved up from the waiting list" in organiser_phone.content()
    organiser_phone.get_by_role("button", name="Approve all 19 players holding a place").click()
    organiser_phone.get_by_text("19 players approved.").wait_for()
    assert Registration.objects.filter(event=event, status="approved").count() == 20
    shot(organiser_phone, "03-players")
    violations += organiser_phone.evaluate("window.__csp")

    # The draw: dice throws for the World Cup division, from the 20 nations.
    organiser_phone.get_by_label("Draw by", exact=True).select_option("dice")
    organiser_phone.get_by_role("button", name="Draw", exact=True).click()
    organiser_phone.wait_for_url("**/e/bokx-night/draw/?draw=*")
    draw = NationDraw.objects.get()
    assert draw.seed is not None and len(draw.outcome) == 20
    entries = Entry.objects.filter(tournament=cup).select_related("team")
    assert entries.count() == 20 and len({e.team_id for e in entries}) == 20
    # Every player who asked for a nation and threw high enough got it; the first to pick always does.
    first_pick = Registration.objects.get(pk=draw.outcome[0]["registration"])
    assert first_pick.choice_id is None or first_pick.entry.team_id == first_pick.choice_id

    # The big screen: the cards come one at a time (a key press brings the next one).
    screen = browser.new_page(viewport={"width": 1280, "height": 720})
    screen.add_init_script(LISTEN)
    screen.goto(f"{base}/e/bokx-night/draw/")
    screen.wait_for_function("() => document.getElementById('draw')?.dataset.revealed === '1'")
    assert screen.locator(".draw-card:not([hidden])").count() == 1
    for _ in range(7):
        screen.keyboard.press("ArrowRight")
    screen.wait_for_function("() => document.getElementById('draw')?.dataset.revealed === '8'")
    assert screen.locator(".draw-card:not([hidden])").count() == 8
    assert screen.locator(".draw-card.current .dice").count() >= 1  # each player's throws are shown
    screen.wait_for_timeout(700)  # the card's animation ends
    shot(screen, "04-draw-screen")
    for _ in range(12):
        screen.keyboard.press("ArrowRight")
    screen.wait_for_function("() => document.getElementById('draw')?.dataset.done === 'true'")
    assert screen.locator(".draw-card:not([hidden])").count() == 20
    html = screen.content()
    assert "Lerato N." in html and "Jaco S." in html and "Nkosi" not in html and "Steyn" not in html
    assert "Sipho" not in html and "Dlamini" not in html
    screen.wait_for_timeout(700)
    shot(screen, "05-draw-done")
    violations += screen.evaluate("window.__csp")

    # A parent's phone: the players and their nations; minors by first name and initial; no contacts.
    parent = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    parent.add_init_script(LISTEN)
    page = parent.new_page()
    page.goto(f"{base}/e/bokx-night/")
    page.get_by_role("heading", name="Players").wait_for()
    text = page.locator("#event-players").inner_text()
    assert "Thandi Mokoena" in text and "Lerato N." in text and "Nkosi" not in text and "Sipho" not in text
    assert "@example.org" not in page.content()
    assert fits(page)
    shot(page, "06-public")
    violations += page.evaluate("window.__csp")
    assert violations == []
