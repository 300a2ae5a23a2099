"""Writes for online play: start matches, submit actions, let computer seats move, finish.

Every function here does one thing in one transaction. The engine state is
never stored as the only copy: it is rebuilt from seed + options + the action
log (``match_state``), with ``Match.snapshot`` as a cache at a given ply.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine import derive_seed, get_ruleset, get_spec, new_game
from engine.core import SEAT_NAMES, GameState, Outcome
from engine.players import choose_action, make_player
from league.errors import DomainError
from league.models import Fixture, Result
from league.rulesets import ruleset_options_validate
from league.services import result_record
from matches.models import EntryPass, Match, MatchAction, MatchSeat
from matches.permissions import can_manage, seats_held

logger = logging.getLogger(__name__)

# A match can never need this many computer moves in a row; the cap turns an engine bug
# into a clear error instead of a request that never ends.
MAX_COMPUTER_MOVES = 100_000


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
        for seat, action in match.actions.filter(ply__gt=start, ply__lte=target).order_by("ply").values_list(
                "seat", "action"):
            state.apply(seat, action)
    return state


def _save_snapshot(match: Match, state: GameState) -> None:
    match.snapshot = state.to_dict()
    match.snapshot_ply = match.ply


def computer_rng(match: Match, seat: int, ply: int) -> random.Random:
    """The rng of a computer seat for one ply: derived from the match seed, so a match is reproducible."""
    return random.Random(derive_seed(match.seed, "seat", seat, "ply", ply))


def _seats_by_number(match: Match) -> dict[int, MatchSeat]:
    return {s.seat: s for s in match.seats.all()}


def _computer_players(match: Match, seats: dict[int, MatchSeat]) -> dict:
    return {n: make_player(match.ruleset, s.computer_level or "aware")
            for n, s in seats.items() if s.kind == MatchSeat.Kind.COMPUTER}


def _play_computer_seats(match: Match, state: GameState, seats: dict[int, MatchSeat]) -> int:
    """Let computer seats move while one of them is to act; append their actions. Returns the count."""
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
    if match.fixture_id is None:
        return
    fixture = match.fixture
    if Result.objects.filter(fixture=fixture).exists():
        # An organiser entered a result by hand while the match was on: theirs stands.
        match.outcome["result_note"] = "the fixture already had a result; it was left unchanged"
        return
    assert fixture is not None  # match.fixture_id is set
    mapped = result_from_outcome(match.ruleset, outcome)
    winner = None
    if mapped["winner_seat"] is not None:
        winner = fixture.home if mapped["winner_seat"] == 0 else fixture.away
    try:
        # A savepoint: if the league refuses the result (e.g. a knockout draw with no winner), the
        # move still stands and the organiser sees why on the match page, instead of a stuck game.
        with transaction.atomic():
            result_record(fixture=fixture, home_score=mapped["home_score"], away_score=mapped["away_score"],
                          home_tries=mapped["home_tries"], away_tries=mapped["away_tries"], kind="played",
                          winner=winner, decided_by=mapped["decided_by"], stats=mapped["stats"],
                          source="online", user=user, reason=f"online match {match.pk}")
    except ValidationError as exc:
        logger.warning("match %s: result refused: %s", match.pk, exc)
        match.outcome["result_error"] = "; ".join(exc.messages)


def _after_moves(match: Match, state: GameState, user) -> None:
    _save_snapshot(match, state)
    if state.is_over and match.status == Match.Status.LIVE:
        _finish(match, state, user)
    match.save()


# ---- starting ------------------------------------------------------------------------------------


def _new_seed() -> int:
    return secrets.randbits(62)


def _seat_from_entry(entry, *, person: bool = False) -> dict:
    """The seat of an entry: a person's when it has a player (or ``person``: someone plays it at the site,
    e.g. a solo entrant), else the computer's at the entry's level."""
    name = entry.team.name + (f" ({entry.player_name})" if entry.player_name else "")
    if entry.player_id or entry.player_name or person:
        return {"kind": MatchSeat.Kind.PERSON, "user": entry.player, "name": name, "entry": entry}
    return {"kind": MatchSeat.Kind.COMPUTER, "computer_level": entry.computer_level or "aware",
            "name": name, "entry": entry}


def fixture_team_names(ruleset_cls, options: dict, fixture) -> dict:
    """Fill the rule set's team-name options (commentary such as Bokx's) from the fixture's teams, if unset."""
    for name, entry in (("home_team", fixture.home), ("away_team", fixture.away)):
        if entry is not None and name in ruleset_cls.spec.options and name not in options:
            options[name] = entry.team.name
    return options


