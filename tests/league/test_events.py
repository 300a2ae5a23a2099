"""Events (``league.services.events``, ``league.event_api``): divisions on one day's shared pitches, the whole
day scheduled with no clash, a division's own moves and pushes checked against the other divisions, the day
pushed back and moved as one, a day that does not fit refused by N slots, and the API with its permissions and
bad input (400/403/404/409, never a 500, nothing stored on a refusal)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from league import services, timetable
from league.errors import Conflict
from league.event_selectors import event_bookings, event_clashes, event_fixtures
from league.models import Division, Event, Fixture, Result, ScheduleChange, Tournament
from league.services import events as event_services
from tests.league.api_factories import make_team
from tests.worlds import class_world, fresh, world_row

pytestmark = pytest.mark.django_db

SAST = ZoneInfo("Africa/Johannesburg")
DAY = dt.date(2026, 6, 13)
PITCHES = ["Pitch 1", "Pitch 2", "Pitch 3", "Pitch 4"]


def make_event(user, slug="festival", **fields):
    values = {"day": DAY, "first_kickoff": dt.time(9, 0), "slot_minutes": 20, "changeover_minutes": 5,
              "rest_minutes": 0, "pitches": PITCHES, "time_zone": "Africa/Johannesburg",
              "status": Tournament.Status.IN_PROGRESS, **fields}
    return event_services.event_create(name="Saturday festival", slug=slug, user=user, **values)


def league_division(event, user, slug, teams, **options):
    """A league tournament made on its own, then taken into the event."""
    tournament = services.tournament_create_from_preset("league", name=slug.upper(), slug=slug, teams=teams,
                                                        user=user, **options)
    event_services.division_add(event=event, tournament=tournament, user=user)
    tournament.refresh_from_db()
    return tournament


def _festival_world() -> dict:
    """The organiser's festival: three divisions (U11: 4 nations, U13: 6 nations, U15: 4 own teams) on four
    pitches."""
    organiser = get_user_model().objects.create_user(username="organiser", password="pw-organiser-1")
    event = make_event(organiser)
    own = [make_team(code, user=organiser).code for code in ("GRA", "GRB", "GRC", "GRD")]
    u11 = league_division(event, organiser, "u11", ["FRA", "NZL", "IRE", "RSA"])
    u13 = league_division(event, organiser, "u13", ["ENG", "ARG", "WAL", "FIJ", "SCO", "AUS"])
    u15 = league_division(event, organiser, "u15", own)
    return {"organiser": organiser, "event": event, "u11": u11, "u13": u13, "u15": u15}


def local(fixture):
    return fixture.kickoff.astimezone(SAST)


def stored_clashes(event, rest=None):
    event.refresh_from_db()
    fixtures = list(event_fixtures(event))
    gap = dt.timedelta(minutes=event.rest_minutes if rest is None else rest)
    return timetable.find_clashes(event_bookings(fixtures), rest=gap)


def clash_target(ours_in, theirs_in):
    """A fixture of one division and one of another at a time when the first's teams are free: moving the
    first onto the second's time and pitch clashes only on the pitch."""
    ours = Fixture.objects.filter(tournament=ours_in).order_by("-kickoff").first()
    busy = {f.kickoff for f in Fixture.objects.filter(tournament=ours_in)
            if {f.home_id, f.away_id} & {ours.home_id, ours.away_id}}
    theirs = next(f for f in Fixture.objects.filter(tournament=theirs_in).order_by("kickoff", "id")
                  if all(abs(f.kickoff - k) >= dt.timedelta(minutes=20) for k in busy))
    return ours, theirs


def digest():
    return sorted(Fixture.objects.values_list("pk", "kickoff", "venue"))


# --- a festival: the whole day, a division's changes against the others, the API on it ----------------------------


