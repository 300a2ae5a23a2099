"""The public tournament pages (issue 15): tabs, sections cached under their own tokens, the live check, the
big screen, embeds, print, the poster, badges and finished tournaments. Through Django's test client."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import override_settings
from django.urls import reverse
from PIL import Image

from league import services
from league.models import Fixture, Team, Tournament
from league.nations import NATION_FLAGS
from league.services import tournament_create_from_preset as preset_run
from tests.worlds import class_world, world_row
from web import sections
from web.sections import Section

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def score(i: int) -> dict:
    home_tries, away_tries = (i % 5) + 1, i % 3
    return {"home_score": home_tries * 7, "away_score": away_tries * 5, "home_tries": home_tries,
            "away_tries": away_tries}


@pytest.fixture
def org_client(client, organiser):
    client.force_login(organiser)
    return client


def _rwc_world() -> dict:
    """The organiser's RWC 2023 tournament (slug rwc) on two pitches, its first 20 pool matches played."""
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    tournament = preset_run("rwc2023", name="RWC 2023", slug="rwc", user=organiser, start_date=dt.date(2026, 9, 8),
                            venues=["Main field", "Back field"])
    played = tournament.fixtures.filter(stage=Fixture.Stage.POOL).order_by("round_number", "pk")[:20]
    for i, fixture in enumerate(played):
        services.result_record(fixture=fixture, user=organiser, **score(i))
    return {"organiser": organiser, "rwc": tournament}


def own_teams(n: int) -> list[str]:
    return [services.team_save(team=Team(name=f"Club {i:04d}", code=f"C{i:04d}")).code for i in range(n)]


def league(organiser, slug: str, teams: int, played_rounds: int = 2) -> Tournament:
    """A one-pool league of ``teams`` clubs with its first rounds played."""
    tournament = preset_run("league", name=f"League {slug}", slug=slug, teams=own_teams_cached(teams, organiser),
                            user=organiser, start_date=dt.date(2026, 9, 5), venues=["North", "South"])
    for i, fixture in enumerate(tournament.fixtures.filter(round_number__lte=played_rounds).order_by("pk")):
        services.result_record(fixture=fixture, user=organiser, **score(i))
    return tournament


_made: list[str] = []


def own_teams_cached(n: int, owner) -> list[str]:
    """``n`` clubs of ``owner``'s own (teams belong to their organiser: only the owner names them)."""
    existing = list(Team.objects.filter(code__startswith="C", owner=owner).order_by("code").values_list(
        "code", flat=True))
    if len(existing) < n:
        existing += [services.team_save(team=Team(name=f"Club {i:04d}", code=f"C{i:04d}"), user=owner).code
                     for i in range(len(existing), n)]
    return existing[:n]


def get(client, url, status=200, **headers):
    response = client.get(url, **headers)
    assert response.status_code == status, (url, response.status_code, response.content[:2000])
    return response


def text(client, url, status=200):
    return get(client, url, status).content.decode()


# --- an RWC 2023 tournament: tabs, caching, the live check, share, embed, print, the big screen ------------------


