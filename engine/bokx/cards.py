"""Referee card decks, loaded from ``referee_cards.toml`` and checked once at import."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

DECK_FILE = Path(__file__).with_name("referee_cards.toml")

# The eight groups in the booklet's order (DEFEND, ATTACK, CONTEST); also the shuffle order.
GROUPS = ("catch", "tackle", "in_goal", "kick_downfield", "running", "scrum", "lineout", "ruck_maul")
CALLS = ("play_on", "continue", "penalty", "free_kick", "scrum", "kick_off", "mark", "block", "picked_up",
         "keep_running", "try", "penalty_try")
KICK_OFF_SPOTS = ("halfway", "22", "goal_line")


def load_decks(path: Path = DECK_FILE) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Read the decks: (group -> {name, drawn_by, cards: [ids]}, card id -> card). Raises ValueError if bad."""
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    groups: dict[str, dict[str, Any]] = {}
    cards: dict[str, dict[str, Any]] = {}
    if set(data) != set(GROUPS):
        raise ValueError(f"referee decks must be exactly {GROUPS}, got {sorted(data)}")
    for group in GROUPS:
        spec = data[group]
        ids = []
        for card in spec["cards"]:
            if card["call"] not in CALLS:
                raise ValueError(f"card {card['id']}: unknown call {card['call']!r}")
            if card["to"] not in ("attacker", "defender"):
                raise ValueError(f"card {card['id']}: 'to' must be attacker or defender")
            if card.get("intercept") and card["call"] != "play_on":
                raise ValueError(f"card {card['id']}: only a play_on card can be an interception")
            if card["call"] == "kick_off" and card.get("spot") not in KICK_OFF_SPOTS:
                raise ValueError(f"card {card['id']}: kick_off needs a spot in {KICK_OFF_SPOTS}")
            if card["id"] in cards:
                raise ValueError(f"duplicate card id {card['id']!r}")
            cards[card["id"]] = dict(card, group=group)
            ids.append(card["id"])
        groups[group] = {"name": spec["name"], "drawn_by": spec["drawn_by"], "cards": ids}
    return groups, cards


DECKS, CARDS = load_decks()
