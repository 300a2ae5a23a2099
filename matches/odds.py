"""Qualification odds: each team's chance of every pool place, of reaching each knockout round, of winning.

Method (Monte Carlo): the fixtures still to play are simulated many times (``ODDS_RUNS``, 10,000 by
default). Each run draws a score for every remaining fixture from the *score model*, builds the pool
tables with the league's own rules (``league.standings.compute_standings``: bonus points, the Rugby World
Cup tie-breakers), fills the knockout slots from them as the league's advancement does (pool places,
winners, losers, seeds) and plays the knockout rounds the same way. The chances are the frequencies.

The score model is an *empirical joint distribution* of (home points, home tries, away points, away tries)
-- the scores keep their real correlation (a side that scores many points scores tries; bonus points and
points differences come out right):

* for a rule set of the engine: the results of many matches the engine itself played between computer
  players of the entries' levels (``ScoreModel``, computed once per rule set, rules version, options and
  pair of levels, and kept in the database), plus the tournament's own results that the engine produced
  (simulated or played online). An entry counts as the computer player of its level, people or not. Computer
  players of one level are alike whatever the team's name, so no team strength is modelled;
* for a tournament played on real pitches (rule set "manual"): its own results once it has
  ``MANUAL_MIN_RESULTS`` of them; before that, a documented rugby prior, the 40 pool results of the Rugby
  World Cup 2023 (:data:`RWC2023_POOL_SCORES`). Both are used in both directions (neutral venues).

A knockout match that the model draws level is decided by a fair coin (the engine's own knockout
matches play extra time; ties in the empirical distribution are its full-time draws).
"""

from __future__ import annotations

import random
import time
from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, OuterRef

from engine import derive_seed, get_ruleset, new_game
from engine.players import make_player, play_match
from league.advancement import match_outcome
from league.brackets import resolve_slot_source
from league.cache import ODDS, sections_changed
from league.levels import DEFAULT_LEVEL, LEVELS
from league.models import Entry, Fixture, Result, Tournament
from league.standings import PointsSystem, StandingEntry, compute_standings
from league.standings_kernel import TableKernel
from matches import workers
from matches.models import QualificationOdds, ScoreModel
from matches.services import result_from_outcome

# The 40 pool results of Rugby World Cup 2023 as (home points, home tries, away points, away tries):
# the prior of a tournament played on real pitches before it has results of its own.
RWC2023_POOL_SCORES = [
    (27, 2, 13, 2), (52, 7, 8, 1), (27, 3, 12, 2), (71, 11, 3, 0), (38, 5, 17, 2), (96, 14, 0, 0), (36, 5, 26, 2),
    (96, 14, 17, 2), (73, 11, 0, 0), (60, 8, 7, 1), (82, 12, 8, 1), (18, 2, 3, 0), (59, 8, 16, 1), (76, 12, 0, 0),
    (8, 1, 13, 1), (45, 7, 17, 2), (84, 12, 0, 0), (49, 7, 18, 2), (36, 6, 14, 2), (45, 7, 24, 3), (35, 4, 15, 2),
    (32, 4, 26, 4), (28, 4, 8, 1), (15, 2, 22, 1), (18, 2, 18, 2), (40, 3, 6, 0), (17, 2, 12, 0), (34, 5, 14, 2),
    (43, 6, 19, 3), (23, 2, 24, 2), (27, 0, 10, 1), (42, 6, 12, 2), (43, 6, 10, 1), (34, 4, 12, 0), (19, 1, 10, 1),
    (71, 11, 0, 0), (28, 3, 22, 1), (59, 9, 5, 1), (18, 2, 17, 2), (27, 3, 39, 5),
]
MANUAL_MIN_RESULTS = 12


def odds_runs() -> int:
    """How many runs an odds computation makes (setting ``ODDS_RUNS``, 10,000 by default)."""
    return int(getattr(settings, "ODDS_RUNS", 10_000))


