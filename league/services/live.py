"""Writes of live scoring: scorer links, the scorers' events (scores, cards, clock calls, undos) and full time.

A match played on a real pitch or board is scored on a phone (``league.live_views``): every tap is an event with
an id the phone made, sent at once or later from its offline queue. :func:`live_event_record` appends it to the
fixture's ordered, append-only log (``ScoreEvent``: the audit trail), once whatever the number of times it is
sent, and keeps the fixture's ``LiveMatch`` snapshot (score, tries, clock) in step with the log; the score is
made of the events with the rule set's scoring facts (``engine``'s ``Scoring.tally``), so it always passes the
result check. At full time the events become the result through :func:`league.services.results.result_record`,
the one write path of a typed result, at once or when an organiser confirms it (the tournament's choice).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from league import match_clock
from league.cache import fixture_tokens, sections_changed
from league.errors import Conflict, DomainError, Forbidden, NotFound
from league.live import live_changed
from league.match_clock import ClockError, ClockState
from league.models import Fixture, LiveMatch, Result, ScoreEvent, ScorerLink, Tournament
from league.permissions import can_edit_tournament, can_score_fixture
from league.services.results import fixture_ready_for_result, result_record
from league.services.tournaments import tournament_require_open
from league.stored_texts import Coded
from league.text import clean_text

_CLIENT_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_TOKEN = re.compile(r"^[0-9a-f]{32}$")
# How far back a clock call from the offline queue may count from (a phone offline for longer sends its calls
# as made on arrival): a time-out called ten minutes ago still pauses the clock from then.
CLOCK_BACKDATE_LIMIT = dt.timedelta(minutes=30)
PLAYER_MAX = 60


# --- scorer links ------------------------------------------------------------------------------------------


def scorer_link_token(link: ScorerLink) -> str:
    """The link's secret token (made again from its nonce with the site's secret key: the table stores a hash)."""
    return salted_hmac("league.scorer-link", link.nonce).hexdigest()[:32]


def token_hash(token: str) -> str:
    """What the table stores of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def scorer_link_find(token: str) -> ScorerLink | None:
    """The live (not revoked) link of ``token``, or None (a malformed, unknown or revoked token)."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    return (ScorerLink.objects.select_related("tournament", "fixture")
            .filter(token_hash=token_hash(token), revoked_at__isnull=True).first())


@transaction.atomic
def scorer_link_create(*, tournament: Tournament, fixture: Fixture | None = None, venue: str = "",
                       label: str = "", user: Any = None) -> ScorerLink:
    """Make a scorer link for one fixture, or for every fixture on one pitch or table (``venue``)."""
    venue = clean_text(venue)
    if (fixture is None) == (not venue):
        raise DomainError(_("A scorer link is for one fixture or for one pitch or table."))
    if fixture is not None and fixture.tournament_id != tournament.pk:
        raise NotFound(_("No such fixture in this tournament."))
    if venue and not Fixture.objects.filter(tournament=tournament, venue=venue).exists():
        raise DomainError({"venue": [_("No fixture of this tournament is played on %(venue)s.")
                                       % {"venue": repr(venue)}]})
    nonce = secrets.token_hex(16)
    link = ScorerLink(tournament=tournament, fixture=fixture, venue=venue, label=clean_text(label)[:80],
                      nonce=nonce, created_by=user if getattr(user, "is_authenticated", False) else None)
    link.token_hash = token_hash(scorer_link_token(link))
    link.save()
    return link


@transaction.atomic
def scorer_link_revoke(*, link: ScorerLink, user: Any = None) -> ScorerLink:
    """Revoke a link: its token scores nothing from now on (its events stay in the log)."""
    link = ScorerLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link


@transaction.atomic
def scorer_link_hand_over(*, link: ScorerLink, label: str = "", user: Any = None) -> ScorerLink:
    """Hand a link to someone else: the old token is revoked and a new link for the same fixture or pitch made."""
    link = scorer_link_revoke(link=link, user=user)
    return scorer_link_create(tournament=link.tournament, fixture=link.fixture, venue=link.venue,
                              label=label, user=user)


@transaction.atomic
def scorer_links_make_all(*, tournament: Tournament, user: Any = None) -> int:
    """A link for every pitch or table the fixtures use, and for every fixture with no pitch, unless it has one
    already (live). Returns how many were made."""
    have_venues = set(ScorerLink.objects.filter(tournament=tournament, revoked_at__isnull=True)
                      .exclude(venue="").values_list("venue", flat=True))
    have_fixtures = set(ScorerLink.objects.filter(tournament=tournament, revoked_at__isnull=True,
                                                  fixture__isnull=False).values_list("fixture_id", flat=True))
    made = 0
    venues = (Fixture.objects.filter(tournament=tournament).exclude(venue="").order_by("venue")
              .values_list("venue", flat=True).distinct())
    for venue in venues:
        if venue not in have_venues:
            scorer_link_create(tournament=tournament, venue=venue, user=user)
            made += 1
    for fixture in (Fixture.objects.filter(tournament=tournament, venue="")
                    .exclude(status=Fixture.Status.CANCELLED).exclude(pk__in=have_fixtures)):
        scorer_link_create(tournament=tournament, fixture=fixture, user=user)
        made += 1
    return made


# --- the scorers' events -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EventOutcome:
    """What became of a sent event: stored now (``applied``), or already stored (a re-sent one)."""

    event: ScoreEvent
    applied: bool


def _clock_of(live: LiveMatch) -> ClockState:
    return ClockState(half_seconds=live.half_seconds, phase=live.phase, paused=live.paused,
                      banked=live.banked_seconds, running_since=live.running_since)


def _standing(fixture: Fixture) -> list[ScoreEvent]:
    """The fixture's scores and cards not undone, in order (one query)."""
    return list(ScoreEvent.objects.filter(fixture=fixture, kind__in=[ScoreEvent.Kind.SCORE, ScoreEvent.Kind.CARD],
                                          undone_by__isnull=True).order_by("seq"))


