"""Conformance of every registered rule set to the engine protocol.

Parametrised over ``engine.rulesets()``: a rule set that registers itself is
checked here automatically. Games are played by random legal play from fixed
seeds, through the checked ``apply``.
"""

import json
import random

import pytest

import engine
from engine import IllegalAction, replay
from engine.core import VIEW_KEYS, GameState, Outcome
from engine.players import RandomPlayer, make_player, play_match

SPECS = engine.rulesets()
IDS = [spec.id for spec in SPECS]
SEEDS = (0, 1, 2)
MAX_ACTIONS = 200_000


@pytest.fixture(params=SPECS, ids=IDS)
def spec(request):
    return request.param


def random_play(state: GameState, rng: random.Random, limit: int = MAX_ACTIONS, checked: bool = True) -> int:
    """Play random legal actions (checked) until the end or ``limit`` actions; return how many were played."""
    apply = state.apply if checked else state.apply_unchecked
    for n in range(limit):
        acting = state.to_act()
        if not acting:
            return n
        seat = acting[rng.randrange(len(acting))]
        legal = state.legal_actions(seat)
        apply(seat, legal[rng.randrange(len(legal))])
    return limit


def test_spec_is_complete(spec):
    assert spec.id in engine.registry.KNOWN_RULESETS
    assert spec.name and spec.rules_version and spec.players in (1, 2)
    json.dumps(spec.to_dict())
    assert spec.resolve_options(None) == {k: o.default for k, o in spec.options.items()}
    with pytest.raises(ValueError, match="unknown option"):
        spec.resolve_options({"no-such-option": 1})


