"""The PostgreSQL plan of a fixture query when only one of the fixture's indexes exists.

Tests of the partial indexes ask whether an index *can* serve a query. On a handful of rows the planner finds
another index as cheap and takes whichever the table's statistics of the moment favour (it did once in a parallel
CI run), so the plan is read with the other indexes dropped inside a transaction that is rolled back.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import QuerySet


def plan_with_only(queryset: QuerySet, index: str, *, sorts: bool = True) -> str:
    """EXPLAIN ``queryset`` with sequential scans off (and sorts, unless ``sorts``) and every index of
    ``league_fixture`` but ``index`` and those behind constraints dropped; the indexes come back on rollback."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        if not sorts:
            cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SELECT indexrelid::regclass::text FROM pg_index i WHERE indrelid = 'league_fixture'::regclass "
                       "AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)")
        others = [name for (name,) in cursor.fetchall() if name != index]
        assert len(others) >= 5  # the fixture's other indexes (a wrong query would make the test prove nothing)
        for name in others:
            cursor.execute(f"DROP INDEX {name}")
        sql, params = queryset.query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        transaction.set_rollback(True)
    return plan
