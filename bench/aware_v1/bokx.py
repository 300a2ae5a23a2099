"""A RUGBY_Bokx player that reads the field: kicks from its own 22, goes for goal in the Blue zone,
runs the forwards near the line. It reads only ``view(seat)``."""

from __future__ import annotations

import random

from engine.bokx.rules import (
    BACKS,
    DROP_GOAL,
    FORWARDS,
    GOAL,
    KICK,
    KICK_DOUBLE,
    RECEIVE,
    RUN_ON,
    TAP_BACKS,
    TAP_FORWARDS,
)
from engine.core import JSON, View
from engine.players import Player


class AwareBokxPlayer(Player):
    """Field-position play for RUGBY_Bokx.

    ``p`` is the ball's progress row for the side in possession (0 own in-goal, 1..4 own 22,
    17..19 the opponent's Blue zone, 21 the opponent's in-goal); see :mod:`engine.bokx.field`.
    """

    level = "aware"
    needs_view = True
    # Tunable thresholds (progress rows), measured against the random player and each other.
    kick_until = 4        # kick downfield from the own 22 (and in-goal)
    forwards_from = 19    # run the forwards this close to the line
    red_goal_from = 9     # take penalty shots at goal from anywhere in the Red zone (and the Blue zone)
    double_until = 8      # double the distance of a penalty kick for touch up to this row

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        assert view is not None
        board = view["board"]
        kind = view["phase"]
        p = board["progress"]
        if kind == "toss":
            return RECEIVE
        if kind == "kickoff":
            return KICK
        if kind == "side":
            return self._side(board["side_preview"], p, rng)
        if kind in ("penalty", "free_kick"):
            return self._penalty(kind, p, legal)
        # Call the play.
        if RUN_ON in legal:
            return RUN_ON
        if p <= self.kick_until:
            return KICK_DOUBLE if KICK_DOUBLE in legal else KICK
        if DROP_GOAL in legal and p >= 17 and self._need_three(view):
            return DROP_GOAL
        if p >= self.forwards_from:
            return FORWARDS
        return BACKS

    @staticmethod
    def _need_three(view: View) -> bool:
        """Late in the match and behind by 1-3 (or level): a drop goal wins it."""
        board = view["board"]
        clock = board["clock"]
        if board["period"] < 2 or clock["period_seconds"] is None:
            return bool(board["period"] == 5)
        score = view["score"]
        me, them = ("home", "away") if view["seat"] == 0 else ("away", "home")
        behind = score[them]["points"] - score[me]["points"]
        return 0 <= behind <= 2 and clock["period_seconds"] - clock["seconds"] < 180

    @staticmethod
    def _side(preview: JSON, p: int, rng: random.Random) -> str:
        left, right = preview["left"], preview["right"]
        if preview["kind"] == "kick":
            src = preview["src"]
            # Into touch from a penalty (own throw) or from the own 22 (the ground gained counts); otherwise
            # keep the ball in play.
            want_touch = src == "penalty" or (src in ("play", "free_kick") and p <= 4)
            for side in ("left", "right"):
                if preview[side]["touch"] == want_touch:
                    return side
            return "left" if rng.random() < 0.5 else "right"
        # A run: stay in the field, towards the wider side of the field.
        if left["touch"] != right["touch"]:
            return "right" if left["touch"] else "left"
        return "left" if abs(left["x"] - 7.5) < abs(right["x"] - 7.5) else "right"

    def _penalty(self, kind: str, p: int, legal: list[str]) -> str:
        if GOAL in legal and p >= self.red_goal_from:
            return GOAL
        if p >= 18:
            return TAP_FORWARDS
        if kind == "penalty" or p <= 4:
            return KICK_DOUBLE if p <= self.double_until else KICK
        return TAP_BACKS
