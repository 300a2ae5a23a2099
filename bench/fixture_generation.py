"""Benchmark: generating a big league's fixtures (issue 17: a 1,000-team league's in under 5 s).

    .venv/bin/python bench/fixture_generation.py [--rounds 3] [--teams 250 500 1000] [--timed] [--sqlite]

For each size, a single round robin in one pool (499,500 fixtures for 1,000 teams) made by the organiser's
"generate fixtures" (``league.services.fixtures_generate_round_robin``, what the worker's ``FixtureJob`` runs),
commit included, paired in each round with a baseline: as many bare rows written by COPY, in one transaction,
into a scratch table with the fixture table's columns but none of its indexes or keys (the floor of writing
those rows at all); and, to tell the indexes' share from the rest, the same rows into a copy with the table's
indexes and checks (still no foreign keys). Medians of the rounds, the ratio of the pairs' median, and the
machine's load before and after. The limits that refuse such a league by default (``MAX_TEAMS_PER_TOURNAMENT``,
``MAX_FIXTURES_PER_TOURNAMENT``) are raised here, as the operator of such a league would.

The league is generated as the organiser's first "generate fixtures" with no plan (no start date, no pitches:
the fixtures have no kick-off yet); ``--timed`` gives it a start date and 8 pitches, so every fixture also
enters the indexes of days and pitches (a timed league's wait, which is longer).

Each round starts from the table a new league's generation meets in production: after a round its fixtures
are deleted and the table is vacuumed (not timed). Without the VACUUM the next round would insert the same keys
among half a million dead index entries, which a new league does not meet in production: its keys (its
tournament and entry ids, all new) are not those of deleted rows, and autovacuum clears dead rows once they are
a fifth of the table (here: at once). Regenerating with ``replace`` deletes the old fixtures in the same
transaction, which is slower and not what this measures.

``--indexes`` (PostgreSQL) tells each index's share of the largest size's generation in a figure the machine's
load does not move: the write-ahead log written (every index entry is a WAL record, and a commit waits for the
WAL), with all the table's indexes and with each one dropped in turn (put back after), each from a checkpoint. On
2026-11-25 (1,000 teams, timed): 371 MB in all, of which the rows about 87 MB; each index 34-58 MB (the pitches'
and the fixtures to play the most, the three foreign keys' 34-38 MB each); a second's share of CPU could not be
told apart under load 4-8.

The production path: PostgreSQL (``bench/servers.py``: a throw-away server unless DATABASE_URL names one, its
role a superuser as the default install's); ``--sqlite`` a temporary SQLite file (the demo's plain INSERTs).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project root, not bench/, first on the path: bench/http.py would otherwise hide the standard library's http.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bench.servers import load_average, services  # noqa: E402


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ["MAX_TEAMS_PER_TOURNAMENT"] = "5000"
    os.environ["MAX_FIXTURES_PER_TOURNAMENT"] = "5000000"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _league(teams: int):
    from league import services
    from league.models import Team

    codes = [f"G{i:04d}" for i in range(teams)]
    existing = set(Team.objects.filter(code__in=codes).values_list("code", flat=True))
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes if code not in existing],
                             batch_size=2000)
    tournament = services.tournament_create(name=f"League of {teams}", slug=f"bench-gen-{time.time_ns() % 10**12}")
    services.entries_add(tournament=tournament, teams=codes, pool="A")
    return tournament


def _bare_rows(tournament_id: int, count: int, *, indexed: bool = False) -> float:
    """Seconds to write ``count`` rows of the fixture table's columns, without its indexes and keys, by COPY
    (``indexed``: with the table's indexes and checks, still without its foreign keys)."""
    from django.db import connection, transaction

    from league.models import Fixture

    table = connection.ops.quote_name(Fixture._meta.db_table)
    columns = "(tournament_id, pool_id, stage, bracket, round_number, round_name, code, home_id, away_id, " \
              "home_source, away_source, venue, slot, status)"
    # Made before the clock starts: the floor has no Python per row (the generation has).
    lines = "".join(f"{tournament_id}\t1\tpool\t\t{i % 999 + 1}\tRound {i % 999 + 1}\t\t{i % 1000}\t{i % 997 + 1000}"
                    "\t\t\t\t0\tscheduled\n" for i in range(count))
    values = [(tournament_id, 1, "pool", "", i % 999 + 1, f"Round {i % 999 + 1}", "", i % 1000, i % 997 + 1000, "",
               "", "", 0, "scheduled") for i in range(count)] if connection.vendor != "postgresql" else []
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"CREATE TEMPORARY TABLE bench_bare (LIKE {table} INCLUDING DEFAULTS "
                           f"INCLUDING IDENTITY{' INCLUDING ALL' if indexed else ''}) ON COMMIT DROP")
            with cursor.cursor.copy(f"COPY bench_bare {columns} FROM STDIN") as copy:
                copy.write(lines)
        else:
            cursor.execute(f"CREATE TEMPORARY TABLE bench_bare AS SELECT * FROM {table} WHERE 0")
            cursor.executemany(f"INSERT INTO bench_bare {columns} VALUES ({', '.join(['%s'] * 14)})", values)
            cursor.execute("DROP TABLE bench_bare")
    return time.perf_counter() - started


