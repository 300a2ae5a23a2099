"""Benchmark: a whole rwc2023 tournament simulated by Celery workers as in production, and its qualification odds.

    .venv/bin/python bench/simulate.py [--rounds 5] [--runs 10000] [--seed 1] [--ruleset rugby-league-cards]

The production path: PostgreSQL and Redis (``bench/servers.py``: throw-away servers with PostgreSQL's default
durability, unless DATABASE_URL and REDIS_URL name them), DEBUG off, each entry's default computer level (the
players simulations use), and the odds refreshed after results exactly as a site does by default
(ODDS_AFTER_RESULT on, ODDS_DELAY, coalesced with Redis), on the same workers. The score model is fitted
before the timings (a running site keeps it in the database); the fitting time is printed apart.

Each round (``--rounds``, paired: the cases one after the other, each on a fresh copy of the tournament):

* engine floor: the 48 matches played again by the engine alone in this process, with the same seeds and
  players (what no set-up around the engine can avoid);
* in-process: the whole simulation in this process without a broker or worker (``run_inline``);
* 1 worker, 2 workers: ``celery worker -c 1`` processes; wall time from the start of the run to its end, and
  to the odds being current (computed at the tournament's last version), with the odds tasks the workers ran
  and how many of them computed.

Then the odds of the tournament after its first round: ``--runs`` Monte Carlo runs (CPU time), with the
standings of each run from ``matches.odds.simulate_odds`` against the same runs -- the same draws -- with
``league.standings.compute_standings`` for every table (the exact function: the baseline), in paired rounds;
and a whole refresh (read, runs, store).

Medians of the rounds are printed, each with its ratio to the round's baseline, and the machine's load.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project root, not bench/, first on the path: bench/http.py would otherwise hide the standard library's http.
sys.path[:] = [str(ROOT)] + [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

from bench.servers import load_average, services  # noqa: E402

CELERY = str(Path(sys.executable).with_name("celery"))
TASK_LINE = re.compile(r"Task matches\.tasks\.(\w+)\[[^\]]+\] succeeded in [\d.e-]+s: '?([\w ]+)'?")


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("SECRET_KEY", "bench-" + "x" * 50)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _tournament(label: str, ruleset: str):
    from league.services import tournament_create_from_preset as preset_run

    # A fresh slug each time: a database given in DATABASE_URL keeps the tournaments of earlier runs.
    slug = f"bench-{label}-{time.time_ns() % 10**12}"
    return preset_run("rwc2023", name=slug, slug=slug, ruleset=ruleset)


def _fit_score_model(ruleset: str, seed: int) -> float:
    """Fit (and keep) the score model the odds of this rule set use, as a running site already has: seconds."""
    from matches import odds, simulation
    from matches.models import ScoreModel

    tournament = _tournament("model", ruleset)
    ScoreModel.objects.filter(ruleset=ruleset).delete()
    simulation.run_inline(simulation.simulation_create(tournament=tournament, round_number=1, seed=seed))
    started = time.perf_counter()
    odds.score_samples(tournament, odds.odds_problem(tournament))
    return time.perf_counter() - started


def _start_workers(n: int, logdir: Path, tag: str) -> list[tuple[subprocess.Popen, Path]]:
    procs = []
    for i in range(n):
        path = logdir / f"worker-{tag}-{n}-{i}.log"
        log = open(path, "wb")  # noqa: SIM115 (lives as long as the worker)
        procs.append((subprocess.Popen(
            [CELERY, "-A", "config", "worker", "-c", "1", "-n", f"bench-{tag}-{n}-{i}@%h", "--without-gossip",
             "--without-mingle", "--without-heartbeat", "-l", "INFO"],
            cwd=ROOT, env=os.environ.copy(), stdout=log, stderr=subprocess.STDOUT, start_new_session=True), path))
    # Wait until every worker says it is ready, so the timing is of the simulation, not of start-up.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if all(b"ready." in path.read_bytes() for _proc, path in procs):
            return procs
        if any(proc.poll() is not None for proc, _path in procs):
            break
        time.sleep(0.2)
    # Say why, with each worker's last lines: a failed start is a finding, not noise to retry away.
    tails = "\n".join(f"--- {path.name} (exit code {proc.poll()}):\n"
                      + "\n".join(path.read_text(errors="replace").splitlines()[-25:]) for proc, path in procs)
    _stop(procs)
    raise SystemExit(f"the workers did not start within 90 s\n{tails}")


def _stop(procs: list[tuple[subprocess.Popen, Path]]) -> None:
    for proc, _path in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    for proc, _path in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def _odds_tasks(procs: list[tuple[subprocess.Popen, Path]]) -> dict[str, int]:
    """The odds tasks the workers ran and what each answered (from their logs)."""
    counts: dict[str, int] = defaultdict(int)
    for _proc, path in procs:
        for name, answer in TASK_LINE.findall(path.read_text(errors="replace")):
            if "odds" in name:
                counts["tasks"] += 1
                counts[answer.strip()] += 1
    return dict(counts)


def bench_workers(n: int, seed: int, ruleset: str, logdir: Path, tag: str) -> dict:
    """Wall seconds of a whole simulation on ``n`` worker processes: to the run's end and to current odds."""
    from matches import simulation
    from matches.models import QualificationOdds, SimulationRun

    tournament = _tournament(f"workers-{n}", ruleset)
    procs = _start_workers(n, logdir, tag)
    try:
        started = time.perf_counter()
        run = simulation.simulation_start(tournament=tournament, stage="all", seed=seed)
        finished = None
        while True:
            if finished is None:
                run.refresh_from_db()
                if run.status != SimulationRun.Status.RUNNING:
                    finished = time.perf_counter() - started
                    if (run.status, run.done) != ("finished", 48):
                        raise SystemExit(f"run ended {run.status} with {run.done}/48: {run.error}")
            else:
                tournament.refresh_from_db(fields=["version"])
                if QualificationOdds.objects.filter(tournament=tournament, version=tournament.version).exists():
                    odds_current = time.perf_counter() - started
                    break
            if time.perf_counter() - started > 600:
                raise SystemExit("the workers did not finish within 600 s")
            time.sleep(0.02)
        time.sleep(0.5)  # the workers log the last task's answer
    finally:
        _stop(procs)
    return {"run": finished, "odds": odds_current, "tasks": _odds_tasks(procs)}


