"""Advancement, corrections, knockout draws, walkovers and withdrawals, Swiss rounds, solo leaderboard."""

from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from league import services
from league.format_selectors import bracket_for_tournament, solo_leaderboard, swiss_table
from league.models import Entry, Fixture, Result, ResultChange, Tournament
from league.services import tournament_create_from_preset as preset_run
from tests.league.core_helpers import fixture_between

DATA = Path(__file__).resolve().parent.parent / "data" / "rwc2023_pool_results.csv"
SIX = ["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"]


def ko(tournament, code):
    return Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code=code)


def codes(fixture):
    return (fixture.home.team.code if fixture.home_id else None, fixture.away.team.code if fixture.away_id else None)


def win(fixture, *, home=True, **extra):
    """Record a clear win (24-10, 3 tries to 1) for the home or away side."""
    scores = {"home_score": 24, "away_score": 10, "home_tries": 3, "away_tries": 1} if home else \
        {"home_score": 10, "away_score": 24, "home_tries": 1, "away_tries": 3}
    return services.result_record(fixture=fixture, **scores, **extra)


@pytest.fixture
def knockout6(db):
    return preset_run("single_elimination", name="Six", slug="six", teams=SIX, third_place=True)


@pytest.fixture
def rwc(db):
    tournament = preset_run("rwc2023", name="RWC 2023", slug="rwc", start_date=date(2023, 9, 8))
    services.results_import_csv(tournament=tournament, file=DATA.read_bytes())
    return tournament


# -- Brackets fill themselves ----------------------------------------------------------------------------

def test_byes_advance_automatically(knockout6):
    assert codes(ko(knockout6, "SF1")) == ("FRA", None)  # seed 1 straight into the semi-final
    assert codes(ko(knockout6, "SF2")) == ("NZL", None)
    assert codes(ko(knockout6, "QF1")) == ("RSA", "ENG")
    assert codes(ko(knockout6, "QF2")) == ("IRE", "ARG")


def test_winner_and_loser_move_on(knockout6):
    win(ko(knockout6, "QF1"), home=False)
    assert codes(ko(knockout6, "SF1")) == ("FRA", "ENG")
    win(ko(knockout6, "QF2"))
    win(ko(knockout6, "SF1"))
    win(ko(knockout6, "SF2"), home=False)
    assert codes(ko(knockout6, "F")) == ("FRA", "IRE")
    assert codes(ko(knockout6, "BF")) == ("ENG", "NZL")


def test_knockout_draw_needs_who_went_through_and_how(knockout6):
    qf1 = ko(knockout6, "QF1")
    with pytest.raises(ValidationError) as exc:
        services.result_record(fixture=qf1, home_score=20, away_score=20, home_tries=2, away_tries=2)
    assert "winner" in exc.value.message_dict and "decided_by" in exc.value.message_dict
    assert "QF1" in exc.value.message_dict["winner"][0]
    with pytest.raises(ValidationError) as exc:
        services.result_record(fixture=qf1, home_score=20, away_score=20, home_tries=2, away_tries=2,
                               winner=qf1.away)
    assert list(exc.value.message_dict) == ["decided_by"]
    assert not Result.objects.filter(fixture=qf1).exists()
    services.result_record(fixture=qf1, home_score=20, away_score=20, home_tries=2, away_tries=2,
                           winner=qf1.away, decided_by=Result.DecidedBy.KICKING)
    assert codes(ko(knockout6, "SF1")) == ("FRA", "ENG")
    data = bracket_for_tournament(knockout6)
    qf = [m for m in data["brackets"][0]["rounds"][0]["matches"] if m["code"] == "QF1"][0]
    assert (qf["winner"], qf["decided_by"]) == ("ENG", "kicking")


def test_pool_draws_need_no_winner(rwc):
    # A drawn pool match (Georgia 18-18 Portugal) was accepted by the import without any winner.
    result = Result.objects.get(fixture__tournament=rwc, fixture__home__team__code="GEO",
                                fixture__away__team__code="POR")
    assert (result.home_score, result.away_score, result.winner_id) == (18, 18, None)


