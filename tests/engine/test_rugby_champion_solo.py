"""Rugby Champion solo: a scripted-deck scenario for each rule of the solo chapter."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalAction, ScriptedChance, new_game, replay
from engine.players import RandomPlayer, make_player, play_match
from engine.rugby_champion_solo.cards import DECK, DECK_FILE, load_deck
from engine.rugby_champion_solo.rules import RugbyChampionSoloState

RS = "rugby-champion-solo"


def pile(*head):
    """A full draw-pile order: ``head`` first (line L2, L1, A, R1, then the hand...), the rest after."""
    assert len(set(head)) == len(head)
    return list(head) + [c for c in DECK.players if c not in head]


def support(*head, aside=()):
    """A support-pile order: ``head`` first; ``aside`` are Kickers set aside (not in the pile)."""
    return list(head) + [c for c in DECK.supports if c not in head and c not in aside]


def game(line, hand, *more, supports=("keep",) * 8, halves=2):
    """A game whose line is ``line`` (L2, L1, A, R1) and hand ``hand``, then ``more`` pile cards."""
    outcomes = [pile(*line, *hand, *more), *supports]
    return new_game(RS, chance=ScriptedChance(outcomes), options={"halves": halves})


LINE = ("wing-1", "wing-2", "scrum-half-1", "centre-1")


def test_deck_file_carries_what_the_rules_need():
    assert len(DECK.players) == 36 and len(DECK.supports) == 10
    prop = DECK.players["prop-1"]
    assert prop.values == {"physical": 6, "pass": 3, "speed": 3, "kick": 3}
    assert (prop.red, prop.arrow, prop.whistles, prop.goal) == ("physical", "left", 1, False)
    assert DECK.players["referee-1"].referee
    assert sum(c.goal for c in DECK.players.values()) == 4
    assert {s.effect for s in DECK.supports.values()} == {"kicker", "foul", "support"}


def test_bad_deck_file_is_rejected(tmp_path):
    original = DECK_FILE.read_text()
    text = original.replace('arrows = ["left", "right", "right", "left"]', 'arrows = ["left"]', 1)
    assert text != original
    bad = tmp_path / "cards.toml"
    bad.write_text(text)
    with pytest.raises(ValueError, match="arrows"):
        load_deck(bad)


def test_attack_starts_with_a_physical_challenge_on_the_advanced_card():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"])
    assert g.to_act() == (0,) and g.phase == "attack"
    assert g.legal_actions(0) == sorted(f"play:{c}:physical" for c in ["prop-1", "lock-1", "hooker-1", "number-8-1"])
    assert g.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        g.apply(0, "play:prop-1:pass")
    with pytest.raises(IllegalAction):
        g.apply(1, "play:prop-1:physical")


def test_win_by_two_is_a_try_and_no_goal_card_means_no_conversion():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], supports=[support("kicker-1"), "keep"])
    g.apply(0, "play:prop-1:physical")  # 6 v Scrum-half 3; the support draw is a Kicker: set aside
    assert g.score == [5, 0] and g.tries == [1, 0]
    assert g.kickers_aside == ["kicker-1"]
    assert g.phase == "attack" and g.slot == 2 and len(g.hand) == 4  # a new attack phase


def test_try_with_a_goal_card_in_hand_may_be_converted():
    g = game(LINE, ["prop-1", "fly-half-1", "hooker-1", "number-8-1"], supports=[support("kicker-1"), "keep"])
    g.apply(0, "play:prop-1:physical")
    assert g.phase == "conversion"
    assert g.legal_actions(0) == ["convert:fly-half-1", "no-convert"]
    g.apply(0, "convert:fly-half-1")
    assert g.score == [7, 0] and g.conversions[0] == 1
    assert "fly-half-1" in g.discard and g.phase == "attack"


def test_win_by_one_on_the_advanced_card_lets_you_choose_the_side_with_right_card_restrictions():
    line = ("wing-1", "wing-2", "lock-2", "centre-1")
    g = game(line, ["prop-1", "hooker-1", "lock-1", "number-8-1"], supports=[support("kicker-1")])
    g.apply(0, "play:prop-1:physical")  # 6 v 5: win by 1
    legal = g.legal_actions(0)
    assert "play:hooker-1:kick:left" in legal and "play:hooker-1:speed:left" in legal
    assert "play:hooker-1:pass:right" in legal and "play:hooker-1:physical:right" in legal
    assert "play:hooker-1:kick:right" not in legal and "play:hooker-1:speed:right" not in legal
    assert g.view(0)["board"]["choose_direction"] is True


def test_win_by_one_keeps_shifting_the_same_way_and_off_the_line_the_ball_goes_out():
    line = ("wing-1", "wing-2", "lock-2", "prop-2")
    g = game(line, ["prop-1", "prop-3", "lock-1", "number-8-1"], "hooker-3",
             supports=[support("kicker-1"), "keep"])
    g.apply(0, "play:prop-1:physical")  # 6 v 5 on the advanced card (Kicker drawn, set aside)
    g.apply(0, "play:prop-3:physical:right")  # 6 v Prop 6: draw, arrow right off the line
    assert g.phase == "lineout"
    assert g.setpiece == {"kind": "lineout", "hidden": "hooker-3"}
    # Win by 1 on the left card keeps going left.
    g2 = game(("wing-1", "lock-3", "lock-2", "prop-2"), ["prop-1", "prop-3", "lock-1", "number-8-1"],
              supports=[support("kicker-1"), "keep"])
    g2.apply(0, "play:prop-1:physical")
    g2.apply(0, "play:prop-3:physical:left")  # 6 v 5 again: shift on, same direction
    assert g2.slot == 0 and g2.direction == -1 and g2.forced_type is None
    assert "play:lock-1:kick" in g2.legal_actions(0)


def test_a_draw_takes_direction_from_the_arrow_and_type_from_the_red_value():
    line = ("wing-1", "centre-2", "flanker-2", "centre-1")
    g = game(line, ["lock-1", "number-8-1", "hooker-1", "prop-1"])
    g.apply(0, "play:lock-1:physical")  # 5 v Flanker 5: draw; the Flanker's arrow points left, red Physical
    assert (g.slot, g.direction, g.forced_type) == (1, -1, "physical")
    g.apply(0, "play:number-8-1:physical")  # 5 v Centre 5: draw; arrow left, red Speed
    assert (g.slot, g.forced_type) == (0, "speed")
    assert g.legal_actions(0) == ["play:hooker-1:speed", "play:prop-1:speed"]


def test_red_type_not_allowed_on_the_right_card_becomes_physical():
    line = ("wing-1", "wing-2", "centre-1", "lock-2")
    g = game(line, ["centre-3", "lock-1", "hooker-1", "prop-1"])
    g.apply(0, "play:centre-3:physical")  # 5 v 5: arrow right, red Speed, but the right card takes no Speed
    assert (g.slot, g.forced_type) == (3, "physical")


def test_lose_by_one_gives_the_advantage_and_a_second_one_is_a_try_converted_by_a_kicker():
    line = ("wing-1", "wing-2", "prop-2", "prop-4")
    g = game(line, ["lock-1", "lock-3", "hooker-1", "number-8-1"], supports=[support("kicker-1"), "keep"])
    g.apply(0, "play:lock-1:physical")  # 5 v 6: lose by 1, arrow right
    assert g.advantage == 1 and g.slot == 3 and g.forced_type == "physical"
    g.apply(0, "play:lock-3:physical")  # 5 v 6 again: second advantage
    assert g.score == [0, 7] and g.tries == [0, 1] and g.conversions[1] == 1
    assert g.advantage is None


def test_lose_by_two_is_a_try_for_the_non_player_unconverted_without_a_kicker():
    g = game(("wing-1", "wing-2", "prop-2", "centre-1"), ["fly-half-1", "lock-1", "hooker-1", "number-8-1"],
             supports=[support("rucking-1"), "keep"])
    g.apply(0, "play:fly-half-1:physical")  # 3 v 6
    assert g.score == [0, 5] and g.tries == [0, 1] and g.conversions[1] == 0
    assert g.phase == "attack" and g.slot == 2


def test_kicker_set_aside_converts_a_later_try():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], "wing-3", "wing-4", "prop-2", "centre-2",
             supports=[support("kicker-1"), support("rucking-1", aside=["kicker-1"])])
    g.apply(0, "play:prop-1:physical")  # try; Kicker drawn and set aside
    # New phase: revealed advanced card replaced by wing-3; hand refilled with wing-4.
    assert g.line[2]["card"] == "wing-3" and "wing-4" in g.hand
    g.apply(0, "play:wing-4:physical")  # 4 v 4: draw, Wing-3 arrow left
    assert g.kickers_aside == ["kicker-1"]


def test_holder_of_the_advantage_losing_by_one_loses_it_and_the_non_player_does_not_gain_it():
    g = game(("wing-1", "wing-2", "prop-2", "centre-1"), ["lock-1", "lock-3", "hooker-1", "number-8-1"])
    g.advantage = 0  # the person holds the Advantage card (won at a lineout)
    g.apply(0, "play:lock-1:physical")  # 5 v 6
    assert g.advantage is None and g.score == [0, 0]


def test_support_blue_card_is_added_and_only_one_support_draw_per_phase():
    g = game(LINE, ["prop-1", "prop-3", "hooker-1", "number-8-1"], supports=[support("hand-off-1"), "keep"])
    g.apply(0, "play:prop-1:physical")  # 6 v 3 +2 (Hand-off) = 5: only a win by 1
    assert g.last["np_value"] == 5 and g.last["margin"] == 1 and g.score == [0, 0]
    assert g.support_drawn and len(g.support) == 9
    g.apply(0, "play:prop-3:physical:left")  # 6 v Wing-2 4: try, no second support draw this phase
    assert g.score == [5, 0] and g.last["support"] is None


def test_deliberate_foul_stops_the_phase_for_a_scrum():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], "wing-3", "prop-3",
             supports=[support("deliberate-foul-1"), support("rucking-1"), "keep"])
    g.apply(0, "play:prop-1:physical")  # would be a try, but the Non-player commits a deliberate foul
    assert g.score == [0, 0] and g.phase == "scrum"
    assert g.setpiece == {"kind": "scrum", "hidden": "wing-3"}
    assert sorted(g.hand) == ["hooker-1", "lock-1", "number-8-1", "prop-3"]  # refilled to 4
    # Scrum on Physical: Prop 6 + Lock 5 = 11 v Scrum 6 + Wing 4 = 10; Rucking +1 makes it 11-11: nobody wins.
    g.apply(0, "pair:lock-1:prop-3")
    assert g.last["total"] == 11 and g.last["np_total"] == 11 and g.advantage is None
    # Play goes the way of the Non-player's scrum card (Wing-3: left): the attack starts on the left card.
    assert g.phase == "attack" and g.slot == 1 and g.direction == -1


def test_support_pile_is_reshuffled_at_every_phase():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], supports=[support("kicker-1"), "keep"])
    assert g.chance.position == 2  # the pile, then the support pile of the first phase
    g.apply(0, "play:prop-1:physical")
    assert g.chance.position == 3 and not g.support_drawn and len(g.support) == 9  # Kicker aside


def test_change_of_direction_replaces_revealed_cards_and_played_out_hand_starts_a_new_phase():
    g = game(("wing-1", "number-8-2", "flanker-2", "centre-1"), ["lock-1", "lock-2", "lock-3", "lock-4"],
             "flanker-3", "number-8-1", "hooker-2", "wing-3", "wing-4", "prop-1", "prop-2", "prop-3")
    g.apply(0, "play:lock-1:physical")  # 5 v 5, Flanker-2 arrow left
    g.apply(0, "play:lock-2:physical")  # 5 v Number 8-2 5, arrow right: change of direction
    assert [s["card"] for s in g.line] == ["wing-1", "flanker-3", "number-8-1", "centre-1"]
    assert not any(s["up"] for s in g.line) and g.slot == 2
    g.apply(0, "play:lock-3:physical")  # 5 v Number 8-1 5, arrow left: change again
    assert [s["card"] for s in g.line] == ["wing-1", "flanker-3", "hooker-2", "centre-1"] and g.slot == 1
    g.apply(0, "play:lock-4:physical")  # 5 v Flanker-3 5, arrow left: the hand is played out
    assert g.phase == "attack" and g.slot == 2 and g.forced_type == "physical"
    # Unrevealed cards stayed; the revealed one was replaced; a fresh hand of four.
    assert [s["card"] for s in g.line] == ["wing-1", "wing-3", "hooker-2", "centre-1"]
    assert sorted(g.hand) == ["prop-1", "prop-2", "prop-3", "wing-4"]
    assert g.score == [0, 0]


def test_referee_cancels_a_whistled_card_and_against_two_whistles_starts_a_scrum():
    g = game(("wing-1", "wing-2", "prop-1", "centre-1"), ["referee-1", "lock-1", "hooker-1", "number-8-1"],
             supports=[support("rucking-1"), "keep"])
    g.apply(0, "play:referee-1:physical")  # Prop-1 has a whistle: cancelled, Referee 3 v 0 (+1 Rucking)
    assert g.last["np_value"] == 1 and g.score == [5, 0]
    g2 = game(("wing-1", "wing-2", "prop-3", "centre-1"), ["referee-1", "lock-1", "hooker-1", "number-8-1"])
    g2.apply(0, "play:referee-1:physical")  # Prop-3 has two whistles
    assert g2.phase == "scrum"
    g3 = game(("wing-1", "wing-2", "referee-2", "centre-1"), ["prop-1", "lock-1", "hooker-1", "number-8-1"],
              supports=[support("rucking-1"), "keep"])
    g3.apply(0, "play:prop-1:physical")  # the Non-player's Referee cancels your whistled Prop
    assert g3.score == [0, 5]


def test_lineout_win_gives_the_advantage_and_an_extra_card_next_phase():
    line = ("wing-1", "wing-2", "lock-2", "prop-2")
    g = game(line, ["prop-1", "prop-3", "scrum-half-1", "hooker-1"], "prop-4", "number-8-1", "centre-2",
             supports=[support("kicker-1"), support("rucking-1", aside=["kicker-1"]), "keep"])
    g.apply(0, "play:prop-1:physical")
    g.apply(0, "play:prop-3:physical:right")  # draw at the right edge: lineout
    assert g.phase == "lineout" and len(g.hand) == 4 and "number-8-1" in g.hand
    v = g.view(0)["board"]
    assert v["setpiece"] == {"kind": "lineout", "card": {"name": "Lineout", "type": "pass", "value": 6},
                             "hidden": True}
    assert "prop-4" not in json.dumps(v)
    # Pass: Scrum-half 6 + Hooker 5 = 11 v Lineout 6 + Prop 3 (+1 Rucking) = 10.
    g.apply(0, "pair:hooker-1:scrum-half-1")
    assert g.last["winner"] == 0 and g.advantage == 0
    assert g.phase == "attack" and len(g.hand) == 5  # one extra card after winning an advantage


def test_second_advantage_in_a_scrum_is_a_try():
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], "wing-3", "prop-3",
             supports=[support("deliberate-foul-1"), support("rucking-1"), "keep"])
    g.apply(0, "play:prop-1:physical")
    g.advantage = 0  # already holding the Advantage card
    g.apply(0, "pair:number-8-1:prop-3")  # 6 + 5 = 11 v 10 (+1) = 11: no winner
    assert g.score == [0, 0]
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], "wing-3", "prop-3",
             supports=[support("deliberate-foul-1"), support("kicker-1"), "keep"])
    g.apply(0, "play:prop-1:physical")
    g.advantage = 0
    g.apply(0, "pair:number-8-1:prop-3")  # 11 v 10: a second advantage: try
    assert g.score == [5, 0] and g.advantage is None


def test_halves_end_when_the_draw_pile_runs_out():
    g = play_match(new_game(RS, seed=4), {0: make_player(RS, "aware")})
    kinds = [e.kind for e in g.events]
    assert kinds.count("half_time") == 1 and kinds.count("full_time") == 1
    assert g.half == 2 and g.is_over and not g.pile and g.legal_actions(0) == []
    one = play_match(new_game(RS, seed=4, options={"halves": 1}), {0: RandomPlayer()})
    assert one.half == 1 and one.is_over
    out = g.outcome()
    assert out.points == tuple(g.score) and out.tries == tuple(g.tries)
    assert out.to_dict()["home"]["points"] == g.score[0]


def test_view_hides_the_piles_and_face_down_cards_and_is_json():
    g = new_game(RS, seed=9)
    v = g.view(0)
    text = json.dumps(v)
    hidden = [s["card"] for s in g.line] + g.pile
    for c in hidden:
        assert f'"{c}"' not in text
    assert [c["id"] for c in v["board"]["hand"]] == g.hand
    assert v["board"]["line"][2]["target"] and v["board"]["pile_count"] == len(g.pile)
    spectator = json.dumps(g.view(None))
    for c in g.hand:
        assert f'"{c}"' not in spectator
    assert g.describe_action("play:prop-1:physical:left") == "Prop on Physical (6), going left"
    assert g.describe_action("pair:lock-1:prop-1") == "Lock + Prop"
    assert g.describe_action("no-convert") == "No conversion"


def test_two_cards_of_one_name_in_the_hand_are_told_apart_by_their_marks():
    """The copies of a player differ in arrow, whistles and Goal symbol: with two Full-backs in the hand their
    buttons say which is which (they were two identical buttons doing different things)."""
    g = new_game(RS, seed=9)
    g.hand = ["full-back-1", "full-back-2", "prop-1"]
    first, second = (g.describe_action(f"play:full-back-{n}:kick") for n in (1, 2))
    assert first == "Full-back (arrow right, Goal symbol) on Kick (5)"
    assert second == "Full-back (arrow left) on Kick (5)"
    assert g.describe_action("convert:full-back-1") == "Convert with the Full-back (arrow right, Goal symbol)"
    assert g.describe_action("play:prop-1:physical:left") == "Prop on Physical (6), going left"  # one Prop: its name
    g.hand = ["full-back-1", "prop-1"]
    assert g.describe_action("play:full-back-1:kick") == "Full-back on Kick (5)"


def test_replay_and_round_trip_equal_live_play():
    g = play_match(new_game(RS, seed=12), {0: make_player(RS, "aware")})
    again = replay(RS, seed=12, options=g.options, actions=g.history)
    assert again.state_dict() == g.state_dict()
    loaded = RugbyChampionSoloState.from_dict(json.loads(json.dumps(g.to_dict())))
    assert loaded.state_dict() == g.state_dict() and loaded.outcome() == g.outcome()


def test_aware_player_is_a_fair_match_for_the_non_player_and_beats_random_play():
    aware = sum(play_match(new_game(RS, seed=s), {0: make_player(RS, "aware")}).outcome().winner == 0
                for s in range(60))
    rand = sum(play_match(new_game(RS, seed=s), {0: RandomPlayer()}).outcome().winner == 0 for s in range(60))
    assert 15 <= aware <= 45
    assert rand < aware


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32), choices=st.lists(st.integers(0, 10**6), min_size=50, max_size=50))
def test_cards_are_accounted_for_and_scores_add_up_in_random_play(seed, choices):
    g = new_game(RS, seed=seed)
    everything = sorted(DECK.players)
    i = 0
    while not g.is_over:
        held = [*g.pile, *g.discard, *g.hand, *[s["card"] for s in g.line if s["card"]]]
        if g.setpiece:
            held.append(g.setpiece["hidden"])
        assert sorted(held) == everything
        assert len(g.hand) <= 5 and len(g.support) + len(g.kickers_aside) <= len(DECK.supports)
        for side in (0, 1):
            assert g.score[side] == 5 * g.tries[side] + 2 * g.conversions[side]
        legal = g.legal_actions(0)
        g.apply(0, legal[choices[i % len(choices)] % len(legal)])
        i += 1
    assert g.half == 2 and g.to_act() == ()


def _to_lineout(hidden, *refill, supports):
    g = game(("wing-1", "wing-2", "lock-2", "prop-2"), ["prop-1", "prop-3", "scrum-half-1", "referee-1"],
             hidden, *refill, supports=supports)
    g.apply(0, "play:prop-1:physical")
    g.apply(0, "play:prop-3:physical:right")
    assert g.phase == "lineout"
    return g


def test_referee_in_a_lineout_cancels_a_whistled_hidden_card_or_calls_a_scrum():
    g = _to_lineout("flanker-3", "number-8-1", "centre-2",
                    supports=[support("kicker-1"), support("rucking-1", aside=["kicker-1"]), "keep"])
    g.apply(0, "pair:referee-1:scrum-half-1")  # Pass 3 + 6 = 9 v Lineout 6 + cancelled Flanker (+1 Rucking)
    assert (g.last["total"], g.last["np_total"], g.last["winner"]) == (9, 7, 0)
    g = _to_lineout("flanker-1", "number-8-1", "centre-2", "wing-3", supports=[support("kicker-1"), "keep", "keep"])
    g.apply(0, "pair:referee-1:scrum-half-1")  # Flanker-1 has two whistles: scrum
    assert g.phase == "scrum" and g.setpiece["hidden"] == "wing-3"


# ---- the book's example and issue 20's findings ---------------------------------------------------------------

@pytest.mark.parametrize(("mine", "result"), [("prop-1", 0), ("lock-1", -1)])
def test_book_example_equal_or_one_lower_goes_the_arrows_way_on_the_red_value(mine, result):
    # « Sur cet exemple de carte, si vous obtenez un score égal ou inférieur de 1 à la carte du « Non joueur » sur
    # le défi choisi, le prochain défi se déroulera du côté droit (sens de la flèche) et sur un défi Physique car
    # la valeur de Physique est sur fond rouge. » The Non-player's advanced card: Prop-2, arrow right, red Physical.
    assert (card_of("prop-2").arrow, card_of("prop-2").red) == ("right", "physical")
    g = game(("wing-1", "wing-2", "prop-2", "centre-1"), [mine, "hooker-1", "lock-3", "number-8-1"],
             supports=[support("kicker-1"), "keep"])
    g.apply(0, f"play:{mine}:physical")  # 6 v 6 (equal) or 5 v 6 (one lower)
    assert g.last["margin"] == result and g.score == [0, 0]
    assert (g.slot, g.direction, g.forced_type) == (3, 1, "physical")
    assert g.legal_actions(0) == sorted(f"play:{c}:physical" for c in g.hand)
    assert g.advantage == (1 if result == -1 else None)


def test_non_player_holding_the_advantage_loses_it_when_it_loses_by_one():
    # V2 (issue 20, finding 13): « Lorsqu'un joueur qui possède la carte Avantage perd un défi de 1, il perd sa
    # carte mais son adversaire ne la récupère pas » -- any player, the Non-player too.
    g = game(("wing-1", "wing-2", "lock-2", "centre-1"), ["prop-1", "hooker-1", "lock-1", "number-8-1"],
             supports=[support("kicker-1"), "keep"])
    g.advantage = 1  # the Non-player won the last lineout
    g.apply(0, "play:prop-1:physical")  # 6 v Lock 5: the Non-player loses by 1 (its support draw: a Kicker)
    assert g.last["margin"] == 1 and g.advantage is None and g.score == [0, 0]
    assert [e.kind for e in g.events if e.seat == 1][-1] == "advantage_lost"
    assert g.slot is None  # the person chooses where to go next


def test_non_player_referee_in_a_lineout_against_two_whistles_calls_a_scrum():
    # R2 (issue 20, finding 14): the Referee « joué contre une carte possédant 2 sifflets, alors une phase mêlée
    # débute » -- also when it is the Non-player's hidden lineout card and the person's card has two whistles.
    assert card_of("flanker-1").whistles == 2 and card_of("referee-2").referee
    g = _to_lineout("referee-2", "flanker-1", "number-8-1", "wing-3",
                    supports=[support("kicker-1"), "keep", "keep"])
    g.apply(0, "pair:flanker-1:scrum-half-1")
    assert g.phase == "scrum" and g.setpiece["hidden"] == "wing-3"
    assert g.last["note"] == "Referee: scrum" and g.advantage is None and g.score == [0, 0]


def test_the_play_after_a_scrum_stays_in_the_scrum_phase():
    # S3 (issue 20, finding 15): « Ensuite, le jeu part à droite ou à gauche ... Si aucun joueur ne parvient à
    # enchaîner 2 avantages, la phase est terminée et on revient à une phase d'attaque standard. » The play that
    # goes left after the scrum is still the scrum phase: no reshuffle of the support pile, no second support
    # draw, no refill of the hand; after it, a standard attack phase.
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], "wing-3", "prop-3",
             supports=[support("deliberate-foul-1"), support("rucking-1"), "keep"])
    g.apply(0, "play:prop-1:physical")  # the deliberate foul: scrum
    shuffles = g.chance.position
    g.apply(0, "pair:lock-1:prop-3")  # 11 v 10 +1 (Rucking, the scrum phase's support draw): nobody wins
    assert g.phase == "attack" and (g.slot, g.direction, g.forced_type) == (1, -1, "physical")
    assert sorted(g.hand) == ["hooker-1", "number-8-1"], "no refill: the hand the scrum left"
    assert g.chance.position == shuffles and g.support_drawn and g.phases == 2
    assert not g.line[2]["up"] and g.line[2]["card"] != "scrum-half-1"  # the revealed card was replaced
    g.apply(0, "play:hooker-1:physical")  # 5 v Wing-2 4: the Non-player loses, but has had its draw this phase
    assert g.last["support"] is None and g.last["margin"] == 1 and g.slot == 0
    g.apply(0, "play:number-8-1:pass")  # 5 v Wing-1 3: try
    assert g.score == [5, 0]
    # A standard attack phase: support pile reshuffled, hand refilled, on the advanced card.
    assert g.chance.position == shuffles + 1 and not g.support_drawn and g.phases == 3
    assert g.slot == 2 and g.direction is None and len(g.hand) == 4


def test_deliberate_foul_drawn_for_the_conversion_check_is_ignored():
    # N4 (issue 20, finding 16): after a Non-player try the support draw only looks for a Kicker; the try has
    # ended the phase, so a Deliberate Foul has no phase to stop: a new attack phase follows, not a scrum.
    g = game(("wing-1", "wing-2", "prop-2", "centre-1"), ["fly-half-1", "lock-1", "hooker-1", "number-8-1"],
             supports=[support("deliberate-foul-1"), "keep"])
    g.apply(0, "play:fly-half-1:physical")  # 3 v 6: the Non-player's try
    assert g.score == [0, 5] and g.conversions[1] == 0 and g.support_drawn is False
    assert [e.data.get("effect") for e in g.events if e.kind == "support"] == ["foul"]
    assert g.phase == "attack" and g.slot == 2


def test_unrevealed_line_cards_stay_after_a_lineout():
    # A8 (issue 20, finding 16): « A la fin d'une phase d'attaque, les cartes non dévoilées restent en jeu »; after
    # the lineout « relancez une phase d'attaque en plaçant 4 cartes adverses en ligne »: the line is made up to four.
    line = ("wing-1", "wing-2", "lock-2", "prop-2")
    g = game(line, ["prop-1", "prop-3", "scrum-half-1", "hooker-1"], "prop-4", "number-8-1", "centre-2",
             supports=[support("kicker-1"), support("rucking-1", aside=["kicker-1"]), "keep"])
    g.apply(0, "play:prop-1:physical")
    g.apply(0, "play:prop-3:physical:right")  # lineout
    g.apply(0, "pair:hooker-1:scrum-half-1")
    cards = [s["card"] for s in g.line]
    assert cards[:2] == ["wing-1", "wing-2"] and not any(s["up"] for s in g.line)
    assert "lock-2" in g.discard and "prop-2" in g.discard and not set(cards[2:]) & {"lock-2", "prop-2"}


def test_a_level_score_at_full_time_is_a_draw():
    # P5 (issue 20, finding 16): « Jouez les 2 mi-temps afin de déterminer les scores ainsi que le vainqueur »:
    # no tie-break is given (the DUEL rules are missing), so a level score stands as a draw.
    g = game(LINE, ["prop-1", "lock-1", "hooker-1", "number-8-1"], halves=1)
    g.score, g.tries = [0, 5], [0, 1]  # the Non-player scored a try earlier in the half
    g.pile.clear()  # ... and the draw pile is down to nothing
    g.apply(0, "play:prop-1:physical")  # 6 v Scrum-half 3: try, 5-5; the next phase needs a card: full time
    assert g.is_over and g.score == [5, 5] and g.to_act() == ()
    assert g.outcome().winner is None
    assert RugbyChampionSoloState.spec.result_from_outcome(g.outcome()).winner is None


def card_of(card_id):
    return DECK.players[card_id]
