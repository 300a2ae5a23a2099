"""Property tests for Rugby League with a 52-card deck: random seeds, options and legal play."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import new_game, replay
from engine.rugby_league_cards.rules import CONTEST, OVER, RugbyLeagueCardsState

SCORING = {"try", "conversion", "penalty-goal", "drop-goal"}
MAX_ACTIONS = 20_000

options_strategy = st.fixed_dictionaries({
    "sets_per_half": st.integers(1, 4),
    "extra_time": st.booleans(),
    "extra_time_sets": st.integers(1, 2),
})


def cards_in_play(state) -> list[int]:
    held = [card for row in state.hands for card in row if card >= 0]
    return sorted(held + state.pile + state.discards + state.table)


def check_invariants(state, score_before, tries_before, new_events) -> None:
    assert cards_in_play(state) == list(range(52)), "every card is in a row, the pile, the discards or on the table"
    if state.phase == CONTEST or state.phase == OVER:
        assert 0 <= state.ball <= 7
    else:
        assert 1 <= state.ball <= 6, "in play the ball is never on a try line"
    assert state.lost in (0, 1) or state.phase == OVER
    for seat in (0, 1):
        # The bitmask behind legal_actions agrees with the rows.
        assert state.masks[seat] == sum(1 << i for i, card in enumerate(state.hands[seat]) if card >= 0)
    points = [0, 0]
    tries = [0, 0]
    for event in new_events:
        if event.kind in SCORING:
            points[event.seat] += event.data["points"]
            tries[event.seat] += event.kind == "try"
    assert [state.score[s] - score_before[s] for s in (0, 1)] == points, "scores change only by scoring events"
    assert [state.tries[s] - tries_before[s] for s in (0, 1)] == tries


def play_checked(state, rnd, limit=MAX_ACTIONS):
    for _ in range(limit):
        acting = state.to_act()
        if not acting:
            return
        seat = rnd.choice(acting)
        action = rnd.choice(state.legal_actions(seat))
        score, tries = list(state.score), list(state.tries)
        events = state.apply(seat, action)
        check_invariants(state, score, tries, events)
    raise AssertionError("the match did not end")


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), options=options_strategy, rnd=st.randoms(use_true_random=False))
def test_random_matches_keep_every_invariant_and_end(seed, options, rnd):
    state = new_game("rugby-league-cards", seed=seed, options=options)
    play_checked(state, rnd)
    assert state.is_over
    outcome = state.outcome()
    assert list(outcome.points) == state.score
    if options["extra_time"]:
        assert outcome.winner is not None, "with extra time a match always has a winner"
    # Points add up from tries (4), conversions (2), penalty goals (2) and drop goals (1).
    for seat in (0, 1):
        stats = outcome.stats[seat]
        assert state.score[seat] == (4 * state.tries[seat] + 2 * stats["conversions"]
                                     + 2 * stats["penalty_goals"] + stats["drop_goals"])
    assert sum(outcome.stats[s]["sets_attacked"] for s in (0, 1)) == state.sets_done
    assert state.sets_done >= 2 * options["sets_per_half"]
    replayed = replay("rugby-league-cards", seed=seed, options=options, actions=state.history)
    assert replayed.to_dict() == state.to_dict()


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 300), rnd=st.randoms(use_true_random=False))
def test_json_round_trip_mid_match_then_play_on(seed, cut, rnd):
    state = new_game("rugby-league-cards", seed=seed, options={"sets_per_half": 3})
    for _ in range(cut):
        acting = state.to_act()
        if not acting:
            break
        seat = rnd.choice(acting)
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    restored = RugbyLeagueCardsState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.to_dict() == state.to_dict()
    for seat in (0, 1, None):
        assert restored.view(seat) == state.view(seat)
    # Play both on with the same choices: they stay identical to the end.
    while state.to_act():
        seat = rnd.choice(state.to_act())
        action = rnd.choice(state.legal_actions(seat))
        state.apply(seat, action)
        restored.apply(seat, action)
    assert restored.to_dict() == state.to_dict()


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32), rnd=st.randoms(use_true_random=False))
def test_no_view_depends_on_a_face_down_card_or_the_other_choice(seed, rnd):
    state = new_game("rugby-league-cards", seed=seed, options={"sets_per_half": 2})
    while state.to_act():
        views = {seat: state.view(seat) for seat in (0, 1, None)}
        # Deal the face-down cards differently (among the rows and the pile): no view may change.
        slots = [(s, i) for s in (0, 1) for i, c in enumerate(state.hands[s]) if c >= 0]
        saved_hands, saved_pile = [list(row) for row in state.hands], list(state.pile)
        unseen = [state.hands[s][i] for s, i in slots] + state.pile
        rnd.shuffle(unseen)
        for n, (s, i) in enumerate(slots):
            state.hands[s][i] = unseen[n]
        state.pile = unseen[len(slots):]
        assert {seat: state.view(seat) for seat in (0, 1, None)} == views
        state.hands, state.pile = saved_hands, saved_pile
        for seat in (0, 1):
            other = 1 - seat
            if state.pending[other] >= 0 and state.pending[seat] < 0:
                # The other seat has chosen: nothing in this view depends on which position.
                saved = state.pending[other]
                state.pending[other] = (saved + 1) % len(state.hands[other])
                assert state.view(seat) == views[seat]
                state.pending[other] = saved
        seat = rnd.choice(state.to_act())
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