class TestTheRwc:
    """Tabs, caching, the live check and the embeds of an RWC 2023 tournament on two pitches with 20 of its 40 pool
    matches played. It (some 0.8 s of CPU, every test of the class made its own) is made once for the class
    (tests/worlds.py): each test runs in a savepoint of it."""

    _world = class_world(_rwc_world)
    organiser = world_row("organiser")
    rwc = world_row("rwc")

    def test_standings_first_then_fixtures_bracket_and_chances_tabs(self, client, rwc):
        html = text(client, reverse("league:tournament", args=["rwc"]))
        tabs = html[html.index('class="tabbar"'):]
        assert tabs.index(">Standings<") < tabs.index(">Fixtures<") < tabs.index(">Bracket<") < tabs.index(">Chances<")
        assert 'aria-current="page">Standings' in html
        assert html.count("<caption") == 4  # every pool of a 20-team tournament on one screen
        # Now and next while the tournament runs: the next kick-off on each pitch.
        assert "Next kick-offs" in html and "Main field" in html and "Back field" in html
        assert html.index("Next kick-offs") < html.index('class="tabbar"')

    def test_fixtures_by_round_by_day_by_pitch_and_for_one_team(self, client, rwc):
        url = reverse("league:tournament_fixtures", args=["rwc"])
        by_round = text(client, url)
        # The current round: the first with a match still to play (20 results = the first four rounds).
        current = Fixture.objects.filter(tournament=rwc, status="scheduled").order_by("round_number").first()
        assert f'aria-current="page">Round {current.round_number}<' in by_round
        assert by_round.count('<li class="fixture') == Fixture.objects.filter(
            tournament=rwc, round_number=current.round_number).count()
        by_pitch = text(client, url + "?by=pitch&pitch=Back+field")
        assert by_pitch.count('<li class="fixture') == Fixture.objects.filter(tournament=rwc,
                                                                             venue="Back field").count()
        day = Fixture.objects.filter(tournament=rwc).order_by("kickoff").first().kickoff.date()
        by_day = text(client, url + f"?by=day&day={day.isoformat()}")
        assert by_day.count('<li class="fixture') == Fixture.objects.filter(tournament=rwc, kickoff__date=day).count()
        team = text(client, url + "?team=FRA")
        assert team.count('<li class="fixture') == Fixture.objects.filter(
            tournament=rwc, home__team__code="FRA").count() + Fixture.objects.filter(
            tournament=rwc, away__team__code="FRA").count()
        assert "France: fixtures and results" in team
        assert "No team called" in text(client, url + "?team=Atlantis")

    def test_tabs_work_without_javascript_and_keep_their_place_in_the_url(self, client, rwc):
        html = text(client, reverse("league:tournament", args=["rwc"]))
        for name in ("tournament_fixtures", "tournament_bracket", "tournament_chances"):
            assert f'href="{reverse(f"league:{name}", args=["rwc"])}"' in html
        bracket = text(client, reverse("league:tournament_bracket", args=["rwc"]))
        assert 'aria-current="page">Bracket' in bracket and 'class="bracket"' in bracket and "Quarter-final" in bracket

    def test_team_page_shows_next_match_first(self, client, rwc):
        from django.db.models import Q

        # A nation with matches still to play (the fixture played 20 results in creation order).
        code = rwc.fixtures.filter(stage=Fixture.Stage.POOL, status="scheduled").order_by("-pk")[0].home.team.code
        html = text(client, reverse("league:team", args=["rwc", code]))
        upcoming = Fixture.objects.filter(Q(home__team__code=code) | Q(away__team__code=code), tournament=rwc,
                                          status="scheduled").order_by("kickoff", "round_number", "slot", "pk")[0]
        head = html[html.index("Next match"):]
        assert f"/t/rwc/matches/{upcoming.pk}/" in head[:2500]
        assert f'src="/static/flags/{NATION_FLAGS[code]}.svg"' in html  # a nation's flag

    def test_a_result_changes_only_the_sections_that_show_it(self, rwc, organiser):
        pools = list(rwc.pools.order_by("order", "name"))
        fixture = Fixture.objects.filter(tournament=rwc, pool=pools[0], status="scheduled").order_by("pk").first()
        other_round = Fixture.objects.exclude(round_number=fixture.round_number).filter(tournament=rwc).first()
        watched = [Section("pool", (str(p.pk), "1")) for p in pools] + [
            Section("round", (str(fixture.round_number), "1")), Section("round", (str(other_round.round_number), "1")),
            Section("team", (str(fixture.home_id), "0")), Section("next"), Section("bracket", ("", "0"))]
        before = {v.id: v.hash for v in sections.render(rwc, watched)}
        services.result_record(fixture=fixture, user=organiser, home_score=24, away_score=3, home_tries=4)
        after = {v.id: v.hash for v in sections.versions(rwc, watched)}
        changed = {section_id for section_id in before if before[section_id] != after[section_id]}
        assert changed == {watched[0].id, watched[4].id, watched[6].id, watched[7].id}

    def test_cached_sections_are_served_without_building_them_again(self, rwc, monkeypatch):
        page_sections = [Section("pool", (str(p.pk), "1")) for p in rwc.pools.all()]
        first = sections.render(rwc, page_sections)

        def boom(*args, **kwargs):
            raise AssertionError("a cached section was built again")

        monkeypatch.setattr(Section, "build", boom)
        assert [s.html for s in sections.render(rwc, page_sections)] == [s.html for s in first]

    def test_anonymous_page_answers_304_to_a_conditional_request(self, client, rwc, organiser,
                                                                 django_assert_num_queries):
        url = reverse("league:tournament", args=["rwc"])
        first = get(client, url)
        with django_assert_num_queries(0):
            get(client, url, status=304, HTTP_IF_NONE_MATCH=first["ETag"])
        fixture = Fixture.objects.filter(tournament=rwc, status="scheduled").order_by("pk").first()
        services.result_record(fixture=fixture, user=organiser, home_score=10, away_score=3, home_tries=2)
        assert get(client, url, HTTP_IF_NONE_MATCH=first["ETag"])["ETag"] != first["ETag"]

    def test_live_check_sends_only_what_changed(self, client, rwc, organiser, django_assert_num_queries):
        pools = list(rwc.pools.order_by("order", "name"))
        ids = [Section("pool", (str(p.pk), "1")).id for p in pools] + [Section("live").id, Section("next").id]
        first = live(client, rwc, ids)
        known = {i: v["hash"] for i, v in first.json()["sections"].items()}
        assert set(known) == set(ids)  # nothing known yet: everything is sent
        etag = first["ETag"]
        with django_assert_num_queries(0):  # nothing changed: 304 from the cache alone
            live(client, rwc, ids, known, etag, status=304)
        fixture = Fixture.objects.filter(tournament=rwc, pool=pools[2], status="scheduled").order_by("pk").first()
        services.result_record(fixture=fixture, user=organiser, home_score=31, away_score=0, home_tries=5)
        changed = live(client, rwc, ids, known, etag).json()
        assert set(changed["sections"]) == {ids[2], Section("next").id}
        assert not changed["reload"]
        assert f"{fixture.home.team.code}</span>" in changed["sections"][ids[2]]["html"]

    def test_live_check_asks_for_a_reload_when_the_page_changes_shape(self, client, rwc, organiser):
        page = text(client, reverse("league:tournament", args=["rwc"]))
        version = page.split('data-page-version="')[1].split('"')[0]
        ids = [Section("next").id]
        assert not live(client, rwc, ids, version=version).json()["reload"]
        services.tournament_update(tournament=rwc, name="World Cup")
        assert live(client, rwc, ids, version=version).json()["reload"]

    def test_live_scores_come_from_the_registered_sources(self, client, rwc, monkeypatch):
        from league import live as league_live

        fixture = Fixture.objects.filter(tournament=rwc, status="scheduled").order_by("pk").first()
        pitch = league_live.LiveScore(fixture_id=fixture.pk, home_points=12, away_points=7, home_tries=2,
                                      away_tries=1, clock="52'", source="pitch")
        monkeypatch.setattr(league_live, "_sources", [lambda tournament: [pitch]])
        league_live.live_changed(rwc.pk)
        html = json.loads(live(client, rwc, [Section("live").id]).content)["sections"][Section("live").id]["html"]
        assert "52&#x27;" in html or "52'" in html
        assert "12<span" in html and "tries 2–1" in html

    def test_a_move_in_an_online_match_changes_the_live_section(self, rwc, organiser):
        from league.cache import section_tokens

        before = section_tokens(rwc.pk, ["live"])["live"]
        from league.live import live_changed

        live_changed(rwc.pk)
        assert section_tokens(rwc.pk, ["live"])["live"] != before

    def test_live_check_refuses_nothing_it_cannot_read(self, client, rwc):
        response = live(client, rwc, ["pool:abc:1", "nonsense", "round:-4:1", "day:2026-99-01:1"])
        assert response.json()["sections"] == {}

    def test_embed_pages_may_be_framed_by_any_site_and_the_rest_may_not(self, client, rwc):
        page = get(client, reverse("league:tournament", args=["rwc"]))
        assert page["X-Frame-Options"] in ("DENY", "SAMEORIGIN")
        for name in ("embed_standings", "embed_bracket"):
            embed = get(client, reverse(f"league:{name}", args=["rwc"]))
            assert "X-Frame-Options" not in embed
            assert "frame-ancestors *" in embed["Content-Security-Policy"]
            assert "script-src 'self'" in embed["Content-Security-Policy"]
            assert "<script>" not in embed.content.decode()  # no inline script, no inline style
            assert "style=" not in embed.content.decode()

    def test_share_link_qr_code_and_poster(self, client, rwc):
        html = text(client, reverse("league:tournament", args=["rwc"]))
        assert 'value="http://testserver/t/rwc/"' in html
        qr = get(client, reverse("league:tournament_qr", args=["rwc"]))
        assert qr["Content-Type"] == "image/svg+xml" and qr.content.startswith(b"<svg") and b"<path" in qr.content
        poster = text(client, reverse("league:tournament_poster", args=["rwc"]))
        assert "RWC 2023" in poster and "/t/rwc/qr.svg" in poster and "http://testserver/t/rwc/" in poster

    def test_printable_standings_and_bracket(self, client, rwc):
        standings = text(client, reverse("league:print_standings", args=["rwc"]))
        assert standings.count("<caption") == 4 and standings.count('class="print-page"') == 4
        assert "data-print" in standings and "onclick" not in standings
        bracket = text(client, reverse("league:print_bracket", args=["rwc"]))
        assert 'class="bracket"' in bracket and "Quarter-final" in bracket

    def test_big_screen_lists_its_slides(self, client, rwc):
        html = text(client, reverse("league:tournament_screen", args=["rwc"]))
        slides = html.count("<li data-title=")
        assert slides == 1 + 4 + 1  # now and next, the four pools, the bracket
        assert "js/screen.js" in html and "<script>" not in html

    def test_passes_are_cut_out_cards_with_qr_codes(self, org_client, rwc):
        entry = rwc.entries.order_by("pk").first()
        services.entry_set_player(entry=entry, player_name="Sam")
        html = text(org_client, reverse("matches:passes", args=["rwc"]))
        assert html.count('class="pass-card"') == rwc.entries.count()
        assert html.count('<svg xmlns="http://www.w3.org/2000/svg"') == rwc.entries.count()


