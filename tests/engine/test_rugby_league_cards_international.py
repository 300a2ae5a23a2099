"""The card game's international player: determinisations consistent with what its seat saw, and the same
choices for the same seed (issue 20 item 4)."""

import random

from engine import new_game
from engine.players import Sampler, make_player, play_match, seat_rng
from engine.rugby_league_cards.player import RugbyLeagueInternationalPlayer
from engine.rugby_league_cards.rules import CARD_INDEX, RugbyLeagueCardsState

RULESET = "rugby-league-cards"


def _seen_since_reshuffle(state: RugbyLeagueCardsState) -> set[int]:
    """Every card turned over since the pile was last formed (what both seats have seen), from the events."""
    seen: set[int] = set()
    for event in reversed(state.events):
        if event.kind == "reshuffle":
            break
        if event.kind in ("tackle", "penalty", "kick-round"):
            seen |= {CARD_INDEX[event.data["home"]], CARD_INDEX[event.data["away"]]}
            seen |= {CARD_INDEX[c] for pair in event.data["draws"] for c in pair}
    return seen


def _club_positions(seed: int):
    """Every position of a club-v-club match (the state itself, mutated) past a reshuffle of the pile."""
    state = new_game(RULESET, seed=seed)
    club = make_player(RULESET, "club")
    rngs = {s: seat_rng(seed, s) for s in (0, 1)}
    while state.to_act():
        yield state
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        state.advance(seat, club.choose(state.view(seat, labels=False, legal=legal, for_player=True), legal,
                                        rngs[seat]))


def test_a_determinisation_deals_only_cards_its_seat_has_not_seen():
    reshuffled = 0
    for checked, state in enumerate(_club_positions(3)):
        if checked % 7 == 0:  # a sample of the positions keeps the test quick
            seat = state.to_act()[0]
            sample = state.determinise(seat, random.Random(checked))
            seen = _seen_since_reshuffle(state)
            face_down = {c for row in sample.hands for c in row if c >= 0}
            # Cards turned over since the pile was formed are never dealt again in an imagined position...
            assert not seen & (set(sample.pile) | face_down)
            # ...they stay where the seat saw them go: on the table or among the discards, in the same places.
            assert sample.table == state.table
            for i, card in enumerate(state.discards):
                if card in seen:
                    assert sample.discards[i] == card
            # The counts the seat sees are the real ones, and its own pending choice stays its own.
            assert len(sample.pile) == len(state.pile)
            assert [[c >= 0 for c in row] for row in sample.hands] == [[c >= 0 for c in row] for row in state.hands]
            assert sample.pending[seat] == state.pending[seat]
            assert sample.last_rank == state.last_rank
            reshuffled += any(e.kind == "reshuffle" for e in state.events)
    assert reshuffled > 0, "the match ran through a reshuffle of the discards"


def test_the_international_player_makes_the_same_choices_for_the_same_seed():
    def match():
        players = {0: make_player(RULESET, "international", iterations=30), 1: make_player(RULESET, "club")}
        return play_match(new_game(RULESET, seed=7, options={"sets_per_half": 3}), players)

    first, second = match(), match()
    assert first.history == second.history and first.is_over


def test_a_decision_judged_by_the_table_is_reproducible():
    for state in _club_positions(1):
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if "drop-goal" in legal:
            break
    intl = RugbyLeagueInternationalPlayer(iterations=60)
    view = state.view(seat, labels=False, legal=legal, for_player=True)
    choices = {intl.think(view, legal, random.Random(5), Sampler(state, seat)) for _ in range(3)}
    assert len(choices) == 1 and choices <= set(legal)
