"""Simulation on real Celery workers: a real Redis broker, real worker processes, the test PostgreSQL database.

The test process makes the tournament in the test database (a transactional test, so the rows are
committed), then starts ``celery -A config worker`` and ``manage.py simulate`` as subprocesses whose
DATABASE_URL points at that test database and whose REDIS_URL uses a Redis database of their own.
Run with ``bash scripts/test tests/matches -m integration`` (it starts PostgreSQL and Redis).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from league.models import Fixture, Result, ResultChange
from league.selectors import tournament_standings
from matches.models import Match, MatchAction, QualificationOdds, SimulationRun
from tests.matches.sim_helpers import champion, results_by_key, rwc_tournament

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
# A Redis database of their own, so messages of other tests (database 0) never reach these workers.
REDIS_DB = 9

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a real Redis: set REDIS_URL "
                       "(bash scripts/test starts one)"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def worker_env():
    """The environment of the subprocesses: the test database, our Redis database, quick odds."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (workers in other processes share the test database): run bash scripts/test")
    s = connection.settings_dict
    auth = quote(s["USER"] or "") + (f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else "")
    url = f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    redis_url = os.environ["REDIS_URL"].rsplit("/", 1)[0] + f"/{REDIS_DB}"
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    env = {**os.environ, "DATABASE_URL": url, "REDIS_URL": redis_url, "CELERY_BROKER_URL": "",
           "CELERY_RESULT_BACKEND": "", "CELERY_TASK_ALWAYS_EAGER": "0", "ODDS_RUNS": "300",
           "ODDS_MODEL_MATCHES": "30", "ODDS_DELAY": "0.5", "PYTHONUNBUFFERED": "1"}
    return env


class Workers:
    """Worker processes started for one test, each in its own process group (so a kill takes its children)."""

    def __init__(self, env: dict, tmp_path: Path):
        self.env, self.tmp_path, self.procs = env, tmp_path, []

    def start(self, concurrency: int = 1, name: str = "w") -> subprocess.Popen:
        log = open(self.tmp_path / f"{name}-{len(self.procs)}.log", "wb")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen(
            [CELERY, "-A", "config", "worker", "-c", str(concurrency), "-n", f"{name}{len(self.procs)}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen, sig=signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                self.kill(proc, signal.SIGTERM)
            # Children of a killed worker may linger in its process group: end them too.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-3000:] for p in sorted(self.tmp_path.glob("*.log")))


@pytest.fixture
def workers(worker_env, tmp_path):
    w = Workers(worker_env, tmp_path)
    yield w
    w.stop_all()


def simulate(env: dict, slug: str, *args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "simulate", slug, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def wait_for(condition, timeout: float, what: str, workers: Workers):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}\n{workers.logs()}")


def assert_complete_rwc2023(tournament) -> None:
    """48 results, one per fixture, full tables, the knockout filled to the final, a champion, match logs."""
    fixtures = Fixture.objects.filter(tournament=tournament)
    assert fixtures.count() == 48
    assert Result.objects.filter(fixture__tournament=tournament).count() == 48
    assert not fixtures.filter(result__isnull=True).exists()
    # Exactly once: one "created" audit row per fixture, never an update, one match per fixture.
    assert ResultChange.objects.filter(fixture__tournament=tournament, action="created").count() == 48
    assert not ResultChange.objects.filter(fixture__tournament=tournament).exclude(action="created").exists()
    assert Match.objects.filter(fixture__tournament=tournament, status="finished").count() == 48
    for pool, rows in tournament_standings(tournament):
        assert [row.played for row in rows] == [4] * 5, pool.name
    knockout = {f.code: f for f in fixtures.filter(stage="knockout").select_related("result")}
    assert sorted(knockout) == ["BF", "F", "QF1", "QF2", "QF3", "QF4", "SF1", "SF2"]
    for f in knockout.values():
        assert f.home_id and f.away_id and f.result.winner_id in (f.home_id, f.away_id)
    assert {knockout["F"].home_id, knockout["F"].away_id} == {knockout["SF1"].result.winner_id,
                                                               knockout["SF2"].result.winner_id}
    assert champion(tournament) is not None
    # Every match's log is complete: plies 1..n.
    for match in Match.objects.filter(fixture__tournament=tournament).only("pk", "ply"):
        assert MatchAction.objects.filter(match=match).count() == match.ply > 0


def test_whole_rwc2023_tournament_on_real_workers_with_redis_same_seed_same_results(workers, worker_env):
    """One worker process with two children plays a tournament; two worker processes replay it with the
    same seed in another copy of the tournament: the results are identical, fixture by fixture."""
    tournament = rwc_tournament("real-worker", short=False)
    copy = rwc_tournament("real-worker-copy", short=False)
    first = workers.start(concurrency=2)
    done = simulate(worker_env, tournament.slug, "--seed", "3", "--timeout", "200")
    assert done.returncode == 0, done.stdout + done.stderr + workers.logs()
    assert "48/48" in done.stdout and "Champion:" in done.stdout
    assert_complete_rwc2023(tournament)
    run = SimulationRun.objects.get(tournament=tournament)
    assert (run.status, run.done, run.total, run.seed) == ("finished", 48, 48, 3)
    # The odds task ran after the results (debounced) and stored the finished tournament's certainties.
    odds = wait_for(lambda: QualificationOdds.objects.filter(tournament=tournament).first(), 60, "the odds",
                    workers)
    winners = [t for t in odds.data["teams"] if t["champion"] == 1.0]
    assert [t["team"] for t in winners] == [champion(tournament)]

    workers.kill(first, signal.SIGTERM)
    workers.start(concurrency=1, name="pair")
    workers.start(concurrency=1, name="pair")
    done = simulate(worker_env, copy.slug, "--seed", "3", "--timeout", "200")
    assert done.returncode == 0, done.stdout + done.stderr + workers.logs()
    assert results_by_key(copy) == results_by_key(tournament)
    assert len(results_by_key(copy)) == 48


def test_worker_killed_mid_tournament_a_new_worker_finishes_it_exactly_once(workers, worker_env):
    tournament = rwc_tournament("killed-worker", short=False)
    first = workers.start(concurrency=1, name="doomed")
    queued = simulate(worker_env, tournament.slug, "--seed", "4", "--no-wait")
    assert queued.returncode == 0, queued.stdout + queued.stderr
    count = lambda: Result.objects.filter(fixture__tournament=tournament).count()  # noqa: E731
    wait_for(lambda: count() >= 6, 120, "the first results", workers)
    workers.kill(first, signal.SIGKILL)
    at_kill = count()
    assert at_kill < 48, "the worker finished before it could be killed"
    time.sleep(1)
    assert count() == at_kill  # nothing moves without a worker
    workers.start(concurrency=1, name="fresh")
    wait_for(lambda: SimulationRun.objects.get(tournament=tournament).status == "finished", 180,
             "the run to finish on the new worker", workers)
    assert_complete_rwc2023(tournament)
    # No half-written match was left behind by the killed worker.
    assert Match.objects.filter(fixture__isnull=True).count() == 0
