"""CSV import of results: matching rows to fixtures, line-numbered errors, all or nothing."""

import io

import pytest
from django.core.exceptions import ValidationError

from league import selectors, services
from league.models import Fixture, Result, ResultChange
from league.services import tournament_create_from_preset as preset_run
from tests.league.core_helpers import fixture_between, make_four_team_league, make_rwc

pytestmark = pytest.mark.django_db

@pytest.fixture
def four_team_league(db):
    return make_four_team_league()


@pytest.fixture
def rwc(db):
    return make_rwc()

HEADER = "pool,round,date,home,away,home_score,away_score,home_tries,away_tries\n"


def rows_for(tournament, *matches, pool="A"):
    """CSV rows in the fixtures' own home/away order: matches are (code, code, score, score, tries, tries)."""
    lines = []
    for a, b, sa, sb, ta, tb in matches:
        fixture = fixture_between(tournament, a, b)
        if fixture.home.team.code != a:
            a, b, sa, sb, ta, tb = b, a, sb, sa, tb, ta
        lines.append(f"{pool},{fixture.round_number},,{a},{b},{sa},{sb},{ta},{tb}\n")
    return "".join(lines)


def test_import_rwc_results_and_standings_follow(rwc, organiser):
    text = HEADER + rows_for(rwc, ("FRA", "NZL", 27, 13, 2, 1), ("ITA", "NAM", 52, 8, 8, 1),
                             ("FRA", "URU", 27, 12, 3, 2))
    summary = services.results_import_csv(tournament=rwc, file=io.StringIO(text), user=organiser)
    assert (summary.created, summary.updated, summary.unchanged) == (3, 0, 0)
    assert Result.objects.filter(source=Result.Source.IMPORT).count() == 3
    assert ResultChange.objects.filter(changed_by=organiser).count() == 3
    pool_a = dict(selectors.tournament_standings(rwc))
    rows = {r.team_code: r for pool, rs in pool_a.items() if pool.name == "A" for r in rs}
    assert (rows["FRA"].played, rows["FRA"].won, rows["FRA"].points) == (2, 2, 8)
    assert rows["ITA"].points == 5  # 8 tries: win + try bonus
    # The same file again: nothing new, nothing changed.
    again = services.results_import_csv(tournament=rwc, file=text.encode(), user=organiser)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert ResultChange.objects.count() == 3


def test_teams_by_name_any_case_pool_prefix_and_reversed_order(rwc):
    fixture = fixture_between(rwc, "FRA", "NZL")
    home, away = fixture.home.team, fixture.away.team
    # Named by full name, lower case, "Pool A", and away team first: scores are turned round.
    text = f"pool a,,,{away.name.lower()},{home.name},13,27,1,2\n"
    services.results_import_csv(tournament=rwc, file=text)
    result = Result.objects.get(fixture=fixture)
    assert (result.home_score, result.away_score, result.home_tries, result.away_tries) == (27, 13, 2, 1)


def test_every_bad_line_is_reported_and_nothing_is_saved(rwc):
    good = rows_for(rwc, ("FRA", "NZL", 27, 13, 2, 1))
    text = (
        HEADER                                   # line 1
        + good                                   # line 2: fine on its own
        + "A,1,,FRA,ZZZ,10,3,1,0\n"              # line 3: unknown team
        + "E,1,,FRA,NZL,10,3,1,0\n"              # line 4: unknown pool
        + rows_for(rwc, ("ITA", "NAM", 3, 0, 2, 0))  # line 5: 3 points with 2 tries
        + "A,1,,FRA,IRE,10,3,1,0\n"              # line 6: IRE is not in pool A: no such fixture
        + "A,x,08/09/2023,ITA,URU,10,3,1,0\n"    # line 7: bad round and date
        + "A,1,,ITA,URU,-1,3,0,0\n"              # line 8: negative score
        + "A,1,,ITA,URU,10,3\n"                  # line 9: missing columns
        + good                                   # line 10: the same fixture twice
    )
    with pytest.raises(ValidationError) as err:
        services.results_import_csv(tournament=rwc, file=text)
    messages = err.value.messages
    assert [m.split(":")[0] for m in messages] == [f"Line {n}" for n in (3, 4, 5, 6, 7, 8, 9, 10)]
    assert "no team 'ZZZ'" in messages[0]
    assert "unknown pool 'E'" in messages[1]
    assert "at least 10 points" in messages[2]
    assert "no fixture FRA v IRE in pool A" in messages[3]
    assert "round must be a whole number" in messages[4] and "2023-09-08" in messages[4]
    assert "cannot be negative" in messages[5]
    assert "expected 9 columns" in messages[6]
    assert "already on line 2" in messages[7]
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_failure_while_saving_rolls_back_the_rows_already_saved(rwc, monkeypatch):
    text = rows_for(rwc, ("FRA", "NZL", 27, 13, 2, 1), ("ITA", "NAM", 52, 8, 8, 1))
    real = services.result_record
    calls = []

    def second_fails(**kwargs):
        calls.append(kwargs["fixture"].pk)
        if len(calls) == 2:
            raise ValidationError("The next round has started.")
        return real(**kwargs)

    monkeypatch.setattr("league.services.results.result_record", second_fails)
    with pytest.raises(ValidationError) as err:
        services.results_import_csv(tournament=rwc, file=text)
    assert err.value.messages == ["Line 2: The next round has started."]
    assert len(calls) == 2
    assert not Result.objects.exists() and not ResultChange.objects.exists()


def test_double_round_robin_needs_orientation_or_round():
    t = preset_run("league", name="Winter", slug="winter", teams=["FRA", "NZL", "ITA"], double=True)
    first, second = Fixture.objects.filter(tournament=t, home__team__code="FRA", away__team__code="NZL").first(), \
        Fixture.objects.filter(tournament=t, home__team__code="NZL", away__team__code="FRA").first()
    # Home and away choose the meeting; the pool column may be left empty when there is one pool.
    services.results_import_csv(tournament=t, file=",,,FRA,NZL,10,3,1,0\n,,,NZL,FRA,20,3,2,0\n")
    assert Result.objects.get(fixture=first).home_score == 10
    assert Result.objects.get(fixture=second).home_score == 20


def test_empty_file_and_bad_encoding(rwc):
    with pytest.raises(ValidationError, match="no result rows"):
        services.results_import_csv(tournament=rwc, file=HEADER)
    with pytest.raises(ValidationError, match="not UTF-8"):
        services.results_import_csv(tournament=rwc, file=io.BytesIO(b"A,1,,FRA,NZL,\xff,3,1,0\n"))


def test_bom_and_blank_lines_are_fine(four_team_league):
    fixture = fixture_between(four_team_league, "FRA", "NZL")
    text = ("\ufeff" + HEADER + "\n" + f"League,,2026-09-05,{fixture.home.team.code},{fixture.away.team.code},"
            "5,0,1,0\n").encode("utf-8")
    summary = services.results_import_csv(tournament=four_team_league, file=io.BytesIO(text))
    assert summary.created == 1 and summary.lines == [3]
