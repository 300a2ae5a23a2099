"""The organiser's schedule pages and the schedule API: moves, swaps, pushes and the plan of the days; bad input
is a form error or a 400/404/409 with a message, never a 500, and changes nothing."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from league.forms import TournamentSettingsForm
from league.models import AuditRecord, Fixture, ScheduleChange
from league.services import tournament_create_from_preset as preset_run
from league.services import tournament_save
from tests.league.bad_input_helpers import database_digest
from tests.worlds import class_world, world_row

pytestmark = pytest.mark.django_db

SAST = ZoneInfo("Africa/Johannesburg")
DAY = dt.date(2026, 6, 13)


def _fest_world() -> dict:
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    fest = preset_run("pools_knockout", name="Festival", slug="fest", user=organiser,
                      teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"], pools=2, start_date=DAY,
                      venues=["Pitch 1", "Pitch 2"], time_zone="Africa/Johannesburg")
    return {"organiser": organiser, "fest": fest}


def first_pool(tournament):
    return Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).order_by("kickoff", "venue")


def local(fixture):
    fixture.refresh_from_db()
    return fixture.kickoff.astimezone(SAST).strftime("%H:%M")


# --- pages, and the API on a festival --------------------------------------------------------------------------


def test_an_unscheduled_tournament_opens_the_plan_of_the_day(organiser_client, organiser):
    """Fixtures made without a day: the page says so at the top and opens the plan, no push-back form."""
    preset_run("pools_knockout", name="Later", slug="later", user=organiser,
               teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"], pools=2)
    html = organiser_client.get(reverse("league:manage_schedule", args=["later"])).content.decode()
    assert "No fixture has a day or a pitch yet." in html and '<a href="#plan-h">' in html
    assert "<details open>\n  <summary id=\"plan-h\">" in html and 'id="push-form"' not in html


class TestTheFestival:
    """The organiser's festival of two pools on two pitches in Johannesburg's time, made once for the class of the
    12 tests that use it (tests/worlds.py), each test in a savepoint of it."""

    _world = class_world(_fest_world)
    organiser = world_row("organiser")
    fest = world_row("fest")

    def test_schedule_page_lists_the_day_in_local_time(self, organiser_client, fest, django_assert_max_num_queries):
        url = reverse("league:manage_schedule", args=["fest"])
        with django_assert_max_num_queries(20):
            response = organiser_client.get(url)
        html = response.content.decode()
        assert response.status_code == 200
        assert "Times are in Africa/Johannesburg." in html and "09:00 SAST" in html
        assert html.count("Move or swap") == Fixture.objects.filter(tournament=fest).count()

    def test_move_page_moves_and_refuses_a_clash_on_the_form(self, organiser_client, fest):
        a, b = first_pool(fest)[:2]
        url = reverse("league:manage_schedule_fixture", args=["fest", b.pk])
        assert organiser_client.get(url).status_code == 200
        response = organiser_client.post(url, {"action": "move", "move-day": DAY.isoformat(), "move-time": "09:00",
                                         "move-venue": "Pitch 3", "move-reason": "pitch 2 flooded"})
        assert response.status_code == 302
        assert local(b) == "09:00" and b.venue == "Pitch 3"
        assert ScheduleChange.objects.get(tournament=fest).reason == "pitch 2 flooded"
        # The same pitch at an overlapping time: refused, named, nothing stored.
        before = database_digest()
        response = organiser_client.post(url, {"action": "move", "move-day": DAY.isoformat(),
                                               "move-time": a.kickoff.astimezone(SAST).strftime("%H:%M"),
                                               "move-venue": a.venue})
        html = response.content.decode()
        assert response.status_code == 200 and "would be double-booked" in html and a.venue in html
        assert database_digest() == before

    @pytest.mark.parametrize("data", [
        {"action": "move"},
        {"action": "move", "move-day": "13/06/2026", "move-time": "25:00"},
        {"action": "move", "move-day": "0001-01-01", "move-time": "10:00"},
        {"action": "move", "move-day": "2026-06-13", "move-time": "10:00", "move-venue": "x" * 200},
        {"action": "swap", "swap-other": "abc"},
        {"action": "swap", "swap-other": "999999999999999999999"},
        {"action": "teleport"},
    ])
    def test_bad_moves_are_form_errors(self, organiser_client, fest, data):
        fixture = first_pool(fest).first()
        before = database_digest()
        response = organiser_client.post(reverse("league:manage_schedule_fixture", args=["fest", fixture.pk]), data)
        assert response.status_code in (200, 302)
        assert database_digest() == before

    @pytest.mark.parametrize("data", [
        {"action": "push", "push-day": DAY.isoformat(), "push-after": "12:00", "push-minutes": "0"},
        {"action": "push", "push-day": DAY.isoformat(), "push-after": "12:00", "push-minutes": "abc"},
        {"action": "push", "push-day": "2030-01-01", "push-after": "12:00", "push-minutes": "20"},
        {"action": "push", "push-day": DAY.isoformat(), "push-after": "23:59", "push-minutes": "20"},
        {"action": "push", "push-day": DAY.isoformat(), "push-after": "12:00", "push-minutes": "-300"},
        {"action": "plan", "plan-first_kickoff": "9am", "plan-slot_minutes": "0", "plan-days_between_rounds": "-1"},
        {"action": "plan", "plan-first_kickoff": "09:00", "plan-slot_minutes": "30", "plan-days_between_rounds": "0",
         "plan-venues": "P1, p1"},
    ])
    def test_bad_pushes_and_plans_are_form_errors(self, organiser_client, fest, data):
        before = database_digest()
        response = organiser_client.post(reverse("league:manage_schedule", args=["fest"]), data)
        assert response.status_code == 200
        assert b"errorlist" in response.content
        assert database_digest() == before

    def test_push_page_pushes_the_afternoon(self, organiser_client, fest):
        knockouts = list(Fixture.objects.filter(tournament=fest, stage=Fixture.Stage.KNOCKOUT))
        before = {f.pk: f.kickoff for f in knockouts}
        first_ko = min(before.values()).astimezone(SAST).strftime("%H:%M")
        response = organiser_client.post(reverse("league:manage_schedule", args=["fest"]), {
            "action": "push", "push-day": DAY.isoformat(), "push-after": first_ko, "push-minutes": "20"})
        assert response.status_code == 302
        for f in knockouts:
            f.refresh_from_db()
            assert f.kickoff - before[f.pk] == dt.timedelta(minutes=20)
        page = organiser_client.get(reverse("league:manage_schedule", args=["fest"])).content.decode()
        assert "moved by +20 minutes" in page

    def test_strangers_cannot_see_or_change_the_schedule(self, fest, django_user_model):
        stranger = Client()
        stranger.force_login(django_user_model.objects.create_user("stranger", password="pw"))
        fixture = first_pool(fest).first()
        assert stranger.get(reverse("league:manage_schedule", args=["fest"])).status_code == 403
        assert stranger.post(reverse("league:manage_schedule_fixture", args=["fest", fixture.pk]),
                             {"action": "move", "move-day": DAY.isoformat(), "move-time": "18:00"}).status_code == 403

    def test_api_fixture_times_are_local_and_a_naive_kickoff_is_local(self, organiser_api, fest):
        fixture = Fixture.objects.get(tournament=fest, code="F")  # nothing comes after the final
        data = organiser_api.get(f"/api/fixtures/{fixture.pk}/").json()
        assert data["time_zone"] == "Africa/Johannesburg" and data["kickoff"].endswith("+02:00")
        response = organiser_api.patch(f"/api/fixtures/{fixture.pk}/",
                                       {"kickoff": "2026-06-13T19:00:00", "venue": "Pitch 9"}, format="json")
        assert response.status_code == 200, response.json()
        assert response.json()["kickoff"] == "2026-06-13T19:00:00+02:00"
        assert local(fixture) == "19:00"
        assert ScheduleChange.objects.filter(tournament=fest, action="move").count() == 1

    def test_api_clash_is_a_409_naming_it(self, organiser_api, fest):
        a, b = first_pool(fest)[:2]
        before = database_digest()
        response = organiser_api.patch(f"/api/fixtures/{b.pk}/", {"kickoff": a.kickoff.isoformat(), "venue": a.venue},
                                       format="json")
        assert response.status_code == 409
        assert response.json()["code"] == "clash" and "double-booked" in response.json()["detail"]
        assert database_digest() == before

    def test_api_swap_push_plan_and_history(self, organiser_api, fest, client):
        a, b = first_pool(fest)[:2]
        response = organiser_api.post(f"/api/fixtures/{a.pk}/swap/", {"other": b.pk}, format="json")
        assert response.status_code == 200 and len(response.json()) == 2
        assert organiser_api.post(f"/api/fixtures/{a.pk}/swap/", {"other": 10**9}, format="json").status_code == 404
        assert organiser_api.post(f"/api/fixtures/{a.pk}/swap/", {"other": "x"}, format="json").status_code == 400
        response = organiser_api.post("/api/tournaments/fest/push/",
                                      {"day": DAY.isoformat(), "after": "12:00", "minutes": 20}, format="json")
        assert response.status_code == 200 and response.json()["fixtures"] > 0
        assert organiser_api.post("/api/tournaments/fest/push/",
                                  {"day": DAY.isoformat(), "after": "12:00", "minutes": 0},
                                  format="json").status_code == 400
        response = organiser_api.post("/api/tournaments/fest/schedule/", {
            "first_day": "2026-06-20", "first_kickoff": "10:00", "slot_minutes": 20, "changeover_minutes": 5,
            "pitches": ["A", "B", "C"]}, format="json")
        assert response.status_code == 200, response.json()
        assert {f.kickoff.astimezone(SAST).date() for f in Fixture.objects.filter(tournament=fest)} == {
            dt.date(2026, 6, 20)}
        assert organiser_api.post("/api/tournaments/fest/schedule/", {"pitches": ["A", "a"]},
                                  format="json").status_code == 400
        history = organiser_api.get("/api/tournaments/fest/schedule-changes/").json()
        assert [h["action"] for h in history] == ["retime", "push", "swap"]
        assert client.get("/api/tournaments/fest/schedule-changes/").status_code in (401, 403)
        tournament = organiser_api.get("/api/tournaments/fest/").json()
        assert (tournament["time_zone"], tournament["first_kickoff"], tournament["pitches"]) == (
            "Africa/Johannesburg", "10:00", ["A", "B", "C"])

    def test_api_time_zone_is_checked(self, organiser_api, fest):
        assert organiser_api.patch("/api/tournaments/fest/", {"time_zone": "Mars/Base"},
                                   format="json").status_code == 400
        response = organiser_api.patch("/api/tournaments/fest/", {"time_zone": "Pacific/Auckland"}, format="json")
        assert response.status_code == 200
        fixture = first_pool(fest).first()
        assert fixture.kickoff.astimezone(ZoneInfo("Pacific/Auckland")).strftime("%H:%M") == "09:00"
        created = organiser_api.post("/api/tournaments/", {"name": "New", "slug": "new-one", "format": "swiss",
                                                 "time_zone": "Africa/Johannesburg"}, format="json")
        assert created.status_code == 201 and created.json()["days_between_rounds"] == 0  # a Swiss evening: one day

    def test_schedule_changes_are_in_the_one_history_and_a_zone_change_is_recorded_once(self, organiser_client, fest,
                                                                                        organiser):
        # Issue 14.8: the organiser reads one trail; the settings page's zone change keeps local times and is
        # recorded once (in the schedule's trail), not again as a settings change.
        b = first_pool(fest)[1]
        organiser_client.post(reverse("league:manage_schedule_fixture", args=["fest", b.pk]),
                        {"action": "move", "move-day": DAY.isoformat(), "move-time": "09:00", "move-venue": "Pitch 3",
                         "move-reason": "pitch 2 flooded"})
        data = {k: v for k, v in TournamentSettingsForm.initial_for(fest).items() if v is not None}
        data.update(time_zone="Pacific/Auckland", name="Festival day")
        response = organiser_client.post(reverse("league:manage_settings", args=["fest"]), data)
        assert response.status_code == 302, response.content.decode()
        b.refresh_from_db()
        assert b.kickoff.astimezone(ZoneInfo("Pacific/Auckland")).strftime("%H:%M") == "09:00"
        assert ScheduleChange.objects.filter(tournament=fest, action="zone").count() == 1
        settings_rows = AuditRecord.objects.filter(tournament=fest, action=AuditRecord.Action.SETTINGS_CHANGED)
        assert [(row.old, row.new) for row in settings_rows] == [({"name": "Festival"}, {"name": "Festival day"})]
        html = organiser_client.get(reverse("league:manage_history", args=["fest"])).content.decode()
        assert "Schedule: Moved" in html and "pitch 2 flooded" in html
        assert html.count("Schedule: Time zone changed") == 1 and "Pacific/Auckland" in html
        assert "Settings changed" in html and "Festival day" in html

    def test_a_zone_changed_in_the_admin_keeps_local_times_too(self, fest, organiser):
        fixture = first_pool(fest)[0]
        fest.time_zone = "Europe/Paris"
        tournament_save(tournament=fest, user=organiser)
        fixture.refresh_from_db()
        assert fixture.kickoff.astimezone(ZoneInfo("Europe/Paris")).strftime("%H:%M") == "09:00"
        assert ScheduleChange.objects.filter(tournament=fest, action="zone").count() == 1


# --- API -----------------------------------------------------------------------------------------------------


def test_api_preset_with_a_bad_plan_is_a_400(organiser_api):
    for options in ({"venues": ["P1", "p1"]}, {"slot_minutes": 0}, {"changeover_minutes": -5}):
        response = organiser_api.post("/api/tournaments/", {"name": "Bad", "slug": "bad-plan", "preset": "cup_plate",
                                                  "teams": ["FRA", "NZL", "IRE", "RSA"], "preset_options": options},
                            format="json")
        assert response.status_code == 400, (options, response.status_code)


