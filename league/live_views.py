"""The pages of live scoring: the phone scoreboard (through a scorer link, or an organiser's own), its JSON
events endpoint, and the organiser's scorer links (make, revoke, hand over, QR codes).

Thin callers: the writes are ``league.services.live``, the reads ``league.live_selectors``.

A scorer link's token is the whole authority of its holder (no account, no cookie): its events endpoint is
exempt from CSRF, which protects cookie-authenticated requests only; the organiser's endpoint keeps it.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import live_selectors, match_clock
from league.errors import DomainError, error_code, error_text
from league.models import Fixture, ScorerLink, Tournament
from league.permissions import can_edit_tournament, can_score_fixture, tournament_for
from league.services import live as live_services
from league.share import qr_svg
from league.templatetags.league_tags import side_name

# The engine's scoring events and cards by their labels, marked here for the translators (the scoreboard shows
# ``_(label)``): union, rugby league, Seasons.
SCORING_LABELS = (
    gettext_noop("Try"), gettext_noop("Conversion"), gettext_noop("Penalty goal"), gettext_noop("Drop goal"),
    gettext_noop("Penalty try"), gettext_noop("Goal (conversion or penalty)"), gettext_noop("Season won"),
    gettext_noop("Yellow card"), gettext_noop("Red card"), gettext_noop("Sin bin"), gettext_noop("Sent off"),
)

# Events one request may carry (an offline queue of a whole half is a few dozen).
EVENTS_PER_REQUEST = 100
BODY_MAX = 64 * 1024
_STATUS = {"invalid": 400, "not_found": 404, "forbidden": 403, "conflict": 409}


def _link_or_404(token: str) -> ScorerLink:
    link = live_services.scorer_link_find(token)
    if link is None:
        raise Http404(_("This scorer link is not valid any more (revoked or mistyped): ask an organiser for a new "
                        "one."))
    return link


def scorer_url(request: HttpRequest, link: ScorerLink) -> str:
    """The address a scorer link's QR code holds."""
    return request.build_absolute_uri(reverse("league:scorer", args=[live_services.scorer_link_token(link)]))


def _board_context(request: HttpRequest, tournament: Tournament, fixture: Fixture, events_url: str,
                   back_url: str) -> dict[str, Any]:
    scoring = tournament.spec.scoring
    return {
        "tournament": tournament, "fixture": fixture, "events_url": events_url, "back_url": back_url,
        "scoring": scoring, "clock_calls": match_clock.CLOCK_CALLS,
        "points": json.dumps({e.id: {"points": e.points, "tries": e.tries if scoring.counts_tries else 0,
                                     "label": _(e.label)} for e in scoring.events}),
        "cards": json.dumps({c.id: _(c.label) for c in scoring.cards}),
        "state": json.dumps(live_selectors.live_match_state(fixture)),
        "can_edit": can_edit_tournament(request.user, tournament),
        "sides": [(0, side_name(fixture, "home")), (1, side_name(fixture, "away"))],
    }


def _fixture_of(tournament: Tournament, pk: int) -> Fixture:
    return get_object_or_404(Fixture.objects.select_related("tournament", "home__team", "away__team", "pool"),
                             tournament=tournament, pk=pk)


# --- through a scorer link ---------------------------------------------------------------------------------------


