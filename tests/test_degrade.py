"""Degrade, don't fail (issue 16.3): the site keeps serving when Redis or PostgreSQL blink.

Each test starts servers of its own (``tests.servers``) and stops, hangs (SIGSTOP) or restarts them mid-test:
* Redis down, then hanging: every page and API call that does not need the broker still answers, quickly, and
  a result is still recorded (the cache fails open: ``config.cache``);
* the broker down or hanging: starting a simulation says so (503 with a body on the API, a message on the
  page) and leaves nothing half-started; a simulation already going waits and is handed out again later;
* PostgreSQL restarted under a running gunicorn: the next request answers 200 (``CONN_HEALTH_CHECKS``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from celery import current_app
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.cache import cache_reset
from league.models import Result, Tournament
from matches import services as match_services
from matches import simulation, tasks, workers
from matches.models import SimulationRun
from tests.league.api_factories import make_tournament
from tests.servers import free_port, postgres_server, redis_server, wait_for

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _forget_outages():
    """The next test finds the cache and the broker as if nothing had failed in this process."""
    yield
    cache_reset()
    workers.broker_reset()


def _cache_on(settings, redis) -> None:
    settings.CACHES = {"default": {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": redis.url,
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    settings.CACHE_RETRY_SECONDS = 3
    cache_reset()


@pytest.fixture
def league(organiser):
    tournament = make_tournament("blink", user=organiser, teams=("FRA", "NZL", "IRE", "RSA"))
    return tournament


def _pages(tournament) -> list[str]:
    fixture = tournament.fixtures.first()
    return ["/", "/t/blink/", "/t/blink/teams/FRA/", f"/t/blink/matches/{fixture.pk}/", "/t/blink/export/results.csv",
            "/t/blink/calendar.ics", "/api/tournaments/blink/standings/", f"/api/fixtures/{fixture.pk}/",
            "/api/teams/?nation=true"]


def _everything_answers(tournament, organiser, *, result_score: int) -> float:
    """Visit the pages, the API, sign in by token, join by code and record a result; return the seconds taken."""
    started = time.monotonic()
    anon = Client()
    for url in _pages(tournament):
        assert anon.get(url).status_code == 200, url
    api = APIClient()
    assert api.post("/api/token/", {"username": "organiser", "password": "pw-organiser-1"},
                    format="json").status_code == 200
    code = match_services.entry_pass_for(tournament.entries.first()).code
    assert Client().post("/matches/join/", {"code": code}).status_code == 302
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=organiser)[0].key}")
    fixture = tournament.fixtures.filter(result__isnull=True).first()
    response = api.post(f"/api/fixtures/{fixture.pk}/result/", {"home_score": result_score, "away_score": 3,
                                                                "home_tries": 2, "away_tries": 0}, format="json")
    assert response.status_code == 201, response.content
    assert Result.objects.get(fixture=fixture).home_score == result_score
    # The page shows the new result at once (the cache never served an old version).
    assert str(result_score) in anon.get(f"/t/blink/matches/{fixture.pk}/").content.decode()
    return time.monotonic() - started


@pytest.mark.django_db
def test_redis_stopped_mid_test_every_page_answers_and_the_result_is_recorded(settings, league, organiser):
    with redis_server() as redis:
        _cache_on(settings, redis)
        cache.set("probe", 1)
        assert cache.get("probe") == 1  # the cache is Redis
        _everything_answers(league, organiser, result_score=17)
        redis.stop()
        _everything_answers(league, organiser, result_score=23)
        assert cache.get("probe") is None  # a miss, not an error


@pytest.mark.django_db
def test_redis_hanging_costs_a_request_a_fraction_of_a_second(settings, league, organiser):
    with redis_server() as redis:
        _cache_on(settings, redis)
        _everything_answers(league, organiser, result_score=17)
        redis.hang()
        try:
            seconds = _everything_answers(league, organiser, result_score=23)
        finally:
            redis.resume()
    # About 17 requests: without the short timeouts and the fail-open cache each one would wait for Redis.
    assert seconds < 8, seconds


@pytest.fixture
def broker(settings):
    """Point the Celery app's broker at a URL for the test (and forget past failures), then back."""
    conf = current_app.conf
    old = conf.broker_url, conf.task_always_eager, conf.broker_transport_options
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def use(url: str) -> None:
        conf.broker_url = url
        conf.task_always_eager = False
        # What the settings give a Redis broker (REDIS_URL set at start-up): short socket timeouts.
        conf.broker_transport_options = {"socket_timeout": 2, "socket_connect_timeout": 2}
        workers.broker_reset()

    yield use
    conf.broker_url, conf.task_always_eager, conf.broker_transport_options = old
    workers.broker_reset()


