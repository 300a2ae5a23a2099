"""RUGBY_Bokx referee calls (one scenario per kind of call), the decks, and the clock."""

import pytest

from engine.bokx import rules as bokx_rules
from engine.bokx.cards import CARDS, DECKS, GROUPS, load_decks
from engine.bokx.rules import BokxState
from engine.chance import ScriptedChance
from tests.engine.bokx_helpers import PRELUDE, game, top


def at(g):
    return (g.x, g.y)


def calling(g, seat, pos):
    assert g.phase == "call", g.phase
    assert g.to_act() == (seat,) and g.poss == seat
    assert at(g) == pos


def tackle_card(card, *more):
    """Home backs run from (7, 10): line 1 right, channel 2, tackle throw 2 -> a tackle card."""
    g = game([4, 1, 2, 2, *more], ball=(7, 10))
    top(g, "tackle", card)
    g.apply(0, "backs")
    g.apply(0, "right")
    return g


def run_card(card, *more):
    """Home calls the backs at (7, 10) and throws a 3 for success -> a running card."""
    g = game([3, *more], ball=(7, 10))
    top(g, "running", card)
    g.apply(0, "backs")
    return g


def in_goal_card(card, *more):
    g = game([4, 1, 1, 2, *more], ball=(7, 20))
    top(g, "in_goal", card)
    g.apply(0, "forwards")
    g.apply(0, "left")
    return g


# ---- the decks --------------------------------------------------------------------------------------
def test_eight_groups_balanced_good_and_bad():
    assert tuple(DECKS) == GROUPS
    for group in GROUPS:
        goods = [CARDS[c]["good"] for c in DECKS[group]["cards"]]
        assert len(goods) == 10 and sum(goods) == 5, group


def test_deck_file_is_checked(tmp_path):
    bad = tmp_path / "cards.toml"
    bad.write_text('[catch]\nname = "x"\ndrawn_by = "defender"\ncards = []\n')
    with pytest.raises(ValueError):
        load_decks(bad)


def test_drawn_card_goes_to_the_bottom_of_its_pile():
    g = tackle_card("tackle-high")
    assert g.decks["tackle"][-1] == "tackle-high"
    assert sorted(g.decks["tackle"]) == sorted(DECKS["tackle"]["cards"])
    assert g.last_card == "tackle-high" and g.stats[1]["referee_cards"] == 1


# ---- one scenario per kind of call ----------------------------------------------------------------
def test_play_on_for_the_defender():
    g = tackle_card("tackle-rip")
    calling(g, 1, (8, 12))


def test_play_on_for_the_attacker_after_a_catch():
    g = game([4, 3, 1, 3], ball=(7, 10))
    top(g, "catch", "catch-spilled")
    g.apply(0, "kick")
    g.apply(0, "right")
    calling(g, 0, (8, 13))


def test_continue_moves_the_ball():
    g = run_card("run-passed", 2)
    assert g.phase == "side" and g.ctx["d"] == 2


def test_penalty_to_the_attacker():
    g = tackle_card("tackle-high")
    assert g.phase == "penalty" and g.to_act() == (0,) and at(g) == (8, 12)
    assert g.stats[0]["penalties"] == 1


def test_free_kick_to_the_defender():
    g = run_card("run-crossing")
    assert g.phase == "free_kick" and g.to_act() == (1,) and at(g) == (7, 10)


def test_scrum_to_the_defender():
    g = run_card("run-knock-on", 5)
    calling(g, 1, (7, 10))


@pytest.mark.parametrize(("card", "spot", "pos"), [("in-goal-held-up", "goal_line", (8, 21)),
                                                     ("in-goal-touch-in-goal", "22", (8, 17))])
def test_kick_off_calls(card, spot, pos):
    g = in_goal_card(card)
    assert g.phase == "kickoff" and g.to_act() == (1,) and at(g) == pos


def test_kick_off_from_halfway_call(monkeypatch):
    monkeypatch.setitem(CARDS, "test-halfway", {"id": "test-halfway", "call": "kick_off", "spot": "halfway",
                                                "to": "defender", "good": True, "text": "Restart.",
                                                "group": "scrum"})
    # The rules read what a card makes happen from their table of the decks' cards, built at import.
    monkeypatch.setitem(bokx_rules._PLAY_OF_CARD, "test-halfway", ("kick_off", False, False, "halfway"))
    g = game([2, 2, 5], ball=(7, 10), phase="penalty")
    g.decks["scrum"] = ["test-halfway", *g.decks["scrum"]]
    g.apply(0, "scrum")  # card: away kick off from halfway, 2 blocks (not 10 m): home scrum, won
    calling(g, 0, (8, 11))


def test_mark_inside_own_22_is_a_free_kick():
    g = game([5, 5, 2, 2], ball=(7, 12))
    top(g, "catch", "catch-mark")
    g.apply(0, "kick")
    g.apply(0, "right")
    assert g.phase == "free_kick" and g.to_act() == (1,) and at(g) == (9, 17)


def test_mark_outside_the_22_is_play_on():
    # The card (4.3): "OUTSIDE 22 AREA > Play on": the catcher calls the play, no second catch throw
    # (issue 20, finding 2).
    g = game([5, 5, 2, 2], ball=(7, 8))
    top(g, "catch", "catch-mark")
    g.apply(0, "kick")
    g.apply(0, "right")
    calling(g, 1, (9, 13))
    assert g.chance.remaining == 0


