"""Fixtures shared by the league tests of stored texts (reasons, summaries, notes, tie-breaks)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from league.services import tournament_create_from_preset as preset_run


@pytest.fixture
def organiser_client(organiser):
    """The organiser signed in on the site."""
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def organiser_api(organiser):
    """The organiser authenticated on the API."""
    client = APIClient()
    client.force_authenticate(organiser)
    return client


@pytest.fixture
def four(organiser):
    """A four-team league of the organiser's."""
    return preset_run("league", name="Four", slug="four", teams=["IRE", "SCO", "ITA", "WAL"], user=organiser)