# -- Corrections -----------------------------------------------------------------------------------------

def test_correction_rederives_unplayed_matches_downstream(knockout6):
    win(ko(knockout6, "QF1"))  # RSA beat ENG
    win(ko(knockout6, "QF2"))
    assert codes(ko(knockout6, "SF1")) == ("FRA", "RSA")
    services.result_record(fixture=ko(knockout6, "QF1"), home_score=10, away_score=24, home_tries=1, away_tries=3,
                           reason="Scores were swapped")
    assert codes(ko(knockout6, "SF1")) == ("FRA", "ENG")
    # A correction that keeps the same winner changes nothing downstream.
    services.result_record(fixture=ko(knockout6, "QF1"), home_score=10, away_score=27, home_tries=1, away_tries=3)
    assert codes(ko(knockout6, "SF1")) == ("FRA", "ENG")


def test_correction_altering_a_played_match_is_refused_and_names_it(knockout6):
    win(ko(knockout6, "QF1"))
    win(ko(knockout6, "QF2"))
    win(ko(knockout6, "SF1"))  # FRA beat RSA
    with pytest.raises(ValidationError) as exc:
        services.result_record(fixture=ko(knockout6, "QF1"), home_score=10, away_score=24, home_tries=1,
                               away_tries=3)
    message = " ".join(exc.value.messages)
    assert "SF1 (France v South Africa)" in message and "already been played" in message
    assert "Reset the later rounds" in message
    # Nothing changed: the old result and the semi-final stand.
    assert Result.objects.get(fixture=ko(knockout6, "QF1")).home_score == 24
    assert codes(ko(knockout6, "SF1")) == ("FRA", "RSA")
    assert Result.objects.filter(fixture=ko(knockout6, "SF1")).exists()
    # Deleting the QF1 result is refused for the same reason.
    with pytest.raises(ValidationError, match="SF1"):
        services.result_delete(fixture=ko(knockout6, "QF1"))


def test_correction_with_reset_of_later_rounds(knockout6, organiser):
    win(ko(knockout6, "QF1"))
    win(ko(knockout6, "QF2"))
    win(ko(knockout6, "SF1"))
    win(ko(knockout6, "SF2"))
    win(ko(knockout6, "F"))  # FRA champions
    services.result_correct(fixture=ko(knockout6, "QF1"), reset_later_rounds=True, home_score=10, away_score=24,
                           home_tries=1, away_tries=3, user=organiser, reason="Wrong way round")
    sf1 = ko(knockout6, "SF1")
    assert codes(sf1) == ("FRA", "ENG")
    assert not Result.objects.filter(fixture=sf1).exists() and sf1.status == Fixture.Status.SCHEDULED
    final = ko(knockout6, "F")
    assert codes(final) == (None, "NZL") and not Result.objects.filter(fixture=final).exists()
    assert codes(ko(knockout6, "BF")) == (None, "IRE")  # SF2's result stands
    assert Result.objects.filter(fixture=ko(knockout6, "SF2")).exists()
    deleted = ResultChange.objects.filter(fixture__tournament=knockout6, action="deleted")
    assert {c.fixture.code for c in deleted} == {"SF1", "F"}
    assert all(c.old is not None and "Reset" in c.reason_text for c in deleted)


def test_bracket_reset_from_deletes_later_results(knockout6, organiser):
    win(ko(knockout6, "QF1"))
    win(ko(knockout6, "QF2"))
    win(ko(knockout6, "SF1"))
    win(ko(knockout6, "SF2"))
    deleted = services.bracket_reset_from(fixture=ko(knockout6, "QF1"), user=organiser)
    assert deleted == ["SF1"]  # the bronze final and final were not played yet
    assert codes(ko(knockout6, "F")) == (None, "NZL")
    assert codes(ko(knockout6, "SF1")) == ("FRA", "RSA")  # QF1 itself stands
    services.result_record(fixture=ko(knockout6, "QF1"), home_score=10, away_score=24, home_tries=1, away_tries=3)
    assert codes(ko(knockout6, "SF1")) == ("FRA", "ENG")


