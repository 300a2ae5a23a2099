"""Drawing data for the play pages: turn a seat's view (engine JSON) into shapes the SVG templates place.

Pure functions (no database; only Django's translation of the words they draw). A rule set's spec names the
kind of board it is drawn on (``RuleSetSpec.board_kind``); each kind has a builder here and a template
``matches/boards/<kind>.html`` (with its legend in ``<kind>.legend.html``), so this module knows drawings,
never rule sets. A builder reads only the view the seat may see (the engine's envelope: ``phase``, ``seat``,
``over``... and the rule set's own ``board`` data), so a drawing can never show a card the view hid. Names of
what the board shows (challenge types, referee calls, cards) come from the rule set's help
(``engine.help``), in the page's language. A builder that meets a view it does not understand falls back to
the generic layout rather than failing the page.

Every board is drawn from the viewing player's side: their end of the field at the bottom of the screen,
attacking up (or to the right), so that "left" in a button is on their left. Spectators see home's side.
Elements that move or appear carry ``key`` values (``data-anim-key`` in the templates): the page's script
animates those that are new after a swap (dealt, played or revealed cards, thrown dice) and the ball's move.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import parse_action
from engine.bokx import field

SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = {"H", "D", "\u2665", "\u2666"}
STRIKER_RANKS = ("J", "Q", "K", "A")

Help = dict[str, Any]


def _names(help_data: Help | None) -> dict[str, str]:
    return (help_data or {}).get("names") or {}


def _name(help_data: Help | None, key: str, default: str | None = None) -> str:
    return _names(help_data).get(key, default if default is not None else key)


def score_text(points: Any) -> str:
    """A score for people: ``5.5`` -> ``"5½"``, ``0.5`` -> ``"½"``, ``3`` -> ``"3"``."""
    if points is None or points == "":
        return "0"
    value = Fraction(str(points))
    whole, rest = divmod(value, 1)
    if rest == Fraction(1, 2):
        return f"{whole}\u00bd" if whole else "\u00bd"
    return str(int(value)) if rest == 0 else str(float(value))


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


def _viewer(seat: int | None) -> int:
    """The side a board is drawn from: the player's, or home's for a spectator."""
    return 1 if seat == 1 else 0


def _generic(view: dict, seat, data, help_data=None) -> dict:
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


def _row(cards, *, x0: float, y: float, width: float = 36, gap: float = 6, key: str = "") -> list[dict]:
    out = []
    for i, card in enumerate(cards):
        face = card_face(card)
        face.update(x=x0 + i * (width + gap), y=y, w=width, h=width * 1.4, index=i,
                    key=f"{key}-{card}" if key and card else "",
                    striker=not face["down"] and face["label"][:-1] in STRIKER_RANKS)
        out.append(face)
    return out


# ---- Seasons: two five-card teams and the draft ---------------------------------------------------------


def _team_draft(view: dict, seat, data, help_data=None) -> dict:
    """Two five-card teams facing each other across the draft; the viewer's team at the bottom."""
    over = view.get("over")
    board = view["board"]
    teams = board["teams"]
    me = _viewer(seat)
    width, gap = 44, 8
    row_w = 5 * width + 4 * gap
    x0 = (300 - row_w) / 2
    near = _row(teams[me], x0=x0, y=150, width=width, gap=gap, key=f"team{me}")
    far = _row(teams[1 - me], x0=x0, y=26, width=width, gap=gap, key=f"team{1 - me}")
    draft_x = (300 - (len(board["draft"]) * (width + gap) - gap)) / 2
    draft = _row(board["draft"], x0=draft_x, y=92, width=width * 0.8, gap=gap, key="draft")
    for card in draft:
        card["h"] = width * 0.8 * 1.4
    results = [{"season": r["season"], "points": r["points"],
                "winner": {0: "home", 1: "away", None: "halved"}[r["winner"]]} for r in board.get("results", [])]
    total = board.get("seasons_total", 11)
    season = min(board.get("season", 0) + (0 if over else 1), total)
    seats = {s["seat"]: s for s in (data or {}).get("seats", [])}
    return {
        "kind": "team-draft", "near": near, "far": far, "draft": draft,
        "near_seat": seats.get(me, {}), "far_seat": seats.get(1 - me, {}), "mine": seat in (0, 1),
        "near_exchanges": board.get("exchanges", [0, 0])[me], "far_exchanges": board.get("exchanges", [0, 0])[1 - me],
        "stock": board.get("stock_count", 0), "results": results,
        "clock": _("Season %(season)s of %(total)s") % {"season": season, "total": total},
        "max_exchanges": board.get("max_exchanges"),
        "last": board.get("last_season"),
    }


