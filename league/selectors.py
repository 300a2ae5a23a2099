"""Reads: standings tables and fixture queries, each in a fixed number of queries.

Standings are computed from results on every read (``league.standings``);
public pages cache the rendered HTML keyed by ``tournament.version`` instead.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet

from league.models import Entry, Fixture, Pool, Result, ResultChange, Team, Tournament
from league.standings import PointsSystem, StandingEntry, StandingRow, compute_standings
from league.stored_texts import tie_break_explanation, tie_break_text

_RESULT_FIELDS = ("fixture__pool_id", "fixture__home_id", "fixture__away_id", "home_score", "away_score",
                  "home_tries", "away_tries", "kind")


def _pool_results(results_qs) -> dict[int, list[tuple]]:
    """Result rows by pool id, each in MatchResult's order (home_id, away_id, scores, tries, kind).

    Plain tuples from values_list, not model instances or MatchResult objects:
    the standings need seven values per result (see bench/standings.py).
    """
    by_pool: dict[int, list[tuple]] = defaultdict(list)
    for row in results_qs.values_list(*_RESULT_FIELDS):
        by_pool[row[0]].append(row[1:])
    return by_pool


_ENTRY_FIELDS = ("pool_id", "pk", "team__code", "team__name", "team__world_ranking")


def _pool_entries(entries_qs) -> dict[int, list[StandingEntry]]:
    """StandingEntry values by pool id, straight from values_list (no model instances to build)."""
    by_pool: dict[int, list[StandingEntry]] = defaultdict(list)
    for pool_id, *values in entries_qs.order_by().values_list(*_ENTRY_FIELDS):
        by_pool[pool_id].append(StandingEntry(*values))
    return by_pool


def _pool_fixture_results() -> QuerySet[Result]:
    return Result.objects.filter(fixture__stage=Fixture.Stage.POOL, fixture__pool__isnull=False,
                                 fixture__home__isnull=False, fixture__away__isnull=False)


def pool_result_rows(pool: Pool) -> list[tuple]:
    """The result rows of one pool's fixtures, in MatchResult's order (one query)."""
    return _pool_results(_pool_fixture_results().filter(fixture__pool=pool)).get(pool.pk, [])


def lots_seed(tournament: Tournament) -> int:
    """The seed of a tournament's drawing of lots (a tie-breaker): its draw seed, else its id, so the same
    table always comes out the same."""
    return tournament.draw_seed if tournament.draw_seed is not None else tournament.pk


def _schedule_facts(tournament: Tournament, points_system: PointsSystem, pool_id: int | None = None
                    ) -> tuple[dict[int, dict[int, int]], dict[int, int]]:
    """What the table needs from the pools' schedules, only when the points system uses it (one query):

    * byes per entry in each pool: a round-robin bye is no fixture, so a team rests in a round of its pool
      that has no fixture of it; it counts once the round is under way (a result of that round is in);
    * each pool's full programme (matches per team: the most fixtures any of its teams has), for the
      all-wins bonus (a Grand Slam in a double round robin is every match of both halves).
    """
    if not (points_system.bye or points_system.all_wins_bonus):
        return {}, {}
    fixtures = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL, pool__isnull=False,
                                      home__isnull=False, away__isnull=False).exclude(
        status=Fixture.Status.CANCELLED)
    if pool_id is not None:
        fixtures = fixtures.filter(pool_id=pool_id)
    playing: dict[tuple[int, int], set[int]] = defaultdict(set)  # (pool, round) -> entries with a fixture
    started: set[tuple[int, int]] = set()
    matches: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for pool, number, home, away, result in fixtures.values_list("pool_id", "round_number", "home_id", "away_id",
                                                                  "result__id"):
        playing[(pool, number)].update((home, away))
        matches[pool][home] += 1
        matches[pool][away] += 1
        if result is not None:
            started.add((pool, number))
    members: dict[int, set[int]] = defaultdict(set)
    for (pool, _number), ids in playing.items():
        members[pool].update(ids)
    byes: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for (pool, number), ids in playing.items():
        if (pool, number) in started:
            for entry_id in members[pool] - ids:
                byes[pool][entry_id] += 1
    return byes, {pool: max(counts.values()) for pool, counts in matches.items() if counts}


def _table(tournament: Tournament, pool_id: int, entries: list[StandingEntry], results: list[tuple],
           points_system: PointsSystem, facts: tuple[dict[int, dict[int, int]], dict[int, int]]
           ) -> list[StandingRow]:
    byes, programme = facts
    return compute_standings(entries, results, points_system, byes=byes.get(pool_id),
                             matches_per_team=programme.get(pool_id), seed=lots_seed(tournament))


def pool_standings(pool: Pool) -> list[StandingRow]:
    """The table of one pool (three queries at most: tournament, entries, results; one more when the points
    system gives points for a bye or for winning every match)."""
    tournament = pool.tournament
    entries = _pool_entries(Entry.objects.filter(pool=pool))
    results = _pool_results(_pool_fixture_results().filter(fixture__pool=pool))
    points_system = PointsSystem.from_tournament(tournament)
    return _table(tournament, pool.pk, entries.get(pool.pk, []), results.get(pool.pk, []), points_system,
                  _schedule_facts(tournament, points_system, pool.pk))


def pool_table_of(tournament: Tournament, pool: Pool, entries: list[StandingEntry]) -> list[StandingRow]:
    """The table of one pool whose ``entries`` the caller has (advancement): as ``tournament_standings`` works
    it out (byes, the whole programme and the drawing of lots included); one query, two with those facts."""
    points_system = PointsSystem.from_tournament(tournament)
    return _table(tournament, pool.pk, entries, pool_result_rows(pool), points_system,
                  _schedule_facts(tournament, points_system, pool.pk))


def tournament_standings(tournament: Tournament) -> list[tuple[Pool, list[StandingRow]]]:
    """Every pool's table, in pool order: three queries whatever the number of pools and results (one more
    when the points system gives points for a bye or for winning every match)."""
    pools = list(Pool.objects.filter(tournament=tournament))
    entries_by_pool = _pool_entries(Entry.objects.filter(tournament=tournament, pool__isnull=False))
    results = _pool_results(_pool_fixture_results().filter(fixture__tournament=tournament))
    points_system = PointsSystem.from_tournament(tournament)
    facts = _schedule_facts(tournament, points_system)
    return [(pool, _table(tournament, pool.pk, entries_by_pool[pool.pk], results.get(pool.pk, []), points_system,
                          facts))
            for pool in pools]


def pools_standings_with(tournament: Tournament, pools: list[Pool],
                         extra_results: dict[int, list[tuple]]) -> list[tuple[Pool, list[StandingRow]]]:
    """The tables of ``pools`` with the results in plus ``extra_results`` (by pool id, in the results' tuple
    order): the live projection of the standings. Two queries whatever the number of pools."""
    pool_ids = [pool.pk for pool in pools]
    entries = _pool_entries(Entry.objects.filter(pool_id__in=pool_ids))
    results = _pool_results(_pool_fixture_results().filter(fixture__pool_id__in=pool_ids))
    points_system = PointsSystem.from_tournament(tournament)
    return [(pool, compute_standings(entries.get(pool.pk, []),
                                     [*results.get(pool.pk, []), *extra_results.get(pool.pk, [])], points_system))
            for pool in pools]


def standing_row_data(row: StandingRow) -> dict:
    """A row's JSON form: the standings keys, and how tie-breakers placed it ("tie_breaks": each decision's
    criterion, the teams it was placed above and the words; "explanation": those words in one line)."""
    return {**row.as_dict(), "tie_breaks": [{**decision.as_dict(), "text": tie_break_text(decision)}
                                            for decision in row.tie_breaks],
            "explanation": tie_break_explanation(row)}


def tournament_standings_data(tournament: Tournament) -> list[dict]:
    """The JSON form of the standings: ``[{"pool": "A", "rows": [standing_row_data(row), ...]}, ...]``."""
    return [{"pool": pool.name, "rows": [standing_row_data(row) for row in rows]}
            for pool, rows in tournament_standings(tournament)]


def fixture_list(
    *,
    tournament: Tournament | int | None = None,
    pool: Pool | int | None = None,
    round_number: int | None = None,
    team: Team | str | None = None,
    on_date: date | None = None,
    stage: str | None = None,
    status: str | None = None,
) -> QuerySet[Fixture]:
    """Fixtures filtered by any of: tournament, pool, round, team (a Team or its code), day, stage, status.

    Teams, pools and results come in the same query (select_related), so a list
    of fixtures costs one query whatever its length. ``on_date`` compares the
    kick-off's day in the current time zone.
    """
    qs = Fixture.objects.select_related("tournament", "pool", "home__team", "away__team", "result")
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    if pool is not None:
        qs = qs.filter(pool=pool)
    if round_number is not None:
        qs = qs.filter(round_number=round_number)
    if team is not None:
        if isinstance(team, str):
            qs = qs.filter(Q(home__team__code__iexact=team) | Q(away__team__code__iexact=team))
        else:
            qs = qs.filter(Q(home__team=team) | Q(away__team=team))
    if on_date is not None:
        qs = qs.filter(kickoff__date=on_date)
    if stage is not None:
        qs = qs.filter(stage=stage)
    if status is not None:
        qs = qs.filter(status=status)
    return qs


def fixture_rounds(tournament: Tournament, *, pool: Pool | None = None) -> list[tuple[int, list[Fixture]]]:
    """The fixtures of a tournament (or one pool) grouped by round number, in order (one query)."""
    rounds: dict[int, list[Fixture]] = defaultdict(list)
    for fixture in fixture_list(tournament=tournament, pool=pool):
        rounds[fixture.round_number].append(fixture)
    return sorted(rounds.items())


def fixtures_undecided(tournament: Tournament) -> bool:
    """Whether any fixture of ``tournament`` still needs a result (one query).

    Cancelled fixtures and byes (a Swiss bye: a fixture with its team and no opponent, already "played") need
    none; a knockout fixture whose teams are still to be decided does.
    """
    return (Fixture.objects.filter(tournament=tournament, result__isnull=True)
            .exclude(status__in=[Fixture.Status.CANCELLED, Fixture.Status.PLAYED]).exists())


def result_changes(fixture: Fixture) -> QuerySet[ResultChange]:
    """The audit trail of one fixture's result, oldest first, with who made each change."""
    return ResultChange.objects.filter(fixture=fixture).select_related("changed_by")


def teams_for(user: Any) -> QuerySet[Team]:
    """The teams ``user`` may name and enter: the RWC nations and their own teams. Without a signed-in user
    (the command line, anonymous readers) the site's teams: the nations and any team of no organiser."""
    if user is not None and getattr(user, "is_authenticated", False):
        return Team.objects.filter(Q(is_nation=True) | Q(owner=user))
    return Team.objects.filter(owner__isnull=True)


def tournament_get(slug: str) -> Tournament | None:
    """The tournament with this slug, or None."""
    return Tournament.objects.filter(slug=slug).first()
