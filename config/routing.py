"""URL patterns grouped so that Django tries only the patterns that can match a request.

Django resolves a path by trying every pattern in order. The API has about a hundred (each viewset's routes,
each with its ``.json``-style twin), so a request for ``/api/tournaments/<slug>/odds/`` tried 106 regular
expressions (0.16 ms, a sixth of a cached answer) before it matched. Grouping the patterns by their first path
segment behind a zero-width lookahead leaves every URL and every URL name as it was (``reverse()`` ignores
lookaheads) and tries one group's patterns only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.urls import URLPattern, URLResolver
from django.urls.resolvers import RegexPattern

_FIRST_SEGMENT = re.compile(r"\^?([-\w]*)")


def first_segment(pattern: URLPattern | URLResolver) -> str:
    """The literal text a pattern's path starts with, up to the first ``/``, ``.`` or parameter."""
    match = _FIRST_SEGMENT.match(str(pattern.pattern))
    return match.group(1) if match else ""


class _Lookahead(RegexPattern):
    """A zero-width prefix: it picks a group and adds nothing to a URL's text (a route, the API schema's paths)."""

    def __str__(self) -> str:
        return ""


def by_first_segment(patterns: Sequence[URLPattern | URLResolver]) -> list[URLResolver]:
    """``patterns`` grouped by their first segment, each group behind a lookahead for it (order kept within a
    group; patterns of different groups cannot match the same path)."""
    groups: dict[str, list[URLPattern | URLResolver]] = {}
    for pattern in patterns:
        groups.setdefault(first_segment(pattern), []).append(pattern)
    return [URLResolver(_Lookahead(rf"^(?={re.escape(segment)}(?:[/.]|$))"), group)
            for segment, group in groups.items()]
