"""The sections of a tournament's public pages: what each shows, what it depends on, how it is built.

A public page (``web.views``) is a list of sections: the live scores, the next kick-off on each pitch, the
honours of a finished tournament, one pool's table (a page of it), the format's own table, the fixtures of one
round, one day, one pitch or one team (a page of them), one bracket, the chances. Each section:

* has an **id** (``Section.id``: ``pool:12:1``, ``round:3:1``, ``day:2026-09-08:1``, ``team:55:0``...), which
  the page puts on its element and the live check sends back;
* depends on a few **cache tokens** (``league.cache``: ``pool:12``, ``round:3``... plus ``all``), known without
  a query, so the live check answers 304 from the cache alone;
* is **built** with a fixed number of queries whatever the size of the tournament, and shows at most
  ``PAGE_SIZE`` rows (a table or a list has pages): a page of a 1,000-team league costs what a page of a
  20-team festival costs.

The HTML of a section is cached under its tokens (``league.cache.cached_html``): a result re-renders only the
sections whose tokens it replaces (its pool's table, its round, day and pitch, its teams, its bracket).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import quote, unquote

from django.core.cache import cache
from django.db.models import Q
from django.template import Context
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from league import format_selectors, live_selectors, selectors, stored_texts
from league.cache import (
    ALL,
    FRAGMENT_TIMEOUT,
    LIVE,
    NEXT,
    ODDS,
    TABLE,
    TEMPLATE_REVISION,
    section_tokens,
    tokens_digest,
    venue_token,
)
from league.dates import day_bounds
from league.formats import format_of
from league.live import live_scores
from league.models import SOONEST, Entry, Fixture, Pool, Tournament
from matches import odds

# Rows of a table, or fixtures of a list, shown at once: what a phone scrolls through, whatever the league.
PAGE_SIZE = 100
# The Chances tab shows this many pool places (then the knockout rounds and the title).
ODDS_PLACES = 4
# "Next kick-off per pitch": the soonest fixtures looked at, and the pitches shown.
NEXT_LOOKAHEAD = 60
NEXT_PITCHES = 12

_MAX_ARG = 80


@dataclass(frozen=True)
class Section:
    """One section of a page: its kind and its arguments (strings, as in its id)."""

    kind: str
    args: tuple[str, ...] = ()

    @cached_property
    def id(self) -> str:
        return ":".join((self.kind, *(quote(a, safe="") for a in self.args)))

    def tokens(self) -> list[str]:
        """The cache tokens this section depends on (no query)."""
        return [ALL, *KINDS[self.kind].tokens(self.args)]

    def build(self, tournament: Tournament) -> str:
        return KINDS[self.kind].build(tournament, self.args)


@dataclass(frozen=True)
class Kind:
    tokens: Callable[[tuple[str, ...]], list[str]]
    build: Callable[[Tournament, tuple[str, ...]], str]
    # One check per argument: a function that raises ValueError for a value this kind cannot take.
    checks: tuple[Callable[[str], object], ...] = ()


def _positive(text: str) -> int:
    number = int(text)
    if not 0 < number < 10**9:
        raise ValueError(text)
    return number


def _page_number(text: str) -> int:
    number = int(text)
    if not 0 <= number <= 10_000:  # more pages than any list has (a 1,000-team round has five)
        raise ValueError(text)
    return number


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _text(text: str) -> str:
    if len(text) > _MAX_ARG:
        raise ValueError(text)
    return text


def parse(text: str) -> Section | None:
    """The section an id names, or None when it names none (an unknown kind, a bad argument)."""
    kind, *raw = text.split(":")
    spec = KINDS.get(kind)
    if spec is None or len(raw) != len(spec.checks):
        return None
    args = tuple(unquote(a) for a in raw)
    try:
        for check, arg in zip(spec.checks, args, strict=True):
            check(arg)
    except ValueError:
        return None
    return Section(kind, args)


# --- rendering and caching -------------------------------------------------------------------------------


@dataclass
class Rendered:
    """A section as a page shows it: its id, the version of its content (``hash``) and its HTML."""

    section: Section
    hash: str
    html: str = ""
    stale: bool = False

    @property
    def id(self) -> str:
        return self.section.id


def _html_key(tournament_id: int, digest: str) -> str:
    return f"league:html:r{TEMPLATE_REVISION}:{tournament_id}:{digest}:{get_language() or 'en'}"


def versions(tournament: Tournament, sections: Iterable[Section]) -> list[Rendered]:
    """Each section's current version (one cache round trip, no query), without its HTML."""
    return versions_and_page(tournament, sections)[0]


