"""Writes for online play: start matches, submit actions, let computer seats move, finish.

Every function here does one thing in one transaction. The engine state is
never stored as the only copy: it is rebuilt from seed + options + the action
log (``match_state``), with ``Match.snapshot`` as a cache at a given ply.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone, translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from engine import derive_seed, get_ruleset, get_spec, new_game
from engine.core import SEAT_NAMES, GameState, Outcome
from engine.players import choose_action, make_player
from league.cache import LIVE, fixture_tokens, sections_changed
from league.errors import DomainError
from league.levels import DEFAULT_LEVEL, LEVELS, site_level
from league.live import live_changed
from league.models import Fixture, Result
from league.rulesets import ruleset_options_validate
from league.services import result_record, tournament_require_open
from league.stored_texts import Coded
from matches.models import EntryPass, Match, MatchAction, MatchEvent, MatchSeat
from matches.permissions import can_manage, seats_held
from matches.selectors import clock_deadline, match_actions, rules_current

logger = logging.getLogger(__name__)

# A match can never need this many computer moves in a row; the cap turns an engine bug
# into a clear error instead of a request that never ends.
MAX_COMPUTER_MOVES = 100_000
# Move clock bounds (seconds): long enough to read the board, short enough to keep a festival moving, and at
# most a week for matches played over days.
MOVE_CLOCK_MIN, MOVE_CLOCK_MAX = 10, 7 * 24 * 3600


class MatchError(DomainError):
    """A refused move or match request: a domain error (``code`` invalid, forbidden or conflict) with a finer
    ``reason`` for clients (``illegal``, ``not_your_seat``, ``not_your_turn``, ``stale_ply``, ``over``) and,
    for an illegal action, the legal ones (``legal``, also in ``data["legal_actions"]``)."""

    def __init__(self, message: str, *, code: str = "invalid", reason: str = "", legal: list[str] | None = None,
                 data: dict | None = None):
        data = dict(data or {})
        if legal:
            data["legal_actions"] = legal
        super().__init__(message, code=code, reason=reason or code, data=data)
        self.message = message
        self.legal = legal or []


@dataclass
class SubmitOutcome:
    """What ``match_submit_action`` did: the match, its state now, and whether this was a retry."""

    match: Match
    state: GameState
    replayed: bool = False
    computer_moves: int = 0


# ---- state -----------------------------------------------------------------------------------------


def match_state(match: Match, *, upto: int | None = None) -> GameState:
    """The engine state of ``match`` after ply ``upto`` (default: the latest), rebuilt from seed and log.

    The snapshot is used when it is at a ply not after the one asked for: the actions after it are
    replayed on top of it. Without a usable snapshot the whole log is replayed from the seed.
    """
    target = match.ply if upto is None else max(0, min(upto, match.ply))
    cls = get_ruleset(match.ruleset)
    state = None
    start = 0
    if match.snapshot and match.snapshot_ply is not None and match.snapshot_ply <= target:
        state = cls.from_dict(match.snapshot)
        start = match.snapshot_ply
    if state is None:
        state = new_game(match.ruleset, seed=match.seed, options=match.options)
    if target > start:
        for logged in match_actions(match, after=start, upto=target):
            state.apply(logged.seat, logged.action)
    return state


# A log that does not replay on today's engine (recorded under other rules, or damaged) fails with one of these.
REPLAY_ERRORS = (ValueError, KeyError, IndexError, TypeError, RuntimeError)


def match_state_or_none(match: Match, *, upto: int | None = None) -> GameState | None:
    """``match_state``, or None when the match was recorded under other rules (``rules_current``) or its log does
    not replay: its pages then show what was stored instead of failing."""
    if not rules_current(match):
        return None
    try:
        return match_state(match, upto=upto)
    except REPLAY_ERRORS:
        logger.warning("match %s does not replay on the engine's rules %s", match.pk, match.rules_version)
        return None


def _save_snapshot(match: Match, state: GameState) -> None:
    match.snapshot = state.to_dict()
    match.snapshot_ply = match.ply


def computer_rng(match: Match, seat: int, ply: int) -> random.Random:
    """The rng of a computer seat for one ply: derived from the match seed, so a match is reproducible."""
    return random.Random(derive_seed(match.seed, "seat", seat, "ply", ply))


def _seats_by_number(match: Match) -> dict[int, MatchSeat]:
    return {s.seat: s for s in match.seats.all()}


def _seats_ready(seats: dict[int, MatchSeat]) -> bool:
    """Every seat is held (a person or the computer): before that nobody moves and the clock does not run."""
    return all(s.kind != MatchSeat.Kind.OPEN for s in seats.values())


def _record(match: Match, kind: str, *, seat: int | None = None, user: Any = None, **data: Any) -> MatchEvent:
    """Append a row to the match's audit trail (``MatchEvent``)."""
    return MatchEvent.objects.create(match=match, ply=match.ply, seat=seat, kind=kind, data=data,
                                     user=user if user is not None and getattr(user, "is_authenticated", False)
                                     else None)


