"""Helpers for the simulation tests: a 20-team rwc2023 tournament of the card game, and what it produced."""

from __future__ import annotations

from league.models import Fixture, Result, Tournament
from league.presets import preset_run

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
