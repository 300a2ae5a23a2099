"""Limits (issue 16.4), from the settings: teams per tournament, fixtures (large generations on the workers, with
progress), the size of every import (web and API) and the length of its error list; bad numbers in an import."""

from __future__ import annotations

import pytest
from celery import current_app
from django.urls import reverse
from rest_framework.test import APIClient

from league import services
from league.errors import DomainError
from league.models import Fixture, FixtureJob, Result, Team
from tests.league.api_factories import make_tournament

pytestmark = pytest.mark.django_db
EIGHT = ("FRA", "NZL", "IRE", "RSA", "ENG", "WAL", "SCO", "ARG")


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_teams_per_tournament(settings, organiser):
    settings.MAX_TEAMS_PER_TOURNAMENT = 4
    tournament = make_tournament("small", user=organiser, teams=("FRA", "NZL", "IRE"), fixtures=False)
    services.entries_add(tournament=tournament, teams=["RSA"])
    with pytest.raises(DomainError, match="at most 4 teams"):
        services.entries_add(tournament=tournament, teams=["ENG"])
    response = _api(organiser).post("/api/entries/", {"tournament": "small", "team": "ENG"}, format="json")
    assert response.status_code == 400 and "at most 4 teams" in str(response.json())
    assert tournament.entries.count() == 4


