"""Computer levels: each level against each other, ratings, time per move, and realism at club level.

    .venv/bin/python bench/levels.py [--games N] [--ruleset ID ...] [--intl-iterations K] [--move-sample M]
                                     [--move-games G] [--intl-self-play S] [--progress P]

A full run (1,000 matches, every rule set) takes about an hour of one core; on a shared machine run one rule
set per process under ``nice`` with ``--progress 100``, so that a run that must be stopped leaves its counts.

For every two-player rule set, each pair of levels (beginner, club, international) plays ``--games`` seeded
matches (seeds 0..N-1, or from ``--first-seed``; the first level at home in even seeds, away in odd ones). Rugby
Champion is solo: each level plays the same seeds against the Non-player. Printed:

* the level-v-level table (wins, draws, losses of the row's level; "score" counts a draw as half, with its
  95% confidence interval);
* an Elo-style rating per level, the maximum-likelihood fit of all the pairings (club anchored at 1500;
  solo: the Non-player anchored at 1500);
* time per move of each level, median and 95th percentile, over every real decision (two or more legal
  actions) of those matches -- for the international player at the budget it played with, and separately at
  its default per-move budget (the one a person meets) over ``--move-sample`` decisions;
* realism at club level: points and tries per match and the draw rate (club v club), against the bands the
  issues set (Bokx: 40-65 points, 4.5-8 tries); the card game's figures beside the NRL's ~40 points and ~7
  tries, untuned; and for Seasons the self-play figures of issue 20 (seasons ending 0-0, drafts without an
  exchange) for club, for the frozen pre-issue-20 aware player and for international v international
  (``--intl-self-play`` matches), with the share of season 1 -- scored at the deal, before any draft -- that
  ends 0-0: what chance alone gives.

The international player plays the matches with ``--intl-iterations`` playouts per move (default: its
bulk-simulation budget, so that a full run ends in reasonable time); its strength at the per-move budget is
at least that.
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import statistics
import sys
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from bench.aware_v1 import OLD_AWARE
from engine.core import View
from engine.players import LEVELS, Player, Sampler, make_player, play_match, seat_rng
from engine.registry import get_ruleset, new_game, rulesets
from engine.search import SearchPlayer

BANDS = {"bokx": {"points": (40, 65), "tries": (4.5, 8.0)}}
NRL = {"points": 40, "tries": 7}
# Each pair of levels, the weaker first; played in this order.
PAIRINGS = (("club", "international"), ("beginner", "club"), ("beginner", "international"))


class Timed(Player):
    """Wraps a player and records the CPU time of each real decision (two or more legal actions)."""

    def __init__(self, inner: Player, times: list[float]):
        self.inner = inner
        self.times = times
        self.level = inner.level
        self.needs_view = inner.needs_view
        self.searches = inner.searches

    def needs_view_for(self, legal: list[str]) -> bool:
        return self.inner.needs_view_for(legal)

    def choose(self, view: View | None, legal: list[str], rng) -> str:
        start = time.process_time()
        action = self.inner.choose(view, legal, rng)
        if len(legal) > 1:
            self.times.append(time.process_time() - start)
        return action

    def think(self, view: View, legal: list[str], rng, sample: Sampler) -> str:
        start = time.process_time()
        action = self.inner.think(view, legal, rng, sample)
        if len(legal) > 1:
            self.times.append(time.process_time() - start)
        return action


def factory(ruleset: str, level: str, intl_iterations: int | None) -> Callable[[], Player]:
    if level == "international":
        return lambda: make_player(ruleset, level, iterations=intl_iterations, simulation=intl_iterations is None)
    return lambda: make_player(ruleset, level)


def pairing(ruleset: str, games: int, first: Callable[[], Player], second: Callable[[], Player],
            times: tuple[list[float], list[float]], progress: int = 0, first_seed: int = 0) -> dict:
    """``first`` v ``second`` over seeds first_seed..first_seed+games-1, ``first`` at home in even seeds (the
    running count printed every ``progress`` matches)."""
    wins = draws = 0
    for played, seed in enumerate(range(first_seed, first_seed + games), start=1):
        seat = seed % 2
        players = {seat: Timed(first(), times[0]), 1 - seat: Timed(second(), times[1])}
        winner = play_match(new_game(ruleset, seed=seed), players).outcome().winner
        wins += winner == seat
        draws += winner is None
        if progress and played % progress == 0 and played < games:
            # A long run on a busy machine may have to be stopped: what it has played so far is on record.
            print(f"  ... after {played}: won {wins} drew {draws} lost {played - wins - draws}", flush=True)
    return {"wins": wins, "draws": draws, "losses": games - wins - draws, "games": games}


def solo_run(ruleset: str, games: int, make: Callable[[], Player], times: list[float]) -> dict:
    wins = draws = 0
    points = [0, 0]
    tries = [0, 0]
    scores: list[float] = []  # per seed: 1 won, 1/2 drawn, 0 lost (for the paired comparison of two levels)
    for seed in range(games):
        outcome = play_match(new_game(ruleset, seed=seed), {0: Timed(make(), times)}).outcome()
        wins += outcome.winner == 0
        draws += outcome.winner is None
        scores.append(1.0 if outcome.winner == 0 else 0.5 if outcome.winner is None else 0.0)
        for side in (0, 1):
            points[side] += int(outcome.points[side])
            tries[side] += outcome.tries[side]
    return {"wins": wins, "draws": draws, "losses": games - wins - draws, "games": games, "scores": scores,
            "points": (points[0] / games, points[1] / games), "tries": (tries[0] / games, tries[1] / games)}


def paired_text(stronger: dict, weaker: dict) -> str:
    """Two levels' scores over the same seeds, seed by seed: the mean difference with its 95% interval (the
    normal approximation of the per-seed differences) and the seeds each did better in. The same deals played
    by both levels make this much tighter than comparing the two intervals."""
    diffs = [a - b for a, b in zip(stronger["scores"], weaker["scores"], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(n - 1, 1) / n)
    low, high = 100 * (mean - 1.96 * spread), 100 * (mean + 1.96 * spread)
    verdict = "yes" if low > 0 else ("no" if high < 0 else "not separated")
    return (f"{100 * mean:+.1f} points of score [95% CI {low:+.1f} to {high:+.1f}] {verdict}; better in "
            f"{sum(d > 0 for d in diffs)} seeds, worse in {sum(d < 0 for d in diffs)}, the same in "
            f"{sum(d == 0 for d in diffs)}")


def score_interval(r: dict) -> tuple[float, float, float]:
    """The score (a win 1, a draw 1/2) of the row's level as a percentage with its 95% confidence interval: the
    normal approximation of the mean of the per-match scores (their sample variance), clipped to 0-100."""
    n = r["games"]
    mean = (r["wins"] + r["draws"] / 2) / n
    second = (r["wins"] + r["draws"] / 4) / n
    half = 1.96 * math.sqrt(max(second - mean * mean, 0.0) / max(n - 1, 1))
    return 100 * mean, 100 * max(mean - half, 0.0), 100 * min(mean + half, 1.0)


def interval_text(r: dict) -> str:
    score, low, high = score_interval(r)
    return f"score {score:5.1f}% [95% CI {low:5.1f}-{high:5.1f}]"


def ladder_step(results: dict[tuple[str, str], dict], weaker: str, stronger: str) -> str:
    """Whether ``stronger`` beats ``weaker``: its score with the 95% interval, and whether the interval clears 50%."""
    r = results[(weaker, stronger)]
    flipped = {"wins": r["losses"], "draws": r["draws"], "losses": r["wins"], "games": r["games"]}
    score, low, high = score_interval(flipped)
    verdict = "yes" if low > 50 else ("no" if high < 50 else "not separated")
    return f"{stronger} > {weaker}: {score:.1f}% [{low:.1f}-{high:.1f}] {verdict}"


def elo(results: dict[tuple[str, str], dict], names: list[str], anchor: str) -> dict[str, float]:
    """Elo ratings: the maximum-likelihood Bradley-Terry fit of the pairwise scores (a draw counts half; half a
    point of prior each way keeps a whitewash finite), with ``anchor`` at 1500."""
    score = {(a, b): r["wins"] + r["draws"] / 2 + 0.5 for (a, b), r in results.items()}
    score.update({(b, a): r["losses"] + r["draws"] / 2 + 0.5 for (a, b), r in results.items()})
    games = {pair: r["games"] + 1 for pair, r in results.items()}
    games.update({(b, a): n for (a, b), n in list(games.items())})
    strength = dict.fromkeys(names, 1.0)
    for _ in range(1000):  # the MM iteration (Hunter 2004)
        for name in names:
            won = sum(v for (a, _b), v in score.items() if a == name)
            spread = sum(n / (strength[a] + strength[b]) for (a, b), n in games.items() if a == name)
            strength[name] = won / spread
    base = math.log10(strength[anchor])
    return {name: 1500 + 400 * (math.log10(strength[name]) - base) for name in names}


def quantiles(times: list[float]) -> str:
    if not times:
        return "no decisions"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {1000 * statistics.median(ordered):7.2f} ms, p95 {1000 * p95:7.2f} ms ({len(ordered)} moves)"


def move_budget_times(ruleset: str, moves: int) -> list[float]:
    """CPU time of the international player's real decisions at its default per-move budget (club opponents)."""
    spec = get_ruleset(ruleset).spec
    times: list[float] = []
    seed = 10_000
    while len(times) < moves:
        state = new_game(ruleset, seed=seed)
        intl = make_player(ruleset, "international")
        assert isinstance(intl, SearchPlayer)
        club = make_player(ruleset, "club")
        rngs = {s: seat_rng(seed, s) for s in spec.person_seats}
        while not state.is_over and len(times) < moves:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat, labels=False, legal=legal, for_player=True)
            if seat == 0:
                start = time.process_time()
                action = intl.think(view, legal, rngs[seat], Sampler(state, seat))
                if len(legal) > 1 and len(intl.candidates(view, legal)) > 1:
                    times.append(time.process_time() - start)
            else:
                action = club.choose(view, legal, rngs[seat])
            state.advance(seat, action)
        seed += 1
    return times


