"""The computer levels as the site offers them: the engine's levels, with translated labels and help.

The level names live in the engine (``engine.players.LEVELS``); this module only dresses them for forms,
the admin and the API, so that a level added to the engine appears everywhere a computer seat is chosen.
"""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from engine.players import DEFAULT_LEVEL, FORMER_SITE_LEVELS, LEVEL_HELP, LEVEL_LABELS, LEVELS

__all__ = ["DEFAULT_LEVEL", "FORMER_SITE_LEVELS", "LEVELS", "level_choices", "level_help", "site_level"]


def level_choices() -> list[tuple[str, object]]:
    """``[(level, translated label), ...]``, weakest first."""
    return [(level, _(LEVEL_LABELS[level])) for level in LEVELS]


def level_help() -> object:
    """One line per level (translated): what playing against it is like."""
    return format_lazy(" ".join(["{}: {}"] * len(LEVELS)),
                       *(part for level in LEVELS for part in (_(LEVEL_LABELS[level]), _(LEVEL_HELP[level]))))


def site_level(name: str) -> str:
    """A level name as stored: a former name (``aware``, ``random``) becomes today's; others are unchanged."""
    return FORMER_SITE_LEVELS.get(name, name)
