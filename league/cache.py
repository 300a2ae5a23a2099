"""Caching of the public pages.

A crowd refreshing the standings at a prize-giving must not load the database.

* The expensive part of each public page (tables, fixtures, bracket) is rendered once and kept under a key
  that contains ``tournament.version``. Every service that changes what visitors see (``league.services``:
  results, entries, draws, fixtures, withdrawals, settings, publishing) calls :func:`tournament_changed`,
  which bumps that version: a new version is simply a new key, so a stale fragment is never served, and old
  entries expire by themselves. Only services call it: views, the API and the admin never do.
* The tournament itself (its id, version, status...) is looked up by slug through the cache too, so a
  cached page costs no query at all. That entry is dropped when the change is *committed*
  (``transaction.on_commit``), never before: a visitor cannot store the old data under the new version.
  A short timeout bounds the one remaining race (a reader that fetched the row just before the commit and
  stores it just after).
* Pages for visitors who are not signed in are cached whole for a few seconds (they also show the matches
  being played live, which change without a result).
* API lists (``league.api``) are cached as JSON the same way: a tournament's lists under its version, and
  the lists across tournaments (``/api/tournaments/``, ``/api/teams/``...) under the site's *data version*
  (:func:`data_version`), which :func:`tournament_changed`, :func:`forget_tournament` and the services that
  change teams or organisers bump with :func:`data_changed`.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from django.core.cache import cache
from django.db import connection, transaction
from django.utils.translation import get_language

from league.models import Tournament

_TABLE = connection.ops.quote_name(Tournament._meta.db_table)
# Old versions are never read again; they only need to live long enough to be useful.
FRAGMENT_TIMEOUT = 60 * 60 * 6
# The tournament row looked up by slug: dropped on every committed change, this only bounds a rare race.
TOURNAMENT_TIMEOUT = 30
# Whole pages for anonymous visitors and the "live now" lists: refreshed this often at most.
LIVE_TIMEOUT = 5
# Bump when the page templates change, so a shared cache (Redis) never serves HTML of the previous release.
TEMPLATE_REVISION = 4


def fragment_key(tournament: Tournament, name: str, *parts: object) -> str:
    """Cache key of one page fragment: tournament, its version, the visitor's language, the page and its arguments."""
    extra = ":".join(str(p) for p in parts)
    return (f"league:page:r{TEMPLATE_REVISION}:{tournament.pk}:v{tournament.version}:{get_language() or 'en'}:"
            f"{name}:{extra}")


def cached_fragment(tournament: Tournament, name: str, build: Callable[[], str], *parts: object,
                    timeout: int = FRAGMENT_TIMEOUT) -> str:
    """Return the HTML of a page fragment, building (and storing) it only when it is not cached yet."""
    key = fragment_key(tournament, name, *parts)
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, timeout)
    return html


def _slug_key(slug: str) -> str:
    return f"league:tournament:r{TEMPLATE_REVISION}:{slug}"


def tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament with this slug (None when there is none), from the cache when possible."""
    if len(slug) > Tournament._meta.get_field("slug").max_length:
        return None  # no such slug can exist, and so long a cache key is refused by memcached
    key = _slug_key(slug)
    tournament = cache.get(key)
    if tournament is None:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is not None:
            cache.set(key, tournament, TOURNAMENT_TIMEOUT)
    return tournament


def forget_tournament(slug: str) -> None:
    """Drop the cached tournament row now and again once the current transaction commits.

    Now: later reads in this transaction (and tests, which never commit) see the change. After the commit:
    a visitor who read the old row meanwhile and cached it does not keep it.
    """
    key = _slug_key(slug)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
    data_changed()


def tournament_changed(tournament: Tournament) -> None:
    """Mark everything visitors see of this tournament as out of date (bump its version).

    The in-memory object is updated too, so a page rendered later in the same
    request uses the new key.
    """
    # One statement that bumps and reads back (RETURNING: PostgreSQL, and SQLite since 3.35): this runs on every
    # result, so it is one query instead of an UPDATE and a SELECT.
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_TABLE} SET version = version + 1 WHERE id = %s RETURNING version", [tournament.pk])
        row = cursor.fetchone()
    if row is not None:
        tournament.version = row[0]
    forget_tournament(tournament.slug)


# -- The site's data version: the key of lists across tournaments ---------------------------------------------

_DATA_KEY = f"league:data-version:r{TEMPLATE_REVISION}"


def data_version() -> int:
    """A number that changes whenever anything a list across tournaments shows may have changed."""
    version = cache.get(_DATA_KEY)
    if version is None:
        # Emptied or evicted: start again from the clock (in microseconds), above any number used before.
        cache.add(_DATA_KEY, time.time_ns() // 1000, None)
        version = cache.get(_DATA_KEY, 0)
    return int(version)


def _bump_data_version() -> None:
    with contextlib.suppress(ValueError):  # not there: the next read starts from the clock
        cache.incr(_DATA_KEY)


def data_changed() -> None:
    """Mark the lists across tournaments out of date, now and again once the transaction commits (as
    :func:`forget_tournament` does, so nobody stores the old rows under the new number)."""
    _bump_data_version()
    transaction.on_commit(_bump_data_version)
