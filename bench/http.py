"""Requests per second of the tournament (standings) page of a finished rwc2023 tournament under 50 concurrent
clients, as a ratio to a plain Django view returning a constant string, served the same way in the same run.

    .venv/bin/python bench/http.py [--clients 50] [--seconds 5] [--workers 2] [--threads 8]

What it does:
1. builds a throw-away database (a SQLite file in a temporary folder, or the database of DATABASE_URL) with
   a finished rwc2023 tournament: 40 pool results and the 8 knockout results;
2. starts gunicorn (gthread workers, production settings: DEBUG off, the project's cache — Redis when
   REDIS_URL is set, else each worker's local memory) on a free loopback port;
3. drives it with 50 client threads over keep-alive connections, each phase bounded in time and in
   requests, alternating baseline and page twice, and prints requests per second and the ratio of the
   best page phase to the best baseline phase.

The load generator runs in this process (threads, so one core at most); the server gets its own processes.
Both views are measured through the same generator, so its own cost weighs on both.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder comes first on sys.path and its name would hide the standard library's
# ``http`` package: take the folder off before importing it.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

import argparse
import http.client
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLUG = "rwc-finished"
MAX_REQUESTS_PER_PHASE = 200_000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_database(env: dict) -> None:
    """Migrate and create the finished tournament (in a child process with the benchmark's settings)."""
    script = f"""
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from league import services
from league.models import Fixture
from league.services import tournament_create_from_preset as preset_run
import datetime as dt
user = get_user_model().objects.create_user("bench", password="bench-password-1")
t = preset_run("rwc2023", name="Rugby World Cup 2023", slug="{SLUG}", user=user, start_date=dt.date(2023, 9, 8))
for i, f in enumerate(t.fixtures.filter(stage="pool").order_by("pk")):
    home_tries, away_tries = (i % 5) + 1, i % 3
    services.result_record(fixture=f, home_score=home_tries * 7, away_score=away_tries * 5, home_tries=home_tries,
                           away_tries=away_tries, user=user)
for pk in t.fixtures.filter(stage="knockout").order_by("round_number", "slot", "pk").values_list("pk", flat=True):
    f = Fixture.objects.get(pk=pk)
    services.result_record(fixture=f, home_score=24, away_score=17, home_tries=3, away_tries=2, user=user)
done = t.fixtures.filter(result__isnull=False).count()
assert done == 48, done
print("fixtures with results:", done)
"""
    subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, check=True)


def start_server(env: dict, port: int, workers: int, threads: int) -> subprocess.Popen:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen(
        [str(gunicorn), "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "30", "--backlog", "256",
         "--log-level", "warning"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/bench/constant/")
            if conn.getresponse().status == 200:
                conn.close()
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit(f"gunicorn did not start: {process.stderr.read().decode()[-2000:]}")


def load(port: int, path: str, clients: int, seconds: float) -> tuple[float, int, int]:
    """Run ``clients`` threads for ``seconds`` (or the request cap); return (requests/s, ok, errors)."""
    stop = time.monotonic() + seconds
    counts = [0] * clients
    errors = [0] * clients
    budget = MAX_REQUESTS_PER_PHASE // clients

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while time.monotonic() < stop and counts[index] < budget:
            try:
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                if response.status == 200:
                    counts[index] += 1
                else:
                    errors[index] += 1
            except (OSError, http.client.HTTPException):
                errors[index] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 15)
    elapsed = time.monotonic() - started
    return sum(counts) / elapsed, sum(counts), sum(errors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each measured phase")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--rounds", type=int, default=3, help="paired baseline/page phases")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="rugby-bench-http-") as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.http_app", "VAR_DIR": tmp,
               "PYTHONPATH": str(ROOT), "SECRET_KEY": "bench-" + "x" * 50}
        if "DATABASE_URL" not in os.environ:
            env["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
        build_database(env)
        port = free_port()
        server = start_server(env, port, args.workers, args.threads)
        page = f"/t/{SLUG}/"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", page)
            response = conn.getresponse()
            body = response.read().decode()
            assert response.status == 200 and "Pool A" in body and "Final" in body, response.status
            # Warm every worker's cache and connections.
            load(port, page, args.clients, 1.0)
            load(port, "/bench/constant/", args.clients, 1.0)
            results: dict[str, list[float]] = {"constant": [], "page": []}
            ratios = []
            # Alternate short phases and pair each page phase with the baseline phase just before it: on a
            # shared machine the load changes from second to second, and a pair sees nearly the same load.
            for _round in range(args.rounds):
                for name, path in (("constant", "/bench/constant/"), ("page", page)):
                    rps, ok, errors = load(port, path, args.clients, args.seconds)
                    results[name].append(rps)
                    print(f"{name:9s} {rps:9.1f} req/s  ({ok} ok, {errors} errors, {args.clients} clients)")
                ratios.append(results["page"][-1] / results["constant"][-1])
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)
    print(f"constant view (baseline): median {statistics.median(results['constant']):.1f} req/s")
    print(f"tournament page {page} ({len(body) // 1024} KiB): median {statistics.median(results['page']):.1f} req/s")
    print(f"ratio page/constant: median {statistics.median(ratios):.2f} of {len(ratios)} paired phases "
          f"(each: {', '.join(f'{r:.2f}' for r in ratios)}; target >= 0.5)")


if __name__ == "__main__":
    main()
