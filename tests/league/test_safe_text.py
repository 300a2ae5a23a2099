"""Safe exports and input (issue 16.6): formulas are neutralised in every CSV export; control and
bidirectional-override characters are stripped from names and venues by the services."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from rest_framework.test import APIClient

from league import services
from league.models import Team
from league.text import clean_text, csv_cell
from tests.league.api_factories import make_team, make_tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("raw", "clean"), [
    ("Greenfield\u202eloohcS", "GreenfieldloohcS"),
    ("\u2067NZ\u2069 40", "NZ 40"),
    ("Pitch 1\rX-INJECT:1", "Pitch 1 X-INJECT:1"),
    ("A\x00B\tC\nD", "A B C D"),
    ("  Saint  John's  ", "Saint John's"),
    ("Ōtāhuhu 👨‍👩‍👧", "Ōtāhuhu 👨‍👩‍👧"),  # letters and emoji (with their joiners) stay
])
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


@pytest.mark.parametrize("value", ["=1+1", "+27 82", "-5", "@SUM(A1)", "\tx", "\rx"])
def test_formula_cells_are_neutralised(value):
    assert csv_cell(value) == "'" + value
    assert csv_cell(-5) == -5 and csv_cell("Wales") == "Wales"


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_every_csv_export_neutralises_formulas(client, organiser):
    make_team("EVL", '=HYPERLINK("http://evil.example","Tickets")')  # the site's: entries_add names it
    tournament = make_tournament("formula", user=organiser, fixtures=False, teams=("FRA", "NZL", "EVL"))
    services.fixtures_generate_round_robin(tournament=tournament, start_date=date(2027, 3, 6),
                                           venues=["=cmd|' /C calc'!A0", "+Field"], replace=False)
    fixture = tournament.fixtures.filter(home__team__code="EVL").first() or tournament.fixtures.filter(
        away__team__code="EVL").first()
    services.result_correct(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1)
    cells = []
    for what in ("fixtures", "results", "standings"):
        response = client.get(f"/t/formula/export/{what}.csv")
        assert response.status_code == 200
        cells += [cell for row in _rows(response.content.decode()) for cell in row]
    assert "'=cmd|' /C calc'!A0" in cells
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]


def test_names_and_venues_are_cleaned_by_the_services(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post("/api/teams/", {"code": "RLO", "name": "Greenfield\u202e School\r"}, format="json")
    assert response.status_code == 201
    assert Team.objects.get(code="RLO").name == "Greenfield School"
    tournament = make_tournament("venues", user=organiser)
    fixture = tournament.fixtures.first()
    response = client.patch(f"/api/fixtures/{fixture.pk}/", {"venue": "Pitch 2\rX-EVIL:1"}, format="json")
    assert response.status_code == 200, response.content
    fixture.refresh_from_db()
    assert fixture.venue == "Pitch 2 X-EVIL:1"
    services.tournament_update(tournament=tournament, name="Cup \u202etsal")
    tournament.refresh_from_db()
    assert tournament.name == "Cup tsal"
