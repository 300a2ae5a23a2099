"""Live scores of the matches being played now, from whatever source keeps them.

The public pages show, for each fixture being played, its score, tries and clock. Where that comes from is not
the league's business: a *source* registers here (``matches`` registers the matches played online through the
engine from its ``AppConfig.ready``; live scoring of matches on a real pitch can register a second one) and
:func:`live_scores` asks every source. A source that changes a live score calls :func:`live_changed`, which
replaces the ``live`` cache token (``league.cache``): the open pages pick the new score up on their next check.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from league.cache import LIVE, sections_changed
from league.models import Tournament

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LiveScore:
    """One live fixture's score as a page shows it.

    ``clock``: what the source knows of the time played ("52'", "2nd half", "move 40"); ``watch_url``: a page
    to follow it on (the online match's), or "". A match clock that runs on the server's time gives
    ``clock_origin_ms`` while it runs (when it read 0:00, in ms since the epoch: a page ticks it by itself),
    ``half_seconds`` and whether it is the ``second_half`` (for the added time: "40+2'").
    """

    fixture_id: int
    home_points: int
    away_points: int
    home_tries: int = 0
    away_tries: int = 0
    clock: str = ""
    source: str = ""
    watch_url: str = ""
    clock_origin_ms: int | None = None
    half_seconds: int = 0
    second_half: bool = False


LiveSource = Callable[[Tournament], list[LiveScore]]
_sources: list[LiveSource] = []

# A page shows this many live fixtures at most (a festival has one per pitch).
MAX_LIVE = 30


def register_live_source(source: LiveSource) -> LiveSource:
    """Register ``source(tournament) -> [LiveScore, ...]`` (idempotent)."""
    if source not in _sources:
        _sources.append(source)
    return source


def live_scores(tournament: Tournament) -> dict[int, LiveScore]:
    """The live score of every fixture being played now, by fixture id (the first source to report one wins)."""
    scores: dict[int, LiveScore] = {}
    for source in _sources:
        try:
            found = source(tournament)
        except Exception:  # one broken source must not take the tournament's page down with it
            logger.exception("live source %r failed for tournament %s", source, tournament.pk)
            continue
        for score in found:
            scores.setdefault(score.fixture_id, score)
            if len(scores) >= MAX_LIVE:
                return scores
    return scores


def live_changed(tournament_id: int) -> None:
    """A live score of this tournament changed: the open pages show it on their next check."""
    sections_changed(tournament_id, [LIVE])
