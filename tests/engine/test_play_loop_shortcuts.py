"""The play loop's shortcuts for cheap players (issue 17 item 5): each is a promise a player makes, checked here.

* ``blind_first``: where the player does not read the view, its choice is the first legal action, so the loop
  takes it without asking;
* ``uses_rng = False``: the player never draws from its rng, so the loop does not seed one (it gets
  ``NO_DRAWS``, which refuses every draw).
"""

import random

import pytest

import engine
from engine import new_game
from engine.players import NO_DRAWS, RandomPlayer, make_player, play_match, seat_rng

from .test_levels import random_walk

SPECS = engine.rulesets()
CLUB_PLAYERS = [(spec.id, make_player(spec.id, "club")) for spec in SPECS]
# Each test takes the club players that make its promise (the others choose or draw in their own way).
BLIND_FIRST = [(ruleset, player) for ruleset, player in CLUB_PLAYERS if player.blind_first]
NO_RNG = [(ruleset, player) for ruleset, player in CLUB_PLAYERS if not player.uses_rng]


def test_some_club_players_make_each_promise():
    assert {"rugby-league-cards", "rugby-champion-solo"} <= {ruleset for ruleset, _ in BLIND_FIRST}
    assert {"rugby-league-cards", "rugby-champion-solo"} <= {ruleset for ruleset, _ in NO_RNG}


def test_the_rng_of_a_player_that_never_draws_refuses_every_draw():
    for draw in (NO_DRAWS.random, lambda: NO_DRAWS.choice([1, 2]), lambda: NO_DRAWS.randrange(6),
                 lambda: NO_DRAWS.shuffle([1, 2, 3]), lambda: NO_DRAWS.getrandbits(8)):
        with pytest.raises(RuntimeError, match="never draws"):
            draw()


def test_players_that_draw_keep_their_seeded_rng():
    assert RandomPlayer.uses_rng and make_player("rugby-league-cards", "beginner").uses_rng
    assert not make_player("rugby-league-cards", "beginner").blind_first  # its lapses are drawn in choose


@pytest.mark.parametrize(("ruleset", "player"), BLIND_FIRST, ids=[ruleset for ruleset, _ in BLIND_FIRST])
def test_a_blind_first_player_chooses_the_first_legal_action_wherever_it_needs_no_view(ruleset, player):
    blind = 0
    for seed in range(3):
        for state in random_walk(new_game(ruleset, seed=seed), random.Random(seed)):
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                if not (player.needs_view and player.needs_view_for(legal)):
                    blind += 1
                    assert player.choose(None, legal, seat_rng(seed, seat)) == legal[0]
    assert blind  # some positions were checked


@pytest.mark.parametrize(("ruleset", "player"), NO_RNG, ids=[ruleset for ruleset, _ in NO_RNG])
def test_a_player_that_says_it_never_draws_plays_whole_matches_without_drawing(ruleset, player):
    seats = new_game(ruleset).spec.person_seats
    for seed in range(20):
        # play_match hands it NO_DRAWS: a single draw would raise. Its choices also ignore any other rng.
        with_none = play_match(new_game(ruleset, seed=seed), dict.fromkeys(seats, player), events=False)
        state = new_game(ruleset, seed=seed)
        while state.to_act():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat, labels=False, legal=legal, for_player=True)
            state.apply(seat, player.choose(view, legal, seat_rng(seed, seat)))
        assert state.history == with_none.history