def _check_current(match: Match) -> None:
    if not rules_current(match):
        raise MatchError("this match was recorded under an older version of the rules and cannot be played on",
                         code="conflict", reason="rules_changed")


def _check_holder(match: Match, seat: int, seats: dict[int, MatchSeat], held_seats: Any, user: Any) -> None:
    """``seat`` is a person's seat that the caller holds (MatchError 400/403 otherwise)."""
    if seat not in seats:
        raise MatchError(f"seat must be 0 (home) or 1 (away), not {seat}")
    if held_seats is None:
        held_seats = seats_held(match, user=user, session=None)
    if seat not in held_seats or seats[seat].kind == MatchSeat.Kind.COMPUTER:
        raise MatchError(f"you do not hold the {SEAT_NAMES[seat]} seat of this match", code="forbidden",
                         reason="not_your_seat")


def _computer_level(seat: MatchSeat) -> str:
    """The level the computer plays a seat at when it takes over: the entry's, else the default."""
    level = getattr(seat.entry, "computer_level", "") if seat.entry_id else ""
    return level if level in LEVELS else DEFAULT_LEVEL


def _computer_players(match: Match, seats: dict[int, MatchSeat]) -> dict:
    # A person's opponent: the international player thinks with its per-move budget (well under 300 ms).
    return {n: make_player(match.ruleset, s.computer_level or DEFAULT_LEVEL)
            for n, s in seats.items() if s.kind == MatchSeat.Kind.COMPUTER}


def _play_computer_seats(match: Match, state: GameState, seats: dict[int, MatchSeat]) -> int:
    """Let computer seats move while one of them is to act; append their actions. Returns the count.

    Nobody moves while a seat is still open (a friendly waiting for its second player).
    """
    if not _seats_ready(seats):
        return 0
    players = _computer_players(match, seats)
    played: list[MatchAction] = []
    while players and len(played) < MAX_COMPUTER_MOVES:
        acting = [s for s in state.to_act() if s in players]
        if not acting:
            break
        seat = acting[0]
        ply = match.ply + 1
        action = choose_action(state, seat, players[seat], computer_rng(match, seat, ply))
        state.apply(seat, action)
        played.append(MatchAction(match=match, ply=ply, seat=seat, action=action, by_computer=True))
        match.ply = ply
    # One INSERT for the whole reply chain (a computer-v-computer match can be hundreds of moves).
    MatchAction.objects.bulk_create(played)
    if played:
        match.moved_at = timezone.now()
        match.draw_offer = None
    return len(played)


# ---- finishing -----------------------------------------------------------------------------------


def result_from_outcome(ruleset: str, outcome: Outcome) -> dict:
    """An engine outcome as the fixture result's fields (score, tries, winner seat, decided_by, stats).

    The mapping is the rule set's own (``RuleSetSpec.result_from_outcome``: Seasons counts whole seasons
    won); the stats also name the rule set, so a result says which game made it.
    """
    result = get_spec(ruleset).result_from_outcome(outcome)
    return {"home_score": result.home_score, "away_score": result.away_score,
            "home_tries": result.home_tries, "away_tries": result.away_tries,
            "winner_seat": result.winner, "decided_by": result.decided_by,
            "stats": {"ruleset": ruleset, **result.stats}}


def _finish(match: Match, state: GameState, user) -> None:
    """Mark the match finished and, for a fixture, write its result (same transaction)."""
    outcome = state.outcome()
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.outcome = outcome.to_dict()
    match.draw_offer = None
    if match.fixture_id is None:
        return
    fixture = match.fixture
    assert fixture is not None  # match.fixture_id is set
    mapped = result_from_outcome(match.ruleset, outcome)
    winner = None
    if mapped["winner_seat"] is not None:
        winner = fixture.home if mapped["winner_seat"] == 0 else fixture.away
    _record_result(match, user, Coded("online_match", {"match": match.pk}), home_score=mapped["home_score"],
                   away_score=mapped["away_score"], home_tries=mapped["home_tries"], away_tries=mapped["away_tries"],
                   kind=Result.Kind.PLAYED, winner=winner, decided_by=mapped["decided_by"], stats=mapped["stats"])