def test_a_large_generation_runs_on_the_workers_with_a_progress_page(settings, organiser, client,
                                                                     django_capture_on_commit_callbacks):
    settings.FIXTURES_PER_REQUEST = 10
    tournament = make_tournament("big", user=organiser, teams=EIGHT, fixtures=False)  # 28 fixtures
    client.force_login(organiser)
    eager = current_app.conf.task_always_eager
    current_app.conf.task_always_eager = False
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            response = client.post(reverse("league:manage_fixtures", args=["big"]), {
                "first_kickoff": "10:00", "slot_minutes": 30, "days_between_rounds": 0, "venues": ""})
    finally:
        current_app.conf.task_always_eager = eager
    job = FixtureJob.objects.get(tournament=tournament)
    assert response.status_code == 302 and response["Location"].endswith(f"/manage/fixtures/jobs/{job.pk}/")
    assert not Fixture.objects.filter(tournament=tournament).exists()  # nothing written in the request
    assert len(callbacks) == 1
    page = client.get(response["Location"])
    assert "28 fixtures are waiting for a worker" in page.content.decode() and b'hx-trigger="every 2s"' in page.content
    services.fixture_job_run(job_id=job.pk)  # what the worker's task does
    job.refresh_from_db()
    assert job.status == FixtureJob.Status.FINISHED and job.done == 28
    assert Fixture.objects.filter(tournament=tournament).count() == 28
    partial = client.get(response["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "28 fixtures generated" in partial and "every 2s" not in partial


def test_small_generations_stay_in_the_request(settings, organiser):
    settings.FIXTURES_PER_REQUEST = 100
    tournament = make_tournament("few", user=organiser, teams=EIGHT, fixtures=False)
    assert services.fixtures_generate_or_queue(tournament=tournament, user=organiser) is None
    assert Fixture.objects.filter(tournament=tournament).count() == 28


def test_fixtures_per_tournament_are_bounded(settings, organiser):
    settings.MAX_FIXTURES_PER_TOURNAMENT = 20
    tournament = make_tournament("capped", user=organiser, teams=EIGHT, fixtures=False)
    with pytest.raises(DomainError, match="at most 20"):
        services.fixtures_generate_or_queue(tournament=tournament, user=organiser)
    with pytest.raises(DomainError, match="at most 20"):
        services.fixtures_generate_round_robin(tournament=tournament)
    assert not Fixture.objects.filter(tournament=tournament).exists()


def test_the_default_limits_take_a_thousand_team_league(organiser, django_capture_on_commit_callbacks):
    """Out of the box (no setting raised) a 1,000-team league is accepted and its 499,500 fixtures go to the
    workers; its double round robin (999,000) is refused with the way forward."""
    Team.objects.bulk_create([Team(code=f"K{i:03d}", name=f"Club {i}") for i in range(1000)])
    tournament = make_tournament("thousand", user=organiser, teams=(), fixtures=False)
    services.entries_add(tournament=tournament, teams=[f"K{i:03d}" for i in range(1000)], pool="A")
    with pytest.raises(DomainError, match="999,000 fixtures"):
        services.fixtures_generate_or_queue(tournament=tournament, user=organiser, double=True)
    with django_capture_on_commit_callbacks(execute=False):
        job = services.fixtures_generate_or_queue(tournament=tournament, user=organiser)
    assert job is not None and job.total == 499_500
    with pytest.raises(DomainError, match="at most 1000 teams"):
        services.entries_add(tournament=tournament, teams=["FRA"], pool="A")


def test_a_preset_too_large_for_a_request_is_refused_with_the_way_forward(settings, organiser):
    settings.FIXTURES_PER_REQUEST = 10
    response = _api(organiser).post("/api/tournaments/", {"name": "Big", "slug": "big", "preset": "league",
                                                          "teams": list(EIGHT)}, format="json")
    assert response.status_code == 400 and "Fixtures page" in str(response.json()["teams"])


def test_only_round_robins_count_against_a_request(settings, organiser):
    """A preset's fixtures are counted as its format makes them: 16 teams are 120 league fixtures (too many for a
    request of 100) but 15 knockout matches (made at once)."""
    settings.FIXTURES_PER_REQUEST = 100
    Team.objects.bulk_create([Team(code=f"K{i:02d}", name=f"Club {i}", owner=organiser) for i in range(16)])
    teams = [f"K{i:02d}" for i in range(16)]
    league = _api(organiser).post("/api/tournaments/", {"name": "League", "slug": "league", "preset": "league",
                                                        "teams": teams}, format="json")
    assert league.status_code == 400 and "120" in str(league.json()["teams"])
    cup = _api(organiser).post("/api/tournaments/", {"name": "Cup", "slug": "cup", "preset": "single_elimination",
                                                     "teams": teams}, format="json")
    assert cup.status_code == 201, cup.json()
    assert Fixture.objects.filter(tournament__slug="cup").count() == 15


def test_imports_are_size_limited_web_and_api(settings, organiser, client):
    make_tournament("imp", user=organiser, teams=("FRA", "NZL"))
    settings.MAX_UPLOAD_BYTES = 2000
    big = "A,1,2027-03-06,FRA,NZL,24,17,3,2\n" * 100  # 3.3 kB
    response = _api(organiser).post("/api/tournaments/imp/results-import/", {"csv": big}, format="json")
    assert response.status_code == 400 and "too large" in str(response.json())
    settings.MAX_REQUEST_BYTES = 3000
    response = _api(organiser).post("/api/tournaments/imp/results-import/", {"csv": big * 2}, format="json")
    assert response.status_code == 413 and "too large" in response.json()["detail"]
    client.force_login(organiser)
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = client.post(reverse("league:manage_results_import", args=["imp"]),
                       {"file": SimpleUploadedFile("r.csv", big.encode()[:2500], content_type="text/csv")})
    assert page.status_code == 200 and "too large" in page.content.decode()
    assert not Result.objects.exists()


def test_the_error_list_of_an_import_is_capped(settings, organiser):
    settings.MAX_IMPORT_ERRORS = 5
    make_tournament("errs", user=organiser, teams=("FRA", "NZL"))
    rows = "".join(f"A,1,,XX{n},NZL,1,2,0,0\n" for n in range(40))
    response = _api(organiser).post("/api/tournaments/errs/results-import/", {"csv": rows}, format="json")
    assert response.status_code == 400
    messages = response.json()["detail"]
    assert len(messages) == 6 and messages[-1].startswith("… and 35 more lines")


@pytest.mark.parametrize("score", ["²", "--5", "٣", "9" * 5000, "1e3"])
def test_bad_numbers_in_an_import_are_a_line_numbered_error(organiser, score):
    make_tournament("nums", user=organiser, teams=("FRA", "NZL"))
    text = f"pool,round,date,home,away,home_score,away_score,home_tries,away_tries\nA,1,,FRA,NZL,{score},3,1,0\n"
    response = _api(organiser).post("/api/tournaments/nums/results-import/", {"csv": text}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["detail"][0].startswith("Line 2:")
    assert not Result.objects.exists()
