"""A simulation run's or a fixture job's note, stored as a code and shown in the reader's language (issue 14.3).
"""

from __future__ import annotations

import html
import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from league.models import FixtureJob
from league.services import setup as setup_services
from matches.models import SimulationRun
from tests.league.core_helpers import in_french

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("league.migrations.0020_i18n14_stored_codes")
RUN_MIGRATION = importlib.import_module("matches.migrations.0007_i18n14_run_note_codes")


def test_a_simulation_runs_note_is_a_code_shown_in_the_readers_language(four, organiser, organiser_client):
    SimulationRun.objects.create(tournament=four, seed=1, status=SimulationRun.Status.FINISHED, total=6, done=4,
                                 error_code=SimulationRun.STUCK, error_params={"count": 2})
    page = in_french(organiser_client).get(reverse("matches:simulation-progress", args=["four"])).content.decode()
    assert "2 match(s) n’ont pas pu être simulés" in page and "could not be simulated" not in page
    api = APIClient().get("/api/tournaments/four/simulation/", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert api["error_code"] == "stuck" and api["error"].startswith("2 match(s) n’ont pas pu être simulés")
    english = APIClient().get("/api/tournaments/four/simulation/", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["error"].startswith("2 fixture(s) could not be simulated")


def test_a_fixture_jobs_note_is_a_code_shown_in_the_readers_language(four, organiser_client, monkeypatch):
    monkeypatch.setattr(setup_services.queue, "queue", lambda *args, **kwargs: False)  # the workers are down
    job = FixtureJob.objects.create(tournament=four, total=40000)
    setup_services._queue_job(job.pk)
    job.refresh_from_db()
    assert (job.status, job.error_code, job.error) == (FixtureJob.Status.FAILED, FixtureJob.UNREACHABLE, "")
    url = reverse("league:manage_fixture_job", args=["four", job.pk])
    assert "could not be reached" in organiser_client.get(url).content.decode()
    french = html.unescape(in_french(organiser_client).get(url).content.decode())
    assert "could not be reached" not in french and "rien n’a été généré" in french


def test_the_migrations_turn_the_known_notes_into_codes(four):
    run = SimulationRun.objects.create(tournament=four, seed=1, error="fixture 12: the engine refused")
    stuck = SimulationRun.objects.create(tournament=four, seed=2, error=(
        "3 fixture(s) could not be simulated: their teams are not known or people are playing them."))
    other = SimulationRun.objects.create(tournament=four, seed=3, error="Quelque chose d'autre.")
    RUN_MIGRATION.codes_forward(apps, None)
    for row in (run, stuck, other):
        row.refresh_from_db()
    assert (run.error_code, run.error_params) == ("fixture_failed", {"fixture": 12, "detail": "the engine refused"})
    assert (stuck.error_code, stuck.error_params, stuck.error) == ("stuck", {"count": 3}, "")
    assert (other.error_code, other.error_text) == ("", "Quelque chose d'autre.")
    job = FixtureJob.objects.create(tournament=four, status=FixtureJob.Status.FAILED,
                                    error="The workers could not be reached: nothing was generated. Try again.")
    MIGRATION.job_codes_forward(apps, None)
    job.refresh_from_db()
    assert (job.error_code, job.error) == (FixtureJob.UNREACHABLE, "")
    with translation.override("fr"):
        assert "rien n’a été généré" in job.error_text