def _jpn_arg(fixture, jpn_score, arg_score, jpn_tries, arg_tries):
    """A Japan v Argentina result as the fixture stores it (either team may be at home)."""
    if fixture.home.team.code == "JPN":
        return {"home_score": jpn_score, "away_score": arg_score, "home_tries": jpn_tries, "away_tries": arg_tries}
    return {"home_score": arg_score, "away_score": jpn_score, "home_tries": arg_tries, "away_tries": jpn_tries}


def test_pool_correction_moves_the_quarter_finalists(rwc):
    assert codes(ko(rwc, "QF1")) == ("WAL", "ARG")
    # Had Japan beaten Argentina 40-39 with 5 tries, Japan would have been second in Pool D.
    jpn_arg = fixture_between(rwc, "JPN", "ARG")
    services.result_record(fixture=jpn_arg, **_jpn_arg(jpn_arg, 40, 39, 5, 5))
    assert codes(ko(rwc, "QF1")) == ("WAL", "JPN")
    # Deleting a pool result makes the pool incomplete again: its slots empty.
    services.result_delete(fixture=jpn_arg)
    assert codes(ko(rwc, "QF1")) == ("WAL", None)
    assert codes(ko(rwc, "QF3")) == (None, "FIJ")


def test_pool_correction_refused_once_the_quarter_final_is_played(rwc):
    services.result_record(fixture=ko(rwc, "QF1"), home_score=17, away_score=29, home_tries=2, away_tries=2)
    jpn_arg = fixture_between(rwc, "JPN", "ARG")
    before = Result.objects.get(fixture=jpn_arg)
    with pytest.raises(ValidationError, match=r"QF1 \(Wales v Argentina\).*already been played"):
        services.result_record(fixture=jpn_arg, **_jpn_arg(jpn_arg, 40, 39, 5, 5))
    after = Result.objects.get(fixture=jpn_arg)
    assert (after.home_score, after.away_score) == (before.home_score, before.away_score)  # unchanged
    # A correction that does not change the placings is fine.
    services.result_record(fixture=jpn_arg, **_jpn_arg(jpn_arg, 27, 42, 3, 6))
    assert codes(ko(rwc, "QF1")) == ("WAL", "ARG")


# -- Walkovers and withdrawals ---------------------------------------------------------------------------

@pytest.fixture
def two_pools(db):
    """8 teams in pools A and B (a fixed draw seed), top two into semi-finals; no results yet."""
    return preset_run("pools_knockout", name="Festival", slug="festival",
                              teams=["IRE", "FRA", "RSA", "NZL", "SCO", "ARG", "FIJ", "ENG"], pools=2,
                              draw_seed=2023)


def pool_fixtures(tournament, code):
    return list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL, home__team__code=code)
                | Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL, away__team__code=code))


def test_withdrawal_forfeits_remaining_fixtures_and_keeps_played_results(two_pools, organiser):
    tournament = two_pools
    tournament.walkover_score, tournament.walkover_tries = 20, 4
    tournament.save()
    entry = Entry.objects.get(tournament=tournament, team__code="ARG")
    played, *remaining = sorted(pool_fixtures(tournament, "ARG"), key=lambda f: f.round_number)
    win(played, home=played.home_id == entry.pk)
    counts = services.entry_withdraw(entry=entry, keep_played_results=True, user=organiser)
    assert counts == {"walkovers": len(remaining), "voided": 0}
    assert Result.objects.get(fixture=played).kind == Result.Kind.PLAYED
    for fixture in remaining:
        result = Result.objects.get(fixture=fixture)
        to_home = fixture.away_id == entry.pk
        assert result.kind == (Result.Kind.WALKOVER_HOME if to_home else Result.Kind.WALKOVER_AWAY)
        assert (result.home_score, result.away_score) == ((20, 0) if to_home else (0, 20))
        assert (result.home_tries, result.away_tries) == ((4, 0) if to_home else (0, 4))
    assert Entry.objects.get(pk=entry.pk).withdrawn_at is not None
    with pytest.raises(ValidationError, match="already withdrawn"):
        services.entry_withdraw(entry=entry, keep_played_results=True)


