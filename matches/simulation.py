"""Auto-simulation: computer players play a tournament's fixtures through the engine (issue 8).

Services (one thing, one transaction each); the Celery tasks in ``matches.tasks`` only call them:

* :func:`simulation_start` makes a :class:`~matches.models.SimulationRun` (seed, scope, progress) and queues
  it; :func:`run_queue_ready` names the fixtures that can be played now (both teams known, no result) and
  have not been queued by this run yet; :func:`fixture_simulate` plays one fixture and records it;
  :func:`run_update_progress` counts the results and finishes the run.
* A whole tournament is simulated stage by stage *by itself*: when a fixture's result is in, the league's
  advancement fills the knockout slots it decides, and the task that recorded it queues the fixtures that
  became ready (quarter-finals when the pools are complete, the final when both semi-finals are in).

Exactly once: a fixture that has a result is skipped. The result, the match record (seed + ordered action
log) and the knockout advancement are written in one transaction under a row lock on the fixture (and,
through ``league.services.result_record``, its tournament); ``Result`` and ``Match`` are one-to-one with
the fixture in the database, so a task delivered twice (a worker killed after the commit but before the
acknowledgement) can never make a second result.

Reproducible: each fixture's match seed is derived from the run's seed and a *stable key* of the fixture
(stage, pool, round, code and the two team codes -- never the database id), and each match is played from
that seed alone. The same seed gives the same results whatever the number of workers and the order in
which they pick the fixtures up.

Engine rule sets: the match is played by computer players of each entry's level (``Entry.computer_level``;
entries played by people are played by the computer at that level too) and stored like an online match
(``Match`` with computer seats, seed and the ordered action log in one row, ``Match.action_log``), so it
can be replayed and settles disputes as an online match's log does. A
tournament played on real pitches (rule set "manual") has no engine: its fixtures get a score drawn, with
the fixture's seed, from the rugby score model of ``matches.odds`` (the RWC 2023 pool results, or the
tournament's own results once it has enough), and no match record. A knockout match still level at the
end is decided by the tries scored, then a kicking competition (a coin drawn from the match seed).
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import MANUAL, derive_seed, get_ruleset, new_game
from engine.players import make_player, play_match
from league.errors import Conflict, DomainError, Unavailable
from league.levels import DEFAULT_LEVEL
from league.models import Fixture, Result, Tournament
from league.services import result_record, tournament_require_open
from league.stored_texts import Coded
from matches import workers
from matches.models import Match, MatchSeat, SimulationRun
from matches.odds import manual_samples
from matches.services import fixture_team_names, result_from_outcome

logger = logging.getLogger(__name__)

STAGES = ("pools", "knockout", "all")
# Seeds are stored in a signed 64-bit column and shown to people: keep them to 62 bits.
SEED_MASK = (1 << 62) - 1


@dataclass(frozen=True)
class FixtureOutcome:
    """What :func:`fixture_simulate` did with one fixture."""

    fixture_id: int
    status: str  # "played", "skipped" (had a result), "not_ready" (teams unknown), "live" (people playing it)
    match_id: int | None = None


# ---- seeds and keys ------------------------------------------------------------------------------------


def fixture_key(fixture: Fixture) -> str:
    """A key of the fixture that is the same in every copy of the tournament (no database ids).

    Knockout fixtures are named by their code; pool fixtures by pool, round and the two teams. The teams
    are part of the key of every fixture, so a knockout match between other teams is another match.
    """
    home = fixture.home.team.code if fixture.home_id else "-"
    away = fixture.away.team.code if fixture.away_id else "-"
    pool = fixture.pool.name if fixture.pool_id else ""
    return ":".join([fixture.stage, fixture.bracket, fixture.code, pool, str(fixture.round_number), home, away])


def fixture_seed(run_seed: int, fixture: Fixture) -> int:
    """The engine seed of a fixture's match in a simulation with ``run_seed``."""
    return derive_seed(run_seed, "fixture", fixture_key(fixture)) & SEED_MASK


def new_run_seed() -> int:
    """A fresh seed for a run (short enough to read out and type again)."""
    return secrets.randbelow(10**9)


# ---- scope ---------------------------------------------------------------------------------------------


