"""Simulation on real Celery workers: a real Redis broker, real worker processes, a real PostgreSQL database.

Everything runs in subprocesses against a PostgreSQL database of this module's own (created next to the
test database on the server of DATABASE_URL, migrated or copied from a parallel run's migrated template, dropped
at the end): ``manage.py create_tournament``,
``celery -A config worker`` and ``manage.py simulate``, as an organiser would run them. The checks read the
database through ``manage.py shell`` too. (Not pytest-django's test database: the workers must see
committed rows, and a transactional test's flush would fight other transactional tests of the suite.)
The subprocesses use a Redis database of their own, so messages of other tests never reach these workers.

Run with ``bash scripts/test tests/matches`` (it starts PostgreSQL and Redis); skipped without them.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.live_site import fresh_database

ROOT = Path(__file__).resolve().parents[2]
CELERY = str(Path(sys.executable).with_name("celery"))
REDIS_DB = 9

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs a real Redis: set REDIS_URL "
                       "(bash scripts/test starts one)"),
    pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                       reason="needs PostgreSQL in DATABASE_URL (bash scripts/test starts one)"),
]


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def _redis_url() -> str:
    """A Redis database that no other test uses meanwhile, whose queue the Celery workers started here take tasks
    from: in a parallel run, the test worker's own (config.settings gives each pytest-xdist worker one: the two tests
    may run at once on two workers, and an xdist_group cannot keep them on one, since pytest-xdist 3.8 marks its
    groups in item._nodeid, which pytest 9 no longer reads); else database REDIS_DB."""
    url = os.environ["REDIS_URL"]
    return url if os.environ.get("PYTEST_XDIST_WORKER") else url.rsplit("/", 1)[0] + f"/{REDIS_DB}"


@pytest.fixture(scope="module")
def env():
    """The subprocesses' environment: a fresh migrated database, our Redis database, quick odds."""
    base = os.environ["DATABASE_URL"]
    name = f"rugby_it_{uuid.uuid4().hex[:10]}"
    migrated = fresh_database(base, name)
    redis_url = _redis_url()
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    env = {**os.environ, "DATABASE_URL": base.rsplit("/", 1)[0] + f"/{name}", "REDIS_URL": redis_url,
           "CELERY_BROKER_URL": "", "CELERY_RESULT_BACKEND": "", "CELERY_TASK_ALWAYS_EAGER": "0",
           "ODDS_RUNS": "300", "ODDS_MODEL_MATCHES": "30", "ODDS_DELAY": "0.5", "PYTHONUNBUFFERED": "1",
           # A killed worker's unacknowledged task comes back after 10 s (and is then skipped or played).
           "CELERY_VISIBILITY_TIMEOUT": "10", "CONN_MAX_AGE": "0"}
    try:
        if not migrated:
            manage(env, "migrate", "--noinput", "-v", "0")
        yield env
    finally:
        _admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(env: dict, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def new_tournament(env: dict, slug: str, *, short: bool) -> str:
    manage(env, "create_tournament", "--preset", "rwc2023", "--name", slug, "--slug", slug, "--ruleset",
           "rugby-league-cards")
    if short:  # in SQL, as Tournament.objects.filter(...).update(...) does, without a Django process's start
        import psycopg
        from psycopg.types.json import Jsonb

        with psycopg.connect(env["DATABASE_URL"]) as conn:
            conn.execute("UPDATE league_tournament SET ruleset_options = %s WHERE slug = %s",
                         [Jsonb({"sets_per_half": 2}), slug])
    return slug


REPORT = """
import json
from league.models import Tournament, Result
from matches.models import SimulationRun, QualificationOdds
from tests.matches.sim_helpers import champion, results_by_key, rwc2023_problems
t = Tournament.objects.get(slug={slug!r})
run = SimulationRun.objects.filter(tournament=t).order_by("-pk").first()
odds = QualificationOdds.objects.filter(tournament=t).first()
print(json.dumps({{
    "results": Result.objects.filter(fixture__tournament=t).count(),
    "by_key": {{k: list(v) for k, v in results_by_key(t).items()}} if {full} else None,
    "problems": rwc2023_problems(t) if {full} else None,
    "champion": champion(t) if {full} else None,
    "run": run and {{"status": run.status, "done": run.done, "total": run.total, "seed": run.seed}},
    "odds_champions": odds and [x["team"] for x in odds.data["teams"] if x["champion"] == 1.0],
}}))
"""


def query(env: dict, code: str) -> str:
    done = manage(env, "shell", "-c", "from league.models import Tournament\n" + code)
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def report(env: dict, slug: str, *, full: bool = True) -> dict:
    return json.loads(query(env, REPORT.format(slug=slug, full=full)))


def results_now(env: dict, slug: str) -> int:
    """The tournament's results, counted in SQL at once: ``report`` starts Django in a process of its own, seconds
    on a busy machine, long enough for a worker to play the whole tournament between two looks."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as conn:
        row = conn.execute("SELECT count(*) FROM league_result r JOIN league_fixture f ON f.id = r.fixture_id "
                           "JOIN league_tournament t ON t.id = f.tournament_id WHERE t.slug = %s", [slug]).fetchone()
    return row[0]


def odds_champions(env: dict, slug: str) -> list[str]:
    """The teams whose stored odds make them champion for certain, read in SQL as ``results_now`` does: polled
    through ``report``, each look started Django in a process of its own (seconds of CPU, taken from the workers
    being waited for)."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as conn:
        row = conn.execute("SELECT o.data FROM matches_qualificationodds o JOIN league_tournament t "
                           "ON t.id = o.tournament_id WHERE t.slug = %s", [slug]).fetchone()
    return [x["team"] for x in row[0]["teams"] if x["champion"] == 1.0] if row else []


def run_status(env: dict, slug: str) -> str:
    """The status of the tournament's latest simulation run, read in SQL (as ``odds_champions``)."""
    import psycopg

    with psycopg.connect(env["DATABASE_URL"]) as conn:
        row = conn.execute("SELECT r.status FROM matches_simulationrun r JOIN league_tournament t "
                           "ON t.id = r.tournament_id WHERE t.slug = %s ORDER BY r.id DESC LIMIT 1", [slug]).fetchone()
    return row[0] if row else ""


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
            proc.wait(timeout=30)
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
def workers(env, tmp_path):
    w = Workers(env, tmp_path)
    yield w
    w.stop_all()


def simulate(env: dict, slug: str, *args: str, workers: Workers) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "manage.py", "simulate", slug, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr + workers.logs()
    return done


def wait_for(condition, timeout: float, what: str, workers: Workers):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}\n{workers.logs()}")


