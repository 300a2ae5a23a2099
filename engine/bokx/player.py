"""A RUGBY_Bokx player that reads the field: kicks from its own 22, goes for goal in the Blue zone,
runs the forwards near the line. It reads only ``view(seat)``."""

from __future__ import annotations

import random

from engine.bokx.field import progress
from engine.bokx.rules import (
    BACKS,
    DROP_GOAL,
    FORWARDS,
    GOAL,
    KICK,
    KICK_DOUBLE,
    KICK_OFF,
    LEFT,
    RECEIVE,
    RIGHT,
    RUN_ON,
    TAP_BACKS,
    TAP_FORWARDS,
    BokxSeatView,
    BokxState,
)
from engine.bokx.win_chance import ZONE_OF_ROW, normal_chance, phase_index, seconds_left, time_index
from engine.bokx.win_chance import table as win_table
from engine.core import JSON, GameState, View
from engine.players import Player, register_player
from engine.search import SearchPlayer, normal_cdf, result_value

_TOSS = sorted((KICK_OFF, RECEIVE))
_KICK_OFF = sorted((KICK, KICK_DOUBLE))  # a kick-off's only choices (a free kick or the 22 offer more)


@register_player("bokx", "club")
class BokxClubPlayer(Player):
    """Field-position play for RUGBY_Bokx.

    ``p`` is the ball's progress row for the side in possession (0 own in-goal, 1..4 own 22,
    17..19 the opponent's Blue zone, 21 the opponent's in-goal); see :mod:`engine.bokx.field`.
    """

    level = "club"
    needs_view = True
    reads_seat_view = True  # the phase, the ball's row, the side preview, the period, the clock and the score
    # Tunable thresholds (progress rows), measured against the random player and each other.
    kick_until = 4        # kick downfield from the own 22 (and in-goal)
    forwards_from = 19    # run the forwards this close to the line
    red_goal_from = 9     # take penalty shots at goal from anywhere in the Red zone (and the Blue zone)
    double_until = 8      # double the distance of a penalty kick for touch up to this row

    def __init__(self) -> None:
        # The thresholds copied into the instance: CPython 3.11 reads a class attribute through an instance the slow
        # way, and most decisions read one or two (0.5 % of a lean match's instructions, 5.05 -> 5.02 M with callgrind).
        self.kick_until, self.forwards_from = self.kick_until, self.forwards_from
        self.red_goal_from, self.double_until = self.red_goal_from, self.double_until

    def needs_view_for(self, legal: list[str]) -> bool:
        # The toss, a kick-off and a missed tackle (keep running) are decided without reading the field. The
        # legal lists are sorted: "run-on" comes last, and the only other pair of choices is a side's.
        if len(legal) == 2:
            return legal[0] == LEFT
        return len(legal) > 2 and legal[-1] != RUN_ON

    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        if view is None:
            if legal == _TOSS:
                return RECEIVE
            if legal == _KICK_OFF:
                return KICK
            return RUN_ON if RUN_ON in legal else legal[0]
        return self.choose_seen(_ViewFacts(view), legal, rng)

    # Typed for what it is given (the play loop passes this rule set's seat view), not the base class's SeatView.
    def choose_seen(self, seen: BokxSeatView | _ViewFacts, legal: list[str],  # type: ignore[override]
                    rng: random.Random) -> str:
        """The decision from what the seat sees: the seat view, or the built view's facts under the same names
        (:class:`_ViewFacts`, from :meth:`choose`). The decision itself, not a call to it: it is the lean play
        loop's every move."""
        # The sorted legal list tells the two commonest phases without reading the phase: a side's choice starts
        # with "left", a call's with "backs" (no other list does). Reading it every move cost 1 % of a lean match.
        first = legal[0]
        if first == LEFT:
            # Left or right, written out here: a third of the decisions, each one call less (with GameState.decision
            # and the rules' lighter referee cards, 3 % off a lean match's instructions, measured with callgrind).
            # The ball's row is read only for a kick from play or a free kick: a run, the commonest side, does
            # without it. The side preview's facts come in one call, without its dicts (``_side_facts``).
            kind, src, left_x, left_touch, right_x, right_touch = seen._side_facts()
            if kind == "kick":
                # Into touch from a penalty (own throw) or from the own 22 (the ground gained counts); otherwise
                # keep the ball in play.
                want_touch = src == "penalty" or (src in ("play", "free_kick") and seen._progress() <= 4)
                if left_touch == want_touch:
                    return LEFT
                if right_touch == want_touch:
                    return RIGHT
                return LEFT if rng.random() < 0.5 else RIGHT
            # A run: stay in the field, towards the wider side of the field.
            if left_touch != right_touch:
                return RIGHT if left_touch else LEFT
            return LEFT if abs(left_x - 7.5) < abs(right_x - 7.5) else RIGHT
        p = seen._progress()  # the seat view's progress, as a method (a property is read the slow way)
        if first == BACKS:
            # The sorted list has "run-on" last when it is offered (as needs_view_for reads it): one comparison, not a
            # search of the list (0.45 % of a lean match's instructions, 5.07 -> 5.05 M with callgrind).
            if legal[-1] == RUN_ON:
                return RUN_ON
            if p <= self.kick_until:
                return KICK_DOUBLE if KICK_DOUBLE in legal else KICK
            if p >= 17 and DROP_GOAL in legal and self._need_three(seen):
                return DROP_GOAL
            if p >= self.forwards_from:
                return FORWARDS
            return BACKS
        kind = seen.phase
        if kind == "toss":
            return RECEIVE
        if kind == "kickoff":
            return KICK
        return self._penalty(kind, p, legal)  # a penalty or a free kick

    @staticmethod
    def _need_three(seen: BokxSeatView | _ViewFacts) -> bool:
        """Late in the match and behind by 1-3 (or level): a drop goal wins it."""
        clock = seen.clock
        period = seen.period
        if period < 2 or clock["period_seconds"] is None:
            return bool(period == 5)
        home, away = seen.points
        behind = (away - home) if seen.seat == 0 else (home - away)
        return 0 <= behind <= 2 and clock["period_seconds"] - clock["seconds"] < 180

    def _penalty(self, kind: str, p: int, legal: list[str]) -> str:
        if GOAL in legal and p >= self.red_goal_from:
            return GOAL
        if p >= 18:
            return TAP_FORWARDS
        if kind == "penalty" or p <= 4:
            return KICK_DOUBLE if p <= self.double_until else KICK
        return TAP_BACKS


