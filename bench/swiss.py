"""Benchmark: Swiss pairing before and after issue 21, on the same random tournaments.

"Before" is ``league/swiss.py`` as it was on main at commit 5b510f1 (read from git history: ranking only, no
score groups, no look-ahead, home/away by home counts); "after" is today's ``league.swiss``. Both pair the same
random tournaments: every size in ``--sizes``, every number of rounds a Swiss of that size allows, ``--seeds``
tournaments each, half of them with bonus points (fragmenting the score groups). A result depends only on the
seed, the round and the two teams, so the two algorithms play the same matches wherever they pair alike.

Each round is checked by the referee of ``tests/league/swiss_oracle.py``: the fewest cross-group pairs (teams
on different points) any rematch-free round with the same bye could have made while leaving the remaining
rounds pairable, found without the code under test. Printed per size and in total:

* tournaments, and dead ends (a promised round that could not be paired without a rematch);
* rematches;
* cross-group pairs made, the minimum, and the excess over the minimum as a percentage;
* teams given three home or three away games in a row (share of teams), and those that were avoidable;
* the time per pairing (median over rounds) and the ratio after / before.

Then the issue's two reproductions: 6 teams x 4 rounds and 16 teams x 15 rounds, 200 runs each.

Usage (from the project root):
    .venv/bin/python bench/swiss.py                  # 6-24 teams, 4 seeds per size and length (~10 minutes)
    .venv/bin/python bench/swiss.py --quick          # 6-14 teams, 1 seed
    .venv/bin/python bench/swiss.py --sizes 6-30 --seeds 2
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE_COMMIT = "5b510f15e8d1131d6d26b5771661f441e6ca42bc"  # main before issue 21


def _setup() -> None:
    # Run as a script, this folder is first on sys.path, where a sibling module (bench/http.py) would
    # shadow the standard library's package of the same name: look for modules from the project root.
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    sys.path.insert(0, str(ROOT))


def _before_module() -> types.ModuleType:
    """``league/swiss.py`` at BEFORE_COMMIT, loaded as a module of its own."""
    source = subprocess.run(["git", "show", f"{BEFORE_COMMIT}:league/swiss.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType("swiss_before")
    sys.modules[module.__name__] = module  # dataclasses look their module up
    exec(compile(source, "swiss_before.py", "exec"), module.__dict__)  # our own history, pinned by commit
    return module


def _pairers():
    from league import swiss

    before = _before_module()

    def old(ranked, *, played, byes, points, venues, rounds_left):
        homes = {team: seq.count("H") for team, seq in venues.items()}
        return before.swiss_pairings(ranked, played=played, byes=byes, home_counts=homes)

    def new(ranked, *, played, byes, points, venues, rounds_left):
        return swiss.swiss_pairings(ranked, played=played, byes=byes, points=points, venues=venues,
                                    rounds_left=rounds_left)

    return {"before": old, "after": new}, swiss.swiss_rounds_possible


def _sweep(pairers, rounds_possible, sizes, seeds):
    from tests.league.swiss_oracle import play

    totals = {name: _Totals() for name in pairers}
    print(f"{'teams':>5} {'':6} {'tourn.':>6} {'dead':>5} {'rem.':>4} {'cross':>6} {'min':>6} {'excess':>7} "
          f"{'3-in-row':>9} {'avoid.':>6} {'ms/pair':>8} {'ratio':>6}")
    for n in sizes:
        per_size = {name: _Totals() for name in pairers}
        for rounds in range(1, rounds_possible(n) + 1):
            for seed in range(seeds):
                for name, pair in pairers.items():
                    report = play(pair, n, rounds, (n, rounds, seed), bonus=seed % 2 == 1)
                    per_size[name].add(report, n)
                    totals[name].add(report, n)
        for name in pairers:
            print(per_size[name].line(f"{n:>5} {name:6}", per_size["before"]))
    print()
    for name in pairers:
        print(totals[name].line(f"{'all':>5} {name:6}", totals["before"]))


class _Totals:
    def __init__(self):
        self.tournaments = self.dead = self.rematches = self.cross = self.cross_min = 0
        self.teams = self.with_triple = self.avoidable = self.inconclusive = 0
        self.times: list[float] = []

    def add(self, report, n):
        self.tournaments += 1
        self.dead += report.dead_end
        self.rematches += report.rematches
        self.cross += report.cross
        self.cross_min += report.cross_min
        self.teams += n
        self.with_triple += report.teams_with_triple
        self.avoidable += report.avoidable_triples
        self.inconclusive += report.inconclusive
        if report.rounds:
            self.times.append(report.pairing_seconds / (report.rounds + report.dead_end))

    def line(self, label, before):
        excess = 100 * (self.cross - self.cross_min) / self.cross_min if self.cross_min else 0.0
        ms = 1000 * statistics.median(self.times)
        ratio = ms / (1000 * statistics.median(before.times))
        triple = 100 * self.with_triple / self.teams
        unsure = f"  ({self.inconclusive} rounds the referee could not settle)" if self.inconclusive else ""
        return (f"{label} {self.tournaments:>6} {self.dead:>5} {self.rematches:>4} {self.cross:>6} "
                f"{self.cross_min:>6} {excess:>6.1f}% {triple:>8.1f}% {self.avoidable:>6} {ms:>8.2f} "
                f"{ratio:>6.2f}{unsure}")


def _issue_cases(pairers, runs):
    from tests.league.swiss_oracle import play

    for n, rounds in ((6, 4), (16, 15)):
        counts = {name: sum(play(pair, n, rounds, ("issue", n, run), bonus=False, referee=False).dead_end
                            for run in range(runs)) for name, pair in pairers.items()}
        print(f"{n} teams x {rounds} rounds, {runs} runs: dead ends " +
              ", ".join(f"{name} {count}" for name, count in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="6-24", help="team counts, e.g. 6-24 or 8,12,16")
    parser.add_argument("--seeds", type=int, default=4, help="tournaments per size and number of rounds")
    parser.add_argument("--runs", type=int, default=200, help="runs of each of the issue's two cases")
    parser.add_argument("--quick", action="store_true", help="6-14 teams, 1 seed, 50 runs")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.seeds, args.runs = "6-14", 1, 50
    if "-" in args.sizes:
        low, high = (int(x) for x in args.sizes.split("-"))
        sizes = list(range(low, high + 1))
    else:
        sizes = [int(x) for x in args.sizes.split(",")]
    _setup()
    from league import swiss
    from tests.league.swiss_oracle import searches_out_of_steps

    pairers, rounds_possible = _pairers()
    print(f"Swiss pairing, before ({BEFORE_COMMIT[:7]}) and after, every allowed number of rounds, "
          f"{args.seeds} seed(s) each; 'excess' is cross-group pairs over the referee's minimum, "
          "'3-in-row' the share of teams given three home or away games in a row, 'avoid.' those avoidable "
          "(after the fewest floats), 'ratio' the time per pairing over before's.\n")
    with searches_out_of_steps(swiss) as ran_out:
        _sweep(pairers, rounds_possible, sizes, args.seeds)
        print()
        _issue_cases(pairers, args.runs)
    print(f"\nLook-ahead searches that ran out of steps (after): {len(ran_out)}")


if __name__ == "__main__":
    main()
