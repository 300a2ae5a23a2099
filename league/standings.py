"""Pool standings computed from results: pure functions, no database.

Standings are never stored or edited by hand: ``league.selectors`` reads the
entries and results of a pool and calls :func:`compute_standings`.

Tie-breakers follow the Rugby World Cup Tournament Rules, section 3 "Rankings
at the completion of the pool phase" (rugbyworldcup.com, "Tournament Rules",
https://www.rugbyworldcup.com/news/35290), as applied to the RWC 2023 pool
phase (World Rugby Rankings of 9 October 2023 as the last step). In
substance: if at the completion of the pool phase two or more Teams are level
on Match points, the following criteria are used in order until one Team can
be determined as the higher ranked:

  (a) the winner of the Match in which the two tied Teams played each other;
  (b) the best difference between points scored for and against in all pool Matches;
  (c) the best difference between tries scored for and against in all pool Matches;
  (d) the most points scored in all pool Matches;
  (e) the most tries scored in all pool Matches;
  (f) the higher place in the official World Rugby Rankings (at 9 October 2023
      for RWC 2023; here the ``world_ranking`` of each team).

  "In the case of a tie between three or more Teams at the end of the pool
  phase, once the highest ranked Team has been determined following the above
  criteria, to determine the next higher ranked Team the process would repeat,
  starting at the first criterion."

How this module reads it (see :func:`_highest_ranked`):

* Criterion (a) speaks of *the two* tied Teams, so it only decides when exactly
  two teams are level; with three or more it is skipped (there is no single
  match between them) and (b)-(f) are applied to the whole group.
* Each criterion keeps only the teams best on it; the others drop out of the
  contest for that place. When one team is left it takes the place, is removed
  from the group, and the process restarts at (a) for the rest — so when three
  are level and one is separated, the remaining two are split by their own match.
* Teams without a ranking come after ranked teams; if even (f) cannot separate
  them (two unranked club sides), the team code decides, so the table is stable.
* In a double round robin, (a) compares how many of their matches each won.

Walkovers count as results with the score and tries the organiser configured
for walkovers, except that the team that gave the walkover never gets a losing
bonus point.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

ROW_KEYS = ("position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
            "tries_for", "tries_against", "bonus_points", "points")

# Names of the tie-breaking steps, recorded on each row (``StandingRow.tie_break``)
# so pages and tests can say how a place was decided.
POINTS = "points"
HEAD_TO_HEAD = "head_to_head"
POINTS_DIFFERENCE = "points_difference"
TRIES_DIFFERENCE = "tries_difference"
POINTS_FOR = "points_for"
TRIES_FOR = "tries_for"
WORLD_RANKING = "world_ranking"
TEAM_CODE = "team_code"

# What each step means, for a footnote under a table ("ahead on head-to-head").
TIE_BREAK_LABELS = {
    HEAD_TO_HEAD: "won the match between the teams level on points",
    POINTS_DIFFERENCE: "better points difference",
    TRIES_DIFFERENCE: "better tries difference",
    POINTS_FOR: "more points scored",
    TRIES_FOR: "more tries scored",
    WORLD_RANKING: "higher World Rugby ranking",
    TEAM_CODE: "level on everything: alphabetical order of the team codes",
}


@dataclass(frozen=True)
class PointsSystem:
    """Table points for a result: win, draw, loss and the two bonus points (None switches a bonus off)."""

    win: int = 4
    draw: int = 2
    loss: int = 0
    try_bonus_threshold: int | None = 4
    losing_bonus_margin: int | None = 7

    @classmethod
    def from_tournament(cls, tournament) -> PointsSystem:
        """The points system configured on a tournament (any object with the Tournament fields)."""
        return cls(win=tournament.win_points, draw=tournament.draw_points, loss=tournament.loss_points,
                   try_bonus_threshold=tournament.try_bonus_threshold,
                   losing_bonus_margin=tournament.losing_bonus_margin)


# The presets a tournament can start from (Tournament.PointsSystem values).
POINTS_PRESETS: dict[str, PointsSystem] = {
    "world_rugby": PointsSystem(4, 2, 0, 4, 7),
    "rugby_league": PointsSystem(2, 1, 0, None, None),
    "football": PointsSystem(3, 1, 0, None, None),
}


@dataclass(frozen=True)
class StandingEntry:
    """A team taking part in the table: its entry id, code, name and World Rugby ranking (None: unranked)."""

    entry_id: int
    team_code: str
    team_name: str
    world_ranking: int | None = None


class MatchResult(NamedTuple):
    """A result as the table needs it. ``kind`` is "played", "walkover_home" or "walkover_away".

    A NamedTuple so that the selectors can pass database rows straight in (any
    7-tuple in this order will do): building 40,000 objects is not free.
    """

    home_id: int
    away_id: int
    home_score: int
    away_score: int
    home_tries: int = 0
    away_tries: int = 0
    kind: str = "played"


@dataclass
class StandingRow:
    """One line of a pool table."""

    entry_id: int
    team_code: str
    team_name: str
    position: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    tries_for: int = 0
    tries_against: int = 0
    bonus_points: int = 0
    points: int = 0
    world_ranking: int | None = None
    # How this row's place was decided against the next rows level on points ("" when not level).
    tie_break: str = field(default="", compare=False)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def tries_difference(self) -> int:
        return self.tries_for - self.tries_against

    def as_dict(self) -> dict:
        """The public form of the row (API, JSON export): exactly the keys of ``ROW_KEYS``."""
        return {
            "position": self.position,
            "team": self.team_code,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "tries_for": self.tries_for,
            "tries_against": self.tries_against,
            "bonus_points": self.bonus_points,
            "points": self.points,
        }


def compute_standings(entries: Iterable[StandingEntry], results: Iterable[tuple],
                      points_system: PointsSystem) -> list[StandingRow]:
    """The table of a pool, best first, with positions 1..n.

    ``results`` are MatchResult tuples (or plain tuples in the same order).
    Results between teams that are not both in ``entries`` are ignored (they
    belong to another table).
    """
    rows = {e.entry_id: StandingRow(entry_id=e.entry_id, team_code=e.team_code, team_name=e.team_name,
                                    world_ranking=e.world_ranking) for e in entries}
    # Per entry: played, won, drawn, lost, points for, against, tries for, against, bonus, table points.
    # Plain lists and local variables: this loop runs once per result (40,000 times in the benchmark).
    tally = {entry_id: [0] * 10 for entry_id in rows}
    win, draw, loss = points_system.win, points_system.draw, points_system.loss
    try_bonus = points_system.try_bonus_threshold
    losing_margin = points_system.losing_bonus_margin
    # Head-to-head: wins[(a, b)] is how many of their matches a won against b.
    wins: dict[tuple[int, int], int] = {}
    for home_id, away_id, home_score, away_score, home_tries, away_tries, kind in results:
        home, away = tally.get(home_id), tally.get(away_id)
        if home is None or away is None:
            continue
        home_bonus = 1 if try_bonus is not None and home_tries >= try_bonus else 0
        away_bonus = 1 if try_bonus is not None and away_tries >= try_bonus else 0
        if home_score == away_score:
            home[2] += 1
            away[2] += 1
            home_points = away_points = draw
        else:
            home_won = home_score > away_score
            winner, loser = (home, away) if home_won else (away, home)
            winner[1] += 1
            loser[3] += 1
            key = (home_id, away_id) if home_won else (away_id, home_id)
            wins[key] = wins.get(key, 0) + 1
            # The losing bonus point, never for the side that gave a walkover (a walkover_home is
            # awarded to the home side: the away side gave it).
            gave_walkover = kind == ("walkover_home" if home_won else "walkover_away")
            losing_bonus = int(losing_margin is not None and abs(home_score - away_score) <= losing_margin
                               and not gave_walkover)
            if home_won:
                away_bonus += losing_bonus
                home_points, away_points = win, loss
            else:
                home_bonus += losing_bonus
                home_points, away_points = loss, win
        home[0] += 1
        away[0] += 1
        home[4] += home_score
        home[5] += away_score
        away[4] += away_score
        away[5] += home_score
        home[6] += home_tries
        home[7] += away_tries
        away[6] += away_tries
        away[7] += home_tries
        home[8] += home_bonus
        away[8] += away_bonus
        home[9] += home_points + home_bonus
        away[9] += away_points + away_bonus
    for entry_id, row in rows.items():
        (row.played, row.won, row.drawn, row.lost, row.points_for, row.points_against, row.tries_for,
         row.tries_against, row.bonus_points, row.points) = tally[entry_id]

    by_points: dict[int, list[StandingRow]] = {}
    for row in rows.values():
        by_points.setdefault(row.points, []).append(row)
    table: list[StandingRow] = []
    for points in sorted(by_points, reverse=True):
        group = by_points[points]
        if len(group) == 1:
            group[0].tie_break = ""
            table.append(group[0])
            continue
        remaining = sorted(group, key=lambda row: row.team_code)
        while remaining:
            if len(remaining) == 1:
                remaining[0].tie_break = ""
                table.append(remaining.pop())
                break
            top, step = _highest_ranked(remaining, wins)
            top.tie_break = step
            table.append(top)
            remaining.remove(top)
    for position, row in enumerate(table, start=1):
        row.position = position
    return table


def _highest_ranked(tied: list[StandingRow], wins: dict[tuple[int, int], int]) -> tuple[StandingRow, str]:
    """The team that takes the next place among ``tied`` (level on points), and the criterion that decided it."""
    if len(tied) == 2:
        a, b = tied
        a_wins, b_wins = wins.get((a.entry_id, b.entry_id), 0), wins.get((b.entry_id, a.entry_id), 0)
        if a_wins != b_wins:
            return (a if a_wins > b_wins else b), HEAD_TO_HEAD
    candidates = tied
    criteria = (
        (POINTS_DIFFERENCE, lambda row: row.points_difference),
        (TRIES_DIFFERENCE, lambda row: row.tries_difference),
        (POINTS_FOR, lambda row: row.points_for),
        (TRIES_FOR, lambda row: row.tries_for),
        # Ranking 1 is best; unranked teams come last.
        (WORLD_RANKING, lambda row: -row.world_ranking if row.world_ranking is not None else float("-inf")),
    )
    for name, key in criteria:
        best = max(key(row) for row in candidates)
        candidates = [row for row in candidates if key(row) == best]
        if len(candidates) == 1:
            return candidates[0], name
    return min(candidates, key=lambda row: row.team_code), TEAM_CODE
