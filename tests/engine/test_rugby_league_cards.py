"""Scenario tests for Rugby League with a 52-card deck, with scripted decks.

Ball indices: 0 home try line, 1-3 Home 1-3, 4-6 Away 3-1, 7 away try line.
"""

import json

import pytest

from engine import IllegalAction, ScriptedChance, new_game
from engine.chance import ChanceError
from engine.rugby_league_cards import card_name, parse_card, parse_cards
from engine.rugby_league_cards.rules import (
    AWAY,
    DROP_GOAL_OPEN,
    HOME,
    TRY,
    RugbyLeagueCardsState,
    card_words,
    drop_goal_open,
)
from engine.rugby_league_cards.script import Deck

HOME1, HOME2, HOME3, AWAY3, AWAY2, AWAY1 = 1, 2, 3, 4, 5, 6


class ScriptThenKeep(ScriptedChance):
    """A scripted deck that, once its script is spent, leaves reshuffled discards in their order."""

    def shuffle(self, items):
        if self.remaining == 0:
            self.draws += 1
            return list(items)
        return super().shuffle(items)


def tackle(state, home: int, away: int | None = None) -> None:
    """Both seats choose a face-down position (home first; the same position unless told)."""
    state.apply(0, f"card:{home}")
    state.apply(1, f"card:{home if away is None else away}")


def texts(state) -> list[str]:
    return [e.text for e in state.events]


def kinds(state) -> list[str]:
    return [e.kind for e in state.events]


# ---- card names -------------------------------------------------------------------------------

def test_card_names_are_compact_and_round_trip():
    assert [card_name(c) for c in parse_cards("7S 10D QH AC 2S")] == ["7S", "10D", "QH", "AC", "2S"]
    assert parse_card("ts") == parse_card("10S")
    assert sorted(card_name(c) for c in range(52)) == sorted({card_name(c) for c in range(52)})
    # Ranks run 2 (low) .. A (high): the card int order follows rank.
    assert parse_card("AS") > parse_card("KC") > parse_card("2C")
    with pytest.raises(ValueError, match="not a card name"):
        parse_card("1X")
    assert card_words(parse_card("QD")) == "queen of diamonds" and card_words(parse_card("7S")) == "7 of spades"


# ---- the book's worked example ----------------------------------------------------------------

def test_book_worked_example():
    deck = Deck().deal(home="7S 3H JC", away="5D QD QS").deal(home="4H 10S", away="8C JD")
    state = deck.game()
    assert state.ball == HOME1 and state.attacker == 0

    tackle(state, 1)  # 7S v 5D
    assert state.ball == HOME2 and state.lost == 0
    tackle(state, 2)  # 3H v QD
    assert state.ball == HOME3 and state.lost == 1
    tackle(state, 3)  # JC v QS: away play a queen twice running
    assert state.view(0)["phase"] == "penalty" and state.awarded == 0
    assert state.ball == HOME3, "the penalised round does not carry the ball"
    assert state.sets_done == 0, "a penalty does not end the set"
    assert state.legal_actions(0) == ["kick-for-touch", "tap-and-run"]
    state.apply(0, "kick-for-touch")
    assert state.ball == AWAY2 and state.lost == 0
    assert state.hands[0].count(-1) == 0 and len(state.hands[0]) == 6, "hands restored to six cards"

    tackle(state, 1)  # 4H v 8C
    assert state.ball == AWAY1 and state.lost == 1
    tackle(state, 2)  # 10S v JD: second lost tackle
    assert "END OF SET" in texts(state)[-1]
    assert state.view(1)["board"]["last_round"] == [{"home": "10S", "away": "JD"}], "shown after the deal"
    assert state.ball == AWAY1, "already on the defence's 1-space: the kick does not move it"
    assert state.attacker == 1 and state.lost == 0 and state.sets_done == 1
    assert state._progress() == 1, "the away team attack from their own 1-space"
    assert state.score == [0, 0]


# ---- penalties (the book's two examples) ------------------------------------------------------

