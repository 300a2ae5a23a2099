"""The public pages and the organiser's workflow, through Django's test client."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from league import services
from league.models import Fixture, FixtureJob, Result, ResultChange, Team, Tournament
from league.services import tournament_create_from_preset as preset_run
from tests.worlds import class_world, world_row

pytestmark = pytest.mark.django_db


def score(i: int) -> dict:
    """A valid World Rugby score for the i-th fixture: converted tries for home, unconverted for away."""
    home_tries, away_tries = (i % 5) + 1, i % 3
    return {"home_score": home_tries * 7, "away_score": away_tries * 5, "home_tries": home_tries,
            "away_tries": away_tries}


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _rwc_world(played: bool = False) -> dict:
    """The organiser's RWC 2023 tournament (slug rwc), its 40 pool matches ``played`` or not."""
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    rwc = preset_run("rwc2023", name="RWC 2023", slug="rwc", user=organiser)
    if played:
        for i, fixture in enumerate(rwc.fixtures.filter(stage=Fixture.Stage.POOL).order_by("pk")):
            services.result_record(fixture=fixture, user=organiser, **score(i))
    return {"organiser": organiser, "rwc": rwc}


@pytest.fixture
def other(django_user_model):
    return django_user_model.objects.create_user(username="someone", password="pw-someone-1")


@pytest.fixture
def org_client(client, organiser):
    client.force_login(organiser)
    return client


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, response.content[:3000]
    return response.content.decode()


# --- an RWC 2023 tournament, before and after its pool matches --------------------------------------------------


