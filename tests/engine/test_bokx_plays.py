"""RUGBY_Bokx play strings with scripted dice: ball position, possession and score afterwards.

Home (seat 0) attacks towards row 21, away towards row 0; "left" for home is towards column 0.
"""

import pytest

from engine.bokx.cards import DECKS, GROUPS
from engine.bokx.field import KICK_OFF_BLOCKS
from engine.bokx.rules import BokxState
from engine.chance import ChanceError, ScriptedChance
from engine.core import IllegalAction
from tests.engine.bokx_helpers import game


def at(g):
    return (g.x, g.y)


def calling(g, seat, pos):
    assert g.phase == "call", g.phase
    assert g.to_act() == (seat,)
    assert g.poss == seat
    assert at(g) == pos


# ---- toss and kick-offs ---------------------------------------------------------------------------
def test_toss_tie_throws_again_and_the_winner_chooses():
    g = BokxState(chance=ScriptedChance(["keep"] * 8 + [3, 3, 2, 5, 4, 2]))
    assert g.toss == [2, 5]
    assert g.to_act() == (1,)
    assert g.legal_actions(1) == ["kick-off", "receive"]
    assert g.legal_actions(0) == []
    g.apply(1, "receive")  # home kicks off: 4 blocks, 2 across
    assert g.first_kicker == 0
    assert g.phase == "side" and g.to_act() == (0,)
    assert at(g) == (7, 10)
    assert g.ctx["land"] == 14 and g.ctx["line"] == 2


def test_halfway_kick_off_not_ten_metres_is_a_scrum_for_the_receiver():
    g = game([2, 5])
    g.apply(0, "kick-off")
    calling(g, 1, (7, 10))  # scrum where it was kicked, away fed and won
    assert g.stats[1]["scrums_won"] == 1


def test_halfway_kick_off_lands_and_is_caught():
    g = game([3, 4, 6])
    g.apply(0, "kick-off")
    g.apply(0, "right")
    calling(g, 1, (11, 13))


@pytest.mark.parametrize("side", ["left", "right"])
def test_kick_off_directly_into_touch_is_a_scrum_for_the_receiver(side):
    g = game([5, 6, 3, 4])  # 5 down, 9 across from column 7: out either side
    g.apply(0, "kick-off")
    g.apply(0, side)
    calling(g, 1, (7, 10))


def test_kick_off_six_throws_again_and_adds():
    g = game([6, 2, 1])
    g.apply(0, "kick-off")
    assert g.ctx["land"] == 18 and g.ctx["line"] == 1


def test_22_kick_off_double_the_distance_over_the_dead_ball_line_is_a_scrum():
    g = game([6, 6, 1, 5], ball=(7, 4), phase="kickoff")
    assert g.legal_actions(0) == ["kick", "kick-double"]
    g.apply(0, "kick-double")  # (6 + 6 + 1) x 2 = 26 blocks
    calling(g, 1, (7, 4))


def test_22_kick_off_double_doubles_distance_and_direction():
    g = game([5, 2], ball=(7, 4), phase="kickoff")
    g.apply(0, "kick-double")
    assert g.ctx["land"] == 14 and g.ctx["line"] == 4


def test_goal_line_kick_off_from_the_in_goal():
    g = game([6, 5, 3, 4], ball=tuple(KICK_OFF_BLOCKS["goal_line"][0]), phase="kickoff")
    g.apply(0, "kick")
    assert g.ctx["land"] == 11
    g.apply(0, "left")
    calling(g, 1, (4, 11))


# ---- kick downfield -------------------------------------------------------------------------------
def test_kick_downfield_then_the_catch_is_fumbled_and_the_kicker_regains():
    g = game([5, 4, 2, 1], ball=(7, 10))
    g.apply(0, "kick")
    assert g.phase == "side" and g.ctx["land"] == 14
    g.apply(0, "right")
    calling(g, 0, (9, 14))
    # "option of continue running or change the play" (booklet 2.1.2); in the Red zone a drop goal too (3.4.1)
    assert g.legal_actions(0) == ["backs", "drop-goal", "forwards", "kick", "run-on"]


def test_kick_from_own_22_directly_into_touch_gains_the_ground():
    g = game([4, 3, 5, 5], ball=(2, 3))
    g.apply(0, "kick")
    g.apply(0, "left")  # column -3: into touch at row 6; away throw in and win
    calling(g, 1, (3, 6))


def test_kick_from_outside_22_directly_into_touch_comes_back():
    g = game([4, 3, 5, 5], ball=(2, 10))
    g.apply(0, "kick")
    g.apply(0, "left")
    calling(g, 1, (3, 10))  # lineout level with where it was kicked