def test_book_penalty_example_tie_then_redraw_repeats_rank():
    # 6-6 tie, the redraw is 8-6: the defence have played a six twice running.
    state = Deck().deal(home="6H", away="6D").draw("8S 6C").game()
    tackle(state, 1)
    assert state.view(0)["phase"] == "penalty"
    assert state.awarded == 0, "the attacking team win the penalty"
    assert state.stats["penalties_conceded"] == [0, 1]
    assert state.ball == HOME1


def test_book_penalty_example_not_consecutive():
    # 10-10 tie, redraw 4-7 (the defence win), then the next turn 10-3: not a penalty.
    state = Deck().deal(home="10H 10S", away="10D 3H").draw("4S 7C").game()
    tackle(state, 1)
    assert state.lost == 1 and state.ball == HOME2
    tackle(state, 2)
    assert state.view(0)["phase"] == "tackle"
    assert state.stats["penalties_conceded"] == [0, 0]
    assert state.ball == HOME3 and state.lost == 1


def test_tie_break_draw_counts_for_the_next_turn():
    # 10-10, redraw 4-7, then the home team turn over a four: the drawn 4 was their last card.
    state = Deck().deal(home="10H 4D", away="10D 3H").draw("4S 7C").game()
    tackle(state, 1)
    tackle(state, 2)
    assert state.view(0)["phase"] == "penalty" and state.awarded == 1


def test_penalty_against_the_attack_hands_over_possession():
    state = Deck().deal(home="9H 9D", away="2C 5D").deal().game()
    tackle(state, 1)
    assert state.ball == HOME2
    tackle(state, 2)  # home repeat a nine
    assert state.awarded == 1 and state.attacker == 1
    # The away team are in their opponent's half (Home 2 is the away team's opponent's 2-space).
    assert state.legal_actions(1) == ["kick-for-goal", "tap-and-run"]
    assert state.legal_actions(0) == []
    state.apply(1, "tap-and-run")
    assert state.attacker == 1 and state.ball == HOME2 and state.lost == 0
    assert state.view(1)["phase"] == "tackle"


def test_a_new_set_forgets_the_previous_rank():
    # I5 (issue 20, finding 9): the rule comes in at a set's "Second Tackle"; a turnover starts a new set, so
    # away's ace on the first tackle of their set is no repeat of the ace that ended home's set.
    state = Deck().deal(home="2S 3S", away="KS AS").deal(home="5H", away="AD").game()
    tackle(state, 1)
    tackle(state, 2)  # second lost tackle: kicked from Home 2 to Away 3; away's last card was an ace
    assert state.attacker == 1 and state.sets_done == 1 and state.ball == AWAY3
    tackle(state, 1)  # 5H v AD: away win the tackle
    assert state.awarded == -1 and state.stats["penalties_conceded"] == [0, 0]
    assert state.attacker == 1 and state.ball == HOME3 and state.lost == 0


def test_the_memory_runs_on_across_a_penalty_in_the_same_set():
    # I5: a penalty does not end the set ("but not when a penalty is conceded by either side"): home repeat a
    # nine (penalty to away, who tap and run), then away repeat the five they played before the penalty.
    state = Deck().deal(home="9H 9D", away="2C 5D").deal(home="4H", away="5S").game()
    tackle(state, 1)
    tackle(state, 2)
    assert state.awarded == 1 and state.sets_done == 0
    state.apply(1, "tap-and-run")
    tackle(state, 1)  # 4H v 5S: away play a five twice in a row
    assert state.awarded == 0 and state.stats["penalties_conceded"] == [1, 1]
    assert state.sets_done == 0


def test_both_sides_repeat_penalties_cancel():
    # I6: home 7 then 7, away J then J in the same round: no penalty, the cards decide (J beats 7).
    state = Deck().deal(home="7S 7H", away="JS JH").game()
    tackle(state, 1)
    tackle(state, 2)
    assert state.view(0)["phase"] == "tackle"
    assert "penalties-cancel" in kinds(state)
    assert state.stats["penalties_conceded"] == [0, 0]
    assert state.attacker == 1 and state.sets_done == 1