def bench_inline(seed: int, ruleset: str) -> tuple[float, object]:
    """The whole simulation in this process, no broker, no worker: seconds, and the tournament."""
    from matches import simulation

    tournament = _tournament("inline", ruleset)
    started = time.perf_counter()
    run = simulation.run_inline(simulation.simulation_create(tournament=tournament, stage="all", seed=seed))
    assert run.done == 48, run
    return time.perf_counter() - started, tournament


def bench_floor(tournament) -> float:
    """The engine alone replaying the tournament's 48 matches with the same seeds, options and players."""
    from engine import new_game
    from engine.players import make_player, play_match
    from matches.models import Match

    games = []
    for match in Match.objects.filter(fixture__tournament=tournament).prefetch_related("seats"):
        levels = {s.seat: s.computer_level for s in match.seats.all()}
        games.append((match.ruleset, match.seed, match.options, levels))
    assert len(games) == 48, len(games)
    started = time.perf_counter()
    for ruleset, seed, options, levels in games:
        state = new_game(ruleset, seed=seed, options=options)
        seats = state.spec.person_seats
        play_match(state, {seat: make_player(ruleset, levels[seat]) for seat in seats})
    return time.perf_counter() - started


def exact_odds(problem, samples: dict, *, runs: int, seed: int) -> None:
    """The baseline of the odds: the same Monte Carlo as ``matches.odds.simulate_odds`` (the same draws, in the
    same order), each table made by ``compute_standings``. Pools only decide the knockout, so the knockout is left
    out of both timings' difference: only the tables differ."""
    import random

    from league.standings import compute_standings

    rand = random.Random(seed).random
    fixed_any = next(iter(samples.values()))
    tables = {name: [(h, a, samples.get(key, fixed_any)) for h, a, key in fixtures]
              for name, fixtures in problem.remaining.items() if fixtures}
    for _ in range(runs):
        for name, entries in problem.pools.items():
            if name not in tables:
                continue
            results = list(problem.played.get(name, ()))
            for h, a, dist in tables[name]:
                hp, ht, ap, at = dist[int(rand() * len(dist))]
                results.append((h, a, hp, ap, ht, at, "played"))
            compute_standings(entries, results, problem.points_system)


