"""RUGBY_Bokx against the booklet's words: its worked examples, and the decisions on where it is silent or
contradicts itself (INTERPRETATIONS.md), each replayed with scripted dice and referee cards.

Home (seat 0) attacks towards row 21, away towards row 0; "left" for home is towards column 0.
The booklet's other examples of play are pinned in test_bokx_plays.py and test_bokx_referee.py (see the
index at the end of this file).
"""

import pytest

from engine.bokx.field import KICK_OFF_BLOCKS, progress
from engine.bokx.rules import FRONT_ROW, LOCKS, LOOSE_FORWARDS, BokxState
from tests.engine.bokx_helpers import game, top


def at(g):
    return (g.x, g.y)


def calling(g, seat, pos):
    assert g.phase == "call", g.phase
    assert g.to_act() == (seat,) and g.poss == seat
    assert at(g) == pos


def kicking_off(g, seat, spot):
    assert g.phase == "kickoff" and g.to_act() == (seat,) and g.poss == seat
    assert at(g) == tuple(KICK_OFF_BLOCKS[spot][seat])
    assert g.ctx["spot"] == spot


def find_key(data, key):
    """The first value of ``key`` anywhere in a (nested) view: survives a change of the view's shape."""
    if isinstance(data, dict):
        if key in data and data[key] is not None:
            return data[key]
        values = data.values()
    elif isinstance(data, list):
        values = data
    else:
        return None
    for value in values:
        found = find_key(value, key)
        if found is not None:
            return found
    return None


# ==== the booklet's worked examples ================================================================

def test_book_2_2_4_a_kick_of_a_four_moves_the_ball_four_blocks():
    # 2.2.4 "throwing e.g., a [4] with result in the ball being moved 4 x Blocks (4 x Blocks @ 5m each = 20m)";
    # THROW 1 down the channel, THROW 2 down the line, "the Attacker can decide to which Side Line".
    g = game([5, 4, 3, 4], ball=(7, 10))
    g.apply(0, "kick")  # success 5, distance 4, direction 3
    assert g.phase == "side" and g.to_act() == (0,)
    assert g.ctx["land"] == progress(0, 10) + 4 and g.ctx["line"] == 3
    g.apply(0, "right")
    assert g.events[-1].kind == "catch" and g.events[-1].data["caught"]  # away throw a 4: caught
    calling(g, 1, (10, 14))
    assert (14 - 10) * 5 == 20  # 4 blocks of 5 m
    assert g.score == [0, 0]


def test_book_2_2_4_a_backline_run_of_a_four_moves_the_ball_four_blocks():
    # 2.2.4 Running with the Backline: "a [4] with result in the ball being moved 4 x Blocks"; the line throw
    # first (D.6: a [4] is the outside centre), then the channel throw.
    g = game([5, 4, 4, 5, 3, 1, 5], ball=(7, 10))
    g.apply(0, "backs")
    assert g.ctx == {"k": "run", "g": "backs", "d": 4} and g.carrier == "outside centre (13)"
    g.apply(0, "right")  # 4 across, 4 upfield, tackled (5), ruck 3 v 1 on home's side, won (5)
    calling(g, 0, (11, 14))
    assert g.stats[0]["metres"] == 20 and g.stats[1]["tackles"] == 1


