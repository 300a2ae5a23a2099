"""Reads of live scoring: a live match's state for the scoreboard, the live-score source of the public pages, the
standings as they would be if the live scores stayed as they are, and the fixtures a scorer link may score.

The clock goes out as timestamps (``origin_ms``: when the match clock read 0:00, while it runs), with the server's
time, so every screen shows the same time and keeps it ticking by itself.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from league import match_clock, selectors
from league.live import MAX_LIVE, LiveScore, live_scores
from league.match_clock import ClockState
from league.models import SOONEST, Fixture, LiveMatch, Pool, Result, ScoreEvent, ScorerLink, Tournament
from league.standings import StandingRow

# The scoreboard shows the latest events of a match (a match has a few dozen at most).
EVENTS_SHOWN = 200


def _ms(moment: dt.datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


def clock_of(live: LiveMatch) -> ClockState:
    """The match clock of a live match's snapshot."""
    return ClockState(half_seconds=live.half_seconds, phase=live.phase, paused=live.paused,
                      banked=live.banked_seconds, running_since=live.running_since)


def clock_text(clock: ClockState, now: dt.datetime) -> str:
    """The clock as a page shows it, in the visitor's language ("23'", "40+2'", "HT", "FT", "time-out 23'")."""
    if clock.phase == match_clock.NOT_STARTED:
        return ""
    if clock.phase == match_clock.HALF_TIME:
        return gettext("HT")
    if clock.phase == match_clock.FULL_TIME:
        return gettext("FT")
    minutes = match_clock.clock_minutes(clock.match_elapsed(now), clock.half_seconds,
                                        clock.phase == match_clock.SECOND_HALF)
    return gettext("time-out %(minutes)s") % {"minutes": minutes} if clock.paused else minutes


def clock_json(live: LiveMatch | None, half_seconds: int, now: dt.datetime) -> dict[str, Any]:
    """The clock as the pages need it: phase, paused, the match time now, and the origin while it runs."""
    clock = clock_of(live) if live is not None else ClockState(half_seconds=half_seconds)
    return {"phase": clock.phase, "paused": clock.paused, "running": clock.running,
            "half_seconds": clock.half_seconds, "elapsed": round(clock.match_elapsed(now), 1),
            "origin_ms": _ms(clock.origin()), "text": clock_text(clock, now)}


