"""Time zones of tournaments: IANA names, checked; local times read and shown in a tournament's own zone.

Kick-offs are stored in UTC. A tournament has its zone ("Africa/Johannesburg"); its pages show and read
times in it (``league.permissions.tournament_for`` makes it the current zone of the request), so a 09:00
kick-off in Cape Town reaches a parent's phone as 09:00 SAST, and its calendar files carry the zone.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.errors import DomainError


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (from the ``tzdata`` package when the system has none)."""
    return frozenset(available_timezones())


def zone_choices() -> list[tuple[str, str]]:
    """The zones as form choices, "Africa/Johannesburg" first by region then city (UTC last)."""
    names = sorted(n for n in zone_names() if "/" in n and not n.startswith(("Etc/", "SystemV/", "US/")))
    return [(n, n.replace("_", " ")) for n in names] + [("UTC", "UTC")]


def default_time_zone() -> str:
    """A new tournament's zone: the site's ``TIME_ZONE`` setting."""
    return settings.TIME_ZONE


def validate_time_zone(value: str) -> None:
    """Refuse anything but a known IANA zone name (the model field's validator)."""
    if value not in zone_names() and value != "UTC":
        raise ValidationError(gettext_lazy("“%(value)s” is not a time zone: use a name such as "
                                           "Africa/Johannesburg or Pacific/Auckland."), params={"value": value})


def zone(name: str) -> ZoneInfo:
    """The zone of this name; the site's zone if the name is unknown (a row written before the check)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(settings.TIME_ZONE)


def local_datetime(name: str, day: dt.date, time: dt.time) -> dt.datetime:
    """The aware moment of a wall-clock ``day`` and ``time`` in zone ``name``.

    A time the clocks skip (02:30 when they go forward at 02:00) is refused with a message; a time that
    happens twice (when they go back) is the first of the two.
    """
    tz = zone(name)
    naive = dt.datetime.combine(day, time.replace(tzinfo=None))
    aware = naive.replace(tzinfo=tz, fold=0)
    if aware.astimezone(dt.UTC).astimezone(tz).replace(tzinfo=None) != naive:
        raise DomainError({"time": [_("%(time)s does not exist on %(day)s in %(zone)s: the clocks go forward "
                                      "then. Choose another time.") % {
            "time": time.strftime("%H:%M"), "day": date_format(day, "j F Y"), "zone": name}]})
    return aware


def wall_clock(value: dt.datetime, name: str) -> dt.datetime:
    """``value`` as a naive wall-clock time in zone ``name``."""
    return value.astimezone(zone(name)).replace(tzinfo=None)


def short_label(value: dt.datetime | None, name: str) -> str:
    """"Sat 14 Jun 09:00 SAST": a kick-off as the pages of its tournament show it ("" for none)."""
    if value is None:
        return ""
    local = value.astimezone(zone(name))
    return f"{date_format(local, 'D j M')} {local:%H:%M} {local.tzname()}"
