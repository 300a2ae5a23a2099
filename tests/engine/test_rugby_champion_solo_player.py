"""Rugby Champion solo: the club player's quick choice is the choice its values make.

The club player weighs its attack plays in whole numbers (``player._best_play``), which is faster than its float
``values()`` and must pick the best play: the one ``max(legal, key=values)`` picks, or where the floats' rounding
parts plays that are level, the first of them. Checked at every attack decision of matches played partly at random
(so that every situation of the support pile and the Advantage comes up).
"""

import random

from engine import new_game
from engine.players import make_player
from engine.rugby_champion_solo.cards import DECK
from engine.rugby_champion_solo.player import _best_play, _situation, _UnseenSums, _ViewFacts

RS = "rugby-champion-solo"


def test_the_whole_number_choice_is_the_float_values_choice():
    club = make_player(RS, "club")
    picked = level = 0
    kept = _UnseenSums()
    situations = set()
    for seed in range(120):
        state = new_game(RS, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions(0)
            view = state.view(0, labels=False, legal=legal, for_player=True)
            if view["phase"] == "attack" and len(legal) > 1:
                board = view["board"]
                situations.add((board["support_drawn"], board["kickers_aside"], board["advantage"]))
                situation = _situation(_ViewFacts(view))
                play = _best_play(_UnseenSums(), board["seen"], situation, legal)
                # The same from the seat view's cards in the order shown, with the sums kept from decision to
                # decision and from match to match (started again on another half's list).
                phase, shown, seat_situation = state.seat_view(0)._decision_facts()
                assert (phase, sorted(shown), seat_situation) == ("attack", sorted(board["seen"]), situation)
                assert _best_play(kept, shown, situation, legal) == play
                values = club.values(view, legal)
                best = [a for a in legal if values[a] > max(values.values()) - 1e-9]
                assert play == best[0], (legal, values, play)
                picked += 1
                level += play != max(legal, key=values.__getitem__)
            action = club.choose(view, legal, rng) if rng.random() < 0.7 else rng.choice(legal)
            state.apply(0, action)
    assert picked > 2000 and level < picked / 100
    assert len(situations) >= 8


def test_the_whole_number_choice_with_a_single_seen_card():
    """One seen card (a board the rules never show, but a player must not trip on it): the same choice."""
    hand = [DECK.players["prop-1"].to_dict()]
    board = {"discard": [], "hand": hand, "line": [{"face_up": False, "card": None}] * 4, "support_drawn": False,
             "support_count": 10, "kickers_aside": 0, "advantage": None, "setpiece": None, "seen": ["prop-1"]}
    legal = [f"play:prop-1:{ctype}" for ctype in DECK.challenge_types]
    view = {"phase": "attack", "board": board}
    values = make_player(RS, "club").values(view, legal)
    play = _best_play(_UnseenSums(), ["prop-1"], _situation(_ViewFacts(view)), legal)
    assert play == max(legal, key=values.__getitem__) == "play:prop-1:physical"


def test_the_cards_shown_are_the_cards_seen_in_a_list_only_added_to_within_a_half():
    """The club player takes off only the cards shown since its last decision (``_UnseenSums``): the rules' list of
    the cards shown (``ChampionSeatView._decision_facts``) must be the cards the person has seen, each once, the same
    list within a half and only added to -- also in a state rebuilt from its saved form, cloned or forked."""
    club = make_player(RS, "club")
    checked = 0
    for seed in range(40):
        state = new_game(RS, seed=seed)
        rng = random.Random(seed)
        kept, kept_cards, half = None, [], 0
        while not state.is_over:
            legal = state.legal_actions(0)
            view = state.view(0, labels=False, legal=legal, for_player=True)
            phase, shown, situation = state.seat_view(0)._decision_facts()
            board = view["board"]
            assert phase == view["phase"]
            assert len(shown) == len(set(shown)) and sorted(shown) == sorted(board["seen"])
            assert situation == (board["support_drawn"] or not board["support_count"], board["kickers_aside"],
                                 board["advantage"])
            if state.half == half:  # the same list, the cards shown before first
                assert shown is kept and shown[:len(kept_cards)] == kept_cards
            kept, kept_cards, half = shown, list(shown), state.half
            for other in (type(state).from_dict(state.to_dict()), state.clone(), state.fork(state.chance)):
                assert sorted(other.seat_view(0)._decision_facts()[1]) == sorted(board["seen"])
            action = club.choose(view, legal, rng) if rng.random() < 0.7 else rng.choice(legal)
            state.apply(0, action)
            checked += 1
    assert checked > 1000
