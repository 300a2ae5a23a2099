"""Live scoring's event-to-score rules, per rule set (issue 18): every scoring event's points and tries, the
conversion that needs a try still to convert, and a property: any sequence of events the tally accepts makes a
score the result check accepts (so full time never makes a result the league refuses)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import get_spec


def scoring_of(kind: str):
    return next(spec.scoring for spec in engine.specs() if spec.scoring.id == kind)


@pytest.mark.parametrize(("kind", "events", "home", "away"), [
    # union: try 5, conversion 2, penalty goal 3, drop goal 3, penalty try 7
    ("union", [(0, "try"), (0, "conversion"), (1, "penalty-goal"), (0, "penalty-try"), (1, "drop-goal")],
     (14, 2), (6, 0)),
    # rugby league: try 4, goal 2, drop goal 1
    ("league", [(0, "try"), (0, "goal"), (1, "drop-goal"), (1, "try"), (1, "goal"), (1, "goal")], (6, 1), (9, 1)),
    # Seasons: a season won is 1, no tries
    ("seasons", [(0, "season"), (1, "season"), (0, "season")], (2, 0), (1, 0)),
    # Rugby Champion solo: try 5, conversion 2
    ("champion", [(0, "try"), (0, "conversion"), (1, "try")], (7, 1), (5, 1)),
])
def test_the_events_make_the_score_and_tries(kind, events, home, away):
    tally = scoring_of(kind).tally(events)
    assert (tally[0].points, tally[0].tries) == home
    assert (tally[1].points, tally[1].tries) == away


def test_the_off_site_rule_set_scores_as_union_with_cards():
    scoring = get_spec(engine.MANUAL).scoring
    assert [(e.id, e.points) for e in scoring.events] == [
        ("try", 5), ("conversion", 2), ("penalty-goal", 3), ("drop-goal", 3), ("penalty-try", 7)]
    assert [c.id for c in scoring.cards] == ["yellow", "red"]


def test_a_conversion_needs_a_try_still_to_convert():
    union = get_spec(engine.MANUAL).scoring
    with pytest.raises(ValueError, match="needs a try still to convert"):
        union.tally([(0, "conversion")])
    with pytest.raises(ValueError, match="needs a try still to convert"):
        union.tally([(0, "try"), (0, "conversion"), (0, "conversion")])
    # A penalty try is awarded converted: no conversion after it.
    with pytest.raises(ValueError, match="penalty try is awarded converted"):
        union.tally([(0, "penalty-try"), (0, "conversion")])
    # The other side's try does not count.
    with pytest.raises(ValueError):
        union.tally([(1, "try"), (0, "conversion")])
    assert union.tally([(0, "try"), (0, "try"), (0, "conversion"), (0, "conversion")])[0].points == 14


def test_unknown_events_and_sides_are_refused():
    union = get_spec(engine.MANUAL).scoring
    assert "no scoring event 'goal'" in union.event_error(0, "goal", {})
    assert union.event_error(2, "try", {}) is not None
    assert union.card("yellow").label == "Yellow card" and union.card("green") is None


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["union", "league", "seasons", "champion"]),
       picks=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 10)), max_size=40))
def test_every_accepted_sequence_makes_a_score_the_result_check_accepts(kind, picks):
    scoring = scoring_of(kind)
    accepted: list[tuple[int, str]] = []
    counts: list[dict[str, int]] = [{}, {}]
    for seat, index in picks:
        event_id = scoring.events[index % len(scoring.events)].id
        if scoring.event_error(seat, event_id, counts[seat]) is None:
            accepted.append((seat, event_id))
            counts[seat][event_id] = counts[seat].get(event_id, 0) + 1
    home, away = scoring.tally(accepted)
    for side in (home, away):
        assert scoring.score_error(side.points, side.tries) is None
        assert side.points == sum(scoring.event(e).points * n for e, n in side.counts)
