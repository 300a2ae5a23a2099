"""Benchmark: recording one result, whatever the tournament's size, and generating a big league's fixtures.

    .venv/bin/python bench/results.py [--rounds 9] [--teams 1000] [--sqlite]

1. Recording a result through ``league.services.result_record`` (what the form, the API and the simulation
   call): a pool result in the middle of the RWC 2023 pools, the result that completes a pool (it fills two
   quarter-finals), a first-round result of a 64-team knockout, and a result in a ``--teams``-team league. For
   each: its queries (issue 17: at most 12 whatever the size) and its wall time, paired with a baseline in the
   same round -- the writes any design needs, in one transaction: insert the result, insert its audit row, mark
   the fixture played.
2. Generating the fixtures of a ``--teams``-team league (a single round robin: 499,500 fixtures for 1,000 teams;
   issue 17: under 5 s): the organiser's "generate fixtures" (``fixtures_generate_round_robin``), paired with a
   baseline that writes the same number of rows, through COPY on PostgreSQL, into a copy of the fixture table
   without its indexes and foreign keys (the floor of writing them at all).

The production path: PostgreSQL (``bench/servers.py``: a throw-away server unless DATABASE_URL names one), or with
``--sqlite`` a temporary SQLite file. Medians of paired rounds; the machine's load is printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project root, not bench/, first on the path: bench/http.py would otherwise hide the standard library's http.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bench.servers import database, django_setup, load_average, paired_rounds, timed  # noqa: E402


def _teams(count: int) -> list[str]:
    from league.models import Team

    codes = [f"R{i:04d}" for i in range(count)]
    existing = set(Team.objects.filter(code__in=codes).values_list("code", flat=True))
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes if code not in existing],
                             batch_size=2000)
    return codes


def _baseline(fixture) -> None:
    """The writes any design needs for one result, in one transaction."""
    from django.db import transaction

    from league.models import Fixture, Result, ResultChange

    with transaction.atomic():
        Result.objects.create(fixture=fixture, home_score=24, away_score=10, home_tries=3, away_tries=1)
        ResultChange.objects.create(fixture=fixture, action="created", new={"home_score": 24})
        Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.PLAYED)


def _record(fixture) -> int:
    """Record a result through the service; the number of queries it ran (transaction statements left out)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league import services

    with CaptureQueriesContext(connection) as captured:
        services.result_record(fixture=fixture, home_score=24, away_score=10, home_tries=3, away_tries=1)
    return len([q for q in captured.captured_queries if q["sql"] not in ("BEGIN", "BEGIN IMMEDIATE", "COMMIT")])


def _undo(fixture) -> None:
    """Put a fixture back as it was (no result), so the next round records the same thing again."""
    from league import advancement
    from league.models import Fixture, Result, ResultChange

    Result.objects.filter(fixture=fixture).delete()
    ResultChange.objects.filter(fixture=fixture).delete()
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.SCHEDULED)
    advancement.rederive(fixture.tournament)


def results_case(label: str, fixture, spare, rounds: int) -> None:
    """Record ``fixture``'s result ``rounds`` times (undone in between), paired with the baseline on ``spare``."""
    from league.models import Fixture

    queries: list[int] = []

    def baseline() -> float:
        elapsed = timed(lambda: _baseline(spare))
        _undo(spare)
        return elapsed

    def record() -> float:
        fresh = Fixture.objects.get(pk=fixture.pk)
        elapsed = timed(lambda: queries.append(_record(fresh)))
        _undo(fresh)
        return elapsed

    figures = paired_rounds(rounds, baseline, record, warm_up=1)
    print(f"  {label:44s} {max(queries):3d} queries {figures.target * 1000:8.1f} ms   "
          f"baseline {figures.baseline * 1000:6.1f} ms   ratio {figures.ratio:5.2f}   "
          f"target <= 12 queries: {'met' if max(queries) <= 12 else 'NOT met'}")


