"""Loads the Rugby Champion solo deck from ``cards.toml`` (designed data; see that file)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DECK_FILE = Path(__file__).with_name("cards.toml")


@dataclass(frozen=True)
class PlayerCard:
    """A player (or Referee) card: values per challenge type, red type, arrow, whistles, Goal symbol."""

    id: str
    name: str
    values: dict[str, int]
    red: str
    arrow: str
    whistles: int
    goal: bool
    referee: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "values": dict(self.values), "red": self.red,
                "arrow": self.arrow, "whistles": self.whistles, "goal": self.goal, "referee": self.referee}


@dataclass(frozen=True)
class SupportCard:
    """A card of the Non-player's support pile: Kicker, Deliberate Foul or a blue Support with a bonus."""

    id: str
    name: str
    effect: str
    bonus: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "effect": self.effect, "bonus": self.bonus}


@dataclass(frozen=True)
class SetPieceCard:
    name: str
    type: str
    value: int

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "value": self.value}


@dataclass(frozen=True)
class Deck:
    challenge_types: tuple[str, ...]
    right_card_types: tuple[str, ...]
    try_points: int
    conversion_points: int
    lineout: SetPieceCard
    scrum: SetPieceCard
    players: dict[str, PlayerCard]  # id -> PlayerCard, in deck order
    supports: dict[str, SupportCard]  # id -> SupportCard, in deck order


def load_deck(path: Path = DECK_FILE) -> Deck:
    """Read and check a deck file; ``ValueError`` names what is wrong."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    types = tuple(data["challenge_types"])
    players: dict[str, PlayerCard] = {}
    for entry in data["player"]:
        n = entry["copies"]
        for key in ("arrows", "whistles", "goal"):
            if len(entry[key]) != n:
                raise ValueError(f"card {entry['id']!r}: {key} must list {n} copies")
        if entry["red"] not in types:
            raise ValueError(f"card {entry['id']!r}: red type {entry['red']!r} is not a challenge type")
        for i in range(n):
            if entry["arrows"][i] not in ("left", "right") or entry["whistles"][i] not in (0, 1, 2):
                raise ValueError(f"card {entry['id']!r}: bad arrow or whistles on copy {i + 1}")
            player = PlayerCard(id=f"{entry['id']}-{i + 1}", name=entry["name"],
                                values={t: int(entry[t]) for t in types}, red=entry["red"],
                                arrow=entry["arrows"][i], whistles=entry["whistles"][i],
                                goal=bool(entry["goal"][i]), referee=bool(entry.get("referee", False)))
            players[player.id] = player
    supports: dict[str, SupportCard] = {}
    for entry in data["support"]:
        if entry["effect"] not in ("kicker", "foul", "support"):
            raise ValueError(f"support card {entry['id']!r}: unknown effect {entry['effect']!r}")
        for i in range(entry["copies"]):
            support = SupportCard(id=f"{entry['id']}-{i + 1}", name=entry["name"], effect=entry["effect"],
                                  bonus=int(entry.get("bonus", 0)))
            supports[support.id] = support
    return Deck(challenge_types=types, right_card_types=tuple(data["right_card_types"]),
                try_points=int(data["try_points"]), conversion_points=int(data["conversion_points"]),
                lineout=SetPieceCard(**data["lineout"]), scrum=SetPieceCard(**data["scrum"]),
                players=players, supports=supports)


DECK = load_deck()
