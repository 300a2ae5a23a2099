"""The public tournament page at 20, 250 and 1,000 teams: bytes, queries and render time, and requests per second
(cached, after a result, and the 304 live check) as ratios to a constant view, on production's stack.

    .venv/bin/python bench/public_page.py [--sizes 20,250,1000] [--rounds 3] [--seconds 4] [--workers 2]

What it does:
1. starts its own PostgreSQL and Redis as ``scripts/lib.sh`` does (re-running itself inside ``run_begin``, so
   both are stopped whatever happens), and installs ``ab`` (Debian's apache2-utils) if it is missing;
2. builds, for each size, a one-pool league (a single round robin: 190, 31,125 and 499,500 fixtures) with its
   first ``--played`` rounds played, through the services;
3. in this process (Django test client, DEBUG off, PostgreSQL, Redis), renders the standings tab and the
   fixtures tab with an empty cache (cold), again (cached), and right after a result (only the sections that
   result changed are built again): bytes, queries and milliseconds, medians of ``--rounds``;
4. starts gunicorn (gthread workers, production settings) and drives it with ``ab`` (a C load generator, not
   Python threads), in paired rounds, each target phase next to a phase of a constant Django view served the
   same way: requests per second of the cached page, of the 304 live check (with 50 and with 500 concurrent
   clients: "500 viewers"), and of the page right after a result (one result, then one timed request, repeated);
   each printed as a ratio to the constant view of the same round, median of the rounds.

The cost of one viewer: an open page checks once a second, so one viewer costs 1 / (304 checks per second) of
the server; 500 viewers cost 500 times that, printed as the share of the server's capacity.
"""

from __future__ import annotations

import os
import sys

# Run as a script, bench/ comes first on sys.path and bench/http.py would hide the standard library's ``http``.
if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    sys.path.pop(0)

import argparse
import datetime as dt
import re
import statistics
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
INSIDE = "RUGBY_BENCH_PUBLIC_SERVERS"

from bench.servers import ab_stats, django_setup, gunicorn, paired, servers_then_rerun  # noqa: E402

# --- data ----------------------------------------------------------------------------------------------------------


