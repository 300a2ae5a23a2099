"""Pages of events: the public page of a festival day or fundraiser evening (every division's tables, fixtures
and bracket, what is on each pitch now and next, one link and QR code), its big screen, and the organiser's
page (settings and plan of the day, divisions, "schedule the whole day", "the day runs late", co-organisers).

Thin views: ``league.event_forms`` check the input, ``league.services.events`` does the work, and
``league.permissions`` decides who may see and change an event. A division's part of the public page is the
tournament page's own body (``web/_tournament_body.html``), cached under the tournament's version; the whole
page for anonymous visitors is cached a few seconds (it shows what is on now) under the event's and every
division's version.
"""

from __future__ import annotations

from typing import Any

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from league import event_forms, event_selectors, fundraising_selectors, registration_selectors
from league.cache import TEMPLATE_REVISION
from league.errors import form_error
from league.formats import format_of
from league.models import Event, Tournament
from league.permissions import (
    can_edit_event,
    editable_tournaments,
    event_for,
    listed_events,
    tournament_for,
)
from league.services import events as event_services
from web import sections
from web.actions import posted_action

QR_TIMEOUT = 60 * 60 * 24
# The whole page for visitors with no session: a few seconds (it shows what is on each pitch now).
PAGE_TIMEOUT = 5
# Seconds each division stays on the big screen.
SCREEN_SECONDS = 15


def _shown_divisions(request: HttpRequest, event: Event) -> list[Any]:
    """The divisions a visitor sees: drafts only for the event's organisers."""
    divisions = event_selectors.event_divisions(event)
    if can_edit_event(request.user, event):
        return divisions
    return [d for d in divisions if d.tournament.status != Tournament.Status.DRAFT]


def _division_body(event: Event, tournament: Tournament) -> str:
    """A division's part of the event's pages: the tournament page's own sections (``web.sections``: its tables
    or its format's table, its brackets, and its fixtures of the event's day), each cached under its tokens."""
    table = [sections.Section("table", ("1",))] if format_of(tournament).table_kind else [
        sections.Section("allpools")]
    fixtures = [sections.Section("day", (event.day.isoformat(), "1"))] if event.day else []
    parts = [*table, sections.Section("allbrackets"), *fixtures]
    return mark_safe("".join(item.html for item in sections.render(tournament, parts)))


def _page_key(event: Event, name: str) -> str:
    versions = ",".join(f"{t}.{v}" for t, v in event_selectors.division_versions(event))
    return (f"league:event:r{TEMPLATE_REVISION}:{event.pk}:v{event.version}:{versions}:{get_language() or 'en'}:"
            f"{name}")


def _anonymous(request: HttpRequest) -> bool:
    return settings.SESSION_COOKIE_NAME not in request.COOKIES and "messages" not in request.COOKIES


def _event_context(request: HttpRequest, event: Event) -> dict[str, Any]:
    divisions = _shown_divisions(request, event)
    players = registration_selectors.public_players(event)
    return {
        "event": event, "can_edit": can_edit_event(request.user, event),
        "divisions": [{"division": d, "tournament": d.tournament, "body": _division_body(event, d.tournament)}
                      for d in divisions],
        "pitches": event_selectors.now_and_next(event, timezone.now()),
        "money": fundraising_selectors.public_money_cached(event),
        "share_url": request.build_absolute_uri(reverse("league:event", args=[event.slug])),
        # Players registering and their nations: public names only (``registration_selectors.public_name``).
        "signup_url": request.build_absolute_uri(reverse("league:event_register", args=[event.slug])),
        "players": players,
        "player_counts": registration_selectors.registration_counts(event) if event.registration_open else None,
        "has_draw": any(p["team"] is not None for p in players),
    }


def render_cached(request: HttpRequest, event: Event, template: str, name: str,
                  context: Any) -> HttpResponse:
    """Anonymous visitors get the page from the cache for a few seconds (it shows what is on now)."""
    if not _anonymous(request):
        return render(request, template, context())
    key = _page_key(event, name)
    html = cache.get(key)
    if html is None:
        html = render_to_string(template, context(), request=request)
        cache.set(key, html, PAGE_TIMEOUT)
    return HttpResponse(html)


# --- public pages ----------------------------------------------------------------------------------------------


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    """The public events, and the ones the signed-in user organises."""
    events = list(listed_events(request.user).order_by("-created_at", "name")[:200])
    return render(request, "web/event_list.html", {"events": events})


@require_GET
def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """An event's public page: now and next per pitch, then every division's tables, bracket and fixtures."""
    event = event_for(request.user, slug)
    return render_cached(request, event, "web/event_detail.html", "page",
                          lambda: _event_context(request, event))


