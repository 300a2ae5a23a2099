"""What the benchmarks run on: PostgreSQL and Redis as production has them, gunicorn, Apache's ``ab`` as the load
generator, and paired rounds against a baseline.

``services()`` uses DATABASE_URL (a PostgreSQL URL) and REDIS_URL when both are set; otherwise it starts a
throw-away PostgreSQL cluster (PostgreSQL's default durability: fsync and synchronous commits on, as in
production) and Redis server on free local ports, and removes them at the end; ``database(sqlite=True)`` is a
temporary SQLite file instead. ``servers_then_rerun()`` does the same through ``scripts/lib.sh`` for the HTTP
benches (the script runs again inside, so both servers stop whatever happens). ``django_setup()`` sets Django up
as the benches run it (DEBUG off) and migrates; ``gunicorn()`` serves the site as production does. ``ab_path()``
installs Debian's apache2-utils when ``ab`` is missing. ``paired_rounds()`` measures a target next to its baseline,
round after round, and gives the medians and the median of the per-round ratios.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def services() -> Iterator[None]:
    """DATABASE_URL and REDIS_URL from the environment, or a throw-away PostgreSQL and Redis (exported)."""
    if os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL"):
        yield
        return
    tmp = Path(tempfile.mkdtemp(prefix="rugby-bench-"))
    pg_port, redis_port = free_port(), free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(tmp, "postgres")
    run = lambda *cmd: subprocess.run([*as_postgres, *cmd], check=True, capture_output=True)  # noqa: E731
    redis = None
    try:
        run("initdb", "-D", str(tmp / "data"), "-U", "rugby", "--auth=trust", "-E", "UTF8")
        run("pg_ctl", "-D", str(tmp / "data"), "-l", str(tmp / "log"), "-w", "-o",
            f"-p {pg_port} -k {tmp} -c listen_addresses=127.0.0.1 -c max_connections=200", "start")
        run("createdb", "-h", "127.0.0.1", "-p", str(pg_port), "-U", "rugby", "rugby")
        redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                  "--appendonly", "no"], stdout=subprocess.DEVNULL)
        time.sleep(0.5)
        os.environ["DATABASE_URL"] = f"postgres://rugby@127.0.0.1:{pg_port}/rugby"
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        yield
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
        with contextlib.suppress(subprocess.CalledProcessError):
            run("pg_ctl", "-D", str(tmp / "data"), "-m", "fast", "stop")
        shutil.rmtree(tmp, ignore_errors=True)


def ab_path() -> str:
    """The path of Apache's ``ab`` (Debian's apache2-utils), installed first if it is missing."""
    found = shutil.which("ab")
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "apache2-utils"], check=False,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, capture_output=True)
    found = shutil.which("ab")
    if not found:  # a fresh machine's package lists may be empty
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False, capture_output=True)
        subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "apache2-utils"], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, capture_output=True)
        found = shutil.which("ab")
    if not found:
        raise SystemExit("ab (apache2-utils) is needed and could not be installed")
    return found


def ab(url: str, *, clients: int, seconds: float, cookie: str | None = None, headers: tuple[str, ...] = (),
       ok_304: bool = False) -> dict:
    """Drive ``url`` with ``ab -k -c clients`` for ``seconds``: requests per second, completed and failed (non-2xx
    answers included, unless ``ok_304``: a conditional request's 304 is its success). ``ab`` is a C program: the
    load generator takes one core at most and never caps the server the way a pool of Python threads does."""
    # ab reads -t as whole seconds (atoi: "0.5" would be no limit at all, and 100 million requests).
    command = [ab_path(), "-k", "-c", str(clients), "-t", str(max(1, round(seconds))), "-n", "100000000", "-q", "-s",
               "30"]
    if cookie:
        command += ["-C", cookie]
    for header in headers:
        command += ["-H", header]
    try:
        done = subprocess.run([*command, url], capture_output=True, text=True, timeout=seconds + 90)
    except subprocess.TimeoutExpired:  # ab itself hung (seen once on a saturated machine): a phase lost, said so
        print(f"ab hung on {url}: phase counted as 0 req/s with an error", file=sys.stderr)
        return {"rps": 0.0, "complete": 0, "failed": 1}
    out = done.stdout

    def number(pattern: str) -> float:
        found = re.search(pattern, out)
        return float(found.group(1)) if found else 0.0

    if done.returncode != 0 and "Requests per second" not in out:
        raise SystemExit(f"ab failed on {url}: {done.stderr.strip() or out[-500:]}")
    # A page whose length varies (a CSRF token) counts as a "Length" failure in ab: not an error.
    errors = sum(int(number(rf"{kind}:\s+(\d+)")) for kind in ("Connect", "Receive", "Exceptions"))
    return {"rps": number(r"Requests per second:\s+([\d.]+)"), "complete": int(number(r"Complete requests:\s+(\d+)")),
            "failed": errors + (0 if ok_304 else int(number(r"Non-2xx responses:\s+(\d+)")))}


def load_average() -> str:
    """The machine's load (1, 5 and 15 minutes) and its cores: other people's work weighs on every figure."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


@contextlib.contextmanager
def database(*, sqlite: bool) -> Iterator[None]:
    """A temporary SQLite file (``sqlite``), else PostgreSQL and Redis as :func:`services` gives them."""
    if not sqlite:
        with services():
            yield
        return
    folder = tempfile.mkdtemp(prefix="rugby-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("VAR_DIR", folder)
    yield


def servers_then_rerun(script: str, run_name: str, inside: str) -> None:
    """Start PostgreSQL and Redis with scripts/lib.sh (installing ``ab`` if it is missing) and run ``script`` again
    inside that run, with this process's arguments and ``inside``=1 in its environment: ``run_begin`` stops both
    servers whatever happens. Does not return."""
    args = " ".join(shlex.quote(a) for a in sys.argv[1:])
    lines = f"""
set -euo pipefail
source {shlex.quote(str(ROOT / 'scripts' / 'lib.sh'))}
cd "$ROOT"
command -v ab >/dev/null || {{ log "installing apache2-utils (ab)"; as_root apt-get update -qq;
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq apache2-utils >/dev/null; }}
run_begin {shlex.quote(run_name)}
start_postgres
start_redis
export {inside}=1
run_child bench "$PY" {shlex.quote(str(Path(script).resolve()))} {args}
"""
    os.execvp("bash", ["bash", "-c", lines])


def django_setup(*, settings: str = "", **environ: str) -> None:
    """Set Django up as the benches run it and migrate the database: ``settings`` (else config.settings unless
    DJANGO_SETTINGS_MODULE says otherwise) and ``environ`` set in the environment first (DEBUG="0"...)."""
    if settings:
        os.environ["DJANGO_SETTINGS_MODULE"] = settings
    else:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.update(environ)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def start_gunicorn(port: int, workers: int, threads: int) -> subprocess.Popen:
    """gunicorn serving the site (gthread workers, the settings of this environment) on ``port``, once its constant
    view answers (``bench.http_app`` settings serve it at /bench/constant/)."""
    gunicorn_bin = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn_bin), "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "30", "--backlog", "2048",
         "--log-level", "warning"], cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/constant/", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"gunicorn did not start: {process.stderr.read().decode()[-2000:]}")


