"""Pages that show the league and its matches together: the home page, a tournament's public pages (tabs:
standings, fixtures, bracket, chances; a team's page; the live check; the big screen; embeds, print and the
venue poster), a fixture's page, and the organiser's dashboard and simulation page.

This is the top layer (``engine`` <- ``league`` <- ``matches`` <- ``web``): it reads from both apps' selectors,
writes through their services, and checks permissions with ``league.permissions``.

A public page is a list of sections (``web.sections``): each is cached under the tokens of what it shows, so a
result re-renders only its pool's table, its round, its teams... For visitors with no session the whole page is
cached under the versions of its sections and answered 304 to a conditional request; the open page keeps
itself up to date through :func:`tournament_live` (304 with no query while nothing changed, else only the
changed sections).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db.models import Count, Max, Min, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.utils.http import quote_etag, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import exports, live_selectors, services
from league.cache import (
    ALL,
    ANY,
    FRAGMENT_TIMEOUT,
    NEXT,
    TEMPLATE_REVISION,
    cached_value,
    data_version,
    section_tokens,
    tokens_digest,
    versioned_answer,
)
from league.dates import local_date
from league.errors import error_text
from league.formats import format_of
from league.models import SOONEST, Entry, Fixture, Pool, Tournament, team_code
from league.permissions import can_edit_tournament, listed_tournaments, tournament_for
from matches import simulation
from web import sections
from web.sections import Section

# All pools on the standings tab up to this size; a bigger tournament shows one pool at a time (a chip each).
ALL_POOLS_MAX_POOLS = 8
ALL_POOLS_MAX_TEAMS = 64
# A team filter lists the teams up to this many; a bigger league asks for a code or a name.
TEAM_SELECT_MAX = 60
# The live check answers at most this many sections at once.
LIVE_MAX_SECTIONS = 40
# Round and day chips around the current one (a 1,000-team league has 999 rounds).
CHIPS_AROUND = 3

TABS = ("standings", "fixtures", "bracket", "chances")


# --- what a tournament's pages are made of -----------------------------------------------------------------------


def _structure(tournament: Tournament) -> dict[str, Any]:
    """The tournament's shape for the tab bar and the pickers (pools, rounds, brackets, entries count), cached
    under the token ``all`` (changes with the draw or the fixtures, never with a result)."""

    def compute() -> dict[str, Any]:
        pools = list(Pool.objects.filter(tournament=tournament).annotate(size=Count("entries"))
                     .values_list("pk", "name", "size"))
        # Pool, Swiss and solo rounds are numbered 1 to the last (the index on (tournament, round) finds it
        # without reading the fixtures); knockout rounds by name, and the brackets in the order they were made.
        last = (Fixture.objects.filter(tournament=tournament).exclude(stage=Fixture.Stage.KNOCKOUT)
                .aggregate(last=Max("round_number"))["last"] or 0)
        rounds = {number: _("Round %(number)s") % {"number": number} for number in range(1, last + 1)}
        brackets: dict[str, int] = {}
        for row in (Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.KNOCKOUT).order_by()
                    .values("round_number", "round_name", "bracket").annotate(first=Min("pk"))):
            number = row["round_number"]
            rounds[number] = row["round_name"] or _("Round %(number)s") % {"number": number}
            brackets[row["bracket"]] = min(brackets.get(row["bracket"], row["first"]), row["first"])
        return {
            "pools": [{"pk": pk, "name": name, "size": size} for pk, name, size in pools],
            "entries": Entry.objects.filter(tournament=tournament).count(),
            "table_kind": format_of(tournament).table_kind,
            "brackets": sorted(brackets, key=brackets.__getitem__),
            "rounds": sorted(rounds.items()),
        }

    value = cached_value(tournament.pk, "structure", section_tokens(tournament.pk, [ALL]), compute)
    assert isinstance(value, dict)
    return value


def _cached_list(tournament: Tournament, name: str, compute: Callable[[], Any], *tokens: str) -> Any:
    return cached_value(tournament.pk, name, section_tokens(tournament.pk, [ALL, *tokens]), compute)


def _days(tournament: Tournament) -> list[dt.date]:
    """The days with fixtures, in order (cached with the structure)."""
    def compute() -> list[dt.date]:
        days = {local_date(k, tournament) for k in Fixture.objects.filter(tournament=tournament, kickoff__isnull=False)
                .values_list("kickoff", flat=True).order_by().distinct()}
        return sorted(d for d in days if d is not None)
    return _cached_list(tournament, "days", compute)


def _pitches(tournament: Tournament) -> list[str]:
    """The venues (pitches or tables) named by the fixtures, in order."""
    def compute() -> list[str]:
        return sorted(Fixture.objects.filter(tournament=tournament).exclude(venue="").order_by()
                      .values_list("venue", flat=True).distinct())
    return _cached_list(tournament, "pitches", compute)


def _team_choices(tournament: Tournament) -> list[tuple[str, str]]:
    """(code, name) of every team, for the team filter of a tournament small enough for a list."""
    def compute() -> list[tuple[str, str]]:
        return list(Entry.objects.filter(tournament=tournament).order_by("team__name")
                    .values_list("team__code", "team__name")[:TEAM_SELECT_MAX + 1])
    return _cached_list(tournament, "team-choices", compute)


def _entry_by_code(tournament: Tournament, code: str) -> tuple[int, int] | None:
    """(entry id, pool id or 0) of the team with this code in the tournament, or None (cached)."""
    def compute() -> tuple[int, int] | None:
        found = Entry.objects.filter(tournament=tournament, team__code=code).values_list("pk", "pool_id").first()
        return (found[0], found[1] or 0) if found else None
    return _cached_list(tournament, f"entry:{code}", compute)


def _current_round(tournament: Tournament, rounds: list[tuple[int, str]]) -> int:
    """The round of the next fixture to play (the last round once everything is played)."""
    def compute() -> int:
        # The next fixture in the order of the index of fixtures still to play (``fixture_to_play``: SOONEST;
        # without kick-offs, the lowest round any pool still has to play), not a scan of every round.
        number = (Fixture.objects.filter(tournament=tournament, status=Fixture.Status.SCHEDULED)
                  .order_by(*SOONEST).values_list("round_number", flat=True).first())
        return number or (rounds[-1][0] if rounds else 1)
    return _cached_list(tournament, "current-round", compute, NEXT)


def _current_day(tournament: Tournament, days: list[dt.date]) -> dt.date | None:
    """Today when it has fixtures; else the day of the next fixture to play; else the last day."""
    if not days:
        return None

    def compute() -> dt.date | None:
        # In the key's full order, so the index of fixtures still to play serves it (not a walk of the days'
        # index past every played fixture).
        moment = (Fixture.objects.filter(tournament=tournament, status=Fixture.Status.SCHEDULED,
                                         kickoff__isnull=False).order_by(*SOONEST)
                  .values_list("kickoff", flat=True).first())
        return local_date(moment, tournament)
    # Asked even when today has fixtures, so the page runs the same queries whatever the calendar says (a league
    # playing today ran one query fewer than one that was not, and the fixed-query test failed on match days).
    next_day = _cached_list(tournament, "next-day", compute, NEXT)
    today = local_date(timezone.now(), tournament)
    if today in days:
        return today
    return next_day or days[-1]


def _int(value: str | None, default: int = 1) -> int:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 7 else default


def _chips(items: list[Any], current: Any) -> list[Any]:
    """The items around ``current`` (with the first and the last), for a row of chips that stays short."""
    if len(items) <= 2 * CHIPS_AROUND + 3:
        return items
    index = items.index(current) if current in items else 0
    keep = {0, len(items) - 1, *range(max(0, index - CHIPS_AROUND), min(len(items), index + CHIPS_AROUND + 1))}
    return [items[i] for i in sorted(keep)]


# --- rendering a public page -------------------------------------------------------------------------------------


# Indentation and blank lines of rendered templates (a third of a big list; these lists have no <pre>).
_INDENT = re.compile(r"\s*\n\s*")


def _compact(html: str) -> str:
    """Drop the templates' indentation and blank lines."""
    # Safe: the input is our own rendered (already escaped) template.
    return mark_safe(_INDENT.sub("\n", html))


