"""Parallel test workers (pytest -n) copy one migrated test database instead of each migrating its own
(tests/conftest.py), and so do the sites and Celery workers their tests start (tests/live_site.py's fresh_database).

Migrating cost each worker, and each site on PostgreSQL, about 20 s of CPU; a copy of the template, which the
controller migrates once before the workers start, takes a fraction of a second.
"""

from __future__ import annotations

import os
import uuid

import psycopg
import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.conftest import TEMPLATE_ENV, TEMPLATE_KEY
from tests.live_site import fresh_database

pytestmark = pytest.mark.skipif(not os.environ.get("DATABASE_URL", "").startswith("postgres"),
                                reason="the template is PostgreSQL's (bash scripts/test starts one)")


def _copies_expected(config) -> bool:
    """A worker of a parallel run that makes its databases afresh (no --reuse-db, migrations on)."""
    return (hasattr(config, "workerinput") and not config.getoption("reuse_db")
            and not config.getoption("nomigrations"))


def test_a_fresh_database_is_a_copy_of_the_migrated_template_in_a_parallel_run(pytestconfig):
    expected = _copies_expected(pytestconfig)
    assert bool(os.environ.get(TEMPLATE_ENV)) == expected
    base = os.environ["DATABASE_URL"]
    name = f"rugby_fresh_{uuid.uuid4().hex[:10]}"
    copied = fresh_database(base, name)
    try:
        assert copied == expected
        with psycopg.connect(base.rsplit("/", 1)[0] + f"/{name}") as conn:
            tables = {row[0] for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")}
            if not copied:  # the caller migrates it
                assert tables == set()
                return
            applied = set(conn.execute("SELECT app, name FROM django_migrations").fetchall())
            nations = conn.execute("SELECT count(*) FROM league_team WHERE is_nation").fetchone()[0]
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    # Every migration of the code on disk, and the rows of the data migrations.
    assert applied == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
    assert nations == 20


@pytest.mark.django_db
def test_the_workers_own_test_database_is_made_from_the_template(pytestconfig):
    template = connection.settings_dict["TEST"].get("TEMPLATE")
    if _copies_expected(pytestconfig):
        assert template == pytestconfig.workerinput[TEMPLATE_KEY]
        assert connection.settings_dict["NAME"] != template
    else:
        assert template is None
    # Made from it or migrated, the worker's database has every migration applied.
    applied = set(MigrationLoader(connection).applied_migrations)
    assert applied == set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
