"""Cost of the live-update poll: a 304 answer (nothing changed) against a full board fragment, per request.

    .venv/bin/python bench/online_poll.py [--requests 300]

Builds a throw-away SQLite test database, starts a Rugby League card-game match between two people and
plays 60 plies, then times, through Django's test client in this process (same overheads for all):

* ``poll 304``: GET /matches/<id>/board/ with the current ETag in If-None-Match (what every open page
  sends every second while nobody moves);
* ``board 200``: the same GET without the ETag (what a page gets after a move: engine state from the
  snapshot, view, SVG drawing);
* ``api 200``: GET /api/matches/<id>/ (the JSON view);

against a baseline of Django's own set_language view (the same session, auth and locale middleware, no
work of ours). Prints requests per second and the ratios: the figures behind polling every second.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

# Run as a script, bench/ comes first on sys.path and bench/http.py would hide the standard library's ``http``.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "sqlite://:memory:")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)

    import random

    from django.contrib.auth import get_user_model

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

    client = Client()
    client.force_login(users[1])
    board = f"/matches/{match.pk}/board/"
    etag = client.get(board)["ETag"]

    def rate(path: str, expect: int, **headers) -> float:
        for _ in range(10):  # warm-up
            client.get(path, **headers)
        start = time.perf_counter()
        for _ in range(args.requests):
            response = client.get(path, **headers)
            assert response.status_code == expect, response.status_code
        return args.requests / (time.perf_counter() - start)

    base = rate("/i18n/setlang/", client.get("/i18n/setlang/").status_code)
    poll = rate(board, 304, HTTP_IF_NONE_MATCH=etag)
    full = rate(board, 200)
    api = rate(f"/api/matches/{match.pk}/", 200)
    print(f"baseline:  {base:8.0f} req/s (Django's set_language view: the middleware stack alone)")
    print(f"poll 304:  {poll:8.0f} req/s (cost x{base / poll:.1f} of the baseline)")
    print(f"board 200: {full:8.0f} req/s (cost x{poll / full:.1f} of a 304 poll)")
    print(f"api 200:   {api:8.0f} req/s (cost x{poll / api:.1f} of a 304 poll)")
    print(f"=> one core answers about {poll:.0f} idle polls a second: {poll:.0f} open pages polling every second.")


if __name__ == "__main__":
    main()
