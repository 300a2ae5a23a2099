"""The API's URL patterns grouped by resource (config.routing): the same URLs, names and schema."""

from __future__ import annotations

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import NoReverseMatch
from drf_spectacular.generators import SchemaGenerator

from config.routing import by_first_segment, first_segment
from league.api_urls import urlpatterns as league_api
from matches.api_urls import urlpatterns as matches_api


def _named_api_patterns():
    for group in by_first_segment([*matches_api, *league_api]):
        for pattern in group.url_patterns:
            if not isinstance(pattern, URLResolver) and pattern.name:
                yield pattern


@pytest.mark.parametrize("pattern", list(_named_api_patterns()), ids=lambda p: f"{p.name}:{p.pattern}")
def test_every_api_url_reverses_and_resolves_to_its_own_view(pattern):
    kwargs = {name: ("1" if name in ("pk", "id", "n", "registration") else "json" if name == "format" else "x")
              for name in pattern.pattern.regex.groupindex}
    try:
        url = reverse(pattern.name, kwargs=kwargs)
    except NoReverseMatch:  # an int converter
        kwargs = {name: 1 if value in ("1", "x") else value for name, value in kwargs.items()}
        url = reverse(pattern.name, kwargs=kwargs)
    assert url.startswith("/api/")
    match = resolve(url)
    assert match.url_name == pattern.name
    assert match.func is pattern.callback


@pytest.mark.parametrize(("url", "name"), [("/api/", "api-root"), ("/api/pools.json", "pool-list"),
                                           ("/api/tournaments/x/odds/", "api-odds"), ("/api/schema/", "schema"),
                                           ("/api/tournaments/x/standings.json", "tournament-standings"),
                                           ("/t/x/", "tournament"), ("/admin/", "index")])
def test_the_urls_of_the_site_resolve_as_before(url, name):
    assert resolve(url).url_name == name


def test_an_api_read_tries_only_its_resources_patterns():
    """/api/pools/ once tried every teams, tournaments and entries pattern (about 45) before its own."""
    api = next(p for p in get_resolver().url_patterns if str(p.pattern) == "api/")
    groups = {first_segment(group.url_patterns[0]): len(group.url_patterns) for group in api.url_patterns}
    assert {"teams", "tournaments", "pools", "fixtures", "events", "matches"} <= set(groups)
    assert groups["pools"] <= 8


def test_first_segment_of_router_and_path_patterns():
    segments = {first_segment(p) for p in league_api}
    assert {"teams", "tournaments", "entries", "pools", "fixtures", "events", "token", ""} <= segments
    assert not any("/" in s or "^" in s for s in segments)


def test_the_schema_paths_are_the_apis_paths():
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert "/api/pools/{id}/standings/" in paths and "/api/tournaments/{slug}/odds/" in paths
    assert not [path for path in paths if "var" in path or "(?" in path]
