"""Engine benchmark: whole matches per second per rule set with the players simulations use, against a floor.

    .venv/bin/python bench/engine.py [--batch N] [--rounds R] [--winrate N] [--ruleset ID ...]

For every rule set it plays whole matches between **club** players (the level tournament simulations and the odds
use, through ``play_match``'s lean path, as they do: no legality checks, no events kept) -- and, for comparison in
the same run, between the pre-issue-20 "aware" players (frozen in ``bench/aware_v1``) and between random players.
Each is set against a **floor**: a plain loop that makes the very same chance draws as those matches (the same
rolls, picks and shuffles, recorded in an untimed run) from the same seeded source and nothing else -- the speed no
engine can beat. Each round times the matches and their floor alternately, ten seeds at a time (CPU time of this
process), so both see the same load; the figure is the **median over the rounds of floor time / match time** ("x
floor": 1.0 would be as fast as drawing the chance alone), beside the median matches/s. Targets (issue 17 item 5):
club at >= 0.2 of its floor for bokx, rugby-league-cards and rugby-champion-solo, and Seasons at >= 500 matches/s.

``--winrate N`` plays N seeded matches (seeds 0..N-1, seats swapped every match) of the club player
against the frozen aware player (two-player rule sets: the club side's wins, draws and losses; Rugby
Champion solo: each against the Non-player on the same seeds) and the club player against random play.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.aware_v1 import OLD_AWARE
from engine.chance import Chance, SeededChance, derive_seed
from engine.players import Player, RandomPlayer, make_player, play_match
from engine.registry import get_ruleset, new_game, rulesets

PlayerFactory = Callable[[], Player]


class RecordingChance(Chance):
    """A seeded chance source that records each call's kind and size (for the floor)."""

    def __init__(self, inner: SeededChance):
        self.inner = inner
        self.calls: list[tuple[str, int]] = []

    @property
    def draws(self) -> int:
        return self.inner.draws

    def roll(self, sides=6):
        self.calls.append(("roll", sides))
        return self.inner.roll(sides)

    def pick(self, options):
        self.calls.append(("pick", len(options)))
        return self.inner.pick(options)

    def shuffle(self, items):
        self.calls.append(("shuffle", len(items)))
        return self.inner.shuffle(items)

    def to_dict(self):
        return self.inner.to_dict()


def seats_of(ruleset: str, make: PlayerFactory) -> dict[int, Player]:
    return {seat: make() for seat in get_ruleset(ruleset).spec.person_seats}


def record_draws(ruleset: str, seeds: int, make: PlayerFactory) -> list[tuple[int, list[tuple[str, int]]]]:
    """The chance calls of the matches with seeds 0..seeds-1 between ``make()`` players (untimed)."""
    recorded = []
    for seed in range(seeds):
        chance = RecordingChance(SeededChance(derive_seed(seed, "chance")))
        play_match(new_game(ruleset, seed=seed, chance=chance), seats_of(ruleset, make))
        recorded.append((seed, chance.calls))
    return recorded


def run_batch(ruleset: str, seeds: range, make: PlayerFactory) -> tuple[float, int, int]:
    """CPU seconds to play the matches with these seeds; also their total actions and chance draws."""
    actions = draws = 0
    clock = time.process_time
    start = clock()
    for seed in seeds:
        state = play_match(new_game(ruleset, seed=seed), seats_of(ruleset, make), events=False)
        actions += len(state.history)
        draws += state.chance.draws
    return clock() - start, actions, draws


FloorPlan = list[tuple[int, list[tuple[str, Any]]]]


def floor_plans(recorded: list[tuple[int, list[tuple[str, int]]]]) -> FloorPlan:
    """Each recorded match's chance calls with their arguments made ready (untimed): a roll's sides, or the list
    a pick or shuffle is made on."""
    pools = {size: list(range(size)) for _seed, calls in recorded for kind, size in calls if kind != "roll"}
    return [(seed, [(kind, size if kind == "roll" else pools[size]) for kind, size in calls])
            for seed, calls in recorded]


def run_floor(plans: FloorPlan) -> float:
    """CPU seconds to make the same chance calls per match from the same seeded source, and nothing else."""
    clock = time.process_time
    start = clock()
    for seed, plan in plans:
        chance = SeededChance(derive_seed(seed, "chance"))
        roll, pick, shuffle = chance.roll, chance.pick, chance.shuffle
        for kind, arg in plan:
            if kind == "pick":
                pick(arg)
            elif kind == "roll":
                roll(arg)
            else:
                shuffle(arg)
    return clock() - start


# Matches and their floor alternate by slices of this many seeds within a round. Timed as two blocks, the floor's
# short block (a fifth of the matches' time) met whatever the shared machine was doing at that moment: the ratio
# of identical code moved by +-10 % between runs (0.171 v 0.197, perf17n). Alternating slices spread both over
# the same stretch of the machine's load.
SLICE = 10