def build_league(teams: int, played: int) -> str:
    """A one-pool league of ``teams`` clubs (round robin) with its first ``played`` rounds played."""
    from league import services
    from league.models import Fixture, Team
    from league.services import tournament_create_from_preset as preset_run

    user = _user()
    codes = []
    existing = {t.code: t for t in Team.objects.filter(code__startswith="B")}
    for i in range(teams):
        code = f"B{i:04d}"
        if code not in existing:
            services.team_save(team=Team(name=f"Club {i:04d}", code=code), user=user)
        codes.append(code)
    slug = f"league-{teams}"
    started = time.perf_counter()
    tournament = preset_run("league", name=f"League of {teams}", slug=slug, teams=codes, user=user,
                            start_date=dt.date(2026, 9, 5), venues=["North", "South", "East", "West"])
    fixtures = list(Fixture.objects.filter(tournament=tournament, round_number__lte=played).order_by("pk"))
    for i, fixture in enumerate(fixtures):
        home_tries, away_tries = (i % 5) + 1, i % 3
        services.result_record(fixture=fixture, home_score=home_tries * 7, away_score=away_tries * 5,
                               home_tries=home_tries, away_tries=away_tries, user=user)
    total = Fixture.objects.filter(tournament=tournament).count()
    print(f"  league of {teams}: {total:,} fixtures, {len(fixtures):,} results, built in "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    return slug


def _user():
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(username="bench")
    return user


def next_fixture(slug: str):
    from league.models import Fixture

    return (Fixture.objects.filter(tournament__slug=slug, status=Fixture.Status.SCHEDULED)
            .order_by("round_number", "slot", "pk").first())


def record_result(slug: str) -> None:
    """One more result in the league (the next fixture to play), as an organiser enters it."""
    from league import services

    services.result_record(fixture=next_fixture(slug), home_score=24, away_score=10, home_tries=4, away_tries=1,
                           user=_user())


# --- in-process rendering ------------------------------------------------------------------------------------------


def render_figures(slug: str, path: str, rounds: int) -> dict[str, float]:
    """Bytes, queries and milliseconds of one page: cold (empty cache), cached, and after a result."""
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")

    def measure() -> tuple[int, int, float]:
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(path)
            elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (path, response.status_code)
        return len(response.content), len(queries), elapsed

    cold, cached, after = [], [], []
    for _ in range(rounds):
        cache.clear()
        cold.append(measure())
        cached.append(measure())
        record_result(slug)
        after.append(measure())
    return {
        "bytes": statistics.median(c[0] for c in cold),
        "cold_queries": statistics.median(c[1] for c in cold), "cold_ms": statistics.median(c[2] for c in cold),
        "cached_queries": statistics.median(c[1] for c in cached),
        "cached_ms": statistics.median(c[2] for c in cached),
        "after_queries": statistics.median(c[1] for c in after), "after_ms": statistics.median(c[2] for c in after),
    }


def live_url(slug: str) -> tuple[str, str]:
    """The live check an open standings tab sends, and the ETag it holds (answered 304 while nothing changes)."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    page = client.get(f"/t/{slug}/").content.decode()
    ids = re.findall(r'data-section="([^"]+)" data-hash="([^"]+)"', page)
    version = re.search(r'data-page-version="([^"]+)"', page).group(1)
    query = ",".join(f"{i}!{h}" for i, h in ids)
    url = f"/t/{slug}/live/?v={version}&s={urllib.request.quote(query, safe='')}"
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    return url, etag


# --- HTTP with gunicorn and ab -----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="20,250,1000", help="teams of each league, comma-separated")
    parser.add_argument("--played", type=int, default=3, help="rounds played before measuring")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds per figure")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each ab phase")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--after", type=int, default=15, help="results (each then one timed request) per round")
    args = parser.parse_args()
    if os.environ.get(INSIDE) != "1":
        servers_then_rerun(__file__, "bench-public", INSIDE)

    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    os.environ.setdefault("VAR_DIR", os.environ.get("TMPDIR", "/tmp"))
    django_setup(settings="bench.http_app")
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"Building the leagues ({', '.join(map(str, sizes))} teams, {args.played} rounds played)...", flush=True)
    slugs = {teams: build_league(teams, args.played) for teams in sizes}
    from django.db import connection

    with connection.cursor() as cursor:  # what autovacuum does to a table that grew by 500,000 rows
        cursor.execute("VACUUM ANALYZE")

    print("\nRendering in this process (DEBUG off, PostgreSQL, Redis): medians of", args.rounds, "rounds")
    header = (f"{'teams':>6} {'page':<10} {'bytes':>9} {'queries cold/cached/after':>26} "
              f"{'ms cold':>8} {'ms cached':>9} {'ms after a result':>18}")
    print(header)
    renders = {}
    for teams, slug in slugs.items():
        for name, path in (("standings", f"/t/{slug}/"), ("fixtures", f"/t/{slug}/fixtures/")):
            r = render_figures(slug, path, args.rounds)
            renders[(teams, name)] = r
            print(f"{teams:>6} {name:<10} {r['bytes']:>9,.0f} "
                  f"{r['cold_queries']:>12.0f} /{r['cached_queries']:>3.0f} /{r['after_queries']:>3.0f}      "
                  f"{r['cold_ms']:>8.1f} {r['cached_ms']:>9.2f} {r['after_ms']:>18.1f}", flush=True)

    with gunicorn(args.workers, args.threads) as base:
        constant = f"{base}/bench/constant/"
        print(f"\nHTTP: gunicorn {args.workers} workers x {args.threads} threads (gthread), ab -k, "
              f"{args.seconds:g} s phases, {args.rounds} paired rounds; ratio = target / constant view")
        print(f"{'teams':>6} {'what':<34} {'req/s':>9} {'constant':>9} {'ratio':>7}")
        for teams, slug in slugs.items():
            page = f"{base}/t/{slug}/"
            ab_stats(page, concurrency=1, requests=5)  # warm the cache
            url, etag = live_url(slug)
            rows = [
                ("standings page, cached (c=50)",
                 lambda p=page: ab_stats(p, concurrency=50, seconds=args.seconds)["rps"],
                 lambda: ab_stats(constant, concurrency=50, seconds=args.seconds)["rps"]),
                ("live check 304 (c=50)", lambda u=url, e=etag: _check_304(
                    ab_stats(base + u, concurrency=50, seconds=args.seconds, headers=(f"If-None-Match: {e}",))),
                 lambda: ab_stats(constant, concurrency=50, seconds=args.seconds)["rps"]),
                ("live check 304, 500 viewers (c=500)", lambda u=url, e=etag: _check_304(
                    ab_stats(base + u, concurrency=500, seconds=args.seconds, headers=(f"If-None-Match: {e}",))),
                 lambda: ab_stats(constant, concurrency=500, seconds=args.seconds)["rps"]),
                ("standings page after a result", lambda s=slug, p=page: _after_result(s, p, args.after),
                 lambda: _sequential(constant, args.after)),
            ]
            results = {}
            for label, target, baseline in rows:
                value, base_value, ratio = paired(args.rounds, baseline, target)
                results[label] = value
                print(f"{teams:>6} {label:<34} {value:>9.1f} {base_value:>9.1f} {ratio:>7.3f}", flush=True)
            one = 1 / results["live check 304 (c=50)"]
            many = 500 / results["live check 304, 500 viewers (c=500)"]
            print(f"{teams:>6} {'cost of the live check':<34} one viewer (1 check/s): {one:.2%} of the server; "
                  f"500 viewers: {many:.0%} of the server", flush=True)

    print("\nTargets (issue 15): the 1,000-team league's public page renders in under 1 s and weighs under 500 KB")
    for teams in sizes:
        r = renders[(teams, "standings")]
        verdict = "yes" if r["cold_ms"] < 1000 and r["bytes"] < 500_000 else "NO"
        print(f"  {teams:>5} teams: {r['bytes'] / 1000:.0f} KB, {r['cold_ms']:.0f} ms with an empty cache: {verdict}")


def _check_304(result: dict) -> float:
    # Every answer must be the 304 (ab counts a 304 as a non-2xx answer): anything else is not this figure.
    assert result["failed"] == 0 and result["non2xx"] == result["complete"], result
    return result["rps"]


def _after_result(slug: str, page: str, count: int) -> float:
    """Requests per second of the page when every request follows a result: one result, then one timed request."""
    times = []
    for _ in range(count):
        record_result(slug)
        time.sleep(0.05)  # the result's commit hooks have run; the request is the first after it
        times.append(ab_stats(page, concurrency=1, requests=1)["ms"])
    return 1000 / statistics.median(times)


def _sequential(url: str, count: int) -> float:
    """The baseline of :func:`_after_result`: single timed requests of the constant view, the same way."""
    times = []
    for _ in range(count):
        time.sleep(0.05)
        times.append(ab_stats(url, concurrency=1, requests=1)["ms"])
    return 1000 / statistics.median(times)


if __name__ == "__main__":
    main()
