"""Issue 16.1: a team belongs to the organiser who made it (the 20 nations to the site). Naming a team finds only
the nations and the caller's own teams; only the owner changes a team, and a change refreshes every page showing
it; codes are unique per owner (a database constraint), so two schools can both be "STJ".

``test_the_hijack_of_issue_16_fails`` is the sequence the issue reported: on the code before this change B's
rename reached A's public page (it fails there at the first assertion: A's league entered B's team).
"""

from __future__ import annotations

import io

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from league import selectors, services
from league.models import AuditRecord, Entry, Team, Tournament
from tests.league.api_factories import make_team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user(username="alice", password="pw-alice-1")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(username="bob", password="pw-bob-1")


def web(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_hijack_of_issue_16_fails(alice, bob, client):
    # B creates "Greenfield School" (through the API, as a stranger to A).
    assert api(bob).post("/api/teams/", {"name": "Greenfield School", "code": "GFS"}, format="json").status_code == 201
    # A creates a league naming "Greenfield School" on the new-tournament form...
    response = web(alice).post(reverse("league:tournament_new"), {
        "name": "Winter league", "format": "league", "points_system": "world_rugby", "visibility": "public",
        "teams_text": "Greenfield School\nHill College\nRiver High"})
    assert response.status_code == 302
    league = Tournament.objects.get(slug="winter-league")
    greenfield = league.entries.get(team__name="Greenfield School").team
    # ...and gets a team of A's own, not B's.
    assert greenfield.owner == alice
    bobs = Team.objects.get(owner=bob, code="GFS")
    assert greenfield.pk != bobs.pk
    # B renames B's team: A's public page does not change.
    assert api(bob).patch("/api/teams/GFS/", {"name": "Visit evil.example for tickets"},
                          format="json").status_code == 200
    html = client.get(reverse("league:tournament", args=[league.slug])).content.decode()
    assert "Greenfield School" in html and "evil.example" not in html
    # B cannot rename A's team, by the API or the page: it is not even found.
    assert api(bob).patch(f"/api/teams/{greenfield.code}/", {"name": "Hacked"}, format="json").status_code == 404
    assert web(bob).post(reverse("league:team_edit", args=[greenfield.pk]),
                         {"action": "save", "name": "Hacked", "code": greenfield.code,
                          "primary_colour": "#000000", "secondary_colour": "#FFFFFF"}).status_code == 404
    # Nor enter it in B's own tournament by its code.
    cup = services.tournament_create(name="Bob's cup", slug="bobs-cup", user=bob)
    answer = api(bob).post("/api/entries/", {"tournament": "bobs-cup", "team": greenfield.code}, format="json")
    assert answer.status_code == 400 and "team" in answer.json()
    assert not cup.entries.exists()
    greenfield.refresh_from_db()
    assert greenfield.name == "Greenfield School"


def test_two_schools_can_both_be_stj_and_the_database_says_so(alice, bob):
    a = make_team("STJ", "St John's College", user=alice)
    b = make_team("STJ", "St Joseph's", user=bob)
    assert a.code == b.code and a.pk != b.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(code="STJ", name="Another", owner=alice)
    with pytest.raises(IntegrityError), transaction.atomic():
        Team.objects.create(code="FRA", name="Not France")  # the site's codes are unique too
    with pytest.raises(ValidationError, match="You already have a team with this code"):
        services.team_save(team=Team(name="Again", code="STJ"), user=alice)


def test_an_own_team_cannot_take_a_nations_code(alice):
    with pytest.raises(ValidationError, match="FRA is the code of France"):
        services.team_save(team=Team(name="Fraserburgh", code="FRA"), user=alice)
    with pytest.raises(ValidationError, match="code of France"):
        services.teams_from_rows(rows=[{"name": "Fraserburgh", "code": "FRA", "line": 1}], owner=alice)


def test_naming_resolves_only_among_the_nations_and_the_callers_teams(alice, bob):
    mine = make_team("GHS", "Grey High", user=alice)
    make_team("PBH", "Paul Roos", user=bob)
    site = make_team("SIT", "Site XV")  # a team of the site (the command line's)
    assert services.teams_resolve(["ghs", "Grey High", "FRA", "new zealand"], owner=alice) == [
        mine, mine, Team.objects.get(code="FRA"), Team.objects.get(code="NZL")]
    for name in ("PBH", "Paul Roos", "SIT"):
        with pytest.raises(ValidationError, match="Unknown team"):
            services.teams_resolve([name], owner=alice)
    # The command line is the site: the nations and the site's teams, never an organiser's.
    assert services.teams_resolve(["SIT", "FRA"]) == [site, Team.objects.get(code="FRA")]
    with pytest.raises(ValidationError, match="Unknown team"):
        services.teams_resolve(["GHS"])
    call_command("create_tournament", "--preset", "league", "--name", "Site league", "--teams", "SIT,FRA",
                 stdout=io.StringIO())
    with pytest.raises(CommandError, match="Unknown team"):
        call_command("create_tournament", "--preset", "league", "--name", "Bad", "--teams", "GHS,FRA",
                     stdout=io.StringIO())


def test_a_pasted_list_reuses_the_callers_teams_and_makes_new_ones_theirs(alice, bob):
    make_team("GHS", "Grey High", user=alice)
    make_team("GHS", "Grey High", user=bob)
    teams = services.teams_from_rows(rows=[{"name": "Grey High", "line": 1}, {"name": "France", "line": 2},
                                           {"name": "Kingswood", "line": 3}], owner=alice)
    assert [t.owner for t in teams] == [alice, None, alice]
    assert teams[0] == Team.objects.get(owner=alice, code="GHS") and teams[1].is_nation
    assert Team.objects.filter(owner=alice).count() == 2 and Team.objects.filter(owner=bob).count() == 1


def test_only_the_owner_renames_and_a_rename_refreshes_every_tournament_it_is_in(alice, bob, client):
    team = make_team("GHS", "Grey High", user=alice)
    first = services.tournament_create(name="First", slug="first", user=alice, status="in_progress")
    second = services.tournament_create(name="Second", slug="second", user=alice, status="in_progress")
    services.entries_add(tournament=first, teams=[team, "FRA"], user=alice)
    services.entries_add(tournament=second, teams=[team, "NZL"], user=alice)
    # B is a co-organiser of the second tournament: organising it does not make A's team B's.
    services.organiser_add(tournament=second, user=bob)
    with pytest.raises(ValidationError, match="Only the organiser who owns this team"):
        services.team_update(team=team, user=bob, name="Renamed by Bob")
    for slug in ("first", "second"):
        assert "Grey High" in client.get(reverse("league:team", args=[slug, "GHS"])).content.decode()
    versions = dict(Tournament.objects.values_list("slug", "version"))
    response = web(alice).post(reverse("league:team_edit", args=[team.pk]), {
        "action": "save", "name": "Grey High School", "code": "GHS", "primary_colour": "#123456",
        "secondary_colour": "#FFFFFF"})
    assert response.status_code == 302
    after = dict(Tournament.objects.values_list("slug", "version"))
    assert after["first"] > versions["first"] and after["second"] > versions["second"]
    for slug in ("first", "second"):  # cached pages follow at once
        assert "Grey High School" in client.get(reverse("league:team", args=[slug, "GHS"])).content.decode()
    record = AuditRecord.objects.get(action=AuditRecord.Action.TEAM_CHANGED, team=team)
    assert record.old == {"name": "Grey High", "primary_colour": "#1F6F3F"} and record.changed_by == alice
    assert record.new == {"name": "Grey High School", "primary_colour": "#123456"}


def test_a_code_change_may_not_clash_inside_a_tournament(alice, bob):
    mine = make_team("STJ", "St John's", user=alice)
    theirs = make_team("SJC", "St Joseph's", user=bob)
    cup = services.tournament_create(name="Shared", slug="shared", user=alice)
    services.organiser_add(tournament=cup, user=bob)
    services.entries_add(tournament=cup, teams=[mine], user=alice)
    services.entries_add(tournament=cup, teams=[theirs], user=bob)
    with pytest.raises(ValidationError, match="already has the code STJ"):
        services.team_update(team=theirs, user=bob, code="STJ")
    # Two teams with one code are never entered together either.
    other = make_team("STJ", "St James", user=bob)
    with pytest.raises(ValidationError, match="already has the code STJ"):
        services.entries_add(tournament=cup, teams=[other], user=bob)


def test_an_organiser_cannot_enter_another_organisers_team(alice, bob):
    theirs = make_team("PBH", "Paul Roos", user=bob)
    cup = services.tournament_create(name="Cup", slug="cup", user=alice)
    with pytest.raises(ValidationError, match="Not your team"):
        services.entries_add(tournament=cup, teams=[theirs], user=alice)
    assert not Entry.objects.filter(tournament=cup).exists()


def test_the_team_api_lists_the_nations_and_the_callers_teams(alice, bob):
    make_team("GHS", "Grey High", user=alice)
    make_team("PBH", "Paul Roos", user=bob)
    codes = {row["code"] for row in api(alice).get("/api/teams/?page_size=100").json()["results"]}
    assert "GHS" in codes and "PBH" not in codes and "FRA" in codes
    assert api(alice).get("/api/teams/GHS/").json()["owner"] == "alice"
    assert api(alice).get("/api/teams/PBH/").status_code == 404
    anonymous = {row["code"] for row in APIClient().get("/api/teams/?page_size=100").json()["results"]}
    assert "GHS" not in anonymous and "FRA" in anonymous
    # Changing a nation is refused to an organiser (403: it is visible, not theirs).
    assert api(alice).patch("/api/teams/FRA/", {"name": "Gaul"}, format="json").status_code == 403
    assert selectors.teams_for(alice).filter(code="PBH").count() == 0


def test_the_hijack_of_issue_16_through_the_api_fails(django_user_model, client):
    """The issue's sequence with the API alone (it also runs on the code before this change, where it fails:
    A's league gets B's team and B's rename shows on A's public page)."""
    alice = django_user_model.objects.create_user(username="a-org", password="pw-a-org-1")
    bob = django_user_model.objects.create_user(username="b-org", password="pw-b-org-1")
    as_alice, as_bob = APIClient(), APIClient()
    as_alice.force_authenticate(alice)
    as_bob.force_authenticate(bob)
    assert as_bob.post("/api/teams/", {"name": "Greenfield School", "code": "GFS"}, format="json").status_code == 201
    created = as_alice.post("/api/tournaments/", {"name": "A league", "slug": "a-league", "preset": "league",
                                                  "teams": ["Greenfield School", "FRA", "NZL"]}, format="json")
    if created.status_code == 201:  # A's league was made: with a team of A's own, never B's
        league = Tournament.objects.get(slug="a-league")
        assert not league.entries.filter(team__created_by=bob).exists()
    else:  # or A was told the name is no team of theirs
        assert created.status_code == 400 and "Greenfield School" in str(created.json())
        assert as_alice.post("/api/tournaments/", {"name": "A league", "slug": "a-league", "preset": "league",
                                                   "teams": ["FRA", "NZL"]}, format="json").status_code == 201
    as_bob.patch("/api/teams/GFS/", {"name": "Visit evil.example for tickets"}, format="json")
    assert "evil.example" not in client.get("/t/a-league/").content.decode()
    assert as_alice.patch("/api/teams/GFS/", {"name": "Renamed by A"}, format="json").status_code in (403, 404)
    assert Team.objects.get(created_by=bob).name == "Visit evil.example for tickets"
