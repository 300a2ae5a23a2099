"""Services: tournaments and presets, entries, fixtures, results (validation, audit, corrections)."""

from datetime import date, datetime, time
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from league import selectors, services
from league.formats.rwc2023 import RWC2023_VENUES
from league.models import Entry, Fixture, Pool, Result, ResultChange, Team, Tournament
from league.services import tournament_create_from_preset as preset_run
from league.standings import POINTS_PRESETS
from tests.league.core_helpers import fixture_between, make_four_team_league, make_rwc

pytestmark = pytest.mark.django_db

@pytest.fixture
def four_team_league(db):
    return make_four_team_league()


@pytest.fixture
def rwc(db):
    return make_rwc()


# --- tournaments -------------------------------------------------------------------------------------


@pytest.mark.parametrize("system", sorted(POINTS_PRESETS))
def test_tournament_create_points_presets(system, organiser):
    t = services.tournament_create(name="Cup", slug=f"cup-{system.replace('_', '-')}", points_system=system,
                                   user=organiser)
    assert t.points_rules == POINTS_PRESETS[system].as_dict() and t.points == POINTS_PRESETS[system]
    assert list(t.organisers.all()) == [organiser]
    assert t.status == Tournament.Status.DRAFT


def test_tournament_create_custom_rules_start_from_world_rugby():
    t = services.tournament_create(name="Cup", slug="cup", points_system="custom",
                                   points_rules={"win": 5, "try_bonus_threshold": None}, walkover_score=20)
    assert (t.points.win, t.points.draw, t.points.try_bonus_threshold, t.walkover_score) == (5, 2, None, 20)
    assert t.points_system == "custom"


def test_a_preset_never_silently_replaces_the_rules_sent_with_it():
    with pytest.raises(ValidationError, match="choose “custom”"):
        services.tournament_create(name="Cup", points_system="sevens", points_rules={"win": 5})
    assert not Tournament.objects.exists()


def test_tournament_create_refuses_bad_input():
    services.tournament_create(name="Cup", slug="cup")
    with pytest.raises(ValidationError, match="already exists"):
        services.tournament_create(name="Cup again", slug="cup")
    with pytest.raises(ValidationError) as err:
        services.tournament_create(name="Cup", slug="not a slug")
    assert "slug" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        services.tournament_create(name="Cup", slug="cup-2", ruleset="chess")
    assert "ruleset" in err.value.message_dict
    with pytest.raises(ValidationError, match="Unknown tournament field"):
        services.tournament_create(name="Cup", slug="cup-3", colour="red")


# --- entries -----------------------------------------------------------------------------------------


def test_entries_add_by_code_and_name_with_seeds_and_pool():
    t = services.tournament_create(name="Cup", slug="cup")
    entries = services.entries_add(tournament=t, teams=["fra", "New Zealand"], pool="A")
    more = services.entries_add(tournament=t, teams=[Team.objects.get(code="ITA")], pool="B")
    assert [(e.team.code, e.seed, e.pool.name) for e in entries + more] == [("FRA", 1, "A"), ("NZL", 2, "A"),
                                                                             ("ITA", 3, "B")]
    assert list(Pool.objects.filter(tournament=t).values_list("name", "order")) == [("A", 1), ("B", 2)]


def test_entries_add_refusals():
    t = services.tournament_create(name="Cup", slug="cup")
    services.entries_add(tournament=t, teams=["FRA"])
    with pytest.raises(ValidationError, match="Unknown team.*XYZ.*Atlantis"):
        services.entries_add(tournament=t, teams=["XYZ", "NZL", "Atlantis"])
    with pytest.raises(ValidationError, match="Already in Cup: FRA"):
        services.entries_add(tournament=t, teams=["FRA", "NZL"])
    with pytest.raises(ValidationError, match="more than once: NZL"):
        services.entries_add(tournament=t, teams=["NZL", "nzl"])
    other = services.tournament_create(name="Other", slug="other")
    with pytest.raises(ValidationError, match="another tournament"):
        services.entries_add(tournament=t, teams=["NZL"], pool=services.pool_create(tournament=other, name="A"))
    assert Entry.objects.filter(tournament=t).count() == 1


# --- fixtures ----------------------------------------------------------------------------------------