def test_withdrawal_can_void_played_pool_results(two_pools):
    entry = Entry.objects.get(tournament=two_pools, team__code="ARG")
    played, *remaining = sorted(pool_fixtures(two_pools, "ARG"), key=lambda f: f.round_number)
    win(played, home=played.home_id == entry.pk)
    counts = services.entry_withdraw(entry=entry, keep_played_results=False)
    assert counts == {"walkovers": len(remaining), "voided": 1}
    played.refresh_from_db()
    assert played.status == Fixture.Status.CANCELLED and not Result.objects.filter(fixture=played).exists()
    change = ResultChange.objects.filter(fixture=played, action="deleted").get()
    assert change.old["home_score"] in (24, 10) and "voided" in change.reason_text
    # The voided match no longer counts in the table.
    from league.selectors import pool_standings

    rows = {r.team_code: r for r in pool_standings(played.pool)}
    assert rows["ARG"].played == len(remaining)
    # A cancelled fixture cannot get a result any more.
    with pytest.raises(ValidationError, match="cancelled"):
        win(played)


def test_withdrawn_team_qualifying_gives_its_knockout_place_to_the_opponent(two_pools):
    entry = Entry.objects.get(tournament=two_pools, team__code="IRE")
    pool_of_ire = entry.pool
    # IRE win their first match, then withdraw (results kept); everyone else in the pool beats the rest.
    fixtures = sorted(pool_fixtures(two_pools, "IRE"), key=lambda f: f.round_number)
    win(fixtures[0], home=fixtures[0].home_id == entry.pk)
    services.entry_withdraw(entry=entry, keep_played_results=True)
    for fixture in Fixture.objects.filter(tournament=two_pools, stage=Fixture.Stage.POOL, result__isnull=True):
        win(fixture)
    semis = [ko(two_pools, "SF1"), ko(two_pools, "SF2")]
    assert all(f.home_id and f.away_id for f in semis)
    ire_semi = [f for f in semis if entry.pk in (f.home_id, f.away_id)]
    if ire_semi:  # IRE qualified: the opponent went through by walkover
        result = Result.objects.get(fixture=ire_semi[0])
        assert result.decided_by == Result.DecidedBy.WALKOVER and result.winner_id != entry.pk
        final = ko(two_pools, "F")
        assert result.winner_id in (final.home_id, final.away_id)
    else:
        assert pool_of_ire is not None  # IRE finished outside the top two: nothing to forfeit


def test_withdrawal_during_the_knockout_gives_the_match_to_the_opponent(knockout6):
    win(ko(knockout6, "QF1"))  # RSA into SF1 against FRA
    services.entry_withdraw(entry=Entry.objects.get(tournament=knockout6, team__code="FRA"),
                           keep_played_results=True)
    sf1 = ko(knockout6, "SF1")
    result = Result.objects.get(fixture=sf1)
    assert result.kind == Result.Kind.WALKOVER_AWAY and result.winner_id == sf1.away_id
    assert (result.home_score, result.away_score) == (0, knockout6.walkover_score)
    assert codes(ko(knockout6, "F"))[0] == "RSA"
    # A team withdrawing before its opponent is known: the walkover comes when the slot fills.
    services.entry_withdraw(entry=Entry.objects.get(tournament=knockout6, team__code="NZL"),
                           keep_played_results=True)
    assert not Result.objects.filter(fixture=ko(knockout6, "SF2")).exists()
    win(ko(knockout6, "QF2"))  # IRE through to face NZL, who withdrew
    sf2 = ko(knockout6, "SF2")
    assert Result.objects.get(fixture=sf2).winner.team.code == "IRE"
    assert codes(ko(knockout6, "F")) == ("RSA", "IRE")


# -- Draws on the database ---------------------------------------------------------------------------------

