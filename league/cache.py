"""Caching of the public pages: per-section tokens, so a result re-renders only what it changes.

A crowd refreshing the standings at a prize-giving must not load the database, and a result must not throw
away every cached part of a 1,000-team league's pages.

* **Sections and their tokens.** A public page is made of sections (a pool's table, a round's fixtures, a
  day's, a pitch's, a team's, a bracket, the live scores, the next kick-offs...). Each section's cached HTML is
  keyed by the *tokens* it depends on: random strings kept in the cache under names such as ``pool:12``,
  ``round:3``, ``day:2026-09-08``, ``team:55``, ``bracket:Cup``, ``live`` — plus ``all``, which every section
  depends on. A change replaces the tokens of what it changes (:func:`sections_changed`): the sections keyed
  by them get a new key, so a stale section is never served and old entries expire by themselves. A token
  missing from the cache (evicted, or a fresh cache) is simply a new random token: everything depending on it
  is built again, never served stale.
* **Who bumps what.** Only services (and the matches layer's services for live matches) call
  :func:`tournament_changed` and :func:`sections_changed`. A result bumps :func:`fixture_tokens` of its
  fixture (its pool, round, day, pitch, both teams, its bracket or the format's table, and ``next``); any other
  change bumps ``all`` (everything); every change drops the cached tournament row (its version moved). Tokens
  are replaced now *and* once the transaction commits: a visitor who read the old rows before the commit and
  stored them under the new token is overwritten by the second bump.
* **The tournament row** is looked up by slug through the cache too, so a cached page, and the live check
  answered 304, cost no query at all. It is dropped when a change is committed.
* ``Tournament.version`` (in the database) is still bumped by every change: the qualification odds and the API's
  cached lists use it to know that they are out of date.
* API lists (``league.api``) are cached as JSON the same way: a tournament's lists under its version, and
  the lists across tournaments (``/api/tournaments/``, ``/api/teams/``...) under the site's *data version*
  (:func:`data_version`), which :func:`tournament_changed`, :func:`forget_tournament` and the services that
  change teams or organisers bump with :func:`data_changed`.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from cachetools import LRUCache, TTLCache
from django.core.cache import cache
from django.db import connection, transaction
from django.utils.translation import get_language

from league.dates import local_date
from league.models import Fixture, Tournament

_TABLE = connection.ops.quote_name(Tournament._meta.db_table)
# Sections are rebuilt when a token changes; they only need to live long enough to be useful.
FRAGMENT_TIMEOUT = 60 * 60 * 6
# Tokens: a lost token only costs a rebuild, but they should outlive the sections keyed by them.
TOKEN_TIMEOUT = 60 * 60 * 24 * 2
# The tournament row looked up by slug: dropped on every committed change, this only bounds a rare race.
TOURNAMENT_TIMEOUT = 30
# Bump when the page templates change, so a shared cache (Redis) never serves HTML of the previous release.
TEMPLATE_REVISION = 8

# The token every section depends on: replaced by any change that is not a result (settings, teams, draws...).
ALL = "all"
# The "now and next" box's tokens: any result or fixture status change, and any live match's score.
NEXT = "next"
LIVE = "live"
# The format's own table (Swiss, solo leaderboard) and the qualification odds.
TABLE = "table"
ODDS = "odds"
# Replaced with every other token: the version of the tournament's public pages as a whole (a cached page, and
# the live check's ETag, are keyed by it: one cache round trip tells whether anything changed).
ANY = "any"


# Rendered answers this process served lately, by their shared-cache key. A key names the version its answer was
# built from, so an entry never goes stale; the time limit only bounds memory and what a flushed Redis (whose
# version numbers could start again) leaves behind. Each hit saves a round trip and the unpickling of the body.
_RECENT_SECONDS = 10
_recent_answers: TTLCache[str, Any] = TTLCache(maxsize=256, ttl=_RECENT_SECONDS)
_recent_lock = threading.Lock()  # TTLCache is not thread-safe, and gunicorn's gthread workers share it


def versioned_answer(key: str, build: Callable[[], Any], timeout: int) -> Any:
    """The answer kept under ``key`` (a key that names every version the answer depends on): from this
    process's recent answers, else the shared cache, else ``build()`` (kept in both unless it gave None)."""
    with _recent_lock:
        body = _recent_answers.get(key)
    if body is None:
        body = cache.get(key)
        if body is None:
            body = build()
            if body is None:
                return None
            cache.set(key, body, timeout)
        with _recent_lock:
            _recent_answers[key] = body
    return body


