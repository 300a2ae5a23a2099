"""Cleaning of the text people type into names and venues, and of the cells the CSV exports write.

``clean_text`` is applied by the services to every name and venue they store (teams, tournaments, pools,
players, venues): control characters (a lone carriage return, a tab, a NUL...) become a space, and the
invisible bidirectional controls (right-to-left overrides and isolates, which can make "SA 13 NZ 40" read as
something else) are removed. ``csv_cell`` neutralises what a spreadsheet would run as a formula.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

# Explicit directional embeddings, overrides and isolates, and the marks (U+200E/F, U+061C).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_SPACES = re.compile(r"\s+")
# A spreadsheet (Excel, LibreOffice, Google Sheets) reads a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def clean_text(value: Any) -> str:
    """One line of text as stored: bidirectional controls removed, other control and separator characters
    turned into spaces, runs of spaces collapsed, the ends trimmed."""
    text = "" if value is None else str(value)
    out = []
    for char in text:
        if char in BIDI_CONTROLS:
            continue
        category = unicodedata.category(char)
        out.append(" " if category in ("Cc", "Zl", "Zp") else char)
    return _SPACES.sub(" ", "".join(out)).strip()


def csv_cell(value: Any) -> Any:
    """A value for a CSV export: text that a spreadsheet would run as a formula gets a leading apostrophe
    (shown as text, the OWASP advice); numbers are left as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