# --- tabs of other tournaments: a time zone, many pools, a big league -----------------------------------------------


def test_fixtures_by_day_and_pitch_show_the_tournaments_own_time_zone(client, organiser):
    """A festival in Auckland: its days and kick-offs are Auckland's, whatever the site's zone (UTC here)."""
    tournament = preset_run("league", name="Auckland sevens", slug="akl", teams=own_teams_cached(4, organiser),
                            user=organiser, start_date=dt.date(2026, 9, 5), venues=["Eden"],
                            time_zone="Pacific/Auckland")
    # 22:30 UTC on the 8th is 10:30 on the 9th in Auckland (NZST, UTC+12).
    fixture = tournament.fixtures.order_by("pk").first()
    services.fixture_move(fixture=fixture, user=organiser, kickoff=dt.datetime(2026, 9, 8, 22, 30, tzinfo=dt.UTC),
                          venue="Eden")
    url = reverse("league:tournament_fixtures", args=["akl"])
    by_day = text(client, url + "?by=day&day=2026-09-09")
    assert f'id="fixture-{fixture.pk}"' in by_day and "10:30 NZST" in by_day
    assert f'id="fixture-{fixture.pk}"' not in text(client, url + "?by=day&day=2026-09-08")
    assert "10:30 NZST" in text(client, url + "?by=pitch&pitch=Eden")