def _anonymous_page(request: HttpRequest) -> bool:
    """True for a visitor with no session and no pending messages: the page is the same for all of them."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _top_sections(tournament: Tournament) -> list[Section]:
    """What every tab shows first: the honours once finished; live scores and next kick-offs while running."""
    if tournament.status == Tournament.Status.FINISHED:
        return [Section("honours")]
    if tournament.status == Tournament.Status.IN_PROGRESS:
        return [Section("live"), Section("next")]
    return []


# The parameters of the public pages: a page whose query has only these (short) is cached whole for visitors
# with no session; any other query is answered from the cached sections (no flood of cached pages).
PAGE_PARAMS = frozenset({"pool", "page", "by", "round", "day", "pitch", "team", "bracket", "from"})
PAGE_TIMEOUT = 60 * 10


def _page_key(request: HttpRequest) -> str | None:
    """What identifies an anonymous page in the whole-page cache (None: not cached whole)."""
    if not _anonymous_page(request) or len(request.GET) > 4:
        return None
    items = sorted(request.GET.items())
    if any(name not in PAGE_PARAMS or len(value) > 80 for name, value in items):
        return None
    return f"{request.get_host()}{request.path}?{urlencode(items)}"


def cached_public_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve a public page to visitors with no session from the cache, keyed by the tournament's ``any`` token
    (replaced by every change): a cached page costs no query, and no cache round trip when this process has the
    tournament's row and token (``config.cache``'s mirror) and the page (its recent answers); a conditional
    request is answered 304. On a miss the view renders it from its cached sections (only the ones a change
    touched are built again)."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        key = _page_key(request)
        if key is None:
            return view(request, slug, *args, **kwargs)
        tournament = tournament_for(request.user, slug, cached=True)
        digest = tokens_digest(section_tokens(tournament.pk, [ANY]), view.__name__, key, get_language() or "en")
        etag = quote_etag(digest)
        if etag in request.headers.get("If-None-Match", ""):
            response: HttpResponse = HttpResponseNotModified()
        else:
            refused: list[HttpResponse] = []

            def build() -> dict[str, Any] | None:
                built = view(request, slug, *args, **kwargs)
                if built.status_code != 200:
                    refused.append(built)
                    return None
                return {"content": built.content, "headers": {h: built[h] for h in _KEPT_HEADERS if h in built}}

            # The key names the page's version: this process's recent copy is as good as the shared cache's.
            stored = versioned_answer(f"league:wholepage:r{TEMPLATE_REVISION}:{tournament.pk}:{digest}", build,
                                      PAGE_TIMEOUT)
            if stored is None:
                return refused[0]
            response = HttpResponse(stored["content"])
            for header, value in stored["headers"].items():
                response[header] = value
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True)
        return response

    return wrapper


_KEPT_HEADERS = ("Content-Type", "Content-Security-Policy")


def _public_page(request: HttpRequest, tournament: Tournament, template: str, page_sections: list[Section],
                 context: dict[str, Any]) -> HttpResponse:
    """Render a page made of sections (each from the cache when its tokens have not changed)."""
    can_edit = can_edit_tournament(request.user, tournament)
    return render(request, template, _page_context(request, tournament, page_sections, context, can_edit=can_edit))


def _page_context(request: HttpRequest, tournament: Tournament, page_sections: list[Section],
                  context: dict[str, Any], *, can_edit: bool) -> dict[str, Any]:
    rendered = sections.render(tournament, page_sections)
    return {
        **context,
        "tournament": tournament,
        "top": [item for item in rendered if item.section.kind in ("live", "next", "honours")],
        "body": [item for item in rendered if item.section.kind not in ("live", "next", "honours")],
        "page_version": tokens_digest(section_tokens(tournament.pk, [ALL])),
        "can_edit": can_edit,
        "progress": simulation.simulation_progress(tournament) if can_edit else None,
        "share_url": request.build_absolute_uri(reverse("league:tournament", args=[tournament.slug])),
    }


def _tabs(tournament: Tournament, structure: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, label, url) of the tabs this tournament has (no bracket without a knockout, no chances without
    pools)."""
    tabs = [("standings", _("Standings"), reverse("league:tournament", args=[tournament.slug])),
            ("fixtures", _("Fixtures"), reverse("league:tournament_fixtures", args=[tournament.slug]))]
    if structure["brackets"]:
        tabs.append(("bracket", _("Bracket"), reverse("league:tournament_bracket", args=[tournament.slug])))
    if structure["pools"] and not structure["table_kind"]:
        tabs.append(("chances", _("Chances"), reverse("league:tournament_chances", args=[tournament.slug])))
    return tabs