# ---- the card game: the seven-position pitch --------------------------------------------------------------


PITCH_CELLS = ("T", "1", "2", "3", "3", "2", "1", "T")


def _seven_cell_pitch(view: dict, seat, data, help_data=None) -> dict:
    """The pitch T|1 2 3|3 2 1|T with the coin, both face-down rows, the cards just turned over.

    Drawn from the viewer's end: their try line on the left, their row of cards at the bottom.
    """
    phase = view.get("phase")
    side = ("home", "away")[view["seat"]] if view.get("seat") in (0, 1) else None
    board = view["board"]
    me = _viewer(seat)
    near_name, far_name = ("home", "away")[me], ("away", "home")[me]
    cell_w, x0 = 40, 20

    def screen(i: int) -> int:  # the cell index as drawn: the viewer's try line on the left
        return 7 - i if me == 1 else i

    cells = [{"x": x0 + screen(i) * cell_w, "label": label, "end": i in (0, 7), "half": "home" if i < 4 else "away"}
             for i, label in enumerate(PITCH_CELLS)]
    ball = int(board["ball"])
    legal = {a["action"] for a in (data or {}).get("legal_actions", [])}
    rows = {}
    for name, y in ((far_name, 128), (near_name, 268)):
        live = board["rows"].get(name, [])
        width = 40
        start = (360 - (len(live) * (width + 8) - 8)) / 2
        cards = []
        for i, present in enumerate(live):
            action = f"card:{i + 1}"
            cards.append({"x": start + i * (width + 8), "y": y, "w": width, "h": 54, "down": bool(present),
                          "gone": not present, "label": "", "red": False, "position": i + 1,
                          "mine": name == side, "action": action if name == side and action in legal else "",
                          "chosen": name == side and board.get("your_choice") == i + 1})
        rows[name] = cards
    last = board.get("last_round") or []
    shown = []
    for i, pair in enumerate(last[-3:]):
        for j, name in enumerate((near_name, far_name)):
            face = card_face(pair[name])
            face.update(x=110 + j * 100 + i * 6, y=196 + i * 4, w=40, h=54 if i == 0 else 40,
                        caption="" if i else (_("Home") if name == "home" else _("Away")),
                        key=f"shown-{board['set']}-{board['tackle']}-{i}-{name}-{pair[name]}")
            shown.append(face)
    period = int(board.get("period", 0))
    if period < 2:
        set_no = min(board["set"] - period * board["sets_per_half"], board["sets_per_half"])
        half = _("1st half") if period == 0 else _("2nd half")
        clock = _("%(half)s · set %(set)s of %(sets)s") % {"half": half, "set": set_no, "sets": board["sets_per_half"]}
    else:
        clock = _("Extra time (golden point) · set %(set)s") % {"set": board["set"]}
    attacker = _("Home") if board["attacker"] == "home" else _("Away")
    if phase == "tackle":
        status = _("%(side)s attack · tackle %(tackle)s · %(lost)s lost") % {
            "side": attacker, "tackle": board["tackle"] + 1, "lost": board["tackles_lost"]}
    elif phase == "contest" and board.get("contest"):
        c = board["contest"]
        status = _("Kick at goal (%(kind)s): %(wins)s of %(needed)s round wins, round %(round)s") % {
            "kind": c["kind"], "wins": c["wins"], "needed": c["wins_needed"], "round": c["rounds"] + 1}
    elif phase == "penalty":
        status = _("Penalty to %(side)s") % {"side": _("Home") if board.get("penalty_to") == "home" else _("Away")}
    else:
        status = _("Full time")
    return {
        "kind": "seven-cell-pitch", "cells": cells, "ball_x": x0 + screen(ball) * cell_w + cell_w / 2,
        "ball_key": ball, "attack_right": board["attacker"] == ("home", "away")[me],
        "ball_label": board.get("ball_label", ""),
        "rows": rows, "near": near_name, "far": far_name, "shown": shown, "clock": clock, "status": status,
        "pile": board.get("pile"), "your_choice": board.get("your_choice"), "side": side,
        "left_colour_seat": me, "right_colour_seat": 1 - me,
    }


