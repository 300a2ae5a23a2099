"""The schedule of every stage, and the organiser's changes to it (``league.services.schedule``): knockouts after
the pools in bracket order, Swiss rounds and solo attempts timed, moves, pushes and swaps refused on a clash
and kept in the audit trail -- and, as a property, no sequence of changes ever leaves a clash stored."""

from __future__ import annotations

import datetime as dt
import random
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league import services, timetable
from league.errors import Conflict
from league.models import Fixture, ScheduleChange
from league.schedule_selectors import bookings, dependencies, schedule_clashes, timetable_fixtures
from league.services import tournament_create_from_preset as preset_run

pytestmark = pytest.mark.django_db

SAST = ZoneInfo("Africa/Johannesburg")
DAY = dt.date(2026, 6, 13)
TEAMS = ["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"]


def festival(slug="fest", **options):
    """A one-day Cup/Plate festival in Johannesburg: two pools of four, two pitches, 30-minute matches."""
    return preset_run("cup_plate", name="Festival", slug=slug, teams=TEAMS, pools=2, start_date=DAY,
                      venues=["Pitch 1", "Pitch 2"], time_zone="Africa/Johannesburg", **options)


def local(fixture) -> str:
    return fixture.kickoff.astimezone(SAST).strftime("%H:%M")


def stored_clashes(tournament):
    fixtures = list(timetable_fixtures(tournament))
    return timetable.find_clashes(bookings(tournament, fixtures, dependencies(fixtures)))


# --- every stage gets a time ----------------------------------------------------------------------------------


def test_festival_preset_is_one_day_with_knockouts_after_the_pools():
    t = festival()
    assert (t.days_between_rounds, t.slot_minutes, t.changeover_minutes) == (0, 30, 10)
    fixtures = list(Fixture.objects.filter(tournament=t))
    assert fixtures and all(f.kickoff is not None and f.venue in ("Pitch 1", "Pitch 2") for f in fixtures)
    assert {f.kickoff.astimezone(SAST).date() for f in fixtures} == {DAY}
    pools = [f for f in fixtures if f.stage == Fixture.Stage.POOL]
    knockouts = [f for f in fixtures if f.stage == Fixture.Stage.KNOCKOUT]
    assert min(local(f) for f in pools) == "09:00"
    last_pool_end = max(f.kickoff for f in pools) + dt.timedelta(minutes=30)
    assert all(k.kickoff >= last_pool_end + dt.timedelta(minutes=10) for k in knockouts)
    # Earlier rounds first; a final after the semi-finals it takes its teams from.
    by_code = {f.code: f for f in knockouts}
    for f in knockouts:
        for source in (f.home_source, f.away_source):
            kind, _sep, code = source.partition(":")
            if kind in ("winner", "loser"):
                assert f.kickoff >= by_code[code].kickoff + dt.timedelta(minutes=40), (f.code, code)
    rounds = sorted({f.round_number for f in knockouts})
    for earlier, later in zip(rounds, rounds[1:], strict=False):
        assert max(f.kickoff for f in knockouts if f.round_number == earlier) < min(
            f.kickoff for f in knockouts if f.round_number == later)
    assert stored_clashes(t) == []


def test_weekly_league_keeps_a_round_a_week():
    t = preset_run("league", name="Winter", slug="winter", teams=["FRA", "NZL", "IRE", "RSA"],
                   start_date=dt.date(2026, 5, 2))
    assert t.days_between_rounds == 7
    days = sorted({f.kickoff.date() for f in Fixture.objects.filter(tournament=t)})
    assert days == [dt.date(2026, 5, 2), dt.date(2026, 5, 9), dt.date(2026, 5, 16)]


def test_swiss_rounds_are_timed_each_after_the_last():
    t = preset_run("swiss", name="Evening", slug="evening", teams=TEAMS[:6], rounds=3, start_date=DAY,
                   venues=["Table 1", "Table 2", "Table 3"], first_kickoff=dt.time(18, 0), slot_minutes=40,
                   changeover_minutes=5)
    round_one = list(Fixture.objects.filter(tournament=t, round_number=1))
    assert {f.kickoff.strftime("%H:%M") for f in round_one} == {"18:00"}
    assert sorted(f.venue for f in round_one) == ["Table 1", "Table 2", "Table 3"]
    for f in round_one:
        services.result_record(fixture=f, home_score=12, away_score=3, home_tries=2)
    round_two = list(Fixture.objects.filter(tournament=t, round_number=2))
    assert round_two and {f.kickoff.strftime("%H:%M") for f in round_two} == {"18:45"}


