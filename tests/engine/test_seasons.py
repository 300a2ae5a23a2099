"""Seasons: the book's scoring examples, draft scenarios with a scripted deck, properties."""

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, ScriptedChance, new_game, replay
from engine.players import RandomPlayer, make_player, play_match
from engine.seasons.player import RUN_STARTS, SeasonsClubPlayer, _mask, _value
from engine.seasons.rules import (
    DEFENDER_RANKS,
    MELD_MULTIPLIER,
    PASS,
    STRIKER_RANKS,
    SeasonsState,
    full_deck,
    longest_meld,
    score_season,
    season_points,
    swap_action,
)


def deck_order(home, away, *drafts, removed="clubs"):
    """A full shuffled order: home's team, away's team, then the drafts in order, then the rest."""
    head = [*home, *away, *[c for d in drafts for c in d]]
    rest = [c for c in full_deck(removed) if c not in head]
    assert len(set(head)) == len(head)
    return head + rest


def scripted(home, away, *drafts, removed="clubs", **options):
    options = {"removed_suit": removed, **options}
    return new_game("seasons", options=options,
                    chance=ScriptedChance([deck_order(home, away, *drafts, removed=removed)]))


# ---- the book's worked scoring examples ---------------------------------------------------------

def test_book_example_four_defenders_against_three_scores_one():
    north = ["2S", "5H", "8D", "TS", "KH"]  # four defenders, one striker
    south = ["3S", "6H", "9D", "QS", "AH"]  # three defenders, two strikers
    assert season_points(north, south)["points"] == 1
    assert season_points(north, south)["surplus_defenders"] == 1


def test_book_example_two_strikers_against_one_scores_two_and_wins_the_season():
    north = ["2S", "5H", "8D", "TS", "KH"]
    south = ["3S", "6H", "9D", "QS", "AH"]
    assert season_points(south, north)["points"] == 2
    assert score_season(north, south) == (1, 2)


def test_book_example_three_defenders_in_sequence_turn_one_point_into_three():
    north = ["4H", "5H", "6H", "9D", "KS"]  # 4-5-6 of hearts in sequence, one defender out of sequence
    south = ["3S", "7D", "TD", "QS", "AH"]
    assert score_season(north, south) == (3, 2)
    assert season_points(north, south)["multiplier"] == 3


def test_melds_of_four_and_five_multiply_by_six_and_nine():
    four = ["4H", "5H", "6H", "7H", "KS"]
    five = ["4H", "5H", "6H", "7H", "8H"]
    strikers = ["3S", "JD", "QS", "KH", "AH"]  # one defender, four strikers
    assert score_season(four, strikers) == (3 * 6, 3 * 2)
    assert score_season(five, strikers) == (4 * 9, 4 * 2)


def test_striker_meld_multiplies_striker_surplus_and_ace_is_high():
    team = ["JS", "QS", "KS", "AS", "2H"]  # J-Q-K-A of spades: a meld of four strikers
    other = ["3S", "4D", "6H", "8D", "QH"]
    assert longest_meld(team, "JQKA") == 4
    assert score_season(team, other) == (3 * 2 * 6, 3)


def test_a_meld_multiplies_all_the_points_of_a_surplus_whatever_its_kind():
    # #5 (issue 20, finding 11): "if he has a surplus, the points are multiplied by three, six or nine depending
    # on the length of the sequence". Home: two defenders, three strikers in sequence (J-Q-K hearts) -- a
    # surplus of one defender, 1 point, times 3. Away: one defender, four strikers, no meld: 2 points.
    home = ["2S", "5D", "JH", "QH", "KH"]
    away = ["9S", "JS", "QD", "KD", "AS"]
    assert score_season(home, away) == (3, 2)
    assert season_points(home, away)["multiplier"] == 3 and season_points(away, home)["multiplier"] == 1
    # No surplus, nothing to multiply: the meld alone scores nothing.
    assert score_season(["4H", "5H", "6H", "JS", "QD"], ["2S", "9D", "TS", "KS", "AD"]) == (0, 0)


def test_no_sequence_across_ten_and_jack_nor_ace_low():
    assert longest_meld(["9S", "TS", "JS", "QS"], "23456789T") == 2
    assert longest_meld(["9S", "TS", "JS", "QS"], "JQKA") == 2
    assert longest_meld(["AS", "2S", "3S"], "23456789T") == 2


def test_equal_teams_halve_the_season():
    assert score_season(["2S", "4S", "6S", "JS", "KS"], ["2H", "4H", "6H", "JH", "KH"]) == (0, 0)


# ---- deal, seasons and the draft ------------------------------------------------------------------

