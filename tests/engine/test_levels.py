"""Computer levels: names everywhere, the club players' cheap boards, determinisation, and a search that
cannot peek (issue 20 items 3 and 5)."""

import json
import random

import pytest

import engine
from engine import new_game
from engine.__main__ import main
from engine.core import GameState
from engine.players import (
    ACCEPTED_LEVELS,
    ALIASES,
    LEVELS,
    Beginner,
    RandomPlayer,
    Sampler,
    canonical_level,
    make_player,
    play_match,
    seat_rng,
)
from engine.search import SearchPlayer

SPECS = engine.rulesets()
IDS = [spec.id for spec in SPECS]
# Short matches, so that an international player's whole match stays quick in tests.
SHORT = {"bokx": {"half_minutes": 4}, "rugby-league-cards": {"sets_per_half": 2}, "seasons": {},
         "rugby-champion-solo": {"halves": 1}}


@pytest.fixture(params=SPECS, ids=IDS)
def spec(request):
    return request.param


def random_walk(state: GameState, rng: random.Random):
    """Yield the state after each random legal action (the state itself, mutated), starting with the start."""
    yield state
    while state.to_act():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        yield state


# ---- level names --------------------------------------------------------------------------------------

def test_three_levels_weakest_first_and_the_former_names_still_accepted():
    assert LEVELS == ("beginner", "club", "international")
    assert ALIASES == {"aware": "club"}
    assert canonical_level("aware") == "club" and canonical_level("random") == "random"
    with pytest.raises(ValueError, match="unknown player level 'genius'"):
        canonical_level("genius")


