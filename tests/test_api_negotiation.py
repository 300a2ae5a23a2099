"""The API's content negotiation (config.negotiation): DRF's choice, answered at once for JSON clients."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIClient

from config.negotiation import Negotiation

RENDERERS = [JSONRenderer(), BrowsableAPIRenderer()]


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "text/html", "application/json; indent=2",
                                    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
                                    "application/*", ""])
@pytest.mark.parametrize("query", ["", "tournament=x", "format=json", "format=api", "tournament=x&format=api"])
def test_the_same_choice_as_drf(accept, query):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get(f"/api/pools/?{query}", **headers))
    assert _choice(Negotiation(), request) == _choice(DefaultContentNegotiation(), request)


def _choice(negotiation, request):
    """The renderer and media type chosen, or the refusal (406) raised."""
    try:
        renderer, media_type = negotiation.select_renderer(request, RENDERERS)
    except NotAcceptable as refused:
        return type(refused)
    return type(renderer), media_type


@pytest.mark.parametrize("accept", [None, "*/*", "application/json"])
def test_a_json_client_is_answered_without_the_general_case(accept, monkeypatch):
    def general(*args, **kwargs):
        raise AssertionError("the general case ran")

    monkeypatch.setattr(DefaultContentNegotiation, "select_renderer", general)
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(RequestFactory().get("/api/pools/?tournament=x", **headers))
    renderer, media_type = Negotiation().select_renderer(request, RENDERERS)
    assert type(renderer) is JSONRenderer and media_type == "application/json"


@pytest.mark.django_db
def test_the_api_still_serves_its_browsable_pages_and_json():
    client = APIClient()
    assert client.get("/api/teams/", HTTP_ACCEPT="text/html")["Content-Type"].startswith("text/html")
    assert client.get("/api/teams/")["Content-Type"] == "application/json"
    assert client.get("/api/teams/?format=api")["Content-Type"].startswith("text/html")