@require_GET
def scorer(request: HttpRequest, token: str) -> HttpResponse:
    """A scorer link opened: its fixture's scoreboard, or the fixtures of its pitch to choose from."""
    link = _link_or_404(token)
    fixtures = list(live_selectors.scorer_link_fixtures(link))
    if link.fixture_id is not None and fixtures:
        return redirect("league:scorer_board", token=token, pk=link.fixture_id)
    response = render(request, "league/scorer_pick.html", {"link": link, "tournament": link.tournament,
                                                           "fixtures": fixtures, "token": token})
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_GET
def scorer_board(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The phone scoreboard of one fixture, through a scorer link."""
    link = _link_or_404(token)
    fixture = _fixture_of(link.tournament, pk)
    if not can_score_fixture(None, link, fixture):
        raise Http404(_("This scorer link does not score this match."))
    response = render(request, "league/scoreboard.html", _board_context(
        request, link.tournament, fixture, reverse("league:scorer_events", args=[token, pk]),
        reverse("league:scorer", args=[token]) if link.fixture_id is None else ""))
    patch_cache_control(response, no_store=True, private=True)
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
def scorer_events(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """GET: the fixture's live state; POST: the scorer's events (``{"events": [...]}``), then the state."""
    link = live_services.scorer_link_find(token)
    if link is None:
        return JsonResponse({"detail": _("This scorer link is not valid any more (revoked?): ask an organiser for "
                                         "a new one.")}, status=403)
    fixture = Fixture.objects.select_related("tournament").filter(tournament=link.tournament, pk=pk).order_by().first()
    if fixture is None or not can_score_fixture(None, link, fixture):
        return JsonResponse({"detail": _("This scorer link does not score this match.")}, status=403)
    return _events_response(request, fixture, user=None, link=link)


# --- an organiser's own scoreboard ----------------------------------------------------------------------------


@login_required
@require_GET
def organiser_board(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The scoreboard of one fixture for an organiser (no link needed)."""
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = _fixture_of(tournament, pk)
    response = render(request, "league/scoreboard.html", _board_context(
        request, tournament, fixture, reverse("league:live_events", args=[slug, pk]),
        reverse("league:manage_scorers", args=[slug])))
    patch_cache_control(response, no_store=True, private=True)
    return response


@require_http_methods(["GET", "POST"])
def organiser_events(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The events endpoint of an organiser's scoreboard (session and CSRF token)."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Sign in as an organiser to score.")}, status=403)
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = _fixture_of(tournament, pk)
    return _events_response(request, fixture, user=request.user, link=None)


def _events_response(request: HttpRequest, fixture: Fixture, *, user: Any, link: ScorerLink | None) -> HttpResponse:
    answers = []
    if request.method == "POST":
        if len(request.body) > BODY_MAX:
            return JsonResponse({"detail": _("Too many events at once.")}, status=400)
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, UnicodeDecodeError):
            return JsonResponse({"detail": _("The body must be JSON: {\"events\": [...]}.")}, status=400)
        events = data.get("events") if isinstance(data, dict) else None
        if not isinstance(events, list) or len(events) > EVENTS_PER_REQUEST:
            return JsonResponse({"detail": _("Send {\"events\": [...]} with at most %(n)s events.")
                                 % {"n": EVENTS_PER_REQUEST}}, status=400)
        for item in events:
            if not isinstance(item, dict):
                answers.append({"id": None, "status": "refused", "code": 400, "message": _("An event is an object.")})
                continue
            try:
                outcome = live_services.live_event_record(
                    fixture=fixture, client_id=item.get("id"), kind=item.get("kind"), code=item.get("code", ""),
                    side=item.get("side"), player=item.get("player", ""),
                    at=match_clock.from_epoch_ms(item.get("at_ms")), undoes=item.get("undoes", ""),
                    user=user, link=link)
            except DomainError as exc:
                answers.append({"id": item.get("id"), "status": "refused", "code": _STATUS[error_code(exc)],
                                "reason": getattr(exc, "reason", ""), "message": error_text(exc)})
                continue
            answers.append({"id": outcome.event.client_id, "seq": outcome.event.seq,
                            "status": "applied" if outcome.applied else "duplicate"})
    response = JsonResponse({"results": answers, "state": live_selectors.live_match_state(fixture)})
    patch_cache_control(response, no_store=True, private=True)
    return response


# --- the organiser's scorer links --------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def manage_scorers(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's scorer links: make one per pitch (and per fixture with no pitch), revoke, hand over; the
    matches being scored, and the full-time results waiting for a confirmation."""
    tournament = tournament_for(request.user, slug, edit=True)
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "make_all":
                made = live_services.scorer_links_make_all(tournament=tournament, user=request.user)
                messages.success(request, _("%(n)s scorer link(s) made.") % {"n": made})
            elif action == "make":
                fixture = None
                if request.POST.get("fixture", "").isdigit():
                    fixture = _fixture_of(tournament, int(request.POST["fixture"]))
                live_services.scorer_link_create(tournament=tournament, fixture=fixture,
                                                 venue=request.POST.get("venue", "")[:80],
                                                 label=request.POST.get("label", ""), user=request.user)
                messages.success(request, _("Scorer link made."))
            elif action in ("revoke", "hand_over"):
                link = get_object_or_404(ScorerLink, tournament=tournament, pk=_int(request.POST.get("link")))
                if action == "revoke":
                    live_services.scorer_link_revoke(link=link, user=request.user)
                    messages.success(request, _("Scorer link revoked: it scores nothing any more."))
                else:
                    live_services.scorer_link_hand_over(link=link, label=request.POST.get("label", ""),
                                                        user=request.user)
                    messages.success(request, _("New scorer link made; the old one is revoked."))
            elif action == "confirm":
                fixture = _fixture_of(tournament, _int(request.POST.get("fixture")))
                live_services.live_result_confirm(fixture=fixture, user=request.user)
                messages.success(request, _("Result confirmed: it counts in the standings."))
            else:
                messages.error(request, _("Unknown action."))
        except DomainError as exc:
            messages.error(request, error_text(exc))
        return redirect("league:manage_scorers", slug=slug)
    links = live_selectors.scorer_links(tournament)
    rows = [{"link": link, "url": scorer_url(request, link) if link.live else ""} for link in links]
    return render(request, "league/manage_scorers.html", {
        "tournament": tournament, "rows": rows,
        "fixtures": live_selectors.fixtures_to_score(tournament)})


def _int(value: Any) -> int:
    return int(value) if isinstance(value, str) and value.isdigit() else 0


@login_required
@require_GET
def scorer_qr(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The QR code of a live scorer link (organisers only: it carries the link's secret)."""
    tournament = tournament_for(request.user, slug, edit=True)
    link = get_object_or_404(ScorerLink, tournament=tournament, pk=pk, revoked_at__isnull=True)
    response = HttpResponse(qr_svg(scorer_url(request, link)), content_type="image/svg+xml")
    patch_cache_control(response, private=True, max_age=300)
    return response


@login_required
@require_POST
def live_confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Confirm a full-time live score as the result (from the scoreboard)."""
    tournament = tournament_for(request.user, slug, edit=True)
    fixture = _fixture_of(tournament, pk)
    try:
        live_services.live_result_confirm(fixture=fixture, user=request.user)
        messages.success(request, _("Result confirmed: it counts in the standings."))
    except DomainError as exc:
        messages.error(request, error_text(exc))
    return redirect("league:live_board", slug=slug, pk=pk)