def _pool_choice(structure: dict[str, Any], name: str | None) -> dict[str, Any] | None:
    pools = structure["pools"]
    return next((p for p in pools if p["name"] == name), pools[0] if pools else None)


def _all_pools_at_once(structure: dict[str, Any]) -> bool:
    return len(structure["pools"]) <= ALL_POOLS_MAX_POOLS and structure["entries"] <= ALL_POOLS_MAX_TEAMS


def standings_sections(tournament: Tournament, structure: dict[str, Any], pool: str | None,
                       page: int) -> tuple[list[Section], dict[str, Any] | None]:
    """The table sections of the standings tab (every pool of a small tournament, else the chosen pool's page),
    and the pool chosen (None when every pool is shown)."""
    if structure["table_kind"]:
        return [Section("table", (str(page),))], None
    if _all_pools_at_once(structure):
        return [Section("pool", (str(p["pk"]), "1")) for p in structure["pools"]], None
    chosen = _pool_choice(structure, pool)
    if chosen is None:
        return [], None
    return [Section("pool", (str(chosen["pk"]), str(page)))], chosen


# --- public pages ----------------------------------------------------------------------------------------------


def _home_page_key(request: HttpRequest) -> str | None:
    """What identifies the home page in the whole-page cache (None: rendered): the site's data version and the
    language, and for a signed-in user who has no message waiting, the user and the session's CSRF cookie (the
    page's sign-out form carries a token of it)."""
    if request.GET or "messages" in request.COOKIES:
        return None
    if _anonymous_page(request):
        caller = "anon"
    else:
        user = request.user
        csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
        if not user.is_authenticated or not csrf or "_messages" in request.session:
            return None
        who = f"{user.pk}:{user.get_username()}:{csrf}"
        caller = "u" + hashlib.sha256(who.encode()).hexdigest()[:32]
    return (f"web:home:r{TEMPLATE_REVISION}:d{data_version()}:{caller}:{get_language() or 'en'}:"
            f"{request.get_host()}")