def test_restart_after_a_kick_forgets_the_previous_rank():
    # I5b: home's last open-play card before the drop goal was a jack; after the restart a jack is fine.
    deck = (Deck().deal(home="3S 5S 7S 9S JS", away="2C 4C 6C 8C 10C").kick(home="AH", away="2H")
            .deal(home="JD", away="QD"))
    state = deck.game()
    for n in range(1, 6):
        tackle(state, n)
    state.apply(0, "drop-goal")
    tackle(state, 1)
    assert state.score == [1, 0] and state.ball == HOME1
    tackle(state, 1)
    assert state.view(0)["phase"] == "tackle" and state.stats["penalties_conceded"] == [0, 0]


def test_no_penalty_in_a_kick_at_goal():
    # I7: the kicker turns over two aces in a row in a conversion: no penalty, the conversion is good.
    deck = Deck().deal(home="3S 5S 7S 9S JS 2D", away="2C 4C 6C 8C 10C QC").kick(home="AH AD", away="3H KH")
    state = deck.game()
    for n in range(1, 7):
        tackle(state, n)
    tackle(state, 1)
    tackle(state, 2)
    assert state.score == [6, 0] and state.stats["penalties_conceded"] == [0, 0]


def test_kick_for_touch_only_in_own_half_and_goal_only_in_opponents_half():
    state = Deck().deal(home="9H 8H 9D", away="2C 3C 4C").deal().game()
    tackle(state, 1)
    tackle(state, 2)
    tackle(state, 3)  # nothing repeated: 9, 8, 9 is not consecutive
    assert state.ball == AWAY3 and state.view(0)["phase"] == "tackle"
    state = Deck().deal(home="9H 8H 8D", away="2C 3C 4C").deal().game()
    tackle(state, 1)
    tackle(state, 2)
    tackle(state, 3)  # home repeat an eight at Home 3: penalty to away, in away's opponent's half
    assert state.awarded == 1 and state.legal_actions(1) == ["kick-for-goal", "tap-and-run"]
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply(1, "kick-for-touch")


# ---- tackles and sets -------------------------------------------------------------------------

def test_ball_advances_on_a_lost_tackle():
    state = Deck().deal(home="2S", away="AS").game()
    tackle(state, 1)
    assert state.ball == HOME2 and state.lost == 1 and state.attacker == 0


def test_tie_broken_by_repeated_draws():
    state = Deck().deal(home="5S", away="5H").draw("9S 9H").draw("KD 2C").game()
    tackle(state, 1)
    assert state.ball == HOME2 and state.lost == 0
    assert state.view(0)["board"]["last_round"] == [{"home": "5S", "away": "5H"}, {"home": "9S", "away": "9H"},
                                           {"home": "KD", "away": "2C"}]
    assert len(state.pile) == 52 - 12 - 4
    assert state.events[-1].data["draws"] == [["9S", "9H"], ["KD", "2C"]]


def test_tie_break_draws_compare_ranks_only():
    state = Deck().deal(home="5S", away="5H").draw("2S 2H").draw("3D AC").game()
    tackle(state, 1)
    assert state.lost == 1


def test_second_lost_tackle_kicks_two_spaces_without_advancing():
    # I1/I2: lose at Home 1 (advance to Home 2), lose again: kick from Home 2 to Away 3 (not Away 2).
    state = Deck().deal(home="2S 3S", away="KS AS").game()
    tackle(state, 1)
    assert state.ball == HOME2
    tackle(state, 2)
    assert state.ball == AWAY3
    assert state.attacker == 1 and state._progress() == 3 and state.lost == 0
    assert state.sets_done == 1 and state.score == [0, 0]


def test_kick_forward_stops_at_the_defences_one_space():
    # Kick for touch to Away 2, then two lost tackles: the first carries to Away 1, the kick stays.
    state = Deck().deal(home="7S 3H JC", away="5D QD QS").deal(home="4H 10S", away="8C JD").game()
    for position in (1, 2, 3):
        tackle(state, position)
    state.apply(0, "kick-for-touch")
    tackle(state, 1)
    tackle(state, 2)
    assert state.ball == AWAY1 and state.attacker == 1


