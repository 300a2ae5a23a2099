"""Forms of an event's money page. Each checks its input's shape (amounts as Decimals, never floats);
``league.services.fundraising`` does the work, and its field errors are shown here by ``league.errors.form_error``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import CURRENCY_CHOICES, Entry, Event, PaymentMethod, Pledge, Registration

_MONEY = {"max_digits": 10, "decimal_places": 2, "min_value": 0}
_METHODS = [("", _("not paid yet")), *PaymentMethod.choices]


def _player_label(registration: Registration) -> str:
    name = " ".join(f"{registration.first_name} {registration.surname}".split())
    return f"{name} ({registration.entry.team.name})" if registration.entry is not None else name


class MoneySettingsForm(forms.Form):
    """The event's currency, goal and entry fee."""

    currency = forms.ChoiceField(label=_("Currency"), choices=CURRENCY_CHOICES)
    fundraising_goal = forms.DecimalField(label=_("Fundraising goal"), required=False, **_MONEY,
                                          help_text=_("Shown with the total raised so far. Empty: no goal."))
    entry_fee = forms.DecimalField(label=_("Entry fee per player"), **_MONEY)

    @staticmethod
    def initial_for(event: Event) -> dict[str, Any]:
        return {"currency": event.currency, "fundraising_goal": event.fundraising_goal,
                "entry_fee": event.entry_fee}


class FeeForm(forms.Form):
    """A player's entry fee: how much (the event's fee when empty), paid or not, and how."""

    registration = forms.TypedChoiceField(label=_("Player"), coerce=int)
    amount = forms.DecimalField(label=_("Amount"), required=False, **_MONEY,
                                help_text=_("Empty: the event's entry fee."))
    method = forms.ChoiceField(label=_("Paid by"), choices=_METHODS, required=False)

    def __init__(self, *args: Any, registrations: list[Registration], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = [(r.pk, _player_label(r)) for r in registrations]

    def values(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"registration": data["registration"], "amount": data.get("amount"),
                "paid": bool(data.get("method")), "method": data.get("method") or ""}


class DonationForm(forms.Form):
    """A donation: who gave, how much, an optional message, anonymous or not, and the player it is for."""

    donor_name = forms.CharField(label=_("Donor's name"), max_length=80)
    amount = forms.DecimalField(label=_("Amount"), **_MONEY)
    message = forms.CharField(label=_("Message"), max_length=200, required=False)
    anonymous = forms.BooleanField(label=_("Anonymous on the thank-you list"), required=False)
    registration = forms.TypedChoiceField(label=_("For the player"), coerce=int, required=False, empty_value=None)
    method = forms.ChoiceField(label=_("Paid by"), choices=_METHODS, required=False)

    def __init__(self, *args: Any, registrations: list[Registration], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["registration"].choices = [("", _("the event (nobody in particular)")),
                                               *[(r.pk, _player_label(r)) for r in registrations]]


class PledgeForm(forms.Form):
    """A sponsor's pledge per try, point or win of a player or a side, optionally capped."""

    sponsor_name = forms.CharField(label=_("Sponsor's name"), max_length=80)
    basis = forms.ChoiceField(label=_("Pledged"), choices=Pledge.Basis.choices)
    rate = forms.DecimalField(label=_("Amount each"), **_MONEY)
    cap = forms.DecimalField(label=_("At most"), required=False, **_MONEY, help_text=_("Empty: no limit."))
    target = forms.ChoiceField(label=_("For"))
    anonymous = forms.BooleanField(label=_("Anonymous on the thank-you list"), required=False)

    def __init__(self, *args: Any, registrations: list[Registration], entries: list[Entry],
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = [
            (str(_("Players")), [(f"r{r.pk}", _player_label(r)) for r in registrations]),
            (str(_("Teams and nations")), [(f"e{e.pk}", f"{e.team.name} · {e.tournament.name}") for e in entries]),
        ]

    def values(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        target = data.pop("target")
        key = "registration" if target.startswith("r") else "entry"
        data[key] = int(target[1:])
        return data
