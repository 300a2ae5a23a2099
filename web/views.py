"""Pages that show the league and its matches together: the home page, a tournament's public page (tables,
fixtures, bracket, live matches, odds), a team's page, a fixture's page with its match, and the organiser's
dashboard and simulation page (progress).

This is the top layer (``engine`` <- ``league`` <- ``matches`` <- ``web``): it reads from both apps' selectors,
writes through their services, and checks permissions with ``league.permissions``. Public pages render their
expensive part through ``league.cache`` so a crowd refreshing them costs one small query each.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from league import exports, pages
from league.cache import FRAGMENT_TIMEOUT, LIVE_TIMEOUT, TEMPLATE_REVISION, cached_fragment, data_version
from league.errors import error_text
from league.models import Entry, Fixture, Tournament, team_code
from league.permissions import can_edit_tournament, listed_tournaments, tournament_for
from matches import odds, simulation
from matches import selectors as match_selectors

# --- helpers ---------------------------------------------------------------------------------------------------------


def _live_matches(tournament: Tournament) -> list[Any]:
    """The tournament's matches being played online now, kept a few seconds in the cache: a match goes live
    without any result, so its key cannot be the tournament's version."""
    if not tournament.spec.playable:
        return []  # results entered by hand: nothing is played on the site
    key = f"league:live:{tournament.pk}"
    live = cache.get(key)
    if live is None:
        live = list(match_selectors.live_matches(tournament)[:20])
        cache.set(key, live, LIVE_TIMEOUT)
    return live


_INDENT = re.compile(r"\s*\n\s*")


def _compact(html: str) -> str:
    """Drop the templates' indentation and blank lines (a third of a big page; public pages have no <pre>)."""
    # Safe: the input is our own rendered (already escaped) template.
    return mark_safe(_INDENT.sub("\n", html))


def _anonymous_page(request: HttpRequest) -> bool:
    """True for a visitor with no session and no pending messages: the page is the same for all of them."""
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _render_public(request: HttpRequest, tournament: Tournament, template: str, context: Callable[[], dict],
                   *key: object) -> HttpResponse:
    """Render a public page; for anonymous visitors the whole page comes from the cache (for a few seconds, as
    it shows live matches), keyed by the tournament's version and the language like its fragments."""
    if not _anonymous_page(request):
        return render(request, template, context())
    html = cached_fragment(tournament, "page", lambda: render_to_string(template, context(), request=request),
                           template, *key, timeout=LIVE_TIMEOUT)
    return HttpResponse(html)


# --- public pages ----------------------------------------------------------------------------------------------------


@require_GET
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
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A tournament's page: pool tables, fixtures and results by round or by day, bracket, live matches, odds."""
    tournament = tournament_for(request.user, slug, cached=True)
    by = "day" if request.GET.get("by") == "day" else "round"

    def build() -> str:
        fixtures = pages.fixtures(tournament)
        bracket = pages.bracket(tournament)
        kind, format_rows = pages.format_table(tournament)
        context = {
            "tournament": tournament,
            "tables": pages.standings(tournament) if kind == "" else [],
            "format_table": kind,
            "format_rows": format_rows,
            "rounds": pages.group_rounds(fixtures) if by == "round" else None,
            "days": pages.group_days(fixtures) if by == "day" else None,
            "by": by,
            "bracket_html": pages.bracket_html(tournament, bracket),
            "has_fixtures": bool(fixtures),
        }
        return _compact(render_to_string("web/_tournament_body.html", context))

    def context() -> dict[str, Any]:
        can_edit = can_edit_tournament(request.user, tournament)
        return {
            "tournament": tournament,
            "body": cached_fragment(tournament, "tournament", build, by),
            "by": by,
            "live_matches": _live_matches(tournament),
            "odds": odds.tournament_odds(tournament),
            "can_edit": can_edit,
            "progress": simulation.simulation_progress(tournament) if can_edit else None,
        }

    return _render_public(request, tournament, "web/tournament_detail.html", context, by)


@require_GET
def team_detail(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    """A team's page in a tournament: its position, fixtures and results."""
    tournament = tournament_for(request.user, slug, cached=True)
    code = code.upper()
    if not team_code.regex.match(code):
        raise Http404(_("No such team in this tournament."))

    def build() -> str:
        entry = Entry.objects.select_related("team", "pool").filter(tournament=tournament, team__code=code).first()
        if entry is None:
            return ""
        fixtures = list(exports.tournament_fixtures(tournament, entry))
        position = table = None
        for pool, rows in pages.standings(tournament):
            if entry.pool_id and getattr(pool, "pk", None) == entry.pool_id or any(r["team"] == code for r in rows):
                table = (pool, rows)
                position = next((r for r in rows if r["team"] == code), None)
                break
        return _compact(render_to_string("web/_team_body.html", {
            "tournament": tournament, "entry": entry, "fixtures": fixtures, "row": position, "table": table}))

    body = cached_fragment(tournament, "team", build, code)
    if not body:
        raise Http404(_("No such team in this tournament."))
    return _render_public(request, tournament, "web/team_detail.html",
                          lambda: {"tournament": tournament, "code": code, "body": body}, code)


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
    return render(request, "web/fixture_detail.html", {
        "tournament": tournament, "fixture": fixture, "match": match, "can_edit": can_edit, "changes": changes,
        "can_play_online": can_edit and match is None and _playable_online(tournament, fixture)})


def _playable_online(tournament: Tournament, fixture: Fixture) -> bool:
    """The fixture can be played on the site now: the rule set has an engine, the sides its people play
    (both for a duel, the player's for a solo game) are known, and there is no result yet."""
    spec = tournament.spec
    sides = (fixture.home_id, fixture.away_id)
    return (spec.playable and all(sides[seat] is not None for seat in spec.person_seats)
            and exports.result_of(fixture) is None and fixture.status != Fixture.Status.CANCELLED)


# --- the organiser's dashboard and simulation ------------------------------------------------------------------------


@login_required
@require_GET
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's dashboard: each step of running the tournament, with where it stands."""
    tournament = tournament_for(request.user, slug, edit=True)
    entries = list(tournament.entries.select_related("team", "pool", "player").order_by("pool__name", "seed",
                                                                                            "team__name"))
    return render(request, "web/manage.html", {
        "tournament": tournament, "entries": entries, "pools": list(tournament.pools.all()),
        "fixture_count": tournament.fixtures.count(),
        "result_count": tournament.fixtures.filter(result__isnull=False).count(),
        "organisers": list(tournament.organisers.order_by("username")),
        "progress": simulation.simulation_progress(tournament)})


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