# Facts that never change once true (a pool's tournament), kept by this process for as
# long as it lives (bounded): each saves a cache round trip on every request that needs it.
_fixed_facts: LRUCache[str, Any] = LRUCache(maxsize=4096)


def fixed_fact(key: str, compute: Callable[[], Any]) -> Any:
    """The value of a fact that never changes, from this process's memory, else ``compute()`` (kept unless None).

    Only for facts no later change can falsify: a pool never moves to another tournament, ids are never reused.
    """
    with _recent_lock:
        value = _fixed_facts.get(key)
    if value is None:
        value = compute()
        if value is not None:
            with _recent_lock:
                _fixed_facts[key] = value
    return value


def forget_recent_answers() -> None:
    """Empty this process's recent answers and fixed facts (tests that empty the shared cache and reuse ids)."""
    with _recent_lock:
        _recent_answers.clear()
        _fixed_facts.clear()
        _slug_ids.clear()


def _token_key(tournament_id: int, name: str) -> str:
    return f"league:tok:r{TEMPLATE_REVISION}:{tournament_id}:{name}"


def _new_token() -> str:
    return secrets.token_hex(6)


def section_tokens(tournament_id: int, names: Iterable[str]) -> dict[str, str]:
    """The current token of each name (one cache round trip; a missing token is created, never reused)."""
    keys = {_token_key(tournament_id, name): name for name in dict.fromkeys(names)}
    found = cache.get_many(list(keys))
    missing = [key for key in keys if key not in found]
    if missing:
        for key in missing:
            # add, not set: two visitors finding the token missing at once agree on the first one stored.
            cache.add(key, _new_token(), TOKEN_TIMEOUT)
        found.update(cache.get_many(missing))
        for key in missing:
            found.setdefault(key, _new_token())  # a cache that stores nothing: build every time
    return {keys[key]: found[key] for key in keys}


def tokens_digest(tokens: dict[str, str], *parts: object) -> str:
    """A short digest of tokens (and other parts such as the language): the version of what depends on them."""
    text = "|".join(f"{name}={tokens[name]}" for name in sorted(tokens)) + "|" + "|".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def cached_html(tournament_id: int, name: str, tokens: dict[str, str], build: Callable[[], str]) -> str:
    """The HTML of ``name`` (a section or a page) for the current tokens and language, built only when missing."""
    key = f"league:html:r{TEMPLATE_REVISION}:{tournament_id}:{tokens_digest(tokens, name, get_language() or 'en')}"
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, FRAGMENT_TIMEOUT)
    return html


def cached_value(tournament_id: int, name: str, tokens: dict[str, str], compute: Callable[[], object]) -> object:
    """Like :func:`cached_html` for any picklable value (a page's list of pools, the current round...)."""
    key = f"league:val:r{TEMPLATE_REVISION}:{tournament_id}:{tokens_digest(tokens, name)}"
    sentinel = object()
    value = cache.get(key, sentinel)
    if value is sentinel:
        value = compute()
        cache.set(key, value, FRAGMENT_TIMEOUT)
    return value


def venue_token(venue: str) -> str:
    """The token name of a pitch (venue names are free text: hashed to a short, cache-safe name)."""
    return "venue:" + hashlib.blake2b(venue.encode(), digest_size=6).hexdigest()


def fixture_tokens(fixture: Fixture, tournament: Tournament | None = None) -> list[str]:
    """The tokens of everything a change of this fixture (its result, its status, its teams) shows on."""
    names = [NEXT, f"round:{fixture.round_number}"]
    names += [f"team:{entry_id}" for entry_id in (fixture.home_id, fixture.away_id) if entry_id]
    if fixture.pool_id:
        names.append(f"pool:{fixture.pool_id}")
    day = local_date(fixture.kickoff, tournament or fixture.tournament) if fixture.kickoff else None
    if day is not None:
        names.append(f"day:{day.isoformat()}")
    if fixture.venue:
        names.append(venue_token(fixture.venue))
    if fixture.stage == Fixture.Stage.KNOCKOUT:
        names.append(f"bracket:{fixture.bracket}")
    elif fixture.stage in (Fixture.Stage.SWISS, Fixture.Stage.SOLO):
        names.append(TABLE)
    return names


