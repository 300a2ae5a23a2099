"""The protocol every rule set implements (after python-chess and OpenSpiel).

A rule set is a :class:`GameState` subclass with a :class:`RuleSetSpec`.
Seats are ``0`` (home) and ``1`` (away). For a solo game, seat 0 is the person
and seat 1 the game's own automaton, which never acts through ``apply``.

**Actions** are canonical strings (like a chess move's UCI string): they
round-trip through JSON and the database unchanged, and ``describe_action``
gives the human label the web page shows on a button. Every rule set writes
them in one grammar::

    action := verb (":" arg)*
    verb   := token
    arg    := token
    token  := [a-z0-9]+ ("-" [a-z0-9]+)*

that is: lowercase letters and digits, words joined by single hyphens, the
parts joined by colons, no spaces, no underscores, no capitals. Examples:
``pass``, ``drop-goal``, ``card:4``, ``swap:th:2s``,
``play:prop-1:physical:left``. :func:`parse_action` splits one into an
:class:`Action` (verb, args) and :func:`format_action` builds one (both raise
``ValueError`` on anything outside the grammar); ``str(action)`` is the string
again. The conformance tests check every legal action of every rule set.

**Views.** ``view(seat)`` is built here, the same envelope for every rule set
(see :class:`View`): ``ruleset``, ``seat``, ``to_act``, ``legal_actions`` and
their ``labels``, ``phase``, ``over``, ``score`` per side and ``board``, the rule
set's own data from its :meth:`GameState.board_view` hook. Hidden information is
the rule set's business: ``board_view(seat)`` shows only what ``seat`` may see.

**Saving.** A rule set lists the attributes that make up its position once, in
``saved_fields``; the default ``state_dict``/``load_state_dict`` copy them.

A state is mutated in place by ``apply`` (as OpenSpiel's Python games do); use
``clone()`` for a copy. Every applied action and every chance outcome leaves
structured :class:`Event` values in ``state.events``, each with an English
commentary line.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple, TypedDict

from engine.chance import Chance, SeededChance, derive_seed
from engine.scoring import UNION, MatchResult, Scoring

HOME, AWAY = 0, 1
SEAT_NAMES = ("home", "away")

JSON = dict[str, Any]  # a JSON object (str keys; values JSON-able)


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message names what was wrong."""

    def __init__(self, message: str, *, seat: int | None = None, action: str | None = None,
                 legal: list[str] | None = None):
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = legal or []


# ---- the action grammar ------------------------------------------------------------------------------

ACTION_SEPARATOR = ":"
_TOKEN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


class Action(NamedTuple):
    """An action as a value: its verb and arguments. ``str(action)`` is its canonical string."""

    verb: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return ACTION_SEPARATOR.join((self.verb, *self.args))


def _check_token(token: str, text: str) -> None:
    if not _TOKEN.fullmatch(token):
        raise ValueError(f"not an action in the engine's grammar: {text!r} ({token!r} is not a lowercase id "
                         f"of letters, digits and single hyphens)")


def parse_action(text: str) -> Action:
    """``"play:prop-1:physical"`` -> ``Action("play", ("prop-1", "physical"))``; ``ValueError`` if malformed.

    Parsing only checks the grammar: whether the action is legal now is the rule set's business.
    """
    if not isinstance(text, str):
        raise ValueError(f"an action is a string, not {type(text).__name__}")
    verb, *args = text.split(ACTION_SEPARATOR)
    for token in (verb, *args):
        _check_token(token, text)
    return Action(verb, tuple(args))


def format_action(verb: str, *args: str | int) -> str:
    """The canonical string of an action: ``format_action("card", 4)`` -> ``"card:4"``; ``ValueError`` if a part
    is outside the grammar (capitals, spaces, underscores, empty parts)."""
    parts = (verb, *(str(a) for a in args))
    text = ACTION_SEPARATOR.join(parts)
    for token in parts:
        _check_token(token, text)
    return text


def is_action(text: object) -> bool:
    """Whether ``text`` is a string in the action grammar."""
    if not isinstance(text, str):
        return False
    try:
        parse_action(text)
    except ValueError:
        return False
    return True