HOME_WEAK = ["2S", "4S", "6S", "8D", "JH"]    # four defenders, one striker
AWAY_STRONG = ["3H", "5D", "QS", "KD", "AH"]  # two defenders, three strikers


def test_deal_turns_up_the_draft_and_tabulates_the_first_season_at_once():
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"])
    assert g.season == 1
    assert g.results[0]["points"] == [2, 4]
    assert g.draft == ["9H", "TH", "AS"]
    assert len(g.stock) == 26
    # The loser of the season (home) picks first.
    assert g.to_act() == (0,)


def test_draft_exchange_moves_cards_both_ways_and_alternates():
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"])
    g.apply(0, "swap:as:2s")
    assert sorted(g.teams[0]) == sorted(["AS", "4S", "6S", "8D", "JH"])
    assert sorted(g.draft) == ["2S", "9H", "TH"]
    assert g.to_act() == (1,)
    # Away may take back what home released: exchanges revolve around the draft cards.
    assert "swap:2s:qs" in g.legal_actions(1)
    with pytest.raises(IllegalAction):
        g.apply(1, "swap:as:qs")  # AS is no longer in the draft
    with pytest.raises(IllegalAction):
        g.apply(0, "pass")  # not home's turn


def test_draft_ends_after_two_consecutive_passes_and_cards_are_retired():
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"], ["7S", "7H", "7D"])
    g.apply(0, "swap:as:2s")
    g.apply(1, "pass")
    assert g.season == 1  # a single pass does not end the draft
    g.apply(0, "swap:9h:4s")
    g.apply(1, "pass")
    g.apply(0, "pass")
    assert g.season == 2
    assert sorted(g.retired) == ["2S", "4S", "TH"]
    assert g.draft == ["7S", "7H", "7D"]
    assert len(g.stock) == 23
    # Season 2: home AS 9H 6S 8D JH (3 D, 2 S) v away (2 D, 3 S): home 1, away 2.
    assert g.results[1]["points"] == [1, 2]


def test_a_pass_then_an_exchange_reopens_the_draft():
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"])
    g.apply(0, "pass")
    g.apply(1, "swap:as:3h")
    assert g.season == 1 and g.to_act() == (0,)
    g.apply(0, "pass")
    assert g.season == 1 and g.to_act() == (1,)
    g.apply(1, "pass")
    assert g.season == 2


def test_after_a_halved_season_the_alternate_player_picks_first():
    home = ["2S", "4S", "6S", "JS", "KS"]
    away = ["2H", "4H", "6H", "JH", "KH"]
    g = scripted(home, away, ["8D", "TD", "3D"], ["5D", "9D", "2D"], ["4D", "6D", "AD"])
    assert g.results[0]["winner"] is None
    assert g.to_act() == (0,)  # first season halved: home picks first
    g.apply(0, "pass")
    g.apply(1, "pass")
    assert g.results[1]["winner"] is None
    assert g.to_act() == (1,)  # halved again: the other player than last time
    g.apply(1, "pass")
    g.apply(0, "pass")
    assert g.to_act() == (0,)


def test_team_never_exceeds_five_and_exchange_limit_forces_pass():
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"], max_exchanges=1)
    g.apply(0, "swap:as:2s")
    g.apply(1, "swap:2s:qs")
    assert g.legal_actions(0) == ["pass"]
    g.apply(0, "pass")
    assert g.legal_actions(1) == ["pass"]
    assert all(len(t) == 5 for t in g.teams)


def test_all_halved_match_is_five_and_a_half_each_with_a_short_last_draft():
    home = ["2S", "4S", "6S", "JS", "KS"]
    away = ["2H", "4H", "6H", "JH", "KH"]
    g = scripted(home, away)
    drafts_seen = []
    while not g.is_over:
        drafts_seen.append(len(g.draft))
        g.apply(g.to_act()[0], "pass")
        g.apply(g.to_act()[0], "pass")
    assert drafts_seen == [3] * 9 + [2]  # 29 stock cards: the tenth draft has only two
    assert g.season == 11 and not g.stock
    out = g.outcome()
    assert out.points == (Fraction(11, 2), Fraction(11, 2))
    assert out.to_dict()["home"]["points"] == 5.5
    assert out.to_dict()["winner"] == "draw"
    assert out.stats[0] == {"seasons_won": 0, "halved": 11, "season_points": 0}
    assert out.tries == (0, 0)
    assert g.legal_actions(0) == [] and g.to_act() == ()


