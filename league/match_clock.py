"""The match clock of a match scored live: halves, half-time, full time and time-outs, on the server's time.

The clock is never a number that a phone counts down: it is a few server timestamps (when the current stretch of
play started, and the time already played in this half), so every screen — the scorer's phone after a reload,
a second scorer, the public page, the big screen — computes the same time from them. Pure Python (no Django):
:class:`ClockState` is a value, :meth:`ClockState.apply` makes the next one, and
:func:`clock_from_events` replays a whole log of clock events.

The RUGBY_Bokx booklet ("Keeping time\\score", "Time keeping") has players keep time with a scoreboard app and
call time-outs that pause the clock, so a dropped die or a rules question does not eat playing time.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, replace

# The phases of a match, in order.
NOT_STARTED = "not_started"
FIRST_HALF = "first_half"
HALF_TIME = "half_time"
SECOND_HALF = "second_half"
FULL_TIME = "full_time"
PHASES = (NOT_STARTED, FIRST_HALF, HALF_TIME, SECOND_HALF, FULL_TIME)

# The clock events a scorer sends.
START = "start"
HALF_TIME_CALL = "half_time"
SECOND_HALF_CALL = "second_half"
FULL_TIME_CALL = "full_time"
TIMEOUT = "timeout"
RESUME = "resume"
CLOCK_CALLS = (START, HALF_TIME_CALL, SECOND_HALF_CALL, FULL_TIME_CALL, TIMEOUT, RESUME)

_RUNNING = (FIRST_HALF, SECOND_HALF)


class ClockError(ValueError):
    """A clock call that makes no sense now (half-time before the kick-off, a time-out while paused...)."""


@dataclass(frozen=True)
class ClockState:
    """Where a match's clock is.

    ``banked``: seconds played in the current half before ``running_since``; ``running_since``: when the
    current stretch of play started (None while the clock is stopped: before the kick-off, paused, at half-time,
    at full time); ``half_seconds``: the length of a half the tournament sets.
    """

    half_seconds: int
    phase: str = NOT_STARTED
    paused: bool = False
    banked: float = 0.0
    running_since: dt.datetime | None = None

    @property
    def running(self) -> bool:
        """Whether the clock is counting now."""
        return self.running_since is not None

    def half_elapsed(self, now: dt.datetime) -> float:
        """Seconds played in the current half at ``now`` (0 before the kick-off and at half-time)."""
        if self.running_since is None:
            return self.banked
        return self.banked + max(0.0, (now - self.running_since).total_seconds())

    def match_elapsed(self, now: dt.datetime) -> float:
        """Seconds of the match at ``now`` as a referee counts them: the second half starts at one half's
        length, whatever the first half's added time."""
        if self.phase == HALF_TIME:
            return float(self.half_seconds)
        if self.phase == FULL_TIME:
            return float(2 * self.half_seconds)
        offset = self.half_seconds if self.phase == SECOND_HALF else 0
        return offset + self.half_elapsed(now)

    def origin(self) -> dt.datetime | None:
        """While running: the moment at which the match clock read 0:00 (``now - origin`` is the match time),
        the one timestamp a page needs to tick by itself; None while stopped."""
        if self.running_since is None:
            return None
        offset = self.half_seconds if self.phase == SECOND_HALF else 0
        return self.running_since - dt.timedelta(seconds=self.banked + offset)

    def call_error(self, call: str) -> str | None:
        """Why ``call`` cannot be made now, or None when it can."""
        allowed = {
            START: self.phase == NOT_STARTED,
            HALF_TIME_CALL: self.phase == FIRST_HALF,
            SECOND_HALF_CALL: self.phase == HALF_TIME,
            FULL_TIME_CALL: self.phase in _RUNNING,
            TIMEOUT: self.phase in _RUNNING and not self.paused,
            RESUME: self.phase in _RUNNING and self.paused,
        }
        if call not in allowed:
            return f"Unknown clock call {call!r}."
        if allowed[call]:
            return None
        if call == TIMEOUT and self.paused:
            return "The clock is already stopped for a time-out."
        if call == RESUME and self.phase in _RUNNING:
            return "The clock is running: there is no time-out to end."
        return {
            NOT_STARTED: "The match has not kicked off yet.",
            FIRST_HALF: "The first half is being played.",
            HALF_TIME: "It is half-time: start the second half first.",
            SECOND_HALF: "The second half is being played.",
            FULL_TIME: "The match is over (full time).",
        }[self.phase]

    def apply(self, call: str, at: dt.datetime) -> ClockState:
        """The clock after ``call`` made at ``at`` (raises :class:`ClockError` when it cannot be made now)."""
        message = self.call_error(call)
        if message:
            raise ClockError(message)
        stopped = replace(self, banked=self.half_elapsed(at), running_since=None)
        if call == START:
            return replace(self, phase=FIRST_HALF, paused=False, banked=0.0, running_since=at)
        if call == SECOND_HALF_CALL:
            return replace(self, phase=SECOND_HALF, paused=False, banked=0.0, running_since=at)
        if call == HALF_TIME_CALL:
            return replace(stopped, phase=HALF_TIME, paused=False)
        if call == FULL_TIME_CALL:
            return replace(stopped, phase=FULL_TIME, paused=False)
        if call == TIMEOUT:
            return replace(stopped, paused=True)
        return replace(self, paused=False, running_since=at)  # RESUME

    def text(self, now: dt.datetime) -> str:
        """The clock as a short text for a page ("23'", "40+2'", "HT", "FT", "time-out 23'")."""
        if self.phase == NOT_STARTED:
            return ""
        if self.phase == HALF_TIME:
            return "HT"
        if self.phase == FULL_TIME:
            return "FT"
        minutes = clock_minutes(self.match_elapsed(now), self.half_seconds, self.phase == SECOND_HALF)
        return f"time-out {minutes}" if self.paused else minutes


def clock_minutes(elapsed: float, half_seconds: int, second_half: bool) -> str:
    """A match time in seconds as a referee writes it: "23'", or "40+2'" in a half's added time."""
    end = half_seconds * (2 if second_half else 1)
    if elapsed > end:
        return f"{end // 60}+{int(elapsed - end) // 60 + 1}'"
    return f"{int(elapsed) // 60}'"


def clock_from_events(half_seconds: int, calls: Iterable[tuple[str, dt.datetime]]) -> ClockState:
    """The clock after a log of ``(call, at)`` clock events, in order (raises :class:`ClockError` on a bad one)."""
    state = ClockState(half_seconds=half_seconds)
    for call, at in calls:
        state = state.apply(call, at)
    return state


def from_epoch_ms(value: object) -> dt.datetime | None:
    """A moment sent as milliseconds since the epoch (a phone's clock call), or None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC)
    except (OverflowError, OSError, ValueError):
        return None
