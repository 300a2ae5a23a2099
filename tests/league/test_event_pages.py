"""The event's pages: the public page (every division, now and next per pitch, share link and QR code), the
big screen, and the organiser's page (create, add divisions, plan, schedule the day, push, co-organisers) with
bad input (form errors, 403, 404, never a 500) and fixed query counts."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from league import services
from league.models import Division, Event, Fixture, Tournament
from league.services import events as event_services
from tests.league.test_events import DAY, PITCHES, league_division, make_event
from tests.worlds import class_world, world_row

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def signed_in(client, organiser):
    client.force_login(organiser)
    return client


def _day_world() -> dict:
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    event = make_event(organiser)
    league_division(event, organiser, "u11", ["FRA", "NZL", "IRE", "RSA"])
    league_division(event, organiser, "u13", ["ENG", "ARG", "WAL", "FIJ"])
    event_services.event_schedule(event=event, user=organiser)
    return {"organiser": organiser, "day": event}


class TestTheDay:
    """The organiser's scheduled day of two divisions, made once for the class of the 9 tests that use it
    (tests/worlds.py), each test in a savepoint of it."""

    _world = class_world(_day_world)
    organiser = world_row("organiser")
    day = world_row("day")

    def test_public_page_shows_every_division_now_and_next_and_share(self, client, day):
        first = Fixture.objects.filter(tournament__division__event=day).order_by("kickoff", "id").first()
        now = first.kickoff + dt.timedelta(minutes=5)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(timezone, "now", lambda: now)
            page = client.get("/e/festival/")
        html = page.content.decode()
        assert page.status_code == 200
        assert 'id="division-u11"' in html and 'id="division-u13"' in html
        assert html.count('class="fixture') >= 12  # both divisions' fixtures
        assert "On the pitches now and next" in html and "Pitch 1" in html
        assert "/e/festival/qr.svg" in html and "http://testserver/e/festival/" in html
        qr = client.get("/e/festival/qr.svg")
        assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content
        screen = client.get("/e/festival/screen/")
        assert screen.status_code == 200 and screen.content.decode().count('class="slide"') == 3

    def test_draft_event_and_draft_division_are_hidden(self, client, organiser, day):
        draft = make_event(organiser, slug="secret", status=Tournament.Status.DRAFT)
        assert client.get("/e/secret/").status_code == 404
        assert client.get("/e/nope/").status_code == 404
        assert client.get("/e/secret/manage/").status_code == 302  # to sign in
        services.tournament_update(tournament=Tournament.objects.get(slug="u13"), status=Tournament.Status.DRAFT)
        html = client.get("/e/festival/").content.decode()
        assert 'id="division-u11"' in html and 'id="division-u13"' not in html
        client.force_login(organiser)
        assert client.get(f"/e/{draft.slug}/").status_code == 200

    @pytest.mark.parametrize("data, message", [
        ({"action": "settings", "event-name": "X", "event-first_kickoff": "09:00", "event-slot_minutes": "0",
          "event-changeover_minutes": "5", "event-rest_minutes": "0", "event-visibility": "public",
          "event-status": "in_progress"}, "Ensure this value is greater than or equal to 1."),
        ({"action": "settings", "event-name": "X", "event-first_kickoff": "09:00", "event-finish_by": "08:00",
          "event-slot_minutes": "20", "event-changeover_minutes": "5", "event-rest_minutes": "0",
          "event-visibility": "public", "event-status": "in_progress", "event-pitches": "A"},
         "The day must finish after its first kick-off."),
        ({"action": "push", "push-after": "09:00", "push-minutes": "0"}, "Give a number of minutes other than 0."),
        ({"action": "push", "push-after": "23:00", "push-minutes": "5"}, "No fixture still to play kicks off"),
        ({"action": "new_division", "new-name": "", "new-format": "league", "new-points_system": "world_rugby"},
         "This field is required."),
        ({"action": "add_division", "add-tournament": "u11"}, "Select a valid choice."),
        ({"action": "organiser", "org-username": "nobody"}, "No user is called"),
        ({"action": "bogus"}, "Choose one of the forms below."),
    ])
    def test_organiser_page_bad_input_is_shown_not_a_500(self, signed_in, day, data, message):
        before = sorted(Fixture.objects.values_list("pk", "kickoff", "venue"))
        response = signed_in.post("/e/festival/manage/", data, follow=True)
        assert response.status_code == 200
        assert message in response.content.decode()
        assert sorted(Fixture.objects.values_list("pk", "kickoff", "venue")) == before

    def test_a_clash_on_the_event_page_is_refused_with_its_message(self, signed_in, day):
        day.finish_by = None
        event_services.event_update(event=day, finish_by=dt.time(9, 30))
        response = signed_in.post("/e/festival/manage/", {"action": "schedule"}, follow=True)
        assert "does not fit by" in response.content.decode()

    def test_others_get_403_and_404(self, client, day, django_user_model):
        stranger = django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")
        client.force_login(stranger)
        assert client.get("/e/festival/manage/").status_code == 403
        assert client.post("/e/festival/manage/", {"action": "schedule"}).status_code == 403
        assert client.get("/e/nope/manage/").status_code == 404
        assert client.get("/events/").status_code == 200
        assert client.get("/events/new/").status_code == 200

    def test_division_schedule_page_links_back_to_the_event(self, signed_in, day):
        html = signed_in.get("/t/u11/manage/schedule/").content.decode()
        assert "/e/festival/manage/" in html

    @pytest.mark.parametrize("page", ["", "teams/", "fixtures/", "results/", "settings/"])
    def test_every_division_page_leads_back_to_its_event(self, signed_in, day, page):
        """An organiser sent to a division's pages after adding it finds the way back to the event's day."""
        html = signed_in.get(f"/t/u11/manage/{page}").content.decode()
        crumbs = html.split('<p class="crumbs">', 1)[1].split("</p>", 1)[0]
        assert '<a href="/e/festival/manage/">' in crumbs

    def test_a_tournament_on_its_own_has_no_event_crumb(self, signed_in, day, organiser):
        services.tournament_create(name="Alone", slug="alone", user=organiser)
        crumbs = signed_in.get("/t/alone/manage/").content.decode().split('<p class="crumbs">', 1)[1].split("</p>")[0]
        assert "/e/" not in crumbs and "/t/alone/manage/" in crumbs

    def test_manage_page_shows_stored_clashes(self, signed_in, day):
        fixtures = list(Fixture.objects.filter(tournament__slug__in=["u11", "u13"]).order_by("kickoff", "id")[:2])
        # Stored straight (as an old import might have left them): the page warns, it does not hide them.
        Fixture.objects.filter(pk=fixtures[1].pk).update(kickoff=fixtures[0].kickoff, venue=fixtures[0].venue)
        html = signed_in.get("/e/festival/manage/").content.decode()
        assert "The day has clashes:" in html and "double-booked" in html
        assert DAY and PITCHES


def test_public_page_runs_a_fixed_number_of_queries(client, organiser, django_assert_max_num_queries):
    """A small day and one with twice the divisions and many more teams cost the same once the divisions'
    parts are cached (they are cached under each tournament's version)."""
    small = make_event(organiser, slug="small")
    league_division(small, organiser, "s1", ["FRA", "NZL"])
    event_services.event_schedule(event=small)
    large = make_event(organiser, slug="large")
    for index, teams in enumerate((["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"], ["WAL", "FIJ", "SCO", "AUS"])):
        league_division(large, organiser, f"l{index}", teams)
    event_services.event_schedule(event=large)
    for event in (small, large):
        client.get(f"/e/{event.slug}/", HTTP_COOKIE="sessionid=warm")  # builds the divisions' parts
        with django_assert_max_num_queries(5):
            assert client.get(f"/e/{event.slug}/", HTTP_COOKIE="sessionid=x").status_code == 200
        visitor = Client()
        visitor.get(f"/e/{event.slug}/")
        with django_assert_max_num_queries(2):  # anonymous: the page from the cache
            assert visitor.get(f"/e/{event.slug}/").status_code == 200


def test_organiser_flow_on_the_web(signed_in, organiser):
    page = signed_in.post("/events/new/", {
        "name": "School festival", "day": "2026-06-13", "first_kickoff": "09:00", "slot_minutes": "15",
        "changeover_minutes": "5", "rest_minutes": "10", "pitches": "A\nB\nC\nD", "time_zone": "Africa/Johannesburg",
        "visibility": "public", "status": "in_progress"})
    assert page.status_code == 302 and page["Location"] == "/e/school-festival/manage/"
    assert signed_in.get("/e/school-festival/manage/").status_code == 200
    made = signed_in.post("/e/school-festival/manage/", {"action": "new_division", "new-name": "Under 9",
                                                          "new-format": "league", "new-points_system": "world_rugby"})
    assert made.status_code == 302 and made["Location"] == "/t/school-festival-under-9/manage/"
    services.tournament_create_from_preset("league", name="Under 11", slug="u11", teams=["FRA", "NZL", "IRE"],
                                           user=organiser)
    added = signed_in.post("/e/school-festival/manage/", {"action": "add_division", "add-tournament": "u11"})
    assert added.status_code == 302
    assert Division.objects.filter(event__slug="school-festival").count() == 2
    scheduled = signed_in.post("/e/school-festival/manage/", {"action": "schedule"}, follow=True)
    assert "The day is scheduled: 3 fixtures placed with no clash." in scheduled.content.decode()
    html = scheduled.content.decode()
    assert "event-grid" in html and "/t/u11/manage/schedule/" in html
    pushed = signed_in.post("/e/school-festival/manage/", {"action": "push", "push-after": "09:00",
                                                            "push-minutes": "10"}, follow=True)
    assert "3 fixtures moved by 10 minutes." in pushed.content.decode()
    kickoffs = sorted(Fixture.objects.filter(tournament__slug="u11").values_list("kickoff", flat=True))
    assert kickoffs[0].astimezone(Event.objects.get(slug="school-festival").zone).strftime("%H:%M") == "09:10"
    removed = signed_in.post("/e/school-festival/manage/", {"action": "remove_division", "tournament": "u11"})
    assert removed.status_code == 302 and not Division.objects.filter(tournament__slug="u11").exists()


def test_an_organiser_publishes_a_draft_event_from_its_page(signed_in, organiser):
    """A new event is a draft (its public page a 404 for parents); one button on its page publishes it and its
    divisions, as "Publish" does on a tournament's page."""
    event = make_event(organiser, slug="draft-day", status=Tournament.Status.DRAFT)
    league_division(event, organiser, "d-u11", ["FRA", "NZL", "IRE", "RSA"])
    Tournament.objects.filter(slug="d-u11").update(status=Tournament.Status.DRAFT)
    page = signed_in.get("/e/draft-day/manage/").content.decode()
    assert "A draft: only its organisers see this event" in page and 'value="publish"' in page
    visitor = Client()
    assert visitor.get("/e/draft-day/").status_code == 404
    response = signed_in.post("/e/draft-day/manage/", {"action": "publish"})
    assert response.status_code == 302
    assert Event.objects.get(slug="draft-day").status == Tournament.Status.IN_PROGRESS
    assert Tournament.objects.get(slug="d-u11").status == Tournament.Status.IN_PROGRESS
    assert visitor.get("/e/draft-day/").status_code == 200
    assert 'value="publish"' not in signed_in.get("/e/draft-day/manage/").content.decode()