def model_matches() -> int:
    """How many engine matches a score model is fitted to (setting ``ODDS_MODEL_MATCHES``)."""
    return int(getattr(settings, "ODDS_MODEL_MATCHES", 300))


# ---- the score model -----------------------------------------------------------------------------------


def _options_key(ruleset: str, options: dict) -> str:
    spec = get_ruleset(ruleset).spec
    resolved = spec.resolve_options(options)
    digest = derive_seed(0, "options", sorted(resolved.items())) % (16**8)
    return f"{spec.rules_version}|{digest:08x}"[:20]


def engine_samples(ruleset: str, options: dict | None, home_level: str, away_level: str,
                   matches: int | None = None) -> list[tuple[int, int, int, int]]:
    """Scores of engine matches between computer players of these levels (played once, then kept).

    The matches are seeded from the rule set and levels alone, so every site fits the same model.
    """
    options = dict(options or {})
    key = _options_key(ruleset, options)
    stored = ScoreModel.objects.filter(ruleset=ruleset, rules_version=key, home_level=home_level,
                                       away_level=away_level).first()
    if stored is not None and stored.samples:
        return [tuple(s) for s in stored.samples]
    matches = model_matches() if matches is None else matches
    seats = get_ruleset(ruleset).spec.person_seats
    levels = (home_level, away_level)
    samples = []
    for i in range(matches):
        state = new_game(ruleset, seed=derive_seed(0, "score-model", ruleset, home_level, away_level, i),
                         options=options)
        play_match(state, {seat: make_player(ruleset, levels[seat], simulation=True) for seat in seats}, events=False)
        m = result_from_outcome(ruleset, state.outcome())
        samples.append((m["home_score"], m["home_tries"], m["away_score"], m["away_tries"]))
    with transaction.atomic():
        ScoreModel.objects.update_or_create(ruleset=ruleset, rules_version=key, home_level=home_level,
                                            away_level=away_level, defaults={"samples": [list(s) for s in samples]})
    return samples


# ---- the problem: what is decided, what is left --------------------------------------------------------


@dataclass
class KnockoutSlot:
    """A knockout fixture as the odds see it: code, round, sources (or fixed teams) and its result if any."""

    code: str
    round_number: int
    round_name: str
    bracket: str
    home_source: str
    away_source: str
    home_id: int | None
    away_id: int | None
    outcome: tuple[int, int] | None  # (winner, loser) when played
    levels: tuple[str, str] = (DEFAULT_LEVEL, DEFAULT_LEVEL)


@dataclass
class OddsProblem:
    """A tournament's state for the odds: pools with their results and remaining fixtures, the knockout."""

    points_system: PointsSystem
    pools: dict[str, list[StandingEntry]]
    played: dict[str, list[tuple]]
    remaining: dict[str, list[tuple[int, int, str]]]  # pool -> (home id, away id, levels key)
    knockout: list[KnockoutSlot]
    seeds: dict[int, int] = field(default_factory=dict)
    level_of: dict[int, str] = field(default_factory=dict)
    names: dict[int, tuple[str, str]] = field(default_factory=dict)  # entry id -> (code, name)


def _level(entry: Entry) -> str:
    # An entry plays like the computer at its level (a simulation plays it so, people or not).
    return entry.computer_level if entry.computer_level in LEVELS else DEFAULT_LEVEL