class TestTheRwc:
    """The organiser's pages of an RWC 2023 tournament before any result. The tournament (0.5 s to make, every test
    of the class made its own) is made once for the class (tests/worlds.py): each test runs in a savepoint of it."""

    _world = class_world(_rwc_world)
    organiser = world_row("organiser")
    rwc = world_row("rwc")

    def test_tournament_list_shows_public_tournaments_only(self, client, rwc, organiser):
        services.tournament_create(name="Hidden cup", slug="hidden", visibility="unlisted", status="in_progress",
                                   user=organiser)
        services.tournament_create(name="Draft cup", slug="draft", user=organiser)
        html = page(client, reverse("league:tournament_list"))
        assert "RWC 2023" in html
        assert "Hidden cup" not in html and "Draft cup" not in html

    def test_manage_pages_need_an_organiser(self, client, rwc, other):
        url = reverse("league:manage", args=["rwc"])
        assert client.get(url).status_code == 302  # to sign in
        client.force_login(other)
        assert client.get(url).status_code == 403
        assert client.post(reverse("league:manage_publish", args=["rwc"]), {"action": "hide"}).status_code == 403

    @pytest.mark.parametrize("name", ["manage", "manage_settings", "manage_organisers", "manage_teams", "manage_draw",
                                      "manage_fixtures", "manage_players", "manage_results", "manage_results_import",
                                      "manage_simulate"])
    def test_manage_pages_render(self, org_client, rwc, name):
        page(org_client, reverse(f"league:{name}", args=["rwc"]))

    def test_create_refuses_a_taken_slug(self, org_client, rwc):
        html = org_client.post(reverse("league:tournament_new"), {
            "name": "Again", "slug": "rwc", "preset": "", "ruleset": "manual", "format": "league",
            "points_system": "world_rugby", "visibility": "public"}).content.decode()
        assert "already taken" in html

    def test_invite_co_organiser(self, org_client, rwc, other):
        url = reverse("league:manage_organisers", args=["rwc"])
        html = org_client.post(url, {"username": "nobody"}).content.decode()
        assert "Nobody has the username" in html
        assert org_client.post(url, {"username": "someone"}).status_code == 302
        assert other in rwc.organisers.all()

    def test_enter_and_correct_a_result(self, org_client, rwc, organiser):
        fixture = rwc.fixtures.order_by("pk").first()
        url = reverse("league:manage_result", args=["rwc", fixture.pk])
        page(org_client, url)
        bad = org_client.post(url, {"home_score": 3, "away_score": 0, "home_tries": 2, "away_tries": 0,
                                    "kind": "played"}).content.decode()
        assert "errorlist" in bad or "form-errors" in bad
        assert not Result.objects.filter(fixture=fixture).exists()
        assert org_client.post(url, {"home_score": 27, "away_score": 10, "home_tries": 3, "away_tries": 1,
                                     "kind": "played"}).status_code == 302
        assert org_client.post(url, {"home_score": 27, "away_score": 13, "home_tries": 3, "away_tries": 1,
                                     "kind": "played", "reason": "missed a penalty"}).status_code == 302
        fixture.refresh_from_db()
        assert (fixture.result.home_score, fixture.result.away_score) == (27, 13)
        assert ResultChange.objects.filter(fixture=fixture).count() == 2
        html = page(org_client, reverse("league:fixture", args=["rwc", fixture.pk]))
        assert "missed a penalty" in html

    def test_results_csv_import_page(self, org_client, rwc):
        url = reverse("league:manage_results_import", args=["rwc"])
        good = b"pool,round,date,home,away,home_score,away_score,home_tries,away_tries\nA,1,,FRA,NZL,27,13,2,1\n"
        assert org_client.post(url, {"file": SimpleUploadedFile("r.csv", good, "text/csv")}).status_code == 302
        assert Result.objects.filter(fixture__tournament=rwc).count() == 1
        bad = good + b"A,1,,FRA,XXX,10,0,1,0\n"
        html = org_client.post(url, {"file": SimpleUploadedFile("r.csv", bad, "text/csv")}).content.decode()
        assert "Line 3" in html

    def test_assign_players(self, org_client, rwc, other):
        entry = rwc.entries.get(team__code="FRA")
        url = reverse("league:manage_players", args=["rwc"])
        data = {}
        for e in rwc.entries.all():
            data[f"e{e.pk}-username"] = ""
            data[f"e{e.pk}-player_name"] = ""
            data[f"e{e.pk}-computer_level"] = "club"
        data[f"e{entry.pk}-username"] = "someone"
        data[f"e{entry.pk}-player_name"] = "Sam"
        assert org_client.post(url, data).status_code == 302
        entry.refresh_from_db()
        assert entry.player == other and entry.player_name == "Sam"
        data[f"e{entry.pk}-username"] = "ghost"
        assert "Nobody has the username" in org_client.post(url, data).content.decode()

    def test_settings_change_invalidates_cache(self, org_client, client, rwc):
        public = reverse("league:tournament", args=["rwc"])
        assert "RWC 2023" in page(client, public)
        data = {"name": "World Cup 2023", "visibility": "public", "status": "in_progress",
                "points_system": "world_rugby", "walkover_score": 28, "walkover_tries": 4}
        assert org_client.post(reverse("league:manage_settings", args=["rwc"]), data).status_code == 302
        assert "World Cup 2023" in page(client, public)

    def test_withdraw_a_team(self, org_client, rwc):
        entry = rwc.entries.get(team__code="NAM")
        url = reverse("league:manage_withdraw", args=["rwc", entry.pk])
        assert "errorlist" in org_client.post(url, {"keep_played": "on"}).content.decode()  # not confirmed
        assert org_client.post(url, {"keep_played": "on", "confirm": "on"}).status_code == 302
        entry.refresh_from_db()
        assert entry.withdrawn_at is not None
        assert Result.objects.filter(fixture__tournament=rwc, kind__startswith="walkover").count() == 4

    def test_simulation_page_starts_a_run(self, org_client, rwc, monkeypatch):
        calls = []
        import matches.simulation

        monkeypatch.setattr(matches.simulation, "simulation_start", lambda **kw: calls.append(kw))
        url = reverse("league:manage_simulate", args=["rwc"])
        assert org_client.post(url, {"stage": "pools", "seed": "42"}).status_code == 302
        assert calls and calls[0]["stage"] == "pools" and calls[0]["seed"] == 42


