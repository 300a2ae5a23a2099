"""Writes of an event's money, recorded, not processed: its currency, goal and entry fee, each player's fee
(paid or not, and how), donations, and sponsors' pledges per try, per point or per win.

Every change is checked here (amounts are Decimals of at most two decimal places, never floats; a player or
side must be the event's), written in one transaction with its row in the audit trail
(``AuditRecord.Action.MONEY_CHANGED`` on the event), and bumps the event's version so its public page and big
screen show the new total. What a pledge comes to is not written anywhere: ``league.fundraising_selectors``
works it out from the results.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from league.errors import DomainError, NotFound
from league.models import (
    CURRENCY_CHOICES,
    AuditRecord,
    Donation,
    Entry,
    EntryFee,
    Event,
    PaymentMethod,
    Pledge,
    Registration,
)
from league.services.audit import audit_record
from league.services.events import event_changed

# The largest amount a money field holds (10 digits, two of them decimals).
MAX_AMOUNT = Decimal("99999999.99")
CURRENCIES = [code for code, _label in CURRENCY_CHOICES]
DONATION_FIELDS = ("donor_name", "amount", "message", "anonymous", "registration", "method")
PLEDGE_FIELDS = ("sponsor_name", "anonymous", "basis", "rate", "cap", "registration", "entry")


# --- checks ----------------------------------------------------------------------------------------------------


def optional_money_value(value: Any, *, name: str, positive: bool = False) -> Decimal | None:
    """:func:`money_value`, or None for no value (no goal, no cap)."""
    if value is None or value == "":
        return None
    return money_value(value, name=name, positive=positive)


def money_value(value: Any, *, name: str, positive: bool = False) -> Decimal:
    """An amount as a Decimal of two places, or a field error: never a float (a float is refused, not rounded)."""
    if value is None or value == "":
        raise DomainError({name: [_("Give an amount.")]})
    if isinstance(value, (bool, float)):
        raise DomainError({name: [_("Give the amount as a decimal number such as 12.50.")]})
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        raise DomainError({name: [_("Give the amount as a decimal number such as 12.50.")]}) from None
    if not amount.is_finite() or amount.as_tuple().exponent < -2:  # type: ignore[operator]
        raise DomainError({name: [_("Give the amount with at most two decimal places.")]})
    if amount < 0 or (positive and amount == 0):
        text = _("Give an amount above zero.") if positive else _("Give an amount of zero or more.")
        raise DomainError({name: [text]})
    if amount > MAX_AMOUNT:
        raise DomainError({name: [_("Give an amount of at most %(max)s.") % {"max": MAX_AMOUNT}]})
    return amount.quantize(Decimal("0.01"))


def _text(value: Any, *, name: str, max_length: int, required: bool) -> str:
    text = " ".join(str(value or "").split())
    if required and not text:
        raise DomainError({name: [_("This is needed.")]})
    if len(text) > max_length:
        raise DomainError({name: [_("At most %(count)s characters.") % {"count": max_length}]})
    return text


def _method(value: Any) -> str:
    method = str(value or "")
    if method and method not in PaymentMethod.values:
        raise DomainError({"method": [_("Choose cash, card or transfer.")]})
    return method


def _registration_of(event: Event, registration: Any) -> Registration | None:
    """The event's registration given as a row or an id (None: none); not found otherwise."""
    if registration in (None, ""):
        return None
    pk = registration.pk if isinstance(registration, Registration) else registration
    found = Registration.objects.select_related("entry__team").filter(event=event, pk=pk).exclude(
        status=Registration.Status.REMOVED).first() if str(pk).isdigit() else None
    if found is None:
        raise NotFound({"registration": [_("No such player in this event.")]})
    return found


def _entry_of(event: Event, entry: Any) -> Entry | None:
    """An entry (a side) of one of the event's divisions, given as a row or an id."""
    if entry in (None, ""):
        return None
    pk = entry.pk if isinstance(entry, Entry) else entry
    found = Entry.objects.select_related("team").filter(tournament__division__event=event, pk=pk).first() \
        if str(pk).isdigit() else None
    if found is None:
        raise NotFound({"entry": [_("No such team or nation in this event's divisions.")]})
    return found


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _record(event: Event, user: Any, old: Any, new: Any) -> None:
    audit_record(action=AuditRecord.Action.MONEY_CHANGED, event=event, old=old, new=new, user=user)
    event_changed(event)


# --- the event's settings ----------------------------------------------------------------------------------------


