"""Tournament formats behind one registry, keyed by ``Tournament.format``.

Each format is one module of this package implementing ``league.formats.base.TournamentFormat`` (its preset,
its fixtures, its brackets, what happens after a result, its table). Adding a format: write its module, list
it in ``FORMATS`` below, and add its id to ``Tournament.Format`` (the stored value's choices; a test checks
that the two agree).
"""

from __future__ import annotations

from league.formats import cup_plate, pools_knockout, round_robin, rwc2023, single_elimination, solo, swiss
from league.formats.base import TournamentFormat
from league.models import Tournament

FORMATS: dict[str, TournamentFormat] = {
    f.id: f for f in (
        rwc2023.FORMAT,
        round_robin.FORMAT,
        pools_knockout.FORMAT,
        single_elimination.FORMAT,
        cup_plate.FORMAT,
        swiss.FORMAT,
        solo.FORMAT,
    )
}


def get_format(format_id: str) -> TournamentFormat:
    """The format of this id (``KeyError`` naming the known ones when there is none)."""
    try:
        return FORMATS[format_id]
    except KeyError:
        raise KeyError(f"Unknown format {format_id!r}; known: {', '.join(FORMATS)}") from None


def format_of(tournament: Tournament) -> TournamentFormat:
    """The format of a tournament."""
    return get_format(tournament.format)


__all__ = ["FORMATS", "TournamentFormat", "format_of", "get_format"]
