"""The formats' registry: one module per format, keyed by the values of ``Tournament.format``."""

from __future__ import annotations

from league.formats import FORMATS, TournamentFormat, get_format
from league.models import Tournament


def test_every_stored_format_has_its_module_and_no_other():
    assert set(FORMATS) == set(Tournament.Format.values)
    for format_id, fmt in FORMATS.items():
        assert isinstance(fmt, TournamentFormat) and fmt.id == format_id and get_format(format_id) is fmt
        assert fmt.label and fmt.description and fmt.fixtures_intro
        # Each format makes its own fixtures and its own preset (the base class has neither).
        assert type(fmt).generate_fixtures is not TournamentFormat.generate_fixtures
        assert type(fmt).preset is not TournamentFormat.preset


def test_an_unknown_format_is_named():
    try:
        get_format("round-the-world")
    except KeyError as exc:
        assert "round-the-world" in str(exc) and "swiss" in str(exc)
    else:
        raise AssertionError("an unknown format was accepted")