def test_big_tournament_shows_one_pool_at_a_time_with_chips(client, organiser):
    tournament = preset_run("pools_knockout", name="Festival", slug="fest", teams=own_teams_cached(72, organiser),
                            user=organiser, pools=12)
    html = text(client, reverse("league:tournament", args=["fest"]))
    assert html.count("<caption") == 1 and 'class="chips"' in html
    pool = tournament.pools.order_by("order", "name")[5]
    chosen = text(client, reverse("league:tournament", args=["fest"]) + f"?pool={pool.name}")
    assert f"Pool {pool.name}</caption>" in chosen


def test_a_big_league_is_paged(client, organiser):
    league(organiser, "big", 150, played_rounds=1)
    html = text(client, reverse("league:tournament", args=["big"]))
    assert html.count('<th scope="row"') == sections.PAGE_SIZE
    assert 'href="?pool=League&amp;page=2"' in html
    second = text(client, reverse("league:tournament", args=["big"]) + "?page=2")
    assert second.count('<th scope="row"') == 150 - sections.PAGE_SIZE


# --- fixed cost whatever the size ---------------------------------------------------------------------------------


PAGES = [
    ("league:tournament", ""), ("league:tournament", "?page=2"), ("league:tournament_fixtures", ""),
    ("league:tournament_fixtures", "?by=day"), ("league:tournament_fixtures", "?by=pitch"),
    ("league:tournament_fixtures", "?team=C0003"), ("league:tournament_fixtures", "?team=club+0004"),
    ("league:tournament_bracket", ""), ("league:tournament_chances", ""), ("league:tournament_screen", ""),
    ("league:embed_standings", ""), ("league:embed_bracket", ""), ("league:print_standings", ""),
    ("league:print_bracket", ""), ("league:tournament_poster", ""), ("league:tournament_qr", ""),
]