class TestThePlayedRwc:
    """The public and organiser's pages of an RWC 2023 tournament whose 40 pool matches are played. The tournament
    and its results (some 0.7 s of CPU, every test of the class made its own) are made once for the class
    (tests/worlds.py): each test runs in a savepoint of it."""

    _world = class_world(lambda: _rwc_world(played=True))
    organiser = world_row("organiser")
    rwc_played = world_row("rwc")

    def test_tournament_page_shows_pool_tables_and_results(self, client, rwc_played):
        html = page(client, reverse("league:tournament", args=["rwc"]))
        for pool in "ABCD":
            assert f"Pool {pool}</caption>" in html
        assert html.count('<th scope="row"') == 20
        # The table is the selector's: check Pool A's leader and points against what the page shows.
        from league.selectors import tournament_standings

        pool_a, rows = tournament_standings(rwc_played)[0]
        leader = rows[0]
        assert f'<span class="code">{leader.team_code}</span>' in html
        assert f"<strong>{leader.points}</strong>" in html
        # The fixtures are on their own tab, one round at a time.
        fixture = rwc_played.fixtures.order_by("pk").first()
        result = fixture.result
        fixtures = page(client, reverse("league:tournament_fixtures", args=["rwc"]) + "?round=1")
        assert f"{result.home_score}<span aria-hidden=\"true\">–</span>" in fixtures
        assert "Round 1" in fixtures and "Stade de France" in fixtures

    def test_tournament_page_query_count_is_fixed(self, client, rwc_played, organiser, django_assert_max_num_queries,
                                                  django_assert_num_queries):
        url = reverse("league:tournament", args=["rwc"])
        with django_assert_max_num_queries(24):  # 4 pools: the tournament, its shape, 4 queries a table, next
            page(client, url)
        # Cached for anonymous visitors: the tournament row and the whole page come from the cache.
        with django_assert_num_queries(0):
            page(client, url)
        # A signed-in organiser: session, user, organisers check, progress; never the tables again.
        client.force_login(organiser)
        with django_assert_max_num_queries(8):
            html = page(client, url)
        assert "Manage" in html

    def test_cache_is_invalidated_by_a_result_change(self, client, rwc_played, organiser,
                                                     django_assert_max_num_queries):
        fixture = rwc_played.fixtures.order_by("pk").first()
        url = reverse("league:tournament_fixtures", args=["rwc"]) + f"?round={fixture.round_number}"
        before = page(client, url)
        assert "99<span" not in before
        services.result_record(fixture=fixture, home_score=99, away_score=0, home_tries=15, away_tries=0,
                               user=organiser, reason="typo")
        after = page(client, url)
        assert '99<span aria-hidden="true">–</span><span class="sr-only"> to </span>0' in after
        # And the team page too.
        assert "99" in page(client, reverse("league:team", args=["rwc", fixture.home.team.code]))

    def test_committed_change_drops_the_cached_tournament(self, client, rwc_played, organiser,
                                                          django_capture_on_commit_callbacks,
                                                          django_assert_num_queries):
        from league.cache import tournament_by_slug

        url = reverse("league:tournament", args=["rwc"])
        page(client, url)
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            services.tournament_update(tournament=rwc_played, name="World Cup")
        assert callbacks  # the cached row is dropped again once the change is committed
        assert tournament_by_slug("rwc").name == "World Cup"
        # A result changes the sections that show it, and the row's version (the API's cached lists follow it).
        before = tournament_by_slug("rwc").version
        fixture = rwc_played.fixtures.order_by("pk").first()
        with django_capture_on_commit_callbacks(execute=True):
            services.result_record(fixture=fixture, home_score=50, away_score=0, home_tries=8, away_tries=0,
                                   user=organiser)
        assert tournament_by_slug("rwc").version > before
        with django_assert_num_queries(0):
            tournament_by_slug("rwc")  # cached again after one read
        assert '50<span aria-hidden="true">' in page(client, reverse("league:tournament_fixtures", args=["rwc"])
                                                     + f"?round={fixture.round_number}")

    def test_cache_serves_the_stored_page_without_recomputing(self, client, rwc_played, monkeypatch):
        url = reverse("league:tournament", args=["rwc"])
        page(client, url)
        from web import sections

        def boom(*args, **kwargs):
            raise AssertionError("standings recomputed for a cached page")

        monkeypatch.setattr(sections, "pool_rows", boom)
        assert "Pool A" in page(client, url)

    def test_cache_is_per_language(self, client, rwc_played):
        url = reverse("league:tournament", args=["rwc"])
        english = page(client, url)
        client.cookies["django_language"] = "fr"
        french = page(client, url)
        assert ">Standings</a>" in english
        assert ">Standings</a>" not in french and ">Classements</a>" in french

    def test_team_page(self, client, rwc_played, django_assert_max_num_queries):
        # A nation through to the knockout (the pools are all played): it has a next match.
        team = rwc_played.fixtures.filter(stage=Fixture.Stage.KNOCKOUT, home__isnull=False).order_by("pk")[0].home.team
        with django_assert_max_num_queries(12):
            html = page(client, reverse("league:team", args=["rwc", team.code.lower()]))
        assert team.name in html and "Position" in html and "Next match" in html
        from django.db.models import Q

        theirs = Q(home__team=team) | Q(away__team=team)
        # Every fixture of the team, and its next match on top.
        assert html.count('<li class="fixture') == rwc_played.fixtures.filter(theirs).count() + 1 >= 5
        page(client, reverse("league:team", args=["rwc", "XXX"]), status=404)

    def test_fixture_page_shows_result(self, client, rwc_played, django_assert_max_num_queries):
        fixture = rwc_played.fixtures.order_by("pk").first()
        with django_assert_max_num_queries(6):
            html = page(client, reverse("league:fixture", args=["rwc", fixture.pk]))
        assert fixture.home.team.name in html and f"{fixture.result.home_score}–{fixture.result.away_score}" in html
        page(client, reverse("league:fixture", args=["rwc", 999999]), status=404)

    def test_afrikaans_rugby_terms(self, client, rwc_played):
        client.cookies["django_language"] = "af"
        html = page(client, reverse("league:tournament", args=["rwc"]))
        assert "Poel A" in html and "Drieë vir" in html and "Punte" in html
        assert "Afrikaans" in html

    def test_knockout_draw_needs_who_went_through(self, org_client, rwc_played):
        qf = rwc_played.fixtures.get(code="QF1")
        url = reverse("league:manage_result", args=["rwc", qf.pk])
        html = org_client.post(url, {"home_score": 20, "away_score": 20, "home_tries": 2, "away_tries": 2,
                                     "kind": "played"}).content.decode()
        assert "errorlist" in html
        assert not Result.objects.filter(fixture=qf).exists()
        response = org_client.post(url, {"home_score": 20, "away_score": 20, "home_tries": 2, "away_tries": 2,
                                         "kind": "played", "winner": "away", "decided_by": "kicking"})
        assert response.status_code == 302
        qf.refresh_from_db()
        assert qf.result.winner_id == qf.away_id
        sf = rwc_played.fixtures.get(code="SF1")
        assert sf.home_id == qf.away_id

    def test_odds_table_when_available(self, client, rwc_played, monkeypatch):
        from matches import odds as match_odds

        odds = {"columns": ["1st", "2nd"], "places": 2, "current": True, "runs": 10000,
                "rows": [{"team": "FRA", "name": "France", "pool": "A", "values": ["61%", "30%"]}]}
        monkeypatch.setattr(match_odds, "tournament_odds", lambda tournament: odds)
        html = page(client, reverse("league:tournament_chances", args=["rwc"]))
        assert "Chances" in html and "61%" in html and "10000 times" in html

    @pytest.mark.parametrize("name", ["manage", "manage_teams", "manage_draw", "manage_players", "manage_results"])
    def test_organiser_pages_run_a_fixed_number_of_queries(self, org_client, rwc_played, name,
                                                           django_assert_max_num_queries):
        # 20 teams, 48 fixtures: the counts do not depend on them (select_related / prefetch_related).
        with django_assert_max_num_queries(12):
            page(org_client, reverse(f"league:{name}", args=["rwc"]))