def _same(event: ScoreEvent, kind: str, code: str, side: int | None, undoes: str) -> bool:
    target = event.undoes.client_id if event.undoes is not None else ""
    return (event.kind, event.code, event.side, target) == (kind, code, side, undoes)


def live_event_record(*, fixture: Fixture, client_id: Any, kind: Any, code: Any = "", side: Any = None,
                      player: Any = "", at: dt.datetime | None = None, undoes: Any = "", user: Any = None,
                      link: ScorerLink | None = None) -> EventOutcome:
    """Append one scorer's event to a fixture's live log, once: a score, a card, a clock call or an undo.

    ``client_id``: the id the phone made (letters, digits, ``-`` and ``_``), unique per fixture: an event sent
    again is answered with the stored one and changes nothing. ``at``: when a clock call was made, as the phone
    knew the server's time (from its offline queue); it counts from then, never later than now nor before the
    last clock call. An undo (``undoes``: the client id of the event to undo) must name the latest score or card
    still standing: one naming an event another scorer has since followed, or one already undone, is refused
    (409) with a message. Only the organisers and the holders of a live scorer link for the fixture may score.
    """
    if not isinstance(client_id, str) or not _CLIENT_ID.match(client_id):
        raise DomainError({"id": [_("An event needs an id of 1 to 40 letters, digits, '-' or '_'.")]})
    if kind not in ScoreEvent.Kind.values:
        raise DomainError({"kind": [_("Unknown event kind %(kind)s; use one of: %(choices)s.")
                                      % {"kind": repr(kind), "choices": ', '.join(ScoreEvent.Kind.values)}]})
    code = code if isinstance(code, str) else ""
    undoes = undoes if isinstance(undoes, str) else ""
    if side in ("home", "away"):
        side = 0 if side == "home" else 1
    if kind in (ScoreEvent.Kind.SCORE, ScoreEvent.Kind.CARD):
        if side not in (0, 1) or isinstance(side, bool):
            raise DomainError({"side": [_("A score or a card is the home side's or the away side's.")]})
    else:
        side = None
    player = clean_text(player)[:PLAYER_MAX] if isinstance(player, str) else ""
    if kind == ScoreEvent.Kind.UNDO:
        code = ""  # an undo names its event by ``undoes``
    if not can_score_fixture(user, link, fixture):
        raise Forbidden(_("This scorer link does not score this match (revoked, or for another match). Ask an "
                        "organiser for a new one."))
    # An event is never changed once stored: one sent again is answered without waiting for the match's lock.
    existing = _existing(fixture, client_id, kind, code, side, undoes)
    if existing is not None:
        return existing
    with transaction.atomic():
        # The fixture's row lock (not the tournament's: 20 tables score at once) queues the events of one match
        # (two scorers, a re-sent queue): the sequence numbers and the undo check see every event before them.
        fixture = (Fixture.objects.select_for_update(of=("self",)).select_related("tournament")
                   .get(pk=fixture.pk))
        existing = _existing(fixture, client_id, kind, code, side, undoes)
        if existing is not None:
            return existing
        return _record(fixture, fixture.tournament, client_id=client_id, kind=kind, code=code, side=side,
                       player=player, at=at, undoes=undoes, user=user, link=link)