def run_scope_q(run: SimulationRun) -> Q:
    """The fixtures a run is about (cancelled fixtures never count)."""
    q = Q(tournament_id=run.tournament_id) & ~Q(status=Fixture.Status.CANCELLED)
    if run.stage == SimulationRun.Stage.POOLS:
        q &= ~Q(stage=Fixture.Stage.KNOCKOUT)
    elif run.stage == SimulationRun.Stage.KNOCKOUT:
        q &= Q(stage=Fixture.Stage.KNOCKOUT)
    elif run.stage == SimulationRun.Stage.FIXTURE:
        q &= Q(pk=run.fixture_id)
    elif run.stage == SimulationRun.Stage.ROUND:
        q &= Q(round_number=run.round_number)
    return q


def _ready_q() -> Q:
    """Fixtures that can be played now: no result, both teams known (a solo attempt has no away team)."""
    return (Q(result__isnull=True) & Q(home__isnull=False)
            & (Q(away__isnull=False) | Q(stage=Fixture.Stage.SOLO))
            & ~Q(match__status=Match.Status.LIVE))


def ready_fixture_ids(run: SimulationRun) -> list[int]:
    """Ids of the fixtures of the run's scope that can be played now, in a stable order."""
    return list(Fixture.objects.filter(run_scope_q(run) & _ready_q())
                .order_by("round_number", "slot", "pk").values_list("pk", flat=True))


# ---- starting ------------------------------------------------------------------------------------------


def is_manual(tournament: Tournament) -> bool:
    """Played on real pitches or boards: no engine; a simulation draws scores from the rugby score model."""
    return not tournament.spec.playable


def _check_simulable(tournament: Tournament) -> None:
    if is_manual(tournament):
        return
    try:
        get_ruleset(tournament.ruleset)
    except KeyError as exc:
        raise DomainError(str(exc).strip("'\""), reason="not_simulable")


def _parse_seed(seed) -> int:
    if seed is None or seed == "":
        return new_run_seed()
    try:
        value = int(seed)
    except (TypeError, ValueError):
        raise DomainError({"seed": [_("The seed must be a whole number, not %(seed)s.")
                                      % {"seed": repr(seed)}]}, reason="bad_seed")
    if not 0 <= value <= SEED_MASK:
        raise DomainError({"seed": [_("The seed must be between 0 and %(high)s.")
                                      % {"high": SEED_MASK}]}, reason="bad_seed")
    return value