def cached_home_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Serve the home page whole from the cache until the site's data changes (its lists are the only part that
    changes with the data): one cache round trip instead of rendering the base layout every time."""

    @wraps(view)
    def wrapper(request: HttpRequest) -> HttpResponse:
        key = _home_page_key(request)
        if key is None:
            return view(request)
        answer = [None]

        def build() -> dict[str, Any] | None:
            response = answer[0] = view(request)
            if response.status_code != 200:
                return None
            return {"content": response.content,
                    "headers": {h: response[h] for h in _KEPT_HEADERS if h in response}}

        stored = versioned_answer(key, build, PAGE_TIMEOUT)
        if stored is None:
            return answer[0]
        response = HttpResponse(stored["content"])
        for header, value in stored["headers"].items():
            response[header] = value
        patch_cache_control(response, no_cache=True)
        return response

    return wrapper


@require_GET
@cached_home_page
def tournament_list(request: HttpRequest) -> HttpResponse:
    """The public tournaments, and the ones the signed-in user organises.

    The lists are rendered once per version of the site's data (``league.cache.data_version``) and caller, so a
    visit costs no query beyond the session's (two queries when signed in, whatever the number of tournaments).
    """
    user = request.user

    def build() -> tuple[str, str]:
        tournaments = list(listed_tournaments(user).order_by("-created_at", "name")[:200])
        mine = []
        if user.is_authenticated:
            organised = set(user.organised_tournaments.values_list("pk", flat=True))
            mine = [t for t in tournaments if t.pk in organised]
        return (_compact(render_to_string("web/_tournaments_mine.html", {"mine": mine})),
                _compact(render_to_string("web/_tournaments_public.html", {"tournaments": tournaments})))

    caller = f"u{user.pk}" if user.is_authenticated else "anon"
    key = f"web:home-lists:r{TEMPLATE_REVISION}:d{data_version()}:{caller}:{get_language() or 'en'}"
    lists = cache.get(key)
    if lists is None:
        lists = build()
        cache.set(key, lists, FRAGMENT_TIMEOUT)
    mine, public = lists
    return render(request, "web/tournament_list.html", {"mine": mark_safe(mine), "public": mark_safe(public)})


@require_GET
@cached_public_page
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """The Standings tab, the tournament's front page: now and next while it runs (the champion once it is
    finished), then the pool tables (or the Swiss table, the solo leaderboard)."""
    tournament = tournament_for(request.user, slug, cached=True)
    if request.GET.get("by") in ("round", "day", "pitch"):  # the links of the page before the tabs
        return redirect(reverse("league:tournament_fixtures", args=[slug]) + "?by=" + request.GET["by"])
    structure = _structure(tournament)
    pool, page = request.GET.get("pool"), _int(request.GET.get("page"))
    tables, chosen = standings_sections(tournament, structure, pool, page)
    projection = ([Section("projection")] if tournament.status == Tournament.Status.IN_PROGRESS
                  and structure["pools"] and not structure["table_kind"] else [])
    return _public_page(request, tournament, "web/tab_standings.html",
                        [*_top_sections(tournament), *projection, *tables], {
        "tab": "standings", "tabs": _tabs(tournament, structure), "structure": structure, "chosen_pool": chosen,
        "pool_chips": [] if chosen is None else structure["pools"],
    })


@require_GET
@cached_public_page
def tournament_fixtures(request: HttpRequest, slug: str) -> HttpResponse:
    """The Fixtures tab: by round, by day or by pitch, one at a time, or one team's."""
    tournament = tournament_for(request.user, slug, cached=True)
    structure = _structure(tournament)
    by = request.GET.get("by") if request.GET.get("by") in ("round", "day", "pitch") else "round"
    page = _int(request.GET.get("page"), 0)
    context: dict[str, Any] = {"tab": "fixtures", "tabs": _tabs(tournament, structure), "by": by,
                               "structure": structure}
    team = (request.GET.get("team") or "").strip()
    body: list[Section] = []
    if team:
        found = _find_team(tournament, team)
        if found is None:
            context["team_error"] = _("No team called “%(name)s” in this tournament.") % {"name": team[:40]}
        else:
            body = [Section("team", (str(found[0]), str(page)))]
            context["team"] = found[1]
    if not body and by == "round":
        rounds = structure["rounds"]
        current = _int(request.GET.get("round"), 0) or _current_round(tournament, rounds)
        if rounds:
            numbers = [n for n, _label in rounds]
            current = current if current in numbers else numbers[0]
            body = [Section("round", (str(current), str(max(page, 1))))]
            context.update(current=current, label=dict(rounds)[current],
                           chips=[(n, dict(rounds)[n]) for n in _chips(numbers, current)],
                           previous=_neighbour(numbers, current, -1), next=_neighbour(numbers, current, 1))
    elif not body and by == "day":
        days = _days(tournament)
        asked = _date(request.GET.get("day"))
        current = asked if asked in days else _current_day(tournament, days)
        if current is not None:
            body = [Section("day", (current.isoformat(), str(max(page, 1))))]
            context.update(current=current, chips=_chips(days, current), previous=_neighbour(days, current, -1),
                           next=_neighbour(days, current, 1))
    elif not body and by == "pitch":
        pitches = _pitches(tournament)
        current = request.GET.get("pitch")
        current = current if current in pitches else (pitches[0] if pitches else None)
        if current is not None:
            body = [Section("pitch", (current, str(page)))]
            context.update(current=current, pitches=pitches)
    choices = _team_choices(tournament)
    context.update(team_choices=choices if len(choices) <= TEAM_SELECT_MAX else None)
    return _public_page(request, tournament, "web/tab_fixtures.html", [*_top_sections(tournament), *body], context)