def test_kick_capped_from_away_two():
    state = Deck().deal(home="8S 9S 10S 2S 3S", away="2C 3C 4C KS AS").game()
    tackle(state, 1)
    tackle(state, 2)
    tackle(state, 3)
    assert state.ball == AWAY3
    tackle(state, 4)
    assert state.ball == AWAY2 and state.lost == 1
    tackle(state, 5)
    assert state.ball == AWAY1 and state.attacker == 1 and state.score == [0, 0]


def test_try_with_no_tackle_lost_needs_one_conversion_win():
    deck = Deck().deal(home="3S 5S 7S 9S JS KS", away="2C 4C 6C 8C 10C QC").kick(home="AH", away="2H")
    state = deck.game()
    for position in range(1, 7):
        tackle(state, position)
    assert state.score == [4, 0] and state.tries == [1, 0]
    assert state.view(0)["board"]["contest"] == {"kind": "conversion", "kicker": "home", "wins_needed": 1, "wins": 0,
                                        "rounds": 0}
    assert state.legal_actions(0) == ["card:1", "card:2", "card:3"]
    tackle(state, 1)
    assert state.score == [6, 0] and state.stats["conversions"] == [1, 0]
    # The scorers restart as the attack from their own 1-space; one set played.
    assert state.attacker == 0 and state.ball == HOME1 and state.sets_done == 1
    assert state.view(0)["phase"] == "tackle" and len(state.hands[0]) == 6


def test_try_with_one_tackle_lost_needs_two_conversion_wins():
    deck = Deck().deal(home="3S 5S 7S 9S JS 2D", away="2C 4C 6C 8C 10C QC").kick(home="AH 2H", away="3H KH")
    state = deck.game()
    for position in range(1, 7):
        tackle(state, position)
    assert state.score == [4, 0], "a lost tackle still carries the ball over the line"
    assert state.view(0)["board"]["contest"]["wins_needed"] == 2
    tackle(state, 1)  # AH v 3H: 1 of 2
    assert state.score == [4, 0]
    tackle(state, 2)  # 2H v KH: 1 win, one round left -> still possible
    assert state.view(0)["phase"] == "contest"
    state = deck.game()
    for position in range(1, 7):
        tackle(state, position)
    tackle(state, 2)  # 2H v KH
    tackle(state, 1)  # AH v 3H
    assert state.view(0)["phase"] == "contest"


def test_missed_conversion_stops_when_it_cannot_succeed():
    deck = Deck().deal(home="3S 5S 7S 9S JS 2D", away="2C 4C 6C 8C 10C QC").kick(home="2H 3H", away="KH AH")
    state = deck.game()
    for position in range(1, 7):
        tackle(state, position)
    tackle(state, 1)
    tackle(state, 2)  # two rounds lost: two wins of three are out of reach
    assert state.score == [4, 0] and state.stats["conversions"] == [0, 0]
    assert state.attacker == 0 and state.ball == HOME1 and state.view(0)["phase"] == "tackle"


def _to_penalty_at(progress_target: int):
    """Home win tackles up to ``progress_target``, then away repeat a rank: penalty to home there."""
    wins = progress_target - 1
    home = ["3S", "5S", "7S", "9S", "JS"][:wins] + ["KS"]
    away = ["2C", "4C", "6C", "8C", "10C"][:wins]
    away.append(away[-1][:-1] + "D")
    return " ".join(home), " ".join(away)


@pytest.mark.parametrize(("position", "need"), [(AWAY3, 3), (AWAY2, 2), (AWAY1, 1)])
def test_penalty_goal_wins_needed_by_field_position(position, need):
    home, away = _to_penalty_at(position)
    kick_home = " ".join(["AH", "KH", "QH"][:need])
    kick_away = " ".join(["2H", "3H", "4H"][:need])
    state = Deck().deal(home=home, away=away).kick(home=kick_home, away=kick_away).game()
    for n in range(1, position + 1):
        tackle(state, n)
    assert state.ball == position and state.awarded == 0
    assert state.legal_actions(0) == ["kick-for-goal", "tap-and-run"]
    state.apply(0, "kick-for-goal")
    assert state.view(0)["board"]["contest"]["wins_needed"] == need
    for n in range(1, need + 1):
        tackle(state, n)
    assert state.score == [2, 0] and state.stats["penalty_goals"] == [1, 0]
    assert state.attacker == 0 and state.ball == HOME1 and state.sets_done == 1


