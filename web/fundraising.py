"""Pages of an event's money and prize-giving: the organisers' money page (currency and goal, entry fees,
donations, pledges with what the results make of them, the history of changes) and the treasurer's CSV; the
public thank-you list, the prize-giving (a page, a big-screen mode showing one award at a time, printable
certificates).

Thin views: ``league.fundraising_forms`` check the input, ``league.services.fundraising`` does the work,
``league.fundraising_selectors`` and ``league.award_selectors`` read. Only organisers see money beyond the total
raised and the thank-you list.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from league import award_selectors, fundraising_forms
from league import fundraising_selectors as money
from league.errors import NotFound, form_error
from league.forms import ConfirmForm
from league.models import Donation, Event, Pledge, Tournament
from league.money import money_text
from league.permissions import can_edit_event, event_for
from league.services import fundraising
from web.actions import posted_action
from web.events import SCREEN_SECONDS, render_cached

MONEY_ACTIONS = ("settings", "fee", "donation", "pledge")


def _shown_tournaments(request: HttpRequest, event: Event) -> list[Tournament]:
    """The divisions a visitor sees in the prize-giving: drafts only for the event's organisers."""
    queryset = Tournament.objects.filter(division__event=event)
    if not can_edit_event(request.user, event):
        queryset = queryset.exclude(status=Tournament.Status.DRAFT)
    return list(queryset)


@login_required
@require_http_methods(["GET", "POST"])
def event_money(request: HttpRequest, slug: str) -> HttpResponse:
    """The organisers' money page: every form posts its ``action``; each change is one service call."""
    event = event_for(request.user, slug, edit=True)
    posted = posted_action(request, MONEY_ACTIONS)
    action, data = posted.name, posted.data
    registrations = money.registrations_with_sides(event)
    entries = money.event_entries(event)
    settings_form = fundraising_forms.MoneySettingsForm(
        data("settings"), prefix="money",
        initial=fundraising_forms.MoneySettingsForm.initial_for(event))
    fee_form = fundraising_forms.FeeForm(data("fee"), prefix="fee",
                                         registrations=registrations)
    donation_form = fundraising_forms.DonationForm(data("donation"), prefix="donation",
                                                   registrations=registrations)
    pledge_form = fundraising_forms.PledgeForm(data("pledge"), prefix="pledge",
                                               registrations=registrations, entries=entries)
    done = None
    try:
        if action == "settings" and settings_form.is_valid():
            fundraising.event_money_update(event=event, user=request.user, **settings_form.cleaned_data)
            done = _("Money settings saved.")
        elif action == "fee" and fee_form.is_valid():
            fundraising.entry_fee_set(event=event, user=request.user, **fee_form.values())
            done = _("Entry fee recorded.")
        elif action == "donation" and donation_form.is_valid():
            fundraising.donation_create(event=event, user=request.user, **donation_form.cleaned_data)
            done = _("Donation recorded.")
        elif action == "pledge" and pledge_form.is_valid():
            fundraising.pledge_create(event=event, user=request.user, **pledge_form.values())
            done = _("Pledge recorded.")
    except ValidationError as exc:
        posted.refused(exc, {"settings": settings_form, "fee": fee_form, "donation": donation_form,
                             "pledge": pledge_form})
    if done:
        messages.success(request, done)
        return redirect("league:event_money", slug=event.slug)
    pledges = money.pledge_rows(event)
    opened = {"fee": action == "fee", "pledge": action == "pledge" or not pledges, "donation": action == "donation"}
    return render(request, "web/event_money.html", {
        "event": event, "action": action, "opened": opened, "settings_form": settings_form, "fee_form": fee_form,
        "donation_form": donation_form, "pledge_form": pledge_form, "fees": money.fee_rows(event),
        "donations": money.event_donations(event), "pledges": pledges,
        "totals": money.money_totals(event, pledges), "history": money.money_history(event)})


def _confirm_delete(request: HttpRequest, event: Event, *, title: str, intro: str, delete: Any,
                    deleted: str) -> HttpResponse:
    """The confirmation before a donation or a pledge is deleted (as every delete on the site asks): on a
    confirmed POST ``delete()`` (one service call) and back to the money page."""
    form = ConfirmForm(request.POST or None, reason=False, confirm_label=_("Yes, delete it"))
    if request.method == "POST" and form.is_valid():
        try:
            delete()
        except ValidationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, deleted)
            return redirect("league:event_money", slug=event.slug)
    return render(request, "web/event_confirm.html", {
        "event": event, "form": form, "title": title, "intro": intro, "submit": _("Delete"),
        "back": reverse("league:event_money", args=[event.slug])})