def test_draw_pools_stores_its_seed_and_reruns_the_same(db):
    t = preset_run("pools_knockout", name="Draw", slug="draw", teams=SIX + ["WAL", "FIJ"], pools=2,
                           draw_seed=99)
    assert (t.draw_method, t.draw_seed) == ("seeded", 99)
    first = {e.team.code: e.pool.name for e in Entry.objects.filter(tournament=t).select_related("team", "pool")}
    again = services.pools_draw(tournament=t, method="seeded", pools=2, seed=99)
    assert Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT).count() == 4  # remade: SF, BF, F
    assert {code: pool for pool, members in again.items() for code in members} == first
    # Bands: FRA and NZL (seeds 1-2) are in different pools.
    assert first["FRA"] != first["NZL"]
    win(Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL).first())
    with pytest.raises(ValidationError, match="pool results"):
        services.pools_draw(tournament=t, method="random", pools=2)


def test_manual_draw(db):
    t = services.tournament_create(name="Manual", slug="manual-draw", format=Tournament.Format.POOLS_KNOCKOUT)
    services.entries_add(tournament=t, teams=["FRA", "NZL", "IRE", "RSA"])
    drawn = services.pools_draw(tournament=t, method="manual", pools=["East", "West"],
                               assignment={"FRA": "East", "IRE": "East", "NZL": "West", "RSA": "West"})
    assert drawn == {"East": ["FRA", "IRE"], "West": ["NZL", "RSA"]}
    assert t.draw_seed is None and Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL).count() == 2
    with pytest.raises(ValidationError, match="no pool given for RSA"):
        services.pools_draw(tournament=t, method="manual", pools=["East", "West"],
                           assignment={"FRA": "East", "IRE": "East", "NZL": "West"})


# -- Cup / Plate / Bowl --------------------------------------------------------------------------------------

def test_cup_plate_bowl_tiers_fill_from_pool_positions(db):
    t = preset_run("cup_plate", name="Sevens", slug="sevens", pools=2, draw_seed=7,
                           teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ"])
    brackets = [b["name"] for b in bracket_for_tournament(t)["brackets"]]
    assert brackets == ["Cup", "Plate", "Bowl"]
    for fixture in Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL):
        win(fixture, home=fixture.home.seed < fixture.away.seed)
    from league.selectors import tournament_standings

    place = {(pool.name, row.position): row.team_code for pool, rows in tournament_standings(t) for row in rows}
    plate_final = ko(t, "PLATE-F")
    assert set(codes(plate_final)) == {place[("A", 3)], place[("B", 3)]}
    bowl_final = ko(t, "BOWL-F")
    assert set(codes(bowl_final)) == {place[("A", 4)], place[("B", 4)]}
    assert codes(ko(t, "CUP-SF1")) == (place[("A", 1)], place[("B", 2)])


def test_losers_of_cup_quarter_finals_drop_to_the_plate(db):
    teams = ["FRA", "NZL", "IRE", "RSA", "ENG", "ARG", "WAL", "FIJ", "AUS", "SCO", "ITA", "JPN"]
    t = preset_run("cup_plate", name="Sevens", slug="sevens-plate", pools=4, draw_seed=3,
                           teams=teams + ["GEO", "SAM", "TGA", "URU"], plate_from_cup_losers=True)
    assert [b["name"] for b in bracket_for_tournament(t)["brackets"]] == ["Cup", "Plate", "Bowl", "Shield"]
    for fixture in Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL):
        win(fixture, home=fixture.home.seed < fixture.away.seed)
    for code in ("CUP-QF1", "CUP-QF2"):
        win(ko(t, code))
    plate_sf1 = ko(t, "PLATE-SF1")
    assert (plate_sf1.home_source, plate_sf1.away_source) == ("loser:CUP-QF1", "loser:CUP-QF2")
    assert plate_sf1.home_id == ko(t, "CUP-QF1").away_id and plate_sf1.away_id == ko(t, "CUP-QF2").away_id


# -- Swiss -----------------------------------------------------------------------------------------------

