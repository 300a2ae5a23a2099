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

How this module reads it (see :func:`_contest`):

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
bonus point (nor the points of a loss, where a loss earns some, as in sevens).

**Points systems as data.** :class:`PointsSystem` holds the points for a win,
draw and loss, the try bonus (none; N or more tries; or, as in the Top 14, a
win by N more tries than the opponent), the losing bonus (within N points),
points for a bye, a bonus for winning every match (the Six Nations' Grand
Slam) and the ordered tie-breakers, drawn from one vocabulary
(:data:`TIE_BREAKERS`). The World Rugby order above is one of them; the
presets in :data:`POINTS_PRESETS` are the competitions' own (see there). Every
row records which criterion decided its place and, for each team it was placed
above, on what (:attr:`StandingRow.tie_breaks`: "above Scotland on points
difference", "head-to-head win over South Africa"); teams placed equally share
a position.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

ROW_KEYS = ("position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
            "tries_for", "tries_against", "bonus_points", "points")

# The tie-breaking vocabulary. Each name is recorded on the rows it decided (``StandingRow.tie_break``).
POINTS = "points"
HEAD_TO_HEAD = "head_to_head"  # exactly two teams level: the one that won more of their matches
HEAD_TO_HEAD_POINTS = "head_to_head_points"  # table points in the matches among the teams level (a mini-table)
HEAD_TO_HEAD_POINTS_DIFFERENCE = "head_to_head_points_difference"  # points difference in those matches
HEAD_TO_HEAD_TRIES_DIFFERENCE = "head_to_head_tries_difference"  # tries difference in those matches
WINS = "wins"
POINTS_DIFFERENCE = "points_difference"
TRIES_DIFFERENCE = "tries_difference"
POINTS_FOR = "points_for"
TRIES_FOR = "tries_for"
WORLD_RANKING = "world_ranking"
PLACED_EQUALLY = "placed_equally"  # the teams still level share the place (the list ends here)
DRAWING_LOTS = "drawing_lots"  # the teams still level are ordered by lots drawn from the tournament's seed
TEAM_CODE = "team_code"  # not a choice: what orders teams still level when a list runs out

TIE_BREAKERS = (HEAD_TO_HEAD, HEAD_TO_HEAD_POINTS, HEAD_TO_HEAD_POINTS_DIFFERENCE, HEAD_TO_HEAD_TRIES_DIFFERENCE,
                WINS, POINTS_DIFFERENCE, TRIES_DIFFERENCE, POINTS_FOR, TRIES_FOR, WORLD_RANKING, PLACED_EQUALLY,
                DRAWING_LOTS)
_FINAL = (PLACED_EQUALLY, DRAWING_LOTS)  # these decide everything left, so they can only come last

# How a row's explanation names the criterion: "above Scotland on points difference". In English, for this
# module's own readers (tests, a shell); what people read is ``league.stored_texts.tie_break_text``, translated.
_ABOVE_ON = {
    HEAD_TO_HEAD_POINTS: "on table points in the matches between them",
    HEAD_TO_HEAD_POINTS_DIFFERENCE: "on points difference in the matches between them",
    HEAD_TO_HEAD_TRIES_DIFFERENCE: "on tries difference in the matches between them",
    WINS: "on matches won",
    POINTS_DIFFERENCE: "on points difference",
    TRIES_DIFFERENCE: "on tries difference",
    POINTS_FOR: "on points scored",
    TRIES_FOR: "on tries scored",
    WORLD_RANKING: "on World Rugby ranking",
    DRAWING_LOTS: "by drawing of lots",
    TEAM_CODE: "in team-code order (level on every criterion)",
}

WORLD_RUGBY_ORDER = (HEAD_TO_HEAD, POINTS_DIFFERENCE, TRIES_DIFFERENCE, POINTS_FOR, TRIES_FOR, WORLD_RANKING)


@dataclass(frozen=True)
class PointsSystem:
    """Table points for a result and how teams level on points are ordered.

    ``try_bonus_threshold``: tries for the try bonus point (None: no try bonus);
    with ``try_bonus_relative`` it is a win by that many more tries than the
    opponent (Top 14) rather than that many tries whatever the result.
    ``losing_bonus_margin``: a loss by at most this many points earns a bonus
    point (None: none). ``bye``: points for a bye. ``all_wins_bonus``: points
    for winning every match (the Grand Slam). ``tie_breakers``: names from
    :data:`TIE_BREAKERS`, in order; when they run out, the team code decides.
    """

    win: int = 4
    draw: int = 2
    loss: int = 0
    try_bonus_threshold: int | None = 4
    losing_bonus_margin: int | None = 7
    try_bonus_relative: bool = False
    bye: int = 0
    all_wins_bonus: int = 0
    tie_breakers: tuple[str, ...] = WORLD_RUGBY_ORDER

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie_breakers", tuple(self.tie_breakers))
        unknown = [name for name in self.tie_breakers if name not in TIE_BREAKERS]
        if unknown:
            raise ValueError(f"unknown tie-breaker(s): {', '.join(unknown)}")
        if len(set(self.tie_breakers)) != len(self.tie_breakers):
            raise ValueError("a tie-breaker appears twice")
        if any(name in _FINAL for name in self.tie_breakers[:-1]):
            raise ValueError("placed equally and drawing of lots decide every team left: they can only come last")

    @classmethod
    def from_tournament(cls, tournament) -> PointsSystem:
        """The points system configured on a tournament: its ``points_rules`` (every part of the system), or
        the preset named by its ``points_system`` when it has none (or, for an object with the old number
        fields only, those five numbers)."""
        rules = getattr(tournament, "points_rules", None)
        if rules:
            return cls.from_dict(rules)
        preset = POINTS_PRESETS.get(getattr(tournament, "points_system", ""))
        if preset is not None or not hasattr(tournament, "win_points"):
            return preset or POINTS_PRESETS["world_rugby"]
        return cls(win=tournament.win_points, draw=tournament.draw_points, loss=tournament.loss_points,
                   try_bonus_threshold=tournament.try_bonus_threshold,
                   losing_bonus_margin=tournament.losing_bonus_margin)

    def as_dict(self) -> dict:
        """The system as JSON-ready data (what a tournament stores and the API shows)."""
        return {"win": self.win, "draw": self.draw, "loss": self.loss,
                "try_bonus_threshold": self.try_bonus_threshold, "try_bonus_relative": self.try_bonus_relative,
                "losing_bonus_margin": self.losing_bonus_margin, "bye": self.bye,
                "all_wins_bonus": self.all_wins_bonus, "tie_breakers": list(self.tie_breakers)}

    @classmethod
    def from_dict(cls, data: Mapping) -> PointsSystem:
        """The inverse of :meth:`as_dict`; missing keys take the World Rugby values. Unknown keys, numbers that
        are not whole numbers from 0 to 100 (a bonus threshold or margin: 1 to 100, or None), a try-bonus rule
        that is not true/false and tie-breakers outside the vocabulary are refused with a ``ValueError``."""
        if not isinstance(data, Mapping):
            raise ValueError("a points system is a JSON object")
        unknown = sorted(str(key) for key in set(data) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"unknown points-system field(s): {', '.join(unknown)}")
        for name in _POINT_FIELDS:
            if name in data and not _whole(data[name], 0):
                raise ValueError(f"{name} must be a whole number from 0 to {MAX_POINTS}")
        for name in _BONUS_FIELDS:
            if name in data and data[name] is not None and not _whole(data[name], 1):
                raise ValueError(f"{name} must be a whole number from 1 to {MAX_POINTS}, or null for none")
        if "try_bonus_relative" in data and not isinstance(data["try_bonus_relative"], bool):
            raise ValueError("try_bonus_relative must be true or false")
        if "tie_breakers" in data:
            order = data["tie_breakers"]
            if not isinstance(order, list | tuple) or not all(isinstance(name, str) for name in order):
                raise ValueError("tie_breakers must be a list of names")
        return cls(**data)


MAX_POINTS = 100
_POINT_FIELDS = ("win", "draw", "loss", "bye", "all_wins_bonus")
_BONUS_FIELDS = ("try_bonus_threshold", "losing_bonus_margin")


def _whole(value: object, lowest: int) -> bool:
    # bool is an int in Python: true/false are not numbers here.
    return isinstance(value, int) and not isinstance(value, bool) and lowest <= value <= MAX_POINTS


# The presets a tournament can start from, each as its competition writes it:
# * world_rugby - Rugby World Cup Tournament Rules (see the top of this module);
# * six_nations - Six Nations rules: 4/2/0, a try bonus for four tries, a losing bonus within 7, three more
#   points for winning all five matches (the Grand Slam); level teams are separated by points difference, then
#   tries scored, then share the place (no head-to-head);
# * sevens - World Rugby Sevens Series pool rules: win 3, draw 2, loss 1, no bonus; the winner of the match
#   between the two teams level, then points difference, tries difference, points scored, then a coin toss
#   (here: lots drawn from the tournament's seed);
# * top14 - LNR rules (Top 14, article 331): 4/2/0, a bonus for a win by three tries more than the opponent,
#   a losing bonus within 5; table points in the matches between the teams level, points difference, points
#   difference then tries difference in the matches between them, tries difference, points scored, tries
#   scored (the later steps: walkovers, the previous season's place, are not modelled);
# * premiership - Premiership Rugby: 4/2/0, four tries, within 7; matches won, points difference, points scored;
# * rugby_league - the NRL: 2/1/0, two points for a bye, points difference;
# * football - 3/1/0 with the World Rugby order (as before).
POINTS_PRESETS: dict[str, PointsSystem] = {
    "world_rugby": PointsSystem(4, 2, 0, 4, 7),
    "six_nations": PointsSystem(4, 2, 0, 4, 7, all_wins_bonus=3,
                                tie_breakers=(POINTS_DIFFERENCE, TRIES_FOR, PLACED_EQUALLY)),
    "sevens": PointsSystem(3, 2, 1, None, None,
                           tie_breakers=(HEAD_TO_HEAD, POINTS_DIFFERENCE, TRIES_DIFFERENCE, POINTS_FOR,
                                         DRAWING_LOTS)),
    "top14": PointsSystem(4, 2, 0, 3, 5, try_bonus_relative=True,
                          tie_breakers=(HEAD_TO_HEAD_POINTS, POINTS_DIFFERENCE, HEAD_TO_HEAD_POINTS_DIFFERENCE,
                                        HEAD_TO_HEAD_TRIES_DIFFERENCE, TRIES_DIFFERENCE, POINTS_FOR, TRIES_FOR)),
    "premiership": PointsSystem(4, 2, 0, 4, 7, tie_breakers=(WINS, POINTS_DIFFERENCE, POINTS_FOR)),
    "rugby_league": PointsSystem(2, 1, 0, None, None, bye=2, tie_breakers=(POINTS_DIFFERENCE,)),
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


@dataclass(frozen=True)
class TieBreak:
    """One decision of a tie-breaker: the row it belongs to was placed above ``teams`` (codes; ``names`` for
    the text) on ``criterion`` - or, for ``placed_equally``, shares its place with them."""

    criterion: str
    teams: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def text(self) -> str:
        """The decision in English words: "above Scotland on points difference", "head-to-head win over Fiji".
        Pages, the API and exports show ``league.stored_texts.tie_break_text(decision)``: the reader's language."""
        who = _join(self.names)
        if self.criterion == HEAD_TO_HEAD:
            return f"head-to-head win over {who}"
        if self.criterion == PLACED_EQUALLY:
            return f"placed equally with {who}"
        return f"above {who} {_ABOVE_ON[self.criterion]}"

    def as_dict(self) -> dict:
        return {"criterion": self.criterion, "teams": list(self.teams), "text": self.text}


def _join(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


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
    # Each decision that put this row above teams level with it on points (see TieBreak).
    tie_breaks: tuple[TieBreak, ...] = field(default=(), compare=False)

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def tries_difference(self) -> int:
        return self.tries_for - self.tries_against

    @property
    def explanation(self) -> str:
        """The tie-break decisions in English words, "; "-separated ("" when none); in the reader's language:
        ``league.stored_texts.tie_break_explanation(row)``."""
        return "; ".join(decision.text for decision in self.tie_breaks)

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


def compute_standings(entries: Iterable[StandingEntry], results: Iterable[tuple], points_system: PointsSystem,
                      *, byes: Mapping[int, int] | None = None, matches_per_team: int | None = None,
                      seed: int | str | None = None) -> list[StandingRow]:
    """The table of a pool, best first, with positions 1..n (teams placed equally share one).

    ``results`` are MatchResult tuples (or plain tuples in the same order).
    Results between teams that are not both in ``entries`` are ignored (they
    belong to another table). ``byes``: byes per entry id, each worth the
    system's ``bye`` points. ``matches_per_team``: how many matches make a full
    programme, for the all-wins bonus (default: one against each other team).
    ``seed``: the tournament's seed, for the drawing of lots.
    """
    rows = {e.entry_id: StandingRow(entry_id=e.entry_id, team_code=e.team_code, team_name=e.team_name,
                                    world_ranking=e.world_ranking) for e in entries}
    # Per entry: played, won, drawn, lost, points for, against, tries for, against, bonus, table points.
    # Plain lists and local variables: this loop runs once per result (40,000 times in the benchmark).
    tally = {entry_id: [0] * 10 for entry_id in rows}
    win, draw, loss = points_system.win, points_system.draw, points_system.loss
    try_bonus = points_system.try_bonus_threshold
    relative = points_system.try_bonus_relative
    losing_margin = points_system.losing_bonus_margin
    # Head-to-head: wins[(a, b)] is how many of their matches a won against b; with a mini-table among the
    # teams level in the order, every match's table points too.
    wins: dict[tuple[int, int], int] = {}
    keep_matches = any(name in _MINI_TABLE for name in points_system.tie_breakers)
    matches: list[tuple] = []
    for home_id, away_id, home_score, away_score, home_tries, away_tries, kind in results:
        home, away = tally.get(home_id), tally.get(away_id)
        if home is None or away is None:
            continue
        if relative:
            home_bonus = away_bonus = 0
        else:
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
            # awarded to the home side: the away side gave it), nor the points of a loss.
            gave_walkover = kind == ("walkover_home" if home_won else "walkover_away")
            losing_bonus = int(losing_margin is not None and abs(home_score - away_score) <= losing_margin
                               and not gave_walkover)
            beaten = 0 if gave_walkover else loss
            margin_bonus = int(relative and try_bonus is not None
                               and abs(home_tries - away_tries) >= try_bonus and (home_tries > away_tries) == home_won)
            if home_won:
                home_bonus += margin_bonus
                away_bonus += losing_bonus
                home_points, away_points = win, beaten
            else:
                away_bonus += margin_bonus
                home_bonus += losing_bonus
                home_points, away_points = beaten, win
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
        if keep_matches:
            matches.append((home_id, away_id, home_points + home_bonus, away_points + away_bonus,
                            home_score - away_score, home_tries - away_tries))
    full_programme = len(rows) - 1 if matches_per_team is None else matches_per_team
    for entry_id, row in rows.items():
        (row.played, row.won, row.drawn, row.lost, row.points_for, row.points_against, row.tries_for,
         row.tries_against, row.bonus_points, row.points) = tally[entry_id]
        if points_system.all_wins_bonus and full_programme > 0 and row.won == row.played == full_programme:
            row.bonus_points += points_system.all_wins_bonus
            row.points += points_system.all_wins_bonus
        if byes and points_system.bye:
            row.points += byes.get(entry_id, 0) * points_system.bye

    context = _Context(points_system.tie_breakers, wins, matches, seed, rows)
    by_points: dict[int, list[StandingRow]] = {}
    for row in rows.values():
        by_points.setdefault(row.points, []).append(row)
    table: list[StandingRow] = []
    shared: set[int] = set()  # entry ids placed equally with the row before them
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
            placed, step, beaten = _contest(remaining, context)
            for row in placed:
                row.tie_break = step
                notes = [TieBreak(name, tuple(r.team_code for r in rows_), tuple(r.team_name for r in rows_))
                         for name, rows_ in beaten]
                if len(placed) > 1:
                    others = [r for r in placed if r is not row]
                    notes.append(TieBreak(PLACED_EQUALLY, tuple(r.team_code for r in others),
                                          tuple(r.team_name for r in others)))
                # Before any match nothing decided the order: a table of zeros explains nothing.
                row.tie_breaks = tuple(notes) if row.played else ()
                table.append(row)
                remaining.remove(row)
            shared.update(row.entry_id for row in placed[1:])
    for index, row in enumerate(table):
        row.position = table[index - 1].position if row.entry_id in shared else index + 1
    return table


_MINI_TABLE = (HEAD_TO_HEAD_POINTS, HEAD_TO_HEAD_POINTS_DIFFERENCE, HEAD_TO_HEAD_TRIES_DIFFERENCE)


class _Context:
    """What the tie-breakers need besides the rows: the order, head-to-head wins, the matches, the lots."""

    def __init__(self, order, wins, matches, seed, rows):
        self.order = order
        self.wins = wins
        self.matches = matches
        self.seed = seed
        self._lots: dict[int, int] | None = None
        self._rows = rows
        self._by_home: dict[int, list[tuple]] | None = None

    def lots(self, entry_id: int) -> int:
        """The place of ``entry_id`` in lots drawn from the seed (the same draw for every tie in the table)."""
        if self._lots is None:
            drawn = sorted(self._rows, key=lambda i: self._rows[i].team_code)
            random.Random(f"lots:{self.seed}").shuffle(drawn)
            self._lots = {entry_id: place for place, entry_id in enumerate(drawn)}
        return self._lots[entry_id]

    def mini_table(self, candidates: list[StandingRow]) -> dict[int, tuple[int, int, int]]:
        """Per entry: (table points, points difference, tries difference) in the matches among ``candidates``."""
        if self._by_home is None:
            self._by_home = {}
            for match in self.matches:
                self._by_home.setdefault(match[0], []).append(match)
        ids = {row.entry_id for row in candidates}
        totals = {entry_id: [0, 0, 0] for entry_id in ids}
        for home_id in ids:
            home = totals[home_id]
            for _h, away_id, home_points, away_points, score_margin, try_margin in self._by_home.get(home_id, ()):
                if away_id in ids:
                    away = totals[away_id]
                    home[0] += home_points
                    away[0] += away_points
                    home[1] += score_margin
                    away[1] -= score_margin
                    home[2] += try_margin
                    away[2] -= try_margin
        return {entry_id: tuple(values) for entry_id, values in totals.items()}


_KEYS = {
    WINS: lambda row: row.won,
    POINTS_DIFFERENCE: lambda row: row.points_difference,
    TRIES_DIFFERENCE: lambda row: row.tries_difference,
    POINTS_FOR: lambda row: row.points_for,
    TRIES_FOR: lambda row: row.tries_for,
    # Ranking 1 is best; unranked teams come last.
    WORLD_RANKING: lambda row: -row.world_ranking if row.world_ranking is not None else float("-inf"),
}


def _contest(tied: list[StandingRow], context: _Context) -> tuple[list[StandingRow], str, list]:
    """Who takes the next place among ``tied`` (level on points): the row(s) placed there (several when placed
    equally), the criterion that decided, and the (criterion, rows) each other team dropped out on."""
    candidates = tied
    beaten: list[tuple[str, list[StandingRow]]] = []
    for name in context.order:
        if name == PLACED_EQUALLY:
            return list(candidates), name, beaten
        if name == DRAWING_LOTS:
            best = min(candidates, key=lambda row: context.lots(row.entry_id))
            beaten.append((name, [row for row in candidates if row is not best]))
            return [best], name, beaten
        if name == HEAD_TO_HEAD:
            if len(candidates) != 2:
                continue  # "the two tied Teams": no single match between three or more
            a, b = candidates
            values = {a.entry_id: context.wins.get((a.entry_id, b.entry_id), 0),
                      b.entry_id: context.wins.get((b.entry_id, a.entry_id), 0)}
        elif name in _MINI_TABLE:
            column = _MINI_TABLE.index(name)
            values = {entry_id: totals[column] for entry_id, totals in context.mini_table(candidates).items()}
        else:
            key = _KEYS[name]
            values = {row.entry_id: key(row) for row in candidates}
        best_value = max(values[row.entry_id] for row in candidates)
        kept = [row for row in candidates if values[row.entry_id] == best_value]
        if len(kept) < len(candidates):
            beaten.append((name, [row for row in candidates if values[row.entry_id] != best_value]))
            candidates = kept
        if len(candidates) == 1:
            return candidates, name, beaten
    best = min(candidates, key=lambda row: row.team_code)
    beaten.append((TEAM_CODE, [row for row in candidates if row is not best]))
    return [best], TEAM_CODE, beaten
