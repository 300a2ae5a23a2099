"""Worlds made once for many tests: the rows that a module's or a class's tests all start from, made in a transaction
rolled back when the last of them ended, each test running in a savepoint of it (pytest-django's, rolled back) -- so
every test still starts from the world as made, and none sees what another changed. The pattern of
tests/league/test_web_bad_input.py's ``_world_rows`` and tests/web/test_public_pages.py's ``leagues``.

Only for tests in pytest-django's rolled-back transaction (not ``transaction=True``: a flush would empty the world).
A test asks for a fresh copy of each row it uses (``fresh``): what it changes on its copy never reaches the next
test. The caches are cleared before each test as ever (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import pytest
from django.db import transaction
from django.test import override_settings

MD5_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"  # as tests/conftest.py's, for the world's users

Rows = dict[str, tuple[type, int]]


@contextlib.contextmanager
def made_once(django_db_blocker, make: Callable[[], dict]) -> Iterator[Rows]:
    """Yields (model, primary key) of each row that ``make()`` returns by name, made in a transaction that is rolled
    back when the block ends. For a module- or class-scoped fixture (which also asks for ``django_db_setup``)."""
    with (django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=[MD5_HASHER], ODDS_AFTER_RESULT=False),
          transaction.atomic()):
        yield {name: (type(row), row.pk) for name, row in make().items()}
        transaction.set_rollback(True)


def fresh(rows: Rows, name: str):
    """A fresh copy of the world's row ``name``, read from the database."""
    model, pk = rows[name]
    return model.objects.get(pk=pk)


def class_world(make: Callable[[], dict]):
    """A class-scoped fixture of the world ``make()`` returns (``_world = class_world(make)`` in the class body)."""

    def _world(cls, django_db_setup, django_db_blocker):
        with made_once(django_db_blocker, make) as rows:
            yield rows

    # A class method, as pytest wants a class-scoped fixture of a class to be (an instance method is deprecated).
    return pytest.fixture(scope="class")(classmethod(_world))


def world_row(name: str):
    """A fixture of a fresh copy of the class world's row ``name`` (``rwc = world_row("rwc")`` in the class body)."""

    @pytest.fixture
    def row(self, _world):
        return fresh(_world, name)

    return row
