"""The engine's three computer levels wherever the site chooses a computer seat (issue 20 item 3): entries, the
friendly form, the organiser's "give this seat to the computer", the API, simulations -- and the data migration
that renames the levels stored before."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from django.apps import apps
from rest_framework.test import APIClient

from engine import get_spec
from engine.players import LEVEL_HELP, LEVELS
from league.models import Entry
from matches import services, simulation
from matches.forms import FriendlyForm
from matches.models import Match, MatchSeat, ScoreModel
from matches.selectors import rules_current
from tests.league.api_factories import make_tournament
from tests.matches.conftest import make_fixture

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def _migration(app: str):
    (path,) = (ROOT / app / "migrations").glob("*_computer_levels.py")
    return importlib.import_module(f"{app}.migrations.{path.stem}")


def test_the_choices_are_the_engines_levels():
    for field in (Entry._meta.get_field("computer_level"), MatchSeat._meta.get_field("computer_level")):
        assert [value for value, _label in field.choices] == list(LEVELS)
        assert all(str(LEVEL_HELP[level]).split(":")[0] in str(field.help_text) for level in LEVELS)
    assert Entry._meta.get_field("computer_level").default == "club"


def test_the_friendly_form_offers_every_level_with_help(players, client):
    values = [value for value, _label in FriendlyForm().fields["away"].choices]
    assert values == ["me", "open", *(f"computer:{level}" for level in LEVELS)]
    client.force_login(players[0])
    page = client.get("/matches/new/").content.decode()
    for level in LEVELS:
        assert f'value="computer:{level}"' in page
    assert "peeking at hidden cards" in page  # the levels' help is on the page


@pytest.mark.parametrize("level", LEVELS)
def test_a_friendly_against_each_level_is_played_by_that_level(players, level):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home=f"computer:{level}", away="me",
                                           seed=4)
    seats = {s.seat: s for s in match.seats.all()}
    assert seats[0].kind == MatchSeat.Kind.COMPUTER and seats[0].computer_level == level
    assert match.ply >= 1, "the computer (home, first to pick) has moved at once"
    assert seats[0].label == f"Computer ({level})"


def test_former_level_names_are_taken_as_todays_and_unknown_ones_refused(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:aware")
    assert match.seats.get(seat=1).computer_level == "club"
    with pytest.raises(services.DomainError, match="choose from beginner, club, international"):
        services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:genius")


def test_the_organiser_gives_a_seat_to_an_international_player(organiser, players, client):
    match = services.match_create_friendly(ruleset="seasons", user=organiser, home="me", away="open")
    client.force_login(organiser)
    page = client.get(f"/matches/{match.pk}/manage/").content.decode()
    assert '<option value="club" selected>' in page and '<option value="international">' in page
    response = client.post(f"/matches/{match.pk}/manage/", {"do": "computer", "seat": 1, "level": "international"})
    assert response.status_code == 302
    assert match.seats.get(seat=1).computer_level == "international"
    client.post(f"/matches/{match.pk}/manage/", {"do": "computer", "seat": 1, "level": "grandmaster"})
    assert match.seats.get(seat=1).computer_level == "international", "an unknown level changes nothing"


def test_the_api_takes_each_level_and_the_former_names(organiser):
    make_tournament("pub", user=organiser)
    entry = Entry.objects.get(tournament__slug="pub", team__code="FRA")
    client = APIClient()
    client.force_authenticate(organiser)
    for sent, stored in (("international", "international"), ("beginner", "beginner"), ("aware", "club"),
                         ("random", "beginner")):
        response = client.patch(f"/api/entries/{entry.pk}/", {"computer_level": sent}, format="json")
        assert response.status_code == 200, response.json()
        entry.refresh_from_db()
        assert entry.computer_level == stored == response.json()["computer_level"]
    response = client.patch(f"/api/entries/{entry.pk}/", {"computer_level": "genius"}, format="json")
    assert response.status_code == 400 and "computer_level" in response.json()


def test_simulations_play_the_international_level_at_its_bulk_budget(tournament, monkeypatch):
    fixture = make_fixture(tournament)
    Entry.objects.filter(pk=fixture.home_id).update(computer_level="international")
    made = []
    real = simulation.make_player

    def spy(ruleset, level, **kwargs):
        made.append((level, kwargs))
        return real(ruleset, level, **kwargs)

    monkeypatch.setattr(simulation, "make_player", spy)
    outcome = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=3)
    assert ("international", {"simulation": True}) in made
    levels = dict(Match.objects.get(pk=outcome.match_id).seats.values_list("seat", "computer_level"))
    assert levels[0] == "international"


def test_the_data_migration_renames_stored_levels_both_ways(tournament, players):
    fixture = make_fixture(tournament)
    entry, other = fixture.home, fixture.away
    Entry.objects.filter(pk=entry.pk).update(computer_level="aware")
    Entry.objects.filter(pk=other.pk).update(computer_level="random")
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="open")
    MatchSeat.objects.filter(match=match, seat=1).update(kind=MatchSeat.Kind.COMPUTER, computer_level="random")
    ScoreModel.objects.create(ruleset="seasons", home_level="aware", away_level="aware", samples=[[6, 0, 5, 0]])
    ScoreModel.objects.create(ruleset="seasons", home_level="club", away_level="club", samples=[[6, 0, 5, 0]])

    league_migration, matches_migration = _migration("league"), _migration("matches")
    league_migration.rename(league_migration.FORWARDS)(apps, None)
    matches_migration.rename(matches_migration.FORWARDS)(apps, None)
    assert Entry.objects.get(pk=entry.pk).computer_level == "club"
    assert Entry.objects.get(pk=other.pk).computer_level == "beginner"
    assert MatchSeat.objects.get(match=match, seat=1).computer_level == "beginner"
    assert list(ScoreModel.objects.values_list("home_level", flat=True)) == ["club"], "stale score models dropped"

    Entry.objects.filter(pk=other.pk).update(computer_level="international")
    league_migration.rename(league_migration.BACKWARDS)(apps, None)
    matches_migration.rename(matches_migration.BACKWARDS)(apps, None)
    assert Entry.objects.get(pk=entry.pk).computer_level == "aware"
    assert Entry.objects.get(pk=other.pk).computer_level == "aware"
    assert MatchSeat.objects.get(match=match, seat=1).computer_level == "random"
    assert not ScoreModel.objects.exists()


def test_a_bokx_match_recorded_before_the_touch_in_goal_change_is_archived_not_replayed(players, client):
    """Issue 20 changed a Bokx restart (a kick into touch-in-goal: a scrum, no longer a 22 m kick-off), so the
    rule set's version moved on: a match recorded under the old version may not replay to what was played, and
    the site shows what was stored instead (play19's ``rules_current``)."""
    match = services.match_create_friendly(ruleset="bokx", user=players[0], home="me", away="computer:club", seed=1)
    assert match.rules_version == get_spec("bokx").rules_version != "3.01-engine.2"
    assert services.match_state_or_none(match) is not None
    Match.objects.filter(pk=match.pk).update(rules_version="3.01-engine.2")
    match.refresh_from_db()
    assert not rules_current(match) and services.match_state_or_none(match) is None
    client.force_login(players[0])
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="archived-note"' in html and "3.01-engine.2" in html