def test_rwc_preset_pools_and_fixtures(rwc):
    pools = {p.name: sorted(p.entries.values_list("team__code", flat=True)) for p in rwc.pools.all()}
    assert pools == {
        "A": sorted(["FRA", "NZL", "ITA", "URU", "NAM"]), "B": sorted(["IRE", "RSA", "SCO", "TGA", "ROU"]),
        "C": sorted(["WAL", "AUS", "FIJ", "GEO", "POR"]), "D": sorted(["ENG", "JPN", "ARG", "SAM", "CHI"]),
    }
    assert rwc.format == Tournament.Format.RWC2023 and rwc.status == Tournament.Status.IN_PROGRESS
    fixtures = list(Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.POOL))
    assert len(fixtures) == 40
    assert {f.round_number for f in fixtures} == {1, 2, 3, 4, 5}
    # Every pair of a pool meets once; a round of 8 matches fits the 9 stadiums in one slot.
    for pool in rwc.pools.all():
        pairs = {frozenset((f.home_id, f.away_id)) for f in fixtures if f.pool_id == pool.pk}
        assert len(pairs) == 10
    assert all(f.slot == 0 and f.venue in RWC2023_VENUES for f in fixtures)
    first = timezone.localtime(min(f.kickoff for f in fixtures))
    assert (first.date(), first.time()) == (date(2023, 9, 8), time(14, 0))
    # Seeds follow the World Rugby ranking.
    assert Entry.objects.get(tournament=rwc, seed=1).team.code == "IRE"


def test_rwc_preset_ruleset_is_selectable():
    t = preset_run("rwc2023", name="Bokx evening", slug="bokx-evening", ruleset="manual",
                           venues=["Table 1", "Table 2", "Table 3"], start_date=date(2026, 9, 5),
                           first_kickoff=time(18, 0), slot_minutes=45)
    round_one = Fixture.objects.filter(tournament=t, round_number=1, stage=Fixture.Stage.POOL).order_by("slot",
                                                                                                       "venue")
    # 8 matches on 3 tables: slots of 3, 3 and 2, 45 minutes apart.
    assert [f.slot for f in round_one] == [0, 0, 0, 1, 1, 1, 2, 2]
    assert {timezone.localtime(f.kickoff).time() for f in round_one} == {time(18, 0), time(18, 45), time(19, 30)}
    with pytest.raises(ValidationError, match="Unknown preset"):
        preset_run("world-series", name="x", slug="x")


def test_league_preset_double_round_robin():
    t = preset_run("league", name="Winter", slug="winter", teams=["FRA", "NZL", "ITA"], double=True,
                           start_date=date(2026, 1, 3))
    fixtures = Fixture.objects.filter(tournament=t)
    assert fixtures.count() == 6
    assert len({(f.home_id, f.away_id) for f in fixtures}) == 6
    assert t.pools.get().name == "League"
    with pytest.raises(ValidationError, match="at least 2 teams"):
        preset_run("league", name="Solo", slug="solo", teams=["FRA"])
    assert not Tournament.objects.filter(slug="solo").exists()


def test_fixtures_generate_refuses_twice_and_replaces_without_results(four_team_league):
    with pytest.raises(ValidationError, match="already has pool fixtures"):
        services.fixtures_generate_round_robin(tournament=four_team_league)
    services.fixtures_generate_round_robin(tournament=four_team_league, replace=True, double=True)
    assert Fixture.objects.filter(tournament=four_team_league).count() == 12
    fixture = Fixture.objects.filter(tournament=four_team_league).first()
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1, away_tries=0)
    with pytest.raises(ValidationError, match="with results cannot be replaced"):
        services.fixtures_generate_round_robin(tournament=four_team_league, replace=True)


def test_fixtures_generate_needs_pools():
    t = services.tournament_create(name="Cup", slug="cup")
    with pytest.raises(ValidationError, match="pools"):
        services.fixtures_generate_round_robin(tournament=t)


# --- results -----------------------------------------------------------------------------------------


