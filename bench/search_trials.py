"""Quick trials of the international player's settings against club (Bokx) or the Non-player (Rugby Champion).

    .venv/bin/python bench/search_trials.py bokx --games 200 --iterations 48 [--horizon H] [--confidence C]
    .venv/bin/python bench/search_trials.py rugby-champion-solo --games 400 --iterations 48 [...]

For trying an idea on 100-400 matches before a full ``bench/levels.py`` run (issue 20): a variant of the rule
set's international player with the given class settings plays seeds ``--first-seed``.. (Bokx: against club,
seats swapped by seed; Rugby Champion: the same seeds as club, compared seed by seed). ``--iterations`` is
the budget of the ceiling experiments (e.g. 10x the bulk budget). Prints the score with its 95% interval.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.players import make_player, play_match
from engine.registry import new_game


def score(winner: int | None, seat: int) -> float:
    return 0.5 if winner is None else 1.0 if winner == seat else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset", choices=("bokx", "rugby-champion-solo"))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=48)
    parser.add_argument("--horizon", type=int)
    parser.add_argument("--confidence", type=float)
    args = parser.parse_args(argv)
    rs = args.ruleset
    settings = {k: v for k, v in (("horizon", args.horizon), ("confidence", args.confidence)) if v is not None}
    variant = type("Variant", (type(make_player(rs, "international")),), settings)
    started = time.process_time()
    mine: list[float] = []
    club: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        if rs == "bokx":
            seat = seed % 2
            players = {seat: variant(iterations=args.iterations), 1 - seat: make_player(rs, "club")}
            mine.append(score(play_match(new_game(rs, seed=seed), players).outcome().winner, seat))
        else:
            mine.append(score(play_match(new_game(rs, seed=seed), {0: variant(iterations=args.iterations)})
                              .outcome().winner, 0))
            club.append(score(play_match(new_game(rs, seed=seed), {0: make_player(rs, "club")}).outcome().winner, 0))
    n = len(mine)
    mean = sum(mine) / n
    half = 1.96 * math.sqrt(sum((s - mean) ** 2 for s in mine) / max(n - 1, 1) / n)
    line = (f"{rs} {settings or 'defaults'} at {args.iterations} playouts, {n} matches: score {100 * mean:.1f}% "
            f"[{100 * (mean - half):.1f}-{100 * (mean + half):.1f}]")
    if club:
        diffs = [a - b for a, b in zip(mine, club, strict=True)]
        d = sum(diffs) / n
        dh = 1.96 * math.sqrt(sum((x - d) ** 2 for x in diffs) / max(n - 1, 1) / n)
        line += f"; club {100 * sum(club) / n:.1f}%, paired difference {100 * d:+.1f} [{100 * (d - dh):+.1f} to " \
                f"{100 * (d + dh):+.1f}]"
    print(line + f" ({time.process_time() - started:.0f} s of CPU, load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
