"""Scoring facts of the rule sets: which scores are possible with a number of tries, and outcomes as results."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import MANUAL, Outcome, get_spec, specs
from engine.scoring import CHAMPION, LEAGUE, UNION


def score_error(ruleset: str, score: int, tries: int) -> str | None:
    return get_spec(ruleset).scoring.score_error(score, tries)


@pytest.mark.parametrize(("score", "tries", "possible"), [
    (0, 0, True), (3, 0, True), (5, 0, False), (6, 0, True), (5, 1, True), (7, 1, True), (8, 1, True),
    (10, 2, True), (11, 2, False), (13, 2, True), (14, 2, True), (3, 2, False), (1, 0, False), (2, 0, False),
    (4, 0, False), (96, 14, True), (12, 2, True),
])
def test_union_scores(score, tries, possible):
    assert (UNION.score_error(score, tries) is None) is possible
    assert (score_error(MANUAL, score, tries) is None) is possible
    assert (score_error("bokx", score, tries) is None) is possible


@settings(max_examples=100)
@given(tries=st.integers(0, 15), data=st.data())
def test_every_score_made_of_the_scoring_events_is_accepted(tries, data):
    conversions = data.draw(st.integers(0, tries))
    kicks = data.draw(st.integers(0, 10))
    assert UNION.score_error(5 * tries + 2 * conversions + 3 * kicks, tries) is None
    assert LEAGUE.score_error(4 * tries + data.draw(st.integers(0, 30)), tries) is None
    assert CHAMPION.score_error(5 * tries + 2 * conversions, tries) is None
    assert LEAGUE.score_error(4 * tries + 2 * conversions, tries) is None


@settings(max_examples=200)
@given(score=st.integers(0, 60), tries=st.integers(0, 10))
def test_union_check_agrees_with_counting_every_combination(score, tries):
    # An independent count: tries, conversions (at most one a try) and 3-point kicks.
    possible = any(5 * tries + 2 * c + 3 * k == score for c in range(tries + 1) for k in range(21))
    assert (UNION.score_error(score, tries) is None) is possible


def test_scoring_messages_and_other_rule_sets():
    assert "at least 10 points" in score_error(MANUAL, 3, 2)
    assert "cannot be made with 2 tries" in score_error(MANUAL, 11, 2)
    assert score_error("rugby-league-cards", 8, 2) is None
    assert score_error("rugby-league-cards", 9, 2) is None  # a drop goal
    assert "at least 8 points" in score_error("rugby-league-cards", 7, 2)
    assert score_error("seasons", 3, 9) is None  # Seasons has no tries to check
    assert score_error("rugby-champion-solo", 0, 5) is None  # typed from the score alone: not checked


def test_spec_facts():
    by_id = {spec.id: spec for spec in specs()}
    assert not by_id[MANUAL].playable and by_id[MANUAL].scoring is UNION
    assert by_id["rugby-champion-solo"].solo and by_id["rugby-champion-solo"].person_seats == (0,)
    assert [s.id for s in specs() if s.solo] == ["rugby-champion-solo"]
    # A knockout switches on the rule set's extra time, unless the organiser set it.
    bokx = by_id["bokx"]
    assert bokx.match_options({}, knockout=True)["extra_time"] is True
    assert bokx.match_options({}, knockout=False)["extra_time"] is False
    assert bokx.match_options({"extra_time": False}, knockout=True)["extra_time"] is False
    assert by_id["seasons"].match_options({}, knockout=True) == by_id["seasons"].resolve_options({})


def test_seasons_result_counts_whole_seasons_won():
    outcome = Outcome(points=(Fraction(11, 2), Fraction(11, 2)), tries=(0, 0),
                      stats=({"seasons_won": 5, "halved": 1}, {"seasons_won": 5, "halved": 1}))
    result = get_spec("seasons").result_from_outcome(outcome)
    assert (result.home_score, result.away_score, result.winner) == (5, 5, None)
    assert result.stats["home"]["halved"] == 1 and result.stats["game_points"] == [5.5, 5.5]
    outcome = Outcome(points=(7, 4), tries=(0, 0), stats=({"seasons_won": 7, "halved": 0},
                                                           {"seasons_won": 4, "halved": 0}))
    assert get_spec("seasons").result_from_outcome(outcome).winner == 0


def test_points_result_and_decided_by():
    outcome = Outcome(points=(24, 24), tries=(3, 2), stats=({"decided_by": "extra_time"}, {}))
    result = get_spec("bokx").result_from_outcome(outcome)
    assert (result.home_score, result.away_score, result.home_tries, result.away_tries) == (24, 24, 3, 2)
    assert result.decided_by == "extra_time" and result.winner is None
