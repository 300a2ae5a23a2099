"""The Rugby World Cup 2023 format end to end: preset, the 40 real pool results, the knockout as played."""

import json
from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from league import services
from league.format_selectors import bracket_for_tournament, bracket_rounds
from league.models import Fixture, Result
from league.selectors import tournament_standings
from league.services import tournament_create_from_preset as preset_run

DATA = Path(__file__).resolve().parent.parent / "data" / "rwc2023_pool_results.csv"

# Final pool tables of RWC 2023 (table points), best first.
FINAL_TABLES = {
    "A": [("FRA", 18), ("NZL", 15), ("ITA", 10), ("URU", 5), ("NAM", 0)],
    "B": [("IRE", 19), ("RSA", 15), ("SCO", 10), ("TGA", 5), ("ROU", 0)],
    "C": [("WAL", 19), ("FIJ", 11), ("AUS", 11), ("POR", 6), ("GEO", 3)],
    "D": [("ENG", 18), ("ARG", 14), ("JPN", 9), ("SAM", 7), ("CHI", 0)],
}

# The knockout as played: (code, home, away, home score, away score, home tries, away tries).
KNOCKOUT_2023 = [
    ("QF1", "WAL", "ARG", 17, 29, 2, 2),
    ("QF2", "IRE", "NZL", 24, 28, 3, 3),
    ("QF3", "ENG", "FIJ", 30, 24, 2, 3),
    ("QF4", "FRA", "RSA", 28, 29, 3, 4),
    ("SF1", "ARG", "NZL", 6, 44, 0, 7),
    ("SF2", "ENG", "RSA", 15, 16, 0, 1),
    ("BF", "ARG", "ENG", 23, 26, 2, 1),
    ("F", "NZL", "RSA", 11, 12, 1, 0),
]


@pytest.fixture
def rwc(db):
    return preset_run("rwc2023", name="RWC 2023", slug="rwc2023", start_date=date(2023, 9, 8))


def import_pool_results(tournament):
    with DATA.open("rb") as handle:
        return services.results_import_csv(tournament=tournament, file=handle)


def ko(tournament, code):
    return Fixture.objects.select_related("home__team", "away__team").get(tournament=tournament, code=code)


def test_preset_makes_pools_and_the_2023_knockout(rwc):
    assert Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.POOL).count() == 40
    knockouts = Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.KNOCKOUT).order_by("round_number", "slot")
    assert [f.code for f in knockouts] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "BF", "F"]
    assert all(f.home_id is None and f.away_id is None for f in knockouts)
    # Knockout rounds come after the five pool rounds, so round lists never mix the stages.
    assert min(f.round_number for f in knockouts) == 6
    data = bracket_rounds(rwc)
    assert [(m["home"], m["away"]) for m in data[0]] == [
        ("Winner Pool C", "Runner-up Pool D"), ("Winner Pool B", "Runner-up Pool A"),
        ("Winner Pool D", "Runner-up Pool C"), ("Winner Pool A", "Runner-up Pool B")]
    assert [(m["home"], m["away"]) for m in data[1]] == [("Winner QF1", "Winner QF2"), ("Winner QF3", "Winner QF4")]


def test_real_pool_results_give_the_real_quarter_finals(rwc):
    summary = import_pool_results(rwc)
    assert summary.created == 40
    tables = {pool.name: [(row.team_code, row.points) for row in rows] for pool, rows in tournament_standings(rwc)}
    assert tables == FINAL_TABLES
    pairs = {code: (ko(rwc, code).home.team.code, ko(rwc, code).away.team.code)
             for code in ("QF1", "QF2", "QF3", "QF4")}
    assert pairs == {"QF1": ("WAL", "ARG"), "QF2": ("IRE", "NZL"), "QF3": ("ENG", "FIJ"), "QF4": ("FRA", "RSA")}
    assert ko(rwc, "SF1").home_id is None


def test_pools_fill_their_slots_one_pool_at_a_time(rwc):
    rows = DATA.read_text().splitlines()
    header, body = rows[0], rows[1:]
    # Pool C complete, the others not: only Pool C's slots are filled.
    services.results_import_csv(tournament=rwc, file="\n".join([header] + [r for r in body if r.startswith("C,")]))
    assert ko(rwc, "QF1").home.team.code == "WAL" and ko(rwc, "QF1").away_id is None
    assert ko(rwc, "QF3").away.team.code == "FIJ" and ko(rwc, "QF3").home_id is None
    assert ko(rwc, "QF2").home_id is None and ko(rwc, "QF4").home_id is None


