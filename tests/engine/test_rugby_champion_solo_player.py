"""Rugby Champion solo: the club player's quick choice is the choice its values make.

The club player weighs its attack plays in whole numbers (``player._best_play``), which is faster than its float
``values()`` and must pick the very same play: the first of the best, as ``max(legal, key=values)`` does -- or
defer to the floats (None) when two unlike plays come out level. Checked at every attack decision of matches
played partly at random (so that every situation of the support pile and the Advantage comes up).
"""

import random

from engine import new_game
from engine.players import make_player
from engine.rugby_champion_solo.cards import DECK
from engine.rugby_champion_solo.player import _PACKED, SeenSums, _best_play, _situation, _ViewFacts

RS = "rugby-champion-solo"


def test_the_whole_number_choice_is_the_float_values_choice():
    club = make_player(RS, "club")
    picked = deferred = 0
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
                play = _best_play(board["seen"], _situation(_ViewFacts(view)), legal, SeenSums())
                values = club.values(view, legal)
                if play is None:
                    deferred += 1
                    level = [a for a in legal if values[a] > max(values.values()) - 1e-9]
                    assert len(level) > 1, (legal, values)  # only ever on a level
                else:
                    picked += 1
                    assert play == max(legal, key=values.__getitem__), (legal, values, play)
            action = club.choose(view, legal, rng) if rng.random() < 0.7 else rng.choice(legal)
            state.apply(0, action)
    assert picked > 2000 and deferred < picked / 10
    assert len(situations) >= 8


def test_the_whole_number_choice_with_a_single_seen_card():
    """One seen card (a board the rules never show, but a player must not trip on it): the same choice."""
    hand = [DECK.players["prop-1"].to_dict()]
    board = {"discard": [], "hand": hand, "line": [{"face_up": False, "card": None}] * 4, "support_drawn": False,
             "support_count": 10, "kickers_aside": 0, "advantage": None, "setpiece": None, "seen": ["prop-1"]}
    legal = [f"play:prop-1:{ctype}" for ctype in DECK.challenge_types]
    view = {"phase": "attack", "board": board}
    values = make_player(RS, "club").values(view, legal)
    play = _best_play(["prop-1"], _situation(_ViewFacts(view)), legal, SeenSums())
    assert play == max(legal, key=values.__getitem__) == "play:prop-1:physical"


def test_the_kept_seen_sums_are_the_sums_over_the_cards_seen_now():
    """The club player keeps its packed sums over the seen cards from one decision to the next (SeenSums): at every
    position of matches played partly at random -- halves starting afresh, and another match's cards in between --
    they are the sums recomputed from scratch, and so are those kept over a state rebuilt by from_dict(to_dict)."""
    kept, other = SeenSums(), SeenSums()
    positions = 0
    for seed in range(40):
        state = new_game(RS, seed=seed)
        elsewhere = new_game(RS, seed=seed + 1000)
        rng = random.Random(seed)
        club = make_player(RS, "club")
        while not state.is_over:
            for sums, seen in ((kept, state.seat_view(0).seen),
                               (other, type(state).from_dict(state.to_dict()).seat_view(0).seen)):
                sums.see(seen)
                assert sums.cards == set(seen)
                for ctype in DECK.challenge_types:
                    assert sums.total(ctype) == sum(_PACKED[ctype][card] for card in seen), (seed, ctype)
            if rng.random() < 0.2 and not elsewhere.is_over:  # another match's cards now and then
                elsewhere.apply(0, rng.choice(elsewhere.legal_actions(0)))
                other.see(elsewhere.seat_view(0).seen)
            legal = state.legal_actions(0)
            state.apply(0, club.choose_seen(state.seat_view(0), legal, rng) if rng.random() < 0.7
                        else rng.choice(legal))
            positions += 1
    assert positions > 1000


def test_the_kept_seen_sums_start_again_when_a_card_seen_before_is_not_seen_now():
    sums = SeenSums()
    sums.see(["prop-1", "prop-2"])
    sums.total("kick")
    sums.see(["prop-1", "hooker-1"])  # not prop-2: another half, another match
    assert sums.log == ["prop-1", "hooker-1"]
    assert sums.total("kick") == _PACKED["kick"]["prop-1"] + _PACKED["kick"]["hooker-1"]
