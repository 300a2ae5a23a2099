"""The protocol every rule set implements (after python-chess and OpenSpiel).

A rule set is a :class:`GameState` subclass with a :class:`RuleSetSpec`.
Seats are ``0`` (home) and ``1`` (away). For a solo game, seat 0 is the person
and seat 1 the game's own automaton, which never acts through ``apply``.

Actions are canonical strings (like a chess move's UCI string): they round-trip
through JSON and the database unchanged, and ``describe_action`` gives the
human label the web page shows on a button.

A state is mutated in place by ``apply`` (as OpenSpiel's Python games do); use
``clone()`` for a copy. Every applied action and every chance outcome leaves
structured :class:`Event` values in ``state.events``, each with an English
commentary line.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from engine.chance import Chance, SeededChance, derive_seed
from engine.scoring import UNION, MatchResult, Scoring

HOME, AWAY = 0, 1
SEAT_NAMES = ("home", "away")


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message names what was wrong."""

    def __init__(self, message: str, *, seat: int | None = None, action: str | None = None,
                 legal: list[str] | None = None):
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = legal or []


@dataclass(frozen=True)
class Option:
    """A rule-set option with its default (e.g. half length, extra time)."""

    default: Any
    description: str
    choices: tuple | None = None

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
    for a rule set played off the site (a real pitch), whose results are entered by hand.
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

    def match_options(self, given: dict | None, *, knockout: bool = False) -> dict:
        """Options for one match: ``given`` with, in a knockout, the options that settle a level score
        (unless ``given`` sets them itself); checked like ``resolve_options``."""
        merged = dict(given or {})
        if knockout:
            for name, value in self.knockout_options.items():
                merged.setdefault(name, value)
        return self.resolve_options(merged)

    def resolve_options(self, given: dict | None) -> dict:
        """Defaults overlaid with ``given``; raises ``ValueError`` on unknown or bad options."""
        given = dict(given or {})
        unknown = set(given) - set(self.options)
        if unknown:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(sorted(unknown))}")
        resolved = {name: opt.default for name, opt in self.options.items()}
        for name, value in given.items():
            resolved[name] = self.options[name].validate(name, value)
        return resolved

    def to_dict(self) -> dict:
        return {
            "id": self.id, "name": self.name, "players": self.players, "solo": self.solo,
            "hidden_information": self.hidden_information, "rules_version": self.rules_version,
            "description": self.description, "playable": self.playable, "scoring": self.scoring.id,
            "knockout_options": dict(self.knockout_options),
            "options": {k: {"default": o.default, "description": o.description,
                            "choices": list(o.choices) if o.choices else None}
                        for k, o in self.options.items()},
        }


@dataclass(slots=True)
class Event:
    """Something that happened: a kind, the seat it concerns (or None), data, and commentary.

    Treat events as immutable. (Not ``frozen``: a frozen dataclass costs twice as much to build,
    and simulations build hundreds per match; its ``data`` dict made it unhashable anyway.)
    """

    kind: str
    seat: int | None
    data: dict
    text: str
    # Events that reveal a seat's hidden cards are private to that seat.
    private_to: int | None = None

    def to_dict(self) -> dict:
        d = {"kind": self.kind, "seat": self.seat, "data": self.data, "text": self.text}
        if self.private_to is not None:
            d["private_to"] = self.private_to
        return d

    @classmethod
    def from_dict(cls, d: dict) -> Event:
        return cls(d["kind"], d["seat"], d["data"], d["text"], d.get("private_to"))


@dataclass(frozen=True)
class Outcome:
    """The result of a finished (or current) game, per side."""

    points: tuple[int | Fraction, int | Fraction]
    tries: tuple[int, int]
    stats: tuple[dict, dict] = ({}, {})

    @property
    def winner(self) -> int | None:
        if self.points[0] > self.points[1]:
            return HOME
        if self.points[1] > self.points[0]:
            return AWAY
        return None

    def to_dict(self) -> dict:
        def num(x):
            return float(x) if isinstance(x, Fraction) and x.denominator != 1 else int(x)

        winner = self.winner
        return {
            "home": {"points": num(self.points[0]), "tries": self.tries[0], "stats": self.stats[0]},
            "away": {"points": num(self.points[1]), "tries": self.tries[1], "stats": self.stats[1]},
            "winner": "draw" if winner is None else SEAT_NAMES[winner],
        }


class GameState:
    """Base class of a rule set's game state. Subclasses implement the hooks below."""

    spec: ClassVar[RuleSetSpec]

    def __init__(self, *, options: dict | None = None, chance: Chance | None = None, seed: int = 0):
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
        """The sorted list of actions ``seat`` may take now (empty if not to act)."""
        raise NotImplementedError

    def _apply(self, seat: int, action: str) -> None:
        """Apply a legal action (already checked); emit events; draw chance."""
        raise NotImplementedError

    def outcome(self) -> Outcome:
        raise NotImplementedError

    def view(self, seat: int | None) -> dict:
        """JSON-able state as ``seat`` may see it (``None``: a spectator). Never leaks hidden cards."""
        raise NotImplementedError

    def state_dict(self) -> dict:
        """The rule set's own fields as JSON-able data (for ``to_dict``)."""
        raise NotImplementedError

    def load_state_dict(self, data: dict) -> None:
        """Restore fields saved by ``state_dict``."""
        raise NotImplementedError

    def describe_action(self, action: str) -> str:
        """Human label for an action (button text)."""
        return action

    # ---- provided ---------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.to_act()

    def emit(self, kind: str, seat: int | None, text: str, private_to: int | None = None, **data) -> None:
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

    def visible_events(self, seat: int | None, start: int = 0) -> list[dict]:
        """Events from ``start`` as ``seat`` may see them (private events of the other seat dropped)."""
        return [e.to_dict() for e in self.events[start:] if e.private_to is None or e.private_to == seat]

    def clone(self) -> GameState:
        return copy.deepcopy(self)

    def to_dict(self) -> dict:
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
    def from_dict(cls, data: dict) -> GameState:
        """Rebuild a state saved with ``to_dict`` (no replay needed)."""
        state = cls.__new__(cls)
        state.options = dict(data["options"])
        state.seed = data["seed"]
        state.chance = Chance.from_dict(data["chance"])
        state.events = [Event.from_dict(e) for e in data["events"]]
        state.history = [(int(s), a) for s, a in data["history"]]
        state.load_state_dict(data["state"])
        return state
