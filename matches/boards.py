"""Drawing data for the play pages: turn a seat's view (engine JSON) into shapes the SVG templates place.

Pure functions (no Django). A rule set's spec names the kind of board it is drawn on
(``RuleSetSpec.board_kind``); each kind has a builder here and a template
``matches/boards/<kind>.html``, so this module knows drawings, never rule sets. A builder reads only
the view the seat may see (the engine's envelope: ``phase``, ``seat``, ``over``... and the rule set's
own ``board`` data), so a drawing can never show a card the view hid. A builder that meets a view it
does not understand falls back to the generic layout rather than failing the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from engine import parse_action
from engine.bokx import field
from engine.core import SEAT_NAMES

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
    board = (view or {}).get("board")
    shown = dict(board) if isinstance(board, dict) else dict(view or {})
    if isinstance(board, dict) and view.get("phase"):
        shown = {"phase": view["phase"], **shown}
    for key, value in shown.items():
        if key in ("legal", "legal_actions", "labels", "to_act", "ruleset"):
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


def _team_draft(view: dict, seat, data) -> dict:
    """Two five-card teams facing each other across the draft."""
    over = view.get("over")
    view = view["board"]
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
        "kind": "team-draft", "home": cards_home, "away": cards_away, "draft": draft,
        "stock": view.get("stock_count", 0), "results": results,
        "clock": f"Season {min(view.get('season', 0) + (0 if over else 1), view.get('seasons_total', 11))}"
                 f" of {view.get('seasons_total', 11)}",
        "exchanges": view.get("exchanges", [0, 0]), "max_exchanges": view.get("max_exchanges"),
        "last": view.get("last_season"),
    }


PITCH_CELLS = ("T", "1", "2", "3", "3", "2", "1", "T")
PERIODS = ("1st half", "2nd half")


def _seven_cell_pitch(view: dict, seat, data) -> dict:
    """The pitch T|1 2 3|3 2 1|T with the coin, both face-down rows, the cards just turned over."""
    phase = view.get("phase")
    side = SEAT_NAMES[view["seat"]] if view.get("seat") in (0, 1) else None  # "home" / "away" / None
    view = view["board"]
    cell_w, x0 = 40, 20
    cells = [{"x": x0 + i * cell_w, "label": label, "end": i in (0, 7), "half": "home" if i < 4 else "away"}
             for i, label in enumerate(PITCH_CELLS)]
    ball = int(view["ball"])
    rows = {}
    for name, y in (("away", 116), ("home", 258)):
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
            face.update(x=110 + j * 100 + i * 6, y=186 + i * 4, w=40, h=54 if i == 0 else 40,
                        caption="" if i else name.title())
            shown.append(face)
    period = int(view.get("period", 0))
    if period < 2:
        half = PERIODS[period]
        set_no = view["set"] - period * view["sets_per_half"]
        clock = f"{half} · set {min(set_no, view['sets_per_half'])} of {view['sets_per_half']}"
    else:
        clock = f"Extra time (golden point) · set {view['set']}"
    if phase == "tackle":
        status = f"{view['attacker'].title()} attack · tackle {view['tackle'] + 1} · {view['tackles_lost']} lost"
    elif phase == "contest" and view.get("contest"):
        c = view["contest"]
        status = (f"{c['kind'].capitalize()} by {c['kicker']}: {c['wins']}/{c['wins_needed']} wins, "
                  f"round {c['rounds'] + 1}")
    elif phase == "penalty":
        status = f"Penalty to {view.get('penalty_to')}"
    else:
        status = "Full time"
    return {
        "kind": "seven-cell-pitch", "cells": cells, "ball_x": x0 + ball * cell_w + cell_w / 2,
        "attack_right": view["attacker"] == "home", "ball_label": view.get("ball_label", ""),
        "rows": rows, "shown": shown, "clock": clock, "status": status,
        "pile": view.get("pile"), "your_choice": view.get("your_choice"), "side": side,
    }


BOKX_BLOCK = 15


def _block_field(view: dict, seat, data) -> dict:
    """The 22 x 16 block field from ``engine.bokx.field``'s geometry: home at the bottom attacking up."""
    phase = view.get("phase")
    view = view["board"]
    b = BOKX_BLOCK
    left, top = 20, 8
    width, height = field.COLS * b, field.ROWS * b

    def sy(row_line: float) -> float:  # screen y of a row boundary (line at r) -- row 21 is at the top
        return top + (field.ROWS - row_line) * b

    poss = view.get("possession")
    shading = []
    for row in field.IN_GOAL_ROWS:
        shading.append({"y": sy(row + 1), "h": b, "cls": "in-goal"})
    if poss in (0, 1):
        zones = field.zones(poss)
        for row in zones["red"]:
            shading.append({"y": sy(row + 1), "h": b, "cls": "zone-red"})
        for row in zones["blue"]:
            shading.append({"y": sy(row + 1), "h": b, "cls": "zone-blue"})
    lines = []
    for kind, rows in field.LINES.items():
        for r in rows:
            lines.append({"y": sy(r), "cls": f"line-{kind.replace('_', '-')}"})
    lineout = [{"x": left + c * b} for cols in field.LINEOUT_LINES.values() for c in cols]
    kick_off = []
    for kind, per_seat in field.KICK_OFF_BLOCKS.items():
        for x, y in per_seat.values():
            kick_off.append({"x": left + x * b, "y": sy(y + 1), "colour": field.KICK_OFF_COLOURS[kind]})
    ball = view.get("ball") or {"x": 7, "y": 10}
    clock = view.get("clock") or {}
    secs = int(clock.get("seconds") or 0)
    half = view.get("half") or 1
    clock_text = f"{'1st' if half == 1 else '2nd'} half · {secs // 60:02d}:{secs % 60:02d}"
    if clock.get("period_seconds"):
        total = int(clock["period_seconds"])
        clock_text += f" of {total // 60:02d}:00"
    card = view.get("last_card")
    return {
        "kind": "block-field", "w": width + 2 * left, "h": height + 2 * top + 40, "left": left, "top": top,
        "field_w": width, "field_h": height, "shading": shading, "lines": lines, "lineout": lineout,
        "kick_off": kick_off, "block": b,
        "ball_x": left + (ball["x"] + 0.5) * b, "ball_y": sy(ball["y"] + 1) + b / 2,
        "attack_up": poss == 0, "possession": ("home", "away")[poss] if poss in (0, 1) else None,
        "dice": list(view.get("last_dice") or []), "last_card": (card if isinstance(card, str) else
                                                                   (card or {}).get("name", "") if card else ""),
        "carrier": view.get("carrier") or "", "phase": (phase or "").replace("_", " "),
        "clock": clock_text, "info_y": top + height + 20,
    }


