"""Benchmark: computing standings from the database, as a ratio to fetching the same rows.

    .venv/bin/python bench/standings.py [--rounds 7] [--teams 200] [--sqlite]

Two cases:
  1. the 20-team Rugby World Cup 2023 tournament with all 40 pool results;
  2. a 200-team double round robin in one pool (39,800 results).

Each case times ``league.selectors.tournament_standings`` (read the pools, entries and results, then compute
every table) against a fair baseline: the same three queries fetching the same rows into Python and nothing
more -- so the ratio is what computing the tables adds to reading them. Paired rounds (the baseline, then the
standings, ``--rounds`` times after a warm-up); medians and the median of the paired ratios are printed.

The production path: PostgreSQL (``bench/servers.py``: a throw-away server unless DATABASE_URL names one), or
with ``--sqlite`` a temporary SQLite file (the demo's database).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project root, not bench/, first on the path: bench/http.py would otherwise hide the standard library's http.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bench.servers import database, django_setup, load_average, paired_rounds, timed  # noqa: E402


def _fill_results(tournament, score_of) -> int:
    """Results for every pool fixture, made in bulk (the services' per-result audit is not what is measured)."""
    from django.db import connection

    from league.models import Fixture, Result

    fixtures = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).order_by("pk")
                    .values_list("pk", flat=True))
    Result.objects.bulk_create(
        [Result(fixture_id=pk, **score_of(i)) for i, pk in enumerate(fixtures)], batch_size=2000)
    Fixture.objects.filter(pk__in=fixtures).update(status=Fixture.Status.PLAYED)
    # Fresh planner statistics, as autovacuum would gather after a large load.
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


def _fetch_rows(tournament) -> int:
    """The baseline: the queries ``tournament_standings`` runs, the same rows fetched, no table computed."""
    from league.models import Entry, Fixture, Pool, Result

    pools = list(Pool.objects.filter(tournament=tournament))
    entries = list(Entry.objects.filter(tournament=tournament, pool__isnull=False).order_by().values_list(
        "pool_id", "pk", "team__code", "team__name", "team__world_ranking"))
    results = list(Result.objects.filter(
        fixture__stage=Fixture.Stage.POOL, fixture__pool__isnull=False, fixture__home__isnull=False,
        fixture__away__isnull=False, fixture__tournament=tournament).values_list(
        "fixture__pool_id", "fixture__home_id", "fixture__away_id", "home_score", "away_score", "home_tries",
        "away_tries", "kind"))
    return len(pools) + len(entries) + len(results)


def _case(label: str, tournament, rounds: int) -> None:
    from league import selectors
    from league.models import Result

    results = Result.objects.filter(fixture__tournament=tournament).count()
    figures = paired_rounds(rounds, lambda: timed(lambda: _fetch_rows(tournament)),
                            lambda: timed(lambda: selectors.tournament_standings(tournament)), warm_up=1)
    teams = sum(len(rows) for _pool, rows in selectors.tournament_standings(tournament))
    print(f"{label}: {teams} teams, {results} results")
    print(f"  fetching the same rows (baseline):    median {figures.baseline * 1000:9.2f} ms")
    print(f"  tournament_standings (3 queries):     median {figures.target * 1000:9.2f} ms")
    print(f"  ratio standings / fetch: median {figures.ratio:.2f} of {rounds} paired rounds "
          f"(each: {', '.join(f'{r:.2f}' for r in figures.ratios)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead of PostgreSQL")
    parser.add_argument("--rounds", type=int, default=7, help="paired rounds per case (default 7)")
    parser.add_argument("--teams", type=int, default=200, help="teams in the double round robin (default 200)")
    args = parser.parse_args()
    print(f"before: {load_average()}")
    with database(sqlite=args.sqlite):
        django_setup(DEBUG="0")
        from django.db import connection

        from league.models import Team
        from league.services import tournament_create_from_preset as preset_run

        stamp = str(time.time_ns() % 10**12)
        print(f"database: {connection.vendor}")
        rwc = preset_run("rwc2023", name="Bench RWC", slug=f"bench-rwc-{stamp}")
        _fill_results(rwc, _score)
        _case("RWC 2023 pools", rwc, args.rounds)
        codes = [f"B{i:03d}" for i in range(args.teams)]
        existing = set(Team.objects.filter(code__in=codes).values_list("code", flat=True))
        Team.objects.bulk_create([Team(code=code, name=f"Bench {code}") for code in codes if code not in existing])
        big = preset_run("league", name="Bench league", slug=f"bench-league-{stamp}", teams=codes, double=True)
        _fill_results(big, _score)
        _case(f"{args.teams}-team double round robin", big, max(3, args.rounds // 2))
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