def count_queries(client, url) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as context:
        get(client, url)
    return len(context)


MD5_HASHER = "django.contrib.auth.hashers.MD5PasswordHasher"  # as tests/conftest.py's, for the module's user


@pytest.fixture(scope="module")
def leagues(django_db_setup, django_db_blocker) -> dict[int, int]:
    """The leagues of 6 and 60 clubs (15 fixtures and 1,770; slugs l6 and l60) that the fixed-cost tests read, made
    once for the module -- each of those ~50 tests made its own, most of the module's time -- in a transaction
    rolled back at the end: each test runs in a savepoint of it. Clubs -> the league's primary key."""
    with (django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=[MD5_HASHER], ODDS_AFTER_RESULT=False),
          transaction.atomic()):
        owner = get_user_model().objects.create_user(username="league-owner", password="pw-league-owner-1")
        yield {teams: league(owner, f"l{teams}", teams).pk for teams in (6, 60)}
        transaction.set_rollback(True)


@pytest.mark.parametrize("name, query", PAGES, ids=[f"{n}{q}" for n, q in PAGES])
def test_every_public_page_runs_a_fixed_number_of_queries(client, leagues, name, query,
                                                          django_assert_max_num_queries, django_assert_num_queries):
    counts = []
    for teams in (6, 60):  # 15 fixtures or 1,770: the same queries
        url = reverse(name, args=[f"l{teams}"]) + query
        # Nothing rendered yet: built from the database (the live scores ask each source: matches played online
        # and matches scored on a phone, one query each at most).
        with django_assert_max_num_queries(15):
            counts.append(count_queries(client, url))
        with django_assert_num_queries(0):  # then the cache answers
            get(client, url)
    assert counts[0] == counts[1], counts


