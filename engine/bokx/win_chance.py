"""RUGBY_Bokx: the chance that the side holding the ball goes on to win, learned from club play.

The table (``win_table.json``, written by ``scripts/bokx_win_table.py`` from tens of thousands of club v club
matches) gives, for the side in possession, its final score (a win 1, a draw 1/2) by

* the score difference from its side (clipped to +-``MAX_DIFF``),
* the game time left in the match (``TIME_STEP``-second steps, the last step the final ``TIME_STEP`` seconds),
* the zone of the field it holds the ball in (its progress row, see :mod:`engine.bokx.field`),
* what happens next: a call of the play, a run's or kick's side, a penalty, a free kick, a kick-off.

It judges a position the way a league table of past matches does: "teams 4 points down on their own 22 with
ten minutes left won 31 % of the time". The international player reads it at the end of its playouts.
"""

from __future__ import annotations

import json
import math
import pathlib
from typing import Any

MAX_DIFF = 21
TIME_STEP = 240
TIME_STEPS = 20  # 80 minutes; more time left counts as the first step
# Progress rows of each zone: own in-goal, own 22, up to the 10 m line, to halfway and the opponent's 10 m,
# the rest of the Red zone, the Blue zone, the opponent's goal line and in-goal.
ZONE_OF_ROW = [0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 6, 6]
ZONES = 7
# What comes next; any other phase (none between plays) counts as a call.
PHASES = ("call", "side_run", "side_kick", "penalty", "free_kick", "kickoff")

TABLE_PATH = pathlib.Path(__file__).with_name("win_table.json")


def phase_index(phase: str, ctx: dict[str, Any]) -> int:
    """The table's index of what comes next (``phase`` and ``ctx`` as in :class:`engine.bokx.rules.BokxState`)."""
    if phase == "side":
        return 1 if ctx.get("k") == "run" else 2
    if phase == "penalty":
        return 3
    if phase == "free_kick":
        return 4
    if phase == "kickoff":
        return 5
    return 0


def seconds_left(period: int, secs: int, period_len: int | None, half_minutes: int) -> int:
    """Game seconds left in regular time (0 in extra time)."""
    if period > 2 or period_len is None:
        return 0
    left = max(0, period_len - secs)
    return left + half_minutes * 60 if period == 1 else left


def time_index(left: int, half_minutes: int) -> int:
    """The table's time step: seconds left scaled to an 80-minute match (a shorter match is judged by its share
    of time left)."""
    scaled = left * 40 / max(1, half_minutes)
    return min(TIME_STEPS - 1, int(scaled) // TIME_STEP)


def diff_index(diff: int) -> int:
    return max(-MAX_DIFF, min(MAX_DIFF, diff)) + MAX_DIFF


class WinTable:
    """The learned table: ``chance(diff, time, zone, phase)`` -> the holder's expected score (0..1)."""

    def __init__(self, values: list[int]):
        expected = (2 * MAX_DIFF + 1) * TIME_STEPS * ZONES * len(PHASES)
        if len(values) != expected:
            raise ValueError(f"a Bokx win table holds {expected} values, not {len(values)}")
        self.values = [v / 1000 for v in values]

    @classmethod
    def load(cls, path: pathlib.Path = TABLE_PATH) -> WinTable:
        data = json.loads(path.read_text())
        return cls(data["values"])

    @staticmethod
    def index(diff: int, time: int, zone: int, phase: int) -> int:
        return ((diff_index(diff) * TIME_STEPS + time) * ZONES + zone) * len(PHASES) + phase

    def chance(self, diff: int, time: int, zone: int, phase: int) -> float:
        """The holder's expected score with ``diff`` points more than the other side (draws count half)."""
        return self.values[self.index(diff, time, zone, phase)]


_TABLE: WinTable | None = None


def table() -> WinTable:
    """The committed table, read once."""
    global _TABLE
    if _TABLE is None:
        _TABLE = WinTable.load()
    return _TABLE


def normal_chance(margin: float, left: int) -> float:
    """A smooth estimate (margin drifting by about 0.05 points squared per game second): where the table has no
    data, and in extra time."""
    return 0.5 * (1.0 + math.erf(margin / math.sqrt(0.05 * left + 4.0) / math.sqrt(2.0)))