def _record_result(match: Match, user, reason: Coded, **values: Any) -> None:
    """Write the fixture's result through the league's service, in a savepoint: if the league refuses it (a
    knockout draw with no winner...), the match still ends and its page says why, instead of a stuck game."""
    fixture = match.fixture
    assert fixture is not None and match.outcome is not None
    if Result.objects.filter(fixture=fixture).exists():
        # An organiser entered a result by hand while the match was on: theirs stands.
        match.outcome["result_note"] = "fixture_had_result"  # a code for the archive: the result was left unchanged
        return
    def record() -> None:
        result_record(fixture=fixture, source="online", user=user, reason=reason, **values)

    try:
        with transaction.atomic():
            record()
    except ValidationError as exc:
        logger.warning("match %s: result refused: %s", match.pk, exc)
        match.outcome["result_error"] = _refusal_in_every_language(record, exc)


class _TriedOnly(Exception):
    """Rolls back a result recorded only to word its refusal (it cannot be accepted the second time)."""


def _refusal_in_every_language(record: Callable[[], None], refused: ValidationError) -> dict[str, str]:
    """The league's refusal of a result (``refused``, in the active language), in each of the site's languages:
    the match's pages show it in their reader's. The league words a refusal when it makes it, so it is made
    again in each other language, in a savepoint that is always rolled back."""
    words = {get_language() or settings.LANGUAGE_CODE: "; ".join(refused.messages)}
    for code, _name in settings.LANGUAGES:
        if code in words:
            continue
        with translation.override(code):
            try:
                with transaction.atomic():
                    record()
                    raise _TriedOnly
            except ValidationError as exc:
                words[code] = "; ".join(exc.messages)
            except _TriedOnly:
                pass
    return words


def _finish_early(match: Match, state: GameState, user, *, ended_by: str, seat: int) -> None:
    """End a live match before the game is over: ``seat`` resigned, or both agreed a draw (``ended_by``
    ``"resigned"`` / ``"draw_agreed"``). The fixture's result goes through the league's result service: a
    resignation in a duel is a walkover to the other side (the tournament's walkover score, as for any forfeit);
    a solo attempt stops at its score so far; an agreed draw keeps the level score."""
    spec = get_spec(match.ruleset)
    outcome = state.outcome()
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.draw_offer = None
    match.outcome = {**outcome.to_dict(), "ended_by": ended_by, "by": SEAT_NAMES[seat]}
    resigned_duel = ended_by == "resigned" and not spec.solo
    if resigned_duel:
        match.outcome["winner"] = SEAT_NAMES[1 - seat]
    elif ended_by == "draw_agreed":
        match.outcome["winner"] = "draw"
    _save_snapshot(match, state)
    if match.fixture_id is None:
        return
    side = SEAT_NAMES[seat]
    if resigned_duel:
        kind = Result.Kind.WALKOVER_AWAY if seat == 0 else Result.Kind.WALKOVER_HOME
        _record_result(match, user, Coded("online_resigned", {"match": match.pk, "side": side}), kind=kind,
                       stats={"ruleset": match.ruleset, "resigned": side, "game_score": outcome.score()})
        return
    mapped = result_from_outcome(match.ruleset, outcome)
    stats = {**mapped["stats"], "ended_by": ended_by, "by": side}
    why = "online_resigned" if ended_by == "resigned" else "online_draw_agreed"
    _record_result(match, user, Coded(why, {"match": match.pk, "side": side}), home_score=mapped["home_score"],
                   away_score=mapped["away_score"], home_tries=mapped["home_tries"],
                   away_tries=mapped["away_tries"], kind=Result.Kind.PLAYED, winner=None,
                   decided_by=mapped["decided_by"], stats=stats)


def _after_moves(match: Match, state: GameState, user) -> None:
    _save_snapshot(match, state)
    if state.is_over and match.status == Match.Status.LIVE:
        _finish(match, state, user)
    match.save()
    if match.fixture_id is not None:
        assert match.fixture is not None
        live_changed(match.fixture.tournament_id)  # the tournament pages' live scores


# ---- starting ------------------------------------------------------------------------------------


def _new_seed() -> int:
    return secrets.randbits(62)


def _seat_from_entry(entry, *, person: bool = False) -> dict:
    """The seat of an entry: a person's when it has a player (or ``person``: someone plays it at the site,
    e.g. a solo entrant), else the computer's at the entry's level."""
    name = entry.team.name + (f" ({entry.player_name})" if entry.player_name else "")
    if entry.player_id or entry.player_name or person:
        return {"kind": MatchSeat.Kind.PERSON, "user": entry.player, "name": name, "entry": entry}
    return {"kind": MatchSeat.Kind.COMPUTER, "computer_level": entry.computer_level or DEFAULT_LEVEL,
            "name": name, "entry": entry}