def _neighbour(items: list[Any], current: Any, step: int) -> Any:
    index = items.index(current) + step if current in items else -1
    return items[index] if 0 <= index < len(items) else None


def _date(text: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _find_team(tournament: Tournament, text: str) -> tuple[int, dict[str, str]] | None:
    """(entry id, {"code", "name"}) of the team named by its code or its name, or None."""
    text = "".join(ch for ch in text if ch.isprintable())[:80].strip()  # PostgreSQL refuses NUL in text
    if not text:
        return None

    def compute() -> tuple[int, dict[str, str]] | None:
        found = list(Entry.objects.filter(Q(team__code__iexact=text) | Q(team__name__icontains=text),
                                          tournament=tournament).select_related("team").order_by("team__name")[:50])
        # Its code, else its exact name, else the first name that holds the text.
        best = (next((e for e in found if e.team.code.lower() == text.lower()), None)
                or next((e for e in found if e.team.name.lower() == text.lower()), None)
                or (found[0] if found else None))
        return (best.pk, {"code": best.team.code, "name": best.team.name}) if best else None
    return _cached_list(tournament, f"find-team:{text.lower()}", compute)


@require_GET
@cached_public_page
def tournament_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The Bracket tab: one knockout bracket (Cup, Plate...) as a graphic that scrolls sideways in its box."""
    tournament = tournament_for(request.user, slug, cached=True)
    structure = _structure(tournament)
    names = structure["brackets"]
    name = request.GET.get("bracket")
    name = name if name in names else (names[0] if names else None)
    body = [Section("bracket", (name, str(_int(request.GET.get("from"), 0))))] if name is not None else []
    return _public_page(request, tournament, "web/tab_bracket.html", [*_top_sections(tournament), *body], {
        "tab": "bracket", "tabs": _tabs(tournament, structure), "bracket_names": names, "current": name,
    })


@require_GET
@cached_public_page
def tournament_chances(request: HttpRequest, slug: str) -> HttpResponse:
    """The Chances tab: each team's chance of every place and round, one pool at a time in a big tournament."""
    tournament = tournament_for(request.user, slug, cached=True)
    structure = _structure(tournament)
    chosen = None if _all_pools_at_once(structure) else _pool_choice(structure, request.GET.get("pool"))
    body = [Section("odds", (chosen["name"] if chosen else "", str(_int(request.GET.get("page")))))]
    return _public_page(request, tournament, "web/tab_chances.html", [*_top_sections(tournament), *body], {
        "tab": "chances", "tabs": _tabs(tournament, structure), "chosen_pool": chosen,
        "pool_chips": structure["pools"] if chosen else [],
    })


@require_GET
@cached_public_page
def team_detail(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """A team's page: its badge, place in its pool, next match, and its fixtures and results."""
    tournament = tournament_for(request.user, slug, cached=True)
    code = code.upper()
    if not team_code.regex.match(code):
        raise Http404(_("No such team in this tournament."))
    found = _entry_by_code(tournament, code)
    if found is None:
        raise Http404(_("No such team in this tournament."))
    entry_id, pool_id = found
    page = _int(request.GET.get("page"), 0)
    body = [Section("teamhead", (str(entry_id), str(pool_id))), Section("team", (str(entry_id), str(page)))]
    if tournament.status == Tournament.Status.IN_PROGRESS:
        body.insert(0, Section("teamlive", (str(entry_id),)))
    return _public_page(request, tournament, "web/team_detail.html", body, {"code": code})


@require_GET
def tournament_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live check of an open page: ``?s=<section id>!<version>,...`` and the page's ``v`` (its version).

    Answers 304 (with no query: the tournament and the versions come from the cache) when the ETag sent in
    If-None-Match is still current; else JSON ``{"etag", "reload", "sections": {id: {"hash", "html"}}}`` with
    only the sections whose version differs from the one sent (``reload``: the page's own shape changed, e.g.
    the tournament finished). The big screen also fetches its slides here (a version of ``-``: send it all).
    """
    tournament = tournament_for(request.user, slug, cached=True)
    # Whether anything of the tournament changed at all: one cache round trip, no query.
    tokens = section_tokens(tournament.pk, [ANY, ALL])
    page_version = tokens_digest({ALL: tokens[ALL]})
    etag = quote_etag(tokens_digest(tokens, get_language() or "en"))
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        asked: dict[Section, str] = {}
        for item in request.GET.get("s", "").split(",")[:LIVE_MAX_SECTIONS]:
            section_id, _sep, version = item.partition("!")
            section = sections.parse(section_id)
            if section is not None:
                asked[section] = version
        changed = [v.section for v in sections.versions(tournament, asked) if asked.get(v.section) != v.hash]
        rendered = sections.render(tournament, changed, allow_stale=True)
        if any(item.stale for item in rendered):
            # A section came as its last version (another request is building the new one): this answer must
            # not be taken as current, so the next check is not answered 304.
            etag = quote_etag(tokens_digest(tokens, get_language() or "en", "stale"))
        response = JsonResponse({
            "etag": etag,
            "reload": bool(request.GET.get("v")) and request.GET.get("v") != page_version,
            "sections": {item.id: {"hash": item.hash, "html": item.html} for item in rendered},
        })
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _fixture_match(fixture: Fixture) -> Any:
    """The engine match played for this fixture (online play), or None."""
    try:
        return fixture.match
    except (AttributeError, ObjectDoesNotExist):
        return None


@require_GET
def fixture_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A match page: the teams, when and where, the result, and the replay for an engine match."""
    tournament = tournament_for(request.user, slug, cached=True)
    related = ["pool", "home__team", "away__team", "result", "result__winner__team", "match"]
    fixture = get_object_or_404(Fixture.objects.select_related(*related), tournament=tournament, pk=pk)
    can_edit = can_edit_tournament(request.user, tournament)
    changes = list(fixture.result_changes.select_related("changed_by")) if can_edit else []
    match = _fixture_match(fixture)
    # The live scorers' events: the audit trail of a result made at full time (organisers: it names them).
    score_events = live_selectors.live_event_log(fixture) if can_edit else []
    return render(request, "web/fixture_detail.html", {
        "tournament": tournament, "fixture": fixture, "match": match, "can_edit": can_edit, "changes": changes,
        "can_play_online": can_edit and match is None and _playable_online(tournament, fixture),
        "score_events": score_events})


def _playable_online(tournament: Tournament, fixture: Fixture) -> bool:
    """The fixture can be played on the site now: the rule set has an engine, the sides its people play
    (both for a duel, the player's for a solo game) are known, and there is no result yet."""
    spec = tournament.spec
    sides = (fixture.home_id, fixture.away_id)
    return (spec.playable and all(sides[seat] is not None for seat in spec.person_seats)
            and exports.result_of(fixture) is None and fixture.status != Fixture.Status.CANCELLED)


# --- the big screen, embeds, print and the poster ------------------------------------------------------------------


@require_GET
def tournament_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The big-screen mode for the hall TV: full screen, large type, cycling through the live scores and next
    kick-offs, each pool's table (a page of 16 rows at a time) and the bracket; it updates itself."""
    tournament = tournament_for(request.user, slug, cached=True)
    structure = _structure(tournament)
    slides: list[dict[str, str]] = []
    only_live = request.GET.get("only") == "live" and tournament.status == Tournament.Status.IN_PROGRESS
    if only_live:
        # ?only=live, a fundraiser evening's hall TV: every table's live score, all the time.
        slides.append({"title": _("Live now"), "sections": Section("live").id})
    elif tournament.status == Tournament.Status.FINISHED:
        slides.append({"title": _("Champions"), "sections": Section("honours").id})
    elif tournament.status == Tournament.Status.IN_PROGRESS:
        slides.append({"title": _("Now and next"), "sections": f"{Section('live').id},{Section('next').id}"})
    if structure["table_kind"] and not only_live:
        slides.append({"title": _("Table"), "sections": Section("table", ("1",)).id})
    for pool in structure["pools"] if not (structure["table_kind"] or only_live) else []:
        for page in range(1, max(1, -(-pool["size"] // sections.PAGE_SIZE)) + 1):
            slides.append({"title": _("Pool %(name)s") % {"name": pool["name"]},
                           "sections": Section("pool", (str(pool["pk"]), str(page))).id})
    for name in structure["brackets"] if not only_live else []:
        slides.append({"title": name or _("Knockout"), "sections": Section("bracket", (name, "0")).id})
    return render(request, "web/screen.html", {
        "tournament": tournament, "body_class": "big-screen", "slides": slides,
        "seconds": min(max(_int(request.GET.get("seconds"), 12), 2), 120),
        "live_url": reverse("league:tournament_live", args=[slug]),
        "page_version": tokens_digest(section_tokens(tournament.pk, [ALL]))})


def _embed_response(response: HttpResponse) -> HttpResponse:
    """Allow any site to frame this page (the rest of the site keeps X-Frame-Options): its own strict
    Content-Security-Policy says so with ``frame-ancestors *`` (django-csp leaves a page's own policy alone)."""
    response["Content-Security-Policy"] = (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors *")
    return response


@xframe_options_exempt
@require_GET
@cached_public_page
def embed_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings to embed in a club's or school's own site (an iframe on another origin)."""
    tournament = tournament_for(request.user, slug, cached=True)
    structure = _structure(tournament)
    tables, chosen = standings_sections(tournament, structure, request.GET.get("pool"), _int(request.GET.get("page")))
    page_sections = tables
    response = _public_page(request, tournament, "web/embed.html", page_sections, {
        "what": _("Standings"), "body_class": "embed", "chosen_pool": chosen,
        "pool_chips": structure["pools"] if chosen else []})
    return _embed_response(response)


@xframe_options_exempt
@require_GET
@cached_public_page
def embed_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """The knockout bracket to embed in another site."""
    tournament = tournament_for(request.user, slug, cached=True)
    names = _structure(tournament)["brackets"]
    name = request.GET.get("bracket")
    name = name if name in names else (names[0] if names else None)
    body = [Section("bracket", (name, "1"))] if name is not None else []
    response = _public_page(request, tournament, "web/embed.html", body, {"what": _("Bracket"), "body_class": "embed"})
    return _embed_response(response)


@require_GET
@cached_public_page
def print_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable standings: every pool's whole table, one pool a page (the Swiss or solo table: its first page)."""
    tournament = tournament_for(request.user, slug, cached=True)
    body = [Section("table", ("1",))] if _structure(tournament)["table_kind"] else [Section("allpools")]
    return _public_page(request, tournament, "web/print_sections.html", body, {"what": _("Standings")})


@require_GET
@cached_public_page
def print_bracket(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable brackets: each bracket whole, one a page."""
    tournament = tournament_for(request.user, slug, cached=True)
    body = [Section("allbrackets")]
    return _public_page(request, tournament, "web/print_sections.html", body, {"what": _("Bracket")})


@require_GET
def tournament_poster(request: HttpRequest, slug: str) -> HttpResponse:
    """A printable poster for the venue: the tournament's name, its address and a big QR code to scan."""
    tournament = tournament_for(request.user, slug, cached=True)
    url = request.build_absolute_uri(reverse("league:tournament", args=[slug]))
    return render(request, "web/poster.html", {"tournament": tournament, "share_url": url})


# --- the organiser's dashboard and simulation ------------------------------------------------------------------------


@login_required
@require_GET
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's dashboard: each step of running the tournament, with where it stands."""
    tournament = tournament_for(request.user, slug, edit=True)
    entries = list(tournament.entries.select_related("team", "pool", "player").order_by("pool__name", "seed",
                                                                                            "team__name"))
    share_url = request.build_absolute_uri(reverse("league:tournament", args=[slug]))
    return render(request, "web/manage.html", {
        "tournament": tournament, "entries": entries, "pools": list(tournament.pools.all()),
        "fixture_count": tournament.fixtures.count(),
        "result_count": tournament.fixtures.filter(result__isnull=False).count(),
        "organisers": list(tournament.organisers.order_by("username")),
        "needs_draw": format_of(tournament).needs_draw,
        "progress": simulation.simulation_progress(tournament), "share_url": share_url,
        "embed_standings": _embed_code(request, tournament, "league:embed_standings"),
        "embed_bracket": _embed_code(request, tournament, "league:embed_bracket")})


def _embed_code(request: HttpRequest, tournament: Tournament, url_name: str) -> str:
    """The HTML an organiser pastes into their own site to show an embed page (shown as text to copy)."""
    url = request.build_absolute_uri(reverse(url_name, args=[tournament.slug]))
    return str(format_html('<iframe src="{}" title="{}" width="100%" height="480" loading="lazy"></iframe>', url,
                           tournament.name))


@login_required
@require_POST
def manage_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """Reopen a finished tournament so its results can be corrected."""
    tournament = tournament_for(request.user, slug, edit=True)
    try:
        services.tournament_reopen(tournament=tournament, user=request.user)
    except ValidationError as exc:
        messages.error(request, error_text(exc))
    else:
        messages.success(request, _("The tournament is open again: its results can be corrected. It finishes "
                                    "again with the result that completes it."))
    return redirect("league:manage", slug=slug)


@login_required
@require_http_methods(["GET", "POST"])
def manage_simulate(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a simulation of the remaining fixtures and watch its progress."""
    tournament = tournament_for(request.user, slug, edit=True)
    if request.method == "POST":
        stage = request.POST.get("stage", "all")
        if stage not in simulation.STAGES:
            stage = "all"
        seed = request.POST.get("seed", "").strip()
        try:
            simulation.simulation_start(tournament=tournament, stage=stage, user=request.user,
                                        seed=int(seed) if seed.isascii() and seed.isdigit() else None)
        except ValidationError as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(request, _("Simulation started."))
        return redirect("league:manage_simulate", slug=slug)
    return render(request, "web/manage_simulate.html", {
        "tournament": tournament, "progress": simulation.simulation_progress(tournament)})

