"""Shared by the bad-input tests (API fuzzing, web forms): a digest of every stored row a refused write must keep."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.authtoken.models import Token

from league.models import Division, Entry, Event, Fixture, Pool, Result, ResultChange, Team, Tournament
from matches.models import EntryPass, Match, MatchAction, MatchSeat, SimulationRun

DIGEST_MODELS = (Tournament, Tournament.organisers.through, Team, Entry, Pool, Fixture, Result, ResultChange, Match,
                 MatchSeat, MatchAction, EntryPass, SimulationRun, Token, Event, Event.organisers.through, Division)


def database_digest(exclude: tuple = ()) -> list:
    """Every league and match row (all columns), and the accounts, in a stable order: equal digests, same data."""
    rows = [list(model.objects.order_by("pk").values_list()) for model in DIGEST_MODELS if model not in exclude]
    # Accounts without last_login (signing in by a test client changes it; it is not the users' data).
    rows.append(list(get_user_model().objects.order_by("pk").values_list("pk", "username", "password",
                                                                         "is_superuser")))
    return rows


def rows_written() -> int | None:
    """How many rows the test's transaction has inserted, updated or deleted so far, by PostgreSQL's own count
    (``pg_stat_xact_user_tables``: it also sees COPY, which Django's cursor never does); None on SQLite."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_xact_user_tables")
        return cursor.fetchone()[0]


class StoredRows:
    """Every row of ``database_digest`` as it was when made: ``same()`` says whether they still are.

    A request that inserted, updated and deleted no row since ``watch()`` (the count of ``rows_written``) cannot have
    changed any, so the digest is read again only after one that wrote: most refused requests write nothing, and the
    digest's 18 queries after each were the largest cost of the bad-input fuzzing (on SQLite, which keeps no count,
    it is read every time)."""

    def __init__(self, exclude: tuple = ()):
        self.exclude = exclude
        self.digest = database_digest(exclude)
        self.watch()

    def watch(self) -> None:
        """Count the writes from now on (before each request: a rolled-back savepoint's writes stay counted)."""
        self.written = rows_written()

    def same(self) -> bool:
        """The rows are as they were when this was made."""
        written = rows_written()
        return (written is not None and written == self.written) or database_digest(self.exclude) == self.digest
