"""RUGBY_Bokx (JH Nel, v3.01): the dice board game, played to its full rules.

The booklet's play strings become methods: a person's decision (the call of the
play, the side of a kick or pass after seeing the die, double the distance, the
penalty option, keep running after a missed tackle, the toss choice) is an
action; every die between two decisions is thrown here with
``self.chance.roll(6)``, so one action resolves the whole string of throws up
to the next decision. Geometry lives in :mod:`engine.bokx.field`, the referee
decks in ``referee_cards.toml``; every decision on what the booklet leaves open
is listed in ``INTERPRETATIONS.md`` with its test.

Seats: 0 (home) attacks towards row 21, 1 (away) towards row 0. "left" and
"right" are as the side in possession faces its opponent's goal line.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine.bokx.cards import CARDS, DECKS, GROUPS
from engine.bokx.field import (
    BLUE_ZONE_P,
    KICK_OFF_BLOCKS,
    LINEOUT_BALL_X,
    PROGRESS,
    RED_ZONE_P,
    ROW,
    TEN_METRE_P,
)
from engine.chance import SeededChance
from engine.core import JSON, GameState, Option, Outcome, RuleSetSpec, SeatView
from engine.registry import register
from engine.scoring import UNION

# Forwards move half the distance: [1]+[2] -> 1 block, [3]+[4] -> 2, [5]+[6] -> 3.
FORWARD_BLOCKS = (0, 1, 1, 2, 2, 3, 3)

# Game seconds each play string takes (see INTERPRETATIONS.md, "the clock"). Tuned so that full
# 80-minute matches between aware players score like test rugby.
SECONDS = {
    "kick_off": 23, "run": 16, "run_on": 6, "ruck": 9, "kick": 18, "scrum": 40, "lineout": 35,
    "penalty": 23, "goal_kick": 35, "drop_goal": 14, "card": 12, "in_goal": 12, "try": 35,
}

BACKLINE = {1: "scrum-half (9)", 2: "fly-half (10)", 3: "inside centre (12)", 4: "outside centre (13)",
         5: "full-back (15)"}
WINGS = {-1: "left wing (11)", 1: "right wing (14)"}
FRONT_ROW = ("loosehead prop (1)", "hooker (2)", "tighthead prop (3)")
LOCKS = ("lock (4)", "lock (5)")
LOOSE_FORWARDS = ("openside flanker (6)", "blindside flanker (7)", "number eight (8)")

# The actions (the engine's action grammar: lowercase words joined by hyphens).
BACKS, FORWARDS, KICK, KICK_DOUBLE, DROP_GOAL, RUN_ON = (
    "backs", "forwards", "kick", "kick-double", "drop-goal", "run-on")
LEFT, RIGHT, GOAL, SCRUM, TAP_BACKS, TAP_FORWARDS = "left", "right", "goal", "scrum", "tap-backs", "tap-forwards"
KICK_OFF, RECEIVE = "kick-off", "receive"
_CALL = tuple(sorted((BACKS, FORWARDS, KICK)))
_CALL_22 = tuple(sorted((BACKS, FORWARDS, KICK, KICK_DOUBLE)))
_CALL_ZONE = tuple(sorted((BACKS, FORWARDS, KICK, DROP_GOAL)))
_MISS = tuple(sorted((RUN_ON, BACKS, FORWARDS, KICK)))
_MISS_22 = tuple(sorted((RUN_ON, BACKS, FORWARDS, KICK, KICK_DOUBLE)))
_MISS_ZONE = tuple(sorted((RUN_ON, BACKS, FORWARDS, KICK, DROP_GOAL)))
_FREE = tuple(sorted((KICK, KICK_DOUBLE, SCRUM, TAP_BACKS, TAP_FORWARDS)))
_PEN_GOAL = tuple(sorted((GOAL, KICK, KICK_DOUBLE, SCRUM, TAP_BACKS, TAP_FORWARDS)))
_SIDES = (LEFT, RIGHT)
# Set-piece commentary: (heading, verb, how it is lost, stat the winner is credited with).
_SET_PIECE_TEXT = {
    "scrum": ("Scrum", "feed", "won against the head by", "scrums_won"),
    "lineout": ("Lineout", "throw", "stolen by", "lineouts_won"),
}
_TOSS = (KICK_OFF, RECEIVE)
_ALONE = ((0,), (1,))  # to_act of the seat to act
_KICK = (KICK, KICK_DOUBLE)
# Tuples of actions built once: ``action in (BACKS, FORWARDS)`` in the rules built the tuple of the names' values at
# every call (with the kicks', 0.65 % of a lean match's instructions, 5.11 -> 5.08 M with callgrind).
_RUNS = (BACKS, FORWARDS)
Turn = tuple[int, list[str]]


def _turns(actions: tuple[str, ...]) -> tuple[Turn, Turn]:
    """Each seat's decision among ``actions``, as ``decision`` hands it out."""
    return (0, list(actions)), (1, list(actions))


# The decisions, built once: ``decision`` hands out these pairs of the seat and its legal list as they are, shared (the
# caller never changes them; ``legal_actions`` copies). A new list and a new pair at every move were 2.9 % of a lean
# match's instructions (5.35 -> 5.20 M with callgrind).
_CALL_TURNS, _CALL_22_TURNS, _CALL_ZONE_TURNS = _turns(_CALL), _turns(_CALL_22), _turns(_CALL_ZONE)
_MISS_TURNS, _MISS_22_TURNS, _MISS_ZONE_TURNS = _turns(_MISS), _turns(_MISS_22), _turns(_MISS_ZONE)
_FREE_TURNS, _PEN_GOAL_TURNS = _turns(_FREE), _turns(_PEN_GOAL)
_SIDE_TURNS, _TOSS_TURNS, _KICK_OFF_TURNS = _turns(_SIDES), _turns(_TOSS), _turns(_KICK)
# The sources of a kick-off (``_kick``'s ``src``): a set test instead of ``src.startswith("kickoff")``, a method call
# at every kick (0.3 % of a lean Bokx match's instructions, measured with callgrind).
_KICK_OFF_SOURCES = frozenset(("kickoff", "kickoff_halfway"))
_ZONE_P = frozenset(RED_ZONE_P) | frozenset(BLUE_ZONE_P)
_BLUE_P = frozenset(BLUE_ZONE_P)
# The referee decks the attacker of a play draws from (the defender draws from the others).
_DRAWN_BY_ATTACKER = frozenset(group for group, deck in DECKS.items() if deck["drawn_by"] == "attacker")
# What a referee card makes happen, per card id: (call, whether it goes to the attacker, whether it is an
# interception, a kick-off's spot) -- one lookup at each card drawn instead of four into the card's dict (0.7 % of a
# lean Bokx match's instructions, measured with callgrind).
_PLAY_OF_CARD: dict[str, tuple[str, bool, bool, str]] = {
    cid: (card["call"], card["to"] == "attacker", bool(card.get("intercept")),
          card["spot"] if card["call"] == "kick_off" else "")
    for cid, card in CARDS.items()}