@transaction.atomic  # the match and its seats, or nothing
def _create(*, ruleset: str, options: dict | None, seed: int | None, seats: list[dict | None], fixture=None,
            user=None) -> Match:
    try:
        cls = get_ruleset(ruleset)
    except KeyError as exc:
        raise DomainError(str(exc).strip("'\""))
    options = dict(options or {})
    if fixture is not None and fixture.stage == "knockout":
        # A knockout match must produce a winner: the rule set's own way (extra time) is switched on.
        options = {**cls.spec.knockout_options, **options}
    if fixture is not None:
        options = fixture_team_names(cls, options, fixture)
    # Names, types, sizes and the rule set's own setup checks (e.g. at least 1 set a half), before any row.
    resolved = ruleset_options_validate(ruleset, options)
    match = Match.objects.create(ruleset=ruleset, options=resolved, seed=_new_seed() if seed is None else seed,
                                 fixture=fixture, created_by=user if user and user.is_authenticated else None)
    if cls.spec.solo:
        # Solo rule sets: seat 1 is the game's own automaton (it never acts through apply).
        seats = [seats[0], {"kind": MatchSeat.Kind.COMPUTER, "computer_level": "aware", "name": "The Non-player",
                            "entry": seats[1].get("entry") if len(seats) > 1 and seats[1] else None}]
    objs = {}
    for number, spec in enumerate(seats):
        objs[number] = MatchSeat.objects.create(match=match, seat=number, **(spec or {}))
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
        raise DomainError("Only a solo game played on the site can be started by its player.")
    if fixture.home_id is None or fixture.home_id not in set(entry_ids):
        raise DomainError("This attempt is not yours: enter the code from your own sheet.", code="forbidden")
    live = Match.objects.filter(fixture__home_id=fixture.home_id, fixture__tournament=fixture.tournament_id,
                                status=Match.Status.LIVE).exclude(fixture=fixture).first()
    if live is not None:
        raise DomainError("Finish the attempt you are playing first.", code="conflict",
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
    if not tournament.spec.playable:
        raise DomainError("This tournament's matches are played on a real pitch or board, not online.")
    solo = tournament.spec.solo
    if fixture.home_id is None or (fixture.away_id is None and not solo):
        raise DomainError("Both teams of the fixture must be known before its match can start.")
    if Result.objects.filter(fixture=fixture).exists():
        raise DomainError("This fixture already has a result.")
    merged = {**(tournament.ruleset_options or {}), **(options or {})}
    seats: list[dict | None] = [_seat_from_entry(fixture.home, person=solo),
                                _seat_from_entry(fixture.away) if fixture.away_id else None]
    for entry in (fixture.home, fixture.away):
        if entry is not None and (entry.player_id or entry.player_name or solo):
            EntryPass.objects.get_or_create(entry=entry)
    match = _create(ruleset=tournament.ruleset, options=merged, seed=seed, seats=seats, fixture=fixture, user=user)
    if match.status == Match.Status.LIVE:
        Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.LIVE)
    return match