def event_money_update(*, event: Event, user: Any = None, **fields: Any) -> Event:
    """Set the event's ``currency`` (ISO 4217 code), ``fundraising_goal`` (None: no goal) and ``entry_fee``."""
    unknown = sorted(set(fields) - {"currency", "fundraising_goal", "entry_fee"})
    if unknown:
        raise DomainError({name: [_("This cannot be set here.")] for name in unknown})
    values: dict[str, Any] = {}
    if "currency" in fields:
        currency = str(fields["currency"] or "").upper()
        if currency not in CURRENCIES:
            raise DomainError({"currency": [_("Choose a currency from the list.")]})
        values["currency"] = currency
    if "fundraising_goal" in fields:
        values["fundraising_goal"] = optional_money_value(fields["fundraising_goal"], name="fundraising_goal")
    if "entry_fee" in fields:
        values["entry_fee"] = money_value(fields["entry_fee"], name="entry_fee")
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        old = {"currency": locked.currency, "fundraising_goal": _money(locked.fundraising_goal),
               "entry_fee": _money(locked.entry_fee)}
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(values) or None)
        new = {"currency": locked.currency, "fundraising_goal": _money(locked.fundraising_goal),
               "entry_fee": _money(locked.entry_fee)}
        _record(locked, user, {"money": "settings", **old}, {"money": "settings", **new})
    for name in ("currency", "fundraising_goal", "entry_fee", "version"):
        setattr(event, name, getattr(locked, name))
    return event


# --- entry fees --------------------------------------------------------------------------------------------------


def entry_fee_set(*, event: Event, registration: Any, user: Any = None, amount: Any = None, paid: bool = False,
                  method: str = "") -> EntryFee:
    """Record a player's entry fee (the event's fee when no ``amount``), whether it is paid and how."""
    reg = _registration_of(event, registration)
    if reg is None:
        raise DomainError({"registration": [_("Choose a player.")]})
    value = money_value(event.entry_fee if amount in (None, "") else amount, name="amount")
    how = _method(method)
    if paid and not how:
        raise DomainError({"method": [_("Say how the fee was paid: cash, card or transfer.")]})
    with transaction.atomic():
        fee = EntryFee.objects.select_for_update().filter(registration=reg).first()
        old = None if fee is None else {"amount": _money(fee.amount), "paid": fee.paid, "method": fee.method}
        if fee is None:
            fee = EntryFee(registration=reg)
        fee.amount, fee.paid, fee.method = value, bool(paid), how if paid else ""
        fee.save()
        _record(event, user, old and {"money": "fee", "registration": reg.pk, **old},
                {"money": "fee", "registration": reg.pk, "amount": _money(fee.amount), "paid": fee.paid,
                 "method": fee.method})
    return fee


def entry_fee_delete(*, event: Event, registration: Any, user: Any = None) -> None:
    """Forget a player's entry fee (recorded by mistake)."""
    reg = _registration_of(event, registration)
    with transaction.atomic():
        fee = EntryFee.objects.select_for_update().filter(registration=reg).first()
        if fee is None:
            raise NotFound(_("No fee is recorded for this player."))
        old = {"money": "fee", "registration": reg.pk if reg else None, "amount": _money(fee.amount),
               "paid": fee.paid, "method": fee.method}
        fee.delete()
        _record(event, user, old, None)


# --- donations ---------------------------------------------------------------------------------------------------


def _donation_values(event: Event, fields: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(fields) - set(DONATION_FIELDS))
    if unknown:
        raise DomainError({name: [_("This cannot be set here.")] for name in unknown})
    values: dict[str, Any] = {}
    if "donor_name" in fields:
        values["donor_name"] = _text(fields["donor_name"], name="donor_name", max_length=80, required=True)
    if "amount" in fields:
        values["amount"] = money_value(fields["amount"], name="amount", positive=True)
    if "message" in fields:
        values["message"] = _text(fields["message"], name="message", max_length=200, required=False)
    if "anonymous" in fields:
        values["anonymous"] = bool(fields["anonymous"])
    if "registration" in fields:
        values["registration"] = _registration_of(event, fields["registration"])
    if "method" in fields:
        values["method"] = _method(fields["method"])
    return values


def _donation_json(donation: Donation) -> dict[str, Any]:
    return {"money": "donation", "id": donation.pk, "donor_name": donation.donor_name,
            "amount": _money(donation.amount), "anonymous": donation.anonymous,
            "registration": donation.registration_id, "method": donation.method}


def donation_create(*, event: Event, user: Any = None, **fields: Any) -> Donation:
    """Record a donation: ``donor_name``, ``amount`` (needed), ``message``, ``anonymous``, ``registration`` (the
    player it is for: their fundraising), ``method``."""
    values = _donation_values(event, {"message": "", "anonymous": False, "method": "", **fields})
    if "donor_name" not in values or "amount" not in values:
        raise DomainError({name: [_("This is needed.")] for name in ("donor_name", "amount")
                           if name not in values})
    with transaction.atomic():
        donation = Donation.objects.create(event=event, **values)
        _record(event, user, None, _donation_json(donation))
    return donation