# ---- RUGBY Bokx: the block field ------------------------------------------------------------------------


BOKX_BLOCK = 15
NUMBER = re.compile(r"\((\d+)\)")


def _block_field(view: dict, seat, data, help_data=None) -> dict:
    """The 22 x 16 block field from ``engine.bokx.field``'s geometry, drawn from the viewer's end: their goal
    line at the bottom, attacking up, so that their left is on the left (away's field is turned round)."""
    phase = view.get("phase")
    board = view["board"]
    b = BOKX_BLOCK
    left, top = 20, 8
    width, height = field.COLS * b, field.ROWS * b
    flip = _viewer(seat) == 1

    def line_y(r: float) -> float:  # screen y of the boundary below row r (row 21 is at the top unturned)
        return top + (r if flip else field.ROWS - r) * b

    def row_top(row: int) -> float:
        return line_y(row) if flip else line_y(row + 1)

    def col_left(col: float) -> float:
        return left + ((field.COLS - 1 - col) if flip else col) * b

    def col_line(c: int) -> float:
        return left + ((field.COLS - c) if flip else c) * b

    poss = board.get("possession")
    shading = [{"y": row_top(row), "h": b, "cls": "in-goal"} for row in field.IN_GOAL_ROWS]
    if poss in (0, 1):
        zones = field.zones(poss)
        shading += [{"y": row_top(row), "h": b, "cls": "zone-red"} for row in zones["red"]]
        shading += [{"y": row_top(row), "h": b, "cls": "zone-blue"} for row in zones["blue"]]
    lines = [{"y": line_y(r), "cls": f"line-{kind.replace('_', '-')}"} for kind, rows in field.LINES.items()
             for r in rows]
    lineout = [{"x": col_line(c)} for cols in field.LINEOUT_LINES.values() for c in cols]
    kick_off = [{"x": col_left(x), "y": row_top(y), "colour": field.KICK_OFF_COLOURS[kind]}
                for kind, per_seat in field.KICK_OFF_BLOCKS.items() for x, y in per_seat.values()]
    ball = board.get("ball") or {"x": 7, "y": 10}
    clock = board.get("clock") or {}
    secs = int(clock.get("seconds") or 0)
    half = board.get("half") or 1
    clock_text = _("%(half)s · %(time)s") % {"half": _("1st half") if half == 1 else _("2nd half"),
                                             "time": f"{secs // 60:02d}:{secs % 60:02d}"}
    if clock.get("period_seconds"):
        clock_text += " / " + f"{int(clock['period_seconds']) // 60:02d}:00"
    seats = {s["seat"]: s for s in (data or {}).get("seats", [])}
    me = _viewer(seat)
    # The ghost balls of a side choice: where the ball would end, left and right.
    previews = []
    side_preview = board.get("side_preview") or {}
    for side_name in ("left", "right"):
        where = side_preview.get(side_name)
        if not isinstance(where, dict):
            continue
        x = max(0, min(field.COLS - 1, int(where["x"])))
        y = int(side_preview.get("land_y", ball["y"])) if side_preview.get("kind") == "kick" else int(ball["y"])
        previews.append({"side": side_name, "x": col_left(x) + b / 2, "y": row_top(y) + b / 2,
                         "touch": bool(where.get("touch")), "blocks": side_preview.get("blocks"),
                         "label": _("left") if side_name == "left" else _("right")})
    carrier = board.get("carrier") or ""
    number = NUMBER.search(carrier)
    referee = board.get("referee_card")
    card = None
    if isinstance(referee, dict):
        cards = (help_data or {}).get("cards") or {}
        # Its place in the commentary tells a card just drawn (animated once) from one drawn earlier.
        events = (data or {}).get("events") or []
        drawn_at = next((i for i in range(len(events) - 1, -1, -1) if events[i].get("kind") == "card"), None)
        card = {"group": _name(help_data, referee["group"], referee.get("group_name", referee["group"])),
                "call": _name(help_data, "call." + referee["call"], referee["call"].replace("_", " ")),
                "text": cards.get(referee["id"]) or referee.get("text", ""), "id": referee["id"],
                "key": f"{referee['id']}-{(data or {}).get('events_from', 0) + drawn_at}" if drawn_at is not None
                else referee["id"]}
    return {
        "kind": "block-field", "w": width + 2 * left, "h": height + 2 * top + 60, "left": left, "top": top,
        "field_w": width, "field_h": height, "shading": shading, "lines": lines, "lineout": lineout,
        "kick_off": kick_off, "block": b, "flip": flip,
        "ball_x": col_left(ball["x"]) + b / 2, "ball_y": row_top(ball["y"]) + b / 2,
        "attack_up": poss == me, "possession": ("home", "away")[poss] if poss in (0, 1) else None,
        "possession_seat": seats.get(poss, {}) if poss in (0, 1) else {},
        "far_seat": seats.get(1 - me, {}), "near_seat": seats.get(me, {}),
        "dice": list(board.get("last_dice") or []), "dice_key": f"{(data or {}).get('ply', '')}",
        "referee": card, "carrier": carrier, "carrier_number": number.group(1) if number else "",
        "phase": _name(help_data, phase or "", (phase or "").replace("_", " ")),
        "clock": clock_text, "info_y": top + height + 20, "previews": previews,
    }


