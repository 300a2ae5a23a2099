"""The international level: a search player that imagines the position as its seat sees it.

For each move it plays many short futures ("playouts") of each candidate action and picks the action
whose futures went best:

* **no peeking** -- the player is never given the game state. The play loop hands it a
  :class:`Sampler`, which asks the rule set for a *determinisation* (``GameState.determinise``): a
  full position its seat cannot tell from the real one, every card hidden from the seat dealt afresh
  from the cards it has not seen, and fresh dice. Each sweep of playouts imagines a new one;
* **common random numbers** -- within a sweep every candidate is played out from the same imagined
  position with the same dice, so the comparison between candidates is not drowned by luck
  (what differs between their futures is, as far as possible, only the action);
* **playouts** are played by the club players of both seats, for ``horizon`` actions or until the rule
  set's ``settled`` says the position can be judged, then ``evaluate`` judges it: the seat's chance of
  winning, between 0 and 1 (the rule set's own estimate: a win-chance table, the score and the clock);
* **the club player's move is the default** -- another candidate replaces it only when it did better over
  the same imagined positions by more than ``confidence`` standard errors: a noisy estimate does not make
  the player weaker than the club player;
* **budget** -- with ``iterations`` (playouts per move), sequential halving spends it in rounds, keeping
  the better half of the candidates after each (and the club player's move): the same moves for the same
  seed, the budget tests and simulations use. With ``think_ms`` it sweeps until the time is up (not reproducible).
  Without either it uses the rule set's per-move budget (``move_iterations``: well under 300 ms here),
  or, for bulk simulation, its cheaper ``simulation_iterations``.
"""

from __future__ import annotations

import math
import random
import time

from engine.chance import SeededChance
from engine.core import GameState, View
from engine.players import Player, Sampler


