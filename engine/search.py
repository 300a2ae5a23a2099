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
* **budget** -- with ``iterations`` (playouts per move), sequential halving spends it in rounds, keeping
  the better half of the candidates after each: the same moves for the same seed, the budget
  tests and simulations use. With ``think_ms`` it sweeps until the time is up (not reproducible).
  Without either it uses the rule set's per-move budget (``move_iterations``: well under 300 ms here),
  or, for bulk simulation, its cheaper ``simulation_iterations``.
"""

from __future__ import annotations

import math
import random
import time

from engine.chance import SeededChance
from engine.core import GameState, View
from engine.players import Player, Sampler, seat_rng


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
        """The best of ``legal`` after playouts from positions drawn by ``sample``."""
        candidates = self.candidates(view, legal)
        if len(candidates) == 1:
            return candidates[0]
        seat = sample.seat
        totals = dict.fromkeys(candidates, 0.0)
        counts = dict.fromkeys(candidates, 0)
        alive = list(candidates)
        if self.iterations is not None:
            rounds = max(1, math.ceil(math.log2(len(alive))))
            per_round = self.iterations / rounds
            for _ in range(rounds):
                sweeps = max(1, int(per_round // len(alive)))
                for _ in range(sweeps):
                    self._sweep(alive, totals, counts, rng, sample, seat)
                if len(alive) > 1:
                    alive.sort(key=lambda a: -totals[a] / counts[a])  # stable: ties keep the candidates' order
                    alive = alive[:math.ceil(len(alive) / 2)]
            return max(alive, key=lambda a: totals[a] / counts[a])
        deadline = time.perf_counter() + (self.think_ms or 0.0) / 1000
        while True:
            self._sweep(alive, totals, counts, rng, sample, seat)
            if time.perf_counter() >= deadline:
                break
        return max(alive, key=lambda a: totals[a] / counts[a])

    def _sweep(self, alive: list[str], totals: dict[str, float], counts: dict[str, int], rng: random.Random,
               sample: Sampler, seat: int) -> None:
        """One imagined position, every live candidate played out from it with the same dice."""
        seed = rng.getrandbits(64)
        world = sample(random.Random(seed))
        for action in alive:
            totals[action] += self.playout(world, seat, action, seed)
            counts[action] += 1

    def playout(self, world: GameState, seat: int, action: str, seed: int) -> float:
        """Play ``action`` then club play (the dice from ``seed``) until settled; the seat's chance of winning."""
        state = world.fork(SeededChance(seed))
        start = self.marker(state)
        state.advance(seat, action)
        club = self.club()
        rngs = (seat_rng(seed, 0), seat_rng(seed, 1))
        settled = self.settled
        for _ in range(self.horizon):
            acting = state.to_act()
            if not acting or settled(state, start):
                break
            mover = acting[0]
            legal = state.legal_actions(mover)
            if club.needs_view and club.needs_view_for(legal):
                view = state.view(mover, labels=False, legal=legal, for_player=True)
                state.advance(mover, club.choose(view, legal, rngs[mover]))
            else:
                state.advance(mover, club.choose(None, legal, rngs[mover]))
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


def result_value(state: GameState, seat: int) -> float:
    """1 if ``seat`` is winning (or has won), 0.5 if level, 0 if behind."""
    winner = state.outcome().winner
    return 0.5 if winner is None else 1.0 if winner == seat else 0.0


def normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