def test_result_record_creates_audits_and_bumps_version(four_team_league, organiser):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    version = Tournament.objects.get(pk=four_team_league.pk).version
    with mock.patch("league.advancement.after_result_change") as after:
        result = services.result_record(fixture=fixture, home_score=27, away_score=13, home_tries=3,
                                        away_tries=1, user=organiser)
    after.assert_called_once()
    assert after.call_args.kwargs["user"] == organiser
    assert result.winner_id == fixture.home_id and result.entered_by == organiser
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    assert Tournament.objects.get(pk=four_team_league.pk).version == version + 1
    change = ResultChange.objects.get(fixture=fixture)
    assert (change.action, change.old, change.changed_by) == ("created", None, organiser)
    assert change.new["home_score"] == 27 and change.new["away_tries"] == 1


def test_result_correction_keeps_old_and_new_and_updates_standings(four_team_league, organiser):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    services.result_record(fixture=fixture, home_score=27, away_score=13, home_tries=3, away_tries=1)
    services.result_record(fixture=fixture, home_score=13, away_score=27, home_tries=1, away_tries=3,
                           user=organiser, reason="home and away swapped on the score sheet")
    changes = list(ResultChange.objects.filter(fixture=fixture))
    assert [c.action for c in changes] == ["created", "updated"]
    assert changes[1].old["home_score"] == 27 and changes[1].new["home_score"] == 13
    assert changes[1].reason == "home and away swapped on the score sheet"
    rows = {r.team_code: r for r in selectors.pool_standings(four_team_league.pools.get())}
    winner = fixture.away.team.code
    assert rows[winner].won == 1 and rows[winner].points == 4
    assert Result.objects.filter(fixture=fixture).count() == 1


def test_recording_the_same_result_again_changes_nothing(four_team_league):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1, away_tries=0)
    version = Tournament.objects.get(pk=four_team_league.pk).version
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1, away_tries=0)
    assert ResultChange.objects.filter(fixture=fixture).count() == 1
    assert Tournament.objects.get(pk=four_team_league.pk).version == version


@pytest.mark.parametrize(("values", "field", "message"), [
    ({"home_score": 3, "away_score": 0, "home_tries": 2}, "home_score", "at least 10 points"),
    ({"home_score": 11, "away_score": 0, "home_tries": 2}, "home_score", "cannot be made with 2 tries"),
    ({"home_score": -5, "away_score": 0}, "home_score", "cannot be negative"),
    ({"home_score": 5, "away_score": 0, "home_tries": -1}, "home_tries", "cannot be negative"),
    ({"home_score": "ten", "away_score": 0}, "home_score", "whole number"),
    ({"home_score": 2.5, "away_score": 0}, "home_score", "whole number"),
    ({"home_score": True, "away_score": 0}, "home_score", "whole number"),
    ({"home_score": None, "away_score": 0}, "home_score", "required"),
    ({"home_score": 40000, "away_score": 0}, "home_score", "too large"),
    ({"home_score": 5, "away_score": 12, "away_tries": 2, "kind": "forfeit"}, "kind", "Unknown result kind"),
])
def test_result_record_refuses_bad_values(four_team_league, values, field, message):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    with pytest.raises(ValidationError) as err:
        services.result_record(fixture=fixture, **values)
    assert message in " ".join(err.value.message_dict[field])
    assert not Result.objects.filter(fixture=fixture).exists()
    assert not ResultChange.objects.exists()


def test_string_numbers_are_accepted(four_team_league):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    result = services.result_record(fixture=fixture, home_score="12", away_score="7", home_tries="2",
                                    away_tries="1")
    assert (result.home_score, result.away_tries) == (12, 1)


def test_rugby_league_cards_and_seasons_scoring():
    league = services.tournament_create(name="Cards", slug="cards", ruleset="rugby-league-cards",
                                        points_system="rugby_league")
    services.entries_add(tournament=league, teams=["FRA", "NZL"], pool="A")
    services.fixtures_generate_round_robin(tournament=league)
    fixture = Fixture.objects.get(tournament=league)
    with pytest.raises(ValidationError, match="at least 8 points"):
        services.result_record(fixture=fixture, home_score=7, away_score=0, home_tries=2)
    services.result_record(fixture=fixture, home_score=9, away_score=0, home_tries=2)

    seasons = services.tournament_create(name="Seasons", slug="seasons", ruleset="seasons",
                                         points_system="football")
    services.entries_add(tournament=seasons, teams=["FRA", "NZL"], pool="A")
    services.fixtures_generate_round_robin(tournament=seasons)
    services.result_record(fixture=Fixture.objects.get(tournament=seasons), home_score=1, away_score=0,
                           home_tries=3)