LABELS = {
    BACKS: "Run with the backline", FORWARDS: "Run with the forwards", KICK: "Kick downfield",
    KICK_DOUBLE: "Kick downfield, double the distance", DROP_GOAL: "Drop goal",
    RUN_ON: "Keep running", LEFT: "Left", RIGHT: "Right", GOAL: "Kick at goal",
    SCRUM: "Take a scrum", TAP_BACKS: "Tap and run with the backline",
    TAP_FORWARDS: "Tap and run with the forwards", KICK_OFF: "Kick off", RECEIVE: "Receive",
}
STAT_KEYS = ("penalties", "free_kicks", "referee_cards", "kicks", "kick_offs", "runs", "metres", "tackles",
             "missed_tackles", "turnovers", "scrums_won", "lineouts_won", "rucks_won", "conversions",
             "conversions_missed", "penalty_goals", "penalty_goals_missed", "drop_goals", "drop_goals_missed",
             "penalty_tries")


def _new_stats() -> dict[str, int]:
    return dict.fromkeys(STAT_KEYS, 0)


@register
class BokxState(GameState):
    """A match of RUGBY_Bokx between two players (seat 0 home, seat 1 away)."""

    # The position's fields are slots. Kept in the instance's dict, they were 24 of its 29 keys, and a lean
    # simulation's ``record_events`` (the 30th) went past what CPython 3.11 keeps in a class's shared keys: the
    # dict then stood on its own and every attribute of the rules was looked up in it (7 % of a lean Bokx match's
    # instructions, 6.44 -> 5.98 M, measured with callgrind).
    __slots__ = ("teams", "score", "tries", "stats", "period", "secs", "earlier_periods", "period_len", "x", "y",
                 "poss", "phase", "actor", "ctx", "after_miss", "intercept", "regained", "run_group", "carrier",
                 "last_card", "first_kicker", "dice", "decks", "toss")

    spec = RuleSetSpec(
        id="bokx",
        name="RUGBY_Bokx",
        players=2,
        hidden_information=False,
        rules_version="3.01-engine.3",
        description="JH Nel's dice board game: call the play, throw for success, distance and direction, "
                    "referee cards, scrums, lineouts and rucks on a 22 x 16 block field.",
        options={
            "half_minutes": Option(40, "Length of each half in game minutes (organisers may choose e.g. 10)"),
            "extra_time": Option(False, "Knockout: if drawn, play two extra-time halves of a quarter of a "
                                        "half each, then sudden death (first score wins)"),
            "home_team": Option("Home", "Name of the home team (commentary)"),
            "away_team": Option("Away", "Name of the away team (commentary)"),
        },
        scoring=UNION,
        knockout_options={"extra_time": True},
        board_kind="block-field",
    )

    # ---- setup ----------------------------------------------------------------------------------
    def setup(self) -> None:
        half = self.options["half_minutes"]
        if half < 1:
            raise ValueError("option 'half_minutes' must be at least 1")
        self.teams = [self.options["home_team"], self.options["away_team"]]
        self.score = [0, 0]
        self.tries = [0, 0]
        self.stats = [_new_stats(), _new_stats()]
        self.period = 1
        self.secs = 0  # the period's clock; a play string runs it on by its SECONDS
        self.earlier_periods = 0  # game seconds played in the periods before this one (see ``elapsed``)
        self.period_len: int | None = half * 60  # None: sudden death, no time limit
        self.x, self.y = KICK_OFF_BLOCKS["halfway"][0]
        self.poss = 0
        self.phase = "toss"
        self.actor: int | None = None  # the seat to act; None only before the toss and once over
        self.ctx: dict[str, Any] = {}
        self.after_miss = False
        self.intercept = False
        self.regained = False
        self.run_group = "backs"
        self.carrier = ""
        self.last_card: str | None = None
        self.first_kicker: int | None = None
        self.dice: list[int] = []
        self.decks = {g: list(self.chance.shuffle(DECKS[g]["cards"])) for g in GROUPS}
        # The toss: both throw, higher wins (throw again on a tie).
        while True:
            a, b = self._roll(), self._roll()
            if a != b:
                break
        self.toss = [a, b]
        winner = 0 if a > b else 1
        self.actor = winner
        self.emit("toss", winner, f"Toss: {self.teams[0]} throw {a}, {self.teams[1]} throw {b}; "
                                  f"{self.teams[winner]} win the toss.", dice=[a, b])

    # ---- protocol -------------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == "over" else _ALONE[self.actor]  # type: ignore[index]  # None only when over

    def legal_actions(self, seat: int) -> list[str]:
        turn = self.decision()
        return list(turn[1]) if turn is not None and turn[0] == seat else []

    def decision(self) -> tuple[int, list[str]] | None:
        """The seat to act and its legal actions (one seat acts at a time): the play loop's every move, and the one
        copy of what may be done when (``legal_actions`` asks it too). The pair is a prebuilt one, shared."""
        phase = self.phase
        if phase == "over":
            return None
        seat: int = self.actor  # type: ignore[assignment]  # None only when over
        if phase == "call":
            p = PROGRESS[seat][self.y]
            if self.after_miss:
                # A missed tackle bars the drop goal (3.4.2.1); regaining a kick does not (3.4.1).
                if p <= 4:
                    return _MISS_22_TURNS[seat]
                return (_MISS_ZONE_TURNS if self.regained and p in _ZONE_P else _MISS_TURNS)[seat]
            if p <= 4:
                return _CALL_22_TURNS[seat]
            return (_CALL_ZONE_TURNS if p in _ZONE_P else _CALL_TURNS)[seat]
        if phase == "side":
            return _SIDE_TURNS[seat]
        if phase == "penalty":
            return (_PEN_GOAL_TURNS if PROGRESS[seat][self.y] in _ZONE_P else _FREE_TURNS)[seat]
        if phase == "free_kick":
            return _FREE_TURNS[seat]
        if phase == "kickoff":
            return _KICK_OFF_TURNS[seat]
        return _TOSS_TURNS[seat]  # toss

    def _apply(self, seat: int, action: str) -> None:
        # The dice of this action only: the list emptied in place, not a new one every action (nothing else holds it:
        # the views copy it; 0.45 % of a lean match's instructions, 5.37 -> 5.35 M with callgrind).
        self.dice.clear()
        phase = self.phase
        if phase == "call":
            self._call(seat, action)
        elif phase == "side":
            self._side(seat, action)
        elif phase == "penalty" or phase == "free_kick":
            self._penalty_option(seat, action)
        elif phase == "kickoff":
            self._kick(seat, "kickoff", action == KICK_DOUBLE)
        else:
            kicker = seat if action == KICK_OFF else 1 - seat
            self.first_kicker = kicker
            if self.record_events:
                choice = "kick off" if kicker == seat else "receive"
                self.emit("toss_choice", seat, f"{self.teams[seat]} choose to {choice}.", choice=action)
            self._kick_off(kicker, "halfway")

    def describe_action(self, action: str) -> str:
        if self.phase == "kickoff" and action in _KICK:
            return "Kick off, double the distance" if action == KICK_DOUBLE else "Kick off"
        if self.phase in ("penalty", "free_kick") and action in _KICK:
            return "Kick for touch, double the distance" if action == KICK_DOUBLE else "Kick for touch"
        return LABELS.get(action, action)

    def scoreline(self) -> tuple[list[int], list[int]]:
        return self.score, self.tries

    def outcome(self) -> Outcome:
        return Outcome(points=(self.score[0], self.score[1]), tries=(self.tries[0], self.tries[1]),
                       stats=(dict(self.stats[0]), dict(self.stats[1])))

    # ---- dice -----------------------------------------------------------------------------------
    def _roll(self) -> int:
        """A throw of the die, kept in ``dice``. Only the toss calls it: every throw in play writes these two lines out
        (a call per throw; the last six places that called it were 0.6 % of a lean match's instructions, 5.40 ->
        5.37 M with callgrind)."""
        v = self.chance.roll(6)
        self.dice.append(v)
        return v

    def _distance(self, forwards: bool, double: bool) -> tuple[int, int]:
        """Blocks moved by one distance throw (a 6 throws again and adds); and the first die."""
        # _roll's two lines written out: this throw and the ruck's are two thirds of a match's ~430 dice (the
        # call to _roll cost 1 % of a lean Bokx match here, measured with callgrind). The chance source's roll is
        # called as a method, not taken as a bound method first (CPython 3.11 looks an attribute that is a method up
        # the slow way and makes an object of it: 1.6 % of a lean match's instructions, 5.20 -> 5.11 M with callgrind,
        # here and in the ruck).
        dice = self.dice
        v = first = self.chance.roll(6)
        dice.append(v)
        total = FORWARD_BLOCKS[v] if forwards else v
        while v == 6:
            v = self.chance.roll(6)
            dice.append(v)
            total += FORWARD_BLOCKS[v] if forwards else v
        return (total * 2 if double else total), first

    # The clock is one number, the period's ``secs``, and a play string runs it on in place
    # (``self.secs += SECONDS[...]``): the match time is derived from it. A tick method for both cost 3 % of a
    # lean Bokx match (~270 calls; measured with callgrind).
    @property
    def elapsed(self) -> int:
        """Game seconds since kick-off (a saved field: ``state_dict`` reads it, ``load_state_dict`` sets it)."""
        return self.earlier_periods + self.secs

    @elapsed.setter
    def elapsed(self, value: int) -> None:
        # Set after ``secs`` (saved_fields lists it after; copy_position_into too).
        self.earlier_periods = value - self.secs

    # ---- call the play ----------------------------------------------------------------------------
    def _call(self, seat: int, action: str) -> None:
        intercept = self.intercept
        self.after_miss = self.intercept = self.regained = False
        team = self.teams[seat]
        if action == RUN_ON:
            self.secs += SECONDS["run_on"]
            if self.record_events:
                self.emit("call", seat, f"{team}: the {self.carrier} keeps running.", call=action)
            self._carry(seat, self.run_group)
        elif action in _RUNS:
            self.secs += SECONDS["run"]
            self.stats[seat]["runs"] += 1
            if intercept and action == BACKS:
                # 2.2.4: after an interception the backline only moves the ball down the channel
                # ("not throwing the dice to determine success rate or movement down the Line").
                if self.record_events:
                    self.emit("call", seat, f"{team} run the interception with the backs.", call=action)
                self.carrier = ""
                self._carry(seat, action)
                return
            # 2.2.4: the forwards skip only the line throw after an interception; the success throw stands. (What
            # follows a success is called directly, and handed to the referee only on a 2 or 3.)
            v = self.chance.roll(6)
            self.dice.append(v)  # _roll written out, as in _distance
            if v == 1:
                if self.record_events:
                    self.emit("turnover", 1 - seat, f"{team} call the {action} but the pass is intercepted by "
                                                    f"{self.teams[1 - seat]}!", call=action, die=v)
                self.stats[1 - seat]["turnovers"] += 1
                self._gain(1 - seat, intercept=True)
            elif v <= 3:
                if self.record_events:
                    self.emit("call", seat, f"{team} run with the {action}: the referee has a call.", call=action,
                              die=v)
                self._card("running", seat, 1 - seat, self._channel_only if intercept else self._line, seat, action)
            else:
                if self.record_events:
                    self.emit("call", seat, f"{team} run with the {action}"
                                            f"{' from the interception' if intercept else ''}.", call=action, die=v)
                if intercept:
                    self._channel_only(seat, action)
                else:
                    self._line(seat, action)
        elif action in _KICK:
            self.secs += SECONDS["kick"]
            double = action == KICK_DOUBLE
            v = self.chance.roll(6)
            self.dice.append(v)  # _roll written out, as in _distance
            what = "kick downfield, double the distance" if double else "kick downfield"
            if v == 1:
                if self.record_events:
                    self.emit("turnover", 1 - seat, f"{team} {what}, but the kick is charged down and "
                                                    f"{self.teams[1 - seat]} gather.", call=action, die=v)
                self.stats[1 - seat]["turnovers"] += 1
                self._gain(1 - seat)
            elif v <= 3:
                if self.record_events:
                    self.emit("call", seat, f"{team} {what}: the referee has a call.", call=action, die=v)
                self._card("kick_downfield", seat, 1 - seat, self._kick, seat, "play", double)
            else:
                if self.record_events:
                    self.emit("call", seat, f"{team} {what}.", call=action, die=v)
                self._kick(seat, "play", double)
        else:  # drop_goal
            self.secs += SECONDS["drop_goal"]
            self._kick_at_goal(seat, "drop_goal", need=(5, 6), lead="drop for goal",
                               made="... it's over! Three points.", missed="... missed.")

    def _kick_at_goal(self, seat: int, kind: str, *, need: tuple[int, int], lead: str, made: str,
                      missed: str) -> None:
        """A drop goal or penalty goal: one throw, good on ``need`` (Blue zone, Red zone) or more; 3 points.

        A goal restarts from halfway (by the side that conceded), a miss from the defenders' 22.
        """
        team = self.teams[seat]
        blue = PROGRESS[seat][self.y] in _BLUE_P
        zone = "Blue" if blue else "Red"
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v >= need[0 if blue else 1]:
            self.stats[seat][f"{kind}s"] += 1
            if self.record_events:
                self.emit(kind, seat, f"{team} {lead} from the {zone} zone{made}", die=v, good=True)
            if not self._score(seat, 3):
                self._kick_off(1 - seat, "halfway")
        else:
            self.stats[seat][f"{kind}s_missed"] += 1
            if self.record_events:
                self.emit(kind, seat, f"{team} {lead} from the {zone} zone{missed}", die=v, good=False)
            self._kick_off(1 - seat, "22")

    # ---- running ------------------------------------------------------------------------------------
    def _line(self, seat: int, group: str) -> None:
        """THROW 2 of a run: blocks down the line; the side is chosen after seeing the die."""
        d, first = self._distance(group == "forwards", False)
        if group == "forwards":
            names = FRONT_ROW if first <= 2 else LOCKS if first <= 4 else LOOSE_FORWARDS
            self.carrier = names[(first + self.x) % len(names)]
        else:
            self.carrier = BACKLINE.get(first, "wing")
        self.run_group = group
        self.ctx = {"k": "run", "g": group, "d": d}
        self.phase = "side"
        self.actor = seat
        if self.record_events:
            self.emit("line", seat, f"The ball goes {d} block{'s' if d != 1 else ''} down the line to the "
                                    f"{self.carrier}: left or right?", blocks=d, carrier=self.carrier)

    def _channel_only(self, seat: int, group: str) -> None:
        """The forwards run an interception: no line throw, straight down the channel (2.2.4)."""
        self.carrier = ""
        self._carry(seat, group)

    def _carry(self, seat: int, group: str) -> None:
        """THROW 3 of a run (or the whole run after an interception or a missed tackle): down the channel."""
        self.run_group = group
        d, first = self._distance(group == "forwards", False)
        if not self.carrier:
            self.carrier = (BACKLINE.get(first, "wing") if group == "backs"
                            else (FRONT_ROW if first <= 2 else LOCKS if first <= 4 else LOOSE_FORWARDS)[0])
        p0 = PROGRESS[seat][self.y]
        p = p0 + d
        if p >= 21:
            self.stats[seat]["metres"] += (21 - p0) * 5
            self.y = ROW[seat][21]
            if self.record_events:
                self.emit("carry", seat, f"The {self.carrier} of {self.teams[seat]} crosses the goal line!",
                          blocks=d, x=self.x, y=self.y)
            self._in_goal(seat)
            return
        self.stats[seat]["metres"] += d * 5
        self.y = ROW[seat][p]
        if self.record_events:
            self.emit("carry", seat, f"The {self.carrier} carries {d} block{'s' if d != 1 else ''} upfield.",
                      blocks=d, x=self.x, y=self.y)
        self._tackle(seat, group)

    def _tackle(self, att: int, group: str) -> None:
        dfn = 1 - att
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v == 1 or (v == 4 and group == "forwards"):
            self.stats[dfn]["missed_tackles"] += 1
            if self.record_events:
                self.emit("tackle", dfn, f"{self.teams[dfn]} miss the tackle! The {self.carrier} can keep running.",
                          die=v, made=False)
            self._missed(att, group)
        elif v <= 3:
            if self.record_events:
                self.emit("tackle", dfn, f"{self.teams[dfn]} go for the tackle: the referee has a call.", die=v)
            self._card("tackle", att, dfn, self._tackled, att)
        else:
            if self.record_events:
                self.emit("tackle", dfn, f"{self.teams[dfn]} tackle the {self.carrier}.", die=v, made=True)
            self._tackled(att)

    def _tackled(self, att: int) -> None:
        self.stats[1 - att]["tackles"] += 1
        self._ruck(att)

    def _missed(self, att: int, group: str) -> None:
        self._possess(att)
        self.actor = att
        self.phase = "call"
        self.after_miss = True
        self.run_group = group

    def _ruck(self, att: int) -> None:
        """Automatic ruck/maul: both throw (again on a tie); the higher has the ball on its side and throws."""
        self.secs += SECONDS["ruck"]
        chance, dice = self.chance, self.dice  # _roll written out, as in _distance
        while True:
            a = chance.roll(6)
            b = chance.roll(6)
            dice += (a, b)
            if a != b:
                break
        side = att if a > b else 1 - att
        v = chance.roll(6)
        dice.append(v)
        if self.record_events:
            how = (f", but it squirts out to {self.teams[1 - side]}." if v == 1
                   else ": the referee has a call." if v <= 3 else ", and they win it.")
            self.emit("ruck", side, f"Ruck: {self.teams[att]} {a}, {self.teams[1 - att]} {b}; ball on "
                                    f"{self.teams[side]}'s side{how}", dice=[a, b, v])
        if v == 1:
            self.stats[1 - side]["turnovers"] += 1
            self._won(1 - side, "rucks_won")
        elif v <= 3:
            self._card("ruck_maul", side, 1 - side, self._won, side, "rucks_won")
        else:
            self._won(side, "rucks_won")

    # ---- kicking ------------------------------------------------------------------------------------
    def _kick(self, seat: int, src: str, double: bool) -> None:
        """Distance (THROW 1) then direction (THROW 2) of a kick; the side is chosen after seeing the die.

        ``src``: "play" (kick downfield), "penalty", "free_kick", "kickoff_halfway", "kickoff" (22/goal line).
        """
        self.stats[seat]["kick_offs" if src in _KICK_OFF_SOURCES else "kicks"] += 1
        x0, y0 = self.x, self.y
        rcv = 1 - seat
        d, _ = self._distance(False, double)
        land = PROGRESS[seat][y0] + d
        if src == "kickoff_halfway" and land <= TEN_METRE_P:
            if self.record_events:
                self.emit("kick", seat, f"{self.teams[seat]}'s kick-off goes {d} block{'s' if d != 1 else ''}: "
                                        f"not 10 metres! Scrum to {self.teams[rcv]}.", blocks=d, outcome="not_ten")
            self._scrum(rcv, x0, y0)
            return
        if land > 21:
            if self.record_events:
                self.emit("kick", seat, f"{self.teams[seat]} kick {d} blocks, over the dead-ball line: "
                                        f"scrum to {self.teams[rcv]} where it was kicked.", blocks=d, outcome="dead")
            self._scrum(rcv, x0, y0)
            return
        line, _ = self._distance(False, double)
        self.ctx = {"k": "kick", "src": src, "land": land, "line": line, "x0": x0, "y0": y0, "d": d}
        self.phase = "side"
        self.actor = seat
        if self.record_events:
            self.emit("kick", seat, f"{self.teams[seat]} kick {d} block{'s' if d != 1 else ''} downfield and "
                                    f"{line} across: left or right?", blocks=d, across=line)

    def _possess(self, seat: int) -> None:
        """``seat`` has the ball; a change of possession forgets the other side's ball carrier."""
        if seat != self.poss:
            self.carrier = ""
            self.poss = seat

    def _side(self, seat: int, action: str) -> None:
        dx = (-1 if seat == 0 else 1) if action == "left" else (1 if seat == 0 else -1)
        ctx = self.ctx
        self.ctx = {}
        if ctx["k"] == "run":
            nx = self.x + dx * ctx["d"]
            if self.carrier == "wing":
                self.carrier = WINGS[-1 if action == "left" else 1]
            if nx < 0 or nx > 15:
                if PROGRESS[seat][self.y] == 0:
                    # 3.5.2: a lineout only when the ball crossed a side line "not behind a Goal Line".
                    # Run into touch-in-goal from its own in-goal, the ball is made dead by the side
                    # defending that goal line: a kick-off from behind the goal line (3.3.1.1 b).
                    self.emit("touch", seat, f"The {self.carrier} runs into touch-in-goal: the ball is dead. "
                                             f"Goal-line kick-off to {self.teams[seat]}.", side=action)
                    self._kick_off(seat, "goal_line")
                    return
                if self.record_events:
                    self.emit("touch", seat, f"The {self.carrier} is bundled into touch: lineout to "
                                             f"{self.teams[1 - seat]}.", side=action)
                self._lineout(1 - seat, self.y, "left" if nx < 0 else "right")
                return
            self.x = nx
            self._carry(seat, ctx["g"])
            return
        self._kick_land(seat, ctx, self.x + dx * ctx["line"])

    def _kick_land(self, seat: int, ctx: dict[str, Any], nx: int) -> None:
        rcv = 1 - seat
        land = ctx["land"]
        src = ctx["src"]
        if nx < 0 or nx > 15:
            side = "left" if nx < 0 else "right"
            land_y = ROW[seat][land]
            if src in _KICK_OFF_SOURCES:
                if self.record_events:
                    self.emit("touch", seat, f"Kick-off directly into touch: scrum to {self.teams[rcv]}.")
                self._scrum(rcv, ctx["x0"], ctx["y0"])
            elif land == 21:
                # INTERPRETATIONS #12a: out of the in-goal area from the kicker's boot, like a kick over the
                # dead-ball line (section 17): scrum to the opponent where it was kicked -- a 22 kick-off
                # "only occurs if" a goal kick was missed (3.3.1.1 b).
                if self.record_events:
                    self.emit("touch", seat, f"Into touch-in-goal: scrum to {self.teams[rcv]} where it was kicked.",
                              outcome="touch_in_goal")
                self._scrum(rcv, ctx["x0"], ctx["y0"])
            elif src == "penalty":
                if self.record_events:
                    self.emit("touch", seat, f"Found touch from the penalty: {self.teams[seat]} throw in.")
                self._lineout(seat, land_y, side)
            elif src == "free_kick" or PROGRESS[seat][ctx["y0"]] <= 4:
                if self.record_events:
                    self.emit("touch", seat, f"Found touch: lineout, {self.teams[rcv]} throw in.")
                self._lineout(rcv, land_y, side)
            else:
                if self.record_events:
                    self.emit("touch", seat, f"Directly into touch from outside the 22: lineout back where it was "
                                             f"kicked, {self.teams[rcv]} throw in.")
                self._lineout(rcv, ctx["y0"], side)
            return
        self.x = nx
        self.y = ROW[seat][land]
        self._catch(seat)

    def _catch(self, kicker: int) -> None:
        rcv = 1 - kicker
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v == 1:
            if self.record_events:
                self.emit("catch", rcv, f"{self.teams[rcv]} fumble it: {self.teams[kicker]} regain the ball!",
                          die=v, x=self.x, y=self.y, caught=False)
            self.carrier = "chasing wing"
            self._gain(kicker)
            if self.phase == "call":
                # Booklet 2.1.2: after regaining the kick, "continue running or change the play"; 3.4.1:
                # "must Call-the-Play" (a drop goal too: its ban belongs to the missed tackle, 3.4.2.1).
                self.after_miss = True
                self.regained = True
                self.run_group = "backs"
        elif v <= 3:
            if self.record_events:
                self.emit("catch", rcv, f"{self.teams[rcv]} go up for the catch: the referee has a call.",
                          die=v, x=self.x, y=self.y)
            self._card("catch", kicker, rcv, self._caught, rcv)
        else:
            if self.record_events:
                self.emit("catch", rcv, f"{self.teams[rcv]} catch it.", die=v, x=self.x, y=self.y, caught=True)
            self._caught(rcv)

    def _caught(self, rcv: int) -> None:
        if PROGRESS[rcv][self.y] == 0:
            # Caught in its own in-goal: the catcher grounds it, and a ball "made dead by the Defender
            # inside the In-goal area" is a kick-off from behind the goal line (3.3.1.1 b).
            self.emit("dead", rcv, f"{self.teams[rcv]} ground it in-goal: goal-line kick-off.")
            self._kick_off(rcv, "goal_line")
        else:
            self._gain(rcv)

    def _kick_off(self, seat: int, spot: str) -> None:
        """A restart: halfway (purple), 22 (yellow) or goal line (orange). Ends the half if time is up."""
        if self._time_up():
            return
        self.x, self.y = KICK_OFF_BLOCKS[spot][seat]
        self._possess(seat)
        self.secs += SECONDS["kick_off"]
        if spot == "halfway":
            if self.record_events:
                self.emit("kick_off", seat, f"{self.teams[seat]} kick off from halfway.", spot=spot)
            self._kick(seat, "kickoff_halfway", False)
        else:
            self.phase = "kickoff"
            self.actor = seat
            self.ctx = {"spot": spot}
            where = "the 22" if spot == "22" else "the goal line"
            if self.record_events:
                self.emit("kick_off", seat, f"{self.teams[seat]} to kick off from {where}.", spot=spot)

    # ---- set pieces -------------------------------------------------------------------------------
    def _scrum(self, feeder: int, x: int, y: int, check_time: bool = True) -> None:
        if check_time and self._time_up():
            return
        self.x = x
        self.y = 1 if y < 1 else 20 if y > 20 else y
        self._possess(feeder)
        self.secs += SECONDS["scrum"]
        self._set_piece("scrum", feeder)

    def _lineout(self, thrower: int, y: int, side: str) -> None:
        if self._time_up():
            return
        self.x = LINEOUT_BALL_X[side]
        self.y = y
        self._possess(thrower)
        self.secs += SECONDS["lineout"]
        self._set_piece("lineout", thrower)

    def _set_piece(self, kind: str, seat: int) -> None:
        """Roll a scrum or lineout put in by ``seat``: 1 loses it, 2-3 is a referee call, 4-6 wins it."""
        head, verb, lost, stat = _SET_PIECE_TEXT[kind]
        team, other = self.teams[seat], self.teams[1 - seat]
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v == 1:
            if self.record_events:
                self.emit(kind, seat, f"{head}, {team} {verb}... {lost} {other}!", die=v)
            self.stats[1 - seat]["turnovers"] += 1
            self._won(1 - seat, stat)
        elif v <= 3:
            if self.record_events:
                self.emit(kind, seat, f"{head}, {team} {verb}: the referee has a call.", die=v)
            self._card(kind, seat, 1 - seat, self._won, seat, stat)
        else:
            if self.record_events:
                self.emit(kind, seat, f"{head}, {team} {verb} and win it.", die=v)
            self._won(seat, stat)

    def _won(self, seat: int, stat: str) -> None:
        self.stats[seat][stat] += 1
        self._gain(seat)

    def _gain(self, seat: int, intercept: bool = False) -> None:
        """``seat`` has the ball at its position: in-goal play in the opponent's in-goal, else call the play."""
        self._possess(seat)
        if PROGRESS[seat][self.y] == 21:
            self._in_goal(seat)
            return
        self.actor = seat
        self.phase = "call"
        self.intercept = intercept
        self.after_miss = self.regained = False

    # ---- in-goal and scoring ----------------------------------------------------------------------
    def _in_goal(self, att: int) -> None:
        dfn = 1 - att
        self._possess(att)
        self.secs += SECONDS["in_goal"]
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v == 1 or v == 4:
            self._try(att, v)
        elif v <= 3:
            if self.record_events:
                self.emit("in_goal", dfn, f"{self.teams[dfn]} scramble in-goal: the referee has a call.", die=v)
            self._card("in_goal", att, dfn, self._try, att, None)
        elif v == 5:
            if self.record_events:
                self.emit("in_goal", dfn, f"Held up by {self.teams[dfn]}! Goal-line kick-off.", die=v)
            self._kick_off(dfn, "goal_line")
        else:
            if self.record_events:
                self.emit("in_goal", dfn, f"{self.teams[dfn]} turn it over in-goal!", die=v)
            self.stats[dfn]["turnovers"] += 1
            self._gain(dfn)

    def _score(self, seat: int, points: int) -> bool:
        """Add points; in sudden death the first score ends the match (returns True)."""
        self.score[seat] += points
        if self.period == 5:
            self._game_over()
            return True
        return False

    def _try(self, att: int, die: int | None) -> None:
        self.secs += SECONDS["try"]
        self.tries[att] += 1
        if self.record_events:
            self.emit("try", att, f"TRY! {self.teams[att]} score through the {self.carrier or 'forwards'}.",
                      die=die, x=self.x, y=self.y)
        if self._score(att, 5):
            return
        # The conversion is a goal kick from the Blue zone (INTERPRETATIONS.md).
        v = self.chance.roll(6)
        self.dice.append(v)  # _roll written out, as in _distance
        if v >= 3:
            self.stats[att]["conversions"] += 1
            if self.record_events:
                self.emit("conversion", att, f"{self.teams[att]} convert.", die=v, good=True)
            self.score[att] += 2
        else:
            self.stats[att]["conversions_missed"] += 1
            if self.record_events:
                self.emit("conversion", att, f"{self.teams[att]} miss the conversion.", die=v, good=False)
        self._kick_off(1 - att, "halfway")

    def _penalty_try(self, att: int) -> None:
        self.secs += SECONDS["try"]
        self.tries[att] += 1
        self.stats[att]["penalty_tries"] += 1
        self.emit("try", att, f"Penalty try to {self.teams[att]}: seven points.", penalty_try=True)
        if not self._score(att, 7):
            self._kick_off(1 - att, "halfway")

    # ---- penalties and free kicks -----------------------------------------------------------------
    def _penalty(self, seat: int, kind: str) -> None:
        self.y = 1 if self.y < 1 else 20 if self.y > 20 else self.y
        self._possess(seat)
        self.actor = seat
        self.phase = kind
        self.secs += SECONDS["penalty"]
        self.stats[seat]["penalties" if kind == "penalty" else "free_kicks"] += 1
        if self.record_events:
            self.emit(kind, seat, f"{'Penalty' if kind == 'penalty' else 'Free kick'} to {self.teams[seat]}.",
                      x=self.x, y=self.y)

    def _penalty_option(self, seat: int, action: str) -> None:
        kind = self.phase
        team = self.teams[seat]
        if action == GOAL:
            self.secs += SECONDS["goal_kick"]
            self._kick_at_goal(seat, "penalty_goal", need=(3, 5), lead="kick the penalty",
                               made=": over! Three points.", missed=": wide.")
        elif action in _KICK:
            if self.record_events:
                self.emit("call", seat, f"{team} kick from the {kind.replace('_', ' ')}"
                                        f"{', double the distance' if action == KICK_DOUBLE else ''}.", call=action)
            self._kick(seat, kind, action == KICK_DOUBLE)
        elif action == SCRUM:
            if self.record_events:
                self.emit("call", seat, f"{team} take the scrum.", call=action)
            self._scrum(seat, self.x, self.y, check_time=False)
        else:
            group = BACKS if action == TAP_BACKS else FORWARDS
            self.secs += SECONDS["run"]
            self.stats[seat]["runs"] += 1
            if self.record_events:
                self.emit("call", seat, f"{team} tap and go with the {group}.", call=action)
            self._line(seat, group)

    # ---- referee cards ------------------------------------------------------------------------------
    def _card(self, group: str, att: int, dfn: int, cont: Callable[..., None], *args: Any) -> None:
        """Draw the top card of ``group`` (it goes to the bottom) and carry out the call.

        ``att``/``dfn`` are the attacker and defender of the play; ``cont(*args)`` continues the play as a
        success (for a catch card: the ball is caught). A method and its arguments, not a closure: the closures
        made every call of the play strings that draw cards keep their variables in cells, drawn or not (2.2 % of a
        lean match's instructions, 5.53 -> 5.40 M with callgrind).
        """
        deck = self.decks[group]
        cid = deck.pop(0)
        deck.append(cid)
        call, to_attacker, intercept, spot = _PLAY_OF_CARD[cid]
        self.last_card = cid
        drawer = att if group in _DRAWN_BY_ATTACKER else dfn
        self.stats[drawer]["referee_cards"] += 1
        to = att if to_attacker else dfn
        self.secs += SECONDS["card"]
        if self.record_events:
            self.emit("card", drawer, f"Referee ({DECKS[group]['name']}): {CARDS[cid]['text']}", card=cid,
                      group=group, call=call, to=to)
        # The calls in the order of how often they come (penalties and free kicks are half of them).
        if call == "penalty" or call == "free_kick":
            self._penalty(to, call)
        elif call == "scrum":
            self._scrum(to, self.x, self.y)
        elif call == "play_on":
            if group == "catch" and to == dfn:
                # "Ball was successfully caught by Defender" (4.3): a catch like a [4]-[6].
                cont(*args)
                return
            if to != self.poss:
                self.stats[to]["turnovers"] += 1
            # "Pass intercepted" is an interception: the interceptor may run it down the channel (2.2.4).
            self._gain(to, intercept=intercept)
        elif call == "continue":
            cont(*args)
        elif call == "kick_off":
            self._kick_off(to, spot)
        elif call == "mark":
            # "Catches ball in air" (4.3): inside the catcher's own 22 a free kick, outside "Play on".
            if PROGRESS[dfn][self.y] <= 4:
                self._penalty(dfn, "free_kick")
            else:
                cont(*args)
        elif call == "block":
            p = PROGRESS[att][self.y] - 1
            self.y = ROW[att][p if p > 0 else 0]
            self._gain(to)
        elif call == "picked_up":
            p = PROGRESS[to][self.y] + 1
            self.y = ROW[to][p if p < 21 else 21]
            self._gain(to)
        elif call == "keep_running":
            self._missed(att, self.run_group)
        elif call == "try":
            self._try(att, None)
        else:  # penalty_try
            self._penalty_try(att)

    # ---- the clock ----------------------------------------------------------------------------------
    def _time_up(self) -> bool:
        """Called when the ball is dead before a restart: if the period's time is up, end it (True)."""
        if self.period_len is None or self.secs < self.period_len:
            return False
        self._end_period()
        return True

    def _end_period(self) -> None:
        period = self.period
        drawn = self.score[0] == self.score[1]
        extra = max(1, self.options["half_minutes"] // 4) * 60
        first = self.first_kicker
        assert first is not None  # the toss was settled before the first period started
        length: int | None
        if period == 1:
            nxt, kicker, length = 2, 1 - first, self.options["half_minutes"] * 60
        elif period in (2, 4) and drawn and self.options["extra_time"]:
            nxt, kicker, length = period + 1, first, (extra if period == 2 else None)
        elif period == 3:
            nxt, kicker, length = 4, 1 - first, extra
        else:
            self._game_over()
            return
        # The toss's choice, the ends of the periods and the final whistle word their events only for a match that keeps
        # them, as the rest of the rules (0.3 % of a lean match's instructions, 5.08 -> 5.07 M with callgrind).
        if self.record_events:
            names = {1: "Half time", 2: "Full time, all square: extra time", 3: "End of the first half of extra time",
                     4: "End of extra time, all square"}
            self.emit("period_end", None, f"{names[period]}: {self.teams[0]} {self.score[0]} - "
                                          f"{self.score[1]} {self.teams[1]}.", period=period)
        self.period = nxt
        self.earlier_periods += self.secs
        self.secs = 0
        self.period_len = length
        # Referee cards are shuffled at half time (and, by extension, before each extra period).
        self.decks = {g: list(self.chance.shuffle(self.decks[g])) for g in GROUPS}
        if nxt == 5 and self.record_events:
            self.emit("sudden_death", None, "Sudden death: the first score wins.")
        self._kick_off(kicker, "halfway")

    def _game_over(self) -> None:
        self.phase = "over"
        self.actor = None
        if self.record_events:
            s = self.score
            self.emit("full_time", None, f"Full time: {self.teams[0]} {s[0]} - {s[1]} {self.teams[1]}.",
                      score=list(s))

    # ---- views and persistence ------------------------------------------------------------------------
    def phase_name(self) -> str:
        return self.phase

    def board_view(self, seat: int | None) -> JSON:
        """Everything a player (or the web page) may see: the decks' order stays hidden.

        ``side_preview``: while a side (left or right) is to be chosen, where the ball ends for each;
        ``kick_off``: while a kick-off from the 22 or the goal line waits for its kicker, ``{"spot": ...}``.
        """
        return {
            "teams": list(self.teams),
            "ball": {"x": self.x, "y": self.y}, "possession": self.poss,
            "progress": PROGRESS[self.poss][self.y],
            "period": self.period, "half": min(self.period, 2),
            "clock": self._clock(),
            "last_dice": list(self.dice), "last_card": self.last_card, "referee_card": self._referee_card(),
            "carrier": self.carrier,
            "side_preview": self._side_preview() if self.phase == "side" else None,
            "kick_off": {"spot": self.ctx.get("spot")} if self.phase == "kickoff" else None,
            "after_miss": self.after_miss, "intercept": self.intercept, "attacks_towards_row": {"0": 21, "1": 0},
        }

    @classmethod
    def reference_cards(cls) -> list[JSON]:
        """The referee cards, deck by deck: group, call, whom it favours (attacker or defender) and text."""
        return [{"id": cid, "group": card["group"], "group_name": DECKS[card["group"]]["name"], "call": card["call"],
                 "to": card["to"], "text": card["text"]}
                for group in DECKS for cid in DECKS[group]["cards"] for card in (CARDS[cid],)]

    def action_previews(self, seat: int) -> dict[str, JSON]:
        """Where the ball ends for each side choice (left, right): its column, whether it goes into touch, and
        the blocks it moves across (``side_preview``, for the side that chooses)."""
        if self.phase != "side" or seat != self.actor:
            return {}
        preview = self._side_preview()
        return {side: {**preview[side], "blocks": preview["blocks"], "kind": preview["kind"]} for side in _SIDES}

    def _referee_card(self) -> JSON | None:
        """The last referee card drawn, for people: its group, its call, whom it favours and its text."""
        if self.last_card is None or self.last_card not in CARDS:
            return None
        card = CARDS[self.last_card]
        return {"id": self.last_card, "group": card["group"], "group_name": DECKS[card["group"]]["name"],
                "call": card["call"], "to": card["to"], "text": card["text"]}

    def seat_view(self, seat: int) -> BokxSeatView:
        return BokxSeatView(self, seat)

    def player_board(self, seat: int) -> JSON:
        """What the club player reads of ``board_view(seat)``: the ball's row, the side preview, the clock."""
        return {
            "progress": PROGRESS[self.poss][self.y],
            "period": self.period,
            "clock": {"seconds": self.secs, "period_seconds": self.period_len},
            "side_preview": self._side_preview() if self.phase == "side" else None,
        }

    # ---- search ---------------------------------------------------------------------------------------
    def copy_position_into(self, other: GameState) -> None:
        assert isinstance(other, BokxState)
        other.teams = self.teams
        other.score, other.tries = list(self.score), list(self.tries)
        other.stats = [dict(self.stats[0]), dict(self.stats[1])]
        other.period, other.secs, other.earlier_periods = self.period, self.secs, self.earlier_periods
        other.period_len = self.period_len
        other.x, other.y, other.poss, other.phase, other.actor = self.x, self.y, self.poss, self.phase, self.actor
        other.ctx = dict(self.ctx)
        other.after_miss, other.intercept, other.regained = self.after_miss, self.intercept, self.regained
        other.run_group, other.carrier, other.last_card = self.run_group, self.carrier, self.last_card
        other.first_kicker, other.dice, other.toss = self.first_kicker, list(self.dice), list(self.toss)
        other.decks = {g: list(deck) for g, deck in self.decks.items()}

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """The field, the score and the clock are public; only the order of each referee deck is hidden.

        A drawn card goes to the bottom, face up for both players: since the decks were last shuffled (at the
        start and at each period's end), the cards drawn from a deck are its bottom cards in the order drawn,
        and the cards above them, never seen since, are in an order nobody knows. Those are shuffled afresh.
        """
        return self.determiniser(seat)(rng)

    def determiniser(self, seat: int) -> Callable[[random.Random], GameState]:
        drawn = dict.fromkeys(GROUPS, 0)
        for event in reversed(self.events):
            if event.kind == "period_end":
                break
            if event.kind == "card":
                drawn[event.data["group"]] += 1
        # Per deck: its unseen top cards (sorted: only which they are counts) and its seen bottom cards.
        split = {g: (sorted(deck[:len(deck) - min(drawn[g], len(deck))]), deck[len(deck) - min(drawn[g], len(deck)):])
                 for g, deck in self.decks.items()}

        def sample(rng: random.Random) -> GameState:
            other = self.fork(SeededChance(rng.getrandbits(64)))
            assert isinstance(other, BokxState)
            for group in GROUPS:
                top, bottom = split[group]
                top = list(top)
                rng.shuffle(top)
                other.decks[group] = top + bottom
            return other

        return sample

    def _clock(self) -> JSON:
        """The match clock as the board shows it (``time_up``: the period's time has run out)."""
        return {"seconds": self.secs, "period_seconds": self.period_len, "elapsed": self.elapsed,
                "time_up": self.period_len is not None and self.secs >= self.period_len}

    def _side_preview(self) -> JSON:
        """Where the ball ends for each side choice (for the UI; built as literals, in one go)."""
        ctx = self.ctx
        seat = self.actor
        assert seat is not None  # a side is chosen by the side in possession
        kind, src, left_x, left_touch, right_x, right_touch = self._sides()
        if kind == "run":
            out: JSON = {"kind": "run", "blocks": ctx["d"]}
        else:
            out = {"kind": "kick", "blocks": ctx["line"], "src": src, "land_y": ROW[seat][ctx["land"]],
                   "from_y": ctx["y0"]}
        out["left"] = {"x": left_x, "touch": left_touch}
        out["right"] = {"x": right_x, "touch": right_touch}
        return out

    def _sides(self) -> tuple[str, str | None, int, bool, int, bool]:
        """The side preview's facts as they are, without its dicts: the play (``kind``, "run" or "kick"), a kick's
        ``src`` (None for a run), then the ball's column (``x``) and whether it goes into touch (``touch``) for a
        left and for a right. The club player reads them at every side it chooses (a third of its decisions): the
        preview's three dicts, built and read there, were 5.5 % of a lean match's instructions (5.85 -> 5.53 M with
        callgrind)."""
        ctx = self.ctx
        x = self.x
        if ctx["k"] == "run":
            kind, src, blocks = "run", None, ctx["d"]
        else:
            kind, src, blocks = "kick", ctx["src"], ctx["line"]
        # Home's left is towards column 0, away's towards column 15.
        left_x, right_x = (x - blocks, x + blocks) if self.actor == 0 else (x + blocks, x - blocks)
        return kind, src, left_x, left_x < 0 or left_x > 15, right_x, right_x < 0 or right_x > 15

    saved_fields = ("teams", "score", "tries", "stats", "period", "secs", "elapsed", "period_len", "x", "y",
                    "poss", "phase", "actor", "ctx", "after_miss", "intercept", "regained", "run_group", "carrier",
                    "last_card", "first_kicker", "dice", "decks", "toss")
    # Fields added after matches were stored: their value in an older saved state.
    saved_defaults = {"regained": False}


class BokxSeatView(SeatView):
    """What the club player reads of ``view(seat)``, computed when read: the envelope's ``phase`` and score
    (``points``) and these keys of the board, with the same values. Everything on a Bokx field is public; only
    the referee decks' order is hidden, and it is not offered.

    ``_side_facts()``, while a side is chosen, gives ``side_preview``'s facts in one call, without its dicts
    (``BokxState._sides``: a test checks them against the preview)."""

    __slots__ = ("_side_facts",)
    _state: BokxState

    def __init__(self, state: BokxState, seat: int):
        super().__init__(state, seat)
        # The state's own method, bound once: one call for the club player, not one through the view as well.
        self._side_facts: Callable[[], tuple[str, str | None, int, bool, int, bool]] = state._sides

    @property
    def points(self) -> tuple[int, int]:
        score = self._state.score
        return score[0], score[1]

    @property
    def phase(self) -> str:
        return self._state.phase

    @property
    def progress(self) -> int:
        return self._progress()

    def _progress(self) -> int:
        """``progress``, as a method: the club player reads it at most decisions, and CPython 3.11 reads a property
        the slow way, through the descriptor and a call from C (0.6 % of a lean match's instructions, 5.02 -> 4.99 M
        with callgrind)."""
        state = self._state
        return PROGRESS[state.poss][state.y]

    @property
    def period(self) -> int:
        return self._state.period

    @property
    def clock(self) -> JSON:
        return self._state._clock()

    @property
    def side_preview(self) -> JSON | None:
        state = self._state
        return state._side_preview() if state.phase == "side" else None