@login_required
@require_http_methods(["GET", "POST"])
def event_donation_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete a donation after a confirmation (the money's history keeps it)."""
    event = event_for(request.user, slug, edit=True)
    donation = Donation.objects.filter(event=event, pk=pk).select_related("event").first()
    if donation is None:
        raise NotFound(_("No such donation."))
    return _confirm_delete(
        request, event, title=_("Delete the donation of %(amount)s from %(donor)s") % {
            "amount": money_text(donation.amount, event.currency), "donor": donation.donor_name},
        intro=_("The total raised goes down by its amount; the money's history keeps it."),
        delete=lambda: fundraising.donation_delete(donation=donation, user=request.user),
        deleted=_("Donation deleted."))


@login_required
@require_http_methods(["GET", "POST"])
def event_pledge_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete a pledge after a confirmation (the money's history keeps it)."""
    event = event_for(request.user, slug, edit=True)
    pledge = Pledge.objects.filter(event=event, pk=pk).select_related(
        "event", "registration__entry__team", "entry__team", "entry__tournament").first()
    if pledge is None:
        raise NotFound(_("No such pledge."))
    return _confirm_delete(
        request, event, title=_("Delete the pledge of %(sponsor)s for %(target)s") % {
            "sponsor": pledge.sponsor_name, "target": money.pledge_target_name(pledge)},
        intro=_("What it comes to leaves the total raised; the money's history keeps it."),
        delete=lambda: fundraising.pledge_delete(pledge=pledge, user=request.user),
        deleted=_("Pledge deleted."))


@login_required
@require_GET
def event_money_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """The treasurer's CSV: every fee, donation and pledge with what it comes to now (organisers only)."""
    event = event_for(request.user, slug, edit=True)
    response = HttpResponse(money.money_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-money.csv"'
    return response


@require_GET
def event_thanks(request: HttpRequest, slug: str) -> HttpResponse:
    """The printable thank-you list: donors and sponsors (anonymous ones as "Anonymous"), no amounts."""
    event = event_for(request.user, slug)
    return render_cached(request, event, "web/event_thanks.html", "thanks", lambda: {
        "event": event, "thanks": money.thank_you_list(event), "money": money.public_money_cached(event)})


def _prizes(request: HttpRequest, event: Event) -> dict[str, Any]:
    prizes = award_selectors.event_awards(event, shown=_shown_tournaments(request, event))
    return {"event": event, "prizes": prizes, "certificates": award_selectors.certificates(event, prizes),
            "can_edit": can_edit_event(request.user, event)}


@require_GET
def event_prizes(request: HttpRequest, slug: str) -> HttpResponse:
    """The prize-giving: each division's champion and runner-up, the awards across the event, certificates."""
    event = event_for(request.user, slug)
    return render_cached(request, event, "web/event_prizes.html", "prizes", lambda: _prizes(request, event))


@require_GET
def event_prizes_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The prize-giving on the big screen: one award at a time (``static/js/event-screen.js``)."""
    event = event_for(request.user, slug)
    asked = request.GET.get("seconds", "")
    seconds = min(max(int(asked), 2), 300) if asked.isascii() and asked.isdigit() and len(asked) < 4 \
        else SCREEN_SECONDS
    return render_cached(request, event, "web/event_prizes_screen.html", f"prizes-screen:{seconds}",
                          lambda: {**_prizes(request, event), "seconds": seconds})


@require_GET
def event_certificates(request: HttpRequest, slug: str) -> HttpResponse:
    """Printable certificates, one page per winner of every award (``?n=3``: only the third)."""
    event = event_for(request.user, slug)
    context = _prizes(request, event)
    asked = request.GET.get("n", "")
    if asked:
        index = int(asked) - 1 if asked.isascii() and asked.isdigit() and len(asked) < 5 else -1
        if not 0 <= index < len(context["certificates"]):
            raise NotFound(_("No such certificate."))
        context["certificates"] = [context["certificates"][index]]
    return render(request, "web/event_certificates.html", context)