def test_solo_attempts_get_tables_and_times():
    t = preset_run("solo", name="Solo", slug="solo", teams=TEAMS[:3], attempts=2, start_date=DAY,
                   venues=["Table A", "Table B"])
    fixtures = list(Fixture.objects.filter(tournament=t).order_by("kickoff", "venue"))
    assert len(fixtures) == 6 and all(f.kickoff and f.venue for f in fixtures)
    assert stored_clashes(t) == []
    assert {f.round_number for f in fixtures[:2]} == {1}


def test_retime_places_what_is_still_to_play_after_what_was_played(organiser):
    t = festival()
    first = Fixture.objects.filter(tournament=t).order_by("kickoff", "venue").first()
    services.result_record(fixture=first, home_score=12, away_score=7, home_tries=2, away_tries=1)
    count = services.schedule_retime(tournament=t, user=organiser, first_day=DAY, first_kickoff=dt.time(10, 0),
                                     slot_minutes=20, changeover_minutes=5, days_between_rounds=0,
                                     pitches=["Pitch 1", "Pitch 2", "Pitch 3"])
    first.refresh_from_db()
    assert local(first) == "09:00"  # played: it stays
    assert count == Fixture.objects.filter(tournament=t).count() - 1
    assert stored_clashes(t) == []
    assert ScheduleChange.objects.get(tournament=t).action == ScheduleChange.Action.RETIME


def test_without_a_first_day_fixtures_get_pitches_but_no_time():
    t = preset_run("cup_plate", name="Undated", slug="undated", teams=TEAMS, pools=2, venues=["P1", "P2"])
    fixtures = list(Fixture.objects.filter(tournament=t))
    assert all(f.kickoff is None for f in fixtures)
    assert {f.venue for f in fixtures if f.stage == Fixture.Stage.POOL} == {"P1", "P2"}


# --- moves, pushes and swaps --------------------------------------------------------------------------------------


def test_move_and_its_audit_row(organiser):
    t = festival()
    fixture = Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT).order_by("kickoff").last()
    new = fixture.kickoff + dt.timedelta(hours=2)
    services.fixture_move(fixture=fixture, kickoff=new, venue="Pitch 3", user=organiser, reason="rain")
    fixture.refresh_from_db()
    assert (fixture.kickoff, fixture.venue) == (new, "Pitch 3")
    change = ScheduleChange.objects.get(tournament=t)
    assert (change.action, change.changed_by, change.reason) == ("move", organiser, "rain")
    assert change.fixtures[0]["new"] == {"kickoff": new.isoformat(), "venue": "Pitch 3"}


def test_move_refused_when_a_team_would_play_twice_at_once():
    t = festival()
    a, b = Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL, home__team__code="FRA").order_by(
        "kickoff")[:2]
    with pytest.raises(Conflict, match="France would play twice at once") as caught:
        # 20 minutes after a's kick-off: a 30-minute match is still on.
        services.fixture_move(fixture=b, kickoff=a.kickoff + dt.timedelta(minutes=20), venue="Pitch 3")
    assert "(a match lasts 30 minutes)" in caught.value.text
    b.refresh_from_db()
    assert b.kickoff != a.kickoff + dt.timedelta(minutes=20) and not ScheduleChange.objects.exists()


def test_move_refused_when_a_pitch_would_be_double_booked():
    t = festival()
    a = Fixture.objects.filter(tournament=t, venue="Pitch 1").order_by("kickoff").first()
    other = Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL).exclude(
        home__in=[a.home, a.away]).exclude(away__in=[a.home, a.away]).order_by("-kickoff").first()
    with pytest.raises(Conflict, match="Pitch 1 would be double-booked"):
        services.fixture_move(fixture=other, kickoff=a.kickoff + dt.timedelta(minutes=29), venue="Pitch 1")


def test_move_refused_before_the_match_it_takes_its_teams_from():
    t = festival()
    final = Fixture.objects.get(tournament=t, code="CUP-F")
    semi = Fixture.objects.get(tournament=t, code="CUP-SF1")
    with pytest.raises(Conflict, match="before .* is over"):
        services.fixture_move(fixture=final, kickoff=semi.kickoff + dt.timedelta(minutes=10), venue="Pitch 3")


def test_played_fixture_keeps_its_time():
    t = festival()
    played = Fixture.objects.filter(tournament=t).order_by("kickoff").first()
    services.result_record(fixture=played, home_score=5, away_score=0, home_tries=1)
    with pytest.raises(Conflict, match="has been played"):
        services.fixture_move(fixture=played, kickoff=played.kickoff + dt.timedelta(hours=5), venue="")