def club_realism(ruleset: str, games: int, make: Callable[[], Player]) -> dict:
    points = tries = draws = 0
    nil = seasons = drafts = dry = dealt_nil = 0
    for seed in range(games):
        state = play_match(new_game(ruleset, seed=seed), {0: make(), 1: make()})
        outcome = state.outcome()
        points += outcome.points[0] + outcome.points[1]
        tries += outcome.tries[0] + outcome.tries[1]
        draws += outcome.winner is None
        if ruleset == "seasons":
            for index, result in enumerate(state.results):  # type: ignore[attr-defined]
                seasons += 1
                nil += result["points"] == [0, 0]
                # Season 1 is scored at the deal, before any draft: the share of 0-0 that chance alone gives.
                dealt_nil += index == 0 and result["points"] == [0, 0]
            exchanges = None
            for event in state.events:
                if event.kind == "draft":
                    exchanges = 0
                elif event.kind == "swap" and exchanges is not None:
                    exchanges += 1
                elif event.kind == "retire" and exchanges is not None:
                    drafts += 1
                    dry += exchanges == 0
                    exchanges = None
    out = {"points": float(points) / games, "tries": tries / games, "draw_rate": draws / games}
    if ruleset == "seasons":
        out.update(nil=nil / seasons, dry=dry / drafts, seasons=seasons / games, dealt_nil=dealt_nil / games)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="matches per pairing (default 1000)")
    parser.add_argument("--ruleset", action="append", help="only these rule sets (default: all)")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="the pairings' first seed (default 0): a long run split over processes, e.g. "
                             "--games 500 and --games 500 --first-seed 500")
    parser.add_argument("--intl-iterations", type=int, default=None,
                        help="playouts per move of the international player (default: its simulation budget)")
    parser.add_argument("--move-sample", type=int, default=200,
                        help="decisions timed at the international player's per-move budget (default 200)")
    parser.add_argument("--pairings", default=",".join(f"{a}-{b}" for a, b in PAIRINGS),
                        help="two-player rule sets: only these pairings, e.g. club-international, or none (the "
                             "realism and time figures still run); default all")
    parser.add_argument("--progress", type=int, default=0,
                        help="print each pairing's running count every N matches (default: only at the end)")
    parser.add_argument("--intl-self-play", type=int, default=100,
                        help="Seasons: also N matches of international v international for the self-play figures "
                             "(default 100; 0 to skip)")
    parser.add_argument("--move-games", type=int, default=0,
                        help="also play N matches of the international player at its per-move budget v club")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; {args.games} matches per pairing; "
          f"CPU times")
    for spec in rulesets():
        if args.ruleset and spec.id not in args.ruleset:
            continue
        rs = spec.id
        intl = make_player(rs, "international", iterations=args.intl_iterations,
                           simulation=args.intl_iterations is None)
        assert isinstance(intl, SearchPlayer)
        print(f"\n== {spec.name} ({rs}); international at {intl.iterations} playouts per move "
              f"(per-move default {type(intl).move_iterations}, bulk {type(intl).simulation_iterations})")
        times: dict[str, list[float]] = {level: [] for level in LEVELS}
        makers = {level: factory(rs, level, args.intl_iterations) for level in LEVELS}
        started = time.process_time()
        if spec.solo:
            results = {}
            for level in LEVELS:
                r = solo_run(rs, args.games, makers[level], times[level])
                results[(level, "non-player")] = r
                print(f"{level:<14} v the Non-player: won {r['wins']:>4} drew {r['draws']:>3} lost {r['losses']:>4} "
                      f"(win {100 * r['wins'] / r['games']:5.1f}%, {interval_text(r)}); points {r['points'][0]:.1f}-"
                      f"{r['points'][1]:.1f}, tries {r['tries'][0]:.2f}-{r['tries'][1]:.2f}")
            ratings = elo(results, [*LEVELS, "non-player"], "non-player")
            for weaker, stronger in zip(LEVELS, LEVELS[1:], strict=False):
                print(f"{stronger} v {weaker} on the same seeds: "
                      f"{paired_text(results[(stronger, 'non-player')], results[(weaker, 'non-player')])}")
        else:
            results = {}
            # The pairing the target is about first (its line is printed as soon as it is played).
            for a, b in PAIRINGS:
                if f"{a}-{b}" not in args.pairings:
                    continue
                r = pairing(rs, args.games, makers[a], makers[b], (times[a], times[b]), args.progress,
                            first_seed=args.first_seed)
                results[(a, b)] = r
                print(f"{a:<14} v {b:<14}: won {r['wins']:>4} drew {r['draws']:>3} lost {r['losses']:>4} "
                      f"(win {100 * r['wins'] / r['games']:5.1f}%, {interval_text(r)})")
                sys.stdout.flush()
            if not results:
                print("no pairings played (--pairings none)")
        if not spec.solo and results:
            print("table (score of the row's level v the column's, draws as halves):")
            print(" " * 15 + "".join(f"{b:>15}" for b in LEVELS))
            for a in LEVELS:
                cells = []
                for b in LEVELS:
                    if a == b:
                        cells.append(f"{'-':>15}")
                    elif (a, b) in results:
                        r = results[(a, b)]
                        cells.append(f"{100 * (r['wins'] + r['draws'] / 2) / r['games']:>14.1f}%")
                    elif (b, a) in results:
                        r = results[(b, a)]
                        cells.append(f"{100 * (r['losses'] + r['draws'] / 2) / r['games']:>14.1f}%")
                    else:
                        cells.append(f"{'not played':>15}")
                print(f"{a:<15}" + "".join(cells))
            played = [level for level in LEVELS if any(level in pair for pair in results)]
            ratings = elo(results, played, "club") if "club" in played else {}
            print("ladder: " + "; ".join(ladder_step(results, weaker, stronger)
                                         for weaker, stronger in zip(LEVELS, LEVELS[1:], strict=False)
                                         if (weaker, stronger) in results))
        if results:
            print("Elo: " + ", ".join(f"{name} {rating:.0f}" for name, rating in ratings.items()))
        for level in LEVELS:
            print(f"time per move, {level:<14} {quantiles(times[level])}")
        if args.move_sample:
            print(f"time per move, international at its per-move budget ({type(intl).move_iterations} playouts): "
                  f"{quantiles(move_budget_times(rs, args.move_sample))}")
        if args.move_games:
            strong = factory(rs, "international", type(intl).move_iterations)
            if spec.solo:
                r = solo_run(rs, args.move_games, strong, [])
                print(f"international at {type(intl).move_iterations} playouts v the Non-player over "
                      f"{args.move_games} matches: won {r['wins']} drew {r['draws']} lost {r['losses']} (win "
                      f"{100 * r['wins'] / r['games']:.1f}%); points {r['points'][0]:.1f}-{r['points'][1]:.1f}")
            else:
                r = pairing(rs, args.move_games, strong, makers["club"], ([], []))
                print(f"international at {type(intl).move_iterations} playouts v club over {args.move_games} "
                      f"matches: won {r['wins']} drew {r['draws']} lost {r['losses']} (win "
                      f"{100 * r['wins'] / r['games']:.1f}%, {interval_text(r)})")
        if not spec.solo:
            club = club_realism(rs, args.games, makers["club"])
            line = (f"realism, club v club: {club['points']:.1f} points and {club['tries']:.2f} tries per match, "
                    f"draw rate {100 * club['draw_rate']:.1f}%")
            band = BANDS.get(rs)
            if band:
                ok = (band["points"][0] <= club["points"] <= band["points"][1]
                      and band["tries"][0] <= club["tries"] <= band["tries"][1])
                line += (f" (band {band['points'][0]}-{band['points'][1]} points, {band['tries'][0]}-"
                         f"{band['tries'][1]} tries: {'in' if ok else 'OUT OF'} band)")
            if rs == "rugby-league-cards":
                line += f" (the NRL: about {NRL['points']} points and {NRL['tries']} tries; not tuned)"
            print(line)
            if rs == "seasons":
                old = club_realism(rs, args.games, OLD_AWARE[rs])
                played = [("club", club, args.games), ("old aware", old, args.games)]
                if args.intl_self_play:
                    played.append(("international", club_realism(rs, args.intl_self_play, makers["international"]),
                                   args.intl_self_play))
                for name, figures, matches in played:
                    print(f"seasons self-play, {name:<13}: {100 * figures['nil']:.1f}% of seasons end 0-0 "
                          f"(season 1, scored at the deal: {100 * figures['dealt_nil']:.1f}%), "
                          f"{100 * figures['dry']:.1f}% of drafts see no exchange, {figures['seasons']:.2f} "
                          f"seasons per match, {100 * figures['draw_rate']:.1f}% of matches drawn ({matches} matches)")
        print(f"({time.process_time() - started:.0f} s of CPU for {spec.name})")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
