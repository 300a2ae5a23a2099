"""Nation draws: which player plays which nation (or team card) in an evening's division. Pure functions, no
database, the way ``league.draws`` makes pool draws.

The three ways of the Bokx booklet's tournament chapter:

* **choice** (players' choice): first come, first served; each player has the card they asked for, in order of
  registration (a card asked for by an earlier player is no longer on offer: the sign-up form lists what is
  left).
* **random**: the cards are shuffled with ``random.Random(seed)`` and dealt to the players in order of
  registration, one card each.
* **dice**: every player throws two dice (from ``random.Random(seed)``); the highest total picks first; players
  on the same total throw again among themselves until they are apart. Each picks the card they asked for if it
  is still free, otherwise the first free card in the order the cards were offered (the nations best-ranked
  first).

The seed is stored with the draw and shown, so anyone can replay it and get the same outcome.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby

CHOICE = "choice"
RANDOM = "random"
DICE = "dice"
METHODS = (CHOICE, RANDOM, DICE)
DICE_PER_THROW = 2
# Two players tied this many throws running is 1 in 6**20: a broken random source, not a draw.
MAX_THROW_ROUNDS = 40


class NationDrawError(ValueError):
    """The draw cannot be made as asked. ``players`` names the players concerned (for the message)."""

    def __init__(self, message: str, players: Sequence[Hashable] = ()):
        super().__init__(message)
        self.players = list(players)


@dataclass(frozen=True)
class Pick:
    """One player's card, with their dice throws (dice draws only), in the order the draw revealed them."""

    player: Hashable
    card: Hashable
    throws: list[list[int]] = field(default_factory=list)


def _check(players: Sequence[Hashable], cards: Sequence[Hashable]) -> None:
    if not players:
        raise NationDrawError("no player to draw for")
    if len(set(players)) != len(players):
        raise NationDrawError("a player appears twice in the draw")
    if len(set(cards)) != len(cards):
        raise NationDrawError("a card appears twice in the draw")
    if len(cards) < len(players):
        raise NationDrawError(f"{len(players)} players but only {len(cards)} cards")


def choice_draw(players: Sequence[Hashable], cards: Sequence[Hashable],
                wishes: Mapping[Hashable, Hashable]) -> list[Pick]:
    """Players' choice: each player (in order of registration) gets the card they asked for. Refused, naming the
    players, when some asked for nothing on offer or for a card an earlier player has."""
    _check(players, cards)
    offered = set(cards)
    taken: set[Hashable] = set()
    missing = []
    picks = []
    for player in players:
        wish = wishes.get(player)
        if wish is None or wish not in offered or wish in taken:
            missing.append(player)
            continue
        taken.add(wish)
        picks.append(Pick(player, wish))
    if missing:
        raise NationDrawError("players without a free card of their choice", missing)
    return picks


def random_draw(players: Sequence[Hashable], cards: Sequence[Hashable], *, seed: int) -> list[Pick]:
    """Random draw: the cards shuffled by ``seed`` and dealt to the players in their order, one each."""
    _check(players, cards)
    deck = list(cards)
    random.Random(seed).shuffle(deck)
    return [Pick(player, card) for player, card in zip(players, deck, strict=False)]


def dice_order(players: Sequence[Hashable], *, seed: int) -> tuple[list[Hashable], dict[Hashable, list[list[int]]]]:
    """The order in which players pick: highest throw of two dice first, ties thrown again among the tied players
    (as often as needed). Returns the order and each player's throws, first throw first."""
    if len(set(players)) != len(players):
        raise NationDrawError("a player appears twice in the draw")
    rng = random.Random(seed)
    throws: dict[Hashable, list[list[int]]] = {p: [] for p in players}

    def rank(group: list[Hashable], depth: int) -> list[Hashable]:
        if depth > MAX_THROW_ROUNDS:
            raise NationDrawError("the dice keep tying: throw again with another seed", group)
        for player in group:
            throws[player].append([rng.randint(1, 6) for _ in range(DICE_PER_THROW)])

        def total(player: Hashable) -> int:
            return sum(throws[player][-1])

        ordered: list[Hashable] = []
        for _total, tied in groupby(sorted(group, key=lambda p: -total(p)), key=total):
            members = list(tied)
            ordered += members if len(members) == 1 else rank(members, depth + 1)
        return ordered

    order = rank(list(players), 1) if players else []
    return order, throws


def dice_draw(players: Sequence[Hashable], cards: Sequence[Hashable], wishes: Mapping[Hashable, Hashable], *,
              seed: int) -> list[Pick]:
    """Dice throws: the players pick in ``dice_order``; each takes the card they asked for if it is free, else the
    first free card in the order offered."""
    _check(players, cards)
    order, throws = dice_order(players, seed=seed)
    free = list(cards)
    picks = []
    for player in order:
        wish = wishes.get(player)
        card = wish if wish in free else free[0]
        free.remove(card)
        picks.append(Pick(player, card, throws[player]))
    return picks


def draw(method: str, players: Sequence[Hashable], cards: Sequence[Hashable],
         wishes: Mapping[Hashable, Hashable], *, seed: int | None) -> list[Pick]:
    """The draw by ``method`` (``METHODS``); the random and dice draws need a seed."""
    if method == CHOICE:
        return choice_draw(players, cards, wishes)
    if method not in (RANDOM, DICE):
        raise NationDrawError(f"unknown draw method {method!r}")
    if seed is None:
        raise NationDrawError("a random or dice draw needs a seed")
    if method == RANDOM:
        return random_draw(players, cards, seed=seed)
    return dice_draw(players, cards, wishes, seed=seed)
