"""Pages of players registering for an event and of their nation draws: the public sign-up form (from the event's
link or QR code), its thank-you page, the organisers' players page (places, approvals, edits, removals, the CSV
of contacts, the draw) and the big screen's animated draw, one card at a time.

Thin views: ``league.registration_forms`` check the input, ``league.services.registrations`` does the work, and
``league.permissions.event_for`` decides who sees what. The sign-up form is limited per client
(``settings.EVENT_REGISTRATION_RATE``) and carries a field people never see (a robot fills it).
"""

from __future__ import annotations

from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from league import registration_selectors as selectors
from league.clients import limit_wait, too_many_requests
from league.errors import error_text, form_error
from league.models import Event, NationDraw, Registration
from league.permissions import can_edit_event, event_for
from league.registration_api import REGISTRATION_LIMIT
from league.registration_forms import (
    DivisionPoolsForm,
    NationDrawForm,
    NationPickForm,
    RegistrationForm,
    RegistrationSettingsForm,
)
from league.services import registrations as services
from web.actions import posted_action

QR_TIMEOUT = 60 * 60 * 24
DONE_SALT = "event-registration-done"
# Seconds between two cards of the animated draw on the big screen.
CARD_SECONDS = 3


def _signup_url(request: HttpRequest, event: Event) -> str:
    return request.build_absolute_uri(reverse("league:event_register", args=[event.slug]))


# --- the public sign-up ----------------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    """A player registers for the event (open registration only): names, optional contact, under 18, consent to
    show the first name, the division and the nation they would like."""
    event = event_for(request.user, slug)
    form = RegistrationForm(request.POST or None, event=event)
    if request.method == "POST":
        wait = limit_wait(request, group=REGISTRATION_LIMIT, rate=settings.EVENT_REGISTRATION_RATE)
        if wait is not None:
            return too_many_requests(request, wait)
        if form.is_valid():
            try:
                registration = services.registration_create(event=event, **form.values())
            except ValidationError as exc:
                form_error(form, exc)
            else:
                token = signing.dumps(registration.pk, salt=DONE_SALT)
                return redirect("league:event_registered", slug=event.slug, token=token)
    return render(request, "web/event_register.html", {
        "event": event, "form": form, "counts": selectors.registration_counts(event),
        "nations_left": selectors.nations_left(event)})


@require_GET
def event_registered(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The player's confirmation: their number, and whether they hold a place or wait (and where)."""
    event = event_for(request.user, slug)
    try:
        pk = signing.loads(token, salt=DONE_SALT, max_age=7 * 24 * 3600)
    except signing.BadSignature:
        raise Http404(_("This link is not valid."))
    registration = Registration.objects.filter(pk=pk, event=event).first()
    if registration is None:
        raise Http404(_("This link is not valid."))
    return render(request, "web/event_registered.html", {
        "event": event, "registration": registration, "position": selectors.waiting_position(registration)})