def test_missed_penalty_goal_restarts_the_kickers_from_their_two_space():
    home, away = _to_penalty_at(AWAY2)
    state = Deck().deal(home=home, away=away).kick(home="2H 3H", away="AH KH").deal().game()
    for n in range(1, AWAY2 + 1):
        tackle(state, n)
    state.apply(0, "kick-for-goal")
    tackle(state, 1)
    tackle(state, 2)
    assert state.score == [0, 0]
    assert state.attacker == 0 and state.ball == HOME2 and state.lost == 0
    assert state.sets_done == 0, "I13: no points and no change of possession: the set clock stands"
    assert len(state.hands[0]) == 6


def test_tap_and_run_from_the_one_space_scores_next_tackle():
    home, away = _to_penalty_at(AWAY1)
    state = Deck().deal(home=home, away=away).deal(home="2H", away="AH").game()
    for n in range(1, AWAY1 + 1):
        tackle(state, n)
    state.apply(0, "tap-and-run")
    assert state.ball == AWAY1 and state.lost == 0
    tackle(state, 1)  # lost, but the ball still advances: try
    assert state.score == [4, 0]
    assert state.view(0)["board"]["contest"]["wins_needed"] == 2


def test_drop_goal_only_in_the_opponents_half():
    state = Deck().deal(home="3S 5S 7S", away="2C 4C 6C").kick(home="AH", away="2H").game()
    assert "drop-goal" not in state.legal_actions(0)
    tackle(state, 1)
    tackle(state, 2)
    assert state.ball == HOME3 and "drop-goal" not in state.legal_actions(0)
    with pytest.raises(IllegalAction):
        state.apply(0, "drop-goal")
    tackle(state, 3)
    assert state.ball == AWAY3
    assert state.legal_actions(0)[-1] == "drop-goal"
    assert "drop-goal" not in state.legal_actions(1), "only the attack may go for a drop goal"
    state.apply(0, "drop-goal")
    assert state.view(0)["board"]["contest"]["wins_needed"] == 3
    assert state.to_act() == (0, 1)


def test_the_drop_goal_table_is_the_rule_in_the_opponents_half():
    """The blind rounds and the legal actions look ``DROP_GOAL_OPEN`` up instead of calling ``drop_goal_open``."""
    for attacker in (HOME, AWAY):
        for ball in range(TRY + 1):
            assert DROP_GOAL_OPEN[attacker][ball] == drop_goal_open(attacker, ball)
    assert [drop_goal_open(HOME, ball) for ball in range(TRY + 1)] == [False] * 4 + [True] * 4
    assert [drop_goal_open(AWAY, ball) for ball in range(TRY + 1)] == [True] * 4 + [False] * 4


def test_drop_goal_success_and_restart():
    state = Deck().deal(home="3S 5S 7S 9S JS", away="2C 4C 6C 8C 10C").kick(home="AH", away="2H").game()
    for n in range(1, 6):
        tackle(state, n)
    assert state.ball == AWAY1
    state.apply(0, "drop-goal")
    tackle(state, 1)
    assert state.score == [1, 0] and state.stats["drop_goals"] == [1, 0]
    assert state.attacker == 0 and state.ball == HOME1 and state.sets_done == 1


def test_missed_drop_goal_hands_over_at_the_defences_two_space():
    state = Deck().deal(home="3S 5S 7S 9S", away="2C 4C 6C 8C").kick(home="2H 3H", away="AH KH").game()
    for n in range(1, 5):
        tackle(state, n)
    state.apply(0, "drop-goal")
    tackle(state, 1)
    tackle(state, 2)
    assert state.score == [0, 0]
    assert state.attacker == 1 and state.ball == AWAY2 and state._progress() == 2
    assert state.sets_done == 1


def test_drop_goal_withdraws_a_defenders_secret_choice():
    # I9: the defence has already chosen; the attack calls a drop goal instead of choosing.
    state = Deck().deal(home="3S 5S 7S", away="2C 4C 6C").kick(home="AH", away="2H").game()
    for n in range(1, 4):
        tackle(state, n)
    state.apply(1, "card:4")
    assert state.to_act() == (0,)
    state.apply(0, "drop-goal")
    assert state.view(0)["phase"] == "contest" and state.to_act() == (0, 1)
    assert all(e.data.get("position") is None for e in state.events), "the withdrawn choice is never told"


