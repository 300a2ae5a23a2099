"""Requests per second of every list the API serves, the home page and the tournament page, under 50 concurrent
clients, each as a ratio to a constant view served by the same gunicorn in the same run.

    .venv/bin/python bench/http.py [--clients 50] [--seconds 3] [--rounds 3] [--workers 4] [--threads 2]

The production path: gunicorn (gthread workers, the project's settings with DEBUG off), PostgreSQL and Redis
(``bench/servers.py``: a throw-away server of each unless DATABASE_URL and REDIS_URL name them), and Apache's
``ab -k -c 50`` as the load generator (a C program, installed with apache2-utils if missing: it never caps the
server the way Python threads do).

1. Builds the data in a child process with the benchmark's settings: a finished rwc2023 tournament (48
   results through the services, its odds computed), a Swiss and a solo-challenge tournament with results, and
   a signed-in session of the organiser. It also counts each endpoint's queries through Django's test client:
   the first request (nothing cached) and the next one.
2. Starts gunicorn on a free port, warms every endpoint, then for ``--rounds`` rounds measures each endpoint
   right after the constant view (a pair sees nearly the same load on a shared machine): ``ab`` for
   ``--seconds`` each.
3. Prints, per endpoint, the median requests per second, the median of its paired ratios to the constant view
   (target >= 0.5, issue 17) and its queries; errors (non-2xx, dropped connections) are counted, never hidden.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder comes first on sys.path and its name would hide the standard library's
# ``http`` package: take the folder off before importing it.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse
import http.client
import json
import signal
import statistics
import subprocess
import tempfile
import time

from bench.servers import ROOT, ab, ab_path, free_port, load_average, services

SLUG = "rwc-finished"

# (label, path, signed in): the lists of the API, the home page and the tournament page.
ENDPOINTS = [
    ("tournament page", f"/t/{SLUG}/", False),
    ("home page", "/", False),
    ("home page, signed in", "/", True),
    ("API tournaments", "/api/tournaments/", False),
    ("API teams", "/api/teams/", False),
    ("API fixtures of a tournament", f"/api/fixtures/?tournament={SLUG}", False),
    ("API fixtures, signed in", f"/api/fixtures/?tournament={SLUG}", True),
    ("API fixtures, all", "/api/fixtures/", False),
    ("API entries", f"/api/entries/?tournament={SLUG}", False),
    ("API pools", f"/api/pools/?tournament={SLUG}", False),
    ("API standings", f"/api/tournaments/{SLUG}/standings/", False),
    ("API pool standings", "/api/pools/{pool}/standings/", False),
    ("API bracket", f"/api/tournaments/{SLUG}/bracket/", False),
    ("API Swiss table", "/api/tournaments/bench-swiss/swiss-table/", False),
    ("API leaderboard", "/api/tournaments/bench-solo/leaderboard/", False),
    ("API odds", f"/api/tournaments/{SLUG}/odds/", False),
]

BUILD = """
import datetime as dt, json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from league import services
from league.models import Fixture, Pool
from league.nations import RWC2023_CODES
from league.services import tournament_create_from_preset as preset_run
from matches import odds, simulation

user = get_user_model().objects.create_user("bench", password="bench-password-1")
t = preset_run("rwc2023", name="Rugby World Cup 2023", slug=SLUG, user=user, start_date=dt.date(2023, 9, 8))
for i, f in enumerate(t.fixtures.filter(stage="pool").order_by("pk")):
    home_tries, away_tries = (i % 5) + 1, i % 3
    services.result_record(fixture=f, home_score=home_tries * 7, away_score=away_tries * 5, home_tries=home_tries,
                           away_tries=away_tries, user=user)
for pk in t.fixtures.filter(stage="knockout").order_by("round_number", "slot", "pk").values_list("pk", flat=True):
    services.result_record(fixture=Fixture.objects.get(pk=pk), home_score=24, away_score=17, home_tries=3,
                           away_tries=2, user=user)
assert t.fixtures.filter(result__isnull=False).count() == 48
swiss = preset_run("swiss", name="Swiss", slug="bench-swiss", teams=RWC2023_CODES[:8], user=user)
for f in swiss.fixtures.filter(away__isnull=False):
    services.result_record(fixture=f, home_score=20, away_score=10, home_tries=3, away_tries=1, user=user)
