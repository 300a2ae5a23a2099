"""Small template helpers for the league pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


def slot_label(source: str) -> str:
    """Describe where a knockout fixture's team comes from ("pool:A:1" -> "Winner Pool A").

    Sources are written by the formats code: ``pool:<name>:<position>``,
    ``winner:<code>``, ``loser:<code>``, ``seed:<n>``; anything else is shown as is.
    """
    if not source:
        return _("To be decided")
    kind, _sep, rest = source.partition(":")
    if kind == "pool":
        pool, _sep, position = rest.partition(":")
        if position == "1":
            return _("Winner Pool %(pool)s") % {"pool": pool}
        if position == "2":
            return _("Runner-up Pool %(pool)s") % {"pool": pool}
        return _("Pool %(pool)s, place %(position)s") % {"pool": pool, "position": position}
    if kind == "winner":
        return _("Winner %(match)s") % {"match": rest}
    if kind == "loser":
        return _("Loser %(match)s") % {"match": rest}
    if kind == "seed":
        return _("Seed %(seed)s") % {"seed": rest}
    return source


def side_name(fixture, side: str, short: bool = False) -> str:
    """The team on one side of a fixture (its name or code), or the slot's description while it is not known."""
    entry = getattr(fixture, side)
    if entry is not None:
        return entry.team.code if short else entry.team.name
    return slot_label(getattr(fixture, f"{side}_source"))


@register.filter
def home_name(fixture):
    return side_name(fixture, "home")


@register.filter
def away_name(fixture):
    return side_name(fixture, "away")


@register.filter
def slot(source):
    return slot_label(source)


@register.filter
def result_of(fixture):
    """The fixture's result, or None (without raising when there is none)."""
    try:
        return fixture.result
    except Exception:  # RelatedObjectDoesNotExist
        return None