def _existing(fixture: Fixture, client_id: str, kind: str, code: str, side: int | None,
              undoes: str) -> EventOutcome | None:
    """The stored event of this id (a re-sent one), or None; the same id for another event is refused."""
    existing = ScoreEvent.objects.select_related("undoes").filter(fixture=fixture, client_id=client_id).first()
    if existing is None:
        return None
    if not _same(existing, kind, code, side, undoes):
        raise Conflict(_("This event id was already used for another event of this match."), reason="id_reused")
    return EventOutcome(existing, applied=False)


def _record(fixture: Fixture, tournament: Tournament, *, client_id: str, kind: str, code: str, side: int | None,
            player: str, at: dt.datetime | None, undoes: str, user: Any, link: ScorerLink | None) -> EventOutcome:
    tournament_require_open(tournament)
    if fixture.status == Fixture.Status.CANCELLED:
        raise Conflict(_("This fixture is cancelled: it cannot be scored."))
    if fixture.home_id is None or fixture.away_id is None or not fixture_ready_for_result(fixture):
        raise Conflict(_("Both teams of this fixture must be known before it is scored live."))
    if fixture.status == Fixture.Status.PLAYED:  # a result makes it played (``result_record``)
        raise Conflict(_("This match already has its result. An organiser corrects it on the result form."),
                       reason="has_result")
    live, _created = LiveMatch.objects.select_for_update().get_or_create(
        fixture=fixture, defaults={"tournament": tournament, "half_seconds": tournament.half_minutes * 60})
    clock = _clock_of(live)
    now = timezone.now()
    scoring = tournament.spec.scoring
    target: ScoreEvent | None = None
    standing = _standing(fixture)
    if kind == ScoreEvent.Kind.CLOCK:
        when = now
        if at is not None:
            last = (ScoreEvent.objects.filter(fixture=fixture, kind=ScoreEvent.Kind.CLOCK).order_by("-seq")
                    .values_list("at", flat=True).first())
            when = min(max(at, now - CLOCK_BACKDATE_LIMIT, last or at), now)
        try:
            clock = clock.apply(code, when)
        except ClockError as exc:
            raise Conflict(str(exc), reason="clock")
        at = when
    else:
        at = now
        if clock.phase == match_clock.NOT_STARTED:
            raise Conflict(_("Start the match clock (kick-off) before scoring."), reason="not_started")
        if clock.phase == match_clock.FULL_TIME:
            raise Conflict(_("The match is over (full time): it cannot be scored any more."), reason="full_time")
        if kind == ScoreEvent.Kind.SCORE:
            counts: dict[str, int] = {}
            for event in standing:
                if event.kind == ScoreEvent.Kind.SCORE and event.side == side:
                    counts[event.code] = counts.get(event.code, 0) + 1
            assert side is not None
            message = scoring.event_error(side, code, counts)
            if message:
                raise DomainError({"code": [message]})
        elif kind == ScoreEvent.Kind.CARD:
            if scoring.card(code) is None:
                cards = ", ".join(card.id for card in scoring.cards) or "-"
                message = _("%(game)s has no card %(code)s (cards: %(cards)s).") % {
                    "game": scoring.name.capitalize(), "code": repr(code), "cards": cards}
                raise DomainError({"code": [message]})
        else:  # undo
            target = ScoreEvent.objects.filter(fixture=fixture, client_id=undoes).first() if undoes else None
            if target is None:
                raise Conflict(_("There is no such event to undo in this match."), reason="undo_unknown")
            if target.kind not in (ScoreEvent.Kind.SCORE, ScoreEvent.Kind.CARD):
                raise Conflict(_("Only a score or a card can be undone."), reason="undo_kind")
            if ScoreEvent.objects.filter(undoes=target).exists():
                raise Conflict(_("This event has already been undone (by another scorer?)."), reason="undo_done")
            if standing and standing[-1].pk != target.pk:
                raise Conflict(_("Another event has been recorded since (by another scorer?): the undo is refused. "
                               "Check the list of events, and undo the latest one if it is wrong."),
                               reason="undo_stale")
            standing = [event for event in standing if event.pk != target.pk]
    live.last_seq += 1
    event = ScoreEvent.objects.create(
        fixture=fixture, seq=live.last_seq, client_id=client_id, kind=kind, code=code, side=side, player=player,
        undoes=target, at=at, by_user=user if getattr(user, "is_authenticated", False) else None, by_link=link)
    if kind == ScoreEvent.Kind.SCORE:
        standing.append(event)
    home, away = scoring.tally((e.side or 0, e.code) for e in standing if e.kind == ScoreEvent.Kind.SCORE)
    live.home_points, live.home_tries, live.away_points, live.away_tries = (home.points, home.tries,
                                                                            away.points, away.tries)
    live.phase, live.paused, live.banked_seconds, live.running_since = (clock.phase, clock.paused, clock.banked,
                                                                        clock.running_since)
    live.save()
    if fixture.status == Fixture.Status.SCHEDULED:
        # Kicked off: off the "next kick-offs", into the live scores and the lists as being played.
        fixture.status = Fixture.Status.LIVE
        fixture.save(update_fields=["status"])
        sections_changed(tournament.pk, fixture_tokens(fixture, tournament))
    live_changed(tournament.pk)
    if kind == ScoreEvent.Kind.CLOCK and code == match_clock.FULL_TIME_CALL:
        _full_time(fixture, live, user)
    return EventOutcome(event, applied=True)


