"""The production mode (issue 16.10): ``bash scripts/serve`` serves the site as production does, and a simulated
tournament completes through it over HTTP, started from a fresh clone of the commit under test (only what git
holds: no ``var/``, no collected static files; the clone's ``.venv`` is this checkout's, as in a worktree, so the
test needs no package index).

It runs against the test command's PostgreSQL (a database of its own) and Redis (a database number of its own);
without them (a quick local run on SQLite) it starts its own (``tests.servers``). The site is called as a TLS
proxy in front of it would: ``X-Forwarded-Proto: https`` (with DEBUG off plain HTTP is redirected).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.servers import free_port, postgres_server, redis_server, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.integration


@contextlib.contextmanager
def servers():
    """(DATABASE_URL, REDIS_URL) for the served site: the test command's servers, or our own."""
    database, redis = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if database.startswith("postgres") and redis:
        import psycopg

        name = f"rugby_serve_{secrets.token_hex(4)}"
        with psycopg.connect(database, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        parts = urlsplit(database)
        try:
            yield urlunsplit(parts._replace(path=f"/{name}")), urlunsplit(urlsplit(redis)._replace(path="/5"))
        finally:
            with psycopg.connect(database, autocommit=True) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        return
    with postgres_server() as pg, redis_server() as own_redis:
        yield pg.url, own_redis.url


def call(base: str, path: str, data: dict | None = None, token: str = "") -> tuple[int, dict]:
    headers = {"X-Forwarded-Proto": "https", "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    body = None
    if data is not None:
        body = json.dumps(data).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=body, headers=headers, method="POST" if body else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read()
            return response.status, json.loads(text) if text.strip().startswith((b"{", b"[")) else {}
    except urllib.error.HTTPError as error:
        return error.code, {}
    except (urllib.error.URLError, ConnectionError):
        return 0, {}


def _env(database: str, redis: str, tmp_path: Path, **extra: str) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "DEBUG",
                          "PYTEST_CURRENT_TEST", "PYTEST_ADDOPTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DATABASE_URL=database, REDIS_URL=redis, SECRET_KEY=secrets.token_urlsafe(50), VAR_DIR=str(tmp_path),
               STATIC_ROOT=str(tmp_path / "static"), PORT=str(free_port()), WEB_WORKERS="1", WORKERS="1",
               ODDS_RUNS="200", ODDS_MODEL_MATCHES="20")
    env.update(extra)
    return env


def fresh_clone(tmp_path: Path) -> Path:
    """A clone of the commit checked out here, with this checkout's virtualenv (see the module)."""
    clone = tmp_path / "clone"
    for command in (["git", "init", "-q", str(clone)], ["git", "-C", str(clone), "fetch", "-q", str(ROOT), "HEAD"],
                    ["git", "-C", str(clone), "checkout", "-q", "FETCH_HEAD"]):
        subprocess.run(command, check=True, capture_output=True, timeout=120)
    (clone / ".venv").symlink_to((ROOT / ".venv").resolve())
    # The files are as new as the clone: left so, scripts/lib.sh would reinstall the requirements from PyPI.
    for requirements in (clone / "requirements").glob("*.txt"):
        os.utime(requirements, (0, 0))
    return clone


def test_serve_refuses_a_development_secret_key(tmp_path):
    env = _env("postgres://rugby@127.0.0.1:1/rugby", "redis://127.0.0.1:1/0", tmp_path,
               SECRET_KEY="django-insecure-local-development-key-change-me")
    run = subprocess.run(["bash", "scripts/serve"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "development key" in run.stderr


def test_serve_runs_a_simulated_tournament_over_http(tmp_path):
    with servers() as (database, redis):
        clone = fresh_clone(tmp_path)
        env = _env(database, redis, tmp_path)
        base = f"http://127.0.0.1:{env['PORT']}"
        log = (tmp_path / "serve.log").open("w")
        serve = subprocess.Popen(["bash", "scripts/serve"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        try:
            wait_for(lambda: call(base, "/api/teams/?nation=true")[0] == 200 or serve.poll() is not None, 180)
            assert serve.poll() is None, (tmp_path / "serve.log").read_text()[-3000:]
            # DEBUG is off: plain HTTP (no proxy header) is redirected to HTTPS; the error pages are the site's own.
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(urllib.request.Request(base + "/nowhere/",
                                                              headers={"X-Forwarded-Proto": "https"}), timeout=10)
            manage = [str(clone / ".venv/bin/python"), "manage.py"]
            subprocess.run([*manage, "createsuperuser", "--noinput", "--username", "club", "--email", "c@example.org"],
                           cwd=clone, env={**env, "DEBUG": "false", "DJANGO_SUPERUSER_PASSWORD": "a-long-pass-phrase"},
                           check=True, capture_output=True, timeout=120)
            status, body = call(base, "/api/token/", {"username": "club", "password": "a-long-pass-phrase"})
            assert status == 200
            token = body["token"]
            status, body = call(base, "/api/tournaments/", {
                "name": "Club sevens", "slug": "club-sevens", "preset": "pools_knockout", "status": "in_progress",
                "teams": ["FRA", "NZL", "IRE", "RSA", "ENG", "WAL", "SCO", "ARG"],
                "preset_options": {"pools": 2, "qualifiers": 2}}, token=token)
            assert status == 201, body
            status, run = call(base, "/api/tournaments/club-sevens/simulation/", {"stage": "all", "seed": 7},
                               token=token)
            assert status == 202, run
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                status, run = call(base, "/api/tournaments/club-sevens/simulation/")
                if run.get("status") != "running":
                    break
                time.sleep(1)
            assert run["status"] == "finished" and run["done"] == run["total"] > 0, run
            status, bracket = call(base, "/api/tournaments/club-sevens/bracket/")
            final = [match for rounds in bracket for match in rounds][-1]
            assert status == 200 and final["winner"], final
        finally:
            os.killpg(serve.pid, signal.SIGTERM)
            serve.wait(120)
            log.close()
        # Every process it started stopped with it.
        assert subprocess.run(["pgrep", "-s", str(serve.pid)], capture_output=True).stdout == b""