def fixture_team_names(ruleset_cls, options: dict, fixture) -> dict:
    """Fill the rule set's team-name options (commentary such as Bokx's) from the fixture's teams, if unset."""
    for name, entry in (("home_team", fixture.home), ("away_team", fixture.away)):
        if entry is not None and name in ruleset_cls.spec.options and name not in options:
            options[name] = entry.team.name
    return options


def _clean_clock(move_clock: Any) -> int | None:
    if move_clock in (None, "", 0):
        return None
    try:
        seconds = int(move_clock)
    except (TypeError, ValueError):
        raise DomainError(_("the move clock must be a whole number of seconds"))
    if not MOVE_CLOCK_MIN <= seconds <= MOVE_CLOCK_MAX:
        raise DomainError(_("the move clock must be between %(low)s seconds and %(high)s days")
                            % {"low": MOVE_CLOCK_MIN, "high": MOVE_CLOCK_MAX // 86400})
    return seconds


@transaction.atomic  # the match and its seats, or nothing
def _create(*, ruleset: str, options: dict | None, seed: int | None, seats: list[dict | None], fixture=None,
            user=None, move_clock: int | None = None) -> Match:
    try:
        cls = get_ruleset(ruleset)
    except KeyError as exc:
        raise DomainError(str(exc).strip("'\""))
    move_clock = _clean_clock(move_clock)
    options = dict(options or {})
    if fixture is not None and fixture.stage == "knockout":
        # A knockout match must produce a winner: the rule set's own way (extra time) is switched on.
        options = {**cls.spec.knockout_options, **options}
    if fixture is not None:
        options = fixture_team_names(cls, options, fixture)
    # Names, types, sizes and the rule set's own setup checks (e.g. at least 1 set a half), before any row.
    resolved = ruleset_options_validate(ruleset, options)
    match = Match.objects.create(ruleset=ruleset, options=resolved, seed=_new_seed() if seed is None else seed,
                                 fixture=fixture, created_by=user if user and user.is_authenticated else None,
                                 rules_version=cls.spec.rules_version, move_clock=move_clock)
    if cls.spec.solo:
        # Solo rule sets: seat 1 is the game's own automaton (it never acts through apply).
        seats = [seats[0], {"kind": MatchSeat.Kind.COMPUTER, "computer_level": DEFAULT_LEVEL, "name": "The Non-player",
                            "entry": seats[1].get("entry") if len(seats) > 1 and seats[1] else None}]
    objs = {}
    for number, spec in enumerate(seats):
        objs[number] = MatchSeat.objects.create(match=match, seat=number, **(spec or {}))
    if _seats_ready(objs):
        match.moved_at = timezone.now()  # the clock starts with the match (or when its last seat is taken)
    state = new_game(ruleset, seed=match.seed, options=match.options)
    _play_computer_seats(match, state, objs)
    _after_moves(match, state, user)
    return match


@transaction.atomic
def match_start_for_fixture(*, fixture, user=None, seed: int | None = None, options: dict | None = None) -> Match:
    """Start the match of a fixture with the tournament's rule set; returns the existing one if started.

    Seats follow the entries: an entry with a player (an account or just a name) is a person's seat,
    joined with the seat's code or the entry's pass; otherwise the computer plays it at the entry's level.
    A solo game's player is always a person (the computer alone would be a simulation): they join with
    their pass code.
    """
    return _start_for_fixture(fixture=fixture, user=user, seed=seed, options=options)


@transaction.atomic
def match_start_solo_attempt(*, fixture, entry_ids, user=None, seed: int | None = None) -> Match:
    """A solo player starts one of their own attempts (the entry is theirs by its pass code in their
    session, ``entry_ids``, or as its player); returns the attempt's match if it has started already.

    Refused when the tournament's rule set is not a solo game played on the site, when the attempt is
    someone else's or has a result, and while another attempt of theirs is being played.
    """
    fixture = Fixture.objects.select_related("tournament").get(pk=fixture.pk)
    spec = fixture.tournament.spec
    if not (spec.playable and spec.solo):
        raise DomainError(_("Only a solo game played on the site can be started by its player."))
    if fixture.home_id is None or fixture.home_id not in set(entry_ids):
        raise DomainError(_("This attempt is not yours: enter the code from your own sheet."), code="forbidden")
    live = Match.objects.filter(fixture__home_id=fixture.home_id, fixture__tournament=fixture.tournament_id,
                                status=Match.Status.LIVE).exclude(fixture=fixture).first()
    if live is not None:
        raise DomainError(_("Finish the attempt you are playing first."), code="conflict",
                          data={"match": live.pk})
    return _start_for_fixture(fixture=fixture, user=user, seed=seed, options=None)


def _start_for_fixture(*, fixture, user, seed, options) -> Match:
    fixture = Fixture.objects.select_for_update(of=("self",)).select_related(
        "tournament", "home__team", "away__team", "home__player", "away__player").get(pk=fixture.pk)
    existing = Match.objects.filter(fixture=fixture).first()
    if existing is not None and existing.status != Match.Status.ABANDONED:
        return existing
    if existing is not None:
        # Restarting after an abandoned match: the old one keeps its log, and a note of its fixture.
        existing.outcome = {**(existing.outcome or {}), "abandoned_fixture": fixture.pk}
        existing.fixture = None
        existing.save(update_fields=["outcome", "fixture", "updated_at"])
    tournament = fixture.tournament
    tournament_require_open(tournament)
    if not tournament.spec.playable:
        raise DomainError(_("This tournament's matches are played on a real pitch or board, not online."))
    solo = tournament.spec.solo
    if fixture.home_id is None or (fixture.away_id is None and not solo):
        raise DomainError(_("Both teams of the fixture must be known before its match can start."))
    if Result.objects.filter(fixture=fixture).exists():
        raise DomainError(_("This fixture already has a result."))
    merged = {**(tournament.ruleset_options or {}), **(options or {})}
    seats: list[dict | None] = [_seat_from_entry(fixture.home, person=solo),
                                _seat_from_entry(fixture.away) if fixture.away_id else None]
    for entry in (fixture.home, fixture.away):
        if entry is not None and (entry.player_id or entry.player_name or solo):
            EntryPass.objects.get_or_create(entry=entry)
    match = _create(ruleset=tournament.ruleset, options=merged, seed=seed, seats=seats, fixture=fixture, user=user,
                    move_clock=tournament.move_clock_seconds)
    if match.status == Match.Status.LIVE:
        Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.LIVE)
        sections_changed(tournament.pk, [*fixture_tokens(fixture, tournament), LIVE])
    return match


def _seat_spec(spec, user) -> dict:
    """A friendly's seat from a short form: "me", "open", "computer:<level>" (a level of ``LEVELS``; plain
    "computer" is the default level, and the former names "aware" and "random" are taken as today's) or a User."""
    if spec is None or spec == "open":
        return {"kind": MatchSeat.Kind.OPEN}
    if spec == "me":
        if user is None or not user.is_authenticated:
            return {"kind": MatchSeat.Kind.OPEN}
        return {"kind": MatchSeat.Kind.PERSON, "user": user}
    if isinstance(spec, str) and spec.startswith("computer"):
        level = site_level(spec.partition(":")[2] or DEFAULT_LEVEL)
        if level not in LEVELS:
            raise DomainError(_("unknown computer level %(level)s; choose from %(choices)s")
                                % {"level": repr(level), "choices": ', '.join(LEVELS)})
        return {"kind": MatchSeat.Kind.COMPUTER, "computer_level": level}
    if hasattr(spec, "pk"):
        return {"kind": MatchSeat.Kind.PERSON, "user": spec}
    raise DomainError(_("unknown seat %(spec)s: use me, open or computer:<level> (%(choices)s)")
                        % {"spec": repr(spec), "choices": ', '.join(LEVELS)})


@transaction.atomic
def match_create_friendly(*, ruleset: str, user=None, home="me", away="open", options: dict | None = None,
                          seed: int | None = None, move_clock: int | None = None) -> Match:
    """A match outside any tournament. Seats: "me", "open", "computer:<level>" or a User (see ``_seat_spec``).

    With an open seat the match waits: nobody moves (the computer neither) until someone takes it with its code.
    ``move_clock``: seconds a person has for each move before the computer takes their seat (None: no clock).
    """
    return _create(ruleset=ruleset, options=options, seed=seed, seats=[_seat_spec(home, user), _seat_spec(away, user)],
                   user=user, move_clock=move_clock)


# ---- moves ---------------------------------------------------------------------------------------


def _lock(match: Match) -> Match:
    # select_for_update serialises concurrent submissions on PostgreSQL (SQLite ignores it and
    # serialises writers itself); the unique (match, ply) constraint is the last guard either way.
    return Match.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=match.pk)


