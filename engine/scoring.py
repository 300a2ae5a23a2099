"""How a rule set keeps score: its scoring events, which scores are possible, and how an outcome becomes a result.

These are facts of the game, so they live in the engine (the league asks a rule set's spec, it never knows a
rule set by name):

* rugby union — a hand-entered result and RUGBY_Bokx: try 5, conversion 2 (at most one per try), penalty goal 3,
  drop goal 3; a penalty try is 7 (a try with its conversion awarded);
* rugby league — the 52-card game: try 4, conversion or penalty goal 2, drop goal 1;
* Seasons counts seasons won (a halved season is half to each side in the game, and the result counts whole
  seasons, the halves kept in the stats);
* Rugby Champion solo: try 5 and conversion 2 for the person and the Non-player alike (not checked against
  the tries: a solo attempt's result is typed from its score).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol


class GameOutcome(Protocol):
    """What the scoring reads of a game's outcome (``engine.core.Outcome``; a protocol, so that the scoring,
    which the rule-set specs in ``engine.core`` name, does not import ``engine.core`` back)."""

    @property
    def points(self) -> tuple[int | Fraction, int | Fraction]: ...

    @property
    def tries(self) -> tuple[int, int]: ...

    @property
    def stats(self) -> tuple[Mapping[str, Any], Mapping[str, Any]]: ...

    @property
    def winner(self) -> int | None: ...


@dataclass(frozen=True)
class ScoringEvent:
    """One way to score: a try, a conversion, a drop goal... with its points.

    ``per_try`` caps how many of it a side can have for each of its tries (a conversion: one per try);
    ``tries`` is how many tries the event itself counts (a try and a penalty try count one).
    """

    id: str
    label: str
    points: int
    tries: int = 0
    per_try: int | None = None


@dataclass(frozen=True)
class Card:
    """A disciplinary card a referee shows (a yellow card, a red card): logged, never scored."""

    id: str
    label: str


@dataclass(frozen=True)
class SideTally:
    """One side's score made of scoring events: its points, its tries and how many of each event."""

    points: int = 0
    tries: int = 0
    counts: tuple[tuple[str, int], ...] = ()

    def count(self, event_id: str) -> int:
        """How many of the event ``event_id`` this side has."""
        return dict(self.counts).get(event_id, 0)