def versions_and_page(tournament: Tournament, sections: Iterable[Section]) -> tuple[list[Rendered], str]:
    """:func:`versions`, and the version of the page around them (its token ``all``), in the same round trip."""
    sections = list(sections)
    needed = {section: section.tokens() for section in sections}
    tokens = section_tokens(tournament.pk, [ALL, *(name for names in needed.values() for name in names)])
    rendered = [Rendered(section, tokens_digest({n: tokens[n] for n in needed[section]}, section.id))
                for section in sections]
    return rendered, tokens_digest({ALL: tokens[ALL]})


def render(tournament: Tournament, sections: Iterable[Section], *, allow_stale: bool = False) -> list[Rendered]:
    """Each section with its HTML: cached ones in one cache round trip, the others built (and stored).

    ``allow_stale`` (the live check): a section another request is building right now is answered with the last
    version built, with that version's own hash (``stale``), instead of being built once more: after a live
    score, hundreds of viewers checking in the same second must not all build the same section. The page asks
    again on its next check and gets the new one.
    """
    rendered = versions(tournament, sections)
    keys = {item.id: _html_key(tournament.pk, item.hash) for item in rendered}
    found = cache.get_many(list(keys.values()))
    fresh = {}
    for item in rendered:
        html = found.get(keys[item.id])
        if html is None:
            last_key = _last_key(tournament.pk, item.id)
            last = None
            if allow_stale and not cache.add(f"{keys[item.id]}:building", 1, BUILD_SECONDS):
                last = cache.get(last_key)
            if last is not None:
                item.hash, html, item.stale = last[0], last[1], True
            else:
                html = item.section.build(tournament)
                fresh[keys[item.id]] = html
                fresh[last_key] = (item.hash, html)
        # Safe: our own templates' output, escaped when it was rendered (the cache keeps a plain str).
        item.html = mark_safe(html)
    if fresh:
        cache.set_many(fresh, FRAGMENT_TIMEOUT)
    return rendered


# How long a request may take to build a section before another one builds it too.
BUILD_SECONDS = 5


def _last_key(tournament_id: int, section_id: str) -> str:
    digest = tokens_digest({}, section_id, get_language() or "en")
    return f"league:lasthtml:r{TEMPLATE_REVISION}:{tournament_id}:{digest}"


def _render(template: str, context: dict[str, Any]) -> str:
    # Sections are shared by every visitor: no request in their context (no CSRF token, no user). Numbers are
    # written as they are: scores and points need no localisation, and a table has hundreds of them.
    return get_template(f"web/sections/{template}").template.render(Context(context, use_l10n=False)).strip()


def _pages(count: int, page: int) -> tuple[int, int]:
    """(page shown, number of pages) for ``count`` items: a page past the end shows the last one."""
    pages = max(1, math.ceil(count / PAGE_SIZE))
    return min(max(page, 1), pages), pages


def pager(page: int, pages: int, query: str) -> list[dict[str, Any]]:
    """Links to the first, last and nearby pages ("1 … 4 5 6 … 12"); ``query`` is prefixed to ``page=N``."""
    if pages <= 1:
        return []
    shown = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    links: list[dict[str, Any]] = []
    for number in shown:
        if links and number - links[-1]["number"] > 1:
            links.append({"number": number - 1, "gap": True})
        links.append({"number": number, "href": f"?{query}page={number}", "current": number == page, "gap": False})
    return links


# --- the builders ------------------------------------------------------------------------------------------


def _fixtures() -> Any:
    return selectors.fixture_list().select_related("result__winner__team")


def _fixture_list(tournament: Tournament, queryset: Any, page: int, query: str, title: str, *,
                  empty: str = "", show_date: bool = True) -> str:
    """A page of fixtures with its pager (two queries: the count and the page)."""
    count = queryset.count()
    page, pages = _pages(count, page)
    items = list(queryset[(page - 1) * PAGE_SIZE:page * PAGE_SIZE])
    return _render("_fixtures.html", {
        "tournament": tournament, "fixtures": items, "title": title, "pager": pager(page, pages, query),
        "count": count, "page": page, "pages": pages, "empty": empty, "show_date": show_date})