def sections_changed(tournament_id: int, names: Iterable[str]) -> None:
    """Replace the tokens ``names`` of a tournament, now and again once the current transaction commits."""
    keys = [_token_key(tournament_id, name) for name in dict.fromkeys([*names, ANY])]

    def bump() -> None:
        cache.set_many({key: _new_token() for key in keys}, TOKEN_TIMEOUT)

    bump()
    transaction.on_commit(bump)


def _slug_key(slug: str) -> str:
    return f"league:tournament:r{TEMPLATE_REVISION}:{slug}"


def tournament_by_slug(slug: str) -> Tournament | None:
    """The tournament with this slug (None when there is none), from the cache when possible."""
    if not _possible_slug(slug):
        return None
    return _tournament_row(slug, cache.get(_slug_key(slug)))


def _possible_slug(slug: str) -> bool:
    # A longer slug cannot exist, and so long a cache key is refused by memcached.
    return len(slug) <= Tournament._meta.get_field("slug").max_length


def _tournament_row(slug: str, cached: Tournament | None) -> Tournament | None:
    """The row found in the cache, else read (and cached)."""
    if cached is None:
        cached = Tournament.objects.filter(slug=slug).first()
        if cached is not None:
            cache.set(_slug_key(slug), cached, TOURNAMENT_TIMEOUT)
    return cached


# The tournament id each slug had when this process last looked: a guess (a tournament may be deleted and its
# slug taken again), checked against the row read in the same round trip.
_slug_ids: LRUCache[str, int] = LRUCache(maxsize=1024)


def tournament_with_tokens(slug: str, names: Iterable[str]) -> tuple[Tournament | None, dict[str, str]]:
    """:func:`tournament_by_slug` and the current tokens ``names`` of that tournament, in one cache round trip
    when this process has seen the slug before (two otherwise)."""
    if not _possible_slug(slug):
        return None, {}
    names = list(dict.fromkeys(names))
    with _recent_lock:
        guess = _slug_ids.get(slug)
    token_keys = {_token_key(guess, name): name for name in names} if guess is not None else {}
    found = cache.get_many([_slug_key(slug), *token_keys])
    tournament = _tournament_row(slug, found.get(_slug_key(slug)))
    if tournament is None:
        return None, {}
    if tournament.pk == guess and all(key in found for key in token_keys):
        return tournament, {name: found[key] for key, name in token_keys.items()}
    with _recent_lock:
        _slug_ids[slug] = tournament.pk
    return tournament, section_tokens(tournament.pk, names)


def forget_tournament(slug: str) -> None:
    """Drop the cached tournament row now and again once the current transaction commits.

    Now: later reads in this transaction (and tests, which never commit) see the change. After the commit:
    a visitor who read the old row meanwhile and cached it does not keep it.
    """
    key = _slug_key(slug)
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
    data_changed()


def tournament_changed(tournament: Tournament, *, sections: Iterable[str] | None = None) -> None:
    """Mark what visitors see of this tournament as out of date.

    ``sections``: the tokens of what changed (a result: :func:`fixture_tokens`); None (the default) means
    everything (token ``all``). The database version is bumped either way (the odds' freshness), and the
    in-memory object is updated too.
    """
    # One statement that bumps and reads back (RETURNING: PostgreSQL, and SQLite since 3.35): this runs on every
    # result, so it is one query instead of an UPDATE and a SELECT.
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {_TABLE} SET version = version + 1 WHERE id = %s RETURNING version", [tournament.pk])
        row = cursor.fetchone()
    if row is not None:
        tournament.version = row[0]
    forget_tournament(tournament.slug)
    # A result replaces only the tokens of what it shows (its pool, round, day, pitch, teams, bracket...).
    sections_changed(tournament.pk, [ALL] if sections is None else sections)


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