def test_the_match_ends_when_a_side_has_won_six_seasons():
    # #14 (issue 20, finding 10): "To win the majority of 11 football seasons": at 6-0 the match is won.
    home = ["JS", "QS", "KS", "AS", "JH"]  # five strikers, J-Q-K-A of spades
    away = ["2H", "3H", "5D", "7D", "9D"]
    g = scripted(home, away)
    while not g.is_over:
        g.apply(g.to_act()[0], "pass")
    assert g.season == 6 and [r["winner"] for r in g.results] == [0] * 6
    out = g.outcome()
    assert out.points == (6, 0) and out.winner == 0 and out.stats[0]["seasons_won"] == 6
    assert g.draft == [] and len(g.stock) == 29 - 5 * 3 and g.legal_actions(0) == g.legal_actions(1) == []
    assert g.events[-1].kind == "full_time" and "decided after 6 of 11 seasons" in g.events[-1].text


def test_five_and_a_half_seasons_is_not_yet_a_majority():
    # #14: halved seasons count a half; the match is decided at more than 5 1/2. Season 1 is halved, then home
    # draft the ace of spades and win every season: 5 1/2 after season 6 plays on, 6 1/2 after season 7 wins.
    home = ["2S", "4S", "6S", "JS", "KS"]
    away = ["2H", "4H", "6H", "JH", "KH"]
    g = scripted(home, away, ["AS", "9D", "TD"])
    assert g.results[0]["winner"] is None and g.to_act() == (0,)
    g.apply(0, "swap:as:2s")
    while not g.is_over:
        g.apply(g.to_act()[0], "pass")
        if g.season == 6:
            assert g.seasons_won() == (Fraction(11, 2), Fraction(1, 2)) and not g.is_over
    assert g.season == 7
    assert g.outcome().points == (Fraction(13, 2), Fraction(1, 2)) and g.outcome().winner == 0
    assert g.outcome().stats[0]["seasons_won"] == 6


def test_commentary_names_the_next_draft_and_a_pass_with_no_exchanges_left():
    # Issue 20, finding 12: no "Draft turned up: none." before the eleventh season, and a player with no
    # exchanges left is not "satisfied with the team".
    g = scripted(["2S", "4S", "6S", "JS", "KS"], ["2H", "4H", "6H", "JH", "KH"])
    while not g.is_over:
        g.apply(g.to_act()[0], "pass")
    drafts = [e for e in g.events if e.kind == "draft"]
    assert len(drafts) == 10 and all(e.data["cards"] for e in drafts)
    assert drafts[0].text.startswith("Draft for season 2 turned up:") and "none" not in drafts[-1].text
    g = scripted(HOME_WEAK, AWAY_STRONG, ["9H", "TH", "AS"], max_exchanges=1)
    g.apply(0, "swap:as:2s")
    g.apply(1, "pass")
    assert g.events[-1].text == "Away is satisfied with the team."
    g.apply(0, "pass")  # two passes in a row: the draft ends
    last_pass = [e for e in g.events if e.kind == "pass"][-1]
    assert last_pass.text == "Home has no exchanges left and passes." and last_pass.data["forced"]


def test_removed_suit_option_strips_that_suit():
    g = new_game("seasons", seed=3, options={"removed_suit": "spades"})
    cards = [*g.teams[0], *g.teams[1], *g.draft, *g.stock]
    assert len(cards) == 39 and not any(c.endswith("S") for c in cards)
    with pytest.raises(ValueError):
        new_game("seasons", options={"removed_suit": "jokers"})
    with pytest.raises(ValueError):
        new_game("seasons", options={"max_exchanges": 0})


def test_view_hides_the_stock_and_is_json():
    g = new_game("seasons", seed=11)
    for seat in (0, 1, None):
        v = g.view(seat)
        text = json.dumps(v)
        assert v["board"]["stock_count"] == 26
        for card in g.stock:
            assert f'"{card}"' not in text and f":{card.lower()}" not in text
        assert v["board"]["teams"] == g.teams and v["board"]["draft"] == g.draft
        assert v["phase"] == "draft" and not v["over"] and v["to_act"] == [g.turn]
    assert g.describe_action("swap:th:2s") == "Draft 10\u2665, release 2\u2660"
    assert g.describe_action("pass") == "Satisfied: pass"


def test_replay_and_round_trip_equal_live_play():
    g = new_game("seasons", seed=5)
    play_match(g, {0: make_player("seasons", "aware"), 1: RandomPlayer()})
    again = replay("seasons", seed=5, options=g.options, actions=g.history)
    assert again.state_dict() == g.state_dict()
    loaded = SeasonsState.from_dict(json.loads(json.dumps(g.to_dict())))
    assert loaded.state_dict() == g.state_dict() and loaded.outcome() == g.outcome()


def test_aware_player_beats_random():
    wins = 0
    for seed in range(12):
        seat = seed % 2
        players = {seat: make_player("seasons", "aware"), 1 - seat: RandomPlayer()}
        g = play_match(new_game("seasons", seed=seed), players)
        wins += g.outcome().winner == seat
    assert wins >= 11