# --- public pages ------------------------------------------------------------------------------------------------


def test_fixtures_by_day(client, organiser):
    import datetime as dt

    preset_run("rwc2023", name="Dated", slug="dated", user=organiser, start_date=dt.date(2023, 9, 8))
    url = reverse("league:tournament_fixtures", args=["dated"])
    html = page(client, url + "?by=day")
    assert "Friday 8 September 2023" in html  # the first day with matches still to play
    assert "Fri 15 Sep" in html  # the next day is one tap away
    assert "Friday 15 September 2023" in page(client, url + "?by=day&day=2023-09-15")
    # The page of the day before the tabs redirects to the tab.
    response = client.get(reverse("league:tournament", args=["dated"]) + "?by=day")
    assert response.status_code == 302 and response["Location"] == url + "?by=day"


def test_draft_is_hidden_from_the_public(client, organiser):
    services.tournament_create(name="Draft cup", slug="draft", user=organiser)
    page(client, reverse("league:tournament", args=["draft"]), status=404)
    client.force_login(organiser)
    page(client, reverse("league:tournament", args=["draft"]))


def test_language_switch_sets_cookie_and_refuses_foreign_redirects(client):
    response = client.get(reverse("league:set_language", args=["af"]) + "?next=/t/x/")
    assert response.status_code == 302 and response["Location"] == "/t/x/"
    assert response.cookies["django_language"].value == "af"
    response = client.get(reverse("league:set_language", args=["fr"]) + "?next=https://evil.example/")
    assert response["Location"] == "/"
    assert client.get(reverse("league:set_language", args=["xx"])).status_code == 404


