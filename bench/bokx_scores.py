"""RUGBY_Bokx figures: score distribution of full matches and the aware player's win rate.

    .venv/bin/python bench/bokx_scores.py [--games 2000] [--half 40]

Prints, for aware v aware and random v random, the mean and spread (standard deviation) of points
and tries per side, the share of drawn matches and a few per-match stats; then the aware player's win
rate against the random player (alternating home and away). The clock (game seconds per play string,
engine/bokx/rules.py SECONDS) is tuned so aware v aware scores like test rugby.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.players import RandomPlayer, make_player, play_match
from engine.registry import new_game


def run(games: int, half: int, levels: tuple[str, str]) -> dict:
    points, tries, margins, actions = [], [], [], []
    stats = {"penalties": 0, "referee_cards": 0, "kicks": 0, "scrums_won": 0, "lineouts_won": 0,
             "penalty_goals": 0, "drop_goals": 0}
    draws = 0
    start = time.process_time()
    for seed in range(games):
        g = new_game("bokx", seed=seed, options={"half_minutes": half})
        play_match(g, {s: make_player("bokx", levels[s]) for s in (0, 1)})
        o = g.outcome()
        points += o.points
        tries += o.tries
        margins.append(abs(o.points[0] - o.points[1]))
        actions.append(len(g.history))
        draws += o.winner is None
        for side in o.stats:
            for k in stats:
                stats[k] += side[k]
    return {"seconds": time.process_time() - start, "points": points, "tries": tries, "margins": margins,
            "actions": actions, "draws": draws, "stats": {k: v / games for k, v in stats.items()}}


def win_rate(games: int, half: int) -> tuple[int, int, int]:
    won = drawn = lost = 0
    for seed in range(games):
        aware = seed % 2
        g = new_game("bokx", seed=seed, options={"half_minutes": half})
        play_match(g, {aware: make_player("bokx", "aware"), 1 - aware: RandomPlayer()})
        w = g.outcome().winner
        won += w == aware
        drawn += w is None
        lost += w == 1 - aware
    return won, drawn, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--half", type=int, default=40)
    args = parser.parse_args()
    for levels in (("aware", "aware"), ("random", "random")):
        r = run(args.games, args.half, levels)
        pts, trs = r["points"], r["tries"]
        q = statistics.quantiles(pts, n=10)
        print(f"{levels[0]} v {levels[1]}: {args.games} matches of 2 x {args.half} min, "
              f"{args.games / r['seconds']:.0f} matches/s, {statistics.mean(r['actions']):.0f} actions/match")
        print(f"  points per side: mean {statistics.mean(pts):.1f}, sd {statistics.pstdev(pts):.1f}, "
              f"10th-90th percentile {q[0]:.0f}-{q[-1]:.0f}, max {max(pts)}")
        print(f"  tries per side:  mean {statistics.mean(trs):.2f}, sd {statistics.pstdev(trs):.2f}; "
              f"winning margin mean {statistics.mean(r['margins']):.1f}; draws {100 * r['draws'] / args.games:.1f}%")
        print("  per match: " + ", ".join(f"{k} {v:.1f}" for k, v in r["stats"].items()))
    won, drawn, lost = win_rate(args.games, args.half)
    print(f"aware v random: won {won}, drew {drawn}, lost {lost} of {args.games} "
          f"(win rate {100 * won / args.games:.1f}%, points share {100 * (won + drawn / 2) / args.games:.1f}%)")


if __name__ == "__main__":
    main()
