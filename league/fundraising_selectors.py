"""Reads of an event's money: entry fees, donations, pledges and what the results make of the pledges, the
"raised so far" total, the thank-you list and the treasurer's CSV.

Money is recorded here, never processed. A pledge's amount (so much per try, per point or per win of a player or
a side, perhaps capped) is never stored: it is worked out from the results each time it is read, so a corrected
result corrects the money. Every amount is a ``Decimal`` in the event's currency (two decimal places).

Nothing here is public but the totals and the thank-you list (donors' and sponsors' names, anonymous ones as
"Anonymous"); a player's public name is ``league.registration_selectors.public_name``'s, used by the awards.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Q, Sum
from django.utils.translation import gettext as _

from league.cache import FRAGMENT_TIMEOUT, TEMPLATE_REVISION
from league.event_selectors import division_versions
from league.exports import csv_text
from league.models import (
    AuditRecord,
    Donation,
    Entry,
    EntryFee,
    Event,
    Fixture,
    Pledge,
    Registration,
    Result,
    Tournament,
)
from league.money import CENT, ZERO, money_text

# --- what the results give each side --------------------------------------------------------------------------


@dataclass
class SideRecord:
    """What one entry did in the event's results: tries and points scored, wins, and its matches."""

    tries: int = 0
    points: int = 0
    wins: int = 0
    played: int = 0
    # (margin, fixture id, losing bonus) of each match it lost.
    losses: list[tuple[int, int, bool]] = field(default_factory=list)


def winner_of(row: dict[str, Any]) -> int | None:
    """The winning entry of a result row (walkovers and knockout draws decided otherwise included)."""
    kind = row["result__kind"]
    if kind == Result.Kind.WALKOVER_HOME:
        return row["home_id"]
    if kind == Result.Kind.WALKOVER_AWAY:
        return row["away_id"]
    if row["result__home_score"] != row["result__away_score"]:
        return row["home_id"] if row["result__home_score"] > row["result__away_score"] else row["away_id"]
    return row["result__winner_id"] if row["result__winner_id"] in (row["home_id"], row["away_id"]) else None


def result_rows(event: Event) -> list[dict[str, Any]]:
    """Every result of the event's published divisions (cancelled fixtures left out), as plain rows: one query.
    A division still a draft is being set up or tried out: its results fill in no pledge and win no award until
    it is published."""
    rows = (Fixture.objects.filter(tournament__division__event=event, result__isnull=False,
                                       home__isnull=False, away__isnull=False)
                .exclude(status=Fixture.Status.CANCELLED)
                .exclude(tournament__status=Tournament.Status.DRAFT)
                .values("id", "tournament_id", "home_id", "away_id", "result__home_score", "result__away_score",
                        "result__home_tries", "result__away_tries", "result__kind", "result__winner_id")
                .order_by("id"))
    return [dict(row) for row in rows]


def side_records(rows: Iterable[dict[str, Any]], losing_bonus_margin: int = 7) -> dict[int, SideRecord]:
    """Each entry's tries, points, wins and losses from result rows (:func:`result_rows`)."""
    records: dict[int, SideRecord] = defaultdict(SideRecord)
    for row in rows:
        winner = winner_of(row)
        walkover = row["result__kind"] != Result.Kind.PLAYED
        for side, other in (("home", "away"), ("away", "home")):
            record = records[row[f"{side}_id"]]
            record.played += 1
            record.tries += row[f"result__{side}_tries"]
            record.points += row[f"result__{side}_score"]
            if winner == row[f"{side}_id"]:
                record.wins += 1
            elif winner == row[f"{other}_id"] and not walkover:
                margin = row[f"result__{other}_score"] - row[f"result__{side}_score"]
                record.losses.append((margin, row["id"], 0 <= margin <= losing_bonus_margin))
    return dict(records)


def event_side_records(event: Event) -> dict[int, SideRecord]:
    """:func:`side_records` of the event's results: one query."""
    return side_records(result_rows(event))


