"""Forms of registering for an event and of the organisers' players page. They check the input's shape;
``league.services.registrations`` does the work (its field errors are shown on these forms by
``league.errors.form_error``)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from league import nation_draws
from league.models import Event, Team
from league.registration_selectors import division_choices, nations_left
from league.selectors import teams_for


class RegistrationForm(forms.Form):
    """A player signs up (the public form), or an organiser adds or edits a player (``organiser=True``: contact
    and choice of any nation or the organiser's own team cards)."""

    first_name = forms.CharField(label=_("First name"), max_length=60)
    surname = forms.CharField(label=_("Surname"), max_length=60,
                              help_text=_("Public pages show only its initial for players under 18."))
    contact = forms.CharField(label=_("Contact (e-mail or phone, optional)"), max_length=120, required=False,
                              help_text=_("Seen by the organisers only."))
    minor = forms.BooleanField(label=_("I am under 18"), required=False)
    show_name = forms.BooleanField(label=_("My first name may be shown on the public pages and the big screen"),
                                   required=False,
                                   help_text=_("Otherwise you are shown by your number or your nation."))
    division = forms.ModelChoiceField(label=_("Division"), queryset=None, required=False,
                                      empty_label=_("Any"))
    choice = forms.ModelChoiceField(label=_("Nation I would like to play"), queryset=None, required=False,
                                    empty_label=_("No preference"),
                                    help_text=_("First come, first served: only nations nobody has asked for yet "
                                                "are listed."))
    # A field people never see (hidden by the page's style sheet): a robot filling every field gives itself away.
    website = forms.CharField(required=False, label=_("Leave this empty"),
                              widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}))

    def __init__(self, *args, event: Event, organiser: bool = False, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        divisions = division_choices(event)
        self.fields["division"].queryset = event.divisions.all()
        self.fields["division"].label_from_instance = lambda d: d.tournament.name
        if len(divisions) < 2:
            del self.fields["division"]
        self.fields["choice"].label_from_instance = lambda team: team.name
        if organiser:
            self.fields["choice"].queryset = teams_for(user).order_by("-is_nation", "name")
            self.fields["choice"].help_text = ""
            self.fields["minor"].label = _("Under 18")
            self.fields["show_name"].label = _("First name may be shown publicly")
            del self.fields["website"]
        else:
            self.fields["choice"].queryset = Team.objects.filter(
                pk__in=[t.pk for t in nations_left(event)]).order_by("name")

    def clean_website(self):
        if self.cleaned_data.get("website"):
            raise forms.ValidationError(_("Leave this field empty."))
        return ""

    def values(self) -> dict:
        """The cleaned data as ``league.services.registrations``' fields."""
        data = dict(self.cleaned_data)
        data.pop("website", None)
        return data


class RegistrationSettingsForm(forms.Form):
    """Registration open or closed, the places, hidden surnames."""

    registration_open = forms.BooleanField(label=_("Players may register"), required=False)
    registration_cap = forms.IntegerField(label=_("Places"), min_value=1, max_value=500, required=False,
                                          help_text=_("Empty: no limit. Players who register once the places "
                                                      "are taken go on the waiting list."))
    hide_surnames = forms.BooleanField(label=_("Show only first names and initials on the public pages"),
                                       required=False)

    @classmethod
    def initial_for(cls, event: Event) -> dict:
        return {"registration_open": event.registration_open, "registration_cap": event.registration_cap,
                "hide_surnames": event.hide_surnames}


# The dice draw whose players then pick in turn: a choice of the form, a ``live`` dice draw for the service.
DICE_LIVE = "dice_live"
POOL_CHOICES = [("", _("Not now")), ("seeded", _("By the seeded pool draw")),
                ("draw_order", _("In the order drawn (first to Pool A, second to Pool B…)"))]


class NationDrawForm(forms.Form):
    """Draw the nations (or team cards) of a division for its approved players."""

    division = forms.ModelChoiceField(label=_("Division"), queryset=None, empty_label=None)
    method = forms.ChoiceField(label=_("Draw by"), choices=[
        (nation_draws.RANDOM, _("Random draw")),
        (DICE_LIVE, _("Dice throws, then each player picks in turn (live)")),
        (nation_draws.DICE, _("Dice throws (highest gets their wish first, the rest dealt at once)")),
        (nation_draws.CHOICE, _("Players' choice (first come)"))])
    nations = forms.ModelMultipleChoiceField(label=_("Nations in the draw"), queryset=None, required=False,
                                             widget=forms.CheckboxSelectMultiple)
    custom_cards = forms.CharField(label=_("Team cards instead of nations (a school, a club), one a line"),
                                   required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}))
    seed = forms.IntegerField(label=_("Seed (optional)"), required=False, min_value=0, max_value=2 ** 63 - 1,
                              help_text=_("Empty: a fresh one. Give a seed to replay a draw."))
    pools = forms.ChoiceField(label=_("Then put the players into the division's pools"), required=False,
                              choices=POOL_CHOICES, help_text=_("For a division played in pools."))

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = event.divisions.select_related("tournament").order_by("order", "id")
        self.fields["division"].label_from_instance = lambda d: d.tournament.name
        nations = Team.objects.filter(is_nation=True).order_by("world_ranking", "name")
        self.fields["nations"].queryset = nations
        self.fields["nations"].label_from_instance = lambda team: team.name
        self.initial.setdefault("nations", list(nations))

    def method_and_live(self) -> tuple[str, bool]:
        """The draw's method and whether its players pick in turn (the dice draw picked live)."""
        method = self.cleaned_data["method"]
        return (nation_draws.DICE, True) if method == DICE_LIVE else (method, False)

    def card_names(self) -> list[str]:
        return [line.strip() for line in self.cleaned_data.get("custom_cards", "").splitlines() if line.strip()]


class DivisionPoolsForm(forms.Form):
    """Put a division's drawn players into its pools (after a draw made without)."""

    division = forms.ModelChoiceField(label=_("Division"), queryset=None, empty_label=None)
    order = forms.ChoiceField(label=_("How"), choices=POOL_CHOICES[1:])

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = event.divisions.select_related("tournament").order_by("order", "id")
        self.fields["division"].label_from_instance = lambda d: d.tournament.name


class NationPickForm(forms.Form):
    """The card the player whose turn it is picks in a dice draw picked in turn (what is left of the draw)."""

    draw = forms.IntegerField(widget=forms.HiddenInput)
    team = forms.ModelChoiceField(label=_("Picks"), queryset=Team.objects.none(), empty_label=None)

    def __init__(self, *args, left: list[Team], wish: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = Team.objects.filter(pk__in=[t.pk for t in left])
        self.fields["team"].choices = [(t.pk, t.name) for t in left]
        if wish is not None and wish in left:
            self.initial.setdefault("team", wish.pk)
