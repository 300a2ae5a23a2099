"""Helpers for the simulation tests: a 20-team rwc2023 tournament of the card game, and what it produced."""

from __future__ import annotations

from league.models import Fixture, Result, ResultChange, Tournament
from league.services import tournament_create_from_preset as preset_run

RULESET = "rugby-league-cards"


def rwc_tournament(slug: str = "sim-cup", *, user=None, short: bool = True) -> Tournament:
    """The rwc2023 preset with the card game (``short``: 2 sets a half, to keep tests quick)."""
    tournament = preset_run("rwc2023", name="Sim Cup", slug=slug, ruleset=RULESET, user=user)
    if short:
        Tournament.objects.filter(pk=tournament.pk).update(ruleset_options={"sets_per_half": 2})
        tournament.refresh_from_db()
    return tournament


def results_by_key(tournament: Tournament) -> dict[str, tuple]:
    """Every result of the tournament keyed by stage/code/pool/teams (no database ids), for comparisons."""
    out = {}
    for r in Result.objects.filter(fixture__tournament=tournament).select_related(
            "fixture__home__team", "fixture__away__team", "fixture__pool"):
        f = r.fixture
        key = f"{f.stage}:{f.code}:{f.pool.name if f.pool_id else ''}:{f.home.team.code}:{f.away.team.code}"
        out[key] = (r.home_score, r.away_score, r.home_tries, r.away_tries, r.winner_id and
                    (f.home.team.code if r.winner_id == f.home_id else f.away.team.code))
    return out


def champion(tournament: Tournament) -> str | None:
    """The team code of the final's winner, if the final has a result."""
    final = Fixture.objects.select_related("result", "home__team", "away__team").filter(
        tournament=tournament, code="F").first()
    if final is None or not hasattr(final, "result"):
        return None
    try:
        result = final.result
    except Result.DoesNotExist:
        return None
    return final.home.team.code if result.winner_id == final.home_id else final.away.team.code


def rwc2023_problems(tournament: Tournament) -> list[str]:
    """What is wrong with a simulated rwc2023 tournament (empty when it is complete and exactly once):
    48 results, one per fixture, full tables, the knockout filled to the final, a champion, match logs."""
    from league.selectors import tournament_standings
    from matches.models import Match
    from matches.selectors import match_actions

    problems = []
    fixtures = Fixture.objects.filter(tournament=tournament)
    checks = {
        "fixtures": (fixtures.count(), 48),
        "results": (Result.objects.filter(fixture__tournament=tournament).count(), 48),
        "fixtures without a result": (fixtures.filter(result__isnull=True).count(), 0),
        # Exactly once: one "created" audit row per fixture and never an update; one match per fixture.
        "created audit rows": (ResultChange.objects.filter(fixture__tournament=tournament, action="created").count(),
                               48),
        "other audit rows": (ResultChange.objects.filter(fixture__tournament=tournament).exclude(
            action="created").count(), 0),
        "finished matches": (Match.objects.filter(fixture__tournament=tournament, status="finished").count(), 48),
        "matches without a fixture": (Match.objects.filter(fixture__isnull=True).count(), 0),
    }
    problems += [f"{name}: {got} instead of {want}" for name, (got, want) in checks.items() if got != want]
    for pool, rows in tournament_standings(tournament):
        if [row.played for row in rows] != [4] * 5:
            problems.append(f"pool {pool.name} played {[row.played for row in rows]}")
    knockout = {f.code: f for f in fixtures.filter(stage="knockout").select_related("result")}
    if sorted(knockout) != ["BF", "F", "QF1", "QF2", "QF3", "QF4", "SF1", "SF2"]:
        problems.append(f"knockout fixtures {sorted(knockout)}")
        return problems
    for f in knockout.values():
        if not (f.home_id and f.away_id and hasattr(f, "result") and f.result.winner_id in (f.home_id, f.away_id)):
            problems.append(f"{f.code} has no teams or no winner")
    if not problems and {knockout["F"].home_id, knockout["F"].away_id} != {
            knockout["SF1"].result.winner_id, knockout["SF2"].result.winner_id}:
        problems.append("the final is not between the semi-finals' winners")
    if champion(tournament) is None:
        problems.append("no champion")
    for match in Match.objects.filter(fixture__tournament=tournament):
        if not len(match_actions(match)) == match.ply > 0:
            problems.append(f"match {match.pk}'s log is incomplete")
    return problems
