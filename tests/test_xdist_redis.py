"""Parallel test workers (pytest -n) each get a Redis database of their own (config.settings, issue 18).

Sharing scripts/test's one Redis, a worker's ``cache.clear()`` (FLUSHDB) emptied the other workers' caches and
limit counters in the middle of their tests, and a page one worker cached for its tournament 1 was served to the
other worker's tournament 1.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
SHOW = ("import django, json, os; django.setup(); from django.conf import settings as s; "
        "print(json.dumps([s.REDIS_URL, s.CACHES['default'].get('LOCATION'), s.CELERY_BROKER_URL, "
        "os.environ.get('REDIS_URL')]))")


def _settings_seen_by(worker: str, redis_url: str = "redis://127.0.0.1:6390/0") -> list[str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "REDIS_URL": redis_url,
           "PYTEST_XDIST_WORKER": worker, "CELERY_BROKER_URL": ""}
    done = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout)


def test_each_worker_has_its_own_redis_database_for_cache_broker_and_the_processes_it_starts():
    alone, first, second = _settings_seen_by(""), _settings_seen_by("gw0"), _settings_seen_by("gw1")
    assert alone == ["redis://127.0.0.1:6390/0"] * 4
    assert first == ["redis://127.0.0.1:6390/1"] * 4
    assert second == ["redis://127.0.0.1:6390/2"] * 4
    # A server or worker a test starts inherits the worker's environment: it lands on the same database.
    assert _settings_seen_by("gw1", redis_url=second[3]) == second
    # Database 9 is the integration tests' own.
    assert 9 not in settings.XDIST_REDIS_DATABASES and len(set(settings.XDIST_REDIS_DATABASES)) == 14


def test_this_run_uses_the_database_of_its_worker():
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    location = settings.CACHES["default"].get("LOCATION", "")
    if worker.startswith("gw") and settings.REDIS_URL:
        expected = settings.XDIST_REDIS_DATABASES[int(worker[2:])]
        assert location.endswith(f"/{expected}") and settings.REDIS_URL.endswith(f"/{expected}")
    elif settings.REDIS_URL:
        assert location == settings.REDIS_URL == os.environ["REDIS_URL"]