# ---- the blind choice stays hidden ------------------------------------------------------------

def test_first_choice_is_hidden_from_the_other_seat():
    state = Deck().deal(home="7S", away="5D").game()
    before = state.view(1)
    events_before = state.visible_events(1)
    state.apply(0, "card:3")
    after = state.view(1)
    assert after.pop("to_act") == [1] and before.pop("to_act") == [0, 1]
    assert after == before
    assert state.visible_events(1) == events_before
    assert state.view(0)["board"]["your_choice"] == 3 and state.view(1)["board"]["your_choice"] is None
    assert state.view(None)["board"]["your_choice"] is None
    with pytest.raises(IllegalAction, match="not home's turn"):
        state.apply(0, "card:1")


def test_view_never_shows_a_face_down_card():
    state = Deck().deal(home="7S 3H", away="5D QD").game()
    names = {card_name(c) for row in state.hands for c in row}
    for seat in (0, 1, None):
        view = state.view(seat)
        text = json.dumps(view)
        assert view["board"]["rows"] == {"home": [True] * 6, "away": [True] * 6}
        assert not any(f'"{n}"' in text for n in names)
    tackle(state, 1)
    view = state.view(1)
    board = view["board"]
    assert board["last_round"] == [{"home": "7S", "away": "5D"}]
    assert board["rows"]["home"] == [False, True, True, True, True, True]
    assert board["ball_label"] == "Home 2" and board["tackles_lost"] == 0 and board["set"] == 1


def test_illegal_actions_are_named():
    state = Deck().deal(home="7S", away="5D").game()
    tackle(state, 1)
    with pytest.raises(IllegalAction, match="'card:1' is not a legal action"):
        state.apply(0, "card:1")  # that position has been played
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply(0, "kick-for-touch")
    with pytest.raises(IllegalAction, match="not a legal action"):
        state.apply(1, "card:7")


# ---- halves, full time and extra time ---------------------------------------------------------

def test_half_time_and_full_time_after_the_sets():
    # One set a half: home lose two tackles (set 1 over -> half time), the away team start the second
    # half from their own 1-space, lose two tackles -> full time.
    # The house rule that lets a level match stand (I15): without it, extra time.
    state = (Deck().deal(home="2S 3S", away="KS AS").deal(home="KD QD", away="2D 3D")
             .game(sets_per_half=1, extra_time=False))
    tackle(state, 1)
    tackle(state, 2)
    assert "half-time" in kinds(state)
    assert state.attacker == 1 and state.ball == AWAY1 and state.period == 1
    tackle(state, 1)
    tackle(state, 2)
    assert state.is_over and state.to_act() == ()
    assert state.outcome().winner is None and "full-time" in kinds(state)
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(0, "card:3")


def test_a_level_match_goes_to_extra_time_by_default_and_golden_point_wins():
    # I15 (issue 20, finding 8): "If it is a tie, extra time (5 sets each way, or until any points are scored) is
    # played" -- by default; only the house rule extra_time=False lets a level match end drawn.
    deck = (Deck().deal(home="2S 3S", away="KS AS").deal(home="KD QD", away="2D 3D")
            .deal(home="3C 5C 7C 9C JC KC", away="2C 4C 6C 8C 10C QC"))
    state = deck.game(sets_per_half=1)
    assert state.options["extra_time"] is True
    for _ in range(2):
        tackle(state, 1)
        tackle(state, 2)
    assert not state.is_over and state.period == 2 and "extra-time" in kinds(state)
    assert state.attacker == 0 and state.ball == HOME1
    for n in range(1, 7):
        tackle(state, n)
    # Golden point: the try ends the match at once, without a conversion.
    assert state.is_over and state.score == [4, 0] and state.outcome().winner == 0
    assert "GOLDEN POINT" in texts(state)[-1]


