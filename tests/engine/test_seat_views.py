"""The lean play loop's two newer shortcuts (issue 17 item 5), each checked against the slow path it replaces.

* A **seat view** (``GameState.seat_view``, :class:`engine.core.SeatView`) is what a club player with
  ``reads_seat_view`` reads instead of the built view. It must offer nothing ``view(seat)`` hides: every
  attribute equals the view's value of the same name, and the club player decides the same when everything
  hidden from the seat (the pile's order, both rows of face-down cards, the other seat's pending choice, the
  referee decks) is dealt afresh.
* A **blind round** (``GameState.blind_round``) plays the first option of each blind choice at the head of
  play: the same actions, events and position as playing them one by one.
"""

import random

import pytest

import engine
from engine import new_game
from engine.core import GameState, SeatView
from engine.players import make_player, play_match

from .test_levels import random_walk

SEAT_VIEW_RULESETS = [spec.id for spec in engine.rulesets() if make_player(spec.id, "club").reads_seat_view]
BLIND_ROUND_RULESETS = [spec.id for spec in engine.rulesets()
                        if type(new_game(spec.id)).blind_round is not GameState.blind_round]


def test_the_card_game_bokx_champion_and_seasons_take_the_shortcuts():
    assert {"rugby-league-cards", "bokx", "rugby-champion-solo", "seasons"} <= set(SEAT_VIEW_RULESETS)
    assert "rugby-league-cards" in BLIND_ROUND_RULESETS


def seat_view_facts(seen: SeatView) -> dict[str, object]:
    """Every public attribute of a seat view."""
    return {name: getattr(seen, name) for name in dir(seen) if not name.startswith("_")}


def view_value(view: dict, name: str) -> object:
    """The value of ``name`` in a built view: the envelope's seat or phase, the score's points, or a board key."""
    if name in ("seat", "phase"):
        return view[name]
    if name == "points":
        return view["score"]["home"]["points"], view["score"]["away"]["points"]
    return view["board"][name]


@pytest.mark.parametrize("ruleset", SEAT_VIEW_RULESETS)
def test_a_seat_view_shows_only_what_the_view_of_that_seat_shows(ruleset):
    checked = seed = 0
    while seed < 4 or checked <= 500:  # four games at least; more of a rule set with short ones (Champion solo)
        for state in random_walk(new_game(ruleset, seed=seed), random.Random(seed)):
            for seat in (0, 1):
                view = state.view(seat)
                facts = seat_view_facts(state.seat_view(seat))
                assert facts  # something is offered
                for name, value in facts.items():
                    assert value == view_value(view, name), (name, seed, len(state.history))
                checked += 1
        seed += 1
    assert checked > 500


def cards_facts(seen):
    """The card game's facts in one call, and the attributes they are the values of (``points`` as its two)."""
    home, away = seen.points
    return seen._decision_facts(), (seen.golden_point, seen.sets_played, home, away, seen.progress,
                                    seen.tackles_lost)


def bokx_facts(seen):
    """Bokx's progress as a method, and its side facts in one call while a side is chosen: the values of the
    attributes (the side preview's) they stand for."""
    given, expected = [seen._progress()], [seen.progress]
    preview = seen.side_preview
    if preview is not None:
        left, right = preview["left"], preview["right"]
        given.append(seen._side_facts())
        expected.append((preview["kind"], preview.get("src"), left["x"], left["touch"], right["x"], right["touch"]))
    return given, expected


# A seat view may hand its club player the facts of one or several of its attributes in one method call (a private
# method, so not a fact itself): per rule set, (what those calls give, the attribute values they must equal), or None
# where none is offered.
FACTS_IN_ONE_CALL = {"rugby-league-cards": cards_facts, "bokx": bokx_facts}