def test_every_level_name_makes_a_player_for_every_rule_set(spec):
    for level in ACCEPTED_LEVELS:
        player = make_player(spec.id, level)
        assert player.level == canonical_level(level)
    assert isinstance(make_player(spec.id, "random"), RandomPlayer)
    assert isinstance(make_player(spec.id, "beginner"), Beginner)
    intl = make_player(spec.id, "international")
    assert isinstance(intl, SearchPlayer) and intl.searches
    assert intl.iterations == type(intl).move_iterations
    assert make_player(spec.id, "international", simulation=True).iterations == type(intl).simulation_iterations
    assert make_player(spec.id, "international", iterations=7).iterations == 7
    timed = make_player(spec.id, "international", think_ms=50)
    assert timed.iterations is None and timed.think_ms == 50
    with pytest.raises(ValueError):
        make_player(spec.id, "international", iterations=0)
    with pytest.raises(ValueError):
        make_player(spec.id, "grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_the_command_line_takes_every_level(capsys, level):
    assert main(["simulate", "seasons", "--seed", "3", "--home", level, "--away", "club", "--iterations", "8",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"] == "seasons"


def test_the_command_line_takes_a_think_budget_and_refuses_a_bad_one(capsys):
    assert main(["simulate", "rugby-champion-solo", "--home", "international", "--think-ms", "5", "--json",
                 "--option", "halves=1"]) == 0
    assert main(["simulate", "seasons", "--home", "international", "--iterations", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


# ---- every level plays legal moves, reproducibly ----------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(spec, level):
    state = new_game(spec.id, seed=4, options=SHORT[spec.id])
    players = {seat: make_player(spec.id, level, iterations=12) for seat in spec.person_seats}
    play_match(state, players, checked=True)
    assert state.is_over


def test_the_international_player_is_reproducible_with_an_iteration_budget(spec):
    def run():
        state = new_game(spec.id, seed=9, options=SHORT[spec.id])
        players = {0: make_player(spec.id, "international", iterations=10)}
        if not spec.solo:
            players[1] = make_player(spec.id, "club")
        return play_match(state, players).history

    assert run() == run()


def test_a_beginner_lapses_on_real_choices_only(spec):
    beginner = make_player(spec.id, "beginner")
    rng = random.Random(1)
    assert beginner.choose(None, ["only"], rng) == "only"
    lapses = sum(Beginner(RandomPlayer(), lapse=1.0).choose(None, ["a", "b"], rng) == "b" for _ in range(200))
    assert 60 < lapses < 140


def test_the_ladder_holds_in_seasons():
    """Seasons is decided by decisions, not dice: each level beats the one below it."""
    def score(a: str, b: str, games: int = 20) -> float:
        won = 0.0
        for seed in range(games):
            seat = seed % 2
            players = {seat: make_player("seasons", a, iterations=20), 1 - seat: make_player("seasons", b)}
            winner = play_match(new_game("seasons", seed=seed), players).outcome().winner
            won += 1.0 if winner == seat else 0.5 if winner is None else 0.0
        return won / games

    assert score("club", "beginner") > 0.7
    assert score("international", "club") > 0.55


# ---- the club players' boards are the views' ----------------------------------------------------------

def _is_part_of(part, whole) -> bool:
    """``part`` shows nothing ``whole`` does not: the same values, under keys ``whole`` has."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(k in whole and _is_part_of(v, whole[k]) for k, v in part.items())
    if isinstance(part, list):
        return isinstance(whole, list) and len(part) == len(whole) and all(map(_is_part_of, part, whole))
    return part == whole


def test_player_board_is_part_of_the_board_view_at_every_step(spec):
    for seed in range(3):
        for state in random_walk(new_game(spec.id, seed=seed), random.Random(seed)):
            for seat in spec.person_seats:
                board = state.player_board(seat)
                assert _is_part_of(board, state.board_view(seat)), (seat, board)
                json.dumps(board)


# ---- determinisation ------------------------------------------------------------------------------------

def _cards(state: GameState) -> list:
    """Every card of the position, wherever it is (sorted), per rule set."""
    rs = state.spec.id
    if rs == "rugby-league-cards":
        return sorted([*state.pile, *state.discards, *state.table, *(c for row in state.hands for c in row if c >= 0)])
    if rs == "seasons":
        return sorted([*state.teams[0], *state.teams[1], *state.draft, *state.stock, *state.retired])
    if rs == "rugby-champion-solo":
        line = [spot["card"] for spot in state.line if spot["card"] is not None]
        hidden = [state.setpiece["hidden"]] if state.setpiece else []
        return sorted([*state.pile, *state.discard, *state.hand, *line, *hidden])
    return sorted(f"{g}:{c}" for g, deck in state.decks.items() for c in deck)


def test_a_determinisation_looks_the_same_to_its_seat_and_keeps_every_card(spec):
    draws = 0
    for seed in range(4):
        for state in random_walk(new_game(spec.id, seed=seed), random.Random(seed)):
            for seat in spec.person_seats:
                sample = state.determinise(seat, random.Random(draws))
                draws += 1
                assert sample.view(seat) == state.view(seat)
                assert _cards(sample) == _cards(state)
                assert sample.chance is not state.chance and not sample.events and not sample.history
    assert draws > 100


def test_a_determinisation_plays_on_like_any_position(spec):
    state = new_game(spec.id, seed=2, options=SHORT[spec.id])
    rng = random.Random(2)
    for _ in range(15):
        if not state.to_act():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    for seat in spec.person_seats:
        sample = state.determinise(seat, random.Random(seat))
        play_match(sample, {s: RandomPlayer() for s in spec.person_seats}, checked=True)
        assert sample.is_over


def test_a_determinisation_deals_the_hidden_cards_afresh(spec):
    """Not a copy: over a few samples the hidden cards move (Bokx: the referee decks' unseen order)."""
    state = new_game(spec.id, seed=5)
    if spec.id == "rugby-league-cards":
        hidden = lambda s: (s.pile[:6], s.hands)  # noqa: E731
    elif spec.id == "seasons":
        hidden = lambda s: s.stock[:6]  # noqa: E731
    elif spec.id == "rugby-champion-solo":
        hidden = lambda s: ([spot["card"] for spot in s.line], s.pile[:6])  # noqa: E731
    else:
        hidden = lambda s: s.decks  # noqa: E731
    samples = [hidden(state.determinise(0, random.Random(n))) for n in range(4)]
    assert any(sample != hidden(state) for sample in samples)


def test_bokx_keeps_the_referee_cards_already_drawn_at_the_bottom_in_order():
    state = new_game("bokx", seed=1)
    rng = random.Random(1)
    for _ in range(400):
        if not state.to_act():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    drawn: dict[str, list[str]] = {}
    for event in state.events:
        if event.kind == "period_end":
            drawn = {}
        elif event.kind == "card":
            drawn.setdefault(event.data["group"], []).append(event.data["card"])
    assert drawn, "some referee cards were drawn"
    sample = state.determinise(0, random.Random(3))
    for group, cards in drawn.items():
        known = cards[-len(state.decks[group]):]
        assert sample.decks[group][-len(known):] == state.decks[group][-len(known):] == known


# ---- the international player cannot peek ---------------------------------------------------------------

def _decision(spec_id: str, seat: int, wanted) -> GameState:
    """Club play from seed 0 upwards until ``seat`` must make a decision ``wanted(legal)`` accepts."""
    for seed in range(50):
        state = new_game(spec_id, seed=seed)
        club = make_player(spec_id, "club")
        rngs = {s: seat_rng(seed, s) for s in (0, 1)}
        while state.to_act():
            mover = state.to_act()[0]
            legal = state.legal_actions(mover)
            if mover == seat and wanted(legal):
                return state
            view = state.view(mover, labels=False, legal=legal, for_player=True)
            state.advance(mover, club.choose(view, legal, rngs[mover]))
    raise AssertionError("no such decision found")


def _rehide(state: GameState, seat: int) -> GameState:
    """The same position with everything ``seat`` cannot see dealt differently (a reversed order)."""
    other = state.clone()
    rs = state.spec.id
    if rs == "rugby-league-cards":
        # The other seat's face-down row, this seat's own (a blind row) and the pile, swapped around.
        for s in (0, 1):
            face_down = [i for i, c in enumerate(other.hands[s]) if c >= 0]
            for i in face_down:
                other.hands[s][i], other.pile[i + 6 * s] = other.pile[i + 6 * s], other.hands[s][i]
        other.pile.reverse()
    elif rs == "seasons":
        other.stock.reverse()
    elif rs == "rugby-champion-solo":
        down = [spot for spot in other.line if spot["card"] is not None and not spot["up"]]
        for spot, i in zip(down, range(len(down)), strict=True):
            spot["card"], other.pile[i] = other.pile[i], spot["card"]
        other.pile.reverse()
        other.support.reverse()
    else:
        for deck in other.decks.values():
            deck[:2] = deck[1::-1]
    return other


DECISIONS = {
    # a drop goal or a penalty option, for the away seat (the home seat's blind choice is pending or not)
    "rugby-league-cards": (1, lambda legal: not legal[-1].startswith("card:")),
    "seasons": (1, lambda legal: len(legal) > 1),
    "rugby-champion-solo": (0, lambda legal: len(legal) > 2),
    "bokx": (0, lambda legal: "backs" in legal),
}


def test_the_international_choice_does_not_depend_on_what_its_seat_cannot_see(spec):
    seat, wanted = DECISIONS[spec.id]
    real = _decision(spec.id, seat, wanted)
    rehidden = _rehide(real, seat)
    assert rehidden.state_dict() != real.state_dict(), "the hidden cards really differ"
    assert rehidden.view(seat) == real.view(seat), "and the seat cannot tell"
    # Every imagined position is the same, whichever of the two is real...
    for n in range(3):
        assert real.determinise(seat, random.Random(n)).state_dict() == \
            rehidden.determinise(seat, random.Random(n)).state_dict()
    # ...so the choice is the same.
    intl = make_player(spec.id, "international", iterations=40)
    legal = real.legal_actions(seat)
    choices = [intl.think(state.view(seat, labels=False, legal=legal, for_player=True), legal,
                          random.Random(11), Sampler(state, seat)) for state in (real, rehidden)]
    assert choices[0] == choices[1] and choices[0] in legal