# ---- Rugby Champion solo: the defensive line and the hand -----------------------------------------------


CHAMPION_TYPES = ("physical", "pass", "speed", "kick")


def _champion_card(c: dict | None, x: float, y: float, w: float, h: float, help_data=None, key: str = "") -> dict:
    if not c:
        return {"x": x, "y": y, "w": w, "h": h, "down": True, "key": key}
    values = c.get("values") or {}
    rows = [{"type": t, "name": _name(help_data, t, t.capitalize()), "value": values.get(t, ""),
             "red": c.get("red") == t} for t in CHAMPION_TYPES if t in values]
    for i, row in enumerate(rows):
        row["y"] = 28 + i * 15  # the text's baseline; its red background sits just above it
    return {"x": x, "y": y, "w": w, "h": h, "down": False, "name": c.get("name", ""), "rows": rows,
            "arrow": c.get("arrow"), "whistles": range(int(c.get("whistles") or 0)),
            "referee": bool(c.get("referee")), "goal": bool(c.get("goal")), "key": key or c.get("id", "")}


def _defensive_line(view: dict, seat, data, help_data=None) -> dict:
    """The Non-player's defensive line (L2 L1 A R1, the advanced card forward) and the person's hand."""
    phase = view.get("phase")
    board = view["board"]
    w, h, gap = 80, 104, 8
    line = []
    for i, spot in enumerate(board["line"]):
        x = 8 + i * (w + gap)
        y = 44 if spot["slot"] == "A" else 22
        card = _champion_card(spot["card"] if spot["face_up"] else None, x, y, w, h, help_data,
                              key=f"line-{spot['slot']}-{(spot['card'] or {}).get('id', '')}")
        card.update(slot=spot["slot"], occupied=spot["occupied"], target=spot.get("target", False))
        line.append(card)
    hand_cards = board.get("hand") or []
    n = max(len(hand_cards), 1)
    hw = min(w, (344 - (n - 1) * gap) / n)
    hand = [_champion_card(c, 8 + i * (hw + gap), 0, hw, h, help_data, key=f"hand-{c.get('id', i)}")
            for i, c in enumerate(hand_cards)]
    last = board.get("last") or {}
    half = board.get("half") or 1
    seats = {s["seat"]: s for s in (data or {}).get("seats", [])}
    advantage = board.get("advantage")
    holder = {"home": 0, "away": 1}.get(advantage) if advantage else None
    setpiece = board.get("setpiece") or None
    piece = None
    if setpiece:
        piece = {"kind": _name(help_data, setpiece["kind"], setpiece["kind"].capitalize()),
                 "value": setpiece["card"]["value"],
                 "type": _name(help_data, setpiece["card"]["type"], setpiece["card"]["type"])}
    forced = board.get("forced_type")
    return {
        "kind": "defensive-line", "line": line, "hand": hand, "hand_count": board.get("hand_count", 0),
        "clock": _("Half %(half)s of %(halves)s") % {"half": half, "halves": board.get("halves", 2)},
        "phase": _name(help_data, phase or "", (phase or "").replace("_", " ")),
        "direction": _name(help_data, board["direction"]) if board.get("direction") else "",
        "target": _name(help_data, board["target"]) if board.get("target") else "",
        "forced_type": _name(help_data, forced, forced) if forced else "",
        "setpiece": piece, "advantage": seats.get(holder, {}).get("name") if holder is not None else "",
        "pile": board.get("pile_count"), "support": board.get("support_count"),
        "last_text": _champion_last(last, help_data),
    }