@require_GET
def event_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The big screen: now and next, then each division in turn (``static/js/event-screen.js``)."""
    event = event_for(request.user, slug)

    asked = request.GET.get("seconds", "")
    seconds = min(max(int(asked), 2), 300) if asked.isascii() and asked.isdigit() and len(asked) < 4 \
        else SCREEN_SECONDS

    def context() -> dict[str, Any]:
        return {**_event_context(request, event), "seconds": seconds}
    return render_cached(request, event, "web/event_screen.html", f"screen:{seconds}", context)


@require_GET
def event_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The QR code of the event's page, as SVG (the page, the big screen and a printed poster show it)."""
    event = event_for(request.user, slug)
    url = request.build_absolute_uri(reverse("league:event", args=[event.slug]))
    key = f"league:event-qr:{event.pk}:{url}"[:240]
    svg = cache.get(key)
    if svg is None:
        # An <svg> element for a page, made a document of its own (an <img> needs the namespace).
        svg = segno.make(url, error="m").svg_inline(scale=4, border=2).replace(
            "<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
        cache.set(key, svg, QR_TIMEOUT)
    return HttpResponse(svg, content_type="image/svg+xml")


# --- the organiser's pages -------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def event_new(request: HttpRequest) -> HttpResponse:
    """Create an event: its name, day, times, rest gap and pitches; then add its divisions."""
    form = event_forms.EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.event_create(user=request.user, slug=form.cleaned_data["slug"],
                                                **form.values())
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, _("Event created. Now add its divisions."))
            return redirect("league:event_manage", slug=event.slug)
    return render(request, "web/event_new.html", {"form": form})


ACTIONS = ("settings", "new_division", "add_division", "remove_division", "schedule", "push", "organiser", "publish")


@login_required
@require_http_methods(["GET", "POST"])
def event_manage(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser's page of an event: everything on one page, each form posting its ``action``."""
    event = event_for(request.user, slug, edit=True)
    posted = posted_action(request, ACTIONS)
    action, data = posted.name, posted.data
    mine = list(editable_tournaments(request.user).filter(division__isnull=True).order_by("name")[:200])
    settings_form = event_forms.EventForm(data("settings"), event=event,
                                          initial=event_forms.EventForm.initial_for(event), prefix="event")
    new_form = event_forms.DivisionNewForm(data("new_division"), prefix="new")
    add_form = event_forms.DivisionAddForm(data("add_division"), tournaments=mine,
                                           prefix="add")
    push_form = event_forms.EventPushForm(data("push"), prefix="push",
                                          initial={"after": timezone.localtime().time().replace(second=0,
                                                                                                microsecond=0)})
    organiser_form = event_forms.EventOrganiserForm(data("organiser"), prefix="org")
    done = None
    try:
        if action == "settings" and settings_form.is_valid():
            event_services.event_update(event=event, user=request.user, **settings_form.values())
            done = _("Settings saved.")
        elif action == "new_division" and new_form.is_valid():
            tournament = event_services.division_create(event=event, user=request.user, **new_form.cleaned_data)
            messages.success(request, _("Division “%(name)s” added: add its teams and make its fixtures, then "
                                        "come back to schedule the day.") % {"name": tournament.name})
            return redirect("league:manage", slug=tournament.slug)
        elif action == "add_division" and add_form.is_valid():
            tournament = tournament_for(request.user, add_form.cleaned_data["tournament"], edit=True)
            event_services.division_add(event=event, tournament=tournament, user=request.user)
            done = _("Division “%(name)s” added.") % {"name": tournament.name}
        elif action == "remove_division":
            tournament = tournament_for(request.user, request.POST.get("tournament", "")[:60], edit=True)
            event_services.division_remove(event=event, tournament=tournament)
            done = _("“%(name)s” is no longer a division of this event.") % {"name": tournament.name}
        elif action == "schedule":
            count = event_services.event_schedule(event=event, user=request.user)
            done = _("The day is scheduled: %(count)s fixtures placed with no clash.") % {"count": count}
        elif action == "push" and push_form.is_valid():
            values = push_form.cleaned_data
            count = event_services.event_push(event=event, user=request.user, **values)
            done = _("%(count)s fixtures moved by %(minutes)s minutes.") % {"count": count,
                                                                             "minutes": values["minutes"]}
        elif action == "publish":
            event_services.event_update(event=event, user=request.user, status=Tournament.Status.IN_PROGRESS)
            done = _("Published: the event and its divisions are on the public pages.")
        elif action == "organiser" and organiser_form.is_valid():
            user = event_services.event_organiser_add(event=event, username=organiser_form.cleaned_data["username"])
            done = _("%(name)s now organises this event and its divisions.") % {"name": user.get_username()}
    except ValidationError as exc:
        posted.refused(exc, {"settings": settings_form, "new_division": new_form, "add_division": add_form,
                             "push": push_form, "organiser": organiser_form})
    if done:
        messages.success(request, done)
        return redirect("league:event_manage", slug=event.slug)
    fixtures = list(event_selectors.event_fixtures(event))
    divisions = event_selectors.event_divisions(event)
    # The folded forms open on the one just posted, and where the organiser has to start.
    opened = {"new_division": action == "new_division" or not divisions, "add_division": action == "add_division",
              "push": action == "push", "settings": action == "settings" or not event.pitches or not event.day}
    return render(request, "web/event_manage.html", {
        "event": event, "divisions": divisions, "action": action, "opened": opened,
        "settings_form": settings_form, "new_form": new_form,
        "add_form": add_form if mine or action == "add_division" else None,
        "push_form": push_form, "organiser_form": organiser_form,
        "grid": event_selectors.event_grid(event, fixtures),
        "clashes": event_selectors.event_clash_messages(event, fixtures),
        "organisers": list(event.organisers.order_by("username")),
        "fixture_count": len(fixtures)})