# --- pledges ---------------------------------------------------------------------------------------------------


def pledge_count(pledge: Pledge, record: SideRecord | None) -> int:
    """How many tries, points or wins of the pledge's side count (0 before its side plays)."""
    if record is None:
        return 0
    counts: dict[str, int] = {Pledge.Basis.TRY: record.tries, Pledge.Basis.POINT: record.points,
                              Pledge.Basis.WIN: record.wins}
    return counts.get(pledge.basis, 0)


def pledge_amount(pledge: Pledge, record: SideRecord | None) -> Decimal:
    """What a pledge comes to now: its rate times the count, at most its cap. Exact (Decimal)."""
    amount = (pledge.rate * pledge_count(pledge, record)).quantize(CENT)
    if pledge.cap is not None and amount > pledge.cap:
        amount = pledge.cap
    return amount


def pledge_entry_id(pledge: Pledge) -> int | None:
    """The entry whose results fill the pledge in: the side's, or the player's once they have one."""
    if pledge.entry_id is not None:
        return pledge.entry_id
    registration = pledge.registration
    return registration.entry_id if registration is not None else None


def event_pledges(event: Event) -> list[Pledge]:
    """The event's pledges with their player or side: one query."""
    return list(Pledge.objects.filter(event=event).select_related(
        "registration__entry__team", "entry__team", "entry__tournament", "entry__registration")
        .order_by("created_at", "id"))


def pledge_rows(event: Event, pledges: list[Pledge] | None = None,
                records: dict[int, SideRecord] | None = None) -> list[dict[str, Any]]:
    """Each pledge with what it counts now and comes to (``count``, ``amount``, ``capped``)."""
    pledges = event_pledges(event) if pledges is None else pledges
    records = event_side_records(event) if records is None else records
    rows = []
    for pledge in pledges:
        entry_id = pledge_entry_id(pledge)
        record = records.get(entry_id) if entry_id is not None else None
        amount = pledge_amount(pledge, record)
        rows.append({"pledge": pledge, "count": pledge_count(pledge, record), "amount": amount,
                     "capped": pledge.cap is not None and amount == pledge.cap and amount > 0,
                     "target": pledge_target_name(pledge)})
    return rows


def pledge_target_name(pledge: Pledge) -> str:
    """Who the pledge is for, as the organisers see it: the player's full name and side, or the side."""
    if pledge.registration is not None:
        reg = pledge.registration
        side = reg.entry.team.name if reg.entry is not None else ""
        name = " ".join(f"{reg.first_name} {reg.surname}".split())
        return f"{name} ({side})" if side else name
    if pledge.entry is not None:
        entry = pledge.entry
        return f"{entry.player_name} ({entry.team.name})" if entry.player_name else entry.team.name
    return ""


# --- totals ----------------------------------------------------------------------------------------------------


@dataclass
class MoneyTotals:
    """The event's money now, each part a Decimal in ``currency``."""

    currency: str
    fees_paid: Decimal
    fees_due: Decimal
    donations: Decimal
    pledges: Decimal
    goal: Decimal | None

    @property
    def raised(self) -> Decimal:
        """Raised so far: paid entry fees, donations and what the pledges come to."""
        return self.fees_paid + self.donations + self.pledges

    @property
    def percent(self) -> int | None:
        """How far towards the goal, 0 to 100 (None: no goal)."""
        if not self.goal:
            return None
        return min(100, int(self.raised * 100 / self.goal))


def money_totals(event: Event, pledge_list: list[dict[str, Any]] | None = None) -> MoneyTotals:
    """The event's totals: four queries whatever the number of fees, donations, pledges and results (two when
    ``pledge_list`` is given)."""
    fees = EntryFee.objects.filter(registration__event=event).aggregate(
        paid_total=Sum("amount", filter=Q(paid=True)), due_total=Sum("amount", filter=Q(paid=False)))
    paid, due = fees["paid_total"] or ZERO, fees["due_total"] or ZERO
    donations = Donation.objects.filter(event=event).aggregate(total=Sum("amount"))["total"] or ZERO
    rows = pledge_rows(event) if pledge_list is None else pledge_list
    pledged = sum((row["amount"] for row in rows), ZERO)
    return MoneyTotals(currency=event.currency, fees_paid=paid, fees_due=due, donations=donations,
                       pledges=pledged, goal=event.fundraising_goal)