def test_the_fixtures_by_day_run_the_same_queries_on_a_match_day_and_on_another(client, leagues, monkeypatch):
    """The day the page opens on is today when it has fixtures, else the next one: either way the same queries (the
    fixed-query test above compares two leagues on whatever day the suite runs, one of them playing that day or not).
    """
    url = reverse("league:tournament_fixtures", args=["l60"]) + "?by=day"
    first_kickoff = Fixture.objects.filter(tournament_id=leagues[60]).order_by("kickoff").first().kickoff
    counts = {}
    for name, moment in (("match day", first_kickoff), ("day before", first_kickoff - dt.timedelta(days=1))):
        monkeypatch.setattr("django.utils.timezone.now", lambda moment=moment: moment)
        cache.clear()
        counts[name] = count_queries(client, url)
    assert counts["match day"] == counts["day before"], counts


@pytest.mark.parametrize("teams", [6, 60])
def test_team_page_and_live_check_run_a_fixed_number_of_queries(client, leagues, teams,
                                                                django_assert_max_num_queries,
                                                                django_assert_num_queries):
    with django_assert_max_num_queries(12):
        get(client, reverse("league:team", args=[f"l{teams}", "C0001"]))
    ids = ",".join(s.id for s in [Section("live"), Section("next"), Section("pool", ("1", "1"))])
    url = reverse("league:tournament_live", args=[f"l{teams}"]) + f"?s={ids}"
    with django_assert_max_num_queries(12):
        first = get(client, url)
    with django_assert_num_queries(0):
        get(client, url, status=304, HTTP_IF_NONE_MATCH=first["ETag"])


@pytest.mark.parametrize("teams", [6, 60])
@pytest.mark.parametrize("kind", sorted(sections.KINDS))
def test_every_section_is_built_with_a_fixed_number_of_queries(leagues, teams, kind,
                                                               django_assert_max_num_queries):
    tournament = Tournament.objects.get(pk=leagues[teams])
    pool = tournament.pools.get()
    entry = tournament.entries.order_by("pk").first()
    args = {"pool": (str(pool.pk), "1"), "table": ("1",), "round": ("2", "1"), "day": ("2026-09-05", "1"),
            "pitch": ("North", "0"), "team": (str(entry.pk), "0"), "teamhead": (str(entry.pk), str(pool.pk)),
            "bracket": ("", "0"), "odds": ("", "1"), "teamlive": (str(entry.pk),)}.get(kind, ())
    section = sections.parse(Section(kind, args).id)
    assert section is not None
    with django_assert_max_num_queries(8):
        section.build(tournament)


def test_page_size_does_not_grow_with_the_league(client, organiser):
    sizes = {}
    for teams in (20, 120):
        league(organiser, f"s{teams}", teams)
        sizes[teams] = {name: len(get(client, reverse(name, args=[f"s{teams}"])).content)
                        for name in ("league:tournament", "league:tournament_fixtures")}
    # Six times the teams, 36 times the fixtures: the standings page holds at most PAGE_SIZE rows, the
    # fixtures page one round (60 matches against 10).
    assert sizes[120]["league:tournament"] < 3 * sizes[20]["league:tournament"] + 40_000
    assert sizes[120]["league:tournament_fixtures"] < 60_000


# --- the live check's request ---------------------------------------------------------------------------------------