def generation_case(teams: int, rounds: int) -> None:
    """Generate a ``teams``-team league's fixtures, paired with writing as many bare rows."""
    from django.db import connection, transaction

    from league import services
    from league.models import Fixture

    tournament = services.tournament_create(name="Generated", slug=f"bench-gen-{time.time_ns() % 10**12}")
    services.entries_add(tournament=tournament, teams=_teams(teams), pool="A")
    table = connection.ops.quote_name(Fixture._meta.db_table)
    columns = "(tournament_id, stage, bracket, round_number, round_name, code, home_source, away_source, venue, " \
              "slot, status)"
    generated, floors, count = [], [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        made = services.fixtures_generate_round_robin(tournament=tournament)
        generated.append(time.perf_counter() - started)
        count = made if isinstance(made, int) else len(made)
        values = [(tournament.pk, "pool", "", i % 999 + 1, "Round", "", "", "", "", 0, "scheduled")
                  for i in range(count)]
        with transaction.atomic(), connection.cursor() as cursor:
            started = time.perf_counter()
            if connection.vendor == "postgresql":
                cursor.execute(f"CREATE TEMPORARY TABLE bench_bare (LIKE {table} INCLUDING DEFAULTS "
                               "INCLUDING IDENTITY) ON COMMIT DROP")
                with cursor.cursor.copy(f"COPY bench_bare {columns} FROM STDIN") as copy:
                    for row in values:
                        copy.write_row(row)
            else:
                cursor.execute(f"CREATE TEMPORARY TABLE bench_bare AS SELECT * FROM {table} WHERE 0")
                cursor.executemany(f"INSERT INTO bench_bare {columns} VALUES ({', '.join(['%s'] * 11)})", values)
            floors.append(time.perf_counter() - started)
            if connection.vendor != "postgresql":
                cursor.execute("DROP TABLE bench_bare")
        with connection.cursor() as cursor:  # no results: a plain DELETE (the ORM would load half a million rows)
            cursor.execute(f"DELETE FROM {table} WHERE tournament_id = %s", [tournament.pk])
    ratio = statistics.median(g / f for g, f in zip(generated, floors, strict=True))
    print(f"  {teams}-team league, {count} fixtures: generate {statistics.median(generated):6.2f} s   baseline "
          f"(bare rows) {statistics.median(floors):6.2f} s   ratio {ratio:5.2f}   target < 5 s: "
          f"{'met' if statistics.median(generated) < 5 else 'NOT met'}   (each: "
          f"{', '.join(f'{g:.2f}' for g in generated)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead of PostgreSQL")
    parser.add_argument("--rounds", type=int, default=9, help="paired rounds of each result case (default 9)")
    parser.add_argument("--teams", type=int, default=1000, help="teams of the big league (default 1000)")
    parser.add_argument("--generation-rounds", type=int, default=3, help="rounds of the fixture generation")
    args = parser.parse_args()
    print(f"before: {load_average()}")
    with database(sqlite=args.sqlite):
        # The odds refresh runs on the workers, after the commit: not part of this timing.
        # A --teams league is refused by the default limits; its operator would raise them.
        django_setup(DEBUG="0", ODDS_AFTER_RESULT="0", MAX_TEAMS_PER_TOURNAMENT="5000",
                     MAX_FIXTURES_PER_TOURNAMENT="5000000")
        from django.db import connection

        from league.models import Fixture
        from league.services import tournament_create_from_preset as preset_run

        stamp = time.time_ns() % 10**12
        print(f"database: {connection.vendor}")
        print("Recording one result (league.services.result_record):")
        rwc = preset_run("rwc2023", name="RWC", slug=f"bench-rwc-{stamp}")
        pool_a = list(Fixture.objects.filter(tournament=rwc, pool__name="A").order_by("pk"))
        spare = Fixture.objects.filter(tournament=rwc, pool__name="B").order_by("pk").first()
        results_case("RWC 2023: a pool result", pool_a[0], spare, args.rounds)
        from league.services import result_record

        for fixture in pool_a[1:-1]:
            result_record(fixture=fixture, home_score=20, away_score=10, home_tries=3, away_tries=1)
        results_case("RWC 2023: the result completing pool A", pool_a[-1], spare, args.rounds)
        knockout = preset_run("single_elimination", name="KO", slug=f"bench-ko-{stamp}", teams=_teams(64))
        first = Fixture.objects.filter(tournament=knockout, round_number=1).order_by("slot").first()
        other = Fixture.objects.filter(tournament=knockout, round_number=1).order_by("slot").last()
        results_case("64-team knockout: a first-round result", first, other, args.rounds)
        league = preset_run("league", name="Big", slug=f"bench-big-{stamp}", teams=_teams(args.teams))
        two = list(Fixture.objects.filter(tournament=league).order_by("pk")[:2])
        results_case(f"{args.teams}-team league: a result", two[0], two[1], args.rounds)
        print(f"Generating fixtures ({connection.vendor}):")
        generation_case(args.teams, args.generation_rounds)
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
