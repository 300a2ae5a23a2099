"""RUGBY_Bokx properties over random seeds and random legal play, and the aware player."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_ruleset, new_game, replay
from engine.bokx import field
from engine.bokx.rules import BokxState
from engine.players import RandomPlayer, make_player, play_match

from .test_levels import random_walk


def play_checked(seed: int, player_seed: int, options: dict) -> BokxState:
    """Random legal play, checking the invariants after every action."""
    g = new_game("bokx", seed=seed, options=options)
    rng = random.Random(player_seed)
    clock = (g.period, g.elapsed)
    for _ in range(20_000):
        acting = g.to_act()
        if not acting:
            break
        assert len(acting) == 1 and g.poss in (0, 1)
        seat = acting[0]
        legal = g.legal_actions(seat)
        assert legal and legal == sorted(legal)
        assert g.legal_actions(1 - seat) == []
        g.apply(seat, rng.choice(legal))
        assert 0 <= g.x < field.COLS and 0 <= g.y < field.ROWS  # on the field or in-goal
        assert g.poss in (0, 1)
        now = (g.period, g.elapsed)
        assert now >= clock  # the clock only moves forward
        clock = now
    assert g.is_over, "match did not end"
    return g


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), player_seed=st.integers(0, 2**32), half=st.sampled_from([1, 10, 40]),
       extra_time=st.booleans())
def test_random_play_invariants_replay_and_json(seed, player_seed, half, extra_time):
    options = {"half_minutes": half, "extra_time": extra_time}
    g = play_checked(seed, player_seed, options)
    out = g.outcome()
    if extra_time:
        assert out.winner is not None  # knockout: extra time and sudden death always find a winner
    assert all(out.points[s] >= 5 * out.tries[s] for s in (0, 1))  # every try is worth at least 5
    # Replay (seed + options + actions) equals live.
    again = replay("bokx", seed=seed, options=options, actions=g.history)
    assert again.state_dict() == g.state_dict()
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in g.events]
    # JSON round trip.
    data = json.loads(json.dumps(g.to_dict()))
    back = BokxState.from_dict(data)
    assert back.state_dict() == g.state_dict() and back.outcome() == g.outcome()
    json.dumps(g.view(0)), json.dumps(g.view(None))


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 300))
def test_json_round_trip_mid_match_continues_identically(seed, cut):
    g = new_game("bokx", seed=seed, options={"half_minutes": 10})
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    restored = BokxState.from_dict(json.loads(json.dumps(g.to_dict())))
    for view_seat in (0, 1, None):
        assert restored.view(view_seat) == g.view(view_seat)
        json.dumps(g.view(view_seat))
    for _ in range(50):
        if g.is_over:
            break
        seat = g.to_act()[0]
        action = rng.choice(g.legal_actions(seat))
        g.apply(seat, action)
        restored.apply(seat, action)
    assert restored.state_dict() == g.state_dict()


def test_registered_with_options_and_aware_player():
    cls = get_ruleset("bokx")
    assert cls is BokxState
    assert cls.spec.options["half_minutes"].default == 40
    assert cls.spec.options["extra_time"].default is False
    assert make_player("bokx", "aware").needs_view


def test_view_has_what_the_board_needs():
    g = new_game("bokx", seed=7)
    v = g.view(g.to_act()[0])
    assert v["phase"] == "toss" and v["legal_actions"] == ["kick-off", "receive"]
    assert v["labels"] == {"kick-off": "Kick off", "receive": "Receive"}
    assert v["score"] == {"home": {"points": 0, "tries": 0}, "away": {"points": 0, "tries": 0}}
    for key in ("ball", "possession", "clock", "half", "last_dice", "side_preview", "carrier"):
        assert key in v["board"]
    assert "decks" not in v["board"]  # the piles' order stays hidden
    assert json.loads(json.dumps(field.as_dict()))["cols"] == 16


def test_aware_player_beats_the_random_player():
    wins = 0
    n = 60
    for seed in range(n):
        aware = seed % 2
        g = new_game("bokx", seed=seed)
        play_match(g, {aware: make_player("bokx", "aware"), 1 - aware: RandomPlayer()})
        wins += g.outcome().winner == aware
    assert wins / n > 0.65


def test_the_legal_list_starts_with_left_only_for_a_side_and_with_backs_only_for_a_call():
    """The club player tells these two phases from the sorted legal list, without reading the phase."""
    seen = set()
    for seed in range(6):
        for state in random_walk(new_game("bokx", seed=seed), random.Random(seed)):
            if state.phase == "over":
                continue
            first = state.legal_actions(state.to_act()[0])[0]
            assert (first == "left") == (state.phase == "side"), (seed, state.phase, first)
            assert (first == "backs") == (state.phase == "call"), (seed, state.phase, first)
            seen.add(state.phase)
    assert {"side", "call", "penalty", "kickoff"} <= seen