def public_money(event: Event) -> dict[str, Any]:
    """What anyone may see of the money: the total raised so far and the goal (no names, no details);
    ``shown``: whether the public pages show it (a goal, or any money recorded)."""
    pledges = pledge_rows(event)
    totals = money_totals(event, pledges)
    return {"currency": event.currency, "raised": totals.raised, "goal": totals.goal, "percent": totals.percent,
            "raised_text": money_text(totals.raised, event.currency),
            "goal_text": money_text(totals.goal, event.currency) if totals.goal else "",
            "shown": bool(totals.goal or pledges or totals.raised or totals.fees_due)}


def public_money_cached(event: Event) -> dict[str, Any] | None:
    """:func:`public_money` when the pages show it (None otherwise), cached under the event's version and its
    divisions' (a money change bumps the first, a result the second): one query when cached."""
    versions = ",".join(f"{t}.{v}" for t, v in division_versions(event))
    key = f"league:event-money:r{TEMPLATE_REVISION}:{event.pk}:v{event.version}:{versions}"
    found = cache.get(key)
    if found is None:
        found = public_money(event)
        cache.set(key, found, FRAGMENT_TIMEOUT)
    return found if found["shown"] else None


# --- the organisers' lists -------------------------------------------------------------------------------------


def fee_rows(event: Event) -> list[dict[str, Any]]:
    """Every registration still in the event with its fee (None: not recorded yet): one query."""
    registrations = (Registration.objects.filter(event=event).exclude(status=Registration.Status.REMOVED)
                     .select_related("fee", "entry__team").order_by("created_at", "id"))
    rows = []
    for reg in registrations:
        fee = getattr(reg, "fee", None)
        rows.append({"registration": reg, "fee": fee,
                     "name": " ".join(f"{reg.first_name} {reg.surname}".split()),
                     "side": reg.entry.team.name if reg.entry is not None else ""})
    return rows


def event_donations(event: Event) -> list[Donation]:
    """The event's donations in the order given, with the player each is for: one query."""
    return list(Donation.objects.filter(event=event).select_related("registration").order_by("created_at", "id"))


def money_history(event: Event, limit: int = 20) -> list[dict[str, Any]]:
    """The latest changes of the event's money (the audit trail), newest first, in words: ``at``, ``by`` (the
    user or None) and ``text`` ("recorded a donation")."""
    rows = []
    for record in (AuditRecord.objects.filter(event=event, action=AuditRecord.Action.MONEY_CHANGED)
                   .select_related("changed_by").order_by("-changed_at", "-id")[:limit]):
        what = (record.new or record.old or {}).get("money", "")
        thing = {"fee": _("an entry fee"), "donation": _("a donation"), "pledge": _("a pledge")}.get(
            what, _("the currency, goal or entry fee"))
        if record.new and record.old:
            text = _("changed %(thing)s") % {"thing": thing}
        elif record.new:
            text = _("recorded %(thing)s") % {"thing": thing}
        else:
            text = _("deleted %(thing)s") % {"thing": thing}
        rows.append({"at": record.changed_at, "by": record.changed_by, "text": text})
    return rows


def fundraising_by_registration(event: Event, pledge_list: list[dict[str, Any]],
                                donations: list[Donation]) -> dict[int, Decimal]:
    """What each player raised: donations given for them and pledges on them (or on the side they play).
    Entry fees are not fundraising."""
    raised: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for donation in donations:
        if donation.registration_id is not None:
            raised[donation.registration_id] += donation.amount
    entry_owner = dict(Registration.objects.filter(event=event, entry__isnull=False)
                       .values_list("entry_id", "id"))
    for row in pledge_list:
        pledge = row["pledge"]
        owner = pledge.registration_id or entry_owner.get(pledge.entry_id)
        if owner is not None:
            raised[owner] += row["amount"]
    return dict(raised)