# ---- specs ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    """A rule-set option with its default (e.g. half length, extra time)."""

    default: Any
    description: str
    choices: tuple[Any, ...] | None = None

    def validate(self, name: str, value: Any) -> Any:
        if self.choices is not None and value not in self.choices:
            raise ValueError(f"option {name!r} must be one of {list(self.choices)}, not {value!r}")
        expected = type(self.default)
        if self.default is not None and not isinstance(value, expected):
            if expected is int and isinstance(value, str) and value.lstrip("-").isdigit():
                return int(value)
            if expected is bool and isinstance(value, str) and value.lower() in {"true", "false"}:
                return value.lower() == "true"
            raise ValueError(f"option {name!r} must be a {expected.__name__}, not {value!r}")
        return value


@dataclass(frozen=True)
class RuleSetSpec:
    """What the registry knows of a rule set: every fact of the game the league and the site need.

    ``players`` counts people: 2 for a duel, 1 for a solo game, where seat 1 is the game's own automaton (it
    never acts through ``apply``). ``scoring`` says how the score is kept and checked and how an outcome
    becomes a result. ``knockout_options`` are the options that make a knockout match produce a winner (extra
    time); a rule set without them leaves a level knockout for the organiser to settle. ``playable`` is False
    for a rule set played off the site (a real pitch), whose results are entered by hand. ``board_kind``
    names the drawing of its ``view()["board"]`` a web page may make (what the board looks like, not which
    rule set it is; empty: no drawing, lay the data out plainly).
    """

    id: str
    name: str
    players: int
    hidden_information: bool
    rules_version: str
    options: dict[str, Option] = field(default_factory=dict)
    description: str = ""
    scoring: Scoring = UNION
    knockout_options: dict[str, Any] = field(default_factory=dict)
    playable: bool = True
    board_kind: str = ""
    # Whether the rule book lets a match end level (Seasons: 5½–5½); see ``draw_possible``.
    draws: bool = True

    @property
    def solo(self) -> bool:
        """One person against the game (seat 1 is the game's automaton)."""
        return self.players == 1

    @property
    def person_seats(self) -> tuple[int, ...]:
        """The seats people (or computer players standing in for them) hold."""
        return (HOME,) if self.solo else (HOME, AWAY)

    def result_from_outcome(self, outcome: Outcome) -> MatchResult:
        """The fixture result of a finished game (see ``Scoring.result``)."""
        return self.scoring.result(outcome)

    def draw_possible(self, options: Mapping[str, Any] | None = None) -> bool:
        """Whether a match played with ``options`` may end level, so that its players may agree a draw: never in a
        solo game, nor when the options that settle a level score (``knockout_options``: extra time) are on."""
        if self.solo or not self.draws:
            return False
        given = options or {}
        return not (self.knockout_options and all(given.get(k) == v for k, v in self.knockout_options.items()))

    def match_options(self, given: Mapping[str, Any] | None, *, knockout: bool = False) -> dict[str, Any]:
        """Options for one match: ``given`` with, in a knockout, the options that settle a level score
        (unless ``given`` sets them itself); checked like ``resolve_options``."""
        merged = dict(given or {})
        if knockout:
            for name, value in self.knockout_options.items():
                merged.setdefault(name, value)
        return self.resolve_options(merged)

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``given``; raises ``ValueError`` on unknown or bad options."""
        given = dict(given or {})
        unknown = set(given) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(sorted(unknown))}")
        resolved = {name: opt.default for name, opt in self.options.items()}
        for name, value in given.items():
            resolved[name] = self.options[name].validate(name, value)
        return resolved

    def to_dict(self) -> JSON:
        return {
            "id": self.id, "name": self.name, "players": self.players, "solo": self.solo,
            "hidden_information": self.hidden_information, "rules_version": self.rules_version,
            "description": self.description, "playable": self.playable, "scoring": self.scoring.id,
            "counts_tries": self.scoring.counts_tries, "board_kind": self.board_kind, "draws": self.draws,
            "knockout_options": dict(self.knockout_options),
            "options": {k: {"default": o.default, "description": o.description,
                            "choices": list(o.choices) if o.choices else None}
                        for k, o in self.options.items()},
        }


# ---- events and outcomes --------------------------------------------------------------------------------


@dataclass(slots=True)
class Event:
    """Something that happened: a kind, the seat it concerns (or None), data, and commentary.

    Treat events as immutable. (Not ``frozen``: a frozen dataclass costs twice as much to build,
    and simulations build hundreds per match; its ``data`` dict made it unhashable anyway.)
    """

    kind: str
    seat: int | None
    data: JSON
    text: str
    # Events that reveal a seat's hidden cards are private to that seat.
    private_to: int | None = None

    def to_dict(self) -> JSON:
        d: JSON = {"kind": self.kind, "seat": self.seat, "data": self.data, "text": self.text}
        if self.private_to is not None:
            d["private_to"] = self.private_to
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(d["kind"], d["seat"], d["data"], d["text"], d.get("private_to"))


def json_number(x: int | Fraction) -> int | float:
    """A score as JSON: a whole number as an int, a half (Seasons' halved season) as a float."""
    if x.__class__ is int:  # the common case, first: isinstance(x, Fraction) goes through the numbers ABCs
        return x
    return float(x) if isinstance(x, Fraction) and x.denominator != 1 else int(x)


Stats = Mapping[str, Any]


@dataclass(frozen=True)
class Outcome:
    """The result of a finished (or current) game, per side."""

    points: tuple[int | Fraction, int | Fraction]
    tries: tuple[int, int]
    stats: tuple[Stats, Stats] = ({}, {})

    @property
    def winner(self) -> int | None:
        if self.points[0] > self.points[1]:
            return HOME
        if self.points[1] > self.points[0]:
            return AWAY
        return None

    def score(self) -> dict[str, SideScore]:
        """Points and tries per side, JSON-able: ``{"home": {"points": 12, "tries": 2}, "away": {...}}``."""
        return {"home": {"points": json_number(self.points[0]), "tries": int(self.tries[0])},
                "away": {"points": json_number(self.points[1]), "tries": int(self.tries[1])}}

    def to_dict(self) -> JSON:
        winner = self.winner
        return {
            "home": {"points": json_number(self.points[0]), "tries": self.tries[0], "stats": self.stats[0]},
            "away": {"points": json_number(self.points[1]), "tries": self.tries[1], "stats": self.stats[1]},
            "winner": "draw" if winner is None else SEAT_NAMES[winner],
        }


# ---- the view envelope ----------------------------------------------------------------------------------


class SideScore(TypedDict):
    points: int | float
    tries: int


class View(TypedDict):
    """What ``GameState.view(seat)`` returns, for every rule set (JSON-able).

    * ``ruleset`` -- the rule set's id;
    * ``seat`` -- the seat this view is for: 0 (home), 1 (away) or None (a spectator);
    * ``to_act`` -- the seats that may act now (both for a simultaneous choice; empty when over);
    * ``legal_actions`` -- what ``seat`` may do now (sorted action strings; empty for a spectator or
      a seat not to act) and ``labels``, the human label of each of them (button text; empty when the
      view was asked for ``labels=False``, as the computer players' play loop does);
    * ``phase`` -- the rule set's name for the stage of play (``"tackle"``, ``"draft"``, ``"over"``...);
    * ``over`` -- whether the game has ended;
    * ``score`` -- points and tries per side: ``{"home": {"points": 3, "tries": 0}, "away": {...}}``
      (points as the game counts them: Seasons counts seasons won, a halved season half to each side);
    * ``board`` -- the rule set's own data (``GameState.board_view``), only what ``seat`` may see.
    """

    ruleset: str
    seat: int | None
    to_act: list[int]
    legal_actions: list[str]
    labels: dict[str, str]
    phase: str
    over: bool
    score: dict[str, SideScore]
    board: JSON


VIEW_KEYS = tuple(View.__annotations__)


class SeatView:
    """A lazily computed, seat-restricted view for a club player (issue 17 item 5): instead of building the
    whole :class:`View` dict at every decision, the play loop hands a player with ``reads_seat_view`` this
    small object over the state (``GameState.seat_view(seat)``), whose attributes are computed when read (from
    the live state: one seat view follows the whole match).

    The no-peeking promise is the view's: a rule set's subclass exposes only facts that ``view(seat)`` shows
    that seat -- each public attribute is named after, and equal to, a key of ``view(seat)`` or of its
    ``board`` (``seat`` and ``points``, the envelope's score as ``(home, away)``, besides) -- never the other
    seat's hidden cards nor a pile's order. The rule sets' tests check every attribute against the view, and
    that the decisions do not change when everything hidden from the seat is dealt afresh.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat

    @property
    def points(self) -> tuple[int | float, int | float]:
        """The score's points (home, away), as the envelope's ``score`` shows them."""
        points, _tries = self._state.scoreline()
        return json_number(points[0]), json_number(points[1])


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists and tuples -- as lists -- of plain values)."""
    if isinstance(value, (list, tuple)):
        return [json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    return value


# ---- the game state -------------------------------------------------------------------------------------


class GameState:
    """Base class of a rule set's game state. Subclasses implement the hooks below.

    ``saved_fields`` names the attributes that hold the position (besides options, seed, chance, events
    and history, which the base class saves): ``state_dict`` copies them into JSON-able data and
    ``load_state_dict`` back. ``saved_defaults`` gives a value for a field that older saved states lack.
    """

    spec: ClassVar[RuleSetSpec]
    saved_fields: ClassVar[tuple[str, ...]] = ()
    saved_defaults: ClassVar[Mapping[str, Any]] = {}
    # Whether ``emit`` keeps the events. Off only where nobody reads them: a search's forks (a search never
    # reads the past) and ``play_match(..., events=False)`` for a simulation that keeps just the action log and
    # the outcome. The rules never read their own events while playing, so the same actions make the same
    # position and outcome either way (tests/engine/test_same_games.py checks it). The rule sets guard their
    # commonest events with ``if self.record_events:``, so that such a simulation does not even word them.
    record_events: bool = True

    def __init__(self, *, options: Mapping[str, Any] | None = None, chance: Chance | None = None,
                 seed: int = 0):
        self.options = self.spec.resolve_options(options)
        self.seed = seed
        self.chance = chance if chance is not None else SeededChance(derive_seed(seed, "chance"))
        self.events: list[Event] = []
        self.history: list[tuple[int, str]] = []
        self.setup()

    # ---- hooks for subclasses -------------------------------------------------
    def setup(self) -> None:
        """Deal, toss, place the ball: the position before the first action."""
        raise NotImplementedError

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now: one, both (simultaneous choice) or none (game over)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[str]:
        """The sorted list of actions ``seat`` may take now (empty if not to act), in the action grammar."""
        raise NotImplementedError

    def decision(self) -> tuple[int, list[str]] | None:
        """The play loop's next decision in one call: the first seat of ``to_act()`` with its ``legal_actions``,
        or None once the game is over. A rule set may override it to work both out together (the loop asked
        twice, each call testing the phase again); an override returns the very same as this default (the
        conformance tests check it at every step). The list may be one the rule set shares (a prebuilt pair,
        handed out at every move): the caller only reads it (``legal_actions`` gives a list of the caller's own)."""
        acting = self.to_act()
        if not acting:
            return None
        seat = acting[0]
        return seat, self.legal_actions(seat)

    def _apply(self, seat: int, action: str) -> None:
        """Apply a legal action (already checked); emit events; draw chance."""
        raise NotImplementedError

    def outcome(self) -> Outcome:
        raise NotImplementedError

    def scoreline(self) -> tuple[Sequence[int | Fraction], Sequence[int]]:
        """(points per side, tries per side) so far, for the view's ``score``: ``outcome()``'s by default.

        Worth overriding when ``outcome()`` costs more (stats): computer players read the view every move.
        """
        outcome = self.outcome()
        return outcome.points, outcome.tries

    def phase_name(self) -> str:
        """The stage of play as a lowercase name (``"over"`` once the game has ended)."""
        raise NotImplementedError

    def board_view(self, seat: int | None) -> JSON:
        """The rule set's own JSON-able data for ``view(seat)["board"]``: only what ``seat`` may see.

        Not repeated here: what the envelope already says (seat, to act, legal actions, phase, over, score).
        """
        raise NotImplementedError

    def player_board(self, seat: int) -> JSON:
        """The part of ``board_view(seat)`` the computer players read, built cheaply: a subset of its keys
        with the very same values (the conformance tests check it at every step of many games), so it can
        never show more than the seat may see. By default the whole ``board_view(seat)``.
        """
        return self.board_view(seat)

    def describe_action(self, action: str) -> str:
        """Human label for an action (button text)."""
        return action

    def seat_view(self, seat: int) -> SeatView:
        """The lazily computed view of ``seat`` for players with ``reads_seat_view`` (see :class:`SeatView`):
        the rule set's own subclass, offering what its club player reads (a rule set without one raises)."""
        raise NotImplementedError(f"{self.spec.id} has no seat view")

    def blind_round(self) -> bool:
        """The lean play loop's shortcut for a round of blind choices (issue 17 item 5).

        A choice is *blind* when every option looks the same to the seat (the card game's face-down cards):
        there is nothing to decide, and a ``blind_first`` player takes the first legal action. When every
        seat to act now faces a blind choice, this plays the whole round in one call -- each seat's first
        legal action, in the order the step-by-step loop would play them (the history, events, position and
        chance the same as ``advance`` one action at a time, through the same rule code) -- and returns True;
        otherwise it changes nothing and returns False. By default a rule set has no blind rounds.
        """
        return False

    @classmethod
    def reference_cards(cls) -> list[JSON]:
        """Every card of the game as people read it (for a rules page): ids with their names, values and text.
        Empty for a game whose cards are a plain pack."""
        return []

    def action_previews(self, seat: int) -> dict[str, JSON]:
        """What each of ``seat``'s legal actions would do, where the rules know it before any chance is drawn
        (JSON-able data per action; actions without a preview are left out). Only what ``seat`` may see: a
        preview never reveals a face-down card. Not part of ``view()``: the computer players never pay for it."""
        return {}

    # ---- provided ---------------------------------------------------------------
    def view(self, seat: int | None, *, labels: bool = True, legal: list[str] | None = None,
             for_player: bool = False, acting: tuple[int, ...] | None = None) -> View:
        """JSON-able state as ``seat`` may see it (``None``: a spectator); the same envelope for every rule set
        (see :class:`View`). Never leaks hidden information: the board comes from ``board_view(seat)``.

        ``labels=False`` leaves ``labels`` empty (the play loop's computer players never read them);
        ``legal`` passes ``legal_actions(seat)`` and ``acting`` passes ``to_act()`` when the caller has them
        already; ``for_player=True`` (a computer player's view, ``seat`` not None) takes the board from
        ``player_board(seat)``.
        """
        if acting is None:
            acting = self.to_act()
        if legal is None:
            legal = self.legal_actions(seat) if seat is not None and seat in acting else []
        points, tries = self.scoreline()
        home, away = points[0], points[1]
        return {
            "ruleset": self.spec.id,
            "seat": seat,
            "to_act": list(acting),
            "legal_actions": legal,
            "labels": {action: self.describe_action(action) for action in legal} if labels else {},
            "phase": self.phase_name(),
            "over": not acting,
            # json_number only for a score that is not a plain int (Seasons' halves): views are built every move.
            "score": {"home": {"points": home if home.__class__ is int else json_number(home), "tries": tries[0]},
                      "away": {"points": away if away.__class__ is int else json_number(away), "tries": tries[1]}},
            "board": self.player_board(seat) if for_player and seat is not None else self.board_view(seat),
        }

    @property
    def is_over(self) -> bool:
        return not self.to_act()

    def emit(self, kind: str, seat: int | None, text: str, private_to: int | None = None, **data: Any) -> None:
        """Record an event (unless ``record_events`` is off)."""
        if self.record_events:
            self.events.append(Event(kind, seat, data, text, private_to))

    def apply(self, seat: int, action: str) -> list[Event]:
        """Check and apply ``action`` for ``seat``; return the events it produced.

        Raises :class:`IllegalAction` naming what was wrong.
        """
        acting = self.to_act()
        if not acting:
            raise IllegalAction("the game is over", seat=seat, action=action)
        if seat not in acting:
            who = " and ".join(SEAT_NAMES[s] for s in acting)
            raise IllegalAction(f"it is not {SEAT_NAMES[seat] if seat in (0, 1) else seat}'s turn ({who} to act)",
                                seat=seat, action=action)
        legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalAction(f"{action!r} is not a legal action now; legal: {', '.join(legal)}",
                                seat=seat, action=action, legal=legal)
        return self.apply_unchecked(seat, action)

    def apply_unchecked(self, seat: int, action: str) -> list[Event]:
        """Lean path for simulation: the caller guarantees legality."""
        start = len(self.events)
        self.history.append((seat, action))
        self._apply(seat, action)
        return self.events[start:]

    def advance(self, seat: int, action: str) -> None:
        """Leanest path (the play loop's): ``apply_unchecked`` without returning the new events."""
        self.history.append((seat, action))
        self._apply(seat, action)

    def visible_events(self, seat: int | None, start: int = 0) -> list[JSON]:
        """Events from ``start`` as ``seat`` may see them (private events of the other seat dropped)."""
        return [e.to_dict() for e in self.events[start:] if e.private_to is None or e.private_to == seat]

    def clone(self) -> GameState:
        return copy.deepcopy(self)

    # ---- search: forks and determinisations ----------------------------------------------
    def fork(self, chance: Chance) -> GameState:
        """A copy of the position to search from: its own copies of the position's fields, ``chance`` as its
        chance source, and no events or history (a search never reads the past; nor does it record events
        from here). Cheaper than ``clone``."""
        other = object.__new__(type(self))
        other.options = self.options  # read only during play
        other.seed = self.seed
        other.chance = chance
        other.events = []
        other.record_events = False
        other.history = []
        self.copy_position_into(other)
        return other

    def copy_position_into(self, other: GameState) -> None:
        """Copy the position's fields into ``other`` (``fork``'s hook; rule sets write a faster one)."""
        for name in self.saved_fields:
            setattr(other, name, json_copy(getattr(self, name)))

    def determinise(self, seat: int, rng: random.Random) -> GameState:
        """A full position that ``seat`` cannot tell from this one: what it may see is the same, everything
        hidden from it is dealt afresh from what it has not seen, and the dice to come are new.

        This is how a search player imagines the position (it is never given the state itself, only this):
        the rule set's own hook draws the hidden cards (a pile's order, the other seat's hand, face-down
        cards) from the cards ``seat`` has not seen, in an order built only from what ``seat`` knows, so two
        positions that differ only in what ``seat`` cannot see give the very same sample for the same
        ``rng``. The result is a :meth:`fork` with a chance source seeded from ``rng``.
        """
        raise NotImplementedError

    def determiniser(self, seat: int) -> Callable[[random.Random], GameState]:
        """``determinise(seat, ·)`` for many samples of one position: a rule set that must first work out
        what ``seat`` knows (from the events, say) does it once here."""
        return lambda rng: self.determinise(seat, rng)

    def state_dict(self) -> JSON:
        """The rule set's own fields (``saved_fields``) as JSON-able data (for ``to_dict``)."""
        return {name: json_copy(getattr(self, name)) for name in self.saved_fields}

    def load_state_dict(self, data: Mapping[str, Any]) -> None:
        """Restore fields saved by ``state_dict`` (a field missing from old data takes its ``saved_defaults``)."""
        defaults = self.saved_defaults
        for name in self.saved_fields:
            value = data[name] if name in data or name not in defaults else defaults[name]
            setattr(self, name, json_copy(value))

    def to_dict(self) -> JSON:
        return {
            "ruleset": self.spec.id,
            "rules_version": self.spec.rules_version,
            "options": self.options,
            "seed": self.seed,
            "chance": self.chance.to_dict(),
            "history": [list(h) for h in self.history],
            "events": [e.to_dict() for e in self.events],
            "state": self.state_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state saved with ``to_dict`` (no replay needed)."""
        state = cls.__new__(cls)
        state.options = dict(data["options"])
        state.seed = data["seed"]
        state.chance = Chance.from_dict(data["chance"])
        state.events = [Event.from_dict(e) for e in data["events"]]
        state.history = [(int(s), a) for s, a in data["history"]]
        state.load_state_dict(data["state"])
        return state