def test_swiss_rounds_pair_themselves_until_the_last(db):
    t = preset_run("swiss", name="Club night", slug="club-night", rounds=3,
                           teams=["FRA", "NZL", "IRE", "RSA", "ENG"])
    seen_pairs, byes = set(), []
    for round_number in (1, 2, 3):
        fixtures = list(Fixture.objects.filter(tournament=t, stage=Fixture.Stage.SWISS, round_number=round_number))
        assert len(fixtures) == 3  # two matches and a bye
        (bye,) = [f for f in fixtures if f.away_id is None]
        byes.append(bye.home_id)
        for fixture in fixtures:
            if fixture.away_id is None:
                continue
            pair = frozenset((fixture.home_id, fixture.away_id))
            assert pair not in seen_pairs
            seen_pairs.add(pair)
            win(fixture, home=fixture.home.seed < fixture.away.seed)
    assert len(set(byes)) == 3  # a different team rested each round
    assert not Fixture.objects.filter(tournament=t, round_number=4).exists()
    table = swiss_table(t)
    assert table[0]["team"] == "FRA" and table[0]["won"] + table[0]["byes"] == 3
    assert [r["position"] for r in table] == [1, 2, 3, 4, 5]


def test_swiss_round_one_pairs_by_seed_and_winners_meet(db):
    t = preset_run("swiss", name="Club", slug="club", rounds=2,
                           teams=["FRA", "NZL", "IRE", "RSA", "ENG", "ARG"])
    first = Fixture.objects.filter(tournament=t, round_number=1).select_related("home__team", "away__team")
    # Issue 14.8: the top half against the bottom half by seed (1 v 4, 2 v 5, 3 v 6), home games shared.
    assert sorted(codes(f) for f in first) == [("ENG", "NZL"), ("FRA", "RSA"), ("IRE", "ARG")]
    for fixture in first:
        win(fixture)  # FRA, IRE, ENG win
    second = {frozenset(codes(f)) for f in Fixture.objects.filter(tournament=t, round_number=2)
              .select_related("home__team", "away__team")}
    winners = {"FRA", "IRE", "ENG"}
    assert sum(1 for pair in second if pair <= winners) == 1  # two of the three winners meet, one floats down


def test_swiss_correction_repairs_the_unplayed_next_round(db):
    t = preset_run("swiss", name="Club", slug="club2", rounds=2, teams=["FRA", "NZL", "IRE", "RSA"])
    first = list(Fixture.objects.filter(tournament=t, round_number=1))
    for fixture in first:
        win(fixture)
    before = {frozenset((f.home_id, f.away_id)) for f in Fixture.objects.filter(tournament=t, round_number=2)}
    win(first[0], home=False)  # correction: the other team won
    after = {frozenset((f.home_id, f.away_id)) for f in Fixture.objects.filter(tournament=t, round_number=2)}
    assert before != after


# -- Solo challenge ----------------------------------------------------------------------------------------

def test_solo_leaderboard_ranks_by_margin_then_points(db):
    t = preset_run("solo", name="Solo", slug="solo", teams=["FRA", "NZL", "IRE", "RSA"], attempts=2)
    fixtures = {(f.home.team.code, f.round_number): f
                for f in Fixture.objects.filter(tournament=t).select_related("home__team")}
    assert len(fixtures) == 8
    scores = {("FRA", 1): (30, 10), ("FRA", 2): (20, 15), ("NZL", 1): (40, 20), ("IRE", 1): (25, 5)}
    for key, (mine, game) in scores.items():
        services.result_record(fixture=fixtures[key], home_score=mine, away_score=game)
    board = solo_leaderboard(t)
    assert [(r["team"], r["position"], r["margin"], r["points_for"]) for r in board] == [
        ("NZL", 1, 20, 40), ("FRA", 2, 20, 30), ("IRE", 3, 20, 25), ("RSA", None, None, None)]
    assert board[1]["attempts"] == 2


# -- The command line --------------------------------------------------------------------------------------