def donation_update(*, donation: Donation, user: Any = None, **fields: Any) -> Donation:
    """Change a donation (any of ``donor_name``, ``amount``, ``message``, ``anonymous``, ``registration``,
    ``method``)."""
    event = donation.event
    values = _donation_values(event, fields)
    with transaction.atomic():
        locked = Donation.objects.select_for_update().get(pk=donation.pk)
        old = _donation_json(locked)
        for name, value in values.items():
            setattr(locked, name, value)
        locked.save()
        _record(event, user, old, _donation_json(locked))
    return locked


def donation_delete(*, donation: Donation, user: Any = None) -> None:
    """Delete a donation recorded by mistake (the audit trail keeps what it was)."""
    event = donation.event
    with transaction.atomic():
        old = _donation_json(donation)
        Donation.objects.filter(pk=donation.pk).delete()
        _record(event, user, old, None)


# --- pledges -----------------------------------------------------------------------------------------------------


def _pledge_values(event: Event, fields: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(fields) - set(PLEDGE_FIELDS))
    if unknown:
        raise DomainError({name: [_("This cannot be set here.")] for name in unknown})
    values: dict[str, Any] = {}
    if "sponsor_name" in fields:
        values["sponsor_name"] = _text(fields["sponsor_name"], name="sponsor_name", max_length=80, required=True)
    if "anonymous" in fields:
        values["anonymous"] = bool(fields["anonymous"])
    if "basis" in fields:
        if fields["basis"] not in Pledge.Basis.values:
            raise DomainError({"basis": [_("Choose per try, per point or per win.")]})
        values["basis"] = fields["basis"]
    if "rate" in fields:
        values["rate"] = money_value(fields["rate"], name="rate", positive=True)
    if "cap" in fields:
        values["cap"] = optional_money_value(fields["cap"], name="cap", positive=True)
    if "registration" in fields:
        values["registration"] = _registration_of(event, fields["registration"])
    if "entry" in fields:
        values["entry"] = _entry_of(event, fields["entry"])
    return values


def _check_target(registration: Registration | None, entry: Entry | None) -> None:
    if (registration is None) == (entry is None):
        raise DomainError({"registration": [_("Choose either a player or a team (nation), not both.")]})


def _pledge_json(pledge: Pledge) -> dict[str, Any]:
    return {"money": "pledge", "id": pledge.pk, "sponsor_name": pledge.sponsor_name, "basis": pledge.basis,
            "rate": _money(pledge.rate), "cap": _money(pledge.cap), "anonymous": pledge.anonymous,
            "registration": pledge.registration_id, "entry": pledge.entry_id}


def pledge_create(*, event: Event, user: Any = None, **fields: Any) -> Pledge:
    """Record a sponsor's pledge: ``sponsor_name``, ``basis`` (try, point or win), ``rate`` (per one), optional
    ``cap``, ``anonymous``, and either ``registration`` (a player) or ``entry`` (a side of a division)."""
    values = _pledge_values(event, {"anonymous": False, "basis": Pledge.Basis.TRY, "cap": None, **fields})
    missing = [name for name in ("sponsor_name", "rate") if name not in values]
    if missing:
        raise DomainError({name: [_("This is needed.")] for name in missing})
    _check_target(values.get("registration"), values.get("entry"))
    with transaction.atomic():
        pledge = Pledge.objects.create(event=event, **values)
        _record(event, user, None, _pledge_json(pledge))
    return pledge


def pledge_update(*, pledge: Pledge, user: Any = None, **fields: Any) -> Pledge:
    """Change a pledge (any of the fields of :func:`pledge_create`; giving a player clears the side and back)."""
    event = pledge.event
    values = _pledge_values(event, fields)
    if values.get("registration") is not None and "entry" not in values:
        values["entry"] = None
    if values.get("entry") is not None and "registration" not in values:
        values["registration"] = None
    with transaction.atomic():
        locked = Pledge.objects.select_for_update().get(pk=pledge.pk)
        old = _pledge_json(locked)
        for name, value in values.items():
            setattr(locked, name, value)
        _check_target(locked.registration, locked.entry)
        locked.save()
        _record(event, user, old, _pledge_json(locked))
    return locked


def pledge_delete(*, pledge: Pledge, user: Any = None) -> None:
    """Delete a pledge recorded by mistake (the audit trail keeps what it was)."""
    event = pledge.event
    with transaction.atomic():
        old = _pledge_json(pledge)
        Pledge.objects.filter(pk=pledge.pk).delete()
        _record(event, user, old, None)