def test_kick_over_the_dead_ball_line_is_a_scrum_where_kicked():
    g = game([6, 6, 1, 5], ball=(7, 15))  # success 6, then 6 + 1 = 7 blocks
    g.apply(0, "kick")
    calling(g, 1, (7, 15))


def test_kick_double_from_own_22():
    g = game([5, 3, 2, 4], ball=(7, 2))
    assert "kick-double" in g.legal_actions(0)
    g.apply(0, "kick-double")
    assert g.ctx["land"] == 8 and g.ctx["line"] == 4
    g.apply(0, "right")
    calling(g, 1, (11, 8))


def test_kick_double_only_from_own_22():
    assert "kick-double" not in game(ball=(7, 5)).legal_actions(0)
    assert "kick-double" in game(ball=(7, 17), poss=1).legal_actions(1)  # away's own 22


def test_kick_charged_down_on_a_one():
    g = game([1], ball=(7, 12))
    g.apply(0, "kick")
    calling(g, 1, (7, 12))


def test_kick_caught_in_own_in_goal_is_grounded_for_a_goal_line_kick_off():
    # 3.3.1.1 b: a kick-off from behind the goal line when "the ball was made dead by the Defender
    # inside the In-goal area" (issue 20, finding 4).
    g = game([4, 5, 2, 5], ball=(7, 16))
    g.apply(0, "kick")
    g.apply(0, "right")
    assert g.phase == "kickoff" and g.to_act() == (1,)
    assert at(g) == tuple(KICK_OFF_BLOCKS["goal_line"][1])
    assert g.ctx["spot"] == "goal_line"


def test_kick_regained_in_the_opponents_in_goal_is_in_goal_play():
    g = game([4, 5, 2, 1, 5], ball=(7, 16))
    g.apply(0, "kick")
    g.apply(0, "right")  # fumbled (1): home regain in-goal; away hold it up (5)
    assert g.phase == "kickoff" and g.to_act() == (1,)
    assert at(g) == tuple(KICK_OFF_BLOCKS["goal_line"][1])


def test_kick_into_touch_in_goal_is_a_scrum_to_the_opponent_where_it_was_kicked():
    # INTERPRETATIONS #12a: success [4], 5 blocks from row 16 lands in away's in-goal (row 21), line 6 + 3 = 9
    # blocks right from column 7 crosses the side line behind the goal line. Not a 22 kick-off (3.3.1.1 b: that
    # "only occurs if" a drop goal or a penalty goal was missed) but, as over the dead-ball line (section 17),
    # a scrum to the opponent where the ball was kicked: away feed and win it on a [5].
    g = game([4, 5, 6, 3, 5], ball=(7, 16))
    g.apply(0, "kick")
    g.apply(0, "right")
    assert [e.kind for e in g.events[-3:]] == ["kick", "touch", "scrum"]
    assert g.events[-2].data["outcome"] == "touch_in_goal"
    calling(g, 1, (7, 16))
    assert g.stats[1]["scrums_won"] == 1 and g.score == [0, 0]


def test_penalty_kick_into_touch_in_goal_is_a_scrum_to_the_opponent_not_a_lineout():
    # From a penalty the kicker would throw in at a lineout; behind the goal line there is no lineout (3.5.2):
    # away feed a scrum where the penalty was kicked from (lost on a [1]: home win it against the head).
    g = game([5, 6, 3, 1], ball=(7, 16), phase="penalty")
    g.apply(0, "kick")  # no success throw from a penalty: 5 blocks to row 21, line 6 + 3 = 9
    g.apply(0, "left")
    calling(g, 0, (7, 16))
    assert g.stats[0]["scrums_won"] == 1


# ---- kicks at goal --------------------------------------------------------------------------------
def test_drop_goal_blue_zone_over_on_five():
    g = game([5, 2, 4], ball=(7, 18))
    assert "drop-goal" in g.legal_actions(0)
    g.apply(0, "drop-goal")
    assert g.score == [3, 0] and g.stats[0]["drop_goals"] == 1
    calling(g, 0, (8, 11))  # away's kick-off not 10 m, home's scrum


def test_drop_goal_blue_zone_missed_on_four_is_a_22_kick_off():
    g = game([4], ball=(7, 18))
    g.apply(0, "drop-goal")
    assert g.score == [0, 0] and g.stats[0]["drop_goals_missed"] == 1
    assert g.phase == "kickoff" and g.to_act() == (1,) and at(g) == (8, 17)