def build_live(tournament: Tournament, args: tuple[str, ...]) -> str:
    scores = live_scores(tournament)
    fixtures = {f.pk: f for f in _fixtures().filter(tournament=tournament, pk__in=list(scores))} if scores else {}
    live = [(fixtures[pk], score) for pk, score in scores.items() if pk in fixtures]
    return _render("_live.html", {"tournament": tournament, "live": live})


def build_teamlive(tournament: Tournament, args: tuple[str, ...]) -> str:
    """The live score of one team's match being played (its team page)."""
    entry_id = int(args[0])
    scores = live_scores(tournament)
    fixtures = ({f.pk: f for f in _fixtures().filter(Q(home_id=entry_id) | Q(away_id=entry_id), tournament=tournament,
                                                     pk__in=list(scores))} if scores else {})
    live = [(fixtures[pk], score) for pk, score in scores.items() if pk in fixtures]
    return _render("_live.html", {"tournament": tournament, "live": live})


def build_projection(tournament: Tournament, args: tuple[str, ...]) -> str:
    """The tables of the pools with a match being played, as they would be if the live scores stayed as they
    are: marked "live", above the tables of the results in."""
    tables = []
    for pool, standing in live_selectors.projected_pool_tables(tournament):
        rows = []
        for row in standing:
            data = row.as_dict()
            data.update(name=row.team_name or data["team"], entry_id=row.entry_id,
                        difference=data["points_for"] - data["points_against"])
            rows.append(data)
        tables.append((pool, rows))
    teams = _badges(r["entry_id"] for _pool, rows in tables for r in rows)
    for _pool, rows in tables:
        for row in rows:
            row["badge"] = teams.get(row["entry_id"])
    return _render("_projection.html", {"tournament": tournament, "tables": tables})


def build_next(tournament: Tournament, args: tuple[str, ...]) -> str:
    # The ids first (an index scan that stops after NEXT_LOOKAHEAD rows), then those fixtures with their teams.
    ids = list(Fixture.objects.filter(tournament=tournament, status=Fixture.Status.SCHEDULED, kickoff__isnull=False)
               .order_by(*SOONEST).values_list("pk", flat=True)[:NEXT_LOOKAHEAD])
    soonest = sorted(Fixture.objects.filter(pk__in=ids).select_related("home__team", "away__team"),
                     key=lambda f: (f.kickoff, f.round_number, f.slot, f.pk))
    by_pitch: dict[str, Fixture] = {}
    for fixture in soonest:
        by_pitch.setdefault(fixture.venue, fixture)
    upcoming = sorted(by_pitch.values(), key=lambda f: (f.kickoff, f.venue))[:NEXT_PITCHES]
    return _render("_next.html", {"tournament": tournament, "upcoming": upcoming})


def build_honours(tournament: Tournament, args: tuple[str, ...]) -> str:
    fmt = format_of(tournament)
    honours = format_selectors.tournament_honours(tournament, lambda: fmt.table(tournament))
    return _render("_honours.html", {"tournament": tournament, "honours": honours})


def _badges(entry_ids: Iterable[int]) -> dict[int, Any]:
    """The team of each entry (for its flag, crest or logo): one query for the rows on screen."""
    return {e.pk: e.team for e in Entry.objects.filter(pk__in=list(entry_ids)).select_related("team")}


def pool_rows(pool: Pool) -> list[dict[str, Any]]:
    """A pool's table as dicts (the standings keys, ``name``, ``difference``, ``entry_id`` and ``notes``: how
    tie-breakers placed the team, in the visitor's language): three queries."""
    rows = []
    for row in selectors.pool_standings(pool):
        data = row.as_dict()
        data.update(name=row.team_name or data["team"], difference=data["points_for"] - data["points_against"],
                    entry_id=row.entry_id, notes=[stored_texts.tie_break_text(decision) for decision in row.tie_breaks])
        rows.append(data)
    return rows


def build_pool(tournament: Tournament, args: tuple[str, ...]) -> str:
    pool = Pool.objects.filter(tournament=tournament, pk=int(args[0])).first()
    if pool is None:
        return ""
    pool.tournament = tournament
    rows = pool_rows(pool)
    page, pages = _pages(len(rows), int(args[1]))
    shown = rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    teams = _badges(r["entry_id"] for r in shown)
    for row in shown:
        row["badge"] = teams.get(row["entry_id"])
    return _render("_pool.html", {"tournament": tournament, "pool": pool, "rows": shown,
                                  "pager": pager(page, pages, f"pool={quote(pool.name)}&"),
                                  "count": len(rows), "page": page, "pages": pages})


