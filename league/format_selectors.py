"""Reads for tournament formats: the bracket view, the Swiss table, the solo-challenge leaderboard.

Each runs a fixed number of queries whatever the number of teams or matches.

The bracket comes in two shapes:

* :func:`bracket_for_tournament` — for templates: brackets (Cup, Plate...), each
  a list of rounds, each a list of matches, ordered as a tree (matches 2i and
  2i+1 of a round feed match i of the next), with byes shown as matches
  against "Bye" so every column has the right height;
* :func:`bracket_rounds` — the JSON of ``manage.py bracket --format json`` and
  the API: a list of rounds, each a list of matches with ``home``, ``away``
  (team codes, or the slot's description such as "Winner Pool A"),
  ``home_score``, ``away_score``, ``winner`` and a few more keys.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from league.advancement import match_outcome
from league.brackets import source_label
from league.models import Entry, Fixture, Result, Tournament
from league.selectors import lots_seed, tournament_standings
from league.standings import MatchResult, PointsSystem, StandingEntry, compute_standings


def _result_of(fixture: Fixture) -> Result | None:
    try:
        return fixture.result
    except Result.DoesNotExist:
        return None


def _side(fixture: Fixture, side: str) -> tuple[str, str | None, str]:
    """(shown value: team code or slot description, team name or None, slot description) of one side."""
    entry = getattr(fixture, side)
    source = getattr(fixture, f"{side}_source")
    label = source_label(source) if source else "TBD"
    if entry is None:
        return label, None, label
    return entry.team.code, entry.team.name, label


def _match_dict(fixture: Fixture, first_round: int) -> dict:
    result = _result_of(fixture)
    home, home_name, home_label = _side(fixture, "home")
    away, away_name, away_label = _side(fixture, "away")
    outcome = match_outcome(fixture, result)
    winner = None
    if outcome is not None:
        winning = fixture.home if outcome[0] == fixture.home_id else fixture.away
        winner = winning.team.code if winning is not None else None
    return {
        "code": fixture.code,
        "bracket": fixture.bracket,
        "round": fixture.round_name,
        "round_name": fixture.round_name,
        "round_number": fixture.round_number - first_round + 1,
        "home": home,
        "away": away,
        "home_name": home_name,
        "away_name": away_name,
        "home_slot": home_label,
        "away_slot": away_label,
        "home_score": result.home_score if result else None,
        "away_score": result.away_score if result else None,
        "home_tries": result.home_tries if result else None,
        "away_tries": result.away_tries if result else None,
        "winner": winner,
        "decided_by": result.decided_by if result else "",
        "kind": result.kind if result else "",
        "status": fixture.status,
        "kickoff": fixture.kickoff.isoformat() if fixture.kickoff else None,
        "venue": fixture.venue,
        "fixture_id": fixture.pk,
        "bye": False,
    }


def _bye_dict(fixture: Fixture, side: str, first_round: int) -> dict:
    shown, name, label = _side(fixture, side)
    return {
        "code": "", "bracket": fixture.bracket, "round": "", "round_name": "",
        "round_number": fixture.round_number - first_round,
        "home": shown, "away": "Bye", "home_name": name, "away_name": None, "home_slot": label, "away_slot": "Bye",
        "home_score": None, "away_score": None, "home_tries": None, "away_tries": None,
        "winner": shown if name else None, "decided_by": "", "kind": "", "status": "", "kickoff": None,
        "venue": "", "fixture_id": None, "bye": True,
    }


def _is_placing(fixture: Fixture) -> bool:
    """A match for places (bronze final) rather than part of the tree."""
    return fixture.home_source.startswith("loser:") and fixture.away_source.startswith("loser:") and \
        fixture.round_name.lower().startswith(("bronze", "third"))


def _bracket_rounds(fixtures: list[Fixture]) -> list[dict]:
    first_round = min(f.round_number for f in fixtures)
    by_code = {f.code: f for f in fixtures if f.code}
    referenced = {s.split(":", 1)[1] for f in fixtures for s in (f.home_source, f.away_source)
                  if s.startswith("winner:")}
    columns: dict[int, list[dict]] = defaultdict(list)
    placed: set[int] = set()

    def walk(fixture: Fixture) -> None:
        for side in ("home", "away"):
            source = getattr(fixture, f"{side}_source")
            kind, _, code = source.partition(":")
            if kind == "winner" and code in by_code:
                walk(by_code[code])
            elif fixture.round_number > first_round and kind not in ("winner", "loser"):
                columns[fixture.round_number - first_round].append(_bye_dict(fixture, side, first_round))
        columns[fixture.round_number - first_round + 1].append(_match_dict(fixture, first_round))
        placed.add(fixture.pk)

    roots = [f for f in fixtures if f.code not in referenced and not _is_placing(f)]
    for root in sorted(roots, key=lambda f: (-f.round_number, f.slot, f.pk)):
        if root.pk not in placed:
            walk(root)
    for fixture in fixtures:  # placing matches, and anything the tree did not reach
        if fixture.pk not in placed:
            columns[fixture.round_number - first_round + 1].append(_match_dict(fixture, first_round))
    rounds = []
    slots = {f.pk: f.slot for f in fixtures}
    for number in sorted(columns):
        column = columns[number]  # in tree order, byes included
        tree_name = next((m["round"] for m in column if m["round"] and not m["bye"]), "")
        groups: dict[str, list[dict]] = {}
        for match in column:
            if match["bye"]:
                match["round"] = match["round_name"] = tree_name
            groups.setdefault(match["round"], []).append(match)
        # A round may also hold a bronze final: it gets its own column, in playing (slot) order.
        for name in sorted(groups, key=lambda n: min(slots.get(m["fixture_id"], 0) for m in groups[n])):
            rounds.append({"number": number, "name": name or "First round", "matches": groups[name]})
    return rounds


def bracket_for_tournament(tournament: Tournament) -> dict:
    """The tournament's knockout brackets for templates and the API (one query).

    ``{"tournament": slug, "brackets": [{"name": "Cup" (or ""), "rounds": [{"number": 1,
    "name": "Quarter-final", "matches": [match, ...]}, ...]}, ...]}``; a match
    has the keys of :func:`bracket_rounds`, plus names, slot descriptions and
    ``bye`` (True for a bye, shown as a match against "Bye").
    """
    fixtures = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT)
                    .select_related("home__team", "away__team", "result")
                    .order_by("round_number", "slot", "pk"))
    groups: dict[str, list[Fixture]] = {}
    for fixture in sorted(fixtures, key=lambda f: f.pk):  # creation order: Cup, then Plate, Bowl...
        groups.setdefault(fixture.bracket, [])
    for fixture in fixtures:
        groups[fixture.bracket].append(fixture)
    return {
        "tournament": tournament.slug,
        "brackets": [{"name": name, "rounds": _bracket_rounds(group)} for name, group in groups.items()],
    }


def bracket_of(tournament: Tournament, name: str) -> list[dict]:
    """The rounds of one bracket (``{"number", "name", "matches"}`` as in :func:`bracket_for_tournament`),
    or [] when there is no such bracket. One query."""
    fixtures = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT, bracket=name)
                    .select_related("home__team", "away__team", "result").order_by("round_number", "slot", "pk"))
    return _bracket_rounds(fixtures) if fixtures else []


def bracket_rounds(tournament: Tournament, *, data: dict | None = None) -> list[list[dict]]:
    """The bracket as a list of rounds, each a list of matches (every bracket's rounds, Cup first)."""
    data = data or bracket_for_tournament(tournament)
    return [rnd["matches"] for bracket in data["brackets"] for rnd in bracket["rounds"]]


# -- Swiss ------------------------------------------------------------------------------------------------

def swiss_table(tournament: Tournament, *, fixtures: list[Fixture] | None = None) -> list[dict]:
    """The Swiss standings (three queries; one when the caller already has the Swiss ``fixtures`` with their
    results): points (a bye counts as a win), then points and tries difference, points scored, and seed; each
    row also has the team's name, how many byes it had and whether it withdrew."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team"))
    byes: dict[int, int] = defaultdict(int)
    if fixtures is None:
        results = [MatchResult(*values) for values in Result.objects.filter(
            fixture__tournament=tournament, fixture__stage=Fixture.Stage.SWISS, fixture__away__isnull=False,
            fixture__home__isnull=False).values_list("fixture__home_id", "fixture__away_id", "home_score",
                                                     "away_score", "home_tries", "away_tries", "kind")]
        for home_id in Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS,
                                              away__isnull=True, home__isnull=False).values_list("home_id",
                                                                                                  flat=True):
            byes[home_id] += 1
    else:
        results = []
        for f in sorted(fixtures, key=lambda f: f.pk):  # the database's order of the query above: by id
            result = _result_of(f)
            if f.home_id is not None and f.away_id is None:
                byes[f.home_id] += 1
            elif f.home_id is not None and f.away_id is not None and result is not None:
                results.append(MatchResult(f.home_id, f.away_id, result.home_score, result.away_score,
                                           result.home_tries, result.away_tries, result.kind))
    points_system = PointsSystem.from_tournament(tournament)
    rows = compute_standings([StandingEntry(e.pk, e.team.code, e.team.name, e.team.world_ranking) for e in entries],
                             results, points_system, seed=lots_seed(tournament))
    by_entry = {e.pk: e for e in entries}
    table = []
    for row in rows:
        entry = by_entry[row.entry_id]
        data = row.as_dict()
        data.update(entry_id=row.entry_id, name=entry.team.name, byes=byes[row.entry_id],
                    withdrawn=entry.withdrawn_at is not None, seed=entry.seed)
        data["points"] += byes[row.entry_id] * points_system.win
        table.append(data)
    table.sort(key=lambda d: (d["withdrawn"], -d["points"], -(d["points_for"] - d["points_against"]),
                              -(d["tries_for"] - d["tries_against"]), -d["points_for"],
                              d["seed"] if d["seed"] is not None else 10**6, d["team"]))
    for position, data in enumerate(table, start=1):
        data["position"] = position
    return table


# -- Solo challenge ---------------------------------------------------------------------------------------

def solo_leaderboard(tournament: Tournament) -> list[dict]:
    """The solo challenge's leaderboard (two queries): each entrant's best attempt, ranked by margin
    (points scored minus the game's points), then points scored; exact ties share a place.

    Rows: ``position, team, name, attempts, margin, points_for, points_against``;
    entrants without a result come last with ``position`` None.
    """
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team"))
    best: dict[int, tuple[int, int, int]] = {}
    attempts: dict[int, int] = defaultdict(int)
    for home_id, scored, conceded in Result.objects.filter(
            fixture__tournament=tournament, fixture__stage=Fixture.Stage.SOLO).values_list(
            "fixture__home_id", "home_score", "away_score"):
        attempts[home_id] += 1
        key = (scored - conceded, scored, conceded)
        if home_id not in best or key[:2] > best[home_id][:2]:
            best[home_id] = key
    rows: list[dict[str, Any]] = []
    for entry in entries:
        found = best.get(entry.pk)
        rows.append({"position": None, "team": entry.team.code, "name": entry.team.name,
                     "attempts": attempts[entry.pk], "margin": found[0] if found else None,
                     "points_for": found[1] if found else None, "points_against": found[2] if found else None,
                     "withdrawn": entry.withdrawn_at is not None})
    rows.sort(key=lambda r: (r["margin"] is None, -(r["margin"] or 0), -(r["points_for"] or 0), r["team"]))
    previous: tuple[tuple[int, int], int] | None = None
    for index, row in enumerate(rows, start=1):
        if row["margin"] is None:
            break
        ranked = (row["margin"], row["points_for"])
        row["position"] = previous[1] if previous and previous[0] == ranked else index
        previous = (ranked, row["position"])
    return rows


# -- Honours of a finished tournament ---------------------------------------------------------------------

def _bracket_finals(fixtures: list[Fixture]) -> tuple[Fixture | None, Fixture | None]:
    """(final, match for third place) of one bracket's fixtures: the final is the last match no other match
    takes its winner from."""
    referenced = {s.split(":", 1)[1] for f in fixtures for s in (f.home_source, f.away_source)
                  if s.startswith("winner:")}
    finals = [f for f in fixtures if f.code not in referenced and not _is_placing(f)]
    placing = [f for f in fixtures if _is_placing(f)]
    final = max(finals, key=lambda f: (f.round_number, -f.slot, -f.pk), default=None)
    return final, (placing[0] if placing else None)


def _side_of(entry: Entry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"team": entry.team.code, "name": entry.team.name, "entry_id": entry.pk}


def tournament_honours(tournament: Tournament,
                       table: Callable[[], tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Who won what, best first (``table``: gives the format's own table, ``TournamentFormat.table``).

    ``[{"title": kind, "bracket": name, "pool": name, "team", "name", "entry_id"}]`` with ``title`` one of
    ``champion``, ``runner_up``, ``third`` (the main bracket or the only pool), ``bracket_winner`` (Plate,
    Bowl, Shield...), ``pool_winner`` (pools with no knockout) and ``winner`` (the Swiss or solo leader). Empty
    while nothing is decided. At most four queries.
    """
    knockouts = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT)
                     .select_related("home__team", "away__team", "result").order_by("pk"))
    honours: list[dict[str, Any]] = []
    if knockouts:
        groups: dict[str, list[Fixture]] = {}
        for fixture in knockouts:  # creation order: the main bracket (Cup) first
            groups.setdefault(fixture.bracket, []).append(fixture)
        for index, (name, group) in enumerate(groups.items()):
            final, placing = _bracket_finals(group)
            outcome = match_outcome(final, _result_of(final)) if final is not None else None
            if final is None or outcome is None:
                continue
            winner, loser = (final.home, final.away) if outcome[0] == final.home_id else (final.away, final.home)
            if index == 0:
                honours.append({"title": "champion", "bracket": name, **(_side_of(winner) or {})})
                honours.append({"title": "runner_up", "bracket": name, **(_side_of(loser) or {})})
                third = match_outcome(placing, _result_of(placing)) if placing is not None else None
                if placing is not None and third is not None:
                    bronze = placing.home if third[0] == placing.home_id else placing.away
                    honours.append({"title": "third", "bracket": name, **(_side_of(bronze) or {})})
            else:
                honours.append({"title": "bracket_winner", "bracket": name, **(_side_of(winner) or {})})
        return honours
    kind, format_rows = table()
    if kind:
        return [{"title": "winner", "team": r["team"], "name": r.get("name") or r["team"],
                 "entry_id": r.get("entry_id")} for r in format_rows if r.get("position") == 1]
    tables = tournament_standings(tournament)
    for pool, rows in tables:
        if not rows:
            continue
        if len(tables) == 1:
            honours.append({"title": "champion", "pool": pool.name, "team": rows[0].team_code,
                            "name": rows[0].team_name, "entry_id": rows[0].entry_id})
            if len(rows) > 1:
                honours.append({"title": "runner_up", "pool": pool.name, "team": rows[1].team_code,
                                "name": rows[1].team_name, "entry_id": rows[1].entry_id})
        else:
            honours.append({"title": "pool_winner", "pool": pool.name, "team": rows[0].team_code,
                            "name": rows[0].team_name, "entry_id": rows[0].entry_id})
    return honours
