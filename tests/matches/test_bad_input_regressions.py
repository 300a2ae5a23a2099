"""Regressions found by the bad-input fuzzing of the web forms (tests/league/test_web_bad_input.py): rule-set
options the engine refuses were a 500 (and left a half-made match behind); an unknown organiser action said
nothing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from league.models import Tournament
from matches import services
from matches.models import Match, MatchSeat
from tests.matches.conftest import make_fixture

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("options", [{"sets_per_half": -1}, {"sets_per_half": 0}, {"sets_per_half": 10**40},
                                     {"sets_per_half": 1e400}, {"nonsense": True}])
def test_friendly_with_options_the_engine_refuses_is_a_validation_error_and_stores_nothing(organiser, options):
    with pytest.raises(ValidationError):
        services.match_create_friendly(ruleset="rugby-league-cards", user=organiser, options=options)
    assert Match.objects.count() == 0 and MatchSeat.objects.count() == 0


def test_friendly_form_shows_the_engine_refusal(organiser):
    response = signed_in(organiser).post("/matches/new/", {"ruleset": "rugby-league-cards", "home": "me",
                                                           "away": "open", "options": '{"sets_per_half": -1}'})
    assert response.status_code == 200
    assert "at least 1" in response.content.decode()
    assert Match.objects.count() == 0
    # The JSON settings are folded away for a parent on a phone, and unfolded when they were used or refused.
    assert "<details><summary>" in signed_in(organiser).get("/matches/new/").content.decode()
    assert "<details open><summary>" in response.content.decode()


def test_starting_a_fixture_whose_stored_options_are_bad_is_a_message(tournament, organiser):
    # Options stored before they were checked (or by hand): the start is refused with the reason, not a 500.
    fixture = make_fixture(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(ruleset_options={"sets_per_half": 0})
    response = signed_in(organiser).post(f"/matches/fixture/{fixture.pk}/start/", {"next": "/t/schools-cup/"})
    assert response.status_code == 302 and response["Location"] == "/t/schools-cup/"
    assert Match.objects.count() == 0


def test_match_manage_says_so_for_an_unknown_action(organiser):
    match = services.match_create_friendly(ruleset="rugby-league-cards", user=organiser,
                                           options={"sets_per_half": 1}, seed=1)
    response = signed_in(organiser).post(f"/matches/{match.pk}/manage/", {"do": "explode"}, follow=True)
    assert "Choose what to do" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.LIVE
