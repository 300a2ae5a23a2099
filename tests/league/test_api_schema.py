"""The OpenAPI schema generates cleanly and the docs pages load their assets from the site, not a CDN."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command

pytestmark = pytest.mark.django_db

ASSET_URL = re.compile(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def test_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    # --fail-on-warn turns any drf-spectacular warning (an unresolvable serializer, a guessed type) into an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out), stdout=StringIO(),
                 stderr=StringIO())
    text = out.read_text()
    for path in ("/api/teams/", "/api/tournaments/{slug}/standings/", "/api/fixtures/{id}/result/",
                 "/api/token/", "/api/pools/{id}/standings/"):
        assert path in text


def test_schema_endpoint_serves_the_league_paths(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    fixtures = schema["paths"]["/api/fixtures/"]["get"]
    assert {p["name"] for p in fixtures["parameters"]} >= {"tournament", "pool", "round", "team", "date"}
    assert {"post", "put", "delete", "get"} <= set(schema["paths"]["/api/fixtures/{id}/result/"])


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_docs_pages_reference_no_external_host(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assets = ASSET_URL.findall(html)
    assert assets, "the docs page should load scripts or styles"
    external = [asset for asset in assets if EXTERNAL.match(asset)]
    assert external == []
    assert all(asset.startswith("/static/") or asset.startswith("/api/") for asset in assets), assets
    # Nor any CDN named in inline script (e.g. a worker or a font fetched by the page's code).
    assert not re.search(r"https?://(?!localhost|testserver)[\w.-]+\.(?:com|net|org|io)/", html)


def test_swagger_ui_does_not_call_the_online_validator(client):
    # The init script is a file of its own (no inline script for the Content-Security-Policy).
    html = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in html
    script = client.get("/api/docs/?script=").content.decode()
    assert '"validatorUrl": null' in script


def test_docs_assets_are_served_by_the_site(client):
    html = client.get("/api/docs/").content.decode()
    from django.contrib.staticfiles import finders

    for asset in ASSET_URL.findall(html):
        if asset.startswith("/static/"):
            assert finders.find(asset.removeprefix("/static/")), asset
