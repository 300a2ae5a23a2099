"""Caching of the public pages.

A crowd refreshing the standings at a prize-giving must not load the database:
the expensive part of each public page (tables, fixtures, bracket) is rendered
once and kept in the cache under a key that contains ``tournament.version``.
``league.services.result_record`` bumps that version on every result change, and
the organiser's pages call :func:`tournament_changed` after anything else that
changes what visitors see (teams, draw, fixtures, withdrawals, settings), so a
stale page is never served: a new version is simply a new key, and old entries
expire by themselves. A cached page then costs one small query (the
tournament's id and version) plus one cache read.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache
from django.db.models import F
from django.utils.translation import get_language

from league.models import Tournament

# Old versions are never read again; they only need to live long enough to be useful.
FRAGMENT_TIMEOUT = 60 * 60 * 6
# Bump when the page templates change, so a shared cache (Redis) never serves HTML of the previous release.
TEMPLATE_REVISION = 1


def fragment_key(tournament: Tournament, name: str, *parts: object) -> str:
    """Cache key of one page fragment: tournament, its version, the visitor's language, the page and its arguments."""
    extra = ":".join(str(p) for p in parts)
    return (f"league:page:r{TEMPLATE_REVISION}:{tournament.pk}:v{tournament.version}:{get_language() or 'en'}:"
            f"{name}:{extra}")


def cached_fragment(tournament: Tournament, name: str, build: Callable[[], str], *parts: object) -> str:
    """Return the HTML of a page fragment, building (and storing) it only when it is not cached yet."""
    key = fragment_key(tournament, name, *parts)
    html = cache.get(key)
    if html is None:
        html = build()
        cache.set(key, html, FRAGMENT_TIMEOUT)
    return html


def tournament_changed(tournament: Tournament) -> None:
    """Mark everything visitors see of this tournament as out of date (bump its version).

    The in-memory object is updated too, so a page rendered later in the same
    request uses the new key.
    """
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])