def test_whole_tournament_to_the_final(rwc):
    import_pool_results(rwc)
    for code, home, away, hs, as_, ht, at in KNOCKOUT_2023:
        fixture = ko(rwc, code)
        assert (fixture.home.team.code, fixture.away.team.code) == (home, away), code
        services.result_record(fixture=fixture, home_score=hs, away_score=as_, home_tries=ht, away_tries=at)
    final = Result.objects.get(fixture__tournament=rwc, fixture__code="F")
    assert final.fixture.away.team.code == "RSA" and final.away_score > final.home_score
    data = bracket_for_tournament(rwc)
    (bracket,) = data["brackets"]
    assert [r["name"] for r in bracket["rounds"]] == ["Quarter-final", "Semi-final", "Bronze final", "Final"]
    last = bracket["rounds"][-1]["matches"][0]
    assert (last["home"], last["away"], last["home_score"], last["away_score"], last["winner"]) == \
        ("NZL", "RSA", 11, 12, "RSA")
    bronze = bracket["rounds"][2]["matches"][0]
    assert bronze["winner"] == "ENG"
    # Tree order: QF1 and QF2 feed SF1, QF3 and QF4 feed SF2.
    assert [m["code"] for m in bracket["rounds"][0]["matches"]] == ["QF1", "QF2", "QF3", "QF4"]


def test_bracket_command_json_and_table(rwc):
    import_pool_results(rwc)
    out = StringIO()
    call_command("bracket", "rwc2023", "--format", "json", stdout=out)
    rounds = json.loads(out.getvalue())
    assert isinstance(rounds, list) and all(isinstance(r, list) for r in rounds)
    qf = rounds[0]
    assert [(m["home"], m["away"]) for m in qf] == [("WAL", "ARG"), ("IRE", "NZL"), ("ENG", "FIJ"), ("FRA", "RSA")]
    assert {"home", "away", "home_score", "away_score", "winner"} <= set(qf[0])
    assert qf[0]["home_score"] is None and qf[0]["winner"] is None
    assert rounds[1][0]["home"] == "Winner QF1"
    table = StringIO()
    call_command("bracket", "rwc2023", stdout=table)
    text = table.getvalue()
    assert "Quarter-final" in text and "Wales" in text and "Winner QF1" in text


def test_bracket_selector_runs_a_fixed_number_of_queries(rwc, django_assert_max_num_queries):
    with django_assert_max_num_queries(1):
        bracket_for_tournament(rwc)
    import_pool_results(rwc)
    for code, _home, _away, hs, as_, ht, at in KNOCKOUT_2023[:6]:
        services.result_record(fixture=ko(rwc, code), home_score=hs, away_score=as_, home_tries=ht, away_tries=at)
    with django_assert_max_num_queries(1):
        bracket_for_tournament(rwc)


def test_bracket_create_refuses_twice(rwc):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="already has its knockout"):
        services.bracket_create(tournament=rwc)
    services.bracket_create(tournament=rwc, replace=True)
    assert Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.KNOCKOUT).count() == 8


def test_end_to_end_with_the_commands(db):
    call_command("create_tournament", "--preset", "rwc2023", "--name", "RWC 2023", "--slug", "rwc-cli",
                 stdout=StringIO())
    call_command("import_results", "rwc-cli", str(DATA), stdout=StringIO())
    out = StringIO()
    call_command("bracket", "rwc-cli", "--format", "json", stdout=out)
    quarter_finals = json.loads(out.getvalue())[0]
    assert [(m["code"], m["home"], m["away"]) for m in quarter_finals] == [
        ("QF1", "WAL", "ARG"), ("QF2", "IRE", "NZL"), ("QF3", "ENG", "FIJ"), ("QF4", "FRA", "RSA")]


def test_knockout_kickoffs_follow_the_pools(rwc):
    last_pool = Fixture.objects.filter(tournament=rwc, stage=Fixture.Stage.POOL).order_by("-kickoff").first()
    qf1, final = ko(rwc, "QF1"), ko(rwc, "F")
    assert (qf1.kickoff - last_pool.kickoff).days == 7
    assert (final.kickoff - last_pool.kickoff).days == 21