@pytest.mark.parametrize(("die", "points"), [(6, 3), (5, 0)])
def test_drop_goal_red_zone_needs_a_six(die, points):
    g = game([die, 2, 4], ball=(7, 12))
    g.apply(0, "drop-goal")
    assert g.score == [points, 0]


@pytest.mark.parametrize("y", [8, 20])
def test_drop_goal_only_from_the_zones(y):
    assert "drop-goal" not in game(ball=(7, y)).legal_actions(0)


@pytest.mark.parametrize(("y", "die", "points"), [(18, 3, 3), (18, 2, 0), (10, 4, 0), (10, 5, 3)])
def test_penalty_goal_by_zone(y, die, points):
    g = game([die, 2, 4], ball=(7, y), phase="penalty")
    assert "goal" in g.legal_actions(0)
    g.apply(0, "goal")
    assert g.score == [points, 0]
    if not points:
        assert g.phase == "kickoff" and g.to_act() == (1,)


def test_away_penalty_goal_from_its_blue_zone():
    g = game([3, 2, 4], ball=(8, 3), poss=1, phase="penalty")
    g.apply(1, "goal")
    assert g.score == [0, 3]


@pytest.mark.parametrize("y", [8, 20])
def test_no_kick_at_goal_outside_the_zones(y):
    assert "goal" not in game(ball=(7, y), phase="penalty").legal_actions(0)
    assert "goal" not in game(ball=(7, 18), phase="free_kick").legal_actions(0)


# ---- running --------------------------------------------------------------------------------------
def test_run_backs_line_then_channel_tackle_and_ruck():
    g = game([4, 3, 2, 5, 4, 2, 5], ball=(7, 10))
    g.apply(0, "backs")
    assert g.phase == "side" and g.carrier.startswith("inside centre")
    g.apply(0, "right")
    calling(g, 0, (10, 12))
    assert g.stats[1]["tackles"] == 1 and g.stats[0]["rucks_won"] == 1
    assert any("inside centre" in e.text for e in g.events)


def test_run_forwards_half_distance_missed_tackle_on_four_keep_running():
    g = game([5, 5, 3, 4, 1, 6, 1, 3, 4], ball=(7, 10))
    g.apply(0, "forwards")
    assert g.ctx["d"] == 3 and g.carrier in ("openside flanker (6)", "blindside flanker (7)", "number eight (8)")
    g.apply(0, "left")  # column 4; 2 blocks upfield; tackle missed on a 4
    assert at(g) == (4, 12) and g.after_miss
    assert g.legal_actions(0) == ["backs", "forwards", "kick", "run-on"]
    g.apply(0, "run-on")  # 1 block, tackled (6), ruck away's side (1 v 3), away win (4)
    calling(g, 1, (4, 13))


def test_backs_tackle_on_a_four_is_made():
    g = game([4, 1, 1, 4, 2, 1, 5], ball=(7, 10))
    g.apply(0, "backs")
    g.apply(0, "right")
    calling(g, 0, (8, 11))
    assert g.stats[1]["missed_tackles"] == 0


def test_run_six_throws_again_and_adds():
    g = game([4, 1, 6, 6, 2, 5, 2, 1, 6], ball=(7, 2))
    g.apply(0, "backs")
    g.apply(0, "right")
    calling(g, 0, (8, 16))  # 6 + 6 + 2 = 14 blocks


def test_forwards_six_halves_each_throw():
    g = game([4, 2, 6, 5, 6, 5, 1, 4], ball=(7, 10))
    g.apply(0, "forwards")
    g.apply(0, "right")  # 1 block across; 3 + 3 = 6 blocks upfield
    calling(g, 0, (8, 16))


def test_interception_runs_only_down_the_channel():
    g = game([1, 3, 5, 3, 1, 4], ball=(7, 10))
    g.apply(0, "backs")
    calling(g, 1, (7, 10))
    assert g.intercept
    g.apply(1, "backs")  # no success or line throw: 3 blocks towards row 0
    calling(g, 1, (7, 7))


def test_run_into_touch_is_a_lineout_to_the_defence():
    g = game([4, 5, 5], ball=(2, 10))
    g.apply(0, "backs")
    g.apply(0, "left")
    calling(g, 1, (3, 10))


def test_try_and_conversion_then_kick_off_by_the_conceding_side():
    g = game([4, 1, 4, 1, 3, 2, 4], ball=(7, 18))
    g.apply(0, "backs")
    g.apply(0, "right")
    assert g.score == [7, 0] and g.tries == [1, 0] and g.stats[0]["conversions"] == 1
    calling(g, 0, (8, 11))


def in_goal(die, *more):
    """Home forwards cross from row 20 (line 1 block, channel 1 block), then the in-goal throw."""
    g = game([4, 1, 1, die, *more], ball=(7, 20))
    g.apply(0, "forwards")
    g.apply(0, "left")
    return g