def test_extra_time_halves_change_ends_and_play_on_while_level():
    deck = (Deck().deal(home="2S 3S", away="KS AS").deal(home="KD QD", away="2D 3D")
            .deal(home="2H 3H", away="KH AH").deal(home="10S 9S", away="4D 5D"))
    # Five deals need more than 52 cards: after the script, the reshuffled discards keep their order.
    chance = ScriptThenKeep(deck.outcomes())
    state = new_game("rugby-league-cards", options={"sets_per_half": 1, "extra_time": True, "extra_time_sets": 1},
                     chance=chance)
    for _ in range(3):
        tackle(state, 1)
        tackle(state, 2)
    # Regulation (2 sets) and the first extra-time half (1 set) are scoreless: away start the next half.
    assert state.period == 3 and state.attacker == 1 and state.ball == AWAY1
    tackle(state, 1)
    tackle(state, 2)
    assert state.period == 4 and not state.is_over and state.attacker == 0


def test_options_are_validated():
    with pytest.raises(ValueError, match="at least 1"):
        new_game("rugby-league-cards", options={"sets_per_half": 0})
    with pytest.raises(ValueError, match="unknown option"):
        new_game("rugby-league-cards", options={"halves": 3})


# ---- the pile -----------------------------------------------------------------------------------

def test_pile_is_refilled_from_the_discards():
    # I11: play a seeded game until the pile empties; the next draw reshuffles the discards.
    state = new_game("rugby-league-cards", seed=7)
    while "reshuffle" not in kinds(state):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    event = next(e for e in state.events if e.kind == "reshuffle")
    assert event.data["cards"] > 0
    assert len(state.pile) + len(state.discards) + len(state.table) + sum(
        1 for row in state.hands for c in row if c >= 0) == 52


def test_pile_refill_uses_tied_cards_as_a_last_resort():
    # I11, the extreme case: pile and discards empty, only tied cards on the table.
    state = new_game("rugby-league-cards", seed=1)
    state.table = state.discards + state.pile
    state.pile, state.discards = [], []
    table = list(state.table)
    card = state._draw()
    assert card in table and state.table == [] and sorted(state.pile + [card]) == sorted(table)
    assert state.events[-1].kind == "reshuffle"


def test_scripted_deck_refuses_impossible_cards():
    # A stacked deck must hold each of the 52 cards once: the seven of spades cannot come twice.
    seven = parse_card("7S")
    with pytest.raises(ChanceError, match="permutation"):
        new_game("rugby-league-cards", chance=ScriptedChance([[seven] * 52]))
    with pytest.raises(ChanceError, match="ran out"):
        new_game("rugby-league-cards", chance=ScriptedChance([]))
    with pytest.raises(ValueError, match="52 cards"):
        Deck().deal().deal().deal().deal().deal().order()


def test_scripted_deck_is_dealt_from_the_top():
    order = Deck().deal(home="7S 3H", away="5D").draw("8S 6C").order()
    assert sorted(order) == list(range(52))
    assert [card_name(c) for c in order[:2]] == ["7S", "3H"] and card_name(order[6]) == "5D"
    assert [card_name(c) for c in order[12:14]] == ["8S", "6C"]
    state = Deck().deal(home="7S 3H", away="5D").game()
    assert [card_name(c) for c in state.hands[0][:2]] == ["7S", "3H"] and card_name(state.hands[1][0]) == "5D"


def test_describe_action_labels():
    state = Deck().deal().game()
    assert state.describe_action("card:4") == "Play the face-down card at position 4"
    assert "drop goal" in state.describe_action("drop-goal")
    assert "touch" in state.describe_action("kick-for-touch")


def test_a_snapshot_saved_before_revealed_existed_still_loads():
    """``saved_defaults``: a field that older snapshots lack takes its default (no migration needed)."""
    state = Deck().deal(home="7S", away="5D").game()
    tackle(state, 1)
    data = json.loads(json.dumps(state.to_dict()))
    del data["state"]["revealed"]
    old = RugbyLeagueCardsState.from_dict(data)
    assert old.revealed == [] and old.masks == state.masks and old.phase == state.phase
    tackle(old, 2)
    tackle(state, 2)
    assert old.to_dict() == state.to_dict()