# --- accounts ------------------------------------------------------------------------------------------------------


def test_signup_signs_in(client, django_user_model):
    response = client.post(reverse("league:signup"), {"username": "teacher", "email": "teacher@example.org",
                                                       "password1": "a-long-pass-phrase",
                                                       "password2": "a-long-pass-phrase"})
    assert response.status_code == 302
    assert django_user_model.objects.filter(username="teacher").exists()
    assert "teacher" in page(client, reverse("league:tournament_list"))


def test_signup_errors_are_shown(client):
    html = client.post(reverse("league:signup"), {"username": "teacher", "password1": "a-long-pass-phrase",
                                                   "password2": "different"}).content.decode()
    assert "Please correct" in html and "errorlist" in html


def test_login_page(client, organiser):
    assert "Sign in" in page(client, reverse("login"))
    response = client.post(reverse("login"), {"username": "organiser", "password": "wrong"})
    assert "Please correct" in response.content.decode() or "errorlist" in response.content.decode()


# --- organiser workflow ------------------------------------------------------------------------------------------


def test_create_step_by_step(org_client, organiser):
    response = org_client.post(reverse("league:tournament_new"), {
        "name": "School sevens", "slug": "", "preset": "", "ruleset": "manual", "format": "league",
        "points_system": "world_rugby", "visibility": "public"})
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="school-sevens")
    assert organiser in tournament.organisers.all()
    assert tournament.status == Tournament.Status.DRAFT


def test_create_from_preset(org_client):
    response = org_client.post(reverse("league:tournament_new"), {
        "name": "World Cup", "slug": "wc", "ruleset": "manual", "format": "rwc2023",
        "points_system": "world_rugby", "visibility": "public"})
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="wc")
    assert tournament.entries.count() == 20 and tournament.fixtures.filter(stage="pool").count() == 40


