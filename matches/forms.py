"""Forms of online play: joining with a code, and starting a friendly."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from league.levels import DEFAULT_LEVEL, level_choices, level_help
from matches.models import normalise_code

MOVE_CLOCK_CHOICES = [
    ("", _("No move clock")),
    ("30", _("30 seconds a move")),
    ("60", _("1 minute a move")),
    ("120", _("2 minutes a move")),
    ("300", _("5 minutes a move")),
    ("86400", _("1 day a move (a match over days)")),
]


def seat_choices() -> list[tuple[str, object]]:
    """Who takes a friendly's seat: me, someone with the code, or the computer at one of the engine's levels."""
    return [("me", _("Me")), ("open", _("Someone I give the code to")),
            *((f"computer:{level}", label) for level, label in level_choices())]


class JoinForm(forms.Form):
    code = forms.CharField(label=_("Your code"), max_length=40,
                           widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters",
                                                         "spellcheck": "false", "placeholder": "ABCD-EFGH-JKMN"}))

    def clean_code(self):
        code = normalise_code(self.cleaned_data["code"])
        if len(code) < 8:
            raise forms.ValidationError(_("A code has 12 letters and digits."))
        return code


class FriendlyForm(forms.Form):
    ruleset = forms.ChoiceField(label=_("Game"))
    home = forms.ChoiceField(label=_("Home side"), choices=seat_choices, initial="me", help_text=level_help())
    away = forms.ChoiceField(label=_("Away side"), choices=seat_choices, initial=f"computer:{DEFAULT_LEVEL}")
    move_clock = forms.TypedChoiceField(
        label=_("Move clock"), choices=MOVE_CLOCK_CHOICES, required=False, coerce=int, empty_value=None,
        help_text=_("A player who has not moved in time is replaced by the computer for the rest of the match."))
    options = forms.CharField(label=_("Options (JSON, optional)"), required=False,
                              widget=forms.TextInput(attrs={"placeholder": '{"sets_per_half": 2}'}))

    def __init__(self, *args, rulesets=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = [(spec.id, spec.name) for spec in rulesets]

    def clean_options(self):
        raw = self.cleaned_data.get("options") or ""
        if not raw.strip():
            return {}
        try:
            value = json.loads(raw)
        except ValueError:
            raise forms.ValidationError(_("Options must be JSON, e.g. {\"sets_per_half\": 2}."))
        if not isinstance(value, dict):
            raise forms.ValidationError(_("Options must be a JSON object."))
        return value

    def cleaned_options(self) -> dict:
        return self.cleaned_data.get("options") or {}
