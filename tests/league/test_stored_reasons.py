"""Why a result changed, stored as a code and shown in the reader's language (issue 14.1).

The site's own reasons ("Full time of the live score.", "CSV import", "simulated match N", a withdrawal...) were
stored as English sentences: a French organiser read English. They are stored as a code and parameters
(``ResultChange.reason_code``/``reason_params``) and the words are made when a page or the API shows them;
what an organiser typed stays as typed. The data migration turns the known sentences into codes.
"""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from django.utils import translation

from league import services
from league.models import Entry, Fixture, ResultChange
from league.services import tournament_create_from_preset as preset_run
from league.stored_texts import RESULT_REASONS, Coded, render
from tests.league.core_helpers import fixture_between, in_french

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("league.migrations.0020_i18n14_stored_codes")
DAY = dt.date(2026, 6, 13)


@pytest.fixture
def fest(organiser):
    return preset_run("pools_knockout", name="Festival", slug="fest", user=organiser,
                      teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"], pools=2, start_date=DAY,
                      venues=["Pitch 1", "Pitch 2"], time_zone="Africa/Johannesburg")


# --- 1. result-change reasons ------------------------------------------------------------------------------------


def test_a_withdrawal_stores_a_code_and_each_reader_gets_their_language(four, organiser, organiser_client,
                                                                       organiser_api):
    with translation.override("fr"):  # saved by an organiser reading French: stored as a code all the same
        services.entry_withdraw(entry=Entry.objects.get(tournament=four, team__code="WAL"), user=organiser,
                                reason="Trop de blessés")
    walkovers = list(ResultChange.objects.filter(fixture__tournament=four))
    assert len(walkovers) == 3
    change = walkovers[0]
    assert (change.reason_code, change.reason_params, change.reason) == ("withdrew", {"team": "Wales"},
                                                                         "Trop de blessés")
    assert change.reason_text == "Wales withdrew. — Trop de blessés"
    with translation.override("fr"):
        assert change.reason_text == "Wales s’est retirée. — Trop de blessés"
    # History page and fixture page, in French; the same pages in English stay English.
    history = in_french(organiser_client).get(reverse("league:manage_history", args=["four"])).content.decode()
    assert "Wales s’est retirée." in history and "Wales withdrew." not in history
    fixture = change.fixture
    page = organiser_client.get(reverse("league:fixture", args=["four", fixture.pk])).content.decode()
    assert "Wales s’est retirée." in page
    english = Client()
    english.force_login(organiser)
    assert "Wales withdrew." in english.get(reverse("league:manage_history", args=["four"])).content.decode()
    # The API: the words in the request's language, the code and its values for programs.
    history = organiser_api.get(f"/api/fixtures/{fixture.pk}/result/history/", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert (history[0]["reason"], history[0]["reason_code"], history[0]["reason_params"]) == (
        "Wales s’est retirée. — Trop de blessés", "withdrew", {"team": "Wales"})
    # Queryable by code.
    assert ResultChange.objects.filter(fixture__tournament=four, reason_code="withdrew").count() == 3


def test_an_organisers_typed_reason_stays_as_typed(four, organiser):
    fixture = fixture_between(four, "IRE", "SCO")
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=2, user=organiser)
    services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1, user=organiser,
                           reason="Oubli d'un essai")
    change = ResultChange.objects.filter(fixture=fixture).last()
    assert (change.reason, change.reason_code) == ("Oubli d'un essai", "")
    with translation.override("af"):
        assert change.reason_text == "Oubli d'un essai"


def test_every_site_reason_renders_in_each_language():
    params = {"match": 12, "seed": 7, "side": "home", "fixture": "QF1", "team": "Fiji"}
    for language in ("en", "af", "fr"):
        with translation.override(language):
            for code in RESULT_REASONS:
                text = render(RESULT_REASONS, code, params)
                assert text and "%(" not in text, (language, code)
    with translation.override("fr"):
        assert render(RESULT_REASONS, "online_resigned", {"match": 3, "side": "away"}) == (
            "Match en ligne 3 : abandon de l’équipe extérieur")
    # An unknown code (a newer version's) never breaks a page: the stored words, if any, are shown.
    assert render(RESULT_REASONS, "from_the_future", {}, "as stored") == "as stored"


def test_the_migration_turns_the_known_reasons_into_codes_and_leaves_the_rest(fest):
    fixture = Fixture.objects.filter(tournament=fest).first()
    old = {text: ResultChange.objects.create(fixture=fixture, action="created", reason=text) for text in [
        "Full time of the live score.", "CSV import", "simulated match 41", "simulated score (seed 99)",
        "online match 7: away resigned", "Reset from QF1 by the organiser.", "Fiji withdrew.",
        "Fiji withdrew. Played results voided.", "the referee's card said 12-7"]}
    MIGRATION.codes_forward(apps, None)
    for change in old.values():
        change.refresh_from_db()
    assert [(c.reason_code, c.reason_params) for c in old.values()] == [
        ("live_full_time", {}), ("csv_import", {}), ("simulated_match", {"match": 41}),
        ("simulated_score", {"seed": 99}), ("online_resigned", {"match": 7, "side": "away"}),
        ("reset_from", {"fixture": "QF1"}), ("withdrew", {"team": "Fiji"}), ("withdrew_voided", {"team": "Fiji"}),
        ("", {})]
    assert old["the referee's card said 12-7"].reason_text == "the referee's card said 12-7"
    with translation.override("fr"):
        assert old["Fiji withdrew."].reason_text == "Fiji s’est retirée."
    # Going back writes the English sentences again.
    MIGRATION.codes_backward(apps, None)
    assert ResultChange.objects.get(pk=old["CSV import"].pk).reason == "CSV import"
    assert ResultChange.objects.get(pk=old["simulated match 41"].pk).reason == "simulated match 41"


def test_a_coded_reason_keeps_the_organisers_words():
    assert Coded("withdrew", {"team": "Fiji"}, "injuries").typed == "injuries"
