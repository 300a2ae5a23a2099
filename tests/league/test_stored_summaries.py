"""Timetable and registration changes, stored as codes and shown in the reader's language (issue 14.2).

Their summaries were translated when saved, so the trail was in the language of whoever made the change. They
are stored as a code and parameters (``summary_code``/``summary_params``), a kick-off as an ISO time with its
zone, and the words are made when shown. The data migration recognises the summaries saved in English,
Afrikaans or French; any other text is shown as stored.
"""

from __future__ import annotations

import datetime as dt
import html
import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation

from league import services
from league.models import Fixture, RegistrationChange, ScheduleChange
from league.services import events as event_services
from league.services import registrations as reg_services
from league.services import tournament_create_from_preset as preset_run
from league.timezones import short_label
from tests.league.core_helpers import in_french
from tests.league.test_events import make_event

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("league.migrations.0020_i18n14_stored_codes")
DAY = dt.date(2026, 6, 13)


@pytest.fixture
def fest(organiser):
    return preset_run("pools_knockout", name="Festival", slug="fest", user=organiser,
                      teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"], pools=2, start_date=DAY,
                      venues=["Pitch 1", "Pitch 2"], time_zone="Africa/Johannesburg")


def test_a_schedule_change_is_a_code_shown_in_the_readers_language(fest, organiser, organiser_client,
                                                                   organiser_api):
    fixture = Fixture.objects.filter(tournament=fest, stage=Fixture.Stage.KNOCKOUT).order_by("kickoff").last()
    with translation.override("af"):
        services.fixture_move(fixture=fixture, kickoff=fixture.kickoff + dt.timedelta(hours=2), venue="Pitch 3",
                              user=organiser, reason="rain")
        services.fixtures_push(tournament=fest, day=DAY, after=dt.time(9, 0), minutes=20, user=organiser)
    moved, pushed = ScheduleChange.objects.filter(tournament=fest).order_by("id")
    assert (moved.summary, moved.summary_code, moved.reason) == ("", "moved", "rain")
    assert moved.summary_params["tz"] == "Africa/Johannesburg" and moved.summary_params["where"] == ", Pitch 3"
    assert pushed.summary_code == "pushed" and pushed.summary_params["minutes"] == "+20"
    assert moved.summary_text.endswith(" SAST, Pitch 3.") and " moved to " in moved.summary_text
    page = in_french(organiser_client).get(reverse("league:manage_schedule", args=["fest"])).content.decode()
    assert " déplacé à " in page and " décalés de +20 minutes" in page and " moved to " not in page
    history = organiser_client.get(reverse("league:manage_history", args=["fest"])).content.decode()
    assert " déplacé à " in history
    api = organiser_api.get("/api/tournaments/fest/schedule-changes/", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert [row["summary_code"] for row in api] == ["pushed", "moved"]
    assert "décalés de +20 minutes" in api[0]["summary"] and api[1]["reason"] == "rain"


def test_a_summary_saved_before_the_codes_is_shown_as_stored(fest):
    old = ScheduleChange.objects.create(tournament=fest, action="move", summary="Eine alte Zusammenfassung.")
    with translation.override("fr"):
        assert old.summary_text == "Eine alte Zusammenfassung."


def test_registration_changes_are_codes_shown_in_the_readers_language(organiser, organiser_client):
    event = make_event(organiser, slug="evening")
    reg_services.registration_settings_save(event=event, user=organiser, registration_open=True, registration_cap=1)
    event_services.division_create(event=event, name="Cup", user=organiser)
    with translation.override("fr"):
        ann = reg_services.registration_create(event=event, first_name="Ann", surname="Botha")
        ben = reg_services.registration_create(event=event, first_name="Ben", surname="Smith")
    reg_services.registration_remove(registration=ann, user=organiser)
    codes = list(RegistrationChange.objects.filter(event=event).order_by("id").values_list("summary_code",
                                                                                           "summary"))
    assert codes == [("settings_changed", ""), ("registered_place", ""), ("registered_waiting", ""), ("removed", ""),
                     ("moved_up_after_removal", "")]
    moved = RegistrationChange.objects.get(event=event, summary_code="moved_up_after_removal")
    assert moved.registration_id == ben.pk
    assert moved.summary_text == f"#{ben.number} Ben moved up from the waiting list (#{ann.number} Ann removed)."
    page = html.unescape(in_french(organiser_client).get("/e/evening/players/").content.decode())
    assert f"#{ben.number} Ben s'est inscrit (sur la liste d'attente)." in page
    assert "a quitté la liste d'attente (#" in page and "registered (" not in page


def test_the_migration_turns_summaries_in_every_language_into_codes(fest):
    with translation.override("fr"):  # a kick-off as a French page labelled it
        french_when = short_label(dt.datetime(2026, 6, 13, 7, tzinfo=dt.UTC), "Africa/Johannesburg")
    summaries = {
        "fr": ScheduleChange.objects.create(
            tournament=fest, action="move", summary=f"France v Fiji (Pool A) déplacé à {french_when}, Pitch 2."),
        "af_push": ScheduleChange.objects.create(
            tournament=fest, action="push",
            summary="4 wedstryde vanaf 13:00 op 2026-06-13 met +20 minute geskuif."),
        "en_undecided": ScheduleChange.objects.create(
            tournament=fest, action="move", summary="France v Fiji (Pool A) moved to a time to be decided."),
        "unknown": ScheduleChange.objects.create(tournament=fest, action="move", summary="Moved by hand."),
    }
    MIGRATION.codes_forward(apps, None)
    for change in summaries.values():
        change.refresh_from_db()
    assert summaries["fr"].summary_code == "moved" and summaries["fr"].summary_params["where"] == ", Pitch 2"
    assert summaries["fr"].summary_params["fixture"] == "France v Fiji (Pool A)"
    assert summaries["en_undecided"].summary_params["when"] is None
    assert (summaries["af_push"].summary_code, summaries["af_push"].summary_params) == (
        "pushed", {"count": 4, "time": "13:00", "day": "2026-06-13", "minutes": "+20"})
    with translation.override("fr"):
        assert summaries["en_undecided"].summary_text == "France v Fiji (Pool A) déplacé à une heure à déterminer."
    assert (summaries["unknown"].summary_code, summaries["unknown"].summary_text) == ("", "Moved by hand.")
    MIGRATION.codes_backward(apps, None)
    assert ScheduleChange.objects.get(pk=summaries["af_push"].pk).summary == (
        "4 fixtures from 13:00 on 2026-06-13 moved by +20 minutes.")


def test_the_migration_recognises_registration_summaries_in_every_language(organiser):
    event = make_event(organiser, slug="evening")
    texts = {
        "en": "#3 Sam registered (on the waiting list).",
        "fr": "#4 Léa a quitté la liste d'attente (plus de places).",
        "af": "#5 Jan het van die waglys opgeskuif (#2 Piet verwyder).",
        "drawn": "4 players drawn in Cup (Random draw, seed 42).",
        "unknown": "Something else.",
    }
    rows = {key: RegistrationChange.objects.create(event=event, action="edited", summary=text)
            for key, text in texts.items()}
    MIGRATION.registration_codes_forward(apps, None)
    found = {key: (RegistrationChange.objects.get(pk=row.pk).summary_code,
                   RegistrationChange.objects.get(pk=row.pk).summary_params) for key, row in rows.items()}
    assert found["en"] == ("registered_waiting", {"player": "#3 Sam"})
    assert found["fr"] == ("moved_up_more_places", {"player": "#4 Léa"})
    assert found["af"] == ("moved_up_after_removal", {"player": "#5 Jan", "removed": "#2 Piet"})
    assert found["drawn"] == ("drawn_seed", {"count": 4, "division": "Cup", "method": "random", "seed": 42})
    assert found["unknown"] == ("", {})
    MIGRATION.registration_codes_backward(apps, None)
    assert RegistrationChange.objects.get(pk=rows["drawn"].pk).summary == texts["drawn"]