def match_submit_action(*, match: Match, seat: int, ply: int, action: str, user=None,
                        held_seats: set[int] | frozenset[int] | None = None,
                        rebase_simultaneous: bool = False) -> SubmitOutcome:
    """Apply a person's action, then the computer seats' replies; finish the match when it is over.

    ``held_seats`` are the seats the caller holds (account, entry player or join code in their
    session; see ``selectors.seats_held``); when omitted, only ``user``'s account counts.
    Raises :class:`MatchError` with status 403 (not the caller's seat), 409 (stale ply, not this
    seat's turn, match over) or 400 (illegal action, with the legal ones). Repeating a request that
    was applied (same ply, seat and action) is answered as the first time and applies nothing.

    ``rebase_simultaneous`` (the web page's buttons): when both seats were to choose at once (the
    card game's blind choices) and only the other seat has moved since, the stale ply is moved to
    the next one instead of a 409 -- the other side's hidden choice told this player nothing, so the
    choice made still stands. The API keeps the strict 409 and lets its client decide.
    """
    try:
        seat = int(seat)
        ply = int(ply)
    except (TypeError, ValueError):
        raise MatchError("seat and ply must be whole numbers")
    if not isinstance(action, str) or not action:
        raise MatchError("action must be a non-empty string")
    try:
        with transaction.atomic():
            return _submit(match=match, seat=seat, ply=ply, action=action, user=user, held_seats=held_seats,
                           rebase_simultaneous=rebase_simultaneous)
    except IntegrityError:
        # Another request took this ply between our check and our insert (only possible without row locks).
        # Only a race: the same request, sent again, is applied or refused on the match as it now stands.
        raise MatchError(f"ply {ply} was just played by someone else; reload and try again", code="conflict",
                         reason="stale_ply", data={"next_ply": Match.objects.get(pk=match.pk).ply + 1,
                                                   "retry": True})
    except OperationalError as exc:
        # SQLite: the write lock was still busy after the busy timeout (a burst of moves at once). Nothing was
        # written; the same request may be sent again.
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        logger.warning("match %s: database busy: %s", match.pk, exc)
        raise MatchError("the site is busy; your move was not played yet: send it again", code="conflict",
                         reason="busy", data={"retry": True})


