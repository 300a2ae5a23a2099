"""Engine benchmark: full matches per second per rule set, against the floor of its own chance draws.

    .venv/bin/python bench/engine.py [--games N] [--seconds S] [--winrate N] [--ruleset ID ...]

For every registered rule set it plays whole matches between random players
(the lean ``apply_unchecked`` path, and the checked ``apply`` path), and times a
floor that makes the same chance draws as those matches (``state.chance.draws``
of them: the very same rolls, picks and shuffles, recorded in an untimed run)
from the same seeded source and nothing else -- the speed no engine can beat.
The ratio engine time / floor time is the figure to watch: it depends far less
on how busy the machine is. Times are CPU time of this process.

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


def run_matches(ruleset: str, games: int, seconds: float, checked: bool) -> dict:
    """Play random-v-random matches from seed 0 until ``games`` or ``seconds`` CPU seconds."""
    draws: list[tuple[int, int]] = []
    actions = 0
    clock = time.process_time
    start = clock()
    elapsed = 0.0
    while len(draws) < games and (elapsed < seconds or not draws):
        seed = len(draws)
        state = play_match(new_game(ruleset, seed=seed), {0: RandomPlayer(), 1: RandomPlayer()}, checked=checked)
        draws.append((seed, state.chance.draws))
        actions += len(state.history)
        elapsed = clock() - start
    return {"games": len(draws), "seconds": elapsed, "draws": draws, "actions": actions}


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
    parser.add_argument("--games", type=int, default=2000, help="most matches per rule set (default 2000)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per rule set and path (default 3)")
    parser.add_argument("--winrate", type=int, default=0, help="also measure aware v random over N matches")
    parser.add_argument("--ruleset", action="append", help="only these rule sets (default: every registered one)")
    args = parser.parse_args(argv)

    specs = [s for s in rulesets() if not args.ruleset or s.id in args.ruleset]
    print(f"{'rule set':<22} {'path':<9} {'games':>6} {'actions':>8} {'draws':>7} {'matches/s':>10} "
          f"{'floor/s':>10} {'x floor':>8}")
    for spec in specs:
        for checked in (False, True):
            run = run_matches(spec.id, args.games, args.seconds, checked)
            recorded = record_draws(spec.id, run["games"])
            if sum(len(calls) for _seed, calls in recorded) != sum(count for _seed, count in run["draws"]):
                print(f"warning: {spec.id} made different chance draws when recorded (not deterministic?)")
            floor = run_floor(recorded)
            games = run["games"]
            total_draws = sum(count for _seed, count in run["draws"])
            rate = games / run["seconds"] if run["seconds"] else float("inf")
            floor_rate = games / floor if floor else float("inf")
            ratio = run["seconds"] / floor if floor else float("inf")
            print(f"{spec.id:<22} {'checked' if checked else 'lean':<9} {games:>6} {run['actions'] / games:>8.1f} "
                  f"{total_draws / games:>7.1f} {rate:>10.1f} {floor_rate:>10.1f} {ratio:>8.2f}")
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
