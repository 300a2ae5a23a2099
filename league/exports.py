"""Exports of a tournament: iCalendar feeds, CSV files, and the data of the printable sheets.

The iCalendar text is written by hand following RFC 5545 (no extra dependency):
CRLF line ends, lines folded at 75 octets without splitting a UTF-8 character,
TEXT values escaped (backslash, semicolon, comma, newline), a stable UID per
fixture and a DTSTAMP on every event, times in UTC.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable

from django.db.models import Q, QuerySet
from django.utils import timezone

from league.models import Entry, Fixture, Tournament
from league.templatetags.league_tags import side_name

# A rugby match with the break; board games at an evening are shorter, but a
# calendar entry only needs a sensible block of time.
MATCH_DURATION = dt.timedelta(minutes=100)
PRODID = "-//Rugby tournaments//Fixtures//EN"


def tournament_fixtures(tournament: Tournament, entry: Entry | None = None) -> QuerySet[Fixture]:
    """The tournament's fixtures (one team's when ``entry`` is given) with everything the exports print."""
    qs = Fixture.objects.filter(tournament=tournament).select_related("pool", "home__team", "away__team", "result")
    if entry is not None:
        qs = qs.filter(Q(home=entry) | Q(away=entry))
    return qs.order_by("kickoff", "round_number", "slot", "id")


def fixture_title(fixture: Fixture) -> str:
    """"France v New Zealand (Pool A)" or "QF1: Winner Pool C v Runner-up Pool D"."""
    title = f"{side_name(fixture, 'home')} v {side_name(fixture, 'away')}"
    if fixture.pool_id:
        return f"{title} (Pool {fixture.pool.name})"
    label = fixture.code or fixture.round_name
    return f"{label}: {title}" if label else title


def result_text(fixture: Fixture) -> str:
    """"Result: 27-10 (tries 3-1)" when the fixture has a result, else ""."""
    result = result_of(fixture)
    if result is None:
        return ""
    return f"Result: {result.home_score}-{result.away_score} (tries {result.home_tries}-{result.away_tries})"


def result_of(fixture: Fixture):
    """The fixture's result, or None when it has none (without raising)."""
    try:
        return fixture.result
    except Fixture.result.RelatedObjectDoesNotExist:
        return None


def _has_result(fixture: Fixture) -> bool:
    return result_of(fixture) is not None


# --- iCalendar ---------------------------------------------------------------------------------------------------


def ics_escape(value: str) -> str:
    """Escape a TEXT value (RFC 5545 section 3.3.11)."""
    return (
        value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\r\n", "\\n").replace("\n", "\\n")
    )


def ics_fold(line: str) -> str:
    """Fold a content line at 75 octets (RFC 5545 section 3.1), never inside a UTF-8 character."""
    out: list[str] = []
    current = ""
    size = 0
    limit = 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            out.append(current)
            # Continuation lines start with a space, which counts towards their 75 octets.
            current, size, limit = char, width, 74
        else:
            current += char
            size += width
    out.append(current)
    return "\r\n ".join(out)


def ics_time(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def ics_calendar(name: str, fixtures: Iterable[Fixture], *, host: str = "rugby-tournaments",
                 base_url: str = "", now: dt.datetime | None = None) -> str:
    """An iCalendar document with one VEVENT per fixture that has a kick-off time."""
    stamp = ics_time(now or timezone.now())
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{ics_escape(name)}",
    ]
    for fixture in fixtures:
        if fixture.kickoff is None:
            continue
        description = result_text(fixture)
        lines += [
            "BEGIN:VEVENT",
            f"UID:fixture-{fixture.pk}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{ics_time(fixture.kickoff)}",
            f"DTEND:{ics_time(fixture.kickoff + MATCH_DURATION)}",
            f"SUMMARY:{ics_escape(fixture_title(fixture))}",
        ]
        if fixture.venue:
            lines.append(f"LOCATION:{ics_escape(fixture.venue)}")
        if description:
            lines.append(f"DESCRIPTION:{ics_escape(description)}")
        if base_url:
            lines.append(f"URL:{base_url}{fixture.pk}/")
        lines.append("STATUS:CANCELLED" if fixture.status == Fixture.Status.CANCELLED else "STATUS:CONFIRMED")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(ics_fold(line) + "\r\n" for line in lines)


# --- CSV ---------------------------------------------------------------------------------------------------------

FIXTURE_COLUMNS = ["stage", "pool", "round", "code", "date", "time", "venue", "home", "away", "status"]
# The first nine columns are those `import_results` reads (same names and order); the last four add what a
# knockout result needs (stage, match code, kind, who went through).
RESULT_COLUMNS = ["pool", "round", "date", "home", "away", "home_score", "away_score", "home_tries", "away_tries",
                  "stage", "code", "kind", "winner"]
STANDING_COLUMNS = ["pool", "position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
                    "tries_for", "tries_against", "bonus_points", "points"]


def _csv(rows: Iterable[Iterable[object]], header: list[str]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _local(value: dt.datetime | None) -> tuple[str, str]:
    if value is None:
        return "", ""
    value = timezone.localtime(value)
    return value.date().isoformat(), value.strftime("%H:%M")


def fixtures_csv(fixtures: Iterable[Fixture]) -> str:
    """CSV of fixtures: when and where each match is, and who plays."""
    rows = []
    for f in fixtures:
        date, time = _local(f.kickoff)
        rows.append([f.stage, f.pool.name if f.pool_id else "", f.round_number, f.code, date, time, f.venue,
                     side_name(f, "home", short=True), side_name(f, "away", short=True), f.status])
    return _csv(rows, FIXTURE_COLUMNS)


def results_csv(fixtures: Iterable[Fixture]) -> str:
    """CSV of the results entered so far (fixtures without a result are left out)."""
    rows = []
    for f in fixtures:
        if not _has_result(f):
            continue
        r = f.result
        date, _time = _local(f.kickoff)
        winner = ""
        if r.winner_id:
            winner = "home" if r.winner_id == f.home_id else "away"
        rows.append([f.pool.name if f.pool_id else "", f.round_number, date, side_name(f, "home", short=True),
                     side_name(f, "away", short=True), r.home_score, r.away_score, r.home_tries, r.away_tries,
                     f.stage, f.code, r.kind, winner])
    return _csv(rows, RESULT_COLUMNS)


def standings_csv(tables) -> str:
    """CSV of every pool's table; ``tables`` is ``selectors.tournament_standings(...)``'s (pool, rows) list."""
    rows = []
    for pool, pool_rows in tables:
        pool_name = getattr(pool, "name", pool)
        for row in pool_rows:
            data = row.as_dict() if hasattr(row, "as_dict") else dict(row)
            rows.append([pool_name] + [data[key] for key in STANDING_COLUMNS[1:]])
    return _csv(rows, STANDING_COLUMNS)