def live_match_state(fixture: Fixture, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """A fixture's live score for the scoreboard: teams, score, tries, clock, events (newest last), the result.

    Three queries: the snapshot, the events, the result. ``server_ms`` lets a phone set its clock by the
    server's.
    """
    now = now or timezone.now()
    tournament = fixture.tournament
    live = LiveMatch.objects.filter(fixture=fixture).first()
    events = list(ScoreEvent.objects.filter(fixture=fixture).select_related("undoes", "undone_by")
                  .order_by("-seq")[:EVENTS_SHOWN])
    result = Result.objects.filter(fixture=fixture).first()
    scoring = tournament.spec.scoring
    labels = {e.id: gettext(e.label) for e in scoring.events} | {c.id: gettext(c.label) for c in scoring.cards}
    return {
        "fixture": fixture.pk,
        "seq": live.last_seq if live else 0,
        "server_ms": _ms(now),
        "score": {"home": {"points": live.home_points if live else 0, "tries": live.home_tries if live else 0},
                  "away": {"points": live.away_points if live else 0, "tries": live.away_tries if live else 0}},
        "clock": clock_json(live, tournament.half_minutes * 60, now),
        "events": [{
            "id": e.client_id, "seq": e.seq, "kind": e.kind, "code": e.code, "label": labels.get(e.code, e.code),
            "side": e.side, "player": e.player, "at_ms": _ms(e.at),
            "undoes": e.undoes.client_id if e.undoes is not None else None,
            "undone": _has_undo(e),
        } for e in reversed(events)],
        "result": None if result is None else {"home_score": result.home_score, "away_score": result.away_score,
                                               "home_tries": result.home_tries, "away_tries": result.away_tries},
        "note": live.result_note_text if live else "",
    }


def _has_undo(event: ScoreEvent) -> bool:
    try:
        return event.undone_by is not None
    except ScoreEvent.DoesNotExist:
        return False


def live_event_log(fixture: Fixture) -> list[ScoreEvent]:
    """Every event of a fixture's live score, in order (the audit trail on the match page)."""
    events = list(ScoreEvent.objects.filter(fixture=fixture).select_related("by_user", "by_link", "undoes")
                  .order_by("seq"))
    undone = {e.undoes_id for e in events if e.undoes_id}
    for event in events:
        event.undone = event.pk in undone  # type: ignore[attr-defined]
    return events


def scored_live_scores(tournament: Tournament) -> list[LiveScore]:
    """The live-score source of matches scored on a phone (``league.live``): one query whatever their number.

    A match is live from its kick-off until its result is in (a full time waiting for an organiser's
    confirmation still shows, as "FT").
    """
    now = timezone.now()
    matches = (LiveMatch.objects.filter(tournament=tournament, fixture__status=Fixture.Status.LIVE)
               .exclude(phase=match_clock.NOT_STARTED).order_by("fixture__kickoff", "fixture__slot", "fixture_id")
               [:MAX_LIVE])
    scores = []
    for live in matches:
        clock = clock_of(live)
        origin = clock.origin()
        scores.append(LiveScore(
            fixture_id=live.fixture_id, home_points=live.home_points, away_points=live.away_points,
            home_tries=live.home_tries, away_tries=live.away_tries, clock=clock_text(clock, now), source="scored",
            clock_origin_ms=_ms(origin), half_seconds=clock.half_seconds,
            second_half=clock.phase == match_clock.SECOND_HALF))
    return scores


def projected_pool_tables(tournament: Tournament) -> list[tuple[Pool, list[StandingRow]]]:
    """The tables of the pools with a live match, as they would be if every live score stayed as it is
    (results in, plus the live scores as results). Four queries whatever the number of pools."""
    scores = live_scores(tournament)
    if not scores:
        return []
    live_fixtures = list(Fixture.objects.filter(tournament=tournament, pk__in=list(scores), stage=Fixture.Stage.POOL,
                                                pool__isnull=False, home__isnull=False, away__isnull=False))
    pool_ids = sorted({f.pool_id for f in live_fixtures if f.pool_id is not None})
    if not pool_ids:
        return []
    pools = list(Pool.objects.filter(pk__in=pool_ids))
    extra: dict[int, list[tuple]] = {}
    for fixture in live_fixtures:
        score = scores[fixture.pk]
        assert fixture.pool_id is not None
        extra.setdefault(fixture.pool_id, []).append(
            (fixture.home_id, fixture.away_id, score.home_points, score.away_points, score.home_tries,
             score.away_tries, Result.Kind.PLAYED))
    return selectors.pools_standings_with(tournament, pools, extra)


def scorer_link_fixtures(link: ScorerLink) -> QuerySet[Fixture]:
    """The fixtures a scorer link may score, soonest first (its own, or every one on its pitch)."""
    queryset = (Fixture.objects.filter(tournament_id=link.tournament_id).exclude(status=Fixture.Status.CANCELLED)
                .select_related("home__team", "away__team", "pool"))
    if link.fixture_id is not None:
        return queryset.filter(pk=link.fixture_id)
    return queryset.filter(Q(venue=link.venue)).order_by("kickoff", "slot", "pk")


def scorer_links(tournament: Tournament) -> list[ScorerLink]:
    """The tournament's scorer links, live ones first, each with its fixture's teams (one query)."""
    return list(ScorerLink.objects.filter(tournament=tournament)
                .select_related("fixture__home__team", "fixture__away__team")
                .order_by("revoked_at", "venue", "fixture__kickoff", "fixture_id", "pk"))


# The organiser's scorer page lists this many fixtures still to be played (live ones first, then the soonest).
FIXTURES_TO_SCORE = 100


def fixtures_soonest(tournament: Tournament, status: str) -> QuerySet[Fixture]:
    """The tournament's fixtures of ``status`` between two known teams, soonest first (``SOONEST``: the key of the
    indexes ``fixture_to_play`` and ``fixture_live``, so taking the first few walks only those)."""
    return (Fixture.objects.filter(tournament=tournament, status=status, home__isnull=False, away__isnull=False)
            .select_related("home__team", "away__team", "pool", "live").order_by(*SOONEST))


def fixtures_to_score(tournament: Tournament) -> list[Fixture]:
    """The fixtures an organiser may score or make a link for: being played first, then the soonest to be played,
    each with its live snapshot if it has one (two queries, whatever the number of fixtures played or to play)."""
    live = list(fixtures_soonest(tournament, Fixture.Status.LIVE)[:FIXTURES_TO_SCORE])
    # With FIXTURES_TO_SCORE live already, the slice is empty and runs no query.
    return live + list(fixtures_soonest(tournament, Fixture.Status.SCHEDULED)[:FIXTURES_TO_SCORE - len(live)])


def live_data(tournament: Tournament) -> dict[str, Any]:
    """The JSON form of a tournament's live scores (every source) and of its live standings projection."""
    scores = live_scores(tournament)
    fixtures = {f.pk: f for f in Fixture.objects.filter(pk__in=list(scores)).select_related("home__team", "away__team")}
    matches = []
    for pk, score in scores.items():
        fixture = fixtures.get(pk)
        if fixture is None:
            continue
        matches.append({
            "fixture": pk, "home": fixture.home.team.code if fixture.home is not None else None,
            "away": fixture.away.team.code if fixture.away is not None else None,
            "home_points": score.home_points, "away_points": score.away_points, "home_tries": score.home_tries,
            "away_tries": score.away_tries, "clock": score.clock, "clock_origin_ms": score.clock_origin_ms,
            "half_seconds": score.half_seconds, "second_half": score.second_half, "source": score.source})
    projection = [{"pool": pool.name, "rows": [row.as_dict() for row in rows]}
                  for pool, rows in projected_pool_tables(tournament)]
    return {"matches": matches, "projection": projection}


def live_links(tournament: Tournament) -> tuple[dict[int, ScorerLink], dict[str, ScorerLink]]:
    """The tournament's live scorer links by fixture id and by pitch (the newest of each), for the score sheets."""
    by_fixture: dict[int, ScorerLink] = {}
    by_venue: dict[str, ScorerLink] = {}
    for link in ScorerLink.objects.filter(tournament=tournament, revoked_at__isnull=True).order_by("created_at"):
        if link.fixture_id is not None:
            by_fixture[link.fixture_id] = link
        else:
            by_venue[link.venue] = link
    return by_fixture, by_venue


def join_card_scorer_links(tournament: Tournament) -> dict[int, tuple[ScorerLink, Fixture]]:
    """For the players' join cards: each entry's next match to score (the first without a result, in kick-off
    order, that has a live link: its own, else its pitch's or table's) with that link (two queries)."""
    by_fixture, by_venue = live_links(tournament)
    if not by_fixture and not by_venue:
        return {}
    # Only the fixtures a live link scores (their own, or their pitch's): the others can give no card, and a big
    # league has hundreds of thousands still to play.
    upcoming = (Fixture.objects.filter(Q(pk__in=list(by_fixture)) | Q(venue__in=list(by_venue)),
                                       tournament=tournament, result__isnull=True)
                .exclude(status=Fixture.Status.CANCELLED).select_related("home__team", "away__team")
                .order_by(F("kickoff").asc(nulls_last=True), "round_number", "pk"))
    cards: dict[int, tuple[ScorerLink, Fixture]] = {}
    for fixture in upcoming:
        link = by_fixture.get(fixture.pk) or by_venue.get(fixture.venue)
        if link is None:
            continue
        for entry_id in (fixture.home_id, fixture.away_id):
            if entry_id is not None:
                cards.setdefault(entry_id, (link, fixture))
    return cards
