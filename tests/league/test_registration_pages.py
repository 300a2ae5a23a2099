"""Registering for an event on the web and through the API: the public sign-up form (clear errors, closed, the
waiting list, the per-client limit, the field robots fill), the organisers' players page (approve and remove
with htmx, edit, CSV with contacts, formula-safe), the draw on the big screen, the API with its permissions, and a
walk through every public page and public API answer of an evening with a minor and a player who did not consent,
finding no surname, no contact and no name shown without consent. Fixed query counts."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from league.models import Entry, Fixture, NationDraw, Registration, Team
from league.services import events as event_services
from league.services import registrations as reg_services
from league.services.fixtures import fixtures_generate_round_robin
from league.services.teams import entries_into_one_pool
from tests.league.test_events import make_event

pytestmark = pytest.mark.django_db

# An adult who consents is shown in full (Ann Bothaadult); these never are.
SECRETS = ["Cronjeminor", "Dlaminishy", "Waitingsurname", "Zanele", "zanele@secret.example", "+27 82 555 0101",
           "ann@secret.example"]


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def evening(organiser):
    event = make_event(organiser, slug="evening")
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True, registration_cap=3)
    tournament = event_services.division_create(event=event, name="Cup", user=organiser)
    return event, tournament


@pytest.fixture
def signed_in(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def form(first="Ann", surname="Botha", **extra):
    return {"first_name": first, "surname": surname, **extra}


# --- the sign-up form ----------------------------------------------------------------------------------------


def test_a_player_registers_from_the_form_and_sees_their_place_or_the_waiting_list(client, evening):
    page = client.get("/e/evening/register/")
    html = page.content.decode()
    assert page.status_code == 200 and "3 places left" in html and 'name="website"' in html
    card = client.get("/e/evening/register/card/").content.decode()
    assert "http://testserver/e/evening/register/" in card and "/e/evening/register/qr.svg" in card
    qr = client.get("/e/evening/register/qr.svg")
    assert qr["Content-Type"] == "image/svg+xml" and qr.content.startswith(b"<svg")
    for name in ("Ann", "Ben", "Cat"):
        done = client.post("/e/evening/register/", form(name, contact="ann@secret.example", show_name="on"))
        assert done.status_code == 302
    done = client.post("/e/evening/register/", form("Dan", minor="on"), follow=True)
    html = done.content.decode()
    assert 'data-status="waiting"' in html and "number 1 in line" in html and "player 4" in html
    assert list(Registration.objects.order_by("number").values_list("status", flat=True)) == [
        "pending", "pending", "pending", "waiting"]
    assert "ann@secret.example" not in html
    # A forged confirmation link is a 404, not someone else's registration.
    assert client.get("/e/evening/register/forged-token/").status_code == 404


def test_bad_sign_ups_get_clear_form_errors_and_store_nothing(client, evening):
    page = client.post("/e/evening/register/", {"first_name": "", "surname": "", "choice": "999999"})
    html = page.content.decode()
    assert page.status_code == 200 and html.count('class="errorlist"') >= 3
    page = client.post("/e/evening/register/", form(website="http://spam.example"))
    assert page.status_code == 200 and "Leave this field empty" in page.content.decode()
    client.post("/e/evening/register/", form())
    page = client.post("/e/evening/register/", form(first="ANN", surname="botha"))
    assert "already registered" in page.content.decode()
    assert Registration.objects.count() == 1


def test_a_chosen_nation_leaves_the_list_and_a_closed_event_refuses(client, evening, organiser):
    event, _t = evening
    france = Team.objects.get(code="FRA")
    client.post("/e/evening/register/", form(choice=str(france.pk)))
    html = client.get("/e/evening/register/").content.decode()
    assert f'value="{france.pk}"' not in html and "19 nations still free" in html
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=False)
    html = client.get("/e/evening/register/").content.decode()
    assert 'id="registration-closed"' in html and 'id="register-form"' not in html
    page = client.post("/e/evening/register/", form("Ben", "Cronje"))
    assert "is closed" in page.content.decode() and Registration.objects.count() == 1


def test_the_sign_up_is_limited_per_client(client, evening, settings):
    settings.EVENT_REGISTRATION_RATE = "2/h"
    client.post("/e/evening/register/", form("Ann"))
    client.post("/e/evening/register/", form("Ben"))
    page = client.post("/e/evening/register/", form("Cat"))
    assert page.status_code == 429 and page["Retry-After"]
    assert Registration.objects.count() == 2
    api = APIClient()
    answer = api.post("/api/events/evening/registrations/", form("Dan"), format="json")
    assert answer.status_code == 429 and Registration.objects.count() == 2


def test_a_draft_events_sign_up_is_hidden(client, organiser):
    make_event(organiser, slug="draft-evening", status="draft")
    assert client.get("/e/draft-evening/register/").status_code == 404
    assert APIClient().post("/api/events/draft-evening/registrations/", form(), format="json").status_code == 404


# --- the organisers' page ------------------------------------------------------------------------------------


def test_organiser_approves_and_removes_with_htmx_and_the_first_waiting_player_moves_up(signed_in, evening):
    event, _t = evening
    regs = [reg_services.registration_create(event=event, first_name=n, surname="Smith") for n in
            ("Ann", "Ben", "Cat", "Dan")]
    page = signed_in.post(f"/e/evening/players/{regs[0].pk}/approve/", HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and 'id="players-table"' in page.content.decode()
    page = signed_in.post(f"/e/evening/players/{regs[1].pk}/remove/", HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert re.search(rf'id="player-{regs[3].pk}" data-status="pending"', html)
    assert re.search(rf'id="player-{regs[1].pk}" data-status="removed"', html)
    # Approving a removed player is refused in the row, not a 500.
    page = signed_in.post(f"/e/evening/players/{regs[1].pk}/approve/", HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and 'role="alert"' in page.content.decode()
    assert signed_in.post(f"/e/evening/players/{regs[1].pk}/dance/").status_code == 404
    assert signed_in.post("/e/evening/players/999999/approve/").status_code == 404
    log = signed_in.get("/e/evening/players/").content.decode()
    assert "moved up from the waiting list" in log


def test_organiser_edits_adds_and_exports_players_formula_safe(signed_in, evening, client):
    event, _t = evening
    reg = reg_services.registration_create(event=event, first_name="=HYPERLINK(1)", surname="Smith",
                                           contact="+27 82 555 0101")
    page = signed_in.post(f"/e/evening/players/{reg.pk}/", {"first_name": "Ann", "surname": "Smith",
                                                            "contact": "=cmd|calc", "show_name": "on"})
    assert page.status_code == 302
    reg.refresh_from_db()
    assert (reg.first_name, reg.contact, reg.show_name) == ("Ann", "=cmd|calc", True)
    page = signed_in.post("/e/evening/players/", {"action": "add", "add-first_name": "=SUM(A1)", "add-surname": "X"})
    assert page.status_code == 302
    csv = signed_in.get("/e/evening/players.csv")
    text = csv.content.decode()
    assert csv["Content-Type"].startswith("text/csv") and "'=cmd|calc" in text and "'=SUM(A1)" in text
    assert "\n=" not in text and ",=" not in text
    # Nobody else sees the page, the CSV or the edit form.
    for url in ("/e/evening/players/", "/e/evening/players.csv", f"/e/evening/players/{reg.pk}/"):
        assert client.get(url).status_code == 302  # to sign in
    stranger = Client()
    stranger.force_login(type(event.organisers.first()).objects.create_user(username="parent", password="pw-x-1"))
    for url in ("/e/evening/players/", "/e/evening/players.csv", f"/e/evening/players/{reg.pk}/"):
        assert stranger.get(url).status_code == 403


def test_organiser_draws_the_nations_and_the_big_screen_reveals_them(signed_in, evening, client):
    event, tournament = evening
    for name in ("Ann", "Ben", "Cat"):
        reg = reg_services.registration_create(event=event, first_name=name, surname="Smith", show_name=True)
        reg_services.registration_approve(registration=reg)
    nations = Team.objects.filter(code__in=["NZL", "RSA", "IRE"])
    page = signed_in.post("/e/evening/players/", {
        "action": "draw", "draw-division": tournament.division.pk, "draw-method": "random",
        "draw-nations": [t.pk for t in nations], "draw-custom_cards": "Grey College", "draw-seed": "42"})
    draw = NationDraw.objects.get()
    assert page.status_code == 302 and page["Location"].endswith(f"/e/evening/draw/?draw={draw.pk}")
    assert draw.seed == 42 and Entry.objects.filter(tournament=tournament).count() == 3
    html = client.get(page["Location"]).content.decode()
    assert html.count('class="draw-card"') == 3 and "Ann Smith" in html and "seed 42" in html
    assert "nation-draw.js" in html
    # Nobody left: the form says so.
    page = signed_in.post("/e/evening/players/", {
        "action": "draw", "draw-division": tournament.division.pk, "draw-method": "dice",
        "draw-nations": [t.pk for t in nations]})
    assert page.status_code == 200 and "No approved player" in page.content.decode()
    assert client.get("/e/evening/draw/?draw=999999").status_code == 404


def test_organiser_puts_the_drawn_players_into_pools_from_the_players_page(signed_in, organiser):
    event = make_event(organiser, slug="pooled")
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True)
    cup = event_services.division_create(event=event, name="Cup", user=organiser,
                                         format="pools_knockout")
    for i in range(8):
        reg_services.registration_create(event=event, first_name=f"P{i}", surname="Smith")
    reg_services.registrations_approve_all(event=event, user=organiser)
    nations = Team.objects.filter(is_nation=True).order_by("world_ranking")[:8]
    page = signed_in.post("/e/pooled/players/", {
        "action": "draw", "draw-division": cup.division.pk, "draw-method": "random",
        "draw-nations": [t.pk for t in nations], "draw-pools": "draw_order"})
    assert page.status_code == 302
    assert not Entry.objects.filter(tournament=cup, pool__isnull=True).exists()
    assert sorted(cup.pools.values_list("name", flat=True)) == ["A", "B"]
    html = signed_in.get("/e/pooled/players/").content.decode()
    assert 'id="division-pools"' in html
    page = signed_in.post("/e/pooled/players/", {"action": "pools", "pools-division": cup.division.pk,
                                                  "pools-order": "seeded"})
    assert page.status_code == 302 and Entry.objects.filter(tournament=cup).count() == 8
    fixtures_generate_round_robin(tournament=cup)
    page = signed_in.post("/e/pooled/players/", {"action": "pools", "pools-division": cup.division.pk,
                                                  "pools-order": "seeded"})
    assert page.status_code == 200 and "has fixtures already" in page.content.decode()


def test_dice_draw_picked_in_turn_on_the_players_page_and_followed_on_the_big_screen(signed_in, evening, client):
    event, tournament = evening
    for name in ("Ann", "Ben", "Cat"):
        reg = reg_services.registration_create(event=event, first_name=name, surname="Smith", show_name=True)
        reg_services.registration_approve(registration=reg)
    nations = list(Team.objects.filter(code__in=["NZL", "RSA", "IRE"]).order_by("world_ranking"))
    page = signed_in.post("/e/evening/players/", {
        "action": "draw", "draw-division": tournament.division.pk, "draw-method": "dice_live",
        "draw-nations": [t.pk for t in nations], "draw-seed": "9"})
    draw = NationDraw.objects.get()
    assert page.status_code == 302 and page["Location"].endswith("/e/evening/players/#live-draw")
    assert not Entry.objects.filter(tournament=tournament).exists()
    screen = client.get(f"/e/evening/draw/?draw={draw.pk}").content.decode()
    assert 'data-live="true"' in screen and screen.count("turn-now") == 1 and screen.count("turn-waiting") == 2
    first = Registration.objects.get(pk=draw.outcome[0]["registration"]).first_name
    html = signed_in.get("/e/evening/players/").content.decode()
    assert 'id="nation-pick"' in html and f"{first} Smith picks" in html
    for team in (nations[2], nations[0], nations[1]):
        page = signed_in.post("/e/evening/players/", {"action": "pick", "pick-draw": draw.pk, "pick-team": team.pk})
        assert page.status_code == 302
        if team == nations[2]:
            screen = client.get(f"/e/evening/draw/?draw={draw.pk}").content.decode()
            assert f"{first} Smith" in screen and team.name in screen and screen.count("turn-picked") == 1
            # The card just taken is no longer offered.
            again = signed_in.post("/e/evening/players/", {"action": "pick", "pick-draw": draw.pk,
                                                           "pick-team": team.pk})
            assert again.status_code == 200 and Entry.objects.filter(tournament=tournament).count() == 1
    assert Entry.objects.filter(tournament=tournament).count() == 3
    screen = client.get(f"/e/evening/draw/?draw={draw.pk}").content.decode()
    assert 'data-live="true"' not in screen and screen.count('class="draw-card"') == 3
    assert 'id="nation-pick"' not in signed_in.get("/e/evening/players/").content.decode()
    assert signed_in.post("/e/evening/players/", {"action": "pick", "pick-draw": "12x", "pick-team": "1"}
                          ).status_code == 404
    assert client.post("/e/evening/players/", {"action": "pick", "pick-draw": draw.pk}).status_code in (302, 403)


def test_api_dice_draw_picked_in_turn_and_into_pools(organiser):
    event = make_event(organiser, slug="pooled-api")
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True)
    cup = event_services.division_create(event=event, name="Cup", user=organiser, format="pools_knockout")
    for i in range(4):
        reg_services.registration_create(event=event, first_name=f"P{i}", surname="Smith")
    reg_services.registrations_approve_all(event=event, user=organiser)
    api = APIClient()
    api.force_authenticate(organiser)
    codes = ["NZL", "RSA", "IRE", "FRA"]
    answer = api.post("/api/events/pooled-api/draws/", {"division": cup.slug, "method": "dice", "live": True,
                                                       "nations": codes}, format="json")
    assert answer.status_code == 201 and answer.json()["picking"] is True and answer.json()["cards"] == []
    pick = f"/api/events/pooled-api/draws/{answer.json()['id']}/pick/"
    assert APIClient().post(pick, {"team": "FRA"}, format="json").status_code == 401
    assert api.post(pick, {"team": "XXX"}, format="json").status_code == 400
    for code in reversed(codes):
        done = api.post(pick, {"team": code}, format="json")
        assert done.status_code == 200
    assert done.json()["picking"] is False and [c["team"] for c in done.json()["cards"]] == list(reversed(codes))
    assert api.post(pick, {"team": "ENG"}, format="json").status_code == 409
    # A random draw of new players, put into pools in the same call, in the order drawn.
    for i in range(4, 8):
        reg_services.registration_create(event=event, first_name=f"P{i}", surname="Smith", by_organiser=True,
                                         user=organiser)
    reg_services.registrations_approve_all(event=event, user=organiser)
    answer = api.post("/api/events/pooled-api/draws/", {"division": cup.slug, "method": "random", "seed": 4,
                                                       "nations": ["ENG", "ARG", "WAL", "FIJ"],
                                                       "pools": "draw_order"}, format="json")
    assert answer.status_code == 201
    assert sorted(cup.pools.values_list("name", flat=True)) == ["A", "B"]
    assert not Entry.objects.filter(tournament=cup, pool__isnull=True).exists()


def test_pages_run_a_fixed_number_of_queries(signed_in, evening, client, django_assert_max_num_queries):
    event, tournament = evening
    reg_services.registration_settings_save(event=event, registration_cap=None)
    for i in range(12):
        reg = reg_services.registration_create(event=event, first_name=f"P{i}", surname="Smith", show_name=True)
        reg_services.registration_approve(registration=reg)
    reg_services.nations_draw(event=event, division=tournament.division, method="dice",
                              cards=list(Team.objects.filter(is_nation=True)), seed=1)
    with django_assert_max_num_queries(25):
        assert signed_in.get("/e/evening/players/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get("/e/evening/draw/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get("/e/evening/register/").status_code == 200
    with django_assert_max_num_queries(12):
        assert APIClient().get("/api/events/evening/players/").status_code == 200


# --- the API -------------------------------------------------------------------------------------------------


def test_api_registers_and_organisers_approve_edit_remove_export(evening, organiser):
    event, tournament = evening
    anonymous = APIClient()
    answer = anonymous.post("/api/events/evening/registrations/", {**form(), "contact": "ann@secret.example",
                                                                    "choice": "fra"}, format="json")
    assert answer.status_code == 201 and answer.json() == {"number": 1, "status": "pending", "waiting_position": None}
    bad = anonymous.post("/api/events/evening/registrations/", {"first_name": "", "choice": "XXX"}, format="json")
    assert bad.status_code == 400 and "surname" in bad.json()
    bad = anonymous.post("/api/events/evening/registrations/", {**form("Ben"), "choice": "XXX",
                                                                "division": "nope"}, format="json")
    assert bad.status_code == 400
    reg = Registration.objects.get()
    assert anonymous.get("/api/events/evening/registrations/").status_code == 401
    assert anonymous.get(f"/api/events/evening/registrations/{reg.pk}/").status_code == 401
    assert anonymous.post(f"/api/events/evening/registrations/{reg.pk}/approve/").status_code == 401
    stranger = APIClient()
    stranger.force_authenticate(type(organiser).objects.create_user(username="parent", password="pw-x-1"))
    assert stranger.get("/api/events/evening/registrations/").status_code == 403
    assert stranger.get("/api/events/evening/registrations/export/").status_code == 403
    assert stranger.delete(f"/api/events/evening/registrations/{reg.pk}/").status_code == 403
    api = APIClient()
    api.force_authenticate(organiser)
    rows = api.get("/api/events/evening/registrations/").json()
    assert rows[0]["contact"] == "ann@secret.example" and rows[0]["choice"] == "FRA"
    changed = api.patch(f"/api/events/evening/registrations/{reg.pk}/", {"minor": True, "show_name": True,
                                                                        "division": tournament.slug}, format="json")
    assert changed.status_code == 200 and changed.json()["division"] == tournament.slug
    assert api.post(f"/api/events/evening/registrations/{reg.pk}/approve/").json()["status"] == "approved"
    assert anonymous.get("/api/events/evening/players/").json() == [
        {"number": 1, "name": "Ann B.", "team": None, "team_name": None, "division": tournament.slug}]
    draw = api.post("/api/events/evening/draws/", {"division": tournament.slug, "method": "choice"}, format="json")
    assert draw.status_code == 201 and draw.json()["cards"] == [
        {"name": "Ann B.", "team": "FRA", "team_name": "France", "throws": []}]
    assert anonymous.get(f"/api/events/evening/draws/{draw.json()['id']}/").json()["method"] == "choice"
    assert anonymous.post("/api/events/evening/draws/", {"division": tournament.slug, "method": "dice"},
                          format="json").status_code == 401
    again = api.post("/api/events/evening/draws/", {"division": tournament.slug, "method": "dice",
                                                    "nations": ["NZL", "ZZZ"]}, format="json")
    assert again.status_code == 400
    export = api.get("/api/events/evening/registrations/export/")
    assert export.status_code == 200 and "ann@secret.example" in export.content.decode()
    removed = api.delete(f"/api/events/evening/registrations/{reg.pk}/")
    assert removed.status_code == 200 and removed.json()["status"] == "removed"
    assert not Entry.objects.filter(tournament=tournament).exists()
    assert api.get("/api/events/evening/registrations/999999/").status_code == 404


# --- nothing private on a public page or a public API answer ------------------------------------------------


@pytest.fixture
def drawn_evening(evening, organiser):
    """An evening with an adult who shows their name, a minor, and an adult who did not consent; drawn, with
    fixtures made; the surnames and contacts are the SECRETS."""
    event, tournament = evening
    players = [
        reg_services.registration_create(event=event, first_name="Ann", surname="Bothaadult", show_name=True,
                                         contact="ann@secret.example"),
        reg_services.registration_create(event=event, first_name="Ben", surname="Cronjeminor", show_name=True,
                                         minor=True, contact="+27 82 555 0101"),
        reg_services.registration_create(event=event, first_name="Zanele", surname="Dlaminishy", show_name=False,
                                         contact="zanele@secret.example"),
    ]
    reg_services.registration_settings_save(event=event, user=organiser, registration_cap=4)
    reg_services.registration_create(event=event, first_name="Zanele", surname="Waitingsurname", show_name=False,
                                     contact="zanele@secret.example")
    for player in players:
        reg_services.registration_approve(registration=player, user=organiser)
    draw = reg_services.nations_draw(event=event, division=tournament.division, method="dice",
                                     cards=list(Team.objects.filter(code__in=["NZL", "RSA", "IRE", "FRA"])), seed=7,
                                     user=organiser)
    entries_into_one_pool(tournament=tournament, name="A")
    fixtures_generate_round_robin(tournament=tournament)
    return event, tournament, draw


def _public_pages(event, tournament, draw) -> list[str]:
    fixture = Fixture.objects.filter(tournament=tournament).first()
    codes = Entry.objects.filter(tournament=tournament).values_list("team__code", flat=True)
    t = f"/t/{tournament.slug}"
    return [
        "/", "/events/", f"/e/{event.slug}/", f"/e/{event.slug}/screen/", f"/e/{event.slug}/draw/",
        f"/e/{event.slug}/draw/?draw={draw.pk}", f"/e/{event.slug}/register/", f"/e/{event.slug}/register/card/",
        f"{t}/", f"{t}/fixtures/",
        f"{t}/bracket/", f"{t}/live/", f"{t}/screen/", f"{t}/poster/", f"{t}/embed/standings/",
        f"{t}/print/standings/", f"{t}/print/fixtures/", f"{t}/calendar.ics", f"{t}/matches/{fixture.pk}/",
        *[f"{t}/teams/{code}/" for code in codes], *[f"{t}/export/{what}.csv" for what in ("fixtures", "standings")],
    ]


def _public_api(event, tournament, draw) -> list[str]:
    """Every GET of the API's schema that reads an event, a tournament or its rows, filled with this evening's."""
    schema = APIClient().get("/api/schema/?format=json").json()
    fixture = Fixture.objects.filter(tournament=tournament).first()
    entry = Entry.objects.filter(tournament=tournament).first()
    values = {"id": None, "code": entry.team.code, "division": tournament.slug}
    urls = []
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        slug = event.slug if path.startswith("/api/events/") else tournament.slug
        ident = {"/api/events/": draw.pk, "/api/fixtures/": fixture.pk, "/api/entries/": entry.pk,
                 "/api/pools/": entry.pool_id or 0, "/api/matches/": 0}
        number = next((v for k, v in ident.items() if path.startswith(k)), 0)
        url = path.replace("{slug}", slug).replace("{id}", str(number)).replace("{n}", "0")
        for name, value in values.items():
            url = url.replace("{" + name + "}", str(value))
        urls.append(url + ("?tournament=" + tournament.slug if path in ("/api/entries/", "/api/fixtures/",
                                                                         "/api/pools/") else ""))
    return urls


def test_no_public_page_or_api_answer_shows_a_surname_a_contact_or_a_name_without_consent(drawn_evening):
    event, tournament, draw = drawn_evening
    anonymous = Client()
    seen = 0
    public_names = set()
    for url in [*_public_pages(event, tournament, draw), *_public_api(event, tournament, draw)]:
        response = anonymous.get(url)
        if response.status_code != 200:
            assert response.status_code in (301, 302, 401, 403, 404, 405), (url, response.status_code)
            continue
        seen += 1
        body = response.content.decode()
        for secret in SECRETS:
            assert secret not in body, (url, secret)
        public_names.update(name for name in ("Ann Bothaadult", "Ben C.") if name in body)
    assert seen >= 30
    # The walk did see the players: the adult in full, the minor by first name and initial.
    assert public_names == {"Ann Bothaadult", "Ben C."}
    players = APIClient().get(f"/api/events/{event.slug}/players/").json()
    shy = Registration.objects.get(surname="Dlaminishy")
    assert {p["name"] for p in players} == {"Ann Bothaadult", "Ben C.", shy.entry.team.name}


def test_organisers_see_the_contacts_the_public_does_not(drawn_evening, signed_in):
    event, _t, _draw = drawn_evening
    html = signed_in.get("/e/evening/players/").content.decode()
    for secret in ("Cronjeminor", "Dlaminishy", "zanele@secret.example", "+27 82 555 0101"):
        assert secret in html


def test_the_event_api_opens_registration_sets_the_places_and_hides_surnames(organiser):
    api = APIClient()
    api.force_authenticate(organiser)
    made = api.post("/api/events/", {"name": "Quiz night", "status": "in_progress", "registration_open": True,
                                     "registration_cap": 2}, format="json")
    assert made.status_code == 201 and made.json()["registration_open"] is True
    assert made.json()["registration_cap"] == 2 and made.json()["hide_surnames"] is False
    for name in ("Ann", "Ben", "Cat"):
        APIClient().post("/api/events/quiz-night/registrations/", form(name), format="json")
    changed = api.patch("/api/events/quiz-night/", {"registration_cap": 3, "hide_surnames": True}, format="json")
    assert changed.status_code == 200 and changed.json()["hide_surnames"] is True
    assert Registration.objects.get(first_name="Cat").status == "pending"  # moved up
    refused = api.patch("/api/events/quiz-night/", {"registration_cap": 1}, format="json")
    assert refused.status_code == 409
    assert api.patch("/api/events/quiz-night/", {"registration_cap": 0}, format="json").status_code == 400


def test_the_players_page_says_when_registration_is_closed(signed_in, organiser, evening):
    """The sign-up link and QR code are on the page from the start; while registration is closed a player who
    scans them is told so, and the organiser is told how to open it."""
    event, _tournament = evening
    page = signed_in.get(f"/e/{event.slug}/players/").content.decode()
    assert 'data-testid="registration-closed"' not in page
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=False)
    page = signed_in.get(f"/e/{event.slug}/players/").content.decode()
    assert 'data-testid="registration-closed"' in page
    assert "Registration is closed" in Client().get(f"/e/{event.slug}/register/").content.decode()
