"""The first result of a fixture is created exactly once under simultaneous requests (issue 16.8)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league.models import Result, ResultChange, Team
from league.nations import RWC2023_NATIONS
from tests.league.api_factories import make_tournament

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(connection.vendor != "postgresql",
                                 reason="simultaneous requests need PostgreSQL (SQLite serialises whole writes)")]


def test_twenty_simultaneous_first_entries_make_one_201(organiser):
    # A transactional test before this one may have emptied the nations the data migration made.
    for code, name, primary, secondary, pool, ranking in RWC2023_NATIONS[:2]:
        Team.objects.get_or_create(code=code, defaults={
            "name": name, "primary_colour": primary, "secondary_colour": secondary, "is_nation": True,
            "rwc2023_pool": pool, "world_ranking": ranking})
    tournament = make_tournament("race", user=organiser, teams=tuple(nation[0] for nation in RWC2023_NATIONS[:2]))
    fixture = tournament.fixtures.get()
    token = Token.objects.create(user=organiser).key
    start = threading.Barrier(20)
    statuses: list[int] = []

    def enter(n: int) -> None:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        try:
            start.wait()
            response = client.post(f"/api/fixtures/{fixture.pk}/result/",
                                   {"home_score": 20 + n % 2, "away_score": 10, "home_tries": 2, "away_tries": 1},
                                   format="json")
            statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(statuses) == 20
    assert statuses.count(201) == 1, statuses
    assert set(statuses) <= {200, 201, 409}, statuses
    assert Result.objects.filter(fixture=fixture).count() == 1
    assert ResultChange.objects.filter(fixture=fixture, action="created").count() == 1
