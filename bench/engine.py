"""Engine benchmark: full matches per second per rule set, against the floor of its own chance draws.

    .venv/bin/python bench/engine.py [--batch N] [--repeat R] [--seconds S] [--winrate N] [--ruleset ID ...]

For every registered rule set it plays whole matches between random players
(the lean ``apply_unchecked`` path, and the checked ``apply`` path), and times a
floor that makes the same chance draws as those matches (``state.chance.draws``
of them: the very same rolls, picks and shuffles, recorded in an untimed run)
from the same seeded source and nothing else -- the speed no engine can beat.
The ratio engine time / floor time is the figure to watch: it depends far less
on how busy the machine is. Times are CPU time of this process; a batch of
matches (seeds 0..N-1) is timed R times and, as timeit does, the best round is
reported (noise from other processes only ever adds time), beside the mean.

With ``--winrate N`` it also plays N seeded matches of the aware player against
the random player (alternating home and away) and prints the aware side's win rate.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from engine.chance import Chance, SeededChance, derive_seed
from engine.players import RandomPlayer, make_player, play_match
from engine.registry import new_game, rulesets


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


def record_draws(ruleset: str, seeds: int) -> list[tuple[int, list[tuple[str, int]]]]:
    """The chance calls of the random-v-random matches with seeds 0..seeds-1 (untimed)."""
    recorded = []
    for seed in range(seeds):
        chance = RecordingChance(SeededChance(derive_seed(seed, "chance")))
        play_match(new_game(ruleset, seed=seed, chance=chance), {0: RandomPlayer(), 1: RandomPlayer()})
        recorded.append((seed, chance.calls))
    return recorded


def run_batch(ruleset: str, games: int, checked: bool) -> tuple[float, int, int]:
    """CPU seconds to play random-v-random matches with seeds 0..games-1; also total actions and draws."""
    actions = draws = 0
    clock = time.process_time
    start = clock()
    for seed in range(games):
        state = play_match(new_game(ruleset, seed=seed), {0: RandomPlayer(), 1: RandomPlayer()}, checked=checked)
        actions += len(state.history)
        draws += state.chance.draws
    return clock() - start, actions, draws


def run_floor(recorded: list[tuple[int, list[tuple[str, int]]]]) -> float:
    """CPU seconds to make the same chance calls per match from the same seeded source, and nothing else."""
    pools = {size: list(range(size)) for _seed, calls in recorded for kind, size in calls if kind != "roll"}
    plans = [(seed, [(kind, size if kind == "roll" else pools[size]) for kind, size in calls])
             for seed, calls in recorded]
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


def win_rate(ruleset: str, games: int) -> dict:
    """Aware v random over ``games`` seeded matches, the aware player alternating home and away."""
    wins = draws = 0
    start = time.process_time()
    for seed in range(games):
        aware_seat = seed % 2
        players = {aware_seat: make_player(ruleset, "aware"), 1 - aware_seat: RandomPlayer()}
        winner = play_match(new_game(ruleset, seed=seed), players).outcome().winner
        if winner is None:
            draws += 1
        elif winner == aware_seat:
            wins += 1
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "rate": wins / games, "seconds": time.process_time() - start}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=200, help="matches per timed round (default 200)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds per rule set and path (default 5)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="no new round once a rule set and path has used this many CPU seconds (default 10)")
    parser.add_argument("--winrate", type=int, default=0, help="also measure aware v random over N matches")
    parser.add_argument("--ruleset", action="append", help="only these rule sets (default: every registered one)")
    args = parser.parse_args(argv)

    specs = [s for s in rulesets() if not args.ruleset or s.id in args.ruleset]
    print(f"best of up to {args.repeat} rounds of {args.batch} matches (seeds 0..{args.batch - 1}), CPU time")
    print(f"{'rule set':<22} {'path':<8} {'actions':>8} {'draws':>6} {'matches/s':>10} {'mean/s':>8} "
          f"{'floor/s':>9} {'x floor':>8}")
    for spec in specs:
        recorded = record_draws(spec.id, args.batch)
        for checked in (False, True):
            times, floors = [], []
            actions = draws = 0
            while len(times) < args.repeat and (not times or sum(times) < args.seconds):
                seconds, actions, draws = run_batch(spec.id, args.batch, checked)
                times.append(seconds)
                floors.append(run_floor(recorded))
            if draws != sum(len(calls) for _seed, calls in recorded):
                print(f"warning: {spec.id} made different chance draws when recorded (not deterministic?)")
            best, floor = min(times), min(floors)
            games = args.batch
            print(f"{spec.id:<22} {'checked' if checked else 'lean':<8} {actions / games:>8.1f} {draws / games:>6.1f} "
                  f"{games / best:>10.1f} {games * len(times) / sum(times):>8.1f} {games / floor:>9.1f} "
                  f"{best / floor:>8.2f}")
            sys.stdout.flush()
    if args.winrate:
        print()
        for spec in specs:
            try:
                make_player(spec.id, "aware")
            except KeyError:
                print(f"{spec.id:<22} no aware player")
                continue
            result = win_rate(spec.id, args.winrate)
            print(f"{spec.id:<22} aware v random: won {result['wins']}, drew {result['draws']}, lost "
                  f"{result['losses']} of {result['games']} (win rate {100 * result['rate']:.1f}%, "
                  f"{result['seconds']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