class TestTheFestival:
    """The festival's three divisions on four pitches, made once for the class (some 0.4 s of CPU, each of its 14
    tests made its own; tests/worlds.py): each test runs in a savepoint of it."""

    _world = class_world(_festival_world)
    organiser = world_row("organiser")

    @pytest.fixture
    def festival(self, _world):
        """Three divisions (U11: 4 nations, U13: 6 nations, U15: 4 own teams) on four pitches."""
        return fresh(_world, "event"), [fresh(_world, slug) for slug in ("u11", "u13", "u15")]

    def test_three_divisions_on_four_pitches_with_no_clash(self, festival, organiser):
        event, divisions = festival
        count = event_services.event_schedule(event=event, user=organiser)
        assert count == 6 + 15 + 6
        fixtures = list(event_fixtures(event))
        assert all(f.kickoff is not None and f.venue in PITCHES for f in fixtures)
        assert min(local(f) for f in fixtures).strftime("%H:%M") == "09:00"
        assert stored_clashes(event) == [] and event_clashes(event) == []
        # Every division plays from the first slot: no division waits for another's whole day.
        first = {f.tournament_id for f in fixtures if local(f).strftime("%H:%M") == "09:00"}
        assert first == {t.pk for t in divisions}
        # One audit row per division, and each division's pages are refreshed.
        assert ScheduleChange.objects.filter(action="retime", tournament__in=divisions).count() == 3
        for t in divisions:
            old = t.version
            t.refresh_from_db()
            assert t.version > old and t.first_day == DAY and t.pitches == PITCHES and t.slot_minutes == 20

    def test_rest_gap_is_held_between_a_teams_matches(self, festival, organiser):
        event, _divisions = festival
        event_services.event_update(event=event, rest_minutes=25)
        event_services.event_schedule(event=event, user=organiser)
        assert stored_clashes(event, rest=25) == []
        by_team = defaultdict(list)
        for f in event_fixtures(event):
            for entry in (f.home, f.away):
                by_team[entry.pk].append(f.kickoff)
        for kickoffs in by_team.values():
            kickoffs.sort()
            for a, b in zip(kickoffs, kickoffs[1:], strict=False):
                assert b - a >= dt.timedelta(minutes=20 + 25)

    def test_a_day_that_does_not_fit_is_refused_by_n_slots(self, festival, organiser):
        event, _divisions = festival
        event_services.event_update(event=event, finish_by=dt.time(10, 0))
        before = digest()
        with pytest.raises(Conflict) as refused:
            event_services.event_schedule(event=event, user=organiser)
        # Rounds 1-3 of all three divisions take 2 slots each on 4 pitches, U13's rounds 4-5 one each: 8 slots
        # of 25 minutes from 09:00, the last over at 12:15. By 10:00 only 2 slots are over: 6 slots too many.
        assert refused.value.reason == "does_not_fit"
        assert "does not fit by 6 slots" in refused.value.text and "20 matches" in refused.value.text
        assert refused.value.data == {"slots": 6, "late": 20}
        assert digest() == before
        event_services.event_update(event=event, finish_by=dt.time(12, 14))
        with pytest.raises(Conflict, match="by 1 slots"):
            event_services.event_schedule(event=event, user=organiser)
        event_services.event_update(event=event, finish_by=dt.time(12, 15))
        assert event_services.event_schedule(event=event, user=organiser) == 27

    def test_moving_one_fixture_onto_another_divisions_pitch_is_refused(self, festival, organiser):
        event, (u11, u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        ours, theirs = clash_target(u11, u13)
        before = digest()
        with pytest.raises(Conflict) as refused:
            services.fixture_move(fixture=ours, kickoff=theirs.kickoff, venue=theirs.venue, user=organiser)
        assert refused.value.reason == "clash"
        assert "double-booked" in refused.value.text and "U13" in refused.value.text
        assert digest() == before

    def test_a_divisions_push_onto_the_others_is_refused_then_the_event_push_moves_all(self, festival, organiser):
        event, (u11, _u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        last = max(local(f) for f in Fixture.objects.filter(tournament=u11))
        before = digest()
        with pytest.raises(Conflict):  # U11's later matches pushed 25 minutes land on the others' slots
            services.fixtures_push(tournament=u11, day=DAY, after=dt.time(9, 25), minutes=25, user=organiser)
        assert digest() == before
        moved = event_services.event_push(event=event, after=dt.time(9, 25), minutes=25, user=organiser)
        assert moved == 27 - 4  # every match after the first slot, in every division
        assert max(local(f) for f in Fixture.objects.filter(tournament=u11)) == last + dt.timedelta(minutes=25)
        assert stored_clashes(event) == []
        assert ScheduleChange.objects.filter(action="push").count() == 3

    def test_event_push_into_a_played_match_is_refused(self, festival, organiser):
        event, (u11, _u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        first = Fixture.objects.filter(tournament=u11).order_by("kickoff", "id").first()
        services.result_record(fixture=first, home_score=10, away_score=5, home_tries=2, away_tries=1, user=organiser)
        before = digest()
        with pytest.raises(Conflict) as refused:  # everything else brought 25 minutes forward onto 09:00
            event_services.event_push(event=event, after=dt.time(9, 25), minutes=-25, user=organiser)
        assert refused.value.reason == "clash"
        assert digest() == before

    def test_a_single_division_retimed_goes_around_the_others(self, festival, organiser):
        event, (u11, _u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        services.schedule_retime(tournament=u11, user=organiser)
        assert stored_clashes(event) == []

    def test_moving_the_day_keeps_local_times_and_is_refused_once_played(self, festival, organiser):
        event, (u11, _u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        times = sorted(local(f).time() for f in event_fixtures(event))
        event_services.event_update(event=event, day=DAY + dt.timedelta(days=7), user=organiser)
        assert sorted(local(f).time() for f in event_fixtures(event)) == times
        assert {local(f).date() for f in event_fixtures(event)} == {DAY + dt.timedelta(days=7)}
        u11.refresh_from_db()
        assert u11.first_day == DAY + dt.timedelta(days=7)
        fixture = Fixture.objects.filter(tournament=u11).first()
        services.result_record(fixture=fixture, home_score=10, away_score=5, home_tries=2, away_tries=1, user=organiser)
        before = digest()
        with pytest.raises(Conflict):
            event_services.event_update(event=event, day=DAY, user=organiser)
        assert digest() == before
        event.refresh_from_db()
        assert event.day == DAY + dt.timedelta(days=7)

    def test_a_tournament_is_in_one_event_at_most_and_leaves_it_intact(self, festival, organiser):
        event, (u11, _u13, _u15) = festival
        other = make_event(organiser, slug="other")
        with pytest.raises(Conflict):
            event_services.division_add(event=other, tournament=u11, user=organiser)
        event_services.event_schedule(event=event, user=organiser)
        kept = digest()
        event_services.division_remove(event=event, tournament=u11)
        event_services.event_delete(event=event)
        assert digest() == kept and Tournament.objects.filter(slug="u11").exists()
        assert not Division.objects.exists()

    def test_api_clash_of_a_divisions_fixture_is_a_409(self, api, festival, organiser):
        event, (u11, u13, _u15) = festival
        event_services.event_schedule(event=event, user=organiser)
        ours, theirs = clash_target(u11, u13)
        before = digest()
        response = api.patch(f"/api/fixtures/{ours.pk}/", {"kickoff": theirs.kickoff.isoformat(),
                                                           "venue": theirs.venue}, format="json")
        assert response.status_code == 409 and response.json()["code"] == "clash"
        assert digest() == before
        late = api.patch("/api/events/festival/", {"finish_by": "09:30"}, format="json")
        assert late.status_code == 200
        refused = api.post("/api/events/festival/schedule/", {}, format="json")
        assert refused.status_code == 409 and refused.json()["code"] == "does_not_fit"
        assert "does not fit by" in refused.json()["detail"] and refused.json()["slots"] >= 1

    def test_api_permissions(self, festival, organiser, django_user_model):
        event, (u11, _u13, _u15) = festival
        stranger = django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")
        anonymous, other = APIClient(), APIClient()
        other.force_authenticate(stranger)
        assert anonymous.get("/api/events/festival/").status_code == 200
        assert anonymous.post("/api/events/", {"name": "X"}, format="json").status_code in (401, 403)
        assert anonymous.post("/api/events/festival/schedule/", {}, format="json").status_code in (401, 403)
        for method, url, body in [("patch", "/api/events/festival/", {"name": "Mine"}),
                                  ("post", "/api/events/festival/schedule/", {}),
                                  ("post", "/api/events/festival/push/", {"after": "09:00", "minutes": 5}),
                                  ("post", "/api/events/festival/divisions/", {"name": "Sneaky"}),
                                  ("delete", "/api/events/festival/divisions/u11/", None),
                                  ("delete", "/api/events/festival/", None),
                                  ("get", "/api/events/festival/clashes/", None)]:
            response = getattr(other, method)(url, body, format="json")
            assert response.status_code == 403, (method, url, response.content)
        # Taking in a tournament you do not organise: 403; one in an event already: 409.
        theirs = services.tournament_create_from_preset("league", name="Theirs", slug="theirs",
                                                        teams=["FRA", "NZL"], user=stranger)
        api = APIClient()
        api.force_authenticate(organiser)
        assert api.post("/api/events/festival/divisions/", {"tournament": "theirs"}, format="json").status_code == 403
        mine = make_event(organiser, slug="mine-too")
        assert api.post(f"/api/events/{mine.slug}/divisions/", {"tournament": "u11"}, format="json").status_code == 409
        assert not Division.objects.filter(tournament=theirs).exists()
        # A draft is hidden from others (404), listed for its organisers.
        draft = make_event(organiser, slug="secret", status=Tournament.Status.DRAFT)
        assert other.get("/api/events/secret/").status_code == 404
        assert "secret" not in [e["slug"] for e in other.get("/api/events/").json()["results"]]
        assert "secret" in [e["slug"] for e in api.get("/api/events/").json()["results"]]
        assert Event.objects.filter(pk=draft.pk, name="Saturday festival").exists()

    @pytest.mark.parametrize("url, body", [
        ("/api/events/", {"name": ""}),
        ("/api/events/", {"name": "X", "slot_minutes": 0}),
        ("/api/events/", {"name": "X", "pitches": "Pitch 1"}),
        ("/api/events/", {"name": "X", "pitches": ["A", "a"]}),
        ("/api/events/", {"name": "X", "first_kickoff": "25:00"}),
        ("/api/events/", {"name": "X", "first_kickoff": "10:00", "finish_by": "09:00"}),
        ("/api/events/", {"name": "X", "time_zone": "Mars/Base"}),
        ("/api/events/", {"name": "X", "slug": "festival"}),
        ("/api/events/", {"name": "X", "slug": "no spaces"}),
        ("/api/events/", {"name": "X", "day": "2026-02-30"}),
        ("/api/events/festival/divisions/", {}),
        ("/api/events/festival/divisions/", {"name": "A", "tournament": "u11"}),
        ("/api/events/festival/divisions/", {"name": "A", "format": "tiddlywinks"}),
        ("/api/events/festival/push/", {"after": "09:00", "minutes": 0}),
        ("/api/events/festival/push/", {"after": "nine", "minutes": 5}),
        ("/api/events/festival/push/", {"after": "09:00", "minutes": 100000}),
        ("/api/events/festival/push/", {"after": "23:59", "minutes": 5}),
    ])
    def test_api_bad_input_is_a_400(self, api, festival, url, body):
        before = (digest(), list(Event.objects.values_list("slug", "slot_minutes", "pitches")))
        response = api.post(url, body, format="json")
        assert response.status_code == 400, response.content
        assert before == (digest(), list(Event.objects.values_list("slug", "slot_minutes", "pitches")))

    def test_api_unknown_event_and_division_are_404(self, api, festival):
        assert api.get("/api/events/nope/").status_code == 404
        assert api.post("/api/events/nope/schedule/", {}, format="json").status_code == 404
        assert api.post("/api/events/festival/divisions/", {"tournament": "nope"}, format="json").status_code == 404
        assert api.delete("/api/events/festival/divisions/nope/").status_code == 404
        assert api.patch("/api/events/festival/", {"slug": "renamed"}, format="json").status_code == 400

    def test_a_divisions_fixtures_made_later_go_around_the_other_divisions(self, festival, organiser):
        """A new division's round robin (and a division's re-generated one) is placed around the day's others."""
        event, _divisions = festival
        event_services.event_schedule(event=event, user=organiser)
        late = event_services.division_create(event=event, name="Under 9", user=organiser)
        services.entries_add(tournament=late, teams=["ITA", "URU", "NAM", "POR"], pool="A")
        services.fixtures_generate_round_robin(tournament=late)
        fixtures = list(Fixture.objects.filter(tournament=late))
        assert len(fixtures) == 6 and all(f.kickoff and f.venue in PITCHES for f in fixtures)
        assert stored_clashes(event) == []


# --- the whole day of other events, and a division's settings -------------------------------------------------------


def test_a_player_in_two_divisions_never_plays_twice_at_once(organiser, django_user_model):
    event = make_event(organiser, slug="evening", pitches=["Table 1", "Table 2", "Table 3", "Table 4"])
    cup = league_division(event, organiser, "cup", ["FRA", "NZL", "IRE", "RSA"])
    social = league_division(event, organiser, "social", ["FRA", "NZL", "IRE", "RSA"])
    sam = django_user_model.objects.create_user(username="sam", password="pw-sam-12345")
    cup.entries.filter(team__code="FRA").update(player=sam)
    social.entries.filter(team__code="IRE").update(player_name="Sam Smith")
    cup.entries.filter(team__code="NZL").update(player_name="sam  smith")
    event_services.event_schedule(event=event, user=organiser)
    mine = sorted(f.kickoff for f in event_fixtures(event)
                  if {f.home.team.code, f.away.team.code} & {"FRA"} and f.tournament_id == cup.pk)
    assert len(mine) == 3
    # The same nation in two divisions is two different people: France may play in both at once, but "Sam
    # Smith" (typed twice, spaced differently) plays NZL in the cup and IRE in the social: never at once.
    sam_smith = sorted(f.kickoff for f in event_fixtures(event)
                        if (f.tournament_id == cup.pk and "NZL" in (f.home.team.code, f.away.team.code))
                        or (f.tournament_id == social.pk and "IRE" in (f.home.team.code, f.away.team.code)))
    assert len(sam_smith) == 6 and len(set(sam_smith)) == 6
    assert stored_clashes(event) == []


def test_an_own_team_in_two_divisions_is_one_side(organiser):
    event = make_event(organiser, slug="club-day")
    own = [make_team(code, user=organiser).code for code in ("CLA", "CLB", "CLC")]
    first = league_division(event, organiser, "first", own)
    second = league_division(event, organiser, "second", [own[0], "FRA", "NZL"])
    event_services.event_schedule(event=event, user=organiser)
    cla = [f.kickoff for f in event_fixtures(event) if "CLA" in (f.home.team.code, f.away.team.code)]
    assert len(cla) == 4 and len(set(cla)) == 4
    assert {first.pk, second.pk} == set(Division.objects.filter(event=event).values_list("tournament", flat=True))


def test_knockout_division_after_its_pools(organiser):
    event = make_event(organiser, slug="cup-day")
    cup = services.tournament_create_from_preset(
        "cup_plate", name="Cup", slug="cup", teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"],
        pools=2, user=organiser)
    event_services.division_add(event=event, tournament=cup, user=organiser)
    league_division(event, organiser, "u9", ["ITA", "URU", "NAM", "POR"])
    event_services.event_schedule(event=event, user=organiser)
    fixtures = list(event_fixtures(event).filter(tournament=cup))
    pools_end = max(f.kickoff for f in fixtures if f.stage == Fixture.Stage.POOL) + dt.timedelta(minutes=20)
    assert all(f.kickoff >= pools_end for f in fixtures if f.stage == Fixture.Stage.KNOCKOUT)
    assert stored_clashes(event) == []


def test_nothing_to_schedule_and_no_pitches_are_clear_errors(organiser):
    event = make_event(organiser, slug="empty", pitches=[])
    with pytest.raises(ValidationError, match="pitches"):
        event_services.event_schedule(event=event)
    event_services.event_update(event=event, pitches=["A"])
    with pytest.raises(ValidationError, match="division"):
        event_services.event_schedule(event=event)


def test_division_create_takes_the_events_plan_and_organisers(organiser, django_user_model):
    event = make_event(organiser, slug="made-here")
    friend = django_user_model.objects.create_user(username="friend", password="pw-friend-123")
    event_services.event_organiser_add(event=event, username="friend")
    t = event_services.division_create(event=event, name="Under 9", user=organiser, format="pools_knockout",
                                       points_system="rugby_league")
    assert t.slug == "made-here-under-9" and t.format == "pools_knockout" and t.points_rules["win"] == 2
    assert (t.first_day, t.slot_minutes, t.pitches, t.days_between_rounds) == (DAY, 20, PITCHES, 0)
    assert set(t.organisers.all()) == {organiser, friend}
    assert t.status == event.status
    with pytest.raises(ValidationError):
        event_services.event_organiser_add(event=event, username="nobody")


@pytest.mark.parametrize("fields, field", [
    ({"slot_minutes": 0}, "slot_minutes"), ({"rest_minutes": -1}, "rest_minutes"),
    ({"pitches": "Pitch 1"}, "pitches"), ({"pitches": ["A", "a"]}, "pitches"), ({"time_zone": "Mars/Base"},
                                                                                 "time_zone"),
    ({"finish_by": dt.time(8, 0)}, "finish_by"), ({"name": "  "}, "name"), ({"colour": "red"}, "colour"),
    ({"day": dt.date(1066, 10, 14)}, "day"), ({"status": "lost"}, "status"),
])
def test_bad_settings_are_field_errors(organiser, fields, field):
    event = make_event(organiser, slug="checked")
    with pytest.raises(ValidationError) as refused:
        event_services.event_update(event=event, **fields)
    assert field in refused.value.message_dict
    event.refresh_from_db()
    assert event.slot_minutes == 20 and event.pitches == PITCHES


# --- the API ---------------------------------------------------------------------------------------------------


@pytest.fixture
def api(organiser):
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def test_api_creates_an_event_adds_divisions_and_schedules_the_day(api, organiser):
    created = api.post("/api/events/", {"name": "Gala evening", "day": "2026-06-13", "first_kickoff": "18:00",
                                        "pitches": ["Table 1", "Table 2"], "rest_minutes": 10,
                                        "time_zone": "Europe/London"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["slug"] == "gala-evening" and created.json()["divisions"] == []
    services.tournament_create_from_preset("league", name="Cup", slug="cup", teams=["FRA", "NZL", "IRE"],
                                           user=organiser)
    assert api.post("/api/events/gala-evening/divisions/", {"tournament": "cup"}, format="json").status_code == 201
    made = api.post("/api/events/gala-evening/divisions/", {"name": "Social", "format": "swiss"}, format="json")
    assert made.status_code == 201 and made.json()["slug"] == "gala-evening-social"
    divisions = api.get("/api/events/gala-evening/divisions/").json()
    assert [d["name"] for d in divisions] == ["Cup", "Social"]
    scheduled = api.post("/api/events/gala-evening/schedule/", {}, format="json")
    assert scheduled.status_code == 200 and scheduled.json() == {"fixtures": 3}
    timetable_rows = api.get("/api/events/gala-evening/timetable/").json()
    assert len(timetable_rows) == 3 and timetable_rows[0]["kickoff"].startswith("2026-06-13T18:00:00+01:00")
    assert api.get("/api/events/gala-evening/clashes/").json() == {"clashes": []}
    pushed = api.post("/api/events/gala-evening/push/", {"after": "18:00", "minutes": 15}, format="json")
    assert pushed.status_code == 200 and pushed.json() == {"fixtures": 3}
    assert api.get("/api/events/gala-evening/now/").status_code == 200
    assert api.delete("/api/events/gala-evening/divisions/cup/").status_code == 204
    assert api.delete("/api/events/gala-evening/divisions/cup/").status_code == 404


@pytest.mark.parametrize("url, queries", [
    ("/api/events/", 5), ("/api/events/{slug}/", 4), ("/api/events/{slug}/divisions/", 2),
    ("/api/events/{slug}/timetable/", 2), ("/api/events/{slug}/now/", 2),
])
def test_api_reads_run_a_fixed_number_of_queries(organiser, url, queries):
    """The same count for a small day and one with three times the divisions and many more fixtures; the
    bounds are the exact counts (events, divisions with their tournaments, organisers; the rows)."""
    small = make_event(organiser, slug="small")
    league_division(small, organiser, "s1", ["FRA", "NZL"])
    event_services.event_schedule(event=small)
    large = make_event(organiser, slug="large")
    for index, teams in enumerate((["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"], ["WAL", "FIJ", "SCO", "AUS"],
                                   ["ITA", "URU", "NAM", "POR", "JPN"])):
        league_division(large, organiser, f"l{index}", teams)
    event_services.event_schedule(event=large)
    Result.objects.create(fixture=Fixture.objects.filter(tournament__slug="l0").first(), home_score=5,
                          away_score=0)
    client = APIClient()
    counts = []
    for event in (small, large):
        with CaptureQueriesContext(connection) as context:
            response = client.get(url.format(slug=event.slug))
        assert response.status_code == 200
        counts.append(len(context))
    assert counts == [queries, queries], [q["sql"] for q in context.captured_queries]


# --- properties, on the database ------------------------------------------------------------------------------

NATIONS = ["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ", "SCO", "AUS", "ITA", "URU", "NAM", "POR", "JPN"]
changes = st.lists(st.tuples(st.sampled_from(["move", "push", "event_push"]), st.integers(0, 10_000),
                             st.integers(0, 10_000), st.integers(-60, 60)), max_size=4)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(2, 5), min_size=1, max_size=3), pitches=st.integers(1, 4),
       rest=st.integers(0, 30), finish=st.one_of(st.none(), st.integers(30, 600)), shared=st.booleans(),
       ops=changes)
def test_any_day_is_placed_with_no_clash_or_refused_by_slots_and_changes_never_store_one(
        organiser, sizes, pitches, rest, finish, shared, ops):
    with transaction.atomic():
        names = [f"Pitch {i + 1}" for i in range(pitches)]
        event = make_event(organiser, slug="prop", pitches=names, rest_minutes=rest,
                           finish_by=None if finish is None else (dt.datetime(2000, 1, 1, 9) + dt.timedelta(
                               minutes=finish)).time())
        start = 0
        for index, size in enumerate(sizes):
            division = league_division(event, organiser, f"prop-{index}", NATIONS[start:start + size])
            start += size
            if shared and index:  # one person plays a side in this division and in the first
                division.entries.filter(pk=division.entries.order_by("pk").first().pk).update(player_name="Sam")
                Tournament.objects.get(slug="prop-0").entries.filter(
                    pk=Tournament.objects.get(slug="prop-0").entries.order_by("pk").first().pk).update(
                    player_name="Sam")
        wanted = sum(size * (size - 1) // 2 for size in sizes)
        before = digest()
        try:
            placed = event_services.event_schedule(event=event, user=organiser)
        except Conflict as refused:
            assert refused.reason == "does_not_fit" and refused.data["slots"] >= 1
            assert f"does not fit by {refused.data['slots']} slots" in refused.text
            assert digest() == before
            event_services.event_update(event=event, finish_by=None)
            placed = event_services.event_schedule(event=event, user=organiser)
        assert placed == wanted
        assert all(f.kickoff and f.venue in names for f in event_fixtures(event))
        assert stored_clashes(event) == []
        tournaments = list(Tournament.objects.filter(division__event=event).order_by("pk"))
        for kind, x, y, minutes in ops:
            fixtures = list(event_fixtures(event).order_by("pk"))
            try:
                if kind == "move":
                    f = fixtures[x % len(fixtures)]
                    when = dt.datetime.combine(DAY, dt.time(9, 0), tzinfo=SAST) + dt.timedelta(minutes=5 * (y % 80))
                    services.fixture_move(fixture=f, kickoff=when, venue=names[y % len(names)])
                elif kind == "push":
                    services.fixtures_push(tournament=tournaments[x % len(tournaments)], day=DAY,
                                           after=dt.time(9 + y % 4, 5 * (x % 12)), minutes=minutes or 15)
                else:
                    event_services.event_push(event=event, after=dt.time(9 + y % 4, 5 * (x % 12)),
                                              minutes=minutes or 15)
            except ValidationError:
                pass  # refused: nothing changed
            assert stored_clashes(event) == [], (kind, x, y, minutes)
        transaction.set_rollback(True)