@pytest.mark.parametrize(("card", "seat"), [("kick-blocked", 1), ("kick-regathered", 0)])
def test_block_kicked_ball_moves_one_block_back(card, seat):
    g = game([2], ball=(7, 12))
    top(g, "kick_downfield", card)
    g.apply(0, "kick")
    calling(g, seat, (7, 11))


def test_ball_picked_up_moves_one_block_forward():
    g = run_card("run-picked-up")
    calling(g, 0, (7, 11))


def test_keep_running_call():
    g = tackle_card("tackle-bumped-off", 1, 5, 2, 1, 4)
    assert g.after_miss and g.to_act() == (0,)
    g.apply(0, "run-on")
    calling(g, 0, (8, 13))


def test_try_call():
    g = in_goal_card("in-goal-try", 6, 2, 4)
    assert g.score == [7, 0] and g.tries == [1, 0]
    calling(g, 0, (8, 11))


def test_penalty_try_call():
    g = in_goal_card("in-goal-penalty-try", 2, 4)  # no conversion throw
    assert g.score == [7, 0] and g.stats[0]["penalty_tries"] == 1
    calling(g, 0, (8, 11))


def test_in_goal_penalty_is_five_metres_out():
    g = in_goal_card("in-goal-obstruction")
    assert g.phase == "penalty" and g.to_act() == (1,) and g.y == 20


# ---- the clock ----------------------------------------------------------------------------------------
def test_half_ends_when_time_is_up_and_the_ball_is_next_dead():
    g = game([4, 5] + ["keep"] * 8 + [2, 4], ball=(2, 10), secs=2400)
    g.apply(0, "backs")
    g.apply(0, "left")  # into touch: ball dead, half time; away (who received) kick off the second half
    assert g.period == 2
    assert any(e.kind == "period_end" for e in g.events)
    calling(g, 0, (8, 11))
    assert 0 < g.secs < 200


def test_play_goes_on_after_time_is_up_while_the_ball_is_alive():
    g = game([4, 1, 2, 5, 4, 2, 5], ball=(7, 10), secs=2500)
    g.apply(0, "backs")
    g.apply(0, "right")
    assert g.period == 1 and g.phase == "call"


def test_full_time_ends_the_match():
    g = game([4, 5], ball=(2, 10), period=2, secs=2400)
    g.apply(0, "backs")
    g.apply(0, "left")
    assert g.is_over and g.to_act() == () and g.legal_actions(0) == []
    assert g.events[-1].kind == "full_time"


def test_extra_time_then_sudden_death():
    opts = {"extra_time": True}
    g = game([4, 5] + ["keep"] * 8 + [2, 4], ball=(2, 10), period=2, secs=2400, options=opts)
    g.apply(0, "backs")
    g.apply(0, "left")
    assert g.period == 3 and g.period_len == 600 and not g.is_over
    g = game([4, 5] + ["keep"] * 8 + [2, 4, 5], ball=(2, 10), period=4, secs=600, period_len=600, options=opts)
    g.apply(0, "backs")
    g.apply(0, "left")
    assert g.period == 5 and g.period_len is None
    g.x, g.y = 8, 3  # away won the sudden-death kick-off scrum; now in their Blue zone
    g.apply(1, "drop-goal")  # first score wins
    assert g.is_over and g.score == [0, 3] and g.outcome().winner == 1


def test_no_extra_time_by_default_a_draw_stands():
    g = game([4, 5], ball=(2, 10), period=2, secs=2400)
    g.apply(0, "backs")
    g.apply(0, "left")
    assert g.is_over and g.outcome().winner is None


def test_half_length_option():
    assert BokxState(chance=ScriptedChance(PRELUDE), options={"half_minutes": 10}).period_len == 600
    with pytest.raises(ValueError):
        BokxState(chance=ScriptedChance(PRELUDE), options={"half_minutes": 0})


def test_decks_are_shuffled_again_at_half_time():
    order = list(reversed(DECKS["scrum"]["cards"]))
    shuffles = ["keep"] * 5 + [order] + ["keep"] * 2
    g = game([4, 5] + shuffles + [2, 4], ball=(2, 10), secs=2400)
    g.apply(0, "backs")
    g.apply(0, "left")
    assert g.period == 2 and g.decks["scrum"] == order  # the second-half scrum (a 4) drew no card


def test_penalty_is_still_taken_after_time_is_up():
    g = game([5], ball=(7, 10), phase="penalty", secs=2500)
    g.apply(0, "scrum")  # a scrum chosen from a penalty is played; the half goes on
    assert g.period == 1
    calling(g, 0, (7, 10))


# ---- sides and commentary ---------------------------------------------------------------------------
def test_left_and_right_are_as_the_side_in_possession_faces():
    g = game([4, 2, 1, 5, 2, 1, 5], ball=(8, 11), poss=1)
    g.apply(1, "backs")
    g.apply(1, "right")  # away face row 0: their right is towards column 0
    calling(g, 1, (6, 10))


@pytest.mark.parametrize(("side", "wing"), [("left", "left wing (11)"), ("right", "right wing (14)")])
def test_commentary_names_the_wing_by_side(side, wing):
    g = game([4, 6, 1, 2, 5, 2, 1, 5], ball=(7, 10))
    g.apply(0, "backs")
    g.apply(0, side)
    assert g.carrier == wing
    assert any(wing in e.text for e in g.events if e.kind == "carry")