def test_a_league_too_big_for_one_request_is_a_draft_with_its_teams(org_client, settings,
                                                                   django_capture_on_commit_callbacks):
    """Pasting more teams than one request makes fixtures for (a 1,000-team league: 499,500, a minute and more)
    creates the tournament with its teams at once, as a draft, and sends the organiser to its Fixtures page, where
    a worker makes them; a small one is still made whole."""
    settings.FIXTURES_PER_REQUEST = 20  # 8 teams: 28 fixtures
    response = org_client.post(reverse("league:tournament_new"), {
        "name": "Winter board league", "slug": "winter", "ruleset": "manual", "format": "league",
        "points_system": "world_rugby", "visibility": "public",
        "teams_text": "\n".join(f"Club {n}" for n in range(1, 9))})
    tournament = Tournament.objects.get(slug="winter")
    assert response.status_code == 302 and response["Location"] == reverse("league:manage_fixtures", args=["winter"])
    assert tournament.status == Tournament.Status.DRAFT and tournament.entries.count() == 8
    assert not tournament.fixtures.exists()
    assert "too many to make at once" in page(org_client, response["Location"])
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = org_client.post(response["Location"], {"first_kickoff": "10:00", "slot_minutes": 30,
                                                          "days_between_rounds": 0, "venues": ""})
    job = FixtureJob.objects.get(tournament=tournament)
    assert response["Location"] == reverse("league:manage_fixture_job", args=["winter", job.pk])
    assert job.total == 28 and len(queued) == 1
    response = org_client.post(reverse("league:tournament_new"), {
        "name": "Small league", "slug": "small", "ruleset": "manual", "format": "league",
        "points_system": "world_rugby", "visibility": "public", "teams_text": "Club 1\nClub 2\nClub 3"})
    assert Tournament.objects.get(slug="small").fixtures.count() == 3


@pytest.fixture
def league_draft(organiser):
    return services.tournament_create(name="Club night", slug="club", user=organiser)


def test_add_the_20_nations(org_client, league_draft):
    org_client.post(reverse("league:manage_teams", args=["club"]), {"action": "nations"})
    assert league_draft.entries.count() == 20
    org_client.post(reverse("league:manage_teams", args=["club"]), {"action": "nations"})
    assert league_draft.entries.count() == 20


def test_add_own_team_and_errors(org_client, league_draft):
    url = reverse("league:manage_teams", args=["club"])
    response = org_client.post(url, {"action": "team", "team-name": "Grey High", "team-code": "ghs",
                                     "team-primary_colour": "#112233", "team-secondary_colour": "#FFFFFF"})
    assert response.status_code == 302
    assert league_draft.entries.get().team.code == "GHS"
    html = org_client.post(url, {"action": "team", "team-name": "Other", "team-code": "G",
                                 "team-primary_colour": "red", "team-secondary_colour": "#FFFFFF"}).content.decode()
    assert "errorlist" in html and "#1A2B3C" in html


def test_paste_a_list_of_teams(org_client, league_draft):
    url = reverse("league:manage_teams", args=["club"])
    org_client.post(url, {"action": "paste", "paste-teams": "Grey High, GHS\nSt Andrew's\n\nKingswood College\n"})
    names = sorted(league_draft.entries.values_list("team__name", flat=True))
    assert names == ["Grey High", "Kingswood College", "St Andrew's"]
    assert len(set(league_draft.entries.values_list("team__code", flat=True))) == 3


def test_csv_import_of_teams(org_client, league_draft):
    url = reverse("league:manage_teams", args=["club"])
    upload = SimpleUploadedFile("teams.csv", b"name,code,seed\nSecond,SEC,2\nFirst,FST,1\n", "text/csv")
    org_client.post(url, {"action": "csv", "csv-file": upload})
    entries = list(league_draft.entries.order_by("seed").values_list("team__code", flat=True))
    assert entries == ["FST", "SEC"]
    bad = SimpleUploadedFile("teams.csv", b"team\nX\n", "text/csv")
    html = org_client.post(url, {"action": "csv", "csv-file": bad}).content.decode()
    assert "header" in html


