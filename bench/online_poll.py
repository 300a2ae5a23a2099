"""Cost of the live-update poll of an online match under 50 clients: a 304 answer (nothing changed), the full
board fragment and the API's JSON view, each as a ratio to a constant view served by the same gunicorn.

    .venv/bin/python bench/online_poll.py [--clients 50] [--seconds 3] [--rounds 3] [--workers 4] [--threads 2]

The production path, as ``bench/http.py``: gunicorn (DEBUG off), PostgreSQL and Redis (``bench/servers.py``),
``ab -k -c 50``. A child process with the benchmark's settings starts a Rugby League card-game match between two
people, plays 60 plies, and signs the away player in; then, in paired rounds (the constant view, then each
request):

* ``poll 304``: GET /matches/<id>/board/ with the current ETag in If-None-Match (what every open page sends
  every second while nobody moves);
* ``board 200``: the same GET without the ETag (what a page gets after a move: engine state from the
  snapshot, view, SVG drawing);
* ``api 200``: GET /api/matches/<id>/ (the JSON view).

Medians of requests per second and of the paired ratios are printed: one 304 per second per open page is the
figure behind polling every second.
"""

from __future__ import annotations

import os
import sys

# Run as a script, bench/ comes first on sys.path and bench/http.py would hide the standard library's ``http``.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse
import json
import signal
import statistics
import subprocess
import tempfile

from bench.http import start_server
from bench.servers import ROOT, ab, ab_path, free_port, load_average, services

BUILD = """
import json, random
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from django.test import Client
from league.models import Entry, Fixture, Pool, Team, Tournament
from matches import services

users = [get_user_model().objects.create_user(username=n, password="x-bench-pw-1") for n in ("h", "a")]
t = Tournament.objects.create(name="Bench", slug="bench", ruleset="rugby-league-cards",
                              status=Tournament.Status.IN_PROGRESS)
pool = Pool.objects.create(tournament=t, name="A")
teams = [Team.objects.get_or_create(code=c, defaults={"name": c})[0] for c in ("FRA", "NZL")]
home, away = (Entry.objects.create(tournament=t, team=team, pool=pool, seed=i + 1, player=users[i])
              for i, team in enumerate(teams))
fixture = Fixture.objects.create(tournament=t, pool=pool, home=home, away=away)
match = services.match_start_for_fixture(fixture=fixture, seed=1)
rng = random.Random(1)
for _ in range(60):
    match.refresh_from_db()
    state = services.match_state(match)
    seat = state.to_act()[0]
    services.match_submit_action(match=match, seat=seat, ply=match.ply + 1,
                                 action=rng.choice(state.legal_actions(seat)), user=users[seat])
client = Client(HTTP_HOST="127.0.0.1")
client.force_login(users[1])
board = client.get(f"/matches/{match.pk}/board/")
assert board.status_code == 200, board.status_code
cookie = f"sessionid={client.cookies['sessionid'].value}"
print(json.dumps({"match": match.pk, "etag": board["ETag"], "cookie": cookie}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    ab_path()
    print(f"before: {load_average()}", flush=True)
    with services(), tempfile.TemporaryDirectory(prefix="rugby-bench-poll-") as tmp:
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "bench.http_app", "VAR_DIR": tmp, "PYTHONPATH": str(ROOT),
               "SECRET_KEY": "bench-" + "x" * 50, "DEBUG": "0"}
        built = subprocess.run([sys.executable, "-c", BUILD], env=env, cwd=ROOT, check=True, capture_output=True,
                               text=True)
        info = json.loads(built.stdout.strip().splitlines()[-1])
        port = free_port()
        server = start_server(env, port, args.workers, args.threads)
        base = f"http://127.0.0.1:{port}"
        cases = [("poll 304", f"/matches/{info['match']}/board/", (f"If-None-Match: {info['etag']}",), True),
                 ("board 200", f"/matches/{info['match']}/board/", (), False),
                 ("api 200", f"/api/matches/{info['match']}/", (), False)]
        results = {name: {"rps": [], "ratio": [], "errors": 0} for name, *_ in cases}
        constants: list[float] = []
        try:
            for _name, path, headers, ok_304 in cases:
                ab(base + path, clients=args.clients, seconds=0.5, cookie=info["cookie"], headers=headers,
                   ok_304=ok_304)
            for _ in range(args.rounds):
                for name, path, headers, ok_304 in cases:
                    constant = ab(f"{base}/bench/constant/", clients=args.clients, seconds=args.seconds)
                    run = ab(base + path, clients=args.clients, seconds=args.seconds, cookie=info["cookie"],
                             headers=headers, ok_304=ok_304)
                    constants.append(constant["rps"])
                    results[name]["rps"].append(run["rps"])
                    results[name]["ratio"].append(run["rps"] / constant["rps"] if constant["rps"] else 0.0)
                    results[name]["errors"] += run["failed"] + constant["failed"]
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=15)
    print(f"gunicorn {args.workers} x {args.threads} gthread, DEBUG off, PostgreSQL and Redis; ab -k -c "
          f"{args.clients}; {args.rounds} paired rounds of {args.seconds:g} s")
    print(f"constant view (baseline): median {statistics.median(constants):.0f} req/s")
    for name, data in results.items():
        print(f"{name:10s} median {statistics.median(data['rps']):7.0f} req/s   ratio to the constant view "
              f"{statistics.median(data['ratio']):.2f} (each: {', '.join(f'{r:.2f}' for r in data['ratio'])})   "
              f"errors {data['errors']}")
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
