"""A RUGBY_Bokx player that reads the field: kicks from its own 22, goes for goal in the Blue zone,
runs the forwards near the line. It reads only ``view(seat)``."""

from __future__ import annotations

from engine.players import Player, register_aware_player


@register_aware_player("bokx")
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

    def choose(self, view, legal, rng):
        pending = view["pending"]
        kind = pending["kind"]
        p = view["progress"]
        if kind == "toss":
            return "receive"
        if kind == "kickoff":
            return "kick"
        if kind == "side":
            return self._side(pending["preview"], p, rng)
        if kind in ("penalty", "free_kick"):
            return self._penalty(view, kind, p, legal)
        # Call the play.
        if "run_on" in legal:
            return "run_on"
        if p <= self.kick_until:
            return "kick_double" if "kick_double" in legal else "kick"
        if "drop_goal" in legal and p >= 17 and self._need_three(view):
            return "drop_goal"
        if p >= self.forwards_from:
            return "forwards"
        return "backs"

    @staticmethod
    def _need_three(view) -> bool:
        """Late in the match and behind by 1-3 (or level): a drop goal wins it."""
        seat = view["pending"]["seat"]
        clock = view["clock"]
        if view["period"] < 2 or clock["period_seconds"] is None:
            return view["period"] == 5
        behind = view["score"][1 - seat] - view["score"][seat]
        return 0 <= behind <= 2 and clock["period_seconds"] - clock["seconds"] < 180

    @staticmethod
    def _side(preview, p, rng):
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

    def _penalty(self, view, kind, p, legal):
        if "goal" in legal and p >= self.red_goal_from:
            return "goal"
        if p >= 18:
            return "tap_forwards"
        if kind == "penalty" or p <= 4:
            return "kick_double" if p <= self.double_until else "kick"
        return "tap_backs"