@dataclass(frozen=True)
class MatchResult:
    """A finished game as a fixture's result: scores, tries, the winning seat (None when level) and stats."""

    home_score: int
    away_score: int
    home_tries: int
    away_tries: int
    winner: int | None
    decided_by: str = ""
    stats: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (the keys are the result's field names; ``winner`` is a seat)."""
        return {"home_score": self.home_score, "away_score": self.away_score, "home_tries": self.home_tries,
                "away_tries": self.away_tries, "winner": self.winner, "decided_by": self.decided_by,
                "stats": self.stats}


def _tries_text(n: int) -> str:
    return "1 try" if n == 1 else f"{n} tries"


@dataclass(frozen=True)
class Scoring:
    """A scoring system: its events, the score check against tries, and the outcome-to-result mapping.

    ``score_stat`` names a per-side stat that is the result's score instead of the game's points (Seasons:
    whole seasons won, where the game's points count a halved season as a half to each side).
    ``checks_tries``: whether a score is checked against the tries (off where a result is typed from the
    game's score alone, as a solo attempt's is).
    """

    id: str
    name: str
    events: tuple[ScoringEvent, ...] = ()
    counts_tries: bool = True
    score_stat: str | None = None
    checks_tries: bool = True
    cards: tuple[Card, ...] = ()

    def event(self, event_id: str) -> ScoringEvent | None:
        """The scoring event ``event_id`` of this scoring, or None when it has none of that name."""
        return next((event for event in self.events if event.id == event_id), None)

    def card(self, card_id: str) -> Card | None:
        """The card ``card_id`` of this scoring, or None."""
        return next((card for card in self.cards if card.id == card_id), None)

    def tally(self, events: Iterable[tuple[int, str]]) -> tuple[SideTally, SideTally]:
        """The score of each side (home, away) made of ``events``, ``(seat, event id)`` pairs in order.

        Raises ``ValueError`` on an event this scoring does not have, or one a side cannot have yet (a
        conversion with no try left to convert): a scoreboard built on the events shows a score the result
        check accepts.
        """
        counts: list[dict[str, int]] = [{}, {}]
        points, tries = [0, 0], [0, 0]
        for seat, event_id in events:
            message = self.event_error(seat, event_id, counts[seat])
            if message:
                raise ValueError(message)
            event = self.event(event_id)
            assert event is not None
            counts[seat][event_id] = counts[seat].get(event_id, 0) + 1
            points[seat] += event.points
            tries[seat] += event.tries if self.counts_tries else 0
        home, away = (SideTally(points[s], tries[s], tuple(sorted(counts[s].items()))) for s in (0, 1))
        return home, away

    def event_error(self, seat: int, event_id: str, counts: Mapping[str, int]) -> str | None:
        """Why a side (with ``counts`` of each event so far) cannot score ``event_id`` now, or None when it can.

        A capped event (a conversion) needs a plain try for each one: a penalty try is awarded converted.
        """
        if seat not in (0, 1):
            return f"No side {seat!r}: a score is the home side's (0) or the away side's (1)."
        event = self.event(event_id)
        if event is None:
            return f"{self.name.capitalize()} has no scoring event {event_id!r} ({self.summary()})."
        tries = sum(n for other_id, n in counts.items() if other_id == "try")
        if event.per_try is not None and counts.get(event_id, 0) + 1 > event.per_try * tries:
            return (f"A {event.label.lower()} needs a try still to convert: this side has {_tries_text(tries)} "
                    f"to convert (a penalty try is awarded converted) and {counts.get(event_id, 0)} "
                    f"{event.label.lower()}(s) already.")
        return None

    @property
    def try_points(self) -> int | None:
        """Points of a plain try, or None when the game has no tries."""
        for event in self.events:
            if event.id == "try":
                return event.points
        return None

    def score_error(self, score: int, tries: int) -> str | None:
        """Why ``score`` with ``tries`` is impossible in this scoring, or None when it is possible.

        Checked with the scoring events: every try is worth its try points, each capped event (a
        conversion) can happen at most ``per_try`` times a try, and the rest must be made of kicks.
        """
        try_points = self.try_points
        if not (self.counts_tries and self.checks_tries) or try_points is None:
            return None
        if score < try_points * tries:
            verb = "is" if tries == 1 else "are"
            return (f"{_tries_text(tries)} {verb} worth at least {try_points * tries} points in {self.name} "
                    f"(try {try_points}), so a score of {score} is impossible.")
        if not self._possible(score - try_points * tries, tries):
            return f"A score of {score} cannot be made with {_tries_text(tries)} in {self.name} ({self.summary()})."
        return None

    def _possible(self, rest: int, tries: int) -> bool:
        """True when ``rest`` points are made of the non-try events (capped ones at most per_try x tries)."""
        reachable = {0}
        for event in self.events:
            if event.tries or event.points <= 0:
                continue  # tries are counted already; a penalty try is a try plus its conversion
            limit = rest // event.points if event.per_try is None else min(rest // event.points,
                                                                            event.per_try * tries)
            reachable = {r + k * event.points for r in reachable for k in range(limit + 1)
                         if r + k * event.points <= rest}
            if rest in reachable:
                return True
        return rest in reachable

    def summary(self) -> str:
        """The events and their points as a short text, e.g. "try 5, conversion 2 at most once per try..."."""
        parts = []
        for event in self.events:
            text = f"{event.label.lower()} {event.points}"
            if event.per_try == 1:
                text += " at most once per try"
            parts.append(text)
        return ", ".join(parts)

    def result(self, outcome: GameOutcome) -> MatchResult:
        """The fixture result of a finished game's outcome (scores are whole numbers)."""
        if self.score_stat is not None:
            home, away = (int(outcome.stats[s][self.score_stat]) for s in (0, 1))
        else:
            home, away = (_whole(p) for p in outcome.points)
        decided_by = next((str(s["decided_by"]) for s in outcome.stats if s.get("decided_by")), "")
        stats: dict[str, Any] = {"home": dict(outcome.stats[0]), "away": dict(outcome.stats[1])}
        if self.score_stat is not None:
            stats["game_points"] = [_number(p) for p in outcome.points]
        return MatchResult(home_score=home, away_score=away, home_tries=int(outcome.tries[0]),
                           away_tries=int(outcome.tries[1]), winner=outcome.winner, decided_by=decided_by,
                           stats=stats)


def _whole(x: int | Fraction) -> int:
    return x if isinstance(x, int) else int(Fraction(x) // 1)


def _number(x: int | Fraction) -> int | float:
    return float(x) if isinstance(x, Fraction) and x.denominator != 1 else int(x)


UNION = Scoring("union", "rugby union", (
    ScoringEvent("try", "Try", 5, tries=1),
    ScoringEvent("conversion", "Conversion", 2, per_try=1),
    ScoringEvent("penalty-goal", "Penalty goal", 3),
    ScoringEvent("drop-goal", "Drop goal", 3),
    ScoringEvent("penalty-try", "Penalty try", 7, tries=1),
), cards=(Card("yellow", "Yellow card"), Card("red", "Red card")))

LEAGUE = Scoring("league", "rugby league", (
    ScoringEvent("try", "Try", 4, tries=1),
    ScoringEvent("goal", "Goal (conversion or penalty)", 2),
    ScoringEvent("drop-goal", "Drop goal", 1),
), cards=(Card("sin-bin", "Sin bin"), Card("sent-off", "Sent off")))

SEASONS_WON = Scoring("seasons", "seasons won", (ScoringEvent("season", "Season won", 1),), counts_tries=False,
                      score_stat="seasons_won")

CHAMPION = Scoring("champion", "Rugby Champion", (
    ScoringEvent("try", "Try", 5, tries=1),
    ScoringEvent("conversion", "Conversion", 2, per_try=1),
), checks_tries=False)