def test_create_tournament_with_a_format_preset_and_print_its_bracket(db):
    out = StringIO()
    call_command("create_tournament", "--preset", "single_elimination", "--name", "Cup night", "--slug", "cup-night",
                 "--teams", "FRA,NZL,IRE,RSA,ENG", stdout=out)
    out = StringIO()
    call_command("bracket", "cup-night", "--format", "json", stdout=out)
    import json

    rounds = json.loads(out.getvalue())
    first = rounds[0]
    assert [m["bye"] for m in first].count(True) == 3  # 5 teams in an 8 bracket: seeds 1-3 have byes
    real = [m for m in first if not m["bye"]]
    assert [(m["home"], m["away"]) for m in real] == [("RSA", "ENG")]  # 4 v 5
    assert [(m["home"], m["away"]) for m in rounds[1]] == [("FRA", "Winner QF1"), ("NZL", "IRE")]


def test_format_options_from_the_command_line(db):
    call_command("create_tournament", "--preset", "pools_knockout", "--name", "Festival", "--slug", "fest",
                 "--teams", "FRA,NZL,IRE,RSA,ENG,ARG,WAL,FIJ,AUS,SCO,ITA,JPN", "--option", "pools=3",
                 "--option", "qualifiers=2", "--option", "draw_seed=11", "--option", "third_place=no",
                 stdout=StringIO())
    t = Tournament.objects.get(slug="fest")
    assert t.pools.count() == 3 and t.draw_seed == 11
    assert t.format_options == {"pools": 3, "qualifiers": 2, "third_place": False}
    knockouts = Fixture.objects.filter(tournament=t, stage=Fixture.Stage.KNOCKOUT)
    assert knockouts.count() == 5  # 6 qualifiers: 2 quarter-finals (2 byes), 2 semi-finals, final
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="qualifiers must be a whole number"):
        call_command("create_tournament", "--preset", "pools_knockout", "--name", "Bad", "--slug", "bad",
                     "--teams", "FRA,NZL,IRE,RSA", "--option", "qualifiers=two", stdout=StringIO())
    with pytest.raises(CommandError, match="--option must look like"):
        call_command("create_tournament", "--preset", "swiss", "--name", "Bad", "--slug", "bad2",
                     "--teams", "FRA,NZL", "--option", "rounds", stdout=StringIO())


def test_a_match_being_played_is_not_changed_under_the_players(knockout6):
    win(ko(knockout6, "QF1"))
    Fixture.objects.filter(pk=ko(knockout6, "SF1").pk).update(status=Fixture.Status.LIVE)
    with pytest.raises(ValidationError, match="being played now"):
        services.result_record(fixture=ko(knockout6, "QF1"), home_score=10, away_score=24, home_tries=1,
                               away_tries=3)


def test_bracket_command_prints_swiss_and_solo_tables(db):
    preset_run("swiss", name="Club", slug="club-cli", rounds=1, teams=["FRA", "NZL", "IRE"])
    out = StringIO()
    call_command("bracket", "club-cli", stdout=out)
    assert "Swiss table" in out.getvalue() and "FRA" in out.getvalue()
    out = StringIO()
    call_command("bracket", "club-cli", "--format", "json", stdout=out)
    assert out.getvalue().strip() == "[]"
    preset_run("solo", name="Solo", slug="solo-cli", teams=["FRA", "NZL"])
    out = StringIO()
    call_command("bracket", "solo-cli", stdout=out)
    assert "leaderboard" in out.getvalue() and "no attempt yet" in out.getvalue()


def test_bad_draw_requests_are_clear_errors(db):
    t = services.tournament_create(name="Bad draw", slug="bad-draw", format=Tournament.Format.POOLS_KNOCKOUT)
    services.entries_add(tournament=t, teams=["FRA", "NZL", "IRE", "RSA"])
    with pytest.raises(ValidationError, match="at least one pool"):
        services.pools_draw(tournament=t, pools=0)
    with pytest.raises(ValidationError, match="too few"):
        services.pools_draw(tournament=t, pools=3)
    with pytest.raises(ValidationError, match="Unknown draw method"):
        services.pools_draw(tournament=t, method="hat", pools=2)