def test_push_the_afternoon_back(organiser):
    t = festival()
    before = {f.pk: f.kickoff for f in Fixture.objects.filter(tournament=t)}
    noon = dt.time(12, 0)
    count = services.fixtures_push(tournament=t, day=DAY, after=noon, minutes=20, user=organiser)
    after = {f.pk: f.kickoff for f in Fixture.objects.filter(tournament=t)}
    moved = [pk for pk in before if after[pk] != before[pk]]
    assert count == len(moved) > 0
    for pk, kickoff in before.items():
        if kickoff.astimezone(SAST).time() >= noon:
            assert after[pk] - kickoff == dt.timedelta(minutes=20)
        else:
            assert after[pk] == kickoff
    assert ScheduleChange.objects.get(tournament=t).action == "push"
    assert stored_clashes(t) == []


def test_push_refused_on_a_clash_and_bad_minutes():
    t = festival()
    with pytest.raises(Conflict, match="Clash"):
        # Bringing the afternoon forward by an hour runs it into the morning's matches.
        services.fixtures_push(tournament=t, day=DAY, after=dt.time(12, 0), minutes=-60)
    for minutes in (0, 10_000, "20", True):
        with pytest.raises(ValidationError):
            services.fixtures_push(tournament=t, day=DAY, after=dt.time(12, 0), minutes=minutes)
    with pytest.raises(ValidationError, match="No fixture"):
        services.fixtures_push(tournament=t, day=DAY + dt.timedelta(days=1), after=dt.time(9, 0), minutes=20)
    assert not ScheduleChange.objects.exists()


def test_swap_two_fixtures_and_a_refused_swap(organiser):
    t = festival()
    pool = list(Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL).order_by("kickoff", "venue"))
    a, b = pool[0], pool[1]  # the same kick-off on the two pitches: they swap pitches
    where = {a.pk: (a.kickoff, a.venue), b.pk: (b.kickoff, b.venue)}
    services.fixtures_swap(first=a, second=b, user=organiser)
    a.refresh_from_db(), b.refresh_from_db()
    assert (a.kickoff, a.venue) == where[b.pk] and (b.kickoff, b.venue) == where[a.pk]
    # France's first-round match swapped with another second-round match at the time of France's own:
    france = [f for f in Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL).order_by("kickoff")
              if "FRA" in (f.home.team.code, f.away.team.code)]
    mine, later = france[0], france[1]
    clashing = Fixture.objects.filter(tournament=t, kickoff=later.kickoff).exclude(pk=later.pk).first()
    with pytest.raises(Conflict, match="would play twice at once"):
        services.fixtures_swap(first=mine, second=clashing)
    with pytest.raises(ValidationError):
        services.fixtures_swap(first=a, second=a)


def test_time_zone_change_keeps_local_times(organiser):
    t = festival()
    fixture = Fixture.objects.filter(tournament=t).order_by("kickoff").first()
    assert local(fixture) == "09:00"
    services.tournament_update(tournament=t, time_zone="Pacific/Auckland", user=organiser)
    fixture.refresh_from_db()
    assert fixture.kickoff.astimezone(ZoneInfo("Pacific/Auckland")).strftime("%H:%M") == "09:00"
    assert ScheduleChange.objects.filter(tournament=t, action="zone").exists()
    with pytest.raises(ValidationError):
        services.tournament_update(tournament=t, time_zone="Mars/Olympus_Mons")
    t.refresh_from_db()
    assert t.time_zone == "Pacific/Auckland"


# --- property: changes never leave a clash stored -------------------------------------------------------------


operations = st.lists(st.tuples(st.sampled_from(["move", "push", "swap"]), st.integers(0, 10_000),
                                st.integers(0, 10_000), st.integers(-90, 90)), min_size=1, max_size=8)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_random_changes_never_store_a_clash(ops):
    with transaction.atomic():
        t = festival(slug="prop")
        pitches = ["Pitch 1", "Pitch 2", "Pitch 3"]
        for kind, x, y, minutes in ops:
            fixtures = list(Fixture.objects.filter(tournament=t).order_by("pk"))
            rng = random.Random(x * 7919 + y)
            try:
                if kind == "move":
                    f = fixtures[x % len(fixtures)]
                    start = dt.datetime.combine(DAY, dt.time(9, 0), tzinfo=SAST) + dt.timedelta(minutes=10 * (y % 60))
                    services.fixture_move(fixture=f, kickoff=start, venue=rng.choice(pitches))
                elif kind == "push":
                    services.fixtures_push(tournament=t, day=DAY, after=dt.time(9 + y % 8, 10 * (x % 6)),
                                           minutes=minutes or 15)
                else:
                    services.fixtures_swap(first=fixtures[x % len(fixtures)], second=fixtures[y % len(fixtures)])
            except ValidationError:
                pass  # refused: nothing changed
            assert stored_clashes(t) == [], (kind, x, y, minutes)
        assert schedule_clashes(t) == []
        transaction.set_rollback(True)
