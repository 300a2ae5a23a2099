"""A table's tie-break explanations in the reader's language, cached tables included (issue 14.4).

The standings keep each decision as a criterion and the teams' names; the words are made by
``league.stored_texts.tie_break_text`` when a page, the API or an export shows them, and the caches of pages and
API answers are per language.
"""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from league import selectors, services
from league.services import tournament_create_from_preset as preset_run
from tests.league.core_helpers import fixture_between, in_french

pytestmark = pytest.mark.django_db


def record(tournament, home, away, hs, as_, ht=0, at=0):
    fixture = fixture_between(tournament, home, away)
    if fixture.home.team.code != home:
        hs, as_, ht, at = as_, hs, at, ht
    services.result_record(fixture=fixture, home_score=hs, away_score=as_, home_tries=ht, away_tries=at)


def test_a_cached_table_explains_its_tie_breaks_in_each_readers_language(organiser, client):
    t = preset_run("league", name="Six", slug="six", teams=["IRE", "SCO", "ITA", "WAL"], points_system="six_nations",
                   user=organiser)
    record(t, "SCO", "IRE", 13, 10, 1, 1)
    record(t, "IRE", "ITA", 60, 0, 3, 0)
    record(t, "ITA", "SCO", 13, 0, 1, 0)
    record(t, "WAL", "IRE", 20, 0, 3, 0)
    record(t, "WAL", "SCO", 0, 20, 0, 3)
    record(t, "WAL", "ITA", 0, 20, 0, 3)
    # English first, so that the table (and the API's JSON) is cached; then French from the same cache.
    english = APIClient().get("/api/tournaments/six/standings/", HTTP_ACCEPT_LANGUAGE="en").json()[0]["rows"][0]
    assert english["explanation"] == "above Italy on points difference"
    french = APIClient().get("/api/tournaments/six/standings/", HTTP_ACCEPT_LANGUAGE="fr").json()[0]["rows"][0]
    assert french["explanation"] == "au-dessus de Italy à la différence de points"
    assert french["tie_breaks"] == [{"criterion": "points_difference", "teams": ["ITA"],
                                     "text": "au-dessus de Italy à la différence de points"}]
    with translation.override("af"):
        assert selectors.tournament_standings_data(t)[0]["rows"][0]["explanation"] == "bo Italy op puntverskil"
    # The CSV export and the public page, in French.
    in_french(client)
    csv_rows = list(csv.DictReader(io.StringIO(client.get("/t/six/export/standings.csv").content.decode())))
    assert csv_rows[0]["explanation"] == "au-dessus de Italy à la différence de points"
    html = client.get(reverse("league:tournament", args=["six"])).content.decode()
    assert "au-dessus de Italy à la différence de points" in html
