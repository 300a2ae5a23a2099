"""Drawing data for the play pages: turn a seat's view (engine JSON) into shapes the SVG templates place.

Pure functions (no Django): each rule set has a ``_<ruleset>`` builder that reads only the view the
seat may see, so a drawing can never show a card the view hid. A builder that meets a view it does
not understand falls back to the generic layout rather than failing the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = {"H", "D", "\u2665", "\u2666"}


def card_face(card) -> dict:
    """A card for drawing: label like ``10♥`` and whether it is red. ``None`` is a face-down card."""
    if card is None or card in ("", "?", "XX", "hidden"):
        return {"label": "", "red": False, "down": True}
    if isinstance(card, dict):
        label = card.get("label") or card.get("card") or card.get("name") or ""
        return {"label": str(label), "red": any(s in str(label) for s in RED_SUITS), "down": not label}
    text = str(card)
    if len(text) in (2, 3) and text[-1] in SUIT_SYMBOLS:
        rank = text[:-1]
        rank = "10" if rank in ("T", "10") else rank
        return {"label": rank + SUIT_SYMBOLS[text[-1]], "red": text[-1] in RED_SUITS, "down": False}
    return {"label": text, "red": any(s in text for s in RED_SUITS), "down": False}


def _generic(view: dict, seat, data) -> dict:
    items = []
    for key, value in (view or {}).items():
        if key in ("legal", "to_act", "ruleset"):
            continue
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        items.append((key.replace("_", " "), text if len(text) < 400 else text[:400] + "…"))
    return {"kind": "generic", "items_list": items}


def _row(cards, *, x0: float, y: float, width: float = 36, gap: float = 6) -> list[dict]:
    out = []
    for i, card in enumerate(cards):
        face = card_face(card)
        face.update(x=x0 + i * (width + gap), y=y, w=width, h=width * 1.4, index=i)
        out.append(face)
    return out


def _seasons(view: dict, seat, data) -> dict:
    teams = view["teams"]
    width, gap = 44, 8
    row_w = 5 * width + 4 * gap
    x0 = (300 - row_w) / 2
    cards_home = _row(teams[0], x0=x0, y=150, width=width, gap=gap)
    cards_away = _row(teams[1], x0=x0, y=20, width=width, gap=gap)
    draft_x = (300 - (len(view["draft"]) * (width + gap) - gap)) / 2
    draft = _row(view["draft"], x0=draft_x, y=88, width=width * 0.8, gap=gap)
    for card in draft:
        card["h"] = width * 0.8 * 1.4
    results = [{"season": r["season"], "points": r["points"],
                "winner": {0: "home", 1: "away", None: "halved"}[r["winner"]]} for r in view.get("results", [])]
    return {
        "kind": "seasons", "home": cards_home, "away": cards_away, "draft": draft,
        "stock": view.get("stock_count", 0), "results": results,
        "clock": f"Season {min(view.get('season', 0) + (0 if view.get('over') else 1), view.get('seasons_total', 11))}"
                 f" of {view.get('seasons_total', 11)}",
        "exchanges": view.get("exchanges", [0, 0]), "max_exchanges": view.get("max_exchanges"),
        "last": view.get("last_season"),
    }


PITCH_CELLS = ("T", "1", "2", "3", "3", "2", "1", "T")
PERIODS = ("1st half", "2nd half")


def _rugby_league_cards(view: dict, seat, data) -> dict:
    """The pitch T|1 2 3|3 2 1|T with the coin, both face-down rows, the cards just turned over."""
    cell_w, x0 = 40, 20
    cells = [{"x": x0 + i * cell_w, "label": label, "end": i in (0, 7), "half": "home" if i < 4 else "away"}
             for i, label in enumerate(PITCH_CELLS)]
    ball = int(view["ball"])
    side = view.get("seat")  # "home" / "away" / None
    rows = {}
    for name, y in (("away", 108), ("home", 236)):
        live = view["rows"].get(name, [])
        width = 40
        start = (360 - (len(live) * (width + 8) - 8)) / 2
        cards = []
        for i, present in enumerate(live):
            cards.append({"x": start + i * (width + 8), "y": y, "w": width, "h": 54, "down": bool(present),
                          "gone": not present, "label": "", "red": False, "position": i + 1,
                          "mine": name == side,
                          "chosen": name == side and view.get("your_choice") == i + 1})
        rows[name] = cards
    last = view.get("last_round") or []
    shown = []
    for i, pair in enumerate(last[-3:]):
        for j, name in enumerate(("home", "away")):
            face = card_face(pair[name])
            face.update(x=110 + j * 100 + i * 6, y=170 + i * 4, w=40, h=54 if i == 0 else 40,
                        caption="" if i else name.title())
            shown.append(face)
    period = int(view.get("period", 0))
    if period < 2:
        half = PERIODS[period]
        set_no = view["set"] - period * view["sets_per_half"]
        clock = f"{half} · set {min(set_no, view['sets_per_half'])} of {view['sets_per_half']}"
    else:
        clock = f"Extra time (golden point) · set {view['set']}"
    phase = view.get("phase")
    if phase == "tackle":
        status = f"{view['attacker'].title()} attack · tackle {view['tackle'] + 1} · {view['tackles_lost']} lost"
    elif phase == "contest" and view.get("contest"):
        c = view["contest"]
        status = (f"{c['kind'].capitalize()} by {c['kicker']}: {c['wins']} of {c['wins_needed']} "
                  f"needed after {c['rounds']} round{'s' if c['rounds'] != 1 else ''}")
    elif phase == "penalty":
        status = f"Penalty to {view.get('penalty_to')}"
    else:
        status = "Full time"
    return {
        "kind": "rugby_league_cards", "cells": cells, "ball_x": x0 + ball * cell_w + cell_w / 2,
        "attack_right": view["attacker"] == "home", "ball_label": view.get("ball_label", ""),
        "rows": rows, "shown": shown, "clock": clock, "status": status,
        "pile": view.get("pile"), "your_choice": view.get("your_choice"), "side": side,
    }


BUILDERS: dict[str, Callable[[dict, int | None, dict], dict]] = {
    "seasons": _seasons,
    "rugby-league-cards": _rugby_league_cards,
}


def board_context(ruleset: str, view: dict, seat: int | None, data: dict | None = None) -> dict:
    """Drawing data for ``ruleset``'s board; the generic layout if the rule set has no drawing yet."""
    builder = BUILDERS.get(ruleset)
    if builder is not None:
        try:
            return builder(view, seat, data or {})
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return _generic(view, seat, data or {})


def action_buttons(ruleset: str, legal: list[dict]) -> list[dict]:
    """The legal actions as buttons: ``text`` on the button, ``label`` (full) for screen readers and tooltips.

    Card choices get short, card-shaped buttons so six of them fit a 360-px phone in one row.
    """
    out = []
    for item in legal:
        action, label = item["action"], item["label"]
        button = {"action": action, "label": label, "text": label, "kind": "wide"}
        if ruleset == "rugby-league-cards" and action.startswith("card:"):
            button.update(text=action.partition(":")[2], kind="card")
        out.append(button)
    return out