@require_GET
def event_register_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of the event's sign-up form, as SVG (the event page and the big screen show it)."""
    event = event_for(request.user, slug)
    url = _signup_url(request, event)
    key = f"league:event-register-qr:{event.pk}:{url}"[:240]
    svg = cache.get(key)
    if svg is None:
        svg = segno.make(url, error="m").svg_inline(scale=4, border=2).replace(
            "<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
        cache.set(key, svg, QR_TIMEOUT)
    return HttpResponse(svg, content_type="image/svg+xml")


@require_GET
def event_register_card(request: HttpRequest, slug: str) -> HttpResponse:
    """A printable card for the venue's tables and the poster wall: the sign-up link and its QR code."""
    event = event_for(request.user, slug)
    return render(request, "web/event_register_card.html", {"event": event, "signup_url": _signup_url(request, event)})


# --- the organisers' players page ------------------------------------------------------------------------------

PLAYER_ACTIONS = ("settings", "add", "approve_all", "draw", "pools", "pick")


def _live_draws(event: Event, posted: NationPickForm | None = None) -> list[dict[str, Any]]:
    """The dice draws still being picked in turn, each with its turns, whose turn it is and the pick form."""
    found = []
    for draw in selectors.draws_in_progress(event):
        turns = selectors.draw_turns(draw, event)
        now = next((t for t in turns if t["state"] == "now"), None)
        form = posted if posted is not None and posted.data.get("pick-draw") == str(draw.pk) else NationPickForm(
            left=selectors.cards_left(draw), wish=now["wish"] if now else None, prefix="pick",
            initial={"draw": draw.pk})
        found.append({"draw": draw, "turns": turns, "now": now, "form": form})
    return found


def _players_context(request: HttpRequest, event: Event, **forms: Any) -> dict[str, Any]:
    registrations = list(selectors.event_registrations(event))
    return {
        "event": event, "registrations": registrations, "counts": selectors.registration_counts(event),
        "settings_form": forms.get("settings_form") or RegistrationSettingsForm(
            initial=RegistrationSettingsForm.initial_for(event), prefix="reg"),
        "add_form": forms.get("add_form") or RegistrationForm(event=event, organiser=True, user=request.user,
                                                              prefix="add"),
        "draw_form": forms.get("draw_form") or NationDrawForm(event=event, prefix="draw"),
        "pools_form": forms.get("pools_form") or DivisionPoolsForm(event=event, prefix="pools"),
        "draws": selectors.event_draws(event),
        "live_draws": _live_draws(event, forms.get("pick_form")),
        "changes": list(event.registration_changes.select_related("changed_by")[:30]),
        "signup_url": _signup_url(request, event), "action": forms.get("action"),
        "opened": {name: forms.get("action") == name for name in ("add", "pools")},
        "waiting": {r.pk: i for i, r in enumerate(
            (r for r in registrations if r.status == Registration.Status.WAITING), start=1)},
    }


@login_required
@require_http_methods(["GET", "POST"])
def event_players(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' players page: registration settings, every registration (with contacts), add a player,
    approve everyone holding a place, and draw a division's nations."""
    event = event_for(request.user, slug, edit=True)
    posted = posted_action(request, PLAYER_ACTIONS)
    action, data = posted.name, posted.data
    settings_form = RegistrationSettingsForm(data("settings"), prefix="reg",
                                             initial=RegistrationSettingsForm.initial_for(event))
    add_form = RegistrationForm(data("add"), event=event, organiser=True, user=request.user,
                                prefix="add")
    draw_form = NationDrawForm(data("draw"), event=event, prefix="draw")
    pools_form = DivisionPoolsForm(data("pools"), event=event, prefix="pools")
    pick_form = None
    if action == "pick":
        draw = _live_draw(event, request.POST.get("pick-draw", ""))
        pick_form = NationPickForm(data("pick"), left=selectors.cards_left(draw), prefix="pick")
    done = None
    try:
        if action == "settings" and settings_form.is_valid():
            services.registration_settings_save(event=event, user=request.user, **settings_form.cleaned_data)
            done = _("Registration settings saved.")
        elif action == "add" and add_form.is_valid():
            reg = services.registration_create(event=event, user=request.user, by_organiser=True,
                                               **add_form.values())
            done = _("%(name)s added.") % {"name": reg.first_name}
        elif action == "approve_all":
            count = services.registrations_approve_all(event=event, user=request.user)
            done = _("%(count)s players approved.") % {"count": count}
        elif action == "draw" and draw_form.is_valid():
            values = draw_form.cleaned_data
            cards = [*values["nations"], *services.team_cards_create(names=draw_form.card_names(),
                                                                     user=request.user)]
            method, live = draw_form.method_and_live()
            draw = services.nations_draw(event=event, division=values["division"], method=method,
                                         cards=cards, seed=values["seed"], pools=values["pools"], live=live,
                                         user=request.user)
            if live:
                messages.success(request, _("The dice are thrown: each player now picks in turn, highest first. "
                                            "Show the big screen."))
                return redirect(f"{reverse('league:event_players', args=[event.slug])}#live-draw")
            messages.success(request, _("The nations are drawn: show the draw on the big screen."))
            return redirect(f"{reverse('league:event_draw', args=[event.slug])}?draw={draw.pk}")
        elif action == "pools" and pools_form.is_valid():
            division = pools_form.cleaned_data["division"]
            drawn = services.division_pools_fill(event=event, division=division,
                                                 order=pools_form.cleaned_data["order"], user=request.user)
            done = _("The players of %(division)s are in %(count)s pools: make its fixtures next.") % {
                "division": division.tournament.name, "count": len(drawn)}
        elif action == "pick" and pick_form is not None and pick_form.is_valid():
            team = pick_form.cleaned_data["team"]
            services.nation_pick(draw=draw, team=team, user=request.user)
            messages.success(request, _("%(team)s picked.") % {"team": team.name})
            return redirect(f"{reverse('league:event_players', args=[event.slug])}#live-draw")
    except ValidationError as exc:
        posted.refused(exc, {"settings": settings_form, "add": add_form, "draw": draw_form, "pools": pools_form,
                             "pick": pick_form})
    if done:
        messages.success(request, done)
        return redirect("league:event_players", slug=event.slug)
    return render(request, "web/event_players.html", _players_context(
        request, event, settings_form=settings_form, add_form=add_form, draw_form=draw_form, pools_form=pools_form,
        pick_form=pick_form, action=action))


def _live_draw(event: Event, pk: str) -> NationDraw:
    found = NationDraw.objects.select_related("division__tournament", "event").filter(
        event=event, pk=int(pk) if pk.isascii() and pk.isdigit() and len(pk) < 12 else 0).first()
    if found is None:
        raise Http404(_("No such draw."))
    return found


def _registration(event: Event, pk: int) -> Registration:
    found = Registration.objects.select_related("division__tournament", "choice", "entry__team").filter(
        pk=pk, event=event).first()
    if found is None:
        raise Http404(_("No such registration in this event."))
    return found


@login_required
@require_POST
def event_player_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    """Approve or remove one player (htmx swaps the player's row; without htmx, back to the page)."""
    event = event_for(request.user, slug, edit=True)
    registration = _registration(event, pk)
    error = ""
    try:
        if action == "approve":
            registration = services.registration_approve(registration=registration, user=request.user)
        elif action == "remove":
            registration = services.registration_remove(registration=registration, user=request.user)
        else:
            raise Http404(_("Unknown action."))
    except ValidationError as exc:
        error = error_text(exc)
    if request.headers.get("HX-Request"):
        # The whole list: a removal may move a waiting player up.
        context = _players_context(request, event)
        context["row_error"] = {registration.pk: error} if error else {}
        return render(request, "web/_event_players_table.html", context)
    if error:
        messages.error(request, error)
    return redirect("league:event_players", slug=event.slug)


@login_required
@require_http_methods(["GET", "POST"])
def event_player_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a player's registration (names, contact, under 18, consent, division, nation asked for)."""
    event = event_for(request.user, slug, edit=True)
    registration = _registration(event, pk)
    initial = {name: getattr(registration, name) for name in services.REGISTRATION_FIELDS}
    form = RegistrationForm(request.POST or None, event=event, organiser=True, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.registration_update(registration=registration, user=request.user, **form.values())
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.cleaned_data["first_name"]})
            return redirect("league:event_players", slug=event.slug)
    return render(request, "web/event_player_edit.html", {"event": event, "registration": registration,
                                                          "form": form})


@login_required
@require_GET
def event_players_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' CSV of every registration, contacts included (formula-safe)."""
    event = event_for(request.user, slug, edit=True)
    response = HttpResponse(selectors.registrations_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-players.csv"'
    response["Cache-Control"] = "private, no-store"
    return response


# --- the draw on the big screen --------------------------------------------------------------------------------


@require_GET
def event_draw(request: HttpRequest, slug: str) -> HttpResponse:
    """The big screen's draw: the cards of a draw (the latest, or ``?draw=id``) revealed one at a time, each with
    the player's public name and, for a dice draw, their throws (``static/js/nation-draw.js``)."""
    event = event_for(request.user, slug)
    draws = NationDraw.objects.filter(event=event).select_related("division__tournament").order_by("-made_at", "-id")
    asked = request.GET.get("draw", "")
    draw = draws.filter(pk=int(asked)).first() if asked.isascii() and asked.isdigit() and len(asked) < 12 \
        else draws.first()
    if asked and draw is None:
        raise Http404(_("No such draw."))
    # A dice draw picked in turn is shown turn by turn (and the page follows the picks as they are made).
    picking = draw is not None and selectors.next_turn(draw) is not None
    turns = selectors.draw_turns(draw, event) if picking else []
    return render(request, "web/event_draw.html", {
        "event": event, "draw": draw, "turns": turns, "picking": picking,
        "cards": selectors.draw_reveal(draw, event) if draw and not turns else [],
        "seconds": CARD_SECONDS, "can_edit": can_edit_event(request.user, event),
        "signup_url": _signup_url(request, event)})