def _simultaneous_rebase_ok(match: Match, seat: int, ply: int, later: list[tuple[int, int, str]]) -> bool:
    """True when every action since ``ply`` is the other seat's and ``seat`` was to act before them too."""
    if not later or any(s == seat for _p, s, _a in later):
        return False
    before = match_state(match, upto=ply - 1)
    return seat in before.to_act() and len(before.to_act()) > 1


def _submit(*, match, seat, ply, action, user, held_seats, rebase_simultaneous=False) -> SubmitOutcome:
    match = _lock(match)
    seats = _seats_by_number(match)
    _check_holder(match, seat, seats, held_seats, user)
    _check_current(match)
    if not _seats_ready(seats):
        raise MatchError("the match starts when the other seat is taken: give its code to your opponent",
                         code="conflict", reason="waiting")
    if ply <= match.ply:
        later = list(MatchAction.objects.filter(match=match, ply__gte=ply).order_by("ply").values_list(
            "ply", "seat", "action"))
        if later and later[0][1] == seat and later[0][2] == action:
            # A retry of a request that was applied: answer as the first time, apply nothing.
            return SubmitOutcome(match=match, state=match_state(match), replayed=True)
        mine = next((i for i, (_p, s, _a) in enumerate(later) if s == seat), None)
        if rebase_simultaneous and mine is not None and later[mine][2] == action \
                and _simultaneous_rebase_ok(match, seat, ply, later[:mine]):
            # A retry of a request that was moved past the other side's blind choice.
            return SubmitOutcome(match=match, state=match_state(match), replayed=True)
        if not (rebase_simultaneous and _simultaneous_rebase_ok(match, seat, ply, later)):
            raise MatchError(f"ply {ply} has already been played; the next ply is {match.ply + 1}",
                             code="conflict", reason="stale_ply", data={"next_ply": match.ply + 1})
        ply = match.ply + 1
    if ply != match.ply + 1:
        raise MatchError(f"ply {ply} is not the next ply; the next ply is {match.ply + 1}", code="conflict",
                         reason="stale_ply", data={"next_ply": match.ply + 1})
    if match.status != Match.Status.LIVE:
        raise MatchError(f"the match is {match.get_status_display().lower()}", code="conflict", reason="over",
                         data={"next_ply": match.ply + 1})
    state = match_state(match)
    acting = state.to_act()
    if seat not in acting:
        who = " and ".join(SEAT_NAMES[s] for s in acting) or "nobody"
        raise MatchError(f"it is not your turn ({who} to act)", code="conflict", reason="not_your_turn",
                         data={"next_ply": match.ply + 1})
    legal = state.legal_actions(seat)
    if action not in legal:
        raise MatchError(f"{action!r} is not a legal action now", reason="illegal", legal=legal)
    state.apply(seat, action)
    MatchAction.objects.create(match=match, ply=ply, seat=seat, action=action,
                               user=user if user is not None and user.is_authenticated else None)
    match.ply = ply
    match.moved_at = timezone.now()
    match.draw_offer = None  # a move withdraws a draw offer, either side's
    moves = _play_computer_seats(match, state, seats)
    _after_moves(match, state, user)
    return SubmitOutcome(match=match, state=state, computer_moves=moves)