@pytest.mark.parametrize(("die", "blocks"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_book_2_2_4_forwards_move_half_the_distance(die, blocks):
    # 2.2.4 Running with Forwards: "[1] + [2] = 1 x Block, [3] + [4] = 2 x Blocks, [5] + [6] = 3 x Blocks";
    # "This rule applies to both the Channel and Line distances".
    # D.6: "[1] + [2] ... Front Row", "[3] + [4] ... Locks", "[5] + [6] ... Loose Forward".
    g = game([4, die, die, 6, 2, 1, 6], ball=(7, 10))
    g.apply(0, "forwards")
    assert g.ctx["d"] == blocks
    assert g.carrier in (FRONT_ROW if die <= 2 else LOCKS if die <= 4 else LOOSE_FORWARDS)
    g.apply(0, "right")
    calling(g, 0, (7 + blocks, 10 + blocks))


@pytest.mark.parametrize(("die", "player"), [(1, "scrum-half (9)"), (2, "fly-half (10)"), (3, "inside centre (12)"),
                                             (4, "outside centre (13)"), (5, "full-back (15)")])
def test_book_d_6_who_is_running_with_the_backline(die, player):
    # D.6.2: the line throw names the runner: [1] Scrumhalf (No. 9) ... [5] Fullback (No. 15); [6] a wing,
    # "depending in which direction the ball is moved down the Line" (test_commentary_names_the_wing_by_side).
    g = game([4, die], ball=(7, 10))
    g.apply(0, "backs")
    assert g.carrier == player and g.ctx["d"] == die


def test_book_2_2_4_forwards_six_is_three_blocks_and_the_next_throw_halved():
    # "Whenever a [6] on the dice was thrown, the player must throw again ... The half the distance rule
    # still applies": 6 then 3 is 3 + 2 blocks.
    g = game([4, 1, 6, 3, 6, 2, 1, 6], ball=(7, 10))
    g.apply(0, "forwards")
    g.apply(0, "right")
    calling(g, 0, (8, 15))


def test_book_3_3_1_3_a_double_the_distance_a_four_is_eight_blocks_both_ways():
    # 3.3.1.3 a "if a [4] was thrown, ball must be moved 8 x blocks. This rule applies for determining the
    # DISTANCE (Throw 1), as well as the DIRECTION (Throw 2)."
    g = game([5, 4, 4, 6], ball=(7, 3))
    assert "kick-double" in g.legal_actions(0)  # inside the own 22
    g.apply(0, "kick-double")
    assert g.ctx["land"] == 3 + 8 and g.ctx["line"] == 8
    g.apply(0, "right")  # column 15: still in play
    calling(g, 1, (15, 11))


def test_book_3_3_1_3_a_double_the_distance_a_six_is_twelve_and_the_next_throw_doubled_too():
    # "If a [6] was thrown, the ball must be moved 12 x blocks and the player must throw the dice again - this
    # total will also be doubled": 6 then 1 is 14 blocks.
    g = game([5, 6, 1, 1, 5], ball=(7, 2))
    g.apply(0, "kick-double")
    assert g.ctx["land"] == 2 + 14 and g.ctx["line"] == 2
    g.apply(0, "right")
    calling(g, 1, (9, 16))


def test_book_3_3_1_3_b_penalty_kick_kept_in_play_and_the_catch_fumbled():
    # 3.3.1.3 b: no success throw from a penalty; the kicker chooses the direction after the throw, to "keep the
    # ball in play and see what the success rate of the opponent in CATCHING the ball is (e.g. Defender may throw
    # a [1] which place the Attacker in possession of the ball again ...)".
    g = game([5, 3, 1], ball=(7, 10), phase="penalty")
    g.apply(0, "kick")  # the first die is the distance: no success throw
    assert g.phase == "side" and g.ctx["src"] == "penalty" and g.ctx["land"] == 15 and g.ctx["line"] == 3
    g.apply(0, "right")  # column 10: in play; away throw a 1 for the catch
    calling(g, 0, (10, 15))
    assert g.stats[0]["kicks"] == 1 and g.score == [0, 0]
    assert "run-on" in g.legal_actions(0)


def test_book_3_3_1_3_b_penalty_kick_kept_in_play_and_a_referee_call_gives_it_back():
    # "... or a Referee Call may also place the ball in the Attacker's hands": the catch card "spilled".
    g = game([5, 3, 2], ball=(7, 10), phase="penalty")
    top(g, "catch", "catch-spilled")
    g.apply(0, "kick")
    g.apply(0, "left")  # column 4
    assert g.last_card == "catch-spilled"
    calling(g, 0, (4, 15))


# 4.3 "Referee's Play On calls": one scenario per call the booklet lists.

def test_book_4_3_play_on_ball_caught_by_the_defender_catch_clean():
    # "Ball was successfully caught by Defender > Call-the-Play".
    g = game([4, 4, 2, 3], ball=(7, 10))
    top(g, "catch", "catch-clean")
    g.apply(0, "kick")
    g.apply(0, "right")
    assert g.last_card == "catch-clean"
    calling(g, 1, (9, 14))
    assert not g.after_miss


def test_book_4_3_play_on_ball_caught_by_the_attacker_catch_spilled():
    # "Ball was successfully caught by Attacker > Call-the-Play" (the kicker's chasers).
    g = game([4, 3, 1, 3], ball=(7, 10))
    top(g, "catch", "catch-spilled")
    g.apply(0, "kick")
    g.apply(0, "right")
    calling(g, 0, (8, 13))


def test_book_4_3_play_on_lineout_caught_by_the_attacker_lineout_clean():
    # "Ball was successfully caught by Attacker > Call-the-Play": the throwing side's clean catch.
    g = game([4, 5, 3], ball=(2, 10))
    top(g, "lineout", "lineout-clean")
    g.apply(0, "backs")
    g.apply(0, "left")  # column -3: into touch, away throw in
    assert g.last_card == "lineout-clean"
    calling(g, 1, (3, 10))
    assert g.stats[1]["lineouts_won"] == 1


def test_book_4_3_play_on_ball_rucked_by_the_defender_ruck_jackal():
    # "Ball was successfully rucked by Defender > Call-the-Play": home have the ball on their side of the ruck
    # (5 v 2), throw a 2 and draw the jackal card.
    g = game([4, 1, 2, 5, 5, 2, 2], ball=(7, 10))
    top(g, "ruck_maul", "ruck-jackal")
    g.apply(0, "backs")
    g.apply(0, "right")
    assert g.last_card == "ruck-jackal"
    calling(g, 1, (8, 12))
    assert g.stats[1]["turnovers"] == 1


def test_book_4_3_play_on_ball_passed_by_the_attacker_run_passed():
    # "Ball was successfully passed by Attacker > Move the ball".
    g = game([3, 2, 2, 5, 4, 1, 4], ball=(7, 10))
    top(g, "running", "run-passed")
    g.apply(0, "backs")
    assert g.last_card == "run-passed" and g.phase == "side" and g.ctx["d"] == 2
    g.apply(0, "right")
    calling(g, 0, (9, 12))


def test_book_4_3_play_on_ball_hooked_by_the_attacker_scrum_clean_hook():
    # "Ball was successfully hooked by Attacker > Call-the-Play".
    g = game([2], ball=(7, 10), phase="penalty")
    top(g, "scrum", "scrum-clean-hook")
    g.apply(0, "scrum")
    assert g.last_card == "scrum-clean-hook"
    calling(g, 0, (7, 10))
    assert g.stats[0]["scrums_won"] == 1


def test_book_4_3_catches_ball_in_air_inside_and_outside_the_22():
    # The conditional call "Catches ball in air": "INSIDE 22 AREA ... Free Kick", "OUTSIDE 22 AREA ... Play on".
    inside = game([5, 5, 2, 2], ball=(7, 12))
    top(inside, "catch", "catch-mark")
    inside.apply(0, "kick")
    inside.apply(0, "right")  # lands on row 17, away's own 22
    assert inside.phase == "free_kick" and inside.to_act() == (1,) and at(inside) == (9, 17)
    outside = game([5, 5, 2, 2], ball=(7, 8))
    top(outside, "catch", "catch-mark")
    outside.apply(0, "kick")
    outside.apply(0, "right")  # lands on row 13: play on, away call the play
    calling(outside, 1, (9, 13))
    assert outside.chance.remaining == 0


# ==== issue 20's findings ============================================================================

def test_run_into_touch_from_the_own_in_goal_is_a_goal_line_kick_off_not_a_lineout():
    # Finding 1. Away cross (forwards 1 across, 1 up) and home turn it over in their in-goal (6); home's wing then
    # runs into touch-in-goal. 3.5.2: a lineout only "if the ball crossed a Side Line inside the normal field of
    # play, i.e., not behind a Goal Line"; the ball is dead in-goal: goal-line kick-off (3.3.1.1 b).
    g = game([4, 1, 1, 6, 4, 6, 4], ball=(8, 1), poss=1)
    g.apply(1, "forwards")
    g.apply(1, "left")  # away's left is towards column 15
    calling(g, 0, (9, 0))
    assert g.carrier == "", "the ball changed hands: away's runner no longer carries it"
    g.apply(0, "backs")  # success 4, 6 + 4 = 10 blocks down the line
    assert g.carrier == "wing"
    g.apply(0, "left")  # column -1, in the in-goal row
    kicking_off(g, 0, "goal_line")
    assert g.score == [0, 0] and g.stats[0]["lineouts_won"] == g.stats[1]["lineouts_won"] == 0
    assert g.events[-2].kind == "touch" and "left wing (11)" in g.events[-2].text


def test_a_change_of_possession_forgets_the_other_sides_ball_carrier():
    # Finding 1 (commentary): home's inside centre is tackled and away win the ruck; a try away then score is not
    # credited to home's runner.
    g = game([4, 3, 2, 5, 1, 4, 6], ball=(7, 10))
    g.apply(0, "backs")
    assert g.carrier == "inside centre (12)"
    g.apply(0, "right")  # 3 across, 2 up, tackled (5), ruck 1 v 4: away's side, won (6)
    calling(g, 1, (10, 12))
    assert g.carrier == ""


def test_regaining_a_kick_allows_a_drop_goal_but_a_missed_tackle_does_not():
    # Finding 3. 3.4.1: after a [1] on the catch the kicker "must Call-the-Play"; the drop-goal ban of 3.4.2.1
    # belongs to the missed tackle.
    g = game([5, 4, 2, 1, 5, 2, 4], ball=(7, 14))
    g.apply(0, "kick")
    g.apply(0, "right")  # lands on row 18 (Blue zone); away fumble (1)
    calling(g, 0, (9, 18))
    assert g.legal_actions(0) == ["backs", "drop-goal", "forwards", "kick", "run-on"]
    g.apply(0, "drop-goal")  # a 5 in the Blue zone: over
    assert g.score == [3, 0] and g.stats[0]["drop_goals"] == 1
    calling(g, 0, (8, 11))  # away's kick-off short of 10 m (2): home's scrum, won (4)
    missed = game(ball=(7, 18), after_miss=True)
    assert "drop-goal" not in missed.legal_actions(0) and "run-on" in missed.legal_actions(0)


def test_catch_clean_in_the_own_in_goal_is_grounded_for_a_goal_line_kick_off():
    # Finding 4. The kick lands in away's in-goal; the "caught by Defender" card is a catch like a [4]-[6]: the
    # catcher grounds it, "made dead by the Defender inside the In-goal area" (3.3.1.1 b).
    g = game([4, 5, 2, 2], ball=(7, 16))
    top(g, "catch", "catch-clean")
    g.apply(0, "kick")
    g.apply(0, "right")
    assert g.last_card == "catch-clean"
    kicking_off(g, 1, "goal_line")


def test_interception_run_with_the_forwards_takes_the_success_throw():
    # Finding 5. 2.2.4: after an interception the backline skips the success and line throws, the forwards only
    # the line throw. Away intercept (1), run the forwards: success 4, channel 3 (2 blocks), tackled (5), ruck
    # 4 v 2 on away's side, won (5).
    g = game([1, 4, 3, 5, 4, 2, 5], ball=(7, 10))
    g.apply(0, "backs")
    calling(g, 1, (7, 10))
    assert g.intercept
    g.apply(1, "forwards")
    assert g.dice == [4, 3, 5, 4, 2, 5]  # the success throw (4) comes first
    calling(g, 1, (7, 8))
    again = game([1, 1], ball=(7, 10))
    again.apply(0, "backs")
    again.apply(1, "forwards")  # away's success throw is a 1: home intercept it back
    calling(again, 0, (7, 10))
    assert again.intercept


def test_pass_intercepted_card_is_an_interception():
    # Finding 5. The "Pass intercepted" running card gives the defender an interception: its backline run goes
    # straight down the channel (3 blocks), tackled (5), ruck 4 v 2, won (5).
    g = game([3, 3, 5, 4, 2, 5], ball=(7, 10))
    top(g, "running", "run-intercepted")
    g.apply(0, "backs")
    calling(g, 1, (7, 10))
    assert g.intercept and g.stats[1]["turnovers"] == 1
    g.apply(1, "backs")
    assert g.dice == [3, 5, 4, 2, 5]  # no success throw, no line throw
    calling(g, 1, (7, 7))


def test_drop_goal_allowed_in_the_red_zone_and_only_the_two_player_game_is_played():
    # Finding 6. The glossary's "can only be executed in Blue Zone" is overruled by 1.1 (Red zone: "a Drop Goal
    # attempt during normal play"), 2.1.2 ("only from allowed Blue or Red zone") and 3.3.1.2 a.
    g = game([6, 2, 4], ball=(7, 12))
    assert "drop-goal" in g.legal_actions(0)
    g.apply(0, "drop-goal")
    assert g.score == [3, 0]
    # D.1's three- and four-player and multiple-player variants (a human referee, shared seats) are not offered.
    assert BokxState.spec.players == 2
    assert set(BokxState.spec.options) == {"half_minutes", "extra_time", "home_team", "away_team"}


def test_kick_off_spot_is_kept_for_22_and_goal_line_kick_offs():
    # Finding 7. A board must tell a 22 kick-off from a goal-line one.
    g = game([4], ball=(7, 18))
    g.apply(0, "drop-goal")  # missed: away kick off from their 22
    kicking_off(g, 1, "22")
    assert find_key(g.view(1), "spot") == "22" and find_key(g.view(None), "spot") == "22"
    held = game([4, 1, 1, 5], ball=(7, 20))
    held.apply(0, "forwards")
    held.apply(0, "left")  # across the line, held up (5): away kick off from behind their goal line
    kicking_off(held, 1, "goal_line")
    assert find_key(held.view(0), "spot") == "goal_line"


# ---- index of the booklet's other examples of play, tested elsewhere ---------------------------------------
# 1.1 items 1-5 (zones' and kick-offs' dice totals): test_bokx_plays test_penalty_goal_by_zone,
#   test_drop_goal_*, test_halfway_kick_off_*, test_22_kick_off_*, test_goal_line_kick_off_from_the_in_goal
# 1.1 item 16 (kick-off short of the 10 m line): test_halfway_kick_off_not_ten_metres_is_a_scrum_for_the_receiver
# 1.1 item 17 (dead-ball line): test_kick_over_the_dead_ball_line_is_a_scrum_where_kicked,
#   test_penalty_kick_over_the_dead_ball_line_is_a_scrum_to_the_opponent
# 2.2.4 throw again on a [6]: test_kick_off_six_throws_again_and_adds, test_run_six_throws_again_and_adds
# 3.2.3 the backline's success throw ([1] interception, [2]/[3] card, [4]-[6] move):
#   test_interception_runs_only_down_the_channel, test_bokx_referee run_card scenarios, test_run_backs_*
# 3.2.4 into touch / over the goal line / tackle: test_run_into_touch_is_a_lineout_to_the_defence,
#   test_try_and_conversion_then_kick_off_by_the_conceding_side, test_run_backs_line_then_channel_tackle_and_ruck
# 3.3.1.3 b into touch from a penalty or free kick: test_kick_to_touch_from_penalty_or_free_kick
# 3.4.1 catch [1]: test_kick_downfield_then_the_catch_is_fumbled_and_the_kicker_regains
# 3.4.2 missed tackles: test_run_forwards_half_distance_missed_tackle_on_four_keep_running,
#   test_backs_tackle_on_a_four_is_made
# 3.4.3 in-goal: test_in_goal_four_is_a_try_conversion_missed, test_in_goal_five_*, test_in_goal_six_*
# 3.5 scrum, lineout, ruck: test_scrum_only_the_feeder_throws, test_lineout_only_the_thrower_throws,
#   test_ruck_tie_throws_again_and_a_one_loses_it
# 4.3 the other calls: test_bokx_referee (play on for the defender / keep running / try / block / picked up ...)
# 5.4-5.5 toss and second-half kick-off: test_toss_tie_throws_again_and_the_winner_chooses,
#   test_half_ends_when_time_is_up_and_the_ball_is_next_dead
