"""Small template helpers for the league pages."""

from __future__ import annotations

from urllib.parse import quote

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _

from league.dates import tournament_zone
from league.event_lookup import event_of
from league.nations import NATION_FLAGS

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
def home_code(fixture):
    return side_name(fixture, "home", short=True)


@register.filter
def away_code(fixture):
    return side_name(fixture, "away", short=True)


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


# --- team badges: a nation's flag, an uploaded logo, or a crest in the team's colours ------------------------------

# Width and height of a badge by size and kind (flags are 4:3, crests 5:6, logos square).
_BADGE_SIZES = {"sm": 16, "md": 32, "lg": 64}


def team_initials(name: str) -> str:
    """Up to three initials of a team's name for its crest ("St John's College" -> "SJC", "Harlequins" -> "HA")."""
    words = ["".join(ch for ch in word if ch.isalnum()) for word in (name or "").split()]
    words = [w for w in words if w]
    if not words:
        return "?"
    if len(words) == 1:
        return words[0][:2].upper()
    return "".join(w[0] for w in words[:3]).upper()


def badge(team) -> tuple[str, str]:
    """(URL, kind) of a team's badge: ``flag`` (a nation's, shipped in static/flags), ``logo`` (uploaded) or
    ``crest`` (drawn from its colours and initials, ``league.views.team_crest``)."""
    flag = NATION_FLAGS.get(team.code) if getattr(team, "is_nation", False) else None
    if flag:
        return static(f"flags/{flag}.svg"), "flag"
    if getattr(team, "logo", ""):
        return reverse("league:team_logo", args=[team.logo]), "logo"
    colours = f"{team.primary_colour.lstrip('#')}-{team.secondary_colour.lstrip('#')}".upper()
    return reverse("league:team_crest", args=[f"{quote(team_initials(team.name), safe='')}-{colours}"]), "crest"


@register.simple_tag
def team_badge(team, size: str = "sm"):
    """The ``<img>`` of a team's badge (decorative: the team's name is always written next to it)."""
    if team is None:
        return ""
    url, kind = badge(team)
    height = _BADGE_SIZES.get(size, 16)
    width = {"flag": height * 4 // 3, "crest": height * 5 // 6}.get(kind, height)
    return format_html('<img class="badge badge-{} badge-{}" src="{}" alt="" width="{}" height="{}" loading="lazy">',
                       kind, size, url, width, height)


@register.simple_tag
def local_time(moment, tournament=None, fmt: str = "H:i"):
    """``<time>`` of a moment as the tournament's visitors read it (``league.dates.tournament_zone``): the one
    tag the public pages use for kick-offs, so the tournament's own time zone and its label plug in here."""
    if moment is None:
        return ""
    local = timezone.localtime(moment, tournament_zone(tournament))
    return format_html('<time datetime="{}">{}</time>', local.isoformat(), dateformat.format(local, fmt))


@register.filter
def explained_rows(rows):
    """The rows of a table whose place a tie-breaker decided (each has ``notes``), for the note under it."""
    return [row for row in rows if row.get("notes")]


@register.simple_tag(name="event_of")
def event_of_tag(tournament):
    """The event a tournament is a division of (None on its own): ``{% event_of tournament as event %}``."""
    return event_of(tournament)