def test_in_goal_four_is_a_try_conversion_missed():
    g = in_goal(4, 2, 2, 4)
    assert g.score == [5, 0] and g.stats[0]["conversions_missed"] == 1


def test_in_goal_five_is_held_up_goal_line_kick_off():
    g = in_goal(5)
    assert g.score == [0, 0]
    assert g.phase == "kickoff" and g.to_act() == (1,) and at(g) == (8, 21)


def test_in_goal_six_is_a_turnover_in_goal():
    g = in_goal(6)
    calling(g, 1, (6, 21))
    assert "kick-double" in g.legal_actions(1)


def test_ball_cannot_be_run_over_the_dead_ball_line():
    g = game([4, 1, 6, 6, 6, 1, 1, 3, 2, 4], ball=(7, 10))
    g.apply(0, "backs")
    g.apply(0, "right")
    assert g.score == [7, 0]
    assert any(e.kind == "carry" and e.data["y"] == 21 for e in g.events)


# ---- contests -------------------------------------------------------------------------------------
def test_ruck_tie_throws_again_and_a_one_loses_it():
    g = game([4, 1, 1, 5, 3, 3, 2, 5, 1], ball=(7, 10))
    g.apply(0, "backs")
    g.apply(0, "right")  # ruck 3-3, then 2-5: ball on away's side, away throw 1: home win it
    calling(g, 0, (8, 11))


@pytest.mark.parametrize(("die", "winner"), [(1, 1), (4, 0), (6, 0)])
def test_scrum_only_the_feeder_throws(die, winner):
    g = game([die], ball=(7, 10), phase="penalty")
    g.apply(0, "scrum")
    calling(g, winner, (7, 10))


@pytest.mark.parametrize(("die", "winner"), [(1, 0), (4, 1)])
def test_lineout_only_the_thrower_throws(die, winner):
    g = game([4, 5, die], ball=(13, 10))
    g.apply(0, "backs")
    g.apply(0, "right")  # column 18: touch; away throw
    calling(g, winner, (12, 10))


# ---- penalties and free kicks ---------------------------------------------------------------------
@pytest.mark.parametrize(("phase", "thrower"), [("penalty", 0), ("free_kick", 1)])
def test_kick_to_touch_from_penalty_or_free_kick(phase, thrower):
    g = game([3, 5, 4], ball=(2, 10), phase=phase)
    g.apply(0, "kick")  # no success throw: 3 down, 5 across
    g.apply(0, "left")
    calling(g, thrower, (3, 13))


def test_penalty_kick_double_the_distance():
    g = game([3, 5, 4], ball=(2, 10), phase="penalty")
    g.apply(0, "kick-double")
    assert g.ctx["land"] == 16 and g.ctx["line"] == 10
    g.apply(0, "left")
    calling(g, 0, (3, 16))


def test_penalty_kick_over_the_dead_ball_line_is_a_scrum_to_the_opponent():
    g = game([6, 1, 5], ball=(7, 15), phase="penalty")
    g.apply(0, "kick-double")
    calling(g, 1, (7, 15))


def test_tap_and_run_skips_the_success_throw():
    g = game([2, 3, 5, 2, 1, 5], ball=(7, 10), phase="free_kick")
    g.apply(0, "tap-backs")
    g.apply(0, "right")
    calling(g, 0, (9, 13))


def test_penalty_options():
    assert game(ball=(7, 12), phase="penalty").legal_actions(0) == [
        "goal", "kick", "kick-double", "scrum", "tap-backs", "tap-forwards"]
    assert game(ball=(7, 12), phase="free_kick").legal_actions(0) == [
        "kick", "kick-double", "scrum", "tap-backs", "tap-forwards"]


# ---- protocol details -----------------------------------------------------------------------------
def test_illegal_actions_are_refused():
    g = game(ball=(7, 8))
    with pytest.raises(IllegalAction):
        g.apply(1, "backs")
    with pytest.raises(IllegalAction):
        g.apply(0, "drop-goal")


def test_scripted_dice_running_out_raises():
    g = game([4], ball=(7, 10))
    with pytest.raises(ChanceError):
        g.apply(0, "backs")


def test_decks_are_shuffled_at_the_start():
    order = list(reversed(DECKS["catch"]["cards"]))
    g = BokxState(chance=ScriptedChance([order] + ["keep"] * (len(GROUPS) - 1) + [6, 1]))
    assert g.decks["catch"] == order
    assert g.decks["tackle"] == DECKS["tackle"]["cards"]