def generation_case(teams: int, rounds: int, *, timed: bool = False) -> None:
    from django.db import connection

    from league import services
    from league.models import Fixture

    tournament = _league(teams)
    plan = {"start_date": date(2027, 3, 6), "venues": [f"Pitch {n}" for n in range(1, 9)]} if timed else {}
    generated, floors, indexed, count = [], [], [], 0
    for _ in range(rounds):
        started = time.perf_counter()
        count = services.fixtures_generate_round_robin(tournament=tournament, **plan)
        generated.append(time.perf_counter() - started)
        floors.append(_bare_rows(tournament.pk, count))
        if connection.vendor == "postgresql":
            indexed.append(_bare_rows(tournament.pk, count, indexed=True))
        with connection.cursor() as cursor:  # no results: a plain DELETE (the ORM would load every row)
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(Fixture._meta.db_table)} "
                           "WHERE tournament_id = %s", [tournament.pk])
            if connection.vendor == "postgresql":  # what autovacuum does after such a DELETE (see above)
                cursor.execute(f"VACUUM {connection.ops.quote_name(Fixture._meta.db_table)}")
    ratio = statistics.median(g / f for g, f in zip(generated, floors, strict=True))
    target = f"   target < 5 s: {'met' if statistics.median(generated) < 5 else 'NOT met'}" if teams >= 1000 else ""
    print(f"  {teams:5d} teams, {count:7d} fixtures: generate {statistics.median(generated):6.2f} s   baseline "
          f"(bare rows) {statistics.median(floors):5.2f} s   ratio {ratio:5.2f}{target}   (each: "
          f"{', '.join(f'{g:.2f}' for g in generated)}; baseline {', '.join(f'{f:.2f}' for f in floors)})",
          flush=True)
    if indexed:
        print(f"  {'':5s}        the same rows into a copy with the table's indexes (no foreign keys): "
              f"{statistics.median(indexed):5.2f} s   generate / that: "
              f"{statistics.median(g / i for g, i in zip(generated, indexed, strict=True)):5.2f}", flush=True)


def _generation_wal(tournament, plan: dict) -> tuple[float, int]:
    """MB of WAL one generation of ``tournament``'s fixtures writes from a checkpoint (the fixtures then deleted)."""
    from django.db import connection

    from league import services
    from league.models import Fixture

    table = connection.ops.quote_name(Fixture._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute("CHECKPOINT")  # every round pays the same full-page images
        cursor.execute("SELECT pg_current_wal_lsn()")
        start = cursor.fetchone()[0]
    count = services.fixtures_generate_round_robin(tournament=tournament, **plan)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn() - %s::pg_lsn", [start])
        wal = float(cursor.fetchone()[0]) / 1e6
        cursor.execute(f"DELETE FROM {table} WHERE tournament_id = %s", [tournament.pk])
        cursor.execute(f"VACUUM {table}")
    return wal, count


def index_shares(teams: int, *, timed: bool) -> None:
    """Each index's WAL in a generation of ``teams`` teams (all indexes, then each one dropped)."""
    from django.db import connection

    from league.models import Fixture

    tournament = _league(teams)
    plan = {"start_date": date(2027, 3, 6), "venues": [f"Pitch {n}" for n in range(1, 9)]} if timed else {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname NOT IN "
                       "(SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u'))", [Fixture._meta.db_table])
        indexes = sorted(cursor.fetchall())
    wal, count = _generation_wal(tournament, plan)
    print(f"  {count} fixtures with every index: WAL {wal:6.1f} MB; each index's share (the WAL without it):")
    for name, definition in indexes:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {connection.ops.quote_name(name)}")
        try:
            without, _ = _generation_wal(tournament, plan)
        finally:
            with connection.cursor() as cursor:
                cursor.execute(definition)
        print(f"    {name:36s} {wal - without:6.1f} MB ({(wal - without) / wal:4.0%})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead of PostgreSQL")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds per size (default 3)")
    parser.add_argument("--teams", type=int, nargs="+", default=[250, 500, 1000], help="league sizes")
    parser.add_argument("--timed", action="store_true", help="a plan with a start date and 8 pitches (kick-offs)")
    parser.add_argument("--indexes", action="store_true",
                        help="each index's WAL and CPU in the largest size's generation (PostgreSQL)")
    args = parser.parse_args()
    print(f"before: {load_average()}", flush=True)
    if args.sqlite:
        folder = tempfile.mkdtemp(prefix="rugby-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ.setdefault("VAR_DIR", folder)
        context = None
    else:
        context = services()
        context.__enter__()
    try:
        _setup()
        from django.db import connection

        with connection.cursor() as cursor:
            checks = "one check per key" if connection.vendor != "postgresql" or (
                cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user") or
                cursor.fetchone()[0]) else "row by row (the role may not set session_replication_role)"
        print(f"database: {connection.vendor}; foreign keys checked {checks}")
        print("Generating a league's fixtures (league.services.fixtures_generate_round_robin), single round robin, "
              f"{'timed (a start date, 8 pitches)' if args.timed else 'no plan yet (no kick-offs)'}:")
        for teams in args.teams:
            generation_case(teams, args.rounds, timed=args.timed)
        if args.indexes and connection.vendor == "postgresql":
            print(f"Each index's share at {max(args.teams)} teams:")
            index_shares(max(args.teams), timed=args.timed)
    finally:
        if context is not None:
            context.__exit__(None, None, None)
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