def live(client, tournament, ids: list[str], known: dict[str, str] | None = None, etag: str = "", status=200,
         version: str = ""):
    known = known or {}
    query = ",".join(f"{i}!{known.get(i, '')}" for i in ids)
    response = client.get(reverse("league:tournament_live", args=[tournament.slug]), {"s": query, "v": version},
                          HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == status, response.content[:1000]
    return response


# --- finished tournaments -------------------------------------------------------------------------------------


def play_everything(tournament, user):
    while True:
        fixture = Fixture.objects.filter(tournament=tournament, status="scheduled", home__isnull=False,
                                         away__isnull=False).order_by("round_number", "slot", "pk").first()
        if fixture is None:
            return
        services.result_record(fixture=fixture, user=user, home_score=21, away_score=7, home_tries=3, away_tries=1)


def test_the_result_that_completes_a_tournament_finishes_it_and_shows_the_champion(client, organiser):
    tournament = preset_run("single_elimination", name="Cup", slug="cup", teams=["FRA", "NZL", "IRE", "RSA"],
                            user=organiser)
    play_everything(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final = Fixture.objects.filter(tournament=tournament).order_by("-round_number").first()
    html = text(client, reverse("league:tournament", args=["cup"]))
    honours = html[html.index("Final result"):]
    assert honours.index("Champions") < honours.index(final.home.team.name) < honours.index("Runners-up")
    assert html.index("Final result") < html.index('class="tabbar"')
    assert "Next kick-offs" not in html


def test_cup_plate_honours_name_each_bracket_winner(organiser):
    from league.format_selectors import tournament_honours
    from league.formats import format_of

    tournament = preset_run("cup_plate", name="Sevens", slug="sevens", teams=own_teams_cached(8, organiser),
                            user=organiser, pools=2)
    play_everything(tournament, organiser)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    honours = tournament_honours(tournament, lambda: format_of(tournament).table(tournament))
    titles = [(h["title"], h.get("bracket")) for h in honours]
    assert titles[:2] == [("champion", "Cup"), ("runner_up", "Cup")]
    assert ("bracket_winner", "Plate") in titles


def test_swiss_and_solo_leaders_are_the_winners(organiser):
    from league.format_selectors import tournament_honours
    from league.formats import format_of

    swiss = preset_run("swiss", name="Swiss", slug="swiss", teams=["FRA", "NZL", "IRE", "RSA"], user=organiser,
                       rounds=2)
    play_everything(swiss, organiser)
    swiss.refresh_from_db()
    assert swiss.status == Tournament.Status.FINISHED
    honours = tournament_honours(swiss, lambda: format_of(swiss).table(swiss))
    table = format_of(swiss).table(swiss)[1]
    assert [h["team"] for h in honours] == [r["team"] for r in table if r["position"] == 1]


def test_a_finished_tournament_refuses_results_draws_and_simulations_until_reopened(org_client, organiser):
    from django.core.exceptions import ValidationError

    from matches import simulation

    tournament = preset_run("league", name="Done", slug="done", teams=["FRA", "NZL"], user=organiser)
    fixture = Fixture.objects.get(tournament=tournament)
    services.result_record(fixture=fixture, user=organiser, home_score=10, away_score=5, home_tries=2, away_tries=1)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    for attempt in (
        lambda: services.result_record(fixture=fixture, home_score=3, away_score=0),
        lambda: services.result_delete(fixture=fixture),
        lambda: services.results_import_csv(tournament=tournament, file="League,,,FRA,NZL,3,0,0,0\n"),
        lambda: services.pools_draw(tournament=tournament, pools=1),
        lambda: services.fixtures_generate(tournament=tournament),
        lambda: simulation.simulation_create(tournament=tournament),
    ):
        with pytest.raises(ValidationError, match="is finished") as refused:
            attempt()
        assert refused.value.code == "conflict"
    # The pages say so clearly, and the dashboard offers to reopen it.
    form = text(org_client, reverse("league:manage_result", args=["done", fixture.pk]))
    posted = org_client.post(reverse("league:manage_result", args=["done", fixture.pk]),
                             {"home_score": 3, "away_score": 0, "home_tries": 0, "away_tries": 0, "kind": "played"})
    assert posted.status_code == 200 and "Done is finished" in posted.content.decode()
    assert form
    dashboard = text(org_client, reverse("league:manage", args=["done"]))
    assert "Reopen the tournament" in dashboard
    assert org_client.post(reverse("league:manage_reopen", args=["done"])).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.IN_PROGRESS
    services.result_record(fixture=fixture, home_score=3, away_score=0)  # a correction: finished again
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_an_import_of_the_last_results_finishes_the_tournament_once(organiser):
    tournament = preset_run("league", name="Trio", slug="trio", teams=["FRA", "NZL", "IRE"], user=organiser)
    rows = [f"League,,,{f.home.team.code},{f.away.team.code},10,5,2,1"
            for f in Fixture.objects.filter(tournament=tournament).select_related("home__team", "away__team")]
    summary = services.results_import_csv(tournament=tournament, file="\n".join(rows) + "\n", user=organiser)
    assert summary.created == 3
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


# --- badges: flags, crests, logos ------------------------------------------------------------------------------


def test_crest_is_drawn_from_the_url_and_escapes_nothing_it_should_not(client):
    svg = get(client, "/crest/SJC-1F6F3F-FFFFFF.svg")
    assert svg["Content-Type"] == "image/svg+xml" and b'fill="#1F6F3F"' in svg.content and b">SJC<" in svg.content
    assert svg["X-Content-Type-Options"] == "nosniff"
    get(client, "/crest/%3Cb%3E-1F6F3F-FFFFFF.svg", status=404)
    get(client, "/crest/AB-1F6F3F-FFFFFG.svg", status=404)


def test_own_teams_show_a_crest_in_their_colours(client, organiser):
    team = services.team_save(team=Team(name="St John's College", code="SJC", primary_colour="#AA0000",
                                        secondary_colour="#FFFFFF"), user=organiser)
    preset_run("league", name="Schools", slug="schools", teams=[team.code, "FRA"], user=organiser)
    html = text(client, reverse("league:tournament", args=["schools"]))
    assert "/crest/SJC-AA0000-FFFFFF.svg" in html and "/static/flags/fr.svg" in html


def png(size=(600, 300), colour=(200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def test_logo_upload_is_checked_resized_and_served_safely(org_client, client, organiser, django_user_model,
                                                          settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    team = services.team_save(team=Team(name="Harlequins", code="HQ"), user=organiser)
    tournament = preset_run("league", name="Logos", slug="logos", teams=[team.code, "FRA"], user=organiser)
    entry = tournament.entries.get(team=team)
    url = reverse("league:manage_team_logo", args=["logos", entry.pk])
    response = org_client.post(url, {"logo": SimpleUploadedFile("logo.png", png(), "image/png")})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.logo.endswith(".png")
    served = get(client, reverse("league:team_logo", args=[team.logo]))
    assert served["Content-Type"] == "image/png" and served["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in served["Content-Security-Policy"]
    with Image.open(io.BytesIO(served.content)) as image:
        assert image.format == "PNG" and max(image.size) == 256 and image.size == (256, 128)
    assert f"/media/logos/{team.logo}" in text(client, reverse("league:tournament", args=["logos"]))
    # Not a picture, too big, a nation, someone else's team: refused with a message, nothing stored.
    bad = org_client.post(url, {"logo": SimpleUploadedFile("logo.png", b"<svg onload=alert(1)>", "image/png")})
    assert bad.status_code == 200 and "not a picture the site can use" in bad.content.decode()
    big = org_client.post(url, {"logo": SimpleUploadedFile("logo.png", b"\x89PNG" + b"0" * (3 * 1024 * 1024))})
    # Refused by the form ("too big"), or before it by the site's request-size limit (MAX_UPLOAD_BYTES: a 413 page).
    assert (big.status_code == 200 and "too big" in big.content.decode()) or (
        big.status_code == 413 and "too large" in big.content.decode())
    nation = tournament.entries.get(team__code="FRA")
    refused = org_client.post(reverse("league:manage_team_logo", args=["logos", nation.pk]),
                              {"logo": SimpleUploadedFile("logo.png", png(), "image/png")})
    assert refused.status_code == 200 and "play under their flags" in refused.content.decode()
    other = django_user_model.objects.create_user(username="other", password="pw-other-123")
    services.organiser_add(tournament=tournament, user=other)
    org_client.force_login(other)
    refused = org_client.post(url, {"logo": SimpleUploadedFile("logo.png", png(), "image/png")})
    assert "Only the organiser who made this team" in refused.content.decode()
    get(client, "/media/logos/" + "0" * 40 + ".png", status=404)
