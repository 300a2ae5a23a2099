"""The league's management commands: create_tournament, import_results, standings, demo."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league.models import Fixture, Result, Tournament
from tests.league.core_helpers import fixture_between

pytestmark = pytest.mark.django_db

ROW_KEYS = ["position", "team", "played", "won", "drawn", "lost", "points_for", "points_against", "tries_for",
            "tries_against", "bonus_points", "points"]


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_create_tournament_rwc2023():
    out = run("create_tournament", "--preset", "rwc2023", "--name", "World Cup evening", "--slug", "wc",
              "--start-date", "2026-09-05", "--venues", "3", "--kickoff", "18:00", "--slot-minutes", "40")
    assert "20 teams in 4 pool(s)" in out and "/t/wc/" in out
    t = Tournament.objects.get(slug="wc")
    assert t.status == Tournament.Status.IN_PROGRESS and t.ruleset == "manual"
    pool_fixtures = Fixture.objects.filter(tournament=t, stage=Fixture.Stage.POOL)
    assert pool_fixtures.count() == 40
    assert set(pool_fixtures.values_list("venue", flat=True)) == {"Pitch 1", "Pitch 2", "Pitch 3"}
    assert set(pool_fixtures.values_list("slot", flat=True)) == {0, 1, 2}


def test_create_tournament_league_double_with_venues_and_organiser(organiser):
    run("create_tournament", "--preset", "league", "--name", "Winter league", "--teams", "FRA,NZL,Italy,URU",
        "--double", "--venues", "Top field,Back field", "--organiser", "organiser", "--unlisted", "--draft")
    t = Tournament.objects.get(slug="winter-league")
    assert t.double_round_robin and Fixture.objects.filter(tournament=t).count() == 12
    assert list(t.organisers.all()) == [organiser]
    assert (t.visibility, t.status) == (Tournament.Visibility.UNLISTED, Tournament.Status.DRAFT)
    assert set(Fixture.objects.filter(tournament=t).values_list("venue", flat=True)) == {"Top field", "Back field"}


@pytest.mark.parametrize(("args", "message"), [
    (["--preset", "league", "--name", "L"], "needs --teams"),
    (["--preset", "league", "--name", "L", "--teams", "FRA,XYZ"], "Unknown team(s): XYZ"),
    (["--preset", "league", "--name", "L", "--teams", "FRA,NZL", "--ruleset", "chess"], "Unknown rule set"),
    (["--preset", "league", "--name", "L", "--teams", "FRA,NZL", "--start-date", "5/9/2026"], "--start-date"),
    (["--preset", "league", "--name", "L", "--teams", "FRA,NZL", "--organiser", "nobody"], "No user 'nobody'"),
    (["--preset", "league", "--name", "!!!", "--teams", "FRA,NZL"], "Give a --slug"),
])
def test_create_tournament_errors(args, message):
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run("create_tournament", *args)
    assert not Tournament.objects.exists()


def test_create_tournament_twice_same_slug():
    run("create_tournament", "--preset", "league", "--name", "L", "--teams", "FRA,NZL")
    with pytest.raises(CommandError, match="already exists"):
        run("create_tournament", "--preset", "league", "--name", "L", "--teams", "FRA,NZL")


def _rwc_with_csv(tmp_path):
    run("create_tournament", "--preset", "rwc2023", "--name", "RWC", "--slug", "rwc")
    t = Tournament.objects.get(slug="rwc")
    fixture = fixture_between(t, "FRA", "NZL")
    path = tmp_path / "results.csv"
    path.write_text("pool,round,date,home,away,home_score,away_score,home_tries,away_tries\n"
                    f"A,1,,{fixture.home.team.code},{fixture.away.team.code},27,13,2,1\n", encoding="utf-8")
    return t, fixture, path


def test_import_results_command(tmp_path):
    t, fixture, path = _rwc_with_csv(tmp_path)
    out = run("import_results", "rwc", str(path))
    assert "Imported 1 result(s) into rwc: 1 new" in out
    assert Result.objects.get(fixture=fixture).source == Result.Source.IMPORT


def test_import_results_command_errors(tmp_path):
    t, fixture, path = _rwc_with_csv(tmp_path)
    with pytest.raises(CommandError, match="No tournament with the slug 'nope'"):
        run("import_results", "nope", str(path))
    with pytest.raises(CommandError, match="Cannot read"):
        run("import_results", "rwc", str(tmp_path / "missing.csv"))
    bad = tmp_path / "bad.csv"
    bad.write_text("A,1,,FRA,NZL,3,0,2,0\nA,1,,FRA,ZZZ,3,0,0,0\n", encoding="utf-8")
    with pytest.raises(CommandError) as err:
        run("import_results", "rwc", str(bad))
    text = str(err.value)
    assert text.startswith("Nothing was imported") and "Line 1:" in text and "Line 2:" in text
    assert not Result.objects.exists()


def test_standings_json_shape(tmp_path):
    t, fixture, path = _rwc_with_csv(tmp_path)
    run("import_results", "rwc", str(path))
    data = json.loads(run("standings", "rwc", "--format", "json"))
    assert [pool["pool"] for pool in data] == ["A", "B", "C", "D"]
    assert all(list(pool) == ["pool", "rows"] for pool in data)
    assert all(list(row) == [*ROW_KEYS, "tie_breaks", "explanation"] for pool in data for row in pool["rows"])
    top = data[0]["rows"][0]
    winner = fixture.home.team.code
    assert top == {"position": 1, "team": winner, "played": 1, "won": 1, "drawn": 0, "lost": 0, "points_for": 27,
                   "points_against": 13, "tries_for": 2, "tries_against": 1, "bonus_points": 0, "points": 4,
                   "tie_breaks": [], "explanation": ""}


def test_standings_csv_and_table(tmp_path):
    t, fixture, path = _rwc_with_csv(tmp_path)
    run("import_results", "rwc", str(path))
    rows = list(csv.DictReader(io.StringIO(run("standings", "rwc", "--format", "csv"))))
    assert len(rows) == 20 and list(rows[0]) == ["pool", *ROW_KEYS, "explanation"]
    assert rows[0]["pool"] == "A" and rows[0]["points"] == "4"
    table = run("standings", "rwc")
    assert "Pool A" in table and "Pts" in table and "+14" in table
    with pytest.raises(CommandError, match="No tournament"):
        run("standings", "nope", "--format", "json")


def test_demo_is_idempotent():
    out = run("demo")
    assert "Created" in out and "/t/demo-rwc2023/" in out
    t = Tournament.objects.get(slug="demo-rwc2023")
    results = Result.objects.filter(fixture__tournament=t).count()
    assert results == 24  # three rounds of eight
    out = run("demo")
    assert "Already there" in out
    assert Tournament.objects.filter(slug="demo-rwc2023").count() == 1
    assert Result.objects.filter(fixture__tournament=t).count() == results


def test_every_command_has_help():
    for name in ("create_tournament", "import_results", "standings", "demo"):
        out = io.StringIO()
        with pytest.raises(SystemExit):
            call_command(name, "--help", stdout=out)