def measure(ruleset: str, games: int, rounds: int, make: PlayerFactory) -> dict:
    """Paired rounds of (matches, floor), alternating by slices of seeds: medians of matches/s and of floor time /
    match time."""
    plans = floor_plans(record_draws(ruleset, games, make))
    ratios, rates = [], []
    actions = draws = 0
    for _ in range(rounds):
        seconds = floor = 0.0
        actions = draws = 0
        for first in range(0, games, SLICE):
            took, slice_actions, slice_draws = run_batch(ruleset, range(first, min(first + SLICE, games)), make)
            floor += run_floor(plans[first:first + SLICE])
            seconds += took
            actions += slice_actions
            draws += slice_draws
        ratios.append(floor / seconds)
        rates.append(games / seconds)
    if draws != sum(len(calls) for _seed, calls in plans):
        print(f"warning: {ruleset} made different chance draws when recorded (not deterministic?)")
    return {"actions": actions / games, "draws": draws / games, "rate": statistics.median(rates),
            "ratio": statistics.median(ratios), "spread": (min(ratios), max(ratios))}


def head_to_head(ruleset: str, games: int, new: PlayerFactory, old: PlayerFactory) -> dict:
    """``new`` v ``old`` over seeds 0..games-1, seats swapped every match (solo: each v the Non-player)."""
    spec = get_ruleset(ruleset).spec
    if spec.solo:
        result = {}
        for name, make in (("new", new), ("old", old)):
            wins = draws = margin = 0
            for seed in range(games):
                outcome = play_match(new_game(ruleset, seed=seed), {0: make()}).outcome()
                wins += outcome.winner == 0
                draws += outcome.winner is None
                margin += outcome.points[0] - outcome.points[1]
            result[name] = {"wins": wins, "draws": draws, "margin": margin / games}
        return result
    wins = draws = 0
    for seed in range(games):
        seat = seed % 2
        winner = play_match(new_game(ruleset, seed=seed), {seat: new(), 1 - seat: old()}).outcome().winner
        wins += winner == seat
        draws += winner is None
    return {"wins": wins, "draws": draws, "losses": games - wins - draws}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=200, help="matches per timed round (default 200)")
    parser.add_argument("--rounds", type=int, default=5, help="paired rounds per rule set and players (default 5)")
    parser.add_argument("--winrate", type=int, default=0, help="also play club v the frozen aware player, N games")
    parser.add_argument("--ruleset", action="append", help="only these rule sets (default: every registered one)")
    args = parser.parse_args(argv)

    specs = [s for s in rulesets() if not args.ruleset or s.id in args.ruleset]
    load = os.getloadavg()[0]
    print(f"median of {args.rounds} paired rounds of {args.batch} matches (seeds 0..{args.batch - 1}), CPU time; "
          f"load average {load:.2f} on {os.cpu_count()} CPUs")
    print(f"{'rule set':<22} {'players':<12} {'actions':>8} {'draws':>6} {'matches/s':>10} {'x floor':>8} "
          f"{'(min-max)':>13}")
    for spec in specs:
        rows: list[tuple[str, PlayerFactory]] = [
            ("club", lambda rs=spec.id: make_player(rs, "club")),
            ("aware (old)", OLD_AWARE[spec.id]),
            ("random", RandomPlayer),
        ]
        for name, make in rows:
            m = measure(spec.id, args.batch, args.rounds, make)
            low, high = m["spread"]
            print(f"{spec.id:<22} {name:<12} {m['actions']:>8.1f} {m['draws']:>6.1f} {m['rate']:>10.1f} "
                  f"{m['ratio']:>8.3f} {f'({low:.3f}-{high:.3f})':>13}")
            sys.stdout.flush()
    if args.winrate:
        print()
        for spec in specs:
            start = time.process_time()
            h2h = head_to_head(spec.id, args.winrate, lambda rs=spec.id: make_player(rs, "club"), OLD_AWARE[spec.id])
            seconds = time.process_time() - start
            if spec.solo:
                new, old = h2h["new"], h2h["old"]
                print(f"{spec.id:<22} v the Non-player over {args.winrate} games: club won {new['wins']} "
                      f"(drew {new['draws']}, mean margin {new['margin']:+.2f}), old aware won {old['wins']} "
                      f"(drew {old['draws']}, mean margin {old['margin']:+.2f}) ({seconds:.1f} s)")
            else:
                rate = h2h["wins"] / args.winrate
                score = (h2h["wins"] + h2h["draws"] / 2) / args.winrate
                print(f"{spec.id:<22} club v old aware: won {h2h['wins']}, drew {h2h['draws']}, lost "
                      f"{h2h['losses']} of {args.winrate} (win rate {100 * rate:.1f}%, score with draws "
                      f"as halves {100 * score:.1f}%; {seconds:.1f} s)")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