def _champion_last(last: dict, help_data=None) -> str:
    if not isinstance(last, dict) or not last:
        return ""
    if last.get("contest") == "challenge" and last.get("value") is not None:
        return _("Last challenge (%(type)s): you %(mine)s v %(theirs)s") % {
            "type": _name(help_data, last.get("type", ""), last.get("type", "")), "mine": last["value"],
            "theirs": last["np_value"]}
    if last.get("total") is not None:
        return _("Last %(kind)s: your pair %(mine)s v %(theirs)s") % {
            "kind": _name(help_data, last.get("contest", ""), last.get("contest", "")), "mine": last["total"],
            "theirs": last["np_total"]}
    return ""


# board kind (``RuleSetSpec.board_kind``) -> builder; the template is ``matches/boards/<kind>.html``.
BUILDERS: dict[str, Callable[..., dict]] = {
    "team-draft": _team_draft,
    "seven-cell-pitch": _seven_cell_pitch,
    "block-field": _block_field,
    "defensive-line": _defensive_line,
}


def board_context(board_kind: str, view: dict, seat: int | None, data: dict | None = None,
                  help_data: Help | None = None) -> dict:
    """Drawing data for a board of ``board_kind`` (the rule set's spec names it) from a seat's view; the
    generic layout for a kind without a drawing (or a view the drawing does not understand). ``help_data``
    (``engine.help.help_for``) names what the board shows in the page's language."""
    builder = BUILDERS.get(board_kind)
    if builder is not None:
        try:
            return builder(view, seat, data or {}, help_data)
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return _generic(view, seat, data or {})


def action_buttons(board_kind: str, legal: list[dict], previews: dict[str, Any] | None = None,
                   help_data: Help | None = None) -> list[dict]:
    """The legal actions as buttons: ``text`` on the button, ``label`` (full) for screen readers and tooltips,
    and ``preview``, what the choice does where the engine knows it (``GameState.action_previews`` or the
    board's own preview).

    Blind card choices (``card:<position>`` on a seven-cell pitch) get short, card-shaped buttons so six of
    them fit a 360-px phone in one row; draft exchanges (``swap:<take>:<give>``) say what comes in and goes out.
    """
    previews = previews or {}
    out = []
    for item in legal:
        action, label = item["action"], item["label"]
        button = {"action": action, "label": label, "text": label, "kind": "wide", "preview": ""}
        try:
            verb, args = parse_action(action)
        except ValueError:
            verb, args = "", ()
        preview = previews.get(action)
        if board_kind == "seven-cell-pitch" and verb == "card" and len(args) == 1:
            button.update(text=args[0], kind="card")
        elif board_kind == "team-draft" and verb == "swap" and len(args) == 2:
            take, give = (card_face(a.upper())["label"] for a in args)
            button.update(text=_("Take %(take)s, give up %(give)s") % {"take": take, "give": give}, kind="grid")
        if board_kind == "team-draft" and isinstance(preview, dict) and "season" in preview:
            mine, theirs = preview["season"]
            button["preview"] = _("season as the teams stand: %(mine)s–%(theirs)s") % {"mine": mine, "theirs": theirs}
        elif board_kind == "defensive-line" and isinstance(preview, dict):
            kind = _name(help_data, preview.get("type", ""), preview.get("type", ""))
            if "total" in preview:
                button["kind"] = "grid"
                button["preview"] = _("%(kind)s total %(total)s v %(theirs)s + hidden card") % {
                    "kind": kind, "total": preview["total"], "theirs": preview["np_value"]}
        elif board_kind == "block-field" and isinstance(preview, dict) and "x" in preview:
            if preview.get("touch"):
                button["preview"] = _("into touch")
            else:
                blocks = preview.get("blocks") or 0
                button["preview"] = ngettext("%(n)s block across", "%(n)s blocks across", blocks) % {"n": blocks}
        out.append(button)
    return out