@transaction.atomic
def simulation_create(*, tournament: Tournament, stage: str = "all", seed=None, user=None,
                      fixture: Fixture | None = None, round_number: int | None = None) -> SimulationRun:
    """Make a run (without queueing it): checks the rule set, the scope and that no other run is going.

    ``stage`` is "pools", "knockout" or "all"; or pass ``fixture`` (one fixture) or ``round_number``.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament_require_open(tournament)
    _check_simulable(tournament)
    if fixture is not None:
        if fixture.tournament_id != tournament.pk:
            raise DomainError(_("That fixture is not in this tournament."), reason="bad_scope")
        stage = SimulationRun.Stage.FIXTURE
    elif round_number is not None:
        stage = SimulationRun.Stage.ROUND
    elif stage not in STAGES:
        raise DomainError({"stage": [_("Unknown stage %(stage)s: use pools, knockout or all.")
                                       % {"stage": repr(stage)}]}, reason="bad_scope")
    if SimulationRun.objects.filter(tournament=tournament, status=SimulationRun.Status.RUNNING).exists():
        raise Conflict(_("A simulation of this tournament is already running: wait for it to finish."),
                       reason="already_running")
    run = SimulationRun(tournament=tournament, seed=_parse_seed(seed), stage=stage, fixture=fixture,
                        round_number=round_number, created_by=user if getattr(user, "is_authenticated", False)
                        else None)
    counts = Fixture.objects.filter(run_scope_q(run)).aggregate(
        total=Count("pk"), done=Count("pk", filter=Q(result__isnull=False)))
    if counts["total"] == 0:
        raise DomainError(_("There is nothing to simulate: this part of the tournament has no fixtures."),
                          reason="nothing_to_simulate")
    if counts["done"] == counts["total"]:
        raise DomainError(_("Every fixture of this part of the tournament already has a result."),
                          reason="nothing_to_simulate")
    run.total, run.done = counts["total"], counts["done"]
    if not Fixture.objects.filter(run_scope_q(run) & _ready_q()).exists():
        raise DomainError(_("No fixture can be played yet: their teams are not known (finish the pools first) "
                          "or they are being played by people."), reason="not_ready")
    run.save()
    return run


def simulation_start(*, tournament: Tournament, stage: str = "all", user=None, seed=None,
                     fixture: Fixture | None = None, round_number: int | None = None) -> SimulationRun:
    """Start a simulation on the workers: make the run and queue it once the transaction commits.

    Refused with ``Unavailable`` (nothing made) when the workers' broker cannot be reached now. Should it fail
    between this check and the queueing, the run is marked failed with the reason; a run whose messages are
    lost later (Redis restarted) is handed out again by the periodic ``resume_stalled_runs``.
    """
    if not workers.broker_available():
        raise Unavailable(_("The simulation workers cannot be reached (their queue, Redis, is down): nothing was "
                          "started. Try again in a minute."), reason="broker_unavailable")
    with transaction.atomic():
        run = simulation_create(tournament=tournament, stage=stage, seed=seed, user=user, fixture=fixture,
                                round_number=round_number)
        transaction.on_commit(lambda: _queue_run(run))
    return run


def _queue_run(run: SimulationRun) -> None:
    try:
        workers.task("simulate_run").delay(run.pk)
    except Exception as exc:  # the broker is down: say so on the progress bar rather than fail the page
        logger.exception("could not queue simulation run %s", run.pk)
        run_fail(run_id=run.pk, note=Coded(SimulationRun.NOT_QUEUED, {"detail": str(exc)}))
        run.refresh_from_db()


# ---- queueing ------------------------------------------------------------------------------------------


@transaction.atomic
def run_queue_ready(*, run_id: int, again: bool = False, send=None) -> list[int]:
    """Hand out the fixtures of a running run that are ready and that this run has not handed out yet.

    The run's row lock makes this exact when several workers finish fixtures at once: each ready fixture
    goes out once. ``send(fixture_ids)`` (queueing the tasks) is called inside the transaction that marks
    them handed out, before its commit: if the process dies in between, the mark is rolled back and they
    go out again later (at least once; a fixture delivered twice is skipped the second time), never zero
    times. ``again`` (resuming after a
    worker was lost) hands out every ready fixture again.
    """
    run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
    if run is None or run.status != SimulationRun.Status.RUNNING:
        return []
    ready = ready_fixture_ids(run)
    queued = _queued(run)
    fresh = ready if again else [pk for pk in ready if pk not in queued]
    if fresh:
        _set_queued(run, queued | set(fresh))
        if send is not None:
            send(fresh)
    return fresh


@transaction.atomic
def run_unqueue(*, run_id: int, fixture_id: int) -> None:
    """Forget that a fixture was handed out (it could not be played: its teams changed, or people play it),
    so that it goes out again when it is ready and does not keep the run waiting for it."""
    run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
    if run is not None:
        queued = _queued(run)
        if fixture_id in queued:
            _set_queued(run, queued - {fixture_id})


@transaction.atomic
def run_after_fixture(*, run_id: int, fixture_id: int, status: str, send=None) -> list[int]:
    """What a worker does after one fixture of a run (``status``: :class:`FixtureOutcome`'s), in one transaction
    under the run's row lock: forget the fixture was handed out if it could not be played ("not_ready",
    "live"), hand out the fixtures that became ready (``send``, as :func:`run_queue_ready`), and count the
    progress, finishing the run when nothing is left (as :func:`run_update_progress`). Four queries.
    Returns the ids handed out.
    """
    run = SimulationRun.objects.select_for_update().filter(pk=run_id).first()
    if run is None or run.status != SimulationRun.Status.RUNNING:
        return []
    queued = _queued(run)
    if status in ("not_ready", "live"):
        queued.discard(fixture_id)
    fresh = [pk for pk in ready_fixture_ids(run) if pk not in queued]
    queued |= set(fresh)
    counts = _progress_counts(run, queued)
    changes: dict = {"queued": ",".join(str(x) for x in sorted(queued)), "done": max(run.done, counts["done"]),
                     "total": max(run.total, counts["total"])}
    finished = counts["done"] >= counts["total"]
    if not finished and not counts["waiting"]:
        finished = True
        changes.update(_stuck_note(counts))
    if finished:
        changes.update(status=SimulationRun.Status.FINISHED, finished_at=timezone.now())
    SimulationRun.objects.filter(pk=run_id).update(**changes)
    if fresh and send is not None:
        send(fresh)
    return fresh


def _progress_counts(run: SimulationRun, queued: set[int]) -> dict[str, int]:
    """The run's fixtures (``total``), those with a result (``done``) and those still to come (``waiting``:
    handed out and unplayed, or ready to be handed out), counted by one statement.

    One statement, so one snapshot: other workers commit results while this runs (PostgreSQL's READ COMMITTED
    gives each statement a fresh view). Counted by separate queries, a result committed between "how many are
    done" and "is anything still handed out or ready" made a run that was about to end (its last fixture just
    played) or to go on (a semi-final's result had just made the final ready) look stuck: finished early with
    "1 fixture(s) could not be simulated" (issue 17). Here a result is either in every count or in none.
    """
    still_to_play = _ready_q() | (Q(pk__in=queued) & Q(result__isnull=True)) if queued else _ready_q()
    return Fixture.objects.filter(run_scope_q(run)).aggregate(
        total=Count("pk", distinct=True), done=Count("pk", distinct=True, filter=Q(result__isnull=False)),
        waiting=Count("pk", distinct=True, filter=still_to_play))


def _stuck_note(counts: dict[str, int]) -> dict:
    """The run's fields saying how many fixtures could not be simulated (a code: shown in each reader's language)."""
    return _note_fields(Coded(SimulationRun.STUCK, {"count": counts["total"] - counts["done"]}))


def _note_fields(note: Coded) -> dict:
    return {"error": "", "error_code": note.code, "error_params": dict(note.params)}


def _queued(run: SimulationRun) -> set[int]:
    return {int(x) for x in run.queued.split(",") if x}


def _set_queued(run: SimulationRun, ids: set[int]) -> None:
    run.queued = ",".join(str(x) for x in sorted(ids))
    SimulationRun.objects.filter(pk=run.pk).update(queued=run.queued)


# ---- playing -------------------------------------------------------------------------------------------


def _level(entry) -> str:
    return (entry.computer_level if entry is not None else "") or DEFAULT_LEVEL


def play_fixture(fixture: Fixture, seed: int):
    """Play a fixture's match with computer players (no database writes): ``(state, options, players)``.

    Knockout matches switch on the rule set's extra time so that they produce a winner.
    """
    tournament = fixture.tournament
    cls = get_ruleset(tournament.ruleset)
    options = fixture_team_names(cls, dict(tournament.ruleset_options or {}), fixture)
    try:
        options = cls.spec.match_options(options, knockout=fixture.stage == Fixture.Stage.KNOCKOUT)
        state = new_game(tournament.ruleset, seed=seed, options=options)
    except ValueError as exc:
        # Options written around the validating services: a clear failure on the progress bar, not a crash.
        raise DomainError(_("The tournament's rule set options are refused by the engine: %(exc)s") % {"exc": exc})
    levels = {0: _level(fixture.home), 1: _level(fixture.away)}
    # Bulk simulation: the international player thinks with its cheaper simulation budget.
    players = {s: make_player(tournament.ruleset, levels[s], simulation=True) for s in cls.spec.person_seats}
    # Only the action log and the outcome are stored (a replay makes the commentary): no events kept.
    play_match(state, players, events=False)
    return state, options, levels


def _knockout_decision(mapped: dict, fixture: Fixture, seed: int) -> dict:
    """A knockout match still level after the engine's extra time: tries count, then a kicking competition.

    (The Rugby World Cup's order after extra time is sudden death, then a kicking competition; the engine
    plays no sudden death for every rule set, so the tries scored decide first, and the kicking competition
    is a fair coin drawn from the match seed, so it replays.)
    """
    if mapped["home_tries"] != mapped["away_tries"]:
        mapped["winner_seat"] = 0 if mapped["home_tries"] > mapped["away_tries"] else 1
        mapped["decided_by"] = Result.DecidedBy.TRIES
    else:
        mapped["winner_seat"] = derive_seed(seed, "kicking-competition") % 2
        mapped["decided_by"] = Result.DecidedBy.KICKING
    return mapped


def fixture_simulate(*, fixture_id: int, run_seed: int) -> FixtureOutcome:
    """Play one fixture with computer players and record its match and result, exactly once.

    A fixture with a result is skipped; one whose teams are not known yet is "not_ready"; one that people
    are playing online is left alone ("live"). The engine plays outside the transaction (it is the slow
    part); the match record, its action log and the result are then written together in one transaction
    under the fixture's row lock, after checking again that nobody recorded a result meanwhile.
    """
    fixture = (Fixture.objects.select_related("tournament", "pool", "home__team", "away__team", "result")
               .filter(pk=fixture_id).first())
    if fixture is None:
        return FixtureOutcome(fixture_id, "not_ready")
    if _has_result(fixture):
        return FixtureOutcome(fixture_id, "skipped")
    if fixture.home_id is None or (fixture.away_id is None and fixture.stage != Fixture.Stage.SOLO):
        return FixtureOutcome(fixture_id, "not_ready")
    _check_simulable(fixture.tournament)
    seed = fixture_seed(run_seed, fixture)
    if is_manual(fixture.tournament):
        state = None
        mapped = _manual_scores(fixture, seed)
    else:
        state, options, levels = play_fixture(fixture, seed)
        mapped = result_from_outcome(fixture.tournament.ruleset, state.outcome())
    if fixture.stage == Fixture.Stage.KNOCKOUT and mapped["home_score"] == mapped["away_score"]:
        mapped = _knockout_decision(mapped, fixture, seed)
    teams = (fixture.home_id, fixture.away_id)
    with transaction.atomic():
        # One query: the fixture locked, with its result and match if any (nobody records a result without
        # this lock, so what it shows stays true until the commit).
        locked = (Fixture.objects.select_for_update(of=("self",)).select_related("result", "match")
                  .get(pk=fixture_id))
        if _has_result(locked):
            return FixtureOutcome(fixture_id, "skipped")
        if (locked.home_id, locked.away_id) != teams:
            # A correction changed the teams while we played: the next delivery plays the new pairing.
            return FixtureOutcome(fixture_id, "not_ready")
        existing = _match_of(locked)
        if existing is not None:
            if existing.status == Match.Status.LIVE:
                return FixtureOutcome(fixture_id, "live")
            # An abandoned match (or one whose result was deleted) stays in the archive, unlinked.
            Match.objects.filter(pk=existing.pk).update(fixture=None)
        match = _match_record(fixture, state, options, levels, seed) if state is not None else None
        winner = None
        if mapped["winner_seat"] is not None:
            winner = fixture.home if mapped["winner_seat"] == 0 else fixture.away
        try:
            # result_record's own transaction is a savepoint here: a refusal undoes it alone.
            result_record(fixture=locked, home_score=mapped["home_score"], away_score=mapped["away_score"],
                          home_tries=mapped["home_tries"], away_tries=mapped["away_tries"], winner=winner,
                          decided_by=mapped["decided_by"], stats=mapped["stats"], source=Result.Source.SIMULATED,
                          reason=Coded("simulated_match", {"match": match.pk}) if match
                          else Coded("simulated_score", {"seed": seed}))
        except IntegrityError:
            # Another delivery of this fixture won the race (unique result per fixture): nothing twice.
            transaction.set_rollback(True)
            return FixtureOutcome(fixture_id, "skipped")
    return FixtureOutcome(fixture_id, "played", match.pk if match else None)


def _manual_scores(fixture: Fixture, seed: int) -> dict:
    """A score for a fixture of a tournament played on real pitches: one drawn (with the fixture's seed)
    from the odds' rugby score model -- the Rugby World Cup 2023 pool results, or the tournament's own
    results once it has enough (see ``matches.odds``). No match record: no engine played it."""
    samples = manual_samples(fixture.tournament)
    hp, ht, ap, at = random.Random(seed).choice(samples)
    winner = None if hp == ap else (0 if hp > ap else 1)
    return {"home_score": hp, "away_score": ap, "home_tries": ht, "away_tries": at, "winner_seat": winner,
            "decided_by": "", "stats": {"ruleset": MANUAL, "simulated": "rugby score model"}}


def _match_of(fixture: Fixture) -> Match | None:
    try:
        return fixture.match
    except Match.DoesNotExist:
        return None


def _has_result(fixture: Fixture) -> bool:
    try:
        return fixture.result is not None
    except Result.DoesNotExist:
        return False


def _match_record(fixture: Fixture, state, options: dict, levels: dict, seed: int) -> Match:
    """The finished match with its computer seats and its whole action log, in two INSERTs: the log goes in the
    match's own row (``Match.action_log``), not one row per action."""
    now = timezone.now()
    match = Match.objects.create(ruleset=fixture.tournament.ruleset, options=options, seed=seed,
                                 status=Match.Status.FINISHED, fixture=fixture, ply=len(state.history),
                                 outcome=state.outcome().to_dict(), finished_at=now,
                                 rules_version=state.spec.rules_version,
                                 action_log=[[seat, action] for seat, action in state.history])
    entries = {0: fixture.home, 1: fixture.away}
    MatchSeat.objects.bulk_create([
        MatchSeat(match=match, seat=seat, kind=MatchSeat.Kind.COMPUTER, computer_level=levels[seat],
                  entry=entries[seat], name=entries[seat].team.name if entries[seat] is not None else "")
        for seat in (0, 1)
    ])
    return match


# ---- progress ------------------------------------------------------------------------------------------


def run_update_progress(*, run_id: int) -> SimulationRun | None:
    """Count the run's fixtures and results; finish the run when nothing is left to play.

    Several workers call this at once: ``done`` and ``total`` only ever grow (GREATEST), and the run is
    finished once, by whichever call sees every fixture of its scope decided (or nothing left that
    the computer can play).
    """
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is None:
        return None
    counts = _progress_counts(run, _queued(run))
    SimulationRun.objects.filter(pk=run_id).update(done=Greatest("done", counts["done"]),
                                                   total=Greatest("total", counts["total"]))
    if run.status == SimulationRun.Status.RUNNING:
        finished = counts["done"] >= counts["total"]
        note: dict = {}
        if not finished and not counts["waiting"]:
            finished = True
            note = _stuck_note(counts)
        if finished:
            SimulationRun.objects.filter(pk=run_id, status=SimulationRun.Status.RUNNING).update(
                status=SimulationRun.Status.FINISHED, finished_at=timezone.now(), **note)
    run.refresh_from_db()
    return run


def run_fail(*, run_id: int, note: Coded) -> None:
    """Mark a run failed (a fixture could not be simulated even after the retries), saying why with a code of
    ``SimulationRun.RUN_NOTES`` (shown in each reader's language)."""
    SimulationRun.objects.filter(pk=run_id, status=SimulationRun.Status.RUNNING).update(
        status=SimulationRun.Status.FAILED, finished_at=timezone.now(), **_note_fields(note))


def stalled_runs(*, seconds: float) -> list[int]:
    """Runs still going whose results have not moved for ``seconds`` (their messages may be lost: the broker
    restarted, a worker died): the periodic task hands their ready fixtures out again."""
    since = timezone.now() - timedelta(seconds=seconds)
    stalled = []
    for run in SimulationRun.objects.filter(status=SimulationRun.Status.RUNNING, started_at__lt=since):
        latest = Result.objects.filter(fixture__in=Fixture.objects.filter(run_scope_q(run))).aggregate(
            m=Max("updated_at"))["m"]
        if latest is None or latest < since:
            stalled.append(run.pk)
    return stalled


def runs_to_resume() -> list[int]:
    """Runs still going (e.g. when a worker starts after another died): their ready fixtures go out again."""
    return list(SimulationRun.objects.filter(status=SimulationRun.Status.RUNNING).values_list("pk", flat=True))


# ---- without a worker ----------------------------------------------------------------------------------


def run_inline(run: SimulationRun, *, on_progress=None) -> SimulationRun:
    """Play a run in this process, stage by stage, without a worker (``simulate --inline``, tests, bench): the
    same steps as the workers' tasks, one fixture after the other."""
    pending = run_queue_ready(run_id=run.pk)
    while pending:
        fixture_id = pending.pop(0)
        outcome = fixture_simulate(fixture_id=fixture_id, run_seed=run.seed)
        pending += run_after_fixture(run_id=run.pk, fixture_id=fixture_id, status=outcome.status)
        if on_progress is not None:
            on_progress(SimulationRun.objects.get(pk=run.pk))
    return run_update_progress(run_id=run.pk)


# ---- reads ---------------------------------------------------------------------------------------------


def latest_run(tournament: Tournament) -> SimulationRun | None:
    """The tournament's most recent simulation run (one query)."""
    return SimulationRun.objects.filter(tournament=tournament).order_by("-started_at", "-pk").first()


def run_data(run: SimulationRun | None) -> dict | None:
    """The JSON form of a run (API, progress bar)."""
    if run is None:
        return None
    return {
        "id": run.pk, "status": run.status, "stage": run.stage, "seed": run.seed, "done": run.done,
        "total": run.total, "percent": round(100 * run.done / run.total) if run.total else 100,
        "started_at": run.started_at.isoformat() if run.started_at else None,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None, "error": run.error_text,
        "error_code": run.error_code,
        "fixture": run.fixture_id, "round": run.round_number,
    }


def simulation_progress(tournament: Tournament) -> dict | None:
    """Progress of the latest run for the pages: ``{"done", "total", "state", ...}`` or None."""
    data = run_data(latest_run(tournament))
    if data is not None:
        data["state"] = data["status"]
        data["tournament"] = tournament.slug
    return data