def odds_problem(tournament: Tournament) -> OddsProblem:
    """Read a tournament's entries, fixtures and results (four queries)."""
    entries = list(Entry.objects.filter(tournament=tournament).select_related("team", "pool"))
    by_id = {e.pk: e for e in entries}
    pools: dict[str, list[StandingEntry]] = defaultdict(list)
    pool_of: dict[int, str] = {}
    for e in sorted(entries, key=lambda e: (e.pool.order if e.pool_id else 0, e.pool.name if e.pool_id else "",
                                           e.seed or 0)):
        if e.pool_id:
            pools[e.pool.name].append(StandingEntry(e.pk, e.team.code, e.team.name, e.team.world_ranking))
            pool_of[e.pk] = e.pool.name
    fixtures = list(Fixture.objects.filter(tournament=tournament).exclude(status=Fixture.Status.CANCELLED)
                    .select_related("pool", "result"))
    played: dict[str, list[tuple]] = defaultdict(list)
    remaining: dict[str, list[tuple[int, int, str]]] = defaultdict(list)
    knockout: list[KnockoutSlot] = []
    for f in fixtures:
        try:
            result = f.result
        except Result.DoesNotExist:
            result = None
        if f.stage == Fixture.Stage.POOL and f.pool_id and f.home_id and f.away_id:
            name = f.pool.name
            if result is not None:
                played[name].append((f.home_id, f.away_id, result.home_score, result.away_score, result.home_tries,
                                     result.away_tries, result.kind))
            else:
                remaining[name].append((f.home_id, f.away_id, f"{_level(by_id[f.home_id])}/"
                                                              f"{_level(by_id[f.away_id])}"))
        elif f.stage == Fixture.Stage.KNOCKOUT:
            knockout.append(KnockoutSlot(f.code, f.round_number, f.round_name, f.bracket, f.home_source,
                                         f.away_source, f.home_id, f.away_id, match_outcome(f, result)))
    knockout.sort(key=lambda k: (k.round_number, k.code))
    return OddsProblem(
        points_system=PointsSystem.from_tournament(tournament), pools=dict(pools), played=dict(played),
        remaining=dict(remaining), knockout=_topological(knockout),
        seeds={e.seed: e.pk for e in entries if e.seed is not None},
        level_of={e.pk: _level(e) for e in entries},
        names={e.pk: (e.team.code, e.team.name) for e in entries})


def _topological(slots: list[KnockoutSlot]) -> list[KnockoutSlot]:
    by_code = {s.code: s for s in slots}
    done: set[str] = set()
    ordered: list[KnockoutSlot] = []

    def visit(slot: KnockoutSlot, depth: int = 0) -> None:
        if slot.code in done or depth > len(slots):
            return
        for source in (slot.home_source, slot.away_source):
            kind, _, code = source.partition(":")
            if kind in ("winner", "loser") and code in by_code:
                visit(by_code[code], depth + 1)
        done.add(slot.code)
        ordered.append(slot)

    for slot in slots:
        visit(slot)
    return ordered


def main_slots(problem: OddsProblem) -> list[KnockoutSlot]:
    """The knockout fixtures on the way to the title: the final's bracket, placing matches left out."""
    final = next((k for k in problem.knockout if k.code == "F"), None)
    bracket = final.bracket if final is not None else None
    return [k for k in problem.knockout if (bracket is None or k.bracket == bracket)
            and not (k.home_source.startswith("loser:") or k.away_source.startswith("loser:"))]


def main_rounds(problem: OddsProblem) -> list[str]:
    """The knockout rounds a team can *reach* on the way to the title, in order."""
    names: list[str] = []
    for k in sorted(main_slots(problem), key=lambda k: k.round_number):
        if k.round_name and k.round_name not in names:
            names.append(k.round_name)
    return names


def _title_code(problem: OddsProblem) -> str | None:
    if any(k.code == "F" for k in problem.knockout):
        return "F"
    mains = [k for k in problem.knockout if not (k.home_source.startswith("loser:")
                                                  or k.away_source.startswith("loser:"))]
    return max(mains, key=lambda k: k.round_number).code if mains else None


# ---- the Monte Carlo -----------------------------------------------------------------------------------


@dataclass
class OddsCounts:
    """Frequencies after ``runs`` runs: pool places, knockout rounds reached and titles, per entry id."""

    runs: int
    positions: dict[int, list[int]]
    rounds: dict[int, dict[str, int]]
    titles: dict[int, int]
    round_names: list[str]