@pytest.mark.parametrize("ruleset", sorted(FACTS_IN_ONE_CALL))
def test_a_seat_views_facts_in_one_call_are_the_values_of_its_attributes(ruleset):
    checked = 0
    for seed in range(6):
        for state in random_walk(new_game(ruleset, seed=seed), random.Random(seed)):
            for seat in (0, 1):
                facts = FACTS_IN_ONE_CALL[ruleset](state.seat_view(seat))
                if facts is not None:
                    given, expected = facts
                    assert given == expected, (seed, len(state.history))
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("ruleset", SEAT_VIEW_RULESETS)
def test_the_club_player_decides_the_same_whatever_is_hidden_from_its_seat(ruleset):
    """At every real decision, the state's hidden part is dealt afresh (``determinise``: what the seat may see
    is kept, everything else redrawn); the seat view's facts and the club player's choice stay the same, and
    that choice is the one it makes from the built view."""
    player = make_player(ruleset, "club")
    decisions = 0
    for seed in range(6):
        state = new_game(ruleset, seed=seed)
        rng = random.Random(seed)
        while state.to_act():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if player.needs_view_for(legal):
                decisions += 1
                choice = player.choose_seen(state.seat_view(seat), legal, random.Random(0))
                assert choice == player.choose(state.view(seat, labels=False, for_player=True), legal,
                                               random.Random(0))
                facts = seat_view_facts(state.seat_view(seat))
                for _ in range(3):
                    imagined = state.determinise(seat, rng)
                    assert seat_view_facts(imagined.seat_view(seat)) == facts
                    assert player.choose_seen(imagined.seat_view(seat), legal, random.Random(0)) == choice
            state.apply(seat, rng.choice(legal))
    assert decisions > 20


def test_the_card_game_seat_view_differs_from_nothing_hidden():
    """The determinisations above really change what is hidden (else the test would prove nothing)."""
    state = new_game("rugby-league-cards", seed=1)
    imagined = state.determinise(0, random.Random(5))
    assert (imagined.pile, imagined.hands) != (state.pile, state.hands)


@pytest.mark.parametrize("ruleset", BLIND_ROUND_RULESETS)
def test_a_blind_round_plays_what_the_step_by_step_loop_plays(ruleset):
    """From every position of random games (mid-round ones included), ``blind_round`` on a copy gives the same
    history, events, position and chance as playing each blind choice's first option one by one, and stops
    at the same real decision; the club player agrees that those choices were blind and its own."""
    player = make_player(ruleset, "club")
    played = 0
    for seed in range(4):
        for state in random_walk(new_game(ruleset, seed=seed), random.Random(seed)):
            fast, slow = state.clone(), state.clone()
            start = len(fast.history)
            if not fast.blind_round():
                assert fast.to_dict() == state.to_dict()  # nothing changed
                continue
            played += 1
            for seat, action in fast.history[start:]:
                acting = slow.to_act()
                assert acting and acting[0] == seat
                legal = slow.legal_actions(seat)
                assert not player.needs_view_for(legal) and player.choose(None, legal, random.Random(0)) == action
                assert action == legal[0]
                slow.apply(seat, action)
            assert fast.to_dict() == slow.to_dict()
            # It stopped at a real decision (or the end).
            acting = fast.to_act()
            assert not acting or player.needs_view_for(fast.legal_actions(acting[0]))
    assert played > 50


@pytest.mark.parametrize("ruleset", BLIND_ROUND_RULESETS)
def test_blind_rounds_are_used_only_when_every_player_takes_the_first_blind_option(ruleset):
    """A beginner draws its lapses even on blind choices: with one at the table the loop plays step by step
    (the same games as before: tests/engine/test_same_games.py), and a club match takes the shortcut."""
    seats = new_game(ruleset).spec.person_seats
    calls = []

    class Counting(type(new_game(ruleset))):
        def blind_round(self):
            calls.append(1)
            return super().blind_round()

    mixed = Counting(seed=3)
    play_match(mixed, {0: make_player(ruleset, "beginner"), 1: make_player(ruleset, "club")})
    assert not calls
    club = Counting(seed=3)
    play_match(club, dict.fromkeys(seats, make_player(ruleset, "club")))
    assert calls
    assert club.history == play_match(new_game(ruleset, seed=3), dict.fromkeys(seats, make_player(ruleset, "club")),
                                      checked=True).history
