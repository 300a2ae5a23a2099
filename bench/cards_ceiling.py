"""Card game: how much are the international player's decisions worth? A measurement, never shipped.

    nice -n 10 .venv/bin/python bench/cards_ceiling.py [--games N] [--iterations K] [--peek] [--decisions]

Plays the card game's international player against club over seeds 0..N-1 (the international at home in
even seeds, away in odd ones) and prints its score with the 95% interval. ``--peek`` hands the search the
*real* position instead of its seat's determinisations (the hidden rows, the pile's order: everything), so
it measures the ceiling of what searching the same decisions (drop goal, penalty options) could be worth
with perfect knowledge -- an upper bound for any player that cannot see the cards. A peeking player still
plays the face-down cards as club does (the first one): choosing a card by peeking would be a different
game, not a better decision. ``--decisions`` counts the decisions of each kind per match (club v club).

Measured (2026-11-24, seeds 0-199 unless said, 95% intervals):

* decisions per match: ~148 blind card choices, 34.4 drop-goal offers (0.44 taken), 7.2 penalty options;
  a card choice is blind for every seat (its own row is face down too, and every unseen card is
  exchangeable with the pile), so only the drop goals and the penalties can separate two players;
* what those decisions are worth at all: a player that never drops a goal and always taps scores 38.6%
  [36.4-40.7] v club over 2,000 matches; random decisions 22.1% [20.3-23.9];
* international v club at 300 playouts (per move): 51.0% [44.1-57.9]; peeking at the real position at
  the same budget: 61.5% [54.7-68.3], and 69.5% [63.1-75.9] over seeds 200-399 (65.5% [60.8-70.2] over
  the 400) -- only knowing the cards of the next set (whether the drop goal goes over, whether the set
  ends in a try) clears 60%, and a seat that cannot see them knows nothing about them (every unseen card
  is exchangeable with the pile);
* tried and dropped, none separated from club: a learned win-chance table (4.9 million positions of 60,000
  club-v-club matches) judging the playouts: 49.5% [42.6-56.4]; the same table one step ahead as the
  default and the playout policy: 49.0% [42.1-55.9]; that one-step policy alone v club over 4,000
  matches: 50.2% [48.7-51.7], though it disagrees with club 3.5 times a match (mostly: a drop goal club
  declines);
* at 10x the budget (3,000 playouts) the search overrules club at 4.2% of its decisions (300: 3.3%),
  always with a drop goal club declined.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import random
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.levels import interval_text
from engine.chance import SeededChance
from engine.core import GameState, View
from engine.players import Player, Sampler, make_player, play_match, seat_rng
from engine.registry import new_game
from engine.rugby_league_cards.rules import RugbyLeagueCardsState

RULESET = "rugby-league-cards"


class Peeking(Player):
    """The international player handed the real position (forked with fresh chance) instead of samples."""

    level = "international"
    needs_view = True
    searches = True

    def __init__(self, inner):
        self.inner = inner
        self.state: GameState | None = None

    def needs_view_for(self, legal: list[str]) -> bool:
        return self.inner.needs_view_for(legal)

    def think(self, view: View, legal: list[str], rng: random.Random, sample: Sampler) -> str:
        real = sample._state  # measurement only: the shipped player never gets the state

        class RealSampler:
            seat = sample.seat

            def __call__(self, r: random.Random) -> GameState:
                return real.fork(SeededChance(r.getrandbits(64)))

        return self.inner.think(view, legal, rng, RealSampler())


def score(games: int, make, progress: int, first_seed: int = 0) -> dict:
    wins = draws = 0
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        seat = seed % 2
        players = {seat: make(), 1 - seat: make_player(RULESET, "club")}
        winner = play_match(new_game(RULESET, seed=seed), players).outcome().winner
        wins += winner == seat
        draws += winner is None
        played = seed + 1 - first_seed
        if progress and played % progress == 0:
            print(f"  ... after {played}: won {wins} drew {draws} lost {played - wins - draws} "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
    return {"wins": wins, "draws": draws, "losses": games - wins - draws, "games": games}


def decisions(games: int) -> None:
    """Decisions per match of each kind, club v club."""
    counts: collections.Counter[str] = collections.Counter()
    club = make_player(RULESET, "club")
    for seed in range(games):
        state = new_game(RULESET, seed=seed)
        assert isinstance(state, RugbyLeagueCardsState)
        rngs = {s: seat_rng(seed, s) for s in (0, 1)}
        while not state.is_over:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat, labels=False, legal=legal, for_player=True)
            action = club.choose(view, legal, rngs[seat])
            if "drop-goal" in legal:
                counts["drop-goal offered"] += 1
                counts["drop-goal taken"] += action == "drop-goal"
            elif "kick-for-goal" in legal or "kick-for-touch" in legal:
                counts[f"penalty: {action}"] += 1
            elif len(legal) > 1:
                counts["blind card choice"] += 1
            state.advance(seat, action)
    for kind, n in sorted(counts.items()):
        print(f"  {kind:30s} {n / games:6.2f} per match")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=None, help="playouts per decision (default: per move)")
    parser.add_argument("--peek", action="store_true")
    parser.add_argument("--decisions", action="store_true")
    parser.add_argument("--progress", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    if args.decisions:
        decisions(args.games)
        return 0

    def make():
        intl = make_player(RULESET, "international", iterations=args.iterations)
        return Peeking(intl) if args.peek else intl

    result = score(args.games, make, args.progress, args.first_seed)
    label = f"international{' (peeking)' if args.peek else ''} at {args.iterations or 'per-move'} playouts"
    seeds = f"seeds {args.first_seed}-{args.first_seed + args.games - 1}"
    print(f"{label} v club over {seeds}: won {result['wins']} drew {result['draws']} lost "
          f"{result['losses']}, {interval_text(result)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