solo = preset_run("solo", name="Solo", slug="bench-solo", teams=RWC2023_CODES[:6], user=user)
simulation.run_inline(simulation.simulation_create(tournament=solo, seed=1))
odds.odds_refresh(tournament_id=t.pk, runs=2000)
client = Client(HTTP_HOST="127.0.0.1")
client.force_login(user)
pool = Pool.objects.filter(tournament=t).order_by("name").first().pk
queries = {}
for label, path, signed_in in ENDPOINTS:
    caller = client if signed_in else Client(HTTP_HOST="127.0.0.1")
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as captured:
            status = caller.get(path.format(pool=pool)).status_code
        assert status == 200, (path, status)
        counts.append(len(captured))
    queries[label] = counts
# A browser keeps the CSRF cookie the site set at sign-in (and on its first page): send it as a browser does.
cookie = f"sessionid={client.cookies['sessionid'].value}; csrftoken={client.cookies['csrftoken'].value}"
print(json.dumps({"cookie": cookie, "pool": pool, "queries": queries}))
"""


def start_server(env: dict, port: int, workers: int, threads: int) -> subprocess.Popen:
    gunicorn = os.path.join(os.path.dirname(sys.executable), "gunicorn")
    process = subprocess.Popen(
        [gunicorn, "config.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--worker-class", "gthread", "--threads", str(threads), "--keep-alive", "30", "--backlog", "512",
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each measured phase")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds (constant view, then the endpoint)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=2, help="threads per gunicorn worker")
    parser.add_argument("--only", action="append", help="only the endpoints whose label contains this")
    args = parser.parse_args()
    ab_path()
    endpoints = [e for e in ENDPOINTS if not args.only or any(o.lower() in e[0].lower() for o in args.only)]
    print(f"before: {load_average()}")

    with services(), tempfile.TemporaryDirectory(prefix="rugby-bench-http-") as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.http_app", "VAR_DIR": tmp, "PYTHONPATH": str(ROOT),
               "SECRET_KEY": "bench-" + "x" * 50, "DEBUG": "0", "ODDS_AFTER_RESULT": "0"}
        script = f"SLUG = {SLUG!r}\nENDPOINTS = {ENDPOINTS!r}\n" + BUILD
        built = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, check=True, capture_output=True,
                               text=True)
        info = json.loads(built.stdout.strip().splitlines()[-1])
        port = free_port()
        server = start_server(env, port, args.workers, args.threads)
        base = f"http://127.0.0.1:{port}"
        constant = f"{base}/bench/constant/"
        results: dict[str, dict[str, list]] = {label: {"rps": [], "ratio": [], "errors": []}
                                               for label, _p, _s in endpoints}
        constants: list[float] = []
        try:
            for _label, path, signed_in in endpoints:  # warm every worker's connections and the cache
                ab(base + path.format(pool=info["pool"]), clients=args.clients, seconds=0.5,
                   cookie=info["cookie"] if signed_in else None)
            ab(constant, clients=args.clients, seconds=1)
            for round_number in range(1, args.rounds + 1):
                for label, path, signed_in in endpoints:
                    base_run = ab(constant, clients=args.clients, seconds=args.seconds)
                    run = ab(base + path.format(pool=info["pool"]), clients=args.clients, seconds=args.seconds,
                             cookie=info["cookie"] if signed_in else None)
                    constants.append(base_run["rps"])
                    results[label]["rps"].append(run["rps"])
                    results[label]["ratio"].append(run["rps"] / base_run["rps"] if base_run["rps"] else 0.0)
                    results[label]["errors"].append(run["failed"] + base_run["failed"])
                print(f"round {round_number} of {args.rounds} done ({load_average()})", flush=True)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)

    print()
    print(f"gunicorn: {args.workers} gthread workers x {args.threads} threads, DEBUG off, PostgreSQL and Redis; "
          f"ab -k -c {args.clients}, {args.seconds:g} s per phase, {args.rounds} paired rounds")
    print(f"constant view (baseline): median {statistics.median(constants):.0f} req/s over {len(constants)} phases")
    print(f"{'endpoint':30s} {'req/s':>8s} {'ratio':>6s}  {'each round':18s} {'queries':>8s} {'errors':>6s}  target "
          ">= 0.5")
    for label, _path, _signed in endpoints:
        data = results[label]
        ratio = statistics.median(data["ratio"])
        first, again = info["queries"][label]
        print(f"{label:30s} {statistics.median(data['rps']):8.0f} {ratio:6.2f}  "
              f"{' '.join(f'{r:.2f}' for r in data['ratio']):18s} {first:>3d}/{again:<4d} {sum(data['errors']):6d}  "
              f"{'met' if ratio >= 0.5 else 'NOT met'}")
    print("(queries: the first request, nothing cached / the next one; signed in includes the session and user)")
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