@transaction.atomic
def match_replace_seat_with_computer(*, match: Match, seat: int, user, level: str = DEFAULT_LEVEL) -> Match:
    """The organiser hands a seat to the computer (a player left); it moves at once if it is to act."""
    match = _lock(match)
    if not can_manage(user, match):
        raise MatchError("only the organisers may replace a player", code="forbidden")
    level = site_level(level)
    if level not in LEVELS:
        raise MatchError(f"unknown computer level {level!r}; choose from {', '.join(LEVELS)}")
    seats = _seats_by_number(match)
    if seat not in seats:
        raise MatchError(f"seat must be 0 (home) or 1 (away), not {seat}")
    if match.status != Match.Status.LIVE:
        raise MatchError("the match is over", code="conflict", reason="over")
    _check_current(match)
    target = seats[seat]
    target.kind = MatchSeat.Kind.COMPUTER
    target.computer_level = level
    target.user = None
    target.save(update_fields=["kind", "computer_level", "user"])
    _record(match, MatchEvent.Kind.REPLACED, seat=seat, user=user, level=level)
    if match.draw_offer is not None:
        match.draw_offer = None  # the computer neither makes nor answers draw offers
    if _seats_ready(seats) and match.moved_at is None:
        match.moved_at = timezone.now()
    state = match_state(match)
    _play_computer_seats(match, state, seats)
    _after_moves(match, state, user)
    return match


@transaction.atomic
def match_abandon(*, match: Match, user) -> Match:
    """The organiser stops a match; the fixture goes back to scheduled (no result is written)."""
    match = _lock(match)
    if not can_manage(user, match):
        raise MatchError("only the organisers may abandon a match", code="forbidden")
    if match.status != Match.Status.LIVE:
        raise MatchError("the match is over", code="conflict", reason="over")
    match.status = Match.Status.ABANDONED
    match.draw_offer = None
    match.save(update_fields=["status", "draw_offer", "updated_at"])
    _record(match, MatchEvent.Kind.ABANDONED, user=user)
    if match.fixture_id:
        Fixture.objects.filter(pk=match.fixture_id, status=Fixture.Status.LIVE).update(
            status=Fixture.Status.SCHEDULED)
        assert match.fixture is not None
        sections_changed(match.fixture.tournament_id, [*fixture_tokens(match.fixture), LIVE])
    return match


@transaction.atomic
def seat_join(*, seat: MatchSeat, user=None) -> MatchSeat:
    """Record that someone took an open/person seat with its code; an account holder is bound to it.

    When that was the last open seat the match starts: the move clock starts and a computer seat to act moves.
    """
    match = _lock(seat.match)
    seats = _seats_by_number(match)
    seat = seats[seat.seat]
    was_ready = _seats_ready(seats)
    changed = []
    if seat.kind == MatchSeat.Kind.OPEN:
        seat.kind = MatchSeat.Kind.PERSON
        changed.append("kind")
    if user is not None and user.is_authenticated and seat.user_id is None:
        seat.user = user
        changed.append("user")
    if seat.joined_at is None:
        seat.joined_at = timezone.now()
        changed.append("joined_at")
    if not changed:
        return seat
    seat.save(update_fields=changed)
    _record(match, MatchEvent.Kind.JOINED, seat=seat.seat, user=user)
    if match.status == Match.Status.LIVE and not was_ready and _seats_ready(seats) and rules_current(match):
        match.moved_at = timezone.now()
        state = match_state(match)
        _play_computer_seats(match, state, seats)
        _after_moves(match, state, user)
    else:
        # Bump the match's version so the other screens' next poll shows who joined.
        match.save(update_fields=["updated_at"])
    return seat


# ---- resigning, draws and the move clock ----------------------------------------------------------


def _live_state(match: Match) -> GameState:
    if match.status != Match.Status.LIVE:
        raise MatchError(f"the match is {match.get_status_display().lower()}", code="conflict", reason="over")
    _check_current(match)
    return match_state(match)


