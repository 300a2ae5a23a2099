"""Exports of a tournament: iCalendar feeds, CSV files, and the data of the printable sheets.

The iCalendar files are built with the ``icalendar`` library (RFC 5545: escaping, folding, CRLF line ends),
with the times in the tournament's own zone and that zone's ``VTIMEZONE``, so a phone shows a 09:00
kick-off in Cape Town as 09:00 there whatever the phone's own zone.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Iterable

import icalendar
from django.db.models import Q, QuerySet
from django.utils import timezone

from league.brackets import BYE
from league.models import Entry, Fixture, Tournament
from league.standings import StandingRow
from league.stored_texts import tie_break_explanation
from league.templatetags.league_tags import side_name
from league.text import clean_text, csv_cell
from league.timezones import zone

# A rugby match with the break, for a calendar entry whose tournament does not say how long a match is.
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


def calendar_text(value: str) -> str:
    """Text for a calendar property: one line, without control or bidirectional-override characters.

    The ``icalendar`` library escapes what RFC 5545 asks (backslash, semicolon, comma, line breaks); a name or
    venue is one line anyway, so line breaks (a lone carriage return too) and other control characters become
    spaces, and the invisible characters that reverse how text reads are dropped.
    """
    return clean_text(value)


def ics_calendar(name: str, fixtures: Iterable[Fixture], *, time_zone: str = "UTC", match_minutes: int | None = None,
                 host: str = "rugby-tournaments", base_url: str = "", now: dt.datetime | None = None) -> str:
    """An iCalendar document (built with the ``icalendar`` library) with one event per match that has a
    kick-off: times in the tournament's zone (``TZID`` with its ``VTIMEZONE``), each event as long as a match
    (``match_minutes``), a stable UID per fixture, the venue, the result once there is one, and cancelled
    matches marked so."""
    length = dt.timedelta(minutes=match_minutes) if match_minutes else MATCH_DURATION
    tz = zone(time_zone)
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", calendar_text(name))
    calendar.add("x-wr-timezone", tz.key)
    stamp = (now or timezone.now()).astimezone(dt.UTC)
    days = []
    for fixture in fixtures:
        if fixture.kickoff is None or BYE in (fixture.home_source, fixture.away_source):
            continue
        start = fixture.kickoff.astimezone(tz)
        days.append(start.date())
        event = icalendar.Event()
        event.add("uid", f"fixture-{fixture.pk}@{calendar_text(host)}")
        event.add("dtstamp", stamp)
        event.add("dtstart", start)
        event.add("dtend", start + length)
        event.add("summary", calendar_text(fixture_title(fixture)))
        if fixture.venue:
            event.add("location", calendar_text(fixture.venue))
        description = result_text(fixture)
        if description:
            event.add("description", description)
        if base_url:
            event.add("url", f"{base_url}{fixture.pk}/")
        event.add("status", "CANCELLED" if fixture.status == Fixture.Status.CANCELLED else "CONFIRMED")
        calendar.add_component(event)
    if days:
        # The zone's rules for the days the matches are on (a year either side), not for 1970-2038.
        calendar.add_missing_timezones(first_date=min(days) - dt.timedelta(days=366),
                                       last_date=max(days) + dt.timedelta(days=366))
    return calendar.to_ical().decode("utf-8")


# --- CSV ---------------------------------------------------------------------------------------------------------

FIXTURE_COLUMNS = ["stage", "pool", "round", "code", "date", "time", "venue", "home", "away", "status"]
# The first nine columns are those `import_results` reads (same names and order); the last four add what a
# knockout result needs (stage, match code, kind, who went through).
RESULT_COLUMNS = ["pool", "round", "date", "home", "away", "home_score", "away_score", "home_tries", "away_tries",
                  "stage", "code", "kind", "winner"]
STANDING_COLUMNS = ["pool", "position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
                    "tries_for", "tries_against", "bonus_points", "points", "explanation"]
# The format's own tables (``TournamentFormat.table``): the Swiss table and the solo challenge's leaderboard.
FORMAT_TABLE_COLUMNS = {
    "swiss": ["position", "team", "name", "played", "won", "drawn", "lost", "byes", "points_for", "points_against",
              "tries_for", "tries_against", "bonus_points", "points", "withdrawn"],
    "solo": ["position", "team", "name", "attempts", "margin", "points_for", "points_against", "withdrawn"],
}


def csv_text(rows: Iterable[Iterable[object]], header: list[str]) -> str:
    """A CSV export: the header and the rows, every text cell passed through ``league.text.csv_cell`` (a name
    starting with "=" is shown as text by a spreadsheet, never run as a formula)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([csv_cell(value) for value in row] for row in rows)
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
    return csv_text(rows, FIXTURE_COLUMNS)


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
    return csv_text(rows, RESULT_COLUMNS)


def standings_csv(tables) -> str:
    """CSV of every pool's table; ``tables`` is ``selectors.tournament_standings(...)``'s (pool, rows) list.
    The last column says how tie-breakers placed a team ("above Scotland on points difference")."""
    rows = []
    for pool, pool_rows in tables:
        pool_name = getattr(pool, "name", pool)
        for row in pool_rows:
            data = row.as_dict() if hasattr(row, "as_dict") else dict(row)
            # The words in the reader's language (a row keeps its decisions as codes and names).
            data.setdefault("explanation", tie_break_explanation(row) if isinstance(row, StandingRow) else "")
            rows.append([pool_name] + [data[key] for key in STANDING_COLUMNS[1:]])
    return csv_text(rows, STANDING_COLUMNS)


def format_table_csv(kind: str, rows: Iterable[dict]) -> str:
    """CSV of a format's own table: ``kind`` "swiss" (the Swiss table) or "solo" (the leaderboard), ``rows`` as
    ``TournamentFormat.table`` gives them."""
    columns = FORMAT_TABLE_COLUMNS[kind]
    return csv_text(([row.get(key) if row.get(key) is not None else "" for key in columns] for row in rows), columns)
