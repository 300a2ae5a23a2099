"""Chance sources: the only place where randomness enters a game.

Rules code never imports :mod:`random`. Every die roll and card draw goes
through a :class:`Chance` passed to the game:

* :class:`SeededChance` draws from a ``random.Random`` seeded from the match
  seed, so seed + actions replay exactly;
* :class:`ScriptedChance` takes an ordered list of outcomes (die values, card
  names, shuffled orders) to reproduce a position from a rule book, and raises
  :class:`ChanceError` when the script runs out or names an impossible outcome.

Three primitives are enough for every rule book:

* ``roll(sides)`` -> 1..sides (a die);
* ``pick(options)`` -> one element of ``options`` (a card drawn from a pile
  whose order is unknown, a coin toss);
* ``shuffle(items)`` -> a new list, a permutation of ``items`` (a deck whose
  order matters later, e.g. referee cards going to the bottom).

A scripted ``shuffle`` consumes one entry: a list that is a permutation of the
items, or the string ``"keep"`` to keep the given order.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any


class ChanceError(RuntimeError):
    """A scripted chance source ran out or was asked for an impossible outcome."""


def derive_seed(seed: int, *labels: object) -> int:
    """Derive an independent 64-bit seed from ``seed`` and labels (stable across runs)."""
    text = ":".join([str(seed), *map(str, labels)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Chance:
    """Interface of a chance source; also counts draws (for the benchmark floor)."""

    draws: int = 0

    def roll(self, sides: int = 6) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def pick(self, options: Sequence[Any]) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def shuffle(self, items: Sequence[Any]) -> list[Any]:  # pragma: no cover - interface
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:  # pragma: no cover - interface
        raise NotImplementedError

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Chance:
        """Rebuild a chance source saved with ``to_dict``."""
        if data["kind"] == "seeded":
            return SeededChance.from_dict(data)
        if data["kind"] == "scripted":
            return ScriptedChance.from_dict(data)
        raise ValueError(f"unknown chance source kind {data['kind']!r}")


class SeededChance(Chance):
    """Chance from a seeded pseudo-random generator."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = random.Random(seed)
        # randint(1, n) and randrange(n) both come down to 1 + _randbelow(n) and _randbelow(n);
        # calling it directly draws the very same numbers at half the cost (this is the hot path
        # of every simulation). It is CPython's private method, hence unknown to the type stubs.
        self._below: Callable[[int], int] = self._rng._randbelow  # type: ignore[attr-defined]
        self.draws = 0

    def roll(self, sides: int = 6) -> int:
        if sides < 1:
            raise ChanceError(f"a die needs at least one side, not {sides!r}")
        self.draws += 1
        return 1 + self._below(sides)

    def pick(self, options: Sequence[Any]) -> Any:
        if not options:
            raise ChanceError("cannot pick from an empty set of outcomes")
        self.draws += 1
        return options[self._below(len(options))]

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        self.draws += 1
        result = list(items)
        self._rng.shuffle(result)
        return result

    def to_dict(self) -> dict[str, Any]:
        version, internal, gauss = self._rng.getstate()
        return {"kind": "seeded", "seed": self.seed, "draws": self.draws,
                "state": [version, list(internal), gauss]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeededChance:
        chance = cls(data["seed"])
        version, internal, gauss = data["state"]
        chance._rng.setstate((version, tuple(internal), gauss))
        chance.draws = data.get("draws", 0)
        return chance


class ScriptedChance(Chance):
    """Chance from a fixed list of outcomes, to replay a rule-book position."""

    def __init__(self, outcomes: Sequence[Any], position: int = 0):
        self.outcomes = list(outcomes)
        self.position = position
        self.draws = position

    def _next(self, what: str) -> Any:
        if self.position >= len(self.outcomes):
            raise ChanceError(f"script ran out: {what} asked for outcome #{self.position + 1}")
        value = self.outcomes[self.position]
        self.position += 1
        self.draws += 1
        return value

    @property
    def remaining(self) -> int:
        return len(self.outcomes) - self.position

    def roll(self, sides: int = 6) -> int:
        value = self._next(f"a d{sides} roll")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
            raise ChanceError(f"scripted die value {value!r} is impossible on a d{sides}")
        return value

    def pick(self, options: Sequence[Any]) -> Any:
        value = self._next("a draw")
        if value not in options:
            raise ChanceError(f"scripted outcome {value!r} is impossible here (not among the {len(options)} possible)")
        return value

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        value = self._next("a shuffle")
        if value == "keep":
            return list(items)
        if not isinstance(value, (list, tuple)) or Counter(map(repr, value)) != Counter(map(repr, items)):
            raise ChanceError(f"scripted shuffle {value!r} is not a permutation of the {len(items)} items")
        return list(value)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "scripted", "outcomes": self.outcomes, "position": self.position}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ScriptedChance:
        return cls(data["outcomes"], data["position"])
