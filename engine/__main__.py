"""Command line: try a rule set and script checks.

    python -m engine simulate RULESET --seed N [--home LEVEL] [--away LEVEL] [--think-ms N | --iterations N]
                                      [--json] [--games K] [--option key=value ...]
    python -m engine rulesets

LEVEL is ``beginner``, ``club`` (the default) or ``international`` (also ``random``, the engine's
baseline, and ``aware``, the former name of ``club``). ``--think-ms N`` gives the international player a
time budget of N ms per move (not reproducible); ``--iterations N`` a fixed number of playouts per move
(the same moves for the same seed); without either it uses its default per-move budget.

One match prints its commentary (or, with ``--json``, only its result); with
``--games K`` it plays K matches with seeds N, N+1, ... and prints a summary.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from typing import Any

from engine.core import SEAT_NAMES, GameState
from engine.players import ACCEPTED_LEVELS, make_player, play_match
from engine.registry import KNOWN_RULESETS, get_ruleset, new_game, rulesets


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """``["key=value", ...]`` -> dict (values are converted by the rule set's option types)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def play_one(ruleset: str, seed: int, options: dict[str, Any], home: str, away: str, *,
             think_ms: float | None = None, iterations: int | None = None) -> GameState:
    """Play one match with computer players; return the finished state."""
    state = new_game(ruleset, seed=seed, options=options)
    seats = state.spec.person_seats
    levels = {0: home, 1: away}
    return play_match(state, {seat: make_player(ruleset, levels[seat], think_ms=think_ms, iterations=iterations)
                              for seat in seats})


def match_summary(ruleset: str, seed: int, state: GameState) -> dict[str, Any]:
    """The ``--json`` result of one match."""
    outcome = state.outcome()
    winner = outcome.winner
    result = outcome.to_dict()
    return {
        "ruleset": ruleset,
        "seed": seed,
        "home": {"points": result["home"]["points"], "tries": result["home"]["tries"]},
        "away": {"points": result["away"]["points"], "tries": result["away"]["tries"]},
        "winner": "draw" if winner is None else SEAT_NAMES[winner],
        "actions": len(state.history),
    }


def simulate_many(ruleset: str, seed: int, games: int, options: dict[str, Any], home: str,
                  away: str, *, think_ms: float | None = None, iterations: int | None = None) -> dict[str, Any]:
    """Play ``games`` matches with seeds ``seed, seed+1, ...``; return the summary."""
    home_wins = away_wins = draws = 0
    points: int | Fraction = 0
    tries = 0
    start = time.perf_counter()
    for n in range(games):
        outcome = play_one(ruleset, seed + n, options, home, away, think_ms=think_ms,
                           iterations=iterations).outcome()
        winner = outcome.winner
        if winner is None:
            draws += 1
        elif winner == 0:
            home_wins += 1
        else:
            away_wins += 1
        points += outcome.points[0] + outcome.points[1]
        tries += outcome.tries[0] + outcome.tries[1]
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "home_wins": home_wins,
        "away_wins": away_wins,
        "draws": draws,
        "mean_points": float(points) / games,
        "mean_tries": tries / games,
        "matches_per_second": round(games / elapsed, 1) if elapsed > 0 else None,
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description="Play rule sets from the command line.")
    sub = parser.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play one match (or --games K) with computer players")
    sim.add_argument("ruleset", help=f"rule set id: {', '.join(KNOWN_RULESETS)}")
    sim.add_argument("--seed", type=int, default=0, help="match seed (first seed with --games)")
    sim.add_argument("--home", choices=ACCEPTED_LEVELS, default="club", help="home player's level (default: club)")
    sim.add_argument("--away", choices=ACCEPTED_LEVELS, default="club", help="away player's level (default: club)")
    budget = sim.add_mutually_exclusive_group()
    budget.add_argument("--think-ms", type=float, default=None, metavar="N",
                        help="the international player's time budget per move, in ms (not reproducible)")
    budget.add_argument("--iterations", type=int, default=None, metavar="N",
                        help="the international player's playouts per move (reproducible)")
    sim.add_argument("--json", action="store_true", help="print only JSON")
    sim.add_argument("--games", type=int, default=None, help="play K matches with seeds N, N+1, ... and summarise")
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rule-set option")
    sub.add_parser("rulesets", help="list the available rule sets and their options")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "rulesets":
        print(json.dumps([spec.to_dict() for spec in rulesets()], indent=2))
        return 0
    try:
        cls = get_ruleset(args.ruleset)
        options = cls.spec.resolve_options(parse_options(args.option))
        for level in {args.home, args.away}:
            make_player(args.ruleset, level, think_ms=args.think_ms, iterations=args.iterations)
        new_game(args.ruleset, seed=args.seed, options=options)  # the rule set's own checks of its options
    except (KeyError, ValueError) as exc:
        print(f"error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    opponent = "the game's automaton" if cls.spec.solo else f"{args.away} (away)"
    if args.games is not None:
        if args.games < 1:
            print("error: --games must be at least 1", file=sys.stderr)
            return 2
        summary = simulate_many(args.ruleset, args.seed, args.games, options, args.home, args.away,
                                think_ms=args.think_ms, iterations=args.iterations)
        if args.json:
            print(json.dumps(summary))
        else:
            print(f"{cls.spec.name}: {summary['games']} matches from seed {args.seed}, "
                  f"{args.home} (home) v {opponent}")
            print(f"home wins {summary['home_wins']}, away wins {summary['away_wins']}, draws {summary['draws']}")
            print(f"mean points {summary['mean_points']:.2f}, mean tries {summary['mean_tries']:.2f} per match; "
                  f"{summary['matches_per_second']} matches/s")
        return 0
    state = play_one(args.ruleset, args.seed, options, args.home, args.away, think_ms=args.think_ms,
                     iterations=args.iterations)
    summary = match_summary(args.ruleset, args.seed, state)
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{cls.spec.name}, seed {args.seed}: {args.home} (home) v {opponent}")
    for event in state.events:
        if event.private_to is None:
            print(event.text)
    print(f"Result: home {summary['home']['points']} ({summary['home']['tries']} tries), "
          f"away {summary['away']['points']} ({summary['away']['tries']} tries), winner {summary['winner']}; "
          f"{summary['actions']} actions.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # Output piped into `head` and closed early: not an error of the simulation.
        sys.stderr.close()
        sys.exit(0)