# ---- the club player's look-ahead, worked out in full ------------------------------------------------

def reference_move(me, teams, draft, passes, they_can_exchange):
    """The club player's rule without its shortcuts (team kinds, runs of three, the replies' kinds as one set):
    every exchange and the pass, each against every reply of the opponent, scored from the rules' melds."""

    def features(team):
        strikers = sum(card[0] in STRIKER_RANKS for card in team)
        run = max(longest_meld(team, DEFENDER_RANKS), longest_meld(team, STRIKER_RANKS))
        return strikers, MELD_MULTIPLIER.get(min(run, 5), 1)

    def after_reply(ours, theirs, offered):
        worst = _value(features(ours), features(theirs))
        if they_can_exchange:
            for take in offered:
                for give in theirs:
                    worst = min(worst, _value(features(ours), features([take if c == give else c for c in theirs])))
        return worst

    def strength(team):
        strikers, mult = features(team)
        return 2 * strikers + mult

    mine, theirs = teams[me], teams[1 - me]
    now = _value(features(mine), features(theirs))
    best, best_key = PASS, (now if passes >= 1 else after_reply(mine, theirs, draft), now, strength(mine), True)
    for take in draft:
        for give in mine:
            team = [take if c == give else c for c in mine]
            key = (after_reply(team, theirs, [give, *(d for d in draft if d != take)]),
                   _value(features(team), features(theirs)), strength(team), False)
            if key > best_key:
                best, best_key = swap_action(take, give), key
    return best


def test_the_club_player_makes_the_move_its_rule_worked_out_in_full_makes():
    """At every decision of games mixing club and random moves (every suit stripped, one to five exchanges a draft),
    the club player's move is the one worked out in full (``reference_move``), from the seat view and the built
    view alike."""
    player = SeasonsClubPlayer()
    rng = random.Random(7)
    decisions = 0
    for seed in range(40):
        options = {"removed_suit": ["clubs", "diamonds", "hearts", "spades"][seed % 4], "max_exchanges": 1 + seed % 5}
        g = new_game("seasons", seed=seed, options=options)
        while not g.is_over:
            seat = g.to_act()[0]
            legal = g.legal_actions(seat)
            choice = player.choose_seen(g.seat_view(seat), legal, rng)
            assert choice == player.choose(g.view(seat, labels=False, for_player=True), legal, rng)
            if len(legal) > 1:
                assert choice == reference_move(seat, g.teams, g.draft, g.passes,
                                                 g.exchanges[1 - seat] < options["max_exchanges"])
                decisions += 1
            g.apply(seat, choice if rng.random() < 0.5 else rng.choice(legal))
    assert decisions > 1000


def test_run_starts_find_every_run_of_three_of_one_kind():
    """``cards & cards >> 1 & cards >> 2 & RUN_STARTS`` is non-zero exactly when the cards hold a meld of three."""
    rng = random.Random(3)
    deck = full_deck("clubs") + [r + "C" for r in "23456789TJQKA"]
    for _ in range(20000):
        cards = rng.sample(deck, rng.randint(1, 13))
        mask = _mask(cards)
        has_run = max(longest_meld(cards, DEFENDER_RANKS), longest_meld(cards, STRIKER_RANKS)) >= 3
        assert bool(mask & mask >> 1 & mask >> 2 & RUN_STARTS) == has_run, cards


# ---- properties ---------------------------------------------------------------------------------

@settings(max_examples=60)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10**6), min_size=200, max_size=200),
       suit=st.sampled_from(["clubs", "diamonds", "hearts", "spades"]))
def test_cards_are_always_accounted_for_and_teams_stay_at_five(seed, choices, suit):
    g = new_game("seasons", seed=seed, options={"removed_suit": suit})
    deck = sorted(full_deck(suit))
    i = 0
    while not g.is_over:
        cards = [*g.teams[0], *g.teams[1], *g.draft, *g.stock, *g.retired]
        assert sorted(cards) == deck
        assert len(g.teams[0]) == len(g.teams[1]) == 5
        assert len(g.draft) <= 3
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        g.apply(seat, legal[choices[i % len(choices)] % len(legal)])
        i += 1
    out = g.outcome()
    assert out.points[0] + out.points[1] == g.season
    # The match ends after the 11th season, or as soon as a side has more than 5½ (#14) -- and not before.
    assert g.season == 11 or max(out.points) > Fraction(11, 2)
    before = [r["winner"] for r in g.results[:-1]]
    assert max(before.count(0) + before.count(None) / 2, before.count(1) + before.count(None) / 2) <= 5.5
    assert sorted([*g.teams[0], *g.teams[1], *g.draft, *g.stock, *g.retired]) == deck