@pytest.mark.parametrize("seed", SEEDS)
def test_random_legal_play_ends_with_an_outcome(spec, seed):
    state = engine.new_game(spec.id, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while state.to_act():
        acting = state.to_act()
        assert set(acting) <= {0, 1} and len(set(acting)) == len(acting)
        for seat in (0, 1):
            legal = state.legal_actions(seat)
            assert legal == sorted(legal), "legal actions must be a sorted list"
            assert bool(legal) == (seat in acting), f"seat {seat}: legal actions iff it is to act"
        seat = acting[rng.randrange(len(acting))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < MAX_ACTIONS, "the game did not end"
    assert state.is_over
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert len(outcome.points) == 2 and len(outcome.tries) == 2
    json.dumps(outcome.to_dict())
    assert all(event.text for event in state.events), "every event has a commentary line"
    json.dumps([event.to_dict() for event in state.events])


@pytest.mark.parametrize("seed", SEEDS)
def test_the_decision_is_the_first_seat_to_act_with_its_legal_actions(spec, seed):
    """``decision()`` (the play loop's one call; a rule set may override it) says what ``to_act()`` and
    ``legal_actions`` say, at every step of a whole game. Its list may be a shared one, which playing never
    changes; ``legal_actions`` hands out a list of the caller's own."""
    state = engine.new_game(spec.id, seed=seed)
    rng = random.Random(seed)
    while True:
        turn = state.decision()
        assert turn == GameState.decision(state)
        if turn is None:
            break
        seat, legal = turn
        before = list(legal)
        own = state.legal_actions(seat)
        own.append("not-an-action")
        assert state.legal_actions(seat)[-1] != "not-an-action", "legal_actions' list is a fresh one"
        state.apply(seat, legal[rng.randrange(len(legal))])
        assert legal == before, "decision's list is never changed"
    assert state.is_over


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_from_the_log_equals_the_live_state(spec, seed):
    state = engine.new_game(spec.id, seed=seed)
    random_play(state, random.Random(seed))
    replayed = replay(spec.id, seed=seed, options=state.options, actions=state.history)
    assert replayed.to_dict() == state.to_dict()
    assert replayed.events == state.events


def test_replay_of_a_game_in_progress(spec):
    state = engine.new_game(spec.id, seed=11)
    random_play(state, random.Random(11), limit=25)
    replayed = replay(spec.id, seed=11, options=state.options, actions=list(state.history))
    assert replayed.to_dict() == state.to_dict()


@pytest.mark.parametrize("seed", SEEDS)
def test_json_round_trip_then_play_on_gives_the_same_result(spec, seed):
    live = engine.new_game(spec.id, seed=seed)
    random_play(live, random.Random(seed), limit=30)
    saved = json.loads(json.dumps(live.to_dict()))
    restored = type(live).from_dict(saved)
    assert restored.to_dict() == live.to_dict()
    # Both copies continue with the same choices.
    random_play(live, random.Random(seed + 100))
    random_play(restored, random.Random(seed + 100))
    assert restored.to_dict() == live.to_dict()
    assert restored.outcome() == live.outcome()


def test_clone_is_independent(spec):
    state = engine.new_game(spec.id, seed=5)
    random_play(state, random.Random(5), limit=10)
    before = state.to_dict()
    copy = state.clone()
    random_play(copy, random.Random(6), limit=10)
    assert state.to_dict() == before


def test_views_are_json_and_never_raise(spec):
    state = engine.new_game(spec.id, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        for seat in (0, 1, None):
            json.dumps(state.view(seat))
            json.dumps(state.visible_events(seat))
        if not state.to_act():
            break
        random_play(state, rng, limit=1)
    for seat in (0, 1, None):
        json.dumps(state.view(seat))


def _check_envelope(state: GameState, seat, view) -> None:
    """The one envelope of every rule set's ``view(seat)``."""
    assert tuple(view) == VIEW_KEYS
    assert view["ruleset"] == state.spec.id and view["seat"] == seat
    acting = list(state.to_act())
    assert view["to_act"] == acting and view["over"] == (not acting) == state.is_over
    legal = state.legal_actions(seat) if seat is not None and seat in acting else []
    assert view["legal_actions"] == legal, "only this seat's own legal actions"
    assert view["labels"] == {a: state.describe_action(a) for a in legal}
    assert all(isinstance(label, str) and label for label in view["labels"].values())
    assert isinstance(view["phase"], str) and view["phase"] and view["phase"] == view["phase"].lower()
    assert (view["phase"] == "over") == view["over"]
    assert set(view["score"]) == {"home", "away"}
    outcome = state.outcome()
    for side, name in enumerate(("home", "away")):
        score = view["score"][name]
        assert set(score) == {"points", "tries"}
        assert all(type(v) in (int, float) for v in score.values()), "plain JSON numbers"
        assert score["points"] == outcome.points[side] and score["tries"] == outcome.tries[side]
    assert isinstance(view["board"], dict)
    assert not set(view["board"]) & set(VIEW_KEYS), "the board does not repeat the envelope"


def test_every_view_has_the_one_envelope(spec):
    state = engine.new_game(spec.id, seed=6)
    rng = random.Random(6)
    while True:
        for seat in (0, 1, None):
            view = state.view(seat)
            _check_envelope(state, seat, view)
            assert json.loads(json.dumps(view)) == view
            lean = state.view(seat, labels=False)  # what the computer players' play loop asks for
            assert lean["labels"] == {} and {**lean, "labels": view["labels"]} == view
        if not state.to_act():
            break
        random_play(state, rng, limit=1)


def test_a_spectator_and_a_seat_not_to_act_see_no_choices(spec):
    state = engine.new_game(spec.id, seed=12)
    rng = random.Random(12)
    for _ in range(40):
        acting = state.to_act()
        if not acting:
            break
        for seat in (0, 1, None):
            view = state.view(seat)
            if seat not in acting:
                assert view["legal_actions"] == [] and view["labels"] == {}
        random_play(state, rng, limit=1)


def test_state_dict_is_the_saved_fields_and_independent_of_the_state(spec):
    state = engine.new_game(spec.id, seed=13)
    random_play(state, random.Random(13), limit=20)
    saved = state.state_dict()
    assert set(saved) == set(type(state).saved_fields) and saved
    before = json.dumps(saved, sort_keys=True)
    random_play(state, random.Random(14), limit=20)
    assert json.dumps(saved, sort_keys=True) == before, "state_dict copies, it does not share"
    now = json.dumps(state.state_dict(), sort_keys=True)
    data = json.loads(json.dumps(state.to_dict()))
    restored = type(state).from_dict(data)
    assert restored.state_dict() == json.loads(now)
    random_play(restored, random.Random(15), limit=20)
    assert json.dumps(state.state_dict(), sort_keys=True) == now
    assert type(state).from_dict(data).state_dict() == json.loads(now), "loading copies the saved data"


def test_illegal_actions_raise_clear_errors(spec):
    state = engine.new_game(spec.id, seed=4)
    acting = state.to_act()
    seat = acting[0]
    with pytest.raises(IllegalAction, match="not a legal action") as info:
        state.apply(seat, "no-such-action")
    assert info.value.legal == state.legal_actions(seat)
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        state.apply(seat, "no-such-action")
    assert state.to_dict() == before, "a refused action changes nothing"
    random_play(state, random.Random(4))
    with pytest.raises(IllegalAction, match="over"):
        state.apply(0, "anything")


def test_acting_out_of_turn_is_refused(spec):
    # Find a position where only one seat is to act (random play from a fixed seed), then try the other.
    state = engine.new_game(spec.id, seed=9)
    rng = random.Random(9)
    for _ in range(2000):
        acting = state.to_act()
        if len(acting) == 1:
            break
        assert acting, "the game ended before any single seat was to act"
        random_play(state, rng, limit=1)
    seat = state.to_act()[0]
    before = state.to_dict()
    with pytest.raises(IllegalAction, match="turn") as info:
        state.apply(1 - seat, state.legal_actions(seat)[0])
    assert info.value.seat == 1 - seat
    assert state.to_dict() == before


def test_seeded_simulation_is_reproducible(spec):
    def run():
        state = engine.new_game(spec.id, seed=21)
        return play_match(state, {0: RandomPlayer(), 1: RandomPlayer()}).to_dict()

    assert run() == run()


def test_aware_player_plays_legal_moves(spec):
    try:
        aware = make_player(spec.id, "aware")
    except KeyError:
        pytest.skip(f"no aware player for {spec.id} yet")
    state = engine.new_game(spec.id, seed=8)
    play_match(state, {0: aware, 1: RandomPlayer()}, checked=True)
    assert state.is_over
