"""Qualification odds: the Monte Carlo's arithmetic, the score model, debounce after results, the partial."""

import pytest
from django.template.loader import render_to_string
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from league.models import Fixture, Tournament
from league.standings import PointsSystem, StandingEntry
from matches import odds, simulation
from matches.models import QualificationOdds, ScoreModel
from tests.matches.sim_helpers import rwc_tournament


def _problem(played, remaining, teams=("AAA", "BBB", "CCC", "DDD")):
    entries = [StandingEntry(i + 1, code, code.title(), i + 1) for i, code in enumerate(teams)]
    return odds.OddsProblem(points_system=PointsSystem(), pools={"A": entries}, played={"A": played},
                            remaining={"A": remaining}, knockout=[])


def test_nothing_left_to_play_gives_certainties_from_one_run():
    played = [(1, 2, 30, 0, 5, 0, "played"), (3, 4, 10, 20, 1, 3, "played"), (1, 3, 20, 3, 3, 0, "played"),
              (2, 4, 10, 13, 1, 1, "played"), (1, 4, 25, 20, 4, 3, "played"), (2, 3, 8, 3, 1, 0, "played")]
    counts = odds.simulate_odds(_problem(played, []), {"aware/aware": [(10, 1, 5, 0)]}, runs=1000)
    assert counts.runs == 1
    assert counts.positions == {1: [1, 0, 0, 0], 4: [0, 1, 0, 0], 2: [0, 0, 1, 0], 3: [0, 0, 0, 1]}
    assert counts.titles == {1: 1}  # a one-pool league: the table's winner takes the title


def test_frequencies_follow_the_score_model_and_add_up():
    # One match left between the two leaders, level on points: whoever wins it tops the table.
    played = [(1, 3, 20, 0, 3, 0, "played"), (2, 4, 20, 0, 3, 0, "played")]
    model = {"aware/aware": [(20, 3, 0, 0)] * 3 + [(0, 0, 20, 3)]}  # home wins three times in four
    counts = odds.simulate_odds(_problem(played, [(1, 2, "aware/aware")]), model, runs=4000, seed=1)
    assert counts.runs == 4000
    first = counts.positions[1][0] / 4000
    assert 0.72 < first < 0.78
    for position in range(4):
        assert sum(c[position] for c in counts.positions.values()) == 4000
    for entry_counts in counts.positions.values():
        assert sum(entry_counts) == 4000


@pytest.mark.django_db
def test_rwc2023_odds_from_the_first_day_are_consistent(settings):
    settings.ODDS_MODEL_MATCHES = 20
    tournament = rwc_tournament(short=True)
    run = simulation.simulation_create(tournament=tournament, round_number=1, seed=4)
    simulation.run_inline(run)
    data = odds.tournament_odds_compute(tournament, runs=400, seed=3)
    assert data["runs"] == 400 and data["rounds"] == ["Quarter-final", "Semi-final", "Final"]
    teams = data["teams"]
    assert len(teams) == 20
    for team in teams:
        assert sum(team["positions"]) == pytest.approx(1, abs=1e-3)
        assert team["rounds"]["Quarter-final"] == pytest.approx(team["positions"][0] + team["positions"][1],
                                                                abs=1e-3)
        assert team["rounds"]["Quarter-final"] >= team["rounds"]["Semi-final"] >= team["rounds"]["Final"] \
            >= team["champion"]
    assert sum(t["rounds"]["Quarter-final"] for t in teams) == pytest.approx(8, abs=1e-2)
    assert sum(t["rounds"]["Semi-final"] for t in teams) == pytest.approx(4, abs=1e-2)
    assert sum(t["rounds"]["Final"] for t in teams) == pytest.approx(2, abs=1e-2)
    assert sum(t["champion"] for t in teams) == pytest.approx(1, abs=1e-2)
    assert "engine matches of rugby-league-cards" in data["model"]


@pytest.mark.django_db
def test_score_model_is_played_by_the_engine_once_and_kept(monkeypatch):
    samples = odds.engine_samples("rugby-league-cards", {"sets_per_half": 1}, "aware", "random", matches=6)
    assert len(samples) == 6 and all(len(s) == 4 for s in samples)
    assert ScoreModel.objects.count() == 1
    monkeypatch.setattr(odds, "play_match", lambda *a, **k: pytest.fail("played again"))
    assert odds.engine_samples("rugby-league-cards", {"sets_per_half": 1}, "aware", "random") == samples


