"""Benchmark: time to compute standings from the database, as a ratio to one SELECT COUNT(*).

Two cases:
  1. the 20-team Rugby World Cup 2023 tournament with all 40 pool results;
  2. a 200-team double round robin in one pool (39,800 results).

Each case's time for ``league.selectors.tournament_standings`` (read the rows and
compute the tables) is printed in milliseconds and as a ratio to the time of one
plain ``SELECT COUNT(*)`` over the results table, measured in the same run right
after the case's data is built, so the figures travel between machines.

Usage (from the project root):
    .venv/bin/python bench/standings.py            # a temporary SQLite database
    .venv/bin/python bench/standings.py --configured-db   # the DATABASE_URL database (data is left there)
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setup(configured_db: bool) -> None:
    # Run as a script, this folder is first on sys.path, where a sibling module (bench/http.py) would
    # shadow the standard library's package of the same name: look for modules from the project root.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if not configured_db:
        folder = tempfile.mkdtemp(prefix="rugby-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ.setdefault("VAR_DIR", folder)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _best(func, repeat: int) -> tuple[float, float]:
    """(median, best) wall time of ``func`` in seconds over ``repeat`` runs, after one warm-up run."""
    func()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def _count_results() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM league_result")
        return cursor.fetchone()[0]


def _fill_results(tournament, score_of) -> int:
    """Results for every pool fixture, made in bulk (the services' per-result audit is not what is measured)."""
    from league.models import Fixture, Result

    fixtures = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).order_by("pk")
                    .values_list("pk", flat=True))
    Result.objects.bulk_create(
        [Result(fixture_id=pk, **score_of(i)) for i, pk in enumerate(fixtures)], batch_size=2000)
    Fixture.objects.filter(pk__in=fixtures).update(status=Fixture.Status.PLAYED)
    # Fresh planner statistics, as autovacuum would gather after a large load (without them PostgreSQL may
    # pick a nested loop for 40,000 rows and the figure measures the missing statistics, not the code).
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("league_result", "league_fixture", "league_entry"):
            cursor.execute(f"ANALYZE {table}")
    return len(fixtures)


# Plausible rugby union scores: (points, tries), each possible under try 5 / conversion 2 / kick 3.
SCORES = [(27, 3), (13, 1), (52, 8), (8, 1), (17, 2), (3, 0), (36, 5), (26, 3), (20, 2), (22, 4), (10, 1),
          (45, 7), (0, 0), (33, 5), (18, 2)]


def _score(i: int) -> dict:
    home, away = SCORES[i % len(SCORES)], SCORES[(i * 7 + 3) % len(SCORES)]
    return {"home_score": home[0], "home_tries": home[1], "away_score": away[0], "away_tries": away[1]}


def _case(label: str, tournament, repeat: int) -> None:
    from league import selectors
    from league.models import Result

    results = Result.objects.filter(fixture__tournament=tournament).count()
    total = _count_results()
    count_median, count_best = _best(_count_results, repeat * 5)
    standings_median, standings_best = _best(lambda: selectors.tournament_standings(tournament), repeat)
    tables = selectors.tournament_standings(tournament)
    teams = sum(len(rows) for _pool, rows in tables)
    print(f"{label}: {teams} teams, {results} results (results table: {total} rows)")
    print(f"  SELECT COUNT(*) over the results table: best {count_best * 1000:.3f} ms "
          f"(median {count_median * 1000:.3f} ms)")
    print(f"  tournament_standings (3 queries):        best {standings_best * 1000:.3f} ms "
          f"(median {standings_median * 1000:.3f} ms)")
    # The best run is the least disturbed by other processes (as timeit advises); the median is shown too.
    print(f"  ratio standings / count: {standings_best / count_best:.1f}x best, "
          f"{standings_median / count_median:.1f}x median")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--configured-db", action="store_true",
                        help="Use the database of DATABASE_URL instead of a temporary SQLite file.")
    parser.add_argument("--repeat", type=int, default=7, help="Timed runs per measure (default 7).")
    parser.add_argument("--teams", type=int, default=200, help="Teams in the double round robin (default 200).")
    args = parser.parse_args()
    _setup(args.configured_db)

    from django.db import connection

    from league.models import Team, Tournament
    from league.services import tournament_create_from_preset as preset_run

    stamp = str(int(time.time()))
    print(f"database: {connection.vendor}")

    build = time.perf_counter()
    rwc = preset_run("rwc2023", name="Bench RWC", slug=f"bench-rwc-{stamp}")
    _fill_results(rwc, _score)
    print(f"(built the RWC case in {time.perf_counter() - build:.1f} s)")
    _case("RWC 2023 pools", rwc, args.repeat)

    build = time.perf_counter()
    codes = [f"B{i:03d}" for i in range(args.teams)]
    existing = set(Team.objects.filter(code__in=codes).values_list("code", flat=True))
    Team.objects.bulk_create([Team(code=code, name=f"Bench {code}") for code in codes if code not in existing])
    big = preset_run("league", name="Bench league", slug=f"bench-league-{stamp}", teams=codes, double=True,
                             points_system=Tournament.PointsSystem.WORLD_RUGBY)
    _fill_results(big, _score)
    print(f"(built the {args.teams}-team case in {time.perf_counter() - build:.1f} s)")
    _case(f"{args.teams}-team double round robin", big, max(3, args.repeat // 2))


if __name__ == "__main__":
    main()