CHAMPION_VALUES = (("physical", "Phys"), ("pass", "Pass"), ("speed", "Spd"), ("kick", "Kick"))


def _champion_card(c: dict | None, x: float, y: float, w: float, h: float) -> dict:
    if not c:
        return {"x": x, "y": y, "w": w, "h": h, "down": True}
    values = c.get("values") or {}
    return {"x": x, "y": y, "w": w, "h": h, "down": False, "name": c.get("name", ""),
            "red": bool(c.get("red")), "values": [(abbr, values.get(k, "")) for k, abbr in CHAMPION_VALUES
                                                  if k in values],
            "referee": bool(c.get("referee")), "goal": bool(c.get("goal"))}


def _defensive_line(view: dict, seat, data) -> dict:
    """The Non-player's defensive line (L2 L1 A R1, the advanced card forward) and the person's hand."""
    phase = view.get("phase")
    view = view["board"]
    w, h, gap = 80, 96, 8
    line = []
    for i, spot in enumerate(view["line"]):
        x = 8 + i * (w + gap)
        y = 44 if spot["slot"] == "A" else 22
        card = _champion_card(spot["card"] if spot["face_up"] else None, x, y, w, h)
        card.update(slot=spot["slot"], occupied=spot["occupied"], target=spot.get("target", False))
        line.append(card)
    hand_cards = view.get("hand") or []
    n = max(len(hand_cards), 1)
    hw = min(w, (344 - (n - 1) * gap) / n)
    hand = [_champion_card(c, 8 + i * (hw + gap), 200, hw, h) for i, c in enumerate(hand_cards)]
    last = view.get("last") or {}
    half = view.get("half") or 1
    return {
        "kind": "defensive-line", "line": line, "hand": hand, "hand_count": view.get("hand_count", 0),
        "clock": f"Half {half} of {view.get('halves', 2)}", "phase": (phase or "").replace("_", " "),
        "direction": view.get("direction"), "target": view.get("target"),
        "setpiece": (view.get("setpiece") or {}).get("kind"), "advantage": view.get("advantage"),
        "pile": view.get("pile_count"), "support": view.get("support_count"),
        "last_text": _champion_last(last),
    }


def _champion_last(last: dict) -> str:
    if not isinstance(last, dict) or not last:
        return ""
    if "value" in last and "np_value" in last:
        return (f"Last {last.get('contest', 'challenge')}: {last.get('type', '')} {last.get('value')} "
                f"v {last.get('np_value')}")
    return ""


# board kind (``RuleSetSpec.board_kind``) -> builder; the template is ``matches/boards/<kind>.html``.
BUILDERS: dict[str, Callable[[dict, int | None, dict], dict]] = {
    "team-draft": _team_draft,
    "seven-cell-pitch": _seven_cell_pitch,
    "block-field": _block_field,
    "defensive-line": _defensive_line,
}


def board_context(board_kind: str, view: dict, seat: int | None, data: dict | None = None) -> dict:
    """Drawing data for a board of ``board_kind`` (the rule set's spec names it) from a seat's view; the
    generic layout for a kind without a drawing (or a view the drawing does not understand)."""
    builder = BUILDERS.get(board_kind)
    if builder is not None:
        try:
            return builder(view, seat, data or {})
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return _generic(view, seat, data or {})


def action_buttons(board_kind: str, legal: list[dict]) -> list[dict]:
    """The legal actions as buttons: ``text`` on the button, ``label`` (full) for screen readers and tooltips.

    Blind card choices (``card:<position>`` on a seven-cell pitch) get short, card-shaped buttons so six of
    them fit a 360-px phone in one row; draft exchanges (``swap:<take>:<give>``) show both cards.
    """
    out = []
    for item in legal:
        action, label = item["action"], item["label"]
        button = {"action": action, "label": label, "text": label, "kind": "wide"}
        try:
            verb, args = parse_action(action)
        except ValueError:
            verb, args = "", ()
        if board_kind == "seven-cell-pitch" and verb == "card" and len(args) == 1:
            button.update(text=args[0], kind="card")
        elif board_kind == "team-draft" and verb == "swap" and len(args) == 2:
            take, give = (card_face(a.upper())["label"] for a in args)
            button.update(text=f"+{take} \u2212{give}", kind="grid")
        out.append(button)
    return out