def _seat_spec(spec, user) -> dict:
    """A friendly's seat from a short form: "me", "open", "computer:aware", "computer:random" or a User."""
    if spec is None or spec == "open":
        return {"kind": MatchSeat.Kind.OPEN}
    if spec == "me":
        if user is None or not user.is_authenticated:
            return {"kind": MatchSeat.Kind.OPEN}
        return {"kind": MatchSeat.Kind.PERSON, "user": user}
    if isinstance(spec, str) and spec.startswith("computer"):
        level = spec.partition(":")[2] or "aware"
        if level not in MatchSeat.Level.values:
            raise DomainError(f"unknown computer level {level!r}")
        return {"kind": MatchSeat.Kind.COMPUTER, "computer_level": level}
    if hasattr(spec, "pk"):
        return {"kind": MatchSeat.Kind.PERSON, "user": spec}
    raise DomainError(f"unknown seat {spec!r}: use me, open, computer:aware or computer:random")


@transaction.atomic
def match_create_friendly(*, ruleset: str, user=None, home="me", away="open", options: dict | None = None,
                          seed: int | None = None) -> Match:
    """A match outside any tournament. Seats: "me", "open", "computer:aware", "computer:random" or a User."""
    return _create(ruleset=ruleset, options=options, seed=seed, seats=[_seat_spec(home, user), _seat_spec(away, user)],
                   user=user)


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
        raise MatchError(f"ply {ply} was just played by someone else; reload and try again", code="conflict",
                         reason="stale_ply", data={"next_ply": Match.objects.get(pk=match.pk).ply + 1})


def _simultaneous_rebase_ok(match: Match, seat: int, ply: int, later: list[tuple[int, int, str]]) -> bool:
    """True when every action since ``ply`` is the other seat's and ``seat`` was to act before them too."""
    if not later or any(s == seat for _p, s, _a in later):
        return False
    before = match_state(match, upto=ply - 1)
    return seat in before.to_act() and len(before.to_act()) > 1


def _submit(*, match, seat, ply, action, user, held_seats, rebase_simultaneous=False) -> SubmitOutcome:
    match = _lock(match)
    seats = _seats_by_number(match)
    if seat not in seats:
        raise MatchError(f"seat must be 0 (home) or 1 (away), not {seat}")
    if held_seats is None:
        held_seats = seats_held(match, user=user, session=None)
    if seat not in held_seats or seats[seat].kind == MatchSeat.Kind.COMPUTER:
        raise MatchError(f"you do not hold the {SEAT_NAMES[seat]} seat of this match", code="forbidden",
                         reason="not_your_seat")
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
    moves = _play_computer_seats(match, state, seats)
    _after_moves(match, state, user)
    return SubmitOutcome(match=match, state=state, computer_moves=moves)


@transaction.atomic
def match_replace_seat_with_computer(*, match: Match, seat: int, user, level: str = "aware") -> Match:
    """The organiser hands a seat to the computer (a player left); it moves at once if it is to act."""
    match = _lock(match)
    if not can_manage(user, match):
        raise MatchError("only the organisers may replace a player", code="forbidden")
    if level not in MatchSeat.Level.values:
        raise MatchError(f"unknown computer level {level!r}")
    seats = _seats_by_number(match)
    if seat not in seats:
        raise MatchError(f"seat must be 0 (home) or 1 (away), not {seat}")
    if match.status != Match.Status.LIVE:
        raise MatchError("the match is over", code="conflict", reason="over")
    target = seats[seat]
    target.kind = MatchSeat.Kind.COMPUTER
    target.computer_level = level
    target.user = None
    target.save(update_fields=["kind", "computer_level", "user"])
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
    match.save(update_fields=["status", "updated_at"])
    if match.fixture_id:
        Fixture.objects.filter(pk=match.fixture_id, status=Fixture.Status.LIVE).update(
            status=Fixture.Status.SCHEDULED)
    return match


def seat_join(*, seat: MatchSeat, user=None) -> MatchSeat:
    """Record that someone took an open/person seat with its code; an account holder is bound to it."""
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
    if changed:
        seat.save(update_fields=changed)
        # Bump the match's version so the other screens' next poll shows who joined.
        Match.objects.filter(pk=seat.match_id).update(updated_at=timezone.now())
    return seat


def entry_pass_for(entry) -> EntryPass:
    """The entry's pass code (created on first use)."""
    return EntryPass.objects.get_or_create(entry=entry)[0]
