"""The cache's mirror across real processes: a gunicorn site (two worker processes) on PostgreSQL and Redis, and a
result recorded by a third process (``manage.py shell``, as a Celery worker or another web worker would).

Every worker keeps the tournament's row after the first reads (no cache round trip); the result's change is
published, and within moments every answer of every worker has it -- far less than the minute a kept value may live
on this site, so a change not heard would show as stale answers here.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.core.cache import cache

from tests.live_site import LiveSite, postgres_available

pytestmark = [pytest.mark.integration]

SETUP = """
import json
from league import services
tournament = services.tournament_create_from_preset("rwc2023", name="Mirror Cup", slug="mirror-cup")
print(json.dumps({"slug": tournament.slug}))
"""

RECORD = """
import json
from league import services
from league.models import Fixture
fixture = Fixture.objects.filter(tournament__slug="mirror-cup", status="scheduled", pool__isnull=False)
fixture = fixture.order_by("id")[0]
services.result_record(fixture=fixture, home_score=40, away_score=0, home_tries=6, away_tries=0)
print(json.dumps({"fixture": fixture.pk}))
"""


@pytest.fixture
def site(static_root, tmp_path):
    if not postgres_available() or "Redis" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("needs PostgreSQL and Redis (bash scripts/test starts them)")
    site = LiveSite("postgresql", tmp_path, static_root, redis_url=settings.CACHES["default"]["LOCATION"])
    site.env["CELERY_TASK_ALWAYS_EAGER"] = "true"
    site.env["CACHE_MIRROR_SECONDS"] = "60"  # a change not heard would be served stale for a minute
    with site:
        yield site
        assert "Traceback" not in site.log(), site.log()


def _redis():
    return cache._cache.get_client(write=True)


def _played(site, slug: str) -> int:
    """The matches played by all teams in one answer of the standings API."""
    with urllib.request.urlopen(f"{site.url}/api/tournaments/{slug}/standings/", timeout=10) as response:
        tables = json.loads(response.read())
    return sum(row["played"] for table in tables for row in table["rows"])


def _answers(site, slug: str, count: int = 80) -> list[int]:
    """``count`` answers, eight at a time (spread over the workers)."""
    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(lambda _: _played(site, slug), range(count)))


def test_a_result_recorded_by_another_process_is_in_every_workers_next_answers(site):
    slug = site.shell_json(SETUP)["slug"]
    before = _answers(site, slug)  # the workers read, then keep, the tournament's row
    assert set(before) == {0}
    # The workers listen for changes (their mirrors are on): a listener's connection to Redis each.
    listeners = {entry["name"].split("-")[2] for entry in _redis().client_list(_type="pubsub")
                 if entry["name"].startswith("rugby-mirror-")} - {str(os.getpid())}
    assert listeners, "no worker of the site listens"
    site.shell_json(RECORD)
    # Every worker hears the change at once: within 3 s (a loaded machine's scheduling), far less than the minute
    # a kept value may live on this site, so a change not heard would leave stale answers for that minute.
    started = time.monotonic()
    while set(_answers(site, slug, 16)) != {2}:  # one match: two teams have played
        assert time.monotonic() - started < 3, "a worker still answers with the row from before the result"
    after = _answers(site, slug)
    assert set(after) == {2}, after