def _slot_reader(source: str, current: int | None, seeds: dict[int, int]):
    """``league.brackets.resolve_slot_source`` for one slot, worked out once: a function of (placings, outcomes)
    that the Monte Carlo calls 10,000 times without parsing the source again."""
    kind, _, rest = source.partition(":")
    if source and kind == "pool":
        name, _, position = rest.rpartition(":")
        index = int(position) - 1 if position.isdigit() else -1

        def from_pool(placings: dict, outcomes: dict) -> int | None:
            order = placings.get(name)
            return order[index] if order is not None and 0 <= index < len(order) else None
        return from_pool
    if source and kind in ("winner", "loser"):
        side = 0 if kind == "winner" else 1

        def from_match(placings: dict, outcomes: dict) -> int | None:
            outcome = outcomes.get(rest)
            return None if outcome is None else outcome[side]
        return from_match
    # A seed, an entry or a slot filled by hand: the same team whatever the draw.
    fixed = resolve_slot_source(source, current, placings={}, outcomes={}, seeds=seeds)
    return lambda placings, outcomes: fixed


def simulate_odds(problem: OddsProblem, samples: dict[str, list[tuple]], *, runs: int, seed: int = 0
                  ) -> OddsCounts:
    """Play the remaining fixtures ``runs`` times; pure (no database), so the benchmark times it alone.

    ``samples`` maps a levels key ("club/club") to score tuples (home pts, home tries, away pts, away tries).
    Each pool's table comes from a ``league.standings_kernel.TableKernel``: the order of
    ``compute_standings``, fit for this loop.
    """
    rng = random.Random(seed)
    rand = rng.random
    round_names = main_rounds(problem)
    title = _title_code(problem)
    fixed_any = next(iter(samples.values()))
    positions = {e.entry_id: [0] * len(entries) for entries in problem.pools.values() for e in entries}
    rounds: dict[int, dict[str, int]] = defaultdict(lambda: dict.fromkeys(round_names, 0))
    titles: dict[int, int] = defaultdict(int)
    nothing_left = not any(problem.remaining.values()) and all(k.outcome for k in problem.knockout)
    if nothing_left:
        runs = 1
    # Pools without fixtures left have one table: compute it once.
    fixed_tables = {name: [row.entry_id for row in compute_standings(entries, problem.played.get(name, []),
                                                                      problem.points_system)]
                    for name, entries in problem.pools.items() if not problem.remaining.get(name)}
    kernels = {}
    for name, fixtures in problem.remaining.items():
        if fixtures and name in problem.pools:
            left = [(h, a, samples.get(key, fixed_any)) for h, a, key in fixtures]
            kernels[name] = (TableKernel(problem.pools[name], problem.played.get(name, []), problem.points_system,
                                         left), [len(scores) for _h, _a, scores in left])
    pools = [(name, fixed_tables.get(name), kernels.get(name)) for name in problem.pools]
    counted = {k.code for k in main_slots(problem) if k.round_name}
    level_of = problem.level_of
    knockout = [(slot, _slot_reader(slot.home_source, slot.home_id, problem.seeds),
                 _slot_reader(slot.away_source, slot.away_id, problem.seeds), slot.code in counted)
                for slot in problem.knockout]
    for _ in range(runs):
        placings: dict[str, list[int]] = {}
        for name, order, kernel in pools:
            if order is None:
                table, sizes = kernel
                order = table.order([int(rand() * size) for size in sizes])
            placings[name] = order
            for position, entry_id in enumerate(order):
                positions[entry_id][position] += 1
        outcomes: dict[str, tuple[int, int] | None] = {}
        for slot, read_home, read_away, counts in knockout:
            home = read_home(placings, outcomes)
            away = read_away(placings, outcomes)
            if counts:
                for team in (home, away):
                    if team is not None:
                        rounds[team][slot.round_name] += 1
            if home is None or away is None:
                outcomes[slot.code] = None
                continue
            if slot.outcome is not None and set(slot.outcome) == {home, away}:
                outcomes[slot.code] = slot.outcome
                continue
            dist = samples.get(f"{level_of.get(home, DEFAULT_LEVEL)}/{level_of.get(away, DEFAULT_LEVEL)}", fixed_any)
            hp, _ht, ap, _at = dist[int(rand() * len(dist))]
            home_wins = hp > ap if hp != ap else rand() < 0.5
            outcomes[slot.code] = (home, away) if home_wins else (away, home)
        if title is not None and outcomes.get(title):
            titles[outcomes[title][0]] += 1
        elif title is None:
            for order in placings.values():
                if len(placings) == 1 and order:
                    titles[order[0]] += 1
    return OddsCounts(runs=runs, positions=positions, rounds=dict(rounds), titles=dict(titles),
                      round_names=round_names)