# --- the thank-you list and the treasurer's CSV ------------------------------------------------------------------


def thank_you_list(event: Event) -> dict[str, list[dict[str, Any]]]:
    """Donors and sponsors as the public sees them: anonymous ones as "Anonymous", no amounts, no contacts; a
    donor or sponsor named twice is thanked once. Two queries."""
    donors: dict[str, dict[str, Any]] = {}
    anonymous_donors = 0
    for donation in Donation.objects.filter(event=event).order_by("created_at", "id"):
        if donation.anonymous:
            anonymous_donors += 1
            continue
        donors.setdefault(donation.donor_name.casefold(), {"name": donation.donor_name, "message": ""})
        if donation.message:
            donors[donation.donor_name.casefold()]["message"] = donation.message
    sponsors: dict[str, dict[str, Any]] = {}
    anonymous_sponsors = 0
    for pledge in Pledge.objects.filter(event=event).order_by("created_at", "id"):
        if pledge.anonymous:
            anonymous_sponsors += 1
            continue
        sponsors.setdefault(pledge.sponsor_name.casefold(), {"name": pledge.sponsor_name})
    donor_rows = sorted(donors.values(), key=lambda d: d["name"].casefold())
    sponsor_rows = sorted(sponsors.values(), key=lambda d: d["name"].casefold())
    if anonymous_donors:
        donor_rows.append({"name": _("Anonymous"), "message": "", "count": anonymous_donors})
    if anonymous_sponsors:
        sponsor_rows.append({"name": _("Anonymous"), "count": anonymous_sponsors})
    return {"donors": donor_rows, "sponsors": sponsor_rows}


MONEY_COLUMNS = ["kind", "name", "for", "basis", "rate", "count", "cap", "amount", "currency", "paid", "method",
                 "anonymous", "message", "when"]


def money_csv(event: Event) -> str:
    """The treasurer's CSV: every fee, donation and pledge (with what it comes to now), formula-safe."""
    currency = event.currency
    rows: list[list[object]] = []
    for row in fee_rows(event):
        fee = row["fee"]
        if fee is None:
            continue
        rows.append(["entry_fee", row["name"], row["side"], "", "", "", "", fee.amount, currency,
                     "yes" if fee.paid else "no", fee.method, "", "", fee.updated_at.isoformat(timespec="seconds")])
    for donation in event_donations(event):
        reg = donation.registration
        player = " ".join(f"{reg.first_name} {reg.surname}".split()) if reg else ""
        rows.append(["donation", donation.donor_name, player, "", "", "", "",
                     donation.amount, currency, "yes", donation.method, "yes" if donation.anonymous else "no",
                     donation.message, donation.created_at.isoformat(timespec="seconds")])
    for row in pledge_rows(event):
        pledge = row["pledge"]
        rows.append(["pledge", pledge.sponsor_name, row["target"], pledge.basis, pledge.rate, row["count"],
                     pledge.cap if pledge.cap is not None else "", row["amount"], currency, "", "",
                     "yes" if pledge.anonymous else "no", "", pledge.created_at.isoformat(timespec="seconds")])
    return csv_text(rows, MONEY_COLUMNS)


def registrations_with_sides(event: Event) -> list[Registration]:
    """The event's players still in it (for the forms' lists): one query."""
    return list(Registration.objects.filter(event=event).exclude(status=Registration.Status.REMOVED)
                .select_related("entry__team").order_by("first_name", "surname", "id"))


def event_entries(event: Event) -> list[Entry]:
    """Every side of every division (a pledge may be for one): one query."""
    return list(Entry.objects.filter(tournament__division__event=event).select_related("team", "tournament")
                .order_by("tournament__division__order", "team__name"))