def test_walkover_uses_the_tournament_walkover_score(four_team_league):
    four_team_league.walkover_score, four_team_league.walkover_tries = 25, 5
    four_team_league.save()
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    result = services.result_record(fixture=fixture, kind=Result.Kind.WALKOVER_AWAY)
    assert (result.home_score, result.away_score, result.home_tries, result.away_tries) == (0, 25, 0, 5)
    assert result.winner_id == fixture.away_id and result.decided_by == Result.DecidedBy.WALKOVER
    rows = {r.team_code: r for r in selectors.pool_standings(four_team_league.pools.get())}
    assert rows[fixture.away.team.code].points == 5  # win + try bonus from the walkover's 5 tries
    assert rows[fixture.home.team.code].points == 0
    with pytest.raises(ValidationError, match="awarded to"):
        services.result_record(fixture=fixture, kind=Result.Kind.WALKOVER_HOME, winner=fixture.away)


def test_winner_must_match_the_score(four_team_league):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    with pytest.raises(ValidationError, match="higher score"):
        services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1, winner=fixture.away)
    other = Entry.objects.get(tournament=four_team_league, team__code="ITA")
    with pytest.raises(ValidationError, match="one of the two teams"):
        services.result_record(fixture=fixture, home_score=10, away_score=10, home_tries=1, away_tries=1,
                               winner=other)
    # A draw with a winner (a knockout decided by tries or kicks) keeps the given winner.
    result = services.result_record(fixture=fixture, home_score=10, away_score=10, home_tries=1, away_tries=1,
                                    winner=fixture.away, decided_by=Result.DecidedBy.KICKING)
    assert result.winner_id == fixture.away_id


def test_result_needs_both_teams_and_not_cancelled(four_team_league):
    knockout = Fixture.objects.create(tournament=four_team_league, stage=Fixture.Stage.KNOCKOUT, code="F",
                                      home_source="pool:League:1", away_source="pool:League:2")
    with pytest.raises(ValidationError, match="Both teams"):
        services.result_record(fixture=knockout, home_score=10, away_score=3, home_tries=1)
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    fixture.status = Fixture.Status.CANCELLED
    fixture.save()
    with pytest.raises(ValidationError, match="cancelled"):
        services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1)


def test_validate_result_change_hook_can_refuse(four_team_league):
    fixture = fixture_between(four_team_league, "FRA", "NZL")

    def refuse(*, fixture, values):
        raise ValidationError("The next round has started.")

    with mock.patch("league.advancement.validate_result_change", refuse, create=True), \
            pytest.raises(ValidationError, match="next round"):
        services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1)
    assert not Result.objects.exists()


def test_result_delete(four_team_league, organiser):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    services.result_record(fixture=fixture, home_score=10, away_score=3, home_tries=1)
    version = Tournament.objects.get(pk=four_team_league.pk).version
    services.result_delete(fixture=fixture, user=organiser, reason="entered on the wrong fixture")
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and not Result.objects.exists()
    change = ResultChange.objects.filter(fixture=fixture).last()
    assert (change.action, change.new, change.old["home_score"], change.changed_by) == ("deleted", None, 10,
                                                                                         organiser)
    assert Tournament.objects.get(pk=four_team_league.pk).version == version + 1
    with pytest.raises(ValidationError, match="no result"):
        services.result_delete(fixture=fixture)


def test_a_result_never_publishes_a_draft_and_publishing_a_complete_one_finishes_it():
    t = services.tournament_create(name="Cup", slug="cup")
    services.entries_add(tournament=t, teams=["FRA", "NZL"], pool="A")
    services.fixtures_generate_round_robin(tournament=t, start_date=date(2026, 5, 2))
    fixture = Fixture.objects.get(tournament=t)
    assert timezone.localtime(fixture.kickoff).replace(tzinfo=None) == datetime(2026, 5, 2, 14, 0)
    services.result_record(fixture=fixture, home_score=0, away_score=0)
    t.refresh_from_db()
    assert t.status == Tournament.Status.DRAFT  # entering a result by hand is not publishing
    services.tournament_publish(tournament=t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED  # every result was in already