def test_generate_fixtures_needs_pools_then_works(org_client, league_draft):
    url = reverse("league:manage_fixtures", args=["club"])
    data = {"start_date": "2026-03-07", "first_kickoff": "09:00", "slot_minutes": 30, "days_between_rounds": 0,
            "venues": "Table 1, Table 2"}
    html = org_client.post(url, data).content.decode()
    assert "Put the teams in pools" in html
    services.entries_add(tournament=league_draft, teams=["FRA", "NZL", "IRE", "RSA", "ENG"], pool="League")
    assert org_client.post(url, data).status_code == 302
    fixtures = list(league_draft.fixtures.all())
    assert len(fixtures) == 10
    assert {f.venue for f in fixtures} == {"Table 1", "Table 2"}
    html = org_client.post(url, {**data, "venues": "T1, T1"}).content.decode()
    assert "only once" in html


def test_publish_and_hide(org_client, league_draft):
    url = reverse("league:manage_publish", args=["club"])
    org_client.post(url, {"action": "publish"})
    league_draft.refresh_from_db()
    assert league_draft.visibility == "public" and league_draft.status == "in_progress"
    org_client.post(url, {"action": "hide"})
    league_draft.refresh_from_db()
    assert league_draft.visibility == "unlisted"


def test_team_codes_are_unique_when_generated(organiser):
    from league.services.teams import _unique_code

    assert _unique_code("Grey High School", set()) == "GHS"
    assert _unique_code("Grey High School", {"GHS"}) == "GRE"
    assert _unique_code("Al", {"AL"}) not in {"AL"}
    assert _unique_code("Team 12", set()) == "TEA12"  # its own number
    assert _unique_code("Club 0102", set()) == "C0102"
    assert Team.objects.filter(code="FRA").exists()
    # A 1,000-team league pasted as "Club 0" to "Club 999", or all under one name: a code each (it was 100).
    for names in ([f"Club {i}" for i in range(1000)], ["Barbarians"] * 1000):
        taken: set[str] = set()
        for name in names:
            code = _unique_code(name, taken)
            assert code not in taken and code.isalnum() and 2 <= len(code) <= 5
            taken.add(code)


def test_draw_page_shows_the_seed(org_client, league_draft):
    org_client.post(reverse("league:manage_teams", args=["club"]), {"action": "nations"})
    url = reverse("league:manage_draw", args=["club"])
    assert org_client.post(url, {"method": "random", "pool_count": 4, "seed": 77}).status_code == 302
    league_draft.refresh_from_db()
    assert league_draft.draw_seed == 77 and league_draft.pools.count() == 4
    html = page(org_client, url)
    assert "seed 77" in html and html.count("<li>") >= 20
    html = org_client.post(url, {"method": "seeded", "pool_count": 15, "seed": ""}).content.decode()
    assert "too few" in html  # 20 teams cannot fill 15 pools of two


def test_swiss_fixtures_pair_a_round(org_client, organiser):
    tournament = services.tournament_create(name="Swiss night", slug="swiss", format="swiss", user=organiser)
    services.entries_add(tournament=tournament, teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"])
    url = reverse("league:manage_fixtures", args=["swiss"])
    assert org_client.post(url, {"first_kickoff": "19:00", "slot_minutes": 30, "days_between_rounds": 0}
                           ).status_code == 302
    assert tournament.fixtures.filter(stage="swiss", round_number=1).count() == 3
    html = page(org_client, reverse("league:tournament", args=["swiss"]))
    assert "Swiss table" in html


def test_tournament_list_query_count(client, organiser, django_assert_max_num_queries):
    for i in range(5):
        preset_run("rwc2023", name=f"Cup {i}", slug=f"cup-{i}", user=organiser)
    with django_assert_max_num_queries(2):
        html = page(client, reverse("league:tournament_list"))
    assert html.count("href=\"/t/cup-") == 5