# ---- the score model of a tournament -------------------------------------------------------------------


def score_samples(tournament: Tournament, problem: OddsProblem) -> tuple[dict[str, list[tuple]], str]:
    """The score model of a tournament (see the module's docstring) and a short description of it."""
    own = list(Result.objects.filter(fixture__tournament=tournament, kind=Result.Kind.PLAYED,
                                     fixture__stage=Fixture.Stage.POOL)
               .values_list("home_score", "home_tries", "away_score", "away_tries", "source"))
    if not tournament.spec.playable:
        both_ways, what = _manual_model([tuple(r[:4]) for r in own if r[4] != Result.Source.SIMULATED])
        keys = {f"{a}/{b}" for a in LEVELS for b in LEVELS}
        return dict.fromkeys(keys, both_ways), what
    needed = {key for fixtures in problem.remaining.values() for _h, _a, key in fixtures}
    needed |= {f"{a}/{b}" for a in set(problem.level_of.values()) for b in set(problem.level_of.values())}
    needed = needed or {f"{DEFAULT_LEVEL}/{DEFAULT_LEVEL}"}
    engine_own = [tuple(r[:4]) for r in own if r[4] in (Result.Source.SIMULATED, Result.Source.ONLINE)]
    samples = {}
    options = tournament.ruleset_options or {}
    for key in sorted(needed):
        home_level, away_level = key.split("/")
        samples[key] = engine_samples(tournament.ruleset, options, home_level, away_level)
        if key == f"{DEFAULT_LEVEL}/{DEFAULT_LEVEL}":
            samples[key] = samples[key] + engine_own
    n = sum(len(v) for v in samples.values())
    return samples, f"{n} engine matches of {tournament.ruleset}"


def _manual_model(own: list[tuple]) -> tuple[list[tuple], str]:
    if len(own) >= MANUAL_MIN_RESULTS:
        # Sorted: the same results give the same model whatever order the database returns them in.
        base, what = sorted(own), f"its own {len(own)} results"
    else:
        base, what = list(RWC2023_POOL_SCORES), "the Rugby World Cup 2023 pool results (prior)"
    # Neutral venues: every score is used both ways round.
    return base + [(ap, at, hp, ht) for hp, ht, ap, at in base], what


def manual_samples(tournament: Tournament) -> list[tuple]:
    """The score model of a tournament played on real pitches (its real results, or the RWC 2023 prior)."""
    own = list(Result.objects.filter(fixture__tournament=tournament, kind=Result.Kind.PLAYED,
                                     fixture__stage=Fixture.Stage.POOL)
               .exclude(source=Result.Source.SIMULATED)
               .values_list("home_score", "home_tries", "away_score", "away_tries"))
    return _manual_model(own)[0]


def tournament_odds_compute(tournament: Tournament, *, runs: int | None = None, seed: int | None = None) -> dict:
    """Compute a tournament's odds now and return their JSON form (not stored)."""
    runs = odds_runs() if runs is None else runs
    problem = odds_problem(tournament)
    samples, model = score_samples(tournament, problem)
    started = time.perf_counter()
    counts = simulate_odds(problem, samples, runs=runs,
                           seed=derive_seed(tournament.pk, tournament.version) if seed is None else seed)
    return odds_data(problem, counts, model=model, seconds=time.perf_counter() - started)


