"""Help for people playing a rule set: how to play, how it scores, and the names of what its board shows.

Each rule set keeps its help beside its rules in ``help.toml``, written from its rule book, one table per
language (``en``, ``af``, ``fr``) with the same keys:

* ``summary`` -- one sentence: what the game is;
* ``how_to_play`` -- the short "how to play" panel, a list of paragraphs;
* ``scoring`` -- how points are made and how the result is counted, a list of paragraphs;
* ``names`` -- display names of the ids its board and actions use (challenge types, referee groups and calls...);
* ``cards`` -- per card id, its ``name`` and ``text`` (the RUGBY_Bokx referee cards).

A language that lacks a key (or a name or card) falls back to English, so a page always has something to show.
"""

from __future__ import annotations

import importlib.resources
import tomllib
from functools import cache
from typing import Any

from engine.registry import KNOWN_RULESETS, get_ruleset

LANGUAGES = ("en", "af", "fr")
DEFAULT_LANGUAGE = "en"
HELP_FILE = "help.toml"
KEYS = ("summary", "how_to_play", "scoring", "names", "cards")


@cache
def _load(ruleset_id: str) -> dict[str, dict[str, Any]]:
    module = KNOWN_RULESETS.get(ruleset_id)
    if module is None:
        return {}
    resource = importlib.resources.files(module).joinpath(HELP_FILE)
    if not resource.is_file():
        return {}
    data: dict[str, dict[str, Any]] = tomllib.loads(resource.read_text(encoding="utf-8"))
    return data


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = _merge(base.get(key), value)
        return merged
    return base if over is None else over


def help_for(ruleset_id: str, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The help of a rule set in ``language`` (a code such as ``"fr"`` or ``"fr-ca"``), English where it lacks
    something; every key of :data:`KEYS` is present (empty when the rule set has no help)."""
    data = _load(ruleset_id)
    lang = (language or DEFAULT_LANGUAGE).lower().split("-")[0]
    english = data.get(DEFAULT_LANGUAGE, {})
    chosen = _merge(english, data.get(lang, {})) if lang != DEFAULT_LANGUAGE else english
    empty: dict[str, Any] = {"summary": "", "how_to_play": [], "scoring": [], "names": {}, "cards": {}}
    return {key: chosen.get(key, empty[key]) for key in KEYS}


def name_of(ruleset_id: str, key: str, language: str = DEFAULT_LANGUAGE) -> str:
    """The display name of an id the board uses (``"physical"`` -> ``"Physical"``), or the id itself."""
    names: dict[str, str] = help_for(ruleset_id, language)["names"]
    return names.get(key, key)


def cards_for(ruleset_id: str, language: str = DEFAULT_LANGUAGE) -> list[dict[str, Any]]:
    """Every card of a rule set for people (``GameState.reference_cards``), its ``text``, group and call named
    in ``language`` where the help translates them (``group_name``, ``call_name``), English otherwise."""
    try:
        cls = get_ruleset(ruleset_id)
    except KeyError:
        return []
    data = help_for(ruleset_id, language)
    names: dict[str, str] = data["names"]
    texts: dict[str, str] = data["cards"]
    out = []
    for card in cls.reference_cards():
        shown = dict(card)
        if "text" in shown:
            shown["text"] = texts.get(str(card["id"]), shown["text"])
        if "group" in shown:
            shown["group_name"] = names.get(str(card["group"]), str(card.get("group_name", card["group"])))
        if "call" in shown:
            shown["call_name"] = names.get(f"call.{card['call']}", str(card["call"]))
        out.append(shown)
    return out