class SearchPlayer(Player):
    """Base of the rule sets' international players (the hooks are below ``think``)."""

    level = "international"
    needs_view = True
    searches = True
    # Playouts per move: the default for a person's opponent, and a cheaper one for bulk simulation.
    move_iterations = 400
    simulation_iterations = 60
    # Actions a playout plays past the candidate at most, before ``evaluate`` (``settled`` may stop it sooner).
    horizon = 40
    # Sweeps before any candidate is dropped, and how sure the search must be to overrule the club player
    # (in standard errors of the paired differences).
    min_sweeps = 4
    confidence = 1.0

    def __init__(self, *, think_ms: float | None = None, iterations: int | None = None, simulation: bool = False):
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if think_ms is not None and think_ms <= 0:
            raise ValueError("think_ms must be positive")
        self.think_ms = think_ms if iterations is None else None
        self.iterations = iterations if iterations is not None else (
            None if think_ms is not None else self.simulation_iterations if simulation else self.move_iterations)
        self._club: Player | None = None

    # ---- the Player protocol: a search player is asked through think() -----------------------------------
    def choose(self, view: View | None, legal: list[str], rng: random.Random) -> str:
        """Without a sampler (a caller that does not know search players): play as the club player does."""
        club = self.club()
        if club.needs_view and view is None:
            return legal[0]
        return club.choose(view, legal, rng)

    def think(self, view: View, legal: list[str], rng: random.Random, sample: Sampler) -> str:
        """The best of ``legal`` after playouts from positions drawn by ``sample``.

        The club player's choice is the default: another candidate replaces it only when, over the sweeps
        both were played in, it did better by more than ``confidence`` standard errors of the paired
        differences (so a noisy estimate never makes the player weaker than the club player).
        """
        club = self.club()
        default = club.choose(view, legal, random.Random(rng.getrandbits(64)))
        candidates = self.candidates(view, legal)
        if default not in candidates:
            candidates = [default, *candidates]
        if len(candidates) == 1:
            return candidates[0]
        seat = sample.seat
        results: dict[str, dict[int, float]] = {a: {} for a in candidates}
        alive = list(candidates)
        sweep = 0
        if self.iterations is not None:
            rounds = max(1, math.ceil(math.log2(len(alive))))
            per_round = self.iterations / rounds
            for _ in range(rounds):
                for _ in range(max(self.min_sweeps, int(per_round // len(alive)))):
                    self._sweep(sweep, alive, results, rng, sample, seat)
                    sweep += 1
                if len(alive) > 2:
                    ranked = sorted(alive, key=lambda a: -_mean(results[a]))  # stable: ties keep the order
                    keep = ranked[:math.ceil(len(alive) / 2)]
                    alive = keep if default in keep else [default, *keep[:-1]]
        else:
            deadline = time.perf_counter() + (self.think_ms or 0.0) / 1000
            while True:
                self._sweep(sweep, alive, results, rng, sample, seat)
                sweep += 1
                if time.perf_counter() >= deadline:
                    break
        best = max(alive, key=lambda a: _mean(results[a]))
        if best == default or not _confidently_better(results[best], results[default], self.confidence):
            return default
        return best

    def _sweep(self, sweep: int, alive: list[str], results: dict[str, dict[int, float]], rng: random.Random,
               sample: Sampler, seat: int) -> None:
        """One imagined position, every live candidate played out from it with the same dice."""
        seed = rng.getrandbits(64)
        world = sample(random.Random(seed))
        for action in alive:
            results[action][sweep] = self.playout(world, seat, action, seed)

    def playout(self, world: GameState, seat: int, action: str, seed: int) -> float:
        """Play ``action`` then club play (the dice from ``seed``) until settled; the seat's chance of winning."""
        state = world.fork(SeededChance(seed))
        start = self.marker(state)
        state.advance(seat, action)
        club = self.club()
        rng = random.Random(seed)  # the club players' own choices (a Bokx side on a tie): one rng, seeded cheaply
        settled = self.settled
        for _ in range(self.horizon):
            acting = state.to_act()
            if not acting or settled(state, start):
                break
            mover = acting[0]
            legal = state.legal_actions(mover)
            if club.needs_view and club.needs_view_for(legal):
                view = state.view(mover, labels=False, legal=legal, for_player=True)
                state.advance(mover, club.choose(view, legal, rng))
            else:
                state.advance(mover, club.choose(None, legal, rng))
        return self.evaluate(state, seat)

    def club(self) -> Player:
        if self._club is None:
            self._club = self.make_club()
        return self._club

    # ---- hooks for the rule sets ---------------------------------------------------------------------
    def make_club(self) -> Player:
        """The rule set's club player (the playout policy of both seats)."""
        raise NotImplementedError

    def candidates(self, view: View, legal: list[str]) -> list[str]:
        """The actions worth comparing (e.g. one of several equivalent blind choices). All by default."""
        return legal

    def marker(self, state: GameState) -> object:
        """Whatever ``settled`` compares against (taken just before the candidate is played)."""
        return None

    def settled(self, state: GameState, start: object) -> bool:
        """Whether a playout may stop here and be judged (besides the horizon and the end of the game)."""
        return False

    def evaluate(self, state: GameState, seat: int) -> float:
        """``seat``'s chance of winning from ``state`` (1 win, 0.5 draw, 0 loss once over)."""
        return result_value(state, seat)


def _mean(values: dict[int, float]) -> float:
    return sum(values.values()) / len(values)


def _confidently_better(challenger: dict[int, float], default: dict[int, float], sigmas: float) -> bool:
    """Whether ``challenger`` beat ``default`` by more than ``sigmas`` standard errors over their common sweeps."""
    diffs = [challenger[k] - default[k] for k in challenger.keys() & default.keys()]
    if len(diffs) < 2:
        return False
    mean = sum(diffs) / len(diffs)
    variance = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean > sigmas * math.sqrt(variance / len(diffs))


def result_value(state: GameState, seat: int) -> float:
    """1 if ``seat`` is winning (or has won), 0.5 if level, 0 if behind."""
    winner = state.outcome().winner
    return 0.5 if winner is None else 1.0 if winner == seat else 0.0


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
