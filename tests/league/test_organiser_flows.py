"""Issue 14.1, 14.2 and 14.8 through the pages (Django's test client): every format created from the form, with
its teams or as a draft; seeds, pools, entries, results, organisers and tournaments changed or deleted with a
confirmation and an audit row; result forms in the teams' names; Swiss and solo tables with names and CSVs."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from config.middleware import forget_recent_users
from league import selectors, services
from league.formats import FORMATS
from league.models import AuditRecord, Entry, Fixture, Result, ResultChange, Team, Tournament
from league.services import tournament_create_from_preset as preset_run
from league.standings import POINTS_PRESETS
from tests.league.api_factories import make_team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def org(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user(username="friend", password="pw-friend-1")


def new(client, **data):
    payload = {"name": "Festival", "format": "league", "points_system": "world_rugby", "visibility": "public",
               **data}
    return client.post(reverse("league:tournament_new"), payload)


def form_errors(response) -> str:
    return " ".join(m for messages in response.context["form"].errors.values() for m in messages)


# --- create from every format --------------------------------------------------------------------------------


PASTED = "\n".join(["Grey High", "Kingswood", "St Andrew's", "Selborne", "Dale", "Queens", "Hudson Park",
                    "Cambridge"])


@pytest.mark.parametrize("format_id", sorted(FORMATS))
def test_every_format_is_created_from_the_form_with_pasted_teams(org, organiser, format_id):
    response = new(org, name=f"Festival {format_id}", format=format_id, teams_text=PASTED)
    assert response.status_code == 302, form_errors(response)
    tournament = Tournament.objects.get(format=format_id)
    assert response["Location"] == reverse("league:manage", args=[tournament.slug])
    assert tournament.status == Tournament.Status.IN_PROGRESS and tournament.fixtures.exists()
    expected = 20 if FORMATS[format_id].fixed_teams else 8
    assert tournament.entries.count() == expected
    if not FORMATS[format_id].fixed_teams:
        assert set(tournament.entries.values_list("team__owner", flat=True)) == {organiser.pk}


@pytest.mark.parametrize("format_id", sorted(k for k, f in FORMATS.items() if not f.fixed_teams))
def test_every_format_without_teams_is_a_draft_that_leads_to_its_teams_page(org, format_id):
    response = new(org, name=f"Later {format_id}", format=format_id)
    tournament = Tournament.objects.get(format=format_id)
    assert response["Location"] == reverse("league:manage_teams", args=[tournament.slug])
    assert tournament.status == Tournament.Status.DRAFT and not tournament.entries.exists()
    page = org.get(response["Location"])
    assert "Draft “Later" in page.content.decode()


def test_the_nations_own_teams_paste_and_csv_together_in_that_order(org, organiser):
    mine = make_team("GHS", "Grey High", user=organiser)
    upload = SimpleUploadedFile("teams.csv", b"name,code,seed\nDale College,DAL,2\nQueens,QUE,1\n")
    response = org.post(reverse("league:tournament_new"), {
        "name": "Big day", "format": "league", "points_system": "world_rugby", "visibility": "public",
        "nations": "on", "own_teams": [mine.pk], "teams_text": "Kingswood", "teams_file": upload})
    assert response.status_code == 302, form_errors(response)
    codes = list(Entry.objects.filter(tournament__slug="big-day").order_by("seed").values_list("team__code",
                                                                                              flat=True))
    assert len(codes) == 24 and codes[0] == "IRE" and codes[20:] == ["GHS", "KIN", "QUE", "DAL"]


def test_the_time_zone_is_set_on_the_new_form_and_changed_in_the_settings(org):
    html = org.get(reverse("league:tournament_new")).content.decode()
    assert 'name="time_zone"' in html and "Pacific/Auckland" in html
    assert new(org, name="Kiwi day", time_zone="Pacific/Auckland").status_code == 302
    assert Tournament.objects.get(slug="kiwi-day").time_zone == "Pacific/Auckland"
    assert "Mars/Base" in form_errors(new(org, name="Mars day", time_zone="Mars/Base"))
    settings_url = reverse("league:manage_settings", args=["kiwi-day"])
    assert 'value="Pacific/Auckland" selected' in org.get(settings_url).content.decode()
    response = org.post(settings_url, {"name": "Kiwi day", "visibility": "public", "status": "in_progress",
                                       "points_system": "world_rugby", "walkover_score": 28, "walkover_tries": 4,
                                       "time_zone": "Africa/Johannesburg"})
    assert response.status_code == 302
    assert Tournament.objects.get(slug="kiwi-day").time_zone == "Africa/Johannesburg"


def test_a_duplicate_name_gets_a_free_web_address(org):
    for expected in ("winter-league", "winter-league-2", "winter-league-3"):
        assert new(org, name="Winter league").status_code == 302
        assert Tournament.objects.filter(slug=expected).exists()
    # A web address typed by hand and taken is the organiser's choice: refused, with what to do.
    response = new(org, name="Winter league", slug="winter-league")
    assert "leave it empty for a free one" in form_errors(response)


def test_a_format_never_overrides_the_points_system_chosen_with_it(org):
    assert new(org, name="RWC", format="rwc2023", points_system="sevens").status_code == 302
    assert Tournament.objects.get(slug="rwc").points_rules == POINTS_PRESETS["sevens"].as_dict()
    response = new(org, name="Custom", format="league", points_system="custom", win="5", draw="2", loss="1",
                   try_bonus="none", tie_breaker_1="points_difference", teams_text="A\nB")
    assert response.status_code == 302, form_errors(response)
    custom = Tournament.objects.get(slug="custom")
    assert custom.points.win == 5 and custom.points.tie_breakers == ("points_difference",)


def test_too_few_teams_or_too_many_swiss_rounds_is_a_form_error_that_says_how_many(org):
    response = new(org, format="swiss", teams_text="A\nB\nC\nD", rounds="4")
    assert "4 teams can play 1 to 3 Swiss rounds without a rematch, not 4." in form_errors(response)
    response = new(org, format="league", teams_text="Only one")
    assert "needs at least 2 teams; 1 chosen" in form_errors(response)
    assert not Tournament.objects.exists() and not Team.objects.filter(owner__isnull=False).exists()


def test_no_command_line_hint_on_any_page(org):
    html = org.get(reverse("league:tournament_new")).content.decode()
    assert "--teams" not in html and "--option" not in html
    for format_id in sorted(k for k, f in FORMATS.items() if f.min_teams > 1 and not f.fixed_teams):
        response = new(org, format=format_id, teams_text="Only one")
        assert "--" not in form_errors(response)


def test_a_one_pool_league_needs_no_draw(org):
    new(org, name="Club league")
    org.post(reverse("league:manage_teams", args=["club-league"]), {"action": "paste", "paste-teams": "A\nB\nC"})
    dashboard = org.get(reverse("league:manage", args=["club-league"])).content.decode()
    assert "Draw the pools" not in dashboard
    response = org.post(reverse("league:manage_fixtures", args=["club-league"]), {
        "first_kickoff": "10:00", "slot_minutes": 30, "days_between_rounds": 7})
    assert response.status_code == 302
    league = Tournament.objects.get(slug="club-league")
    assert league.pools.get().name == "League" and league.fixtures.count() == 3


def test_swiss_round_one_is_top_half_against_bottom_half_and_the_table_shows_names(org, client):
    response = new(org, name="Swiss", format="swiss", nations="on", rounds="3")
    assert response.status_code == 302
    swiss = Tournament.objects.get(slug="swiss")
    entries = list(Entry.objects.filter(tournament=swiss).order_by("seed"))
    pairs = {frozenset((f.home_id, f.away_id)) for f in Fixture.objects.filter(tournament=swiss, round_number=1)}
    assert pairs == {frozenset((entries[i].pk, entries[i + 10].pk)) for i in range(10)}
    html = client.get(reverse("league:tournament", args=["swiss"])).content.decode()
    assert '<span class="name">Ireland</span>' in html and '<span class="name">South Africa</span>' in html


def test_swiss_and_solo_tables_export_to_csv_with_rows(organiser, client):
    preset_run("swiss", name="Swiss", slug="swiss", teams=["FRA", "NZL", "IRE", "RSA"], user=organiser, rounds=2)
    rows = list(csv.DictReader(io.StringIO(client.get("/t/swiss/export/standings.csv").content.decode())))
    assert len(rows) == 4 and {r["name"] for r in rows} == {"France", "New Zealand", "Ireland", "South Africa"}
    assert list(rows[0])[:4] == ["position", "team", "name", "played"]
    solo = preset_run("solo", name="Solo", slug="solo", teams=["FRA", "NZL"], user=organiser)
    fixture = Fixture.objects.filter(tournament=solo).first()
    services.result_record(fixture=fixture, home_score=24, away_score=10, home_tries=4, away_tries=1)
    rows = list(csv.DictReader(io.StringIO(client.get("/t/solo/export/standings.csv").content.decode())))
    assert [(r["position"], r["team"], r["margin"]) for r in rows][0] == ("1", fixture.home.team.code, "14")
    assert len(rows) == 2


# --- teams: seeds, pools, removal, withdrawal ------------------------------------------------------------------


@pytest.fixture
def pooled(organiser):
    cup = services.tournament_create(name="Cup", slug="cup", user=organiser, format="pools_knockout")
    services.entries_add(tournament=cup, teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"], user=organiser)
    services.pools_draw(tournament=cup, pools=2, seed=1, generate_fixtures=False)
    return cup


def test_seeds_and_pools_change_before_the_fixtures_and_not_after(org, pooled):
    entries = {e.team.code: e for e in pooled.entries.select_related("pool")}
    fra, nzl = entries["FRA"], entries["NZL"]
    seeds = (fra.seed, nzl.seed)
    data = {"action": "arrange"}
    for e in entries.values():
        data[f"arrange-seed_{e.pk}"] = e.seed
        data[f"arrange-pool_{e.pk}"] = e.pool.name
    data[f"arrange-seed_{fra.pk}"], data[f"arrange-seed_{nzl.pk}"] = nzl.seed, fra.seed  # swap two seeds
    other_pool = "B" if fra.pool.name == "A" else "A"
    data[f"arrange-pool_{fra.pk}"] = other_pool
    assert org.post(reverse("league:manage_teams", args=["cup"]), data).status_code == 302
    fra.refresh_from_db()
    nzl.refresh_from_db()
    assert (fra.seed, nzl.seed) == seeds[::-1] and fra.pool.name == other_pool
    record = AuditRecord.objects.get(action=AuditRecord.Action.ENTRIES_ARRANGED)
    assert record.new["FRA"]["pool"] == other_pool
    # Two teams with one seed: a form error, nothing saved.
    data[f"arrange-seed_{nzl.pk}"] = data[f"arrange-seed_{fra.pk}"]
    response = org.post(reverse("league:manage_teams", args=["cup"]), data)
    assert "cannot have the same seed" in response.content.decode()
    # Once the fixtures are made the page says how to change them; the service refuses.
    services.fixtures_generate(tournament=pooled)
    html = org.get(reverse("league:manage_teams", args=["cup"])).content.decode()
    assert "delete the fixtures" in html
    data[f"arrange-seed_{nzl.pk}"] = 99
    response = org.post(reverse("league:manage_teams", args=["cup"]), data)
    assert "delete the fixtures" in response.content.decode()
    # Deleting the fixtures (none has a result) is confirmed, and then the seeds can change again.
    assert "Yes, delete all" in org.get(reverse("league:manage_fixtures_clear", args=["cup"])).content.decode()
    assert org.post(reverse("league:manage_fixtures_clear", args=["cup"]), {"confirm": "on"}).status_code == 302
    assert not pooled.fixtures.exists()
    assert org.post(reverse("league:manage_teams", args=["cup"]), data).status_code == 302


def test_a_duplicate_entry_is_removed_and_a_team_with_results_is_withdrawn(org, organiser):
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL", "IRE", "RSA"], user=organiser)
    ire = league.entries.get(team__code="IRE")
    page = org.get(reverse("league:manage_entry_remove", args=["league", ire.pk])).content.decode()
    assert "Its 3 fixtures, none played, are deleted." in page
    assert org.post(reverse("league:manage_entry_remove", args=["league", ire.pk]), {}).status_code == 200
    assert league.entries.filter(pk=ire.pk).exists()  # no confirmation, nothing removed
    assert org.post(reverse("league:manage_entry_remove", args=["league", ire.pk]),
                    {"confirm": "on"}).status_code == 302
    assert not league.entries.filter(pk=ire.pk).exists()
    assert league.fixtures.count() == 3  # the other three teams' round robin stands
    assert AuditRecord.objects.get(action=AuditRecord.Action.ENTRY_REMOVED).old["fixtures_deleted"] == 3
    fra = league.entries.get(team__code="FRA")
    fixture = league.fixtures.filter(home=fra).first() or league.fixtures.filter(away=fra).first()
    services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1)
    html = org.get(reverse("league:manage_teams", args=["league"])).content.decode()
    assert "Withdraw FRA" in html and "Remove FRA" not in html
    response = org.post(reverse("league:manage_entry_remove", args=["league", fra.pk]), {"confirm": "on"})
    assert "withdraw it instead" in response.content.decode()


def test_the_owner_renames_and_recolours_a_team_from_the_teams_page(org, organiser, client):
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL"], user=organiser)
    org.post(reverse("league:manage_teams", args=["league"]), {"action": "paste", "paste-teams": "Grey High, GHS"})
    team = Team.objects.get(owner=organiser, code="GHS")
    teams_page = org.get(reverse("league:manage_teams", args=["league"])).content.decode()
    assert f'{reverse("league:team_edit", args=[team.pk])}?next=' in teams_page
    assert "Edit FRA" not in teams_page  # the nations are the site's
    response = org.post(reverse("league:team_edit", args=[team.pk]) + "?next=/t/league/manage/teams/", {
        "action": "save", "name": "Grey High School", "code": "GHS", "primary_colour": "#AA0000",
        "secondary_colour": "#FFFFFF", "next": "/t/league/manage/teams/"})
    assert response.status_code == 302 and response["Location"] == "/t/league/manage/teams/"
    assert "Grey High School" in client.get(reverse("league:team", args=["league", "GHS"])).content.decode()
    assert league.entries.filter(team__name="Grey High School").exists()
    # Bad values are form errors; a foreign "next" is not followed.
    response = org.post(reverse("league:team_edit", args=[team.pk]), {
        "action": "save", "name": "", "code": "G!", "primary_colour": "red", "secondary_colour": "#FFFFFF",
        "next": "https://evil.example/"})
    assert response.status_code == 200 and "errorlist" in response.content.decode()


def test_my_teams_lists_adds_and_deletes_an_unused_team(org, organiser):
    assert org.post(reverse("league:my_teams"), {"team-name": "Paarl Boys", "team-code": "pbh",
                                                 "team-primary_colour": "#000080",
                                                 "team-secondary_colour": "#FFFFFF"}).status_code == 302
    team = Team.objects.get(owner=organiser, code="PBH")
    assert "Paarl Boys" in org.get(reverse("league:my_teams")).content.decode()
    assert org.post(reverse("league:team_edit", args=[team.pk]), {"action": "delete"}).status_code == 200
    assert org.post(reverse("league:team_edit", args=[team.pk]),
                    {"action": "delete", "delete-confirm": "on"}).status_code == 302
    assert not Team.objects.filter(pk=team.pk).exists()


# --- results: the form speaks the match; deleting one ---------------------------------------------------------


def test_the_result_form_names_the_teams_and_a_walkover_needs_no_score(org, organiser):
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL"], user=organiser)
    fixture = league.fixtures.get()
    html = org.get(reverse("league:manage_result", args=["league", fixture.pk])).content.decode()
    home, away = fixture.home.team.name, fixture.away.team.name
    assert f"{home}: points" in html and f"{away}: tries" in html and f"Walkover to {away}" in html
    assert "Home score" not in html and "Who went through" not in html
    response = org.post(reverse("league:manage_result", args=["league", fixture.pk]), {"kind": "walkover_away"})
    assert response.status_code == 302
    result = Result.objects.get(fixture=fixture)
    assert (result.kind, result.away_score, result.home_score) == ("walkover_away", 28, 0)


def test_who_went_through_is_asked_only_for_a_level_knockout_match(org, organiser):
    ko = preset_run("single_elimination", name="KO", slug="ko", teams=["ENG", "JPN"], user=organiser)
    final = ko.fixtures.get()
    url = reverse("league:manage_result", args=["ko", final.pk])
    assert "Level after the match: who went through?" in org.get(url).content.decode()
    # Level, and nobody said who went through: refused on the server whatever the browser showed.
    response = org.post(url, {"kind": "played", "home_score": 10, "away_score": 10, "home_tries": 1,
                              "away_tries": 1})
    assert "say which team went through" in response.content.decode()
    # Not level: a "who went through" left from a level score is ignored, not an error.
    response = org.post(url, {"kind": "played", "home_score": 17, "away_score": 10, "home_tries": 1,
                              "away_tries": 1, "winner": "away", "decided_by": "kicking"})
    assert response.status_code == 302
    result = Result.objects.get(fixture=final)
    assert result.winner_id == final.home_id and result.decided_by == ""


def test_deleting_a_result_changes_the_table_and_keeps_the_audit_trail(org, organiser, client):
    # Three teams and one result: the league is not complete, so not finished (finished is final).
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL", "IRE"], user=organiser)
    fixture = league.fixtures.order_by("round_number", "pk").first()
    services.result_record(fixture=fixture, home_score=24, away_score=10, home_tries=4, away_tries=1)
    (rows,) = [rows for _p, rows in selectors.tournament_standings(league)]
    assert rows[0].points == 5
    url = reverse("league:manage_result_delete", args=["league", fixture.pk])
    assert "24–10" in org.get(url).content.decode()
    assert org.post(url, {"reason": "wrong match"}).status_code == 200  # not confirmed
    assert org.post(url, {"confirm": "on", "reason": "wrong match"}).status_code == 302
    (rows,) = [rows for _p, rows in selectors.tournament_standings(league)]
    assert all(r.points == 0 and r.played == 0 for r in rows)
    change = ResultChange.objects.filter(fixture=fixture).latest("changed_at")
    assert (change.action, change.reason, change.old["home_score"]) == ("deleted", "wrong match", 24)
    history = org.get(reverse("league:manage_history", args=["league"])).content.decode()
    assert "Result deleted" in history and "wrong match" in history


def test_deleting_a_result_a_later_knockout_match_depends_on(org, organiser):
    ko = preset_run("single_elimination", name="KO", slug="ko", teams=["ENG", "JPN", "ARG", "FIJ"],
                    user=organiser, start_date=date(2027, 3, 6))
    semis = list(ko.fixtures.filter(round_name__icontains="semi").order_by("slot"))
    for semi in semis:
        services.result_record(fixture=semi, home_score=20, away_score=10, home_tries=2, away_tries=1)
    final = ko.fixtures.get(code="F")
    services.result_record(fixture=final, home_score=20, away_score=10, home_tries=2, away_tries=1)
    url = reverse("league:manage_result_delete", args=["ko", semis[0].pk])
    # The final's result finished the tournament: finished is final until an organiser reopens it.
    assert "is finished" in org.post(url, {"confirm": "on"}).content.decode()
    services.tournament_reopen(tournament=Tournament.objects.get(slug="ko"), user=organiser)
    response = org.post(url, {"confirm": "on"})
    assert "already been played" in response.content.decode()
    assert Result.objects.filter(fixture=semis[0]).exists()
    assert org.post(url, {"confirm": "on", "reset_later_rounds": "on"}).status_code == 302
    assert not Result.objects.filter(fixture__in=[semis[0], final]).exists()


# --- organisers and the tournament itself ---------------------------------------------------------------------


def test_co_organisers_are_added_and_removed_never_the_last(org, organiser, other):
    league = services.tournament_create(name="League", slug="league", user=organiser)
    url = reverse("league:manage_organisers", args=["league"])
    assert org.post(url, {"username": "friend"}).status_code == 302
    assert org.post(url, {"action": "remove", "user": other.pk}).status_code == 302
    assert list(league.organisers.all()) == [organiser]
    response = org.post(url, {"action": "remove", "user": organiser.pk}, follow=True)
    assert "the only organiser" in response.content.decode() and list(league.organisers.all()) == [organiser]
    assert org.post(url, {"action": "remove", "user": "not-a-number"}).status_code == 302
    actions = list(AuditRecord.objects.filter(tournament=league).values_list("action", flat=True))
    assert sorted(actions) == ["organiser_added", "organiser_removed"]
    # Leaving: the organiser who leaves goes back to the list of tournaments.
    services.organiser_add(tournament=league, user=other, by=organiser)
    response = org.post(url, {"action": "remove", "user": organiser.pk})
    assert response["Location"] == reverse("league:tournament_list")
    assert list(league.organisers.all()) == [other]


def test_deleting_a_tournament_needs_a_confirmation_and_is_recorded(org, organiser):
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL"], user=organiser)
    url = reverse("league:manage_delete", args=["league"])
    page = org.get(url).content.decode()
    assert "2 entries, 1 fixtures" in page and "Yes, delete “League”" in page
    assert org.post(url, {}).status_code == 200 and Tournament.objects.filter(slug="league").exists()
    assert org.post(url, {"confirm": "on"}).status_code == 302
    assert not Tournament.objects.filter(slug="league").exists()
    record = AuditRecord.objects.get(action=AuditRecord.Action.TOURNAMENT_DELETED)
    assert record.tournament is None and record.tournament_name == "League" and record.changed_by == organiser
    assert org.get(reverse("league:tournament", args=["league"])).status_code == 404
    assert Team.objects.filter(code="FRA").exists()
    assert league.pk is not None


# --- fixed numbers of queries ---------------------------------------------------------------------------------


def _big(organiser, slug, teams):
    league = preset_run("league", name=slug, slug=slug, teams=teams, user=organiser)
    for i, fixture in enumerate(league.fixtures.order_by("pk")[:6]):
        services.result_record(fixture=fixture, home_score=10 + 7 * (i % 2), away_score=10, home_tries=2 + i % 2,
                               away_tries=2, reason=f"r{i}")
    services.tournament_update(tournament=league, user=organiser, name=f"{slug}!")
    return league


@pytest.mark.parametrize("page_name", ["manage_teams", "manage_history"])
def test_new_organiser_pages_run_a_fixed_number_of_queries(org, organiser, django_assert_max_num_queries,
                                                           page_name):
    small = _big(organiser, "small", ["FRA", "NZL", "IRE"])
    large = _big(organiser, "large", ["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "AUS", "FIJ", "JPN"])
    counts = {}
    for tournament in (small, large):
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        forget_recent_users()  # each request loads the user: the counts compare like with like
        with CaptureQueriesContext(connection) as queries:
            assert org.get(reverse(f"league:{page_name}", args=[tournament.slug])).status_code == 200
        counts[tournament.slug] = len(queries)
    assert counts["small"] == counts["large"], counts
    with django_assert_max_num_queries(counts["large"]):
        org.get(reverse(f"league:{page_name}", args=["large"]))


def test_my_teams_runs_a_fixed_number_of_queries(org, organiser):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for n in (2, 12):
        for i in range(n):
            make_team(f"T{len(counts)}{i:02d}", user=organiser)
        forget_recent_users()  # each request loads the user: the counts compare like with like
        with CaptureQueriesContext(connection) as queries:
            assert org.get(reverse("league:my_teams")).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


# --- Editing meets finished-is-final and the public page's sections (org14a over public15) ---------------------


def _finished_league(organiser) -> Tournament:
    league = preset_run("league", name="Final League", slug="final", teams=["FRA", "NZL"], user=organiser)
    services.result_record(fixture=league.fixtures.get(), home_score=24, away_score=10, home_tries=4, away_tries=1)
    league.refresh_from_db()
    assert league.status == Tournament.Status.FINISHED
    return league


def test_a_finished_tournament_refuses_result_edits_and_points_changes_until_reopened(org, organiser):
    league = _finished_league(organiser)
    fixture = league.fixtures.get()
    api = APIClient()
    api.force_authenticate(organiser)
    # The API: deleting or correcting the result, or changing the points system, is a 409 naming the reason.
    refused = api.delete(f"/api/fixtures/{fixture.pk}/result/")
    assert refused.status_code == 409 and refused.json()["code"] == "finished"
    assert api.patch("/api/tournaments/final/", {"points_system": "six_nations"}, format="json").status_code == 409
    league.refresh_from_db()
    assert league.points_system == "world_rugby" and Result.objects.filter(fixture=fixture).exists()
    # The pages: the delete and edit forms say why, and nothing changes.
    delete = org.post(reverse("league:manage_result_delete", args=["final", fixture.pk]),
                      {"confirm": "on", "reason": "typo"})
    assert delete.status_code == 200 and "is finished" in delete.content.decode()
    assert Result.objects.get(fixture=fixture).home_score == 24
    # Reopened (recorded in the History), the same changes go through; the next complete result finishes it.
    assert org.post(reverse("league:manage_reopen", args=["final"])).status_code == 302
    assert AuditRecord.objects.filter(tournament=league, action=AuditRecord.Action.SETTINGS_CHANGED,
                                      changed_by=organiser, new__status="in_progress").exists()
    assert api.patch("/api/tournaments/final/", {"points_system": "six_nations"}, format="json").status_code == 200
    assert api.delete(f"/api/fixtures/{fixture.pk}/result/").status_code == 204
    league.refresh_from_db()
    assert (league.status, league.points_system) == (Tournament.Status.IN_PROGRESS, "six_nations")


def test_every_edit_refreshes_the_public_tables_sections(organiser, client):
    """The public page's sections are cached under their own tokens: a team renamed by its owner, a points
    system changed and a result deleted all show at once."""
    mine = make_team("GFS", "Greenfield", user=organiser)
    league = preset_run("league", name="Open", slug="open", teams=["FRA", "NZL", "GFS"], user=organiser)
    first = league.fixtures.order_by("round_number", "pk").first()
    services.result_record(fixture=first, home_score=24, away_score=10, home_tries=4, away_tries=1)
    url = reverse("league:tournament", args=["open"])
    assert '<span class="name">Greenfield</span>' in client.get(url).content.decode()
    services.team_update(team=mine, user=organiser, name="Greenfield High")
    html = client.get(url).content.decode()
    assert '<span class="name">Greenfield High</span>' in html
    assert "<strong>5</strong>" in html  # the try bonus under World Rugby's rules
    services.tournament_update(tournament=league, user=organiser, points_system="football")
    html = client.get(url).content.decode()
    assert "<strong>5</strong>" not in html and "<strong>3</strong>" in html
    services.result_delete(fixture=first, user=organiser, reason="wrong match")
    assert "<strong>3</strong>" not in client.get(url).content.decode()


def test_the_public_table_says_which_tie_breaker_placed_teams_level_on_points(organiser, client):
    league = preset_run("league", name="Level", slug="level", teams=["FRA", "NZL", "IRE", "RSA"], user=organiser)
    for fixture in league.fixtures.filter(round_number=1):
        services.result_record(fixture=fixture, home_score=20, away_score=20, home_tries=2, away_tries=2)
    html = client.get(reverse("league:tournament", args=["level"])).content.decode()
    # Two draws of the same score: all four level until World Rugby's ranking (Ireland first, then South Africa).
    assert "<li>Ireland: above France, New Zealand and South Africa on World Rugby ranking</li>" in html
    assert "<li>South Africa: above France and New Zealand on World Rugby ranking</li>" in html


def test_the_history_names_fields_and_values_as_the_forms_do_in_the_organisers_language(org, organiser):
    league = preset_run("league", name="League", slug="league", teams=["FRA", "NZL"], user=organiser)
    team = make_team("GHS", "Grey High", user=organiser)
    services.entries_add(tournament=league, teams=[team], user=organiser)
    services.team_update(team=team, user=organiser, primary_colour="#AA0000")
    rules = {**league.points_rules, "win": 3, "tie_breakers": ["wins", "points_difference"]}
    services.tournament_update(tournament=league, user=organiser, visibility=Tournament.Visibility.UNLISTED,
                               live_result_needs_confirmation=True, points_system="custom", points_rules=rules)
    url = reverse("league:manage_history", args=["league"])
    page = org.get(url).content.decode()
    assert "Primary colour: #1F6F3F → #AA0000" in page
    assert "Visibility: Public → Unlisted" in page
    assert "An organiser confirms live results: no → yes" in page
    assert "Points rules, Points for a win: 4 → 3" in page
    assert "Points rules, Tie-breakers: Head-to-head" in page and "→ Matches won, Points difference;" in page
    for raw in ("primary_colour", "points_rules", "live_result_needs_confirmation", "tie_breakers", "unlisted"):
        assert raw not in page
    french = org.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Couleur principale : #1F6F3F → #AA0000" in french
    assert "Visibilité : Public → Non répertorié" in french