@pytest.mark.django_db
def test_starting_a_simulation_with_the_broker_down_says_so_and_starts_nothing(league, organiser, broker):
    broker(f"redis://127.0.0.1:{free_port()}/0")  # nothing listens there
    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post("/api/tournaments/blink/simulation/", {"stage": "all"}, format="json")
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "broker_unavailable" and "nothing was started" in body["detail"]
    assert not SimulationRun.objects.exists()
    page = Client()
    page.force_login(organiser)
    response = page.post("/t/blink/manage/simulate/", {"stage": "all"}, follow=True)
    assert "cannot be reached" in response.content.decode()
    assert not SimulationRun.objects.exists()


@pytest.mark.django_db
def test_starting_a_simulation_with_the_broker_hanging_answers_503_quickly(league, organiser, broker):
    with redis_server() as redis:
        broker(redis.url)
        redis.hang()
        api = APIClient()
        api.force_authenticate(organiser)
        started = time.monotonic()
        response = api.post("/api/tournaments/blink/simulation/", {"stage": "all"}, format="json")
        assert response.status_code == 503
        assert time.monotonic() - started < 10
        assert not SimulationRun.objects.exists()


@pytest.mark.django_db
def test_a_running_simulation_waits_for_the_broker_and_is_handed_out_again(league, organiser, broker, settings,
                                                                           monkeypatch):
    run = simulation.simulation_create(tournament=league, stage="all", user=organiser, seed=5)
    first = simulation.run_queue_ready(run_id=run.pk)[0]
    broker(f"redis://127.0.0.1:{free_port()}/0")

    def broker_down(*args, **kwargs):
        raise OSError("Connection refused")

    # The fixture is played and recorded; queueing the next ones fails: the run keeps going, it does not fail.
    monkeypatch.setattr(tasks.simulate_fixture, "delay", broker_down)
    assert tasks.simulate_fixture.run(run.pk, first) == "played"
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.RUNNING and run.done >= 1
    # Once the broker is back, the periodic task hands the rest out again (played here in this process).
    monkeypatch.undo()
    settings.SIMULATION_STALL_SECONDS = 0
    current_app.conf.task_always_eager = True
    SimulationRun.objects.filter(pk=run.pk).update(started_at=run.started_at.replace(year=2000))
    Result.objects.filter(fixture__tournament=league).update(updated_at=run.started_at.replace(year=2000))
    assert run.pk in simulation.stalled_runs(seconds=0)
    assert tasks.resume_stalled_runs.run() == 1
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.FINISHED and run.done == run.total == league.fixtures.count()


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except (urllib.error.URLError, ConnectionError):
        return 0  # not listening (yet)


def test_postgresql_restarted_the_next_request_answers_200(tmp_path):
    with postgres_server() as postgres:
        env = {**os.environ, "DATABASE_URL": postgres.url, "REDIS_URL": "", "DEBUG": "true", "CONN_MAX_AGE": "600",
               "VAR_DIR": str(tmp_path), "CELERY_BROKER_URL": "memory://"}
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True,
                       capture_output=True, timeout=300)
        port = free_port()
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "1",
             "--timeout", "60"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for(lambda: _get(f"{base}/api/teams/") == 200, 60)
            assert _get(f"{base}/api/teams/?nation=true") == 200  # the worker keeps its connection (CONN_MAX_AGE)
            postgres.restart()
            # The kept connection died with the restart: the health check replaces it, no 500.
            assert [_get(f"{base}/api/teams/?nation=true") for _ in range(3)] == [200, 200, 200]
            assert _get(f"{base}/") == 200
        finally:
            gunicorn.terminate()
            gunicorn.wait(30)
    assert Tournament is not None