def test_whole_rwc2023_tournament_on_real_workers_with_redis_same_seed_same_results(env, workers):
    """One worker with two processes plays a 20-team rwc2023 tournament of the card game end to end; two
    worker processes replay it with the same seed in a copy of the tournament: identical, fixture by fixture.
    Short matches (two sets a half): what is tested is the workers' sharing of the tournament and the seeds, not
    the length of a match (tests/engine plays whole ones); the 96 whole matches were most of the test's 4 minutes."""
    slug = new_tournament(env, "real-worker", short=True)
    copy = new_tournament(env, "real-worker-copy", short=True)
    first = workers.start(concurrency=2)
    done = simulate(env, slug, "--seed", "3", "--timeout", "240", workers=workers)
    assert "48/48" in done.stdout and "Champion:" in done.stdout
    state = report(env, slug)
    assert state["problems"] == [], state["problems"]
    assert state["run"] == {"status": "finished", "done": 48, "total": 48, "seed": 3}
    assert f"({state['champion']})" in done.stdout
    # The odds task ran after the results (debounced) and stored the finished tournament's certainty.
    wait_for(lambda: odds_champions(env, slug), 90, "the odds", workers)
    assert report(env, slug, full=False)["odds_champions"] == [state["champion"]]

    workers.kill(first, signal.SIGTERM)
    workers.start(concurrency=1, name="pair")
    workers.start(concurrency=1, name="pair")
    simulate(env, copy, "--seed", "3", "--timeout", "240", workers=workers)
    again = report(env, copy)
    assert again["problems"] == []
    assert len(again["by_key"]) == 48
    assert again["by_key"] == state["by_key"]


def test_worker_killed_mid_tournament_a_new_worker_finishes_it_exactly_once(env, workers):
    slug = new_tournament(env, "killed-worker", short=False)
    first = workers.start(concurrency=1, name="doomed")
    simulate(env, slug, "--seed", "4", "--no-wait", workers=workers)
    wait_for(lambda: results_now(env, slug) >= 6, 180, "the first results", workers)
    workers.kill(first, signal.SIGKILL)
    at_kill = results_now(env, slug)
    assert at_kill < 48, "the worker finished before it could be killed"
    time.sleep(1)
    assert results_now(env, slug) == at_kill  # nothing moves without a worker
    workers.start(concurrency=1, name="fresh")
    wait_for(lambda: run_status(env, slug) == "finished", 240, "the run to finish on the new worker", workers)
    state = report(env, slug)
    # 48 results, exactly one per fixture (one "created" audit row each, no update), no orphan match.
    assert state["problems"] == [], state["problems"]
    assert state["run"]["done"] == 48