def build_all_pools(tournament: Tournament, args: tuple[str, ...]) -> str:
    """Every pool's whole table at once (the printable standings): four queries whatever the number of pools."""
    tables = []
    for pool, standing in selectors.tournament_standings(tournament):
        rows = []
        for row in standing:
            data = row.as_dict()
            data.update(name=row.team_name or data["team"], entry_id=row.entry_id,
                        difference=data["points_for"] - data["points_against"],
                        notes=[stored_texts.tie_break_text(decision) for decision in row.tie_breaks])
            rows.append(data)
        tables.append((pool, rows))
    teams = _badges(r["entry_id"] for _pool, rows in tables for r in rows)
    for _pool, rows in tables:
        for row in rows:
            row["badge"] = teams.get(row["entry_id"])
    return _render("_all_pools.html", {"tournament": tournament, "tables": tables})


def build_all_brackets(tournament: Tournament, args: tuple[str, ...]) -> str:
    """Every knockout bracket whole (the printable bracket): one query."""
    data = format_selectors.bracket_for_tournament(tournament)
    return _render("_all_brackets.html", {"tournament": tournament, "brackets": data["brackets"]})


def build_table(tournament: Tournament, args: tuple[str, ...]) -> str:
    kind, rows = format_of(tournament).table(tournament)
    page, pages = _pages(len(rows), int(args[0]))
    shown = rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]
    return _render("_table.html", {"tournament": tournament, "kind": kind, "rows": shown,
                                   "pager": pager(page, pages, ""), "page": page, "pages": pages})


def build_round(tournament: Tournament, args: tuple[str, ...]) -> str:
    number = int(args[0])
    queryset = _fixtures().filter(tournament=tournament, round_number=number).order_by("kickoff", "slot", "pk")
    return _fixture_list(tournament, queryset, int(args[1]), f"by=round&round={number}&", "")


def build_day(tournament: Tournament, args: tuple[str, ...]) -> str:
    day = dt.date.fromisoformat(args[0])
    start, end = day_bounds(day, tournament)
    queryset = _fixtures().filter(tournament=tournament, kickoff__gte=start, kickoff__lt=end).order_by(
        "kickoff", "venue", "slot", "pk")
    return _fixture_list(tournament, queryset, int(args[1]), f"by=day&day={day.isoformat()}&", "",
                         show_date=False)


def _default_page(queryset: Any) -> int:
    """The page of a list (in kick-off order) holding its next fixture to play; the last page when all are played.

    Two counts, whatever the list's length: the fixtures to play, and those kicking off before the next one.
    """
    first = (queryset.filter(status__in=[Fixture.Status.SCHEDULED, Fixture.Status.LIVE], kickoff__isnull=False)
             .order_by("kickoff").values_list("kickoff", flat=True).first())
    if first is None:
        return 1
    return queryset.filter(kickoff__lt=first).count() // PAGE_SIZE + 1


def build_pitch(tournament: Tournament, args: tuple[str, ...]) -> str:
    venue, page = args[0], int(args[1])
    queryset = _fixtures().filter(tournament=tournament, venue=venue).order_by("kickoff", "slot", "pk")
    if page == 0:
        page = _default_page(queryset)
    return _fixture_list(tournament, queryset, page, f"by=pitch&pitch={quote(venue)}&", venue)


def build_team(tournament: Tournament, args: tuple[str, ...]) -> str:
    entry_id, page = int(args[0]), int(args[1])
    queryset = _fixtures().filter(Q(home_id=entry_id) | Q(away_id=entry_id), tournament=tournament).order_by(
        "kickoff", "round_number", "slot", "pk")
    if page == 0:
        page = _default_page(queryset)
    count = queryset.count()
    page, pages = _pages(count, page)
    items = list(queryset[(page - 1) * PAGE_SIZE:page * PAGE_SIZE])
    if not items:
        return ""
    # The team itself comes with its fixtures (no query of its own).
    first = items[0]
    team = first.home.team if first.home_id == entry_id else first.away.team
    return _render("_fixtures.html", {
        "tournament": tournament, "fixtures": items, "count": count, "page": page, "pages": pages,
        "title": _("%(team)s: fixtures and results") % {"team": team.name},
        "pager": pager(page, pages, f"team={quote(team.code)}&"), "show_date": True, "empty": ""})