@pytest.mark.django_db
def test_manual_tournament_uses_the_rwc2023_prior_until_it_has_results():
    tournament = rwc_tournament(short=False)
    Tournament.objects.filter(pk=tournament.pk).update(ruleset="manual")
    tournament.refresh_from_db()
    data = odds.tournament_odds_compute(tournament, runs=50)
    assert "Rugby World Cup 2023" in data["model"]


@pytest.mark.django_db
def test_refresh_is_debounced_by_the_tournament_version_and_renders(settings):
    settings.ODDS_MODEL_MATCHES = 10
    tournament = rwc_tournament()
    assert odds.odds_refresh(tournament_id=tournament.pk, version=tournament.version + 1, runs=20) == "superseded"
    assert odds.odds_refresh(tournament_id=tournament.pk, version=tournament.version, runs=20) == "computed"
    assert odds.odds_refresh(tournament_id=tournament.pk, version=tournament.version, runs=20) == "fresh"
    stored = QualificationOdds.objects.get(tournament=tournament)
    assert stored.runs == 20 and stored.version == tournament.version
    table = odds.tournament_odds(tournament)
    assert table["columns"][:5] == ["1st", "2nd", "3rd", "4th", "5th"]
    assert table["columns"][5:] == ["Quarter-final", "Semi-final", "Final", "Champion"]
    assert len(table["rows"]) == 20 and all(len(r["values"]) == 9 for r in table["rows"])
    html = render_to_string("matches/_odds.html", {"odds": table})
    assert "France" in html and "Quarter-final" in html and "Pool A" in html


@pytest.mark.django_db
def test_a_result_queues_the_odds_after_commit_once_per_version(settings, monkeypatch,
                                                                 django_capture_on_commit_callbacks):
    from matches import tasks

    settings.ODDS_AFTER_RESULT = True
    settings.ODDS_COALESCE = False  # one task per version (the coalesced burst: tests/matches/test_odds_burst.py)
    queued = []
    monkeypatch.setattr(tasks.compute_odds, "apply_async", lambda args, countdown: queued.append(args))
    tournament = rwc_tournament()
    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").first()
    with django_capture_on_commit_callbacks(execute=True):
        simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=1)
    tournament.refresh_from_db()
    assert queued == [(tournament.pk, tournament.version)]


def test_percent_labels():
    assert [odds._percent(p) for p in (0, 0.001, 0.5, 0.999, 1)] == ["–", "<1%", "50%", ">99%", "100%"]



@hypothesis_settings(max_examples=40, deadline=None)
@given(st.data())
def test_property_every_place_and_every_team_add_up(data):
    """Whatever is played and left, each team's places add up to the runs, and each place is taken once a run."""
    n = data.draw(st.integers(min_value=2, max_value=6), label="teams")
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    played_mask = data.draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)), label="played")
    score = st.tuples(st.integers(0, 60), st.integers(0, 8), st.integers(0, 60), st.integers(0, 8))
    played = []
    for (a, b), was_played in zip(pairs, played_mask, strict=True):
        if was_played:
            hp, ht, ap, at = data.draw(score)
            played.append((a, b, hp, ap, ht, at, "played"))
    remaining = [(a, b, "aware/aware") for (a, b), was in zip(pairs, played_mask, strict=True) if not was]
    model = {"aware/aware": data.draw(st.lists(score, min_size=1, max_size=5), label="model")}
    runs = 50
    counts = odds.simulate_odds(_problem(played, remaining, teams=[f"T{i:02d}" for i in range(n)]), model,
                                runs=runs, seed=data.draw(st.integers(0, 10**6)))
    expected = 1 if not remaining else runs
    assert counts.runs == expected
    for entry_counts in counts.positions.values():
        assert sum(entry_counts) == expected
    for position in range(n):
        assert sum(c[position] for c in counts.positions.values()) == expected
    assert sum(counts.titles.values()) == expected
