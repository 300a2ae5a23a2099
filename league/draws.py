"""Pool draws: pure functions, no database.

Three methods:

* **seeded** (the Rugby World Cup way): teams in seed order (organiser's seeds,
  else World Rugby ranking) are cut into bands of as many teams as there are
  pools; each band is shuffled and dealt one team per pool, so every pool gets
  one team of each band.
* **random**: all teams shuffled and dealt round the pools in turn.
* **manual**: the organiser says which team goes where; we only check it.

Randomness comes from ``random.Random(seed)`` alone. The seed is stored on the
tournament and shown on its page, so anyone can rerun the draw with
``banded_draw(teams, pools, seed=...)`` and get the same pools: the draw is
fair because the seed was fixed (and published) before anyone knew the result.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Hashable, Mapping, Sequence

SEEDED = "seeded"
RANDOM = "random"
MANUAL = "manual"
METHODS = (SEEDED, RANDOM, MANUAL)


class DrawError(ValueError):
    """The draw cannot be made as asked (too few teams, a team twice, an unknown pool...)."""


def new_draw_seed() -> int:
    """A fresh seed for a random draw: 32 bits from the operating system, easy to read out and type."""
    return secrets.randbits(32)


def pool_names(count: int) -> list[str]:
    """Pool names A, B, C... (AA, AB... beyond 26)."""
    if count < 1:
        raise DrawError("a draw needs at least one pool")
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26] for i in range(count)]


def _check(teams: Sequence[Hashable], pools: Sequence[str]) -> None:
    if not pools:
        raise DrawError("a draw needs at least one pool")
    if len(set(pools)) != len(pools):
        raise DrawError("two pools have the same name")
    if len(set(teams)) != len(teams):
        raise DrawError("a team appears twice in the draw")
    if len(teams) < 2 * len(pools):
        raise DrawError(f"{len(teams)} teams are too few for {len(pools)} pools (at least two per pool)")


def banded_draw(teams: Sequence[Hashable], pools: Sequence[str], *, seed: int) -> dict[str, list[Hashable]]:
    """Seeded draw: band k is seeds k*P+1..(k+1)*P (P pools), one team of each band per pool.

    ``teams`` in seed order, best first. A last, incomplete band is dealt to
    randomly chosen pools, one team each. Within a pool, teams keep band order.
    """
    _check(teams, pools)
    rng = random.Random(seed)
    drawn: dict[str, list[Hashable]] = {p: [] for p in pools}
    width = len(pools)
    for start in range(0, len(teams), width):
        band = list(teams[start:start + width])
        rng.shuffle(band)
        targets = list(pools) if len(band) == width else sorted(rng.sample(list(pools), len(band)))
        for pool, team in zip(targets, band, strict=True):
            drawn[pool].append(team)
    return drawn


def random_draw(teams: Sequence[Hashable], pools: Sequence[str], *, seed: int) -> dict[str, list[Hashable]]:
    """Unseeded draw: shuffle everybody, then deal round the pools (sizes differ by at most one)."""
    _check(teams, pools)
    rng = random.Random(seed)
    shuffled = list(teams)
    rng.shuffle(shuffled)
    drawn: dict[str, list[Hashable]] = {p: [] for p in pools}
    for i, team in enumerate(shuffled):
        drawn[pools[i % len(pools)]].append(team)
    return drawn


def manual_draw(assignment: Mapping[Hashable, str], pools: Sequence[str]) -> dict[str, list[Hashable]]:
    """The organiser's own draw (team -> pool name), checked: known pools, two teams or more in each."""
    _check(list(assignment), pools)
    drawn: dict[str, list[Hashable]] = {p: [] for p in pools}
    for team, pool in assignment.items():
        if pool not in drawn:
            raise DrawError(f"unknown pool {pool!r} for {team}; pools are {', '.join(pools)}")
        drawn[pool].append(team)
    small = [p for p, members in drawn.items() if len(members) < 2]
    if small:
        raise DrawError(f"pool {', '.join(small)} would have fewer than two teams")
    return drawn
