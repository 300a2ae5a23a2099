"""A real site in subprocesses, as the demo and production serve it: gunicorn (two processes, eight threads each),
DEBUG off, static files from WhiteNoise, on a database of its own -- a fresh SQLite file (the demo's default) or a
fresh PostgreSQL database next to the test database of ``DATABASE_URL``.

Concurrency is only real there: pytest-django's live server shares one connection for an in-memory SQLite
database and runs in the test's process. Used by the tests of simultaneous moves (issue 19).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_available() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres")


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql)


def fresh_database(base: str, name: str) -> bool:
    """Create the database ``name`` on the server of ``base`` (a PostgreSQL URL): a copy of the parallel run's migrated
    template when there is one on that server (True: nothing to migrate; a ``manage.py migrate`` costs some 20 s of
    CPU, a copy a fraction of a second), else empty (False: the caller migrates it)."""
    import psycopg

    template = os.environ.get("RUGBY_TEST_DATABASE_TEMPLATE", "")  # set by tests/conftest.py in a parallel worker
    with psycopg.connect(base, autocommit=True) as conn:
        if template and conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
            return True
        conn.execute(f'CREATE DATABASE "{name}"')
        return False


class LiveSite:
    """Start with :meth:`start`, stop with :meth:`stop` (or use it as a context manager)."""

    def __init__(self, kind: str, folder: Path, static_root: Path, redis_url: str = "",
                 sqlite_template: Path | None = None):
        """``sqlite_template``: a migrated SQLite database (``migrated_sqlite``) that a SQLite site starts from as a
        copy instead of migrating its own."""
        self.kind = kind
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.pg_name = ""
        self.migrated = False
        if kind == "sqlite":
            database_url = f"sqlite:///{folder / 'site.sqlite3'}"
            if sqlite_template is not None:
                shutil.copyfile(sqlite_template, folder / "site.sqlite3")
                self.migrated = True
        else:
            base = os.environ["DATABASE_URL"]
            self.pg_name = f"rugby_site_{uuid.uuid4().hex[:10]}"
            self.migrated = fresh_database(base, self.pg_name)
            database_url = base.rsplit("/", 1)[0] + f"/{self.pg_name}"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_ALLOW"))},
            "DATABASE_URL": database_url, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(40),
            "SECURE_SSL_REDIRECT": "false", "SECURE_COOKIES": "false", "SECURE_HSTS_SECONDS": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost", "VAR_DIR": str(folder), "STATIC_ROOT": str(static_root),
            "REDIS_URL": redis_url, "CELERY_BROKER_URL": "", "CELERY_RESULT_BACKEND": "", "ODDS_AFTER_RESULT": "false",
            "CONN_MAX_AGE": "0", "PYTHONUNBUFFERED": "1",
        }

    def manage(self, *args: str, stdin: str | None = None, timeout: float = 300) -> str:
        done = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=self.env, input=stdin, text=True,
                              capture_output=True, timeout=timeout)
        if done.returncode:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
        return done.stdout

    def shell_json(self, code: str) -> object:
        """Run Python in ``manage.py shell`` on the site's database; its last line printed is JSON."""
        out = self.manage("shell", "--no-imports", stdin=code)
        return json.loads(out.strip().splitlines()[-1])

    def start(self) -> LiveSite:
        if not self.migrated:
            self.manage("migrate", "--noinput", "-v", "0")
        log = (self.folder / "gunicorn.log").open("wb")
        self.proc = subprocess.Popen(
            [GUNICORN, "config.wsgi:application", "-b", f"127.0.0.1:{self.port}", "-w", "2", "--threads", "8",
             "--timeout", "120", "--graceful-timeout", "5"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.folder / "gunicorn.log").read_text())
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.url + "/matches/join/", timeout=2)
                return self
            time.sleep(0.3)
        raise RuntimeError("the site did not start:\n" + (self.folder / "gunicorn.log").read_text())

    def log(self) -> str:
        path = self.folder / "gunicorn.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self.proc = None
        if self.pg_name:
            with contextlib.suppress(Exception):
                _admin(os.environ["DATABASE_URL"], f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')
            self.pg_name = ""
        self.migrated = False

    def __enter__(self) -> LiveSite:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def made_once_per_run(base: Path, name: str, make: Callable[[Path], None]) -> Path:
    """``base/name``, made by ``make(path)`` for the first process of the test run that asks for it; the others wait
    for it (a lock) and share it. Made in a folder of another name, renamed when whole."""
    base.mkdir(parents=True, exist_ok=True)
    made = base / name
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not made.exists():
            partial = base / f"{name}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            make(partial)
            partial.rename(made)
    return made


def migrate_sqlite(folder: Path) -> None:
    """A migrated SQLite database, ``folder/site.sqlite3``: what a SQLite site's ``manage.py migrate`` makes (some 6 s
    of CPU on a quiet machine), for ``LiveSite`` to copy."""
    folder.mkdir(parents=True)
    site = LiveSite("sqlite", folder, folder)
    site.manage("migrate", "--noinput", "-v", "0")


def collect_static(static_root: Path) -> None:
    """The site's static files (DEBUG off serves the hashed, compressed copies): tests/conftest.py's ``static_root``
    collects them once per test run."""
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "collect", "STATIC_ROOT": str(static_root)}
    subprocess.run([PYTHON, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True,
                   capture_output=True, timeout=600)


# Two players with API tokens and ``n`` live friendlies of the card game between them (a person each side).
SETUP = """
import json
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from matches import services
home, _ = User.objects.get_or_create(username="hannah")
away, _ = User.objects.get_or_create(username="ari")
for user, password in ((home, "pw-hannah-1"), (away, "pw-ari-1")):
    user.set_password(password)
    user.save()
tokens = [Token.objects.get_or_create(user=u)[0].key for u in (home, away)]
matches = []
for i in range({n}):
    match = services.match_create_friendly(ruleset="rugby-league-cards", user=home, home="me", away=away, seed=100 + i,
                                           options={{"sets_per_half": 1}})
    matches.append({{"pk": match.pk, "codes": [s.join_code for s in match.seats.order_by("seat")]}})
print(json.dumps({{"tokens": tokens, "matches": matches}}))
"""