@contextlib.contextmanager
def gunicorn(workers: int, threads: int) -> Iterator[str]:
    """:func:`start_gunicorn` on a free port; yields its base URL and stops it (its whole process group) after."""
    port = free_port()
    process = start_gunicorn(port, workers, threads)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def ab_stats(url: str, *, concurrency: int, seconds: float = 0, requests: int = 0,
             headers: tuple[str, ...] = ()) -> dict:
    """Run ``ab -k`` for ``seconds`` (or ``requests``): requests per second, mean time per request (ms), and the
    responses by kind as ab counts them (``failed`` includes answers of another length than the first)."""
    command = ["ab", "-q", "-k", "-c", str(concurrency), "-s", "30"]
    # ab reads -t as whole seconds (atoi: "0.5" would mean no limit at all).
    command += ["-t", str(max(1, round(seconds))), "-n", "10000000"] if seconds else ["-n", str(requests)]
    for header in headers:
        command += ["-H", header]
    out = subprocess.run(command + [url], capture_output=True, text=True, timeout=seconds + 120).stdout

    def number(label: str) -> float:
        found = re.search(rf"^{label}:\s+([\d.]+)", out, re.M)
        return float(found.group(1)) if found else 0.0

    return {"rps": number("Requests per second"), "ms": number("Time per request"),
            "complete": number("Complete requests"), "failed": number("Failed requests"),
            "non2xx": number("Non-2xx responses")}


@dataclass
class Paired:
    """The figures of paired rounds: each round's target and baseline, and their ratio target / baseline."""

    targets: list[float]
    baselines: list[float]
    ratios: list[float]

    @property
    def target(self) -> float:
        return statistics.median(self.targets)

    @property
    def baseline(self) -> float:
        return statistics.median(self.baselines)

    @property
    def ratio(self) -> float:
        """The median of the per-round ratios (not the ratio of the medians)."""
        return statistics.median(self.ratios)


def paired_rounds(rounds: int, baseline: Callable[[], float], target: Callable[[], float], *,
                  warm_up: int = 0) -> Paired:
    """``rounds`` rounds of the baseline then the target (each a callable returning its figure: a time, requests
    per second...), after ``warm_up`` rounds that are not counted."""
    targets, baselines, ratios = [], [], []
    for number in range(warm_up + rounds):
        base = baseline()
        value = target()
        if number < warm_up:
            continue
        baselines.append(base)
        targets.append(value)
        ratios.append(value / base if base else 0.0)
    return Paired(targets, baselines, ratios)


def paired(rounds: int, baseline: Callable[[], float], target: Callable[[], float]) -> tuple[float, float, float]:
    """(median target, median baseline, median of the per-round ratios target / baseline)."""
    figures = paired_rounds(rounds, baseline, target)
    return figures.target, figures.baseline, figures.ratio


def timed(action: Callable[[], object]) -> float:
    """The wall time of ``action()`` in seconds."""
    started = time.perf_counter()
    action()
    return time.perf_counter() - started