def _result_values(live: LiveMatch) -> dict[str, Any]:
    return {"home_score": live.home_points, "away_score": live.away_points, "home_tries": live.home_tries,
            "away_tries": live.away_tries}


def _full_time(fixture: Fixture, live: LiveMatch, user: Any) -> None:
    """Full time: the events become the result now, or wait for an organiser (the tournament's choice)."""
    if fixture.tournament.live_result_needs_confirmation:
        live.result_note = LiveMatch.AWAITING_CONFIRMATION
        live.save(update_fields=["result_note"])
        return
    try:
        result_record(fixture=fixture, **_result_values(live), source=Result.Source.LIVE, user=user,
                      reason=Coded("live_full_time"))
    except DomainError:
        # A level knockout match needs who went through: the organiser settles it on the result form.
        live.result_note = LiveMatch.NEEDS_ORGANISER
        live.save(update_fields=["result_note"])
    live_changed(fixture.tournament_id)


@transaction.atomic
def live_result_confirm(*, fixture: Fixture, user: Any, winner: Any = None, decided_by: str = "") -> Result:
    """An organiser confirms the result of a match scored live at full time: the events' score and tries become
    the result (``winner``/``decided_by``: who went through a level knockout match, and how)."""
    fixture = Fixture.objects.select_related("tournament").get(pk=fixture.pk)
    if not can_edit_tournament(user, fixture.tournament):
        raise Forbidden(_("Only the organisers of this tournament may confirm a result."))
    live = LiveMatch.objects.select_for_update().filter(fixture=fixture).first()
    if live is None or live.phase != match_clock.FULL_TIME:
        raise Conflict(_("This match has not reached full time on the live score."), reason="not_full_time")
    result = result_record(fixture=fixture, **_result_values(live), winner=winner, decided_by=decided_by,
                           source=Result.Source.LIVE, user=user, reason=Coded("live_confirmed"))
    live.result_note = ""
    live.save(update_fields=["result_note"])
    live_changed(fixture.tournament_id)
    return result