def build_teamhead(tournament: Tournament, args: tuple[str, ...]) -> str:
    entry = Entry.objects.filter(tournament=tournament, pk=int(args[0])).select_related("team", "pool").first()
    if entry is None:
        return ""
    row = table_page = None
    if entry.pool is not None:
        entry.pool.tournament = tournament
        rows = pool_rows(entry.pool)
        row = next((r for r in rows if r["entry_id"] == entry.pk), None)
        if row is not None:
            table_page = (rows.index(row)) // PAGE_SIZE + 1
    upcoming = (_fixtures().filter(Q(home=entry) | Q(away=entry), tournament=tournament,
                                   status__in=[Fixture.Status.SCHEDULED, Fixture.Status.LIVE])
                .order_by("kickoff", "round_number", "slot", "pk").first())
    return _render("_teamhead.html", {"tournament": tournament, "entry": entry, "row": row,
                                      "table_page": table_page, "next": upcoming})


def bracket_window(rounds: list[dict[str, Any]], start: int) -> tuple[list[dict[str, Any]], int]:
    """The rounds shown from round ``start`` (1-based; 0: the first round small enough for a phone)."""
    if start == 0:
        start = next((i + 1 for i, r in enumerate(rounds) if len(r["matches"]) <= 16), 1)
    start = min(max(start, 1), max(len(rounds), 1))
    return rounds[start - 1:], start


def build_bracket(tournament: Tournament, args: tuple[str, ...]) -> str:
    name = args[0]
    rounds, start = bracket_window(format_selectors.bracket_of(tournament, name), int(args[1]))
    return _render("_bracket.html", {"tournament": tournament, "b": {"name": name, "rounds": rounds}, "rounds": rounds,
                                     "earlier": f"?bracket={quote(name)}&from={start - 1}" if start > 1 else ""})


def build_odds(tournament: Tournament, args: tuple[str, ...]) -> str:
    pool_name, page = args[0], int(args[1])
    data = odds.tournament_odds(tournament)
    if not data:
        return _render("_odds.html", {"tournament": tournament, "odds": None})
    rows = [r for r in data["rows"] if not pool_name or r["pool"] == pool_name]
    # The columns: the first pool places (1st, 2nd...), then the knockout rounds and the title.
    keep = [i for i in range(len(data["columns"])) if i < ODDS_PLACES or i >= data["places"]]
    page, pages = _pages(len(rows), page)
    shown = [{**r, "values": [r["values"][i] for i in keep if i < len(r["values"])]}
             for r in rows[(page - 1) * PAGE_SIZE:page * PAGE_SIZE]]
    return _render("_odds.html", {
        "tournament": tournament, "odds": data, "columns": [data["columns"][i] for i in keep], "rows": shown,
        "pager": pager(page, pages, f"pool={quote(pool_name)}&" if pool_name else "")})


KINDS: dict[str, Kind] = {
    "live": Kind(lambda a: [LIVE], build_live),
    "next": Kind(lambda a: [NEXT], build_next),
    # A team's live match, and the live projection of the standings (every result bumps "next").
    "teamlive": Kind(lambda a: [LIVE], build_teamlive, (_positive,)),
    "projection": Kind(lambda a: [LIVE, NEXT], build_projection),
    "honours": Kind(lambda a: [], build_honours),
    "pool": Kind(lambda a: [f"pool:{a[0]}"], build_pool, (_positive, _page_number)),
    # Whole tournaments, for print: every result bumps "next", so they follow any result.
    "allpools": Kind(lambda a: [NEXT], build_all_pools),
    "allbrackets": Kind(lambda a: [NEXT], build_all_brackets),
    "table": Kind(lambda a: [TABLE], build_table, (_page_number,)),
    "round": Kind(lambda a: [f"round:{a[0]}"], build_round, (_positive, _page_number)),
    "day": Kind(lambda a: [f"day:{a[0]}"], build_day, (_day, _page_number)),
    "pitch": Kind(lambda a: [venue_token(a[0])], build_pitch, (_text, _page_number)),
    "team": Kind(lambda a: [f"team:{a[0]}"], build_team, (_positive, _page_number)),
    "teamhead": Kind(lambda a: [f"team:{a[0]}", f"pool:{a[1]}"], build_teamhead, (_positive, _page_number)),
    "bracket": Kind(lambda a: [f"bracket:{a[0]}"], build_bracket, (_text, _page_number)),
    "odds": Kind(lambda a: [ODDS], build_odds, (_text, _page_number)),
}
