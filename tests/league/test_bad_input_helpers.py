"""The bad-input tests' check that a refused request changed no stored row sees every kind of write."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from rest_framework.authtoken.models import Token

from league.models import Team
from tests.league.api_factories import make_team
from tests.league.bad_input_helpers import StoredRows, rows_written

pytestmark = pytest.mark.django_db


def _copy_token(user) -> None:
    """A row written by COPY, as fixture generation writes on PostgreSQL: Django's cursor never sees it."""
    with connection.cursor() as cursor, cursor.cursor.copy("COPY authtoken_token (key, user_id, created) FROM STDIN") \
            as copy:
        copy.write(f"{'c' * 40}\t{user.pk}\t2026-11-25 18:00:00+00\n")


WRITES = {
    "insert": lambda team, user: make_team("ZZW", "Written", user=user),
    "update": lambda team, user: Team.objects.filter(pk=team.pk).update(name="Renamed"),
    "delete": lambda team, user: Team.objects.filter(pk=team.pk).delete(),
    "copy": lambda team, user: _copy_token(user),
}


@pytest.mark.parametrize("kind", list(WRITES))
def test_stored_rows_see_a_write(organiser, kind):
    if kind == "copy" and connection.vendor != "postgresql":
        pytest.skip("COPY is PostgreSQL's (scripts/test starts one)")
    team = make_team("ZZT", "Kept", user=organiser)
    stored = StoredRows()
    assert stored.same()
    with transaction.atomic():
        WRITES[kind](team, organiser)
        assert not stored.same()
        transaction.set_rollback(True)
    # Rolled back: the rows are as they were, though the count of writes (where kept) moved on.
    assert stored.same()
    stored.watch()
    assert stored.same()


def test_the_count_of_writes_is_kept_on_postgresql(organiser):
    """Without it every check reads the whole digest again: still right, but the saving is lost."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps no count of writes")
    before = rows_written()
    Token.objects.create(user=organiser)
    assert rows_written() == before + 1