def odds_data(problem: OddsProblem, counts: OddsCounts, *, model: str = "", seconds: float = 0.0) -> dict:
    """The JSON form: per team, the chance (0..1) of each pool place, each knockout round and the title."""
    teams = []
    for pool, entries in problem.pools.items():
        for e in entries:
            pos = counts.positions.get(e.entry_id, [])
            reached = counts.rounds.get(e.entry_id, {})
            teams.append({
                "team": e.team_code, "name": e.team_name, "pool": pool,
                "positions": [round(c / counts.runs, 4) for c in pos],
                "rounds": {name: round(reached.get(name, 0) / counts.runs, 4) for name in counts.round_names},
                "champion": round(counts.titles.get(e.entry_id, 0) / counts.runs, 4),
            })
    return {"runs": counts.runs, "model": model, "rounds": counts.round_names, "seconds": round(seconds, 3),
            "teams": teams}


def odds_refresh(*, tournament_id: int, version: int | None = None, runs: int | None = None) -> str:
    """Recompute and store a tournament's odds, unless it changed since ``version`` (a newer result's task
    will do it: this is the debounce). Returns what happened."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return "gone"
    if version is not None and tournament.version != version:
        return "superseded"
    if version is not None and QualificationOdds.objects.filter(tournament=tournament, version=version).exists():
        return "fresh"
    if not Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL).exists():
        return "no pools"
    data = tournament_odds_compute(tournament, runs=runs)
    QualificationOdds.objects.update_or_create(tournament=tournament, defaults={
        "version": tournament.version, "runs": data["runs"], "model": data["model"][:80], "data": data})
    sections_changed(tournament.pk, [ODDS])  # the Chances tab
    return "computed"


def _burst_keys(tournament_id: int) -> tuple[str, str]:
    """Cache keys of a burst of results: when its refresh was asked for (pending), and its latest result."""
    return f"matches:odds-pending:{tournament_id}", f"matches:odds-latest:{tournament_id}"


def _burst_timeout() -> float:
    # Long enough to outlive the longest wait, short enough that a worker lost mid-burst blocks nothing long.
    return 2 * float(getattr(settings, "ODDS_MAX_WAIT", 30)) + 2 * float(getattr(settings, "ODDS_DELAY", 3)) + 60


def odds_after_result(tournament_id: int) -> None:
    """Queue the odds' refresh after a result: the listener of ``league.hooks.on_results_changed`` (registered by
    ``MatchesConfig.ready``), called after the commit of a result change, when ``ODDS_AFTER_RESULT`` is on.

    With ``ODDS_COALESCE`` (the default with Redis, whose cache the web and the workers share) a burst of
    results -- a simulation, a CSV import, a festival's results typed in one after the other -- makes *one*
    refresh: the first result of the burst queues it, the others only note their time (no query, no task), and
    the refresh waits until the results have stopped for ``ODDS_DELAY`` seconds (at most ``ODDS_MAX_WAIT``
    after the first; see :func:`odds_refresh_after_burst`). Without it (a cache of each process's own memory,
    the demo), one debounced task is queued per version of the tournament.
    """
    if not getattr(settings, "ODDS_AFTER_RESULT", True):
        return
    if getattr(settings, "ODDS_COALESCE", False):
        now = time.time()
        pending, latest = _burst_keys(tournament_id)
        cache.set(latest, now, _burst_timeout())
        if cache.add(pending, now, _burst_timeout()):
            workers.task("refresh_odds").apply_async((tournament_id,),
                                                     countdown=float(getattr(settings, "ODDS_DELAY", 3)))
        return
    version = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    # One task per version of the tournament (a CSV import of 40 results commits once, but says so 40 times).
    if version is None or not cache.add(f"matches:odds-queued:{tournament_id}:{version}", 1, 600):
        return
    # Best-effort: with the broker down the result stands, and the periodic odds_catch_up queues it later.
    workers.queue("compute_odds", (tournament_id, version), countdown=float(getattr(settings, "ODDS_DELAY", 3)))


def tournaments_with_stale_odds(*, limit: int = 20) -> list[tuple[int, int]]:
    """(id, version) of tournaments in progress whose odds are missing or older than their results: the odds
    that could not be queued after a result (the broker was down). The periodic ``odds_catch_up`` queues them."""
    if not getattr(settings, "ODDS_AFTER_RESULT", True):
        return []
    fresh = QualificationOdds.objects.filter(tournament=OuterRef("pk"), version=OuterRef("version"))
    with_results = Fixture.objects.filter(tournament=OuterRef("pk"), stage=Fixture.Stage.POOL, result__isnull=False)
    rows = (Tournament.objects.filter(status=Tournament.Status.IN_PROGRESS)
            .filter(Exists(with_results)).exclude(Exists(fresh)).order_by("-pk").values_list("pk", "version"))
    return list(rows[:limit])


def odds_refresh_after_burst(*, tournament_id: int) -> str:
    """The refresh a burst of results queued (see :func:`odds_after_result`): put off again while results keep
    coming (less than ``ODDS_DELAY`` seconds since the latest, and less than ``ODDS_MAX_WAIT`` since the
    first), else close the burst and compute once. Returns what happened ("deferred", or
    :func:`odds_refresh`'s answer).

    The burst is closed before the computation reads anything: a result that comes after that starts a new
    burst, so no result is ever left out of the odds for long.
    """
    pending, latest = _burst_keys(tournament_id)
    now = time.time()
    first, last = cache.get(pending), cache.get(latest)
    delay = float(getattr(settings, "ODDS_DELAY", 3))
    quiet = now - last if last is not None else delay
    if quiet < delay and (first is None or now - first < float(getattr(settings, "ODDS_MAX_WAIT", 30))):
        workers.task("refresh_odds").apply_async((tournament_id,), countdown=delay - quiet)
        return "deferred"
    cache.delete(pending)
    return odds_refresh(tournament_id=tournament_id)


# ---- reads for the pages -------------------------------------------------------------------------------


def _percent(p: float) -> str:
    if p <= 0:
        return "–"
    if p >= 1:
        return "100%"
    if p < 0.005:
        return "<1%"
    if p > 0.995:
        return ">99%"
    return f"{round(100 * p)}%"


def stored_odds(tournament: Tournament) -> dict | None:
    """The stored odds' JSON (API): runs, model, rounds and per team its chances (0..1), or None."""
    stored = QualificationOdds.objects.filter(tournament=tournament).first()
    if stored is None:
        return None
    return {**stored.data, "version": stored.version, "current": stored.version == tournament.version,
            "computed_at": stored.computed_at.isoformat()}


def tournament_odds(tournament: Tournament) -> dict | None:
    """The stored odds in the form the standings page's partial shows (one query), or None."""
    stored = QualificationOdds.objects.filter(tournament=tournament).first()
    if stored is None or not stored.data.get("teams"):
        return None
    data = stored.data
    places = max((len(t["positions"]) for t in data["teams"]), default=0)
    ordinals = ["1st", "2nd", "3rd"] + [f"{n}th" for n in range(4, 21)]
    columns = [ordinals[i] if i < len(ordinals) else str(i + 1) for i in range(places)]
    columns += list(data.get("rounds", [])) + (["Champion"] if data.get("rounds") else [])
    rows = []
    for t in data["teams"]:
        values = [_percent(p) for p in t["positions"]] + [""] * (places - len(t["positions"]))
        if data.get("rounds"):
            values += [_percent(t["rounds"].get(name, 0)) for name in data["rounds"]] + [_percent(t["champion"])]
        rows.append({"team": t["team"], "name": t["name"], "pool": t["pool"], "values": values})
    return {"columns": columns, "places": places, "rows": rows, "runs": data["runs"], "model": data.get("model", ""),
            "version": stored.version, "current": stored.version == tournament.version,
            "computed_at": stored.computed_at}