@transaction.atomic
def match_resign(*, match: Match, seat: int, user=None, held_seats: set[int] | frozenset[int] | None = None) -> Match:
    """``seat`` gives the match up: it ends now, recorded in the match's log, and the fixture's result follows (a
    walkover to the other side in a duel; in a solo attempt, the score so far). Only the seat's holder may."""
    match = _lock(match)
    seats = _seats_by_number(match)
    _check_holder(match, seat, seats, held_seats, user)
    state = _live_state(match)
    _record(match, MatchEvent.Kind.RESIGNED, seat=seat, user=user)
    _finish_early(match, state, user, ended_by="resigned", seat=seat)
    match.save()
    return match


def draw_allowed(match: Match, state: GameState) -> bool:
    """Whether the players may agree a draw now: the rule set lets this match end level (``draw_possible``: not
    with extra time on, never solo), it is not a knockout fixture (which needs a winner), and the score is level
    as the result would count it."""
    spec = get_spec(match.ruleset)
    if not spec.draw_possible(match.options):
        return False
    if match.fixture is not None and match.fixture.stage == Fixture.Stage.KNOCKOUT:
        return False
    result = spec.result_from_outcome(state.outcome())
    return result.home_score == result.away_score


@transaction.atomic
def match_draw_offer(*, match: Match, seat: int, user=None,
                     held_seats: set[int] | frozenset[int] | None = None) -> Match:
    """``seat`` offers a draw; the offer stands until the other side answers or anyone moves. An offer made when
    the other side's offer stands is an acceptance."""
    match = _lock(match)
    seats = _seats_by_number(match)
    _check_holder(match, seat, seats, held_seats, user)
    state = _live_state(match)
    other = seats.get(1 - seat)
    if other is None or other.kind != MatchSeat.Kind.PERSON:
        raise MatchError("a draw can only be agreed between two people", code="conflict", reason="no_draw")
    if not draw_allowed(match, state):
        raise MatchError("a draw can only be agreed while the score is level, in a match that may end level",
                         code="conflict", reason="no_draw")
    if match.draw_offer == 1 - seat:
        return _accept_draw(match, state, seat, user)
    if match.draw_offer != seat:
        match.draw_offer = seat
        _record(match, MatchEvent.Kind.DRAW_OFFERED, seat=seat, user=user)
        match.save(update_fields=["draw_offer", "updated_at"])
    return match


def _accept_draw(match: Match, state: GameState, seat: int, user) -> Match:
    _record(match, MatchEvent.Kind.DRAW_ACCEPTED, seat=seat, user=user)
    _finish_early(match, state, user, ended_by="draw_agreed", seat=seat)
    match.save()
    return match


@transaction.atomic
def match_draw_answer(*, match: Match, seat: int, accept: bool, user=None,
                      held_seats: set[int] | frozenset[int] | None = None) -> Match:
    """``seat`` accepts (the match ends level, and the fixture's result with it) or declines the other's offer."""
    match = _lock(match)
    seats = _seats_by_number(match)
    _check_holder(match, seat, seats, held_seats, user)
    state = _live_state(match)
    if match.draw_offer != 1 - seat:
        raise MatchError("there is no draw offer to answer (a move withdraws it)", code="conflict",
                         reason="no_offer")
    if not accept:
        match.draw_offer = None
        _record(match, MatchEvent.Kind.DRAW_DECLINED, seat=seat, user=user)
        match.save(update_fields=["draw_offer", "updated_at"])
        return match
    if not draw_allowed(match, state):
        raise MatchError("the score is no longer level: the draw offer lapsed", code="conflict", reason="no_draw")
    return _accept_draw(match, state, seat, user)


@transaction.atomic
def match_clock_expire(*, match: Match) -> bool:
    """The move clock: when a person to act has not moved within the match's ``move_clock`` seconds, the computer
    takes their seat for the rest of the match (at their entry's level) and moves; the log records it and the
    other side's page says so. True when a seat was handed over. Safe to call at any time, by any request."""
    match = _lock(match)
    deadline = clock_deadline(match)
    if deadline is None or timezone.now() < deadline or not rules_current(match):
        return False
    seats = _seats_by_number(match)
    if not _seats_ready(seats):
        return False
    state = match_state(match)
    late = [s for s in state.to_act() if seats[s].kind == MatchSeat.Kind.PERSON]
    if not late:
        return False
    for number in late:
        target = seats[number]
        level = _computer_level(target)
        target.kind = MatchSeat.Kind.COMPUTER
        target.computer_level = level
        target.save(update_fields=["kind", "computer_level"])
        _record(match, MatchEvent.Kind.CLOCK, seat=number, level=level, seconds=match.move_clock)
    match.draw_offer = None
    _play_computer_seats(match, state, seats)
    _after_moves(match, state, None)
    return True


def entry_pass_for(entry) -> EntryPass:
    """The entry's pass code (created on first use)."""
    return EntryPass.objects.get_or_create(entry=entry)[0]