def bench_odds(runs: int, seed: int, ruleset: str, rounds: int) -> dict:
    """CPU seconds of ``runs`` odds runs after the first round, against the exact tables; a whole refresh."""
    from matches import odds, simulation

    tournament = _tournament("odds", ruleset)
    simulation.run_inline(simulation.simulation_create(tournament=tournament, round_number=1, seed=seed))
    problem = odds.odds_problem(tournament)
    samples, _model = odds.score_samples(tournament, problem)
    fast, exact, refresh = [], [], []
    for _ in range(rounds):
        started = time.process_time()
        counts = odds.simulate_odds(problem, samples, runs=runs, seed=seed)
        fast.append(time.process_time() - started)
        assert counts.runs == runs
        started = time.process_time()
        exact_odds(problem, samples, runs=runs, seed=seed)
        exact.append(time.process_time() - started)
        started = time.perf_counter()
        odds.odds_refresh(tournament_id=tournament.pk, runs=runs)
        refresh.append(time.perf_counter() - started)
    return {"fast": fast, "exact": exact, "refresh": refresh}


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds of every case (default 5)")
    parser.add_argument("--runs", type=int, default=10_000, help="odds runs (default 10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", default="rugby-league-cards")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    args = parser.parse_args()
    print(f"before: {load_average()}", flush=True)
    cases: dict[str, list[float]] = defaultdict(list)
    tasks: dict[int, list[dict]] = defaultdict(list)
    with services():
        _setup_django()
        from django.conf import settings

        fit = _fit_score_model(args.ruleset, args.seed)
        logdir = Path(tempfile.mkdtemp(prefix="rugby-bench-logs-"))
        for round_number in range(1, args.rounds + 1):
            inline, tournament = bench_inline(args.seed, args.ruleset)
            cases["floor"].append(bench_floor(tournament))
            cases["inline"].append(inline)
            for n in args.workers:
                measured = bench_workers(n, args.seed, args.ruleset, logdir, f"r{round_number}")
                cases[f"{n} run"].append(measured["run"])
                cases[f"{n} odds"].append(measured["odds"])
                tasks[n].append(measured["tasks"])
            print(f"round {round_number} of {args.rounds}: " + ", ".join(f"{k} {v[-1]:.2f}" for k, v in cases.items())
                  + f" ({load_average()})", flush=True)
        odds_times = bench_odds(args.runs, args.seed, args.ruleset, args.rounds)
        coalesce = getattr(settings, "ODDS_COALESCE", None)
        delay = getattr(settings, "ODDS_DELAY", None)

    floor = _median(cases["floor"])
    ratios = {k: _median([v / f for v, f in zip(cases[k], cases["floor"], strict=True)]) for k in cases}
    print()
    print(f"Whole rwc2023 tournament: 48 fixtures of {args.ruleset}, the entries' default players; odds after "
          f"results on (ODDS_DELAY {delay} s, coalesced: {coalesce}); medians of {args.rounds} paired rounds")
    print(f"  engine floor (48 matches, this process)   {floor:7.2f} s")
    print(f"  in-process, no worker (run_inline)         {_median(cases['inline']):7.2f} s   "
          f"({ratios['inline']:.1f} x floor)")
    for n in args.workers:
        run, current = _median(cases[f"{n} run"]), _median(cases[f"{n} odds"])
        target = f"   target < 2 s: {'met' if run < 2 else 'NOT met'}" if n == 2 else ""
        print(f"  {n} worker process{'es' if n > 1 else '  '}: to the last result      {run:7.2f} s   "
              f"({ratios[f'{n} run']:.1f} x floor){target}")
        summary = defaultdict(list)
        for counted in tasks[n]:
            for key, value in counted.items():
                summary[key].append(value)
        answers = ", ".join(f"{key} {_median(values):g}" for key, values in sorted(summary.items()) if key != "tasks")
        print(f"      and to current odds                   {current:7.2f} s   (odds tasks per run: "
              f"{_median(summary.get('tasks', [0])):g}: {answers or 'none'})")
    print("  each round: " + "; ".join(f"{k} {' '.join(f'{t:.2f}' for t in v)}" for k, v in cases.items()))
    fast, exact = _median(odds_times["fast"]), _median(odds_times["exact"])
    paired = _median([f / e for f, e in zip(odds_times["fast"], odds_times["exact"], strict=True)])
    print(f"Qualification odds of the tournament after its first round ({args.runs} runs, CPU time):")
    print(f"  Monte Carlo (matches.odds.simulate_odds)  {fast:7.2f} s   target < 1 s: "
          f"{'met' if fast < 1 else 'NOT met'}")
    print(f"  tables alone by compute_standings (baseline, same draws, no knockout) {exact:5.2f} s   "
          f"(Monte Carlo / baseline: {paired:.2f})")
    print(f"  whole refresh (read, runs, store; wall)   {_median(odds_times['refresh']):7.2f} s")
    print(f"  fitting the score model (once, then kept) {fit:7.2f} s")
    print(f"after: {load_average()}")


if __name__ == "__main__":
    main()