class _ViewFacts:
    """The built view's facts under the seat view's names (:class:`BokxSeatView`), for :meth:`choose`."""

    __slots__ = ("clock", "period", "phase", "points", "progress", "seat", "side_preview")

    def __init__(self, view: View):
        board = view["board"]
        score = view["score"]
        self.seat = view["seat"]
        self.phase = view["phase"]
        self.points = score["home"]["points"], score["away"]["points"]
        self.progress: int = board["progress"]
        self.period: int = board["period"]
        self.clock: JSON = board["clock"]
        self.side_preview: JSON | None = board["side_preview"]

    def _progress(self) -> int:
        """As the seat view's: the ball's progress row."""
        return self.progress

    def _side_facts(self) -> tuple[str, str | None, int, bool, int, bool]:
        """As the seat view's: the side preview's kind, a kick's source, and column and touch of left and right."""
        preview = self.side_preview
        assert preview is not None  # a side is being chosen
        left, right = preview["left"], preview["right"]
        return preview["kind"], preview.get("src"), left["x"], left["touch"], right["x"], right["touch"]


def expected_points(p: int) -> float:
    """What having the ball at progress row ``p`` is worth in points to the side holding it.

    Fitted to club play (600 matches: the change in the holder's margin by full time, by row): from about
    -1.7 in its own in-goal to +2.7 near the opponent's line.
    """
    return 0.22 * p - 1.7


@register_player("bokx", "international")
class BokxInternationalPlayer(SearchPlayer):
    """Plays each call (or side, or penalty option) out a few plays ahead with fresh dice and referee decks
    dealt afresh above the cards already drawn, then judges the position by the win-chance table learned from
    club play (:mod:`engine.bokx.win_chance`): the score, the clock, where the ball is and who has it.

    Measured against club (issue 20): the number of playouts matters most, so the playouts are short (the table
    judges what a longer playout would have played on to) and the per-move budget is large: 480 playouts of
    3 actions cost less than the former 240 of 8 (about 35 ms a move). Scores against club: 58.8% [55.7-61.8]
    over 1,000 matches at the bulk budget (48; the linear heuristic: 54.7%), 69.7% [62.3-77.0] over 150 at
    the per-move budget (``bench/levels.py``, ``bench/search_trials.py``)."""

    move_iterations = 480
    simulation_iterations = 48
    horizon = 3

    def make_club(self) -> Player:
        return BokxClubPlayer()

    def evaluate(self, state: GameState, seat: int) -> float:
        assert isinstance(state, BokxState)
        if state.phase == "over":
            return result_value(state, seat)
        holder = state.poss
        if state.period > 2 or state.period_len is None:
            return _extra_time_chance(state, seat)
        half = state.options["half_minutes"]
        left = seconds_left(state.period, state.secs, state.period_len, half)
        chance = win_table().chance(state.score[holder] - state.score[1 - holder], time_index(left, half),
                                    ZONE_OF_ROW[progress(holder, state.y)], phase_index(state.phase, state.ctx))
        return chance if holder == seat else 1.0 - chance


def _extra_time_chance(state: BokxState, seat: int) -> float:
    """Extra time (the table knows regular time only): the margin with the ball's worth, against the clock."""
    margin: float = state.score[seat] - state.score[1 - seat]
    holder = state.poss
    field = expected_points(progress(holder, state.y))
    margin += field if holder == seat else -field
    if state.period_len is None:  # sudden death: the next score wins
        return normal_cdf(margin / 3.0)
    left = max(0, state.period_len - state.secs)
    if state.period == 3:
        left += max(1, state.options["half_minutes"] // 4) * 60
    return normal_chance(margin, left)
