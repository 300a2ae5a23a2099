"""Forms of an event's organiser pages. Each checks its input's shape; ``league.services.events`` does the work
(and its field errors are shown on these forms by ``league.errors.form_error``)."""

from __future__ import annotations

import re

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league.models import Event, Tournament
from league.timezones import default_time_zone, zone_choices

_TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


def pitch_list(text: str) -> list[str]:
    """Pitches typed one a line or separated by commas."""
    return [p.strip() for p in re.split(r"[,\n]", text or "") if p.strip()]


class EventForm(forms.Form):
    """An event and its plan of the day (times are the event's local times)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(label=_("Web address (slug)"), max_length=60, required=False,
                           help_text=_("Letters, digits and hyphens; made from the name when left empty."))
    day = forms.DateField(label=_("Day"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    first_kickoff = forms.TimeField(label=_("First kick-off"), widget=_TIME, initial="09:00")
    finish_by = forms.TimeField(label=_("Finish by"), required=False, widget=_TIME,
                                help_text=_("The last match must be over by then. Empty: no limit."))
    slot_minutes = forms.IntegerField(label=_("Minutes per match"), min_value=1, max_value=24 * 60, initial=20,
                                      help_text=_("How long a match keeps a pitch, half-time included."))
    changeover_minutes = forms.IntegerField(label=_("Change-over minutes"), min_value=0, max_value=24 * 60,
                                            initial=5, help_text=_("Time between two matches on a pitch."))
    rest_minutes = forms.IntegerField(label=_("Rest between a team's matches (minutes)"), min_value=0,
                                      max_value=24 * 60, initial=0,
                                      help_text=_("The least time between the end of a team's (or a player's) "
                                                  "match and its next one."))
    pitches = forms.CharField(label=_("Pitches or tables, one a line"), required=False, max_length=4000,
                              widget=forms.Textarea(attrs={"rows": 4}))
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False,
                                  help_text=_("Kick-offs are shown and entered in it."))
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Tournament.Visibility.choices,
                                   initial=Tournament.Visibility.PUBLIC)
    status = forms.ChoiceField(label=_("Status"), choices=Tournament.Status.choices,
                               initial=Tournament.Status.DRAFT,
                               help_text=_("A draft is seen by its organisers only."))

    def __init__(self, *args, event: Event | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        choices = zone_choices()
        current = event.time_zone if event is not None else default_time_zone()
        if current not in dict(choices):
            choices.insert(0, (current, current))
        self.fields["time_zone"].choices = choices
        self.fields["time_zone"].initial = current
        if event is not None:
            del self.fields["slug"]  # an event's link does not change

    @classmethod
    def initial_for(cls, event: Event) -> dict:
        """The form filled with the event's settings."""
        return {"name": event.name, "day": event.day, "first_kickoff": event.first_kickoff,
                "finish_by": event.finish_by, "slot_minutes": event.slot_minutes,
                "changeover_minutes": event.changeover_minutes, "rest_minutes": event.rest_minutes,
                "pitches": "\n".join(event.pitches or []), "time_zone": event.time_zone,
                "visibility": event.visibility, "status": event.status}

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or (self.event.time_zone if self.event else default_time_zone())

    def clean_pitches(self):
        return pitch_list(self.cleaned_data["pitches"])

    def clean_slug(self):
        slug = self.cleaned_data.get("slug") or slugify(self.data.get("name", ""))[:60]
        if not slug:
            raise forms.ValidationError(_("Give the event a web address made of letters or digits."))
        if Event.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("The web address “%(slug)s” is already taken: choose another."),
                                        params={"slug": slug})
        return slug

    def values(self) -> dict:
        """The cleaned data as ``league.services.events``' fields (without the slug)."""
        data = dict(self.cleaned_data)
        data.pop("slug", None)
        return data


class DivisionNewForm(forms.Form):
    """A new division: a tournament made in the event, with its own format and points system."""

    name = forms.CharField(label=_("Division's name"), max_length=120,
                           help_text=_("Under 11, Women, Cup, Social..."))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.LEAGUE)
    points_system = forms.ChoiceField(label=_("Points system"), choices=Tournament.PointsSystem.choices,
                                      initial=Tournament.PointsSystem.WORLD_RUGBY)


class DivisionAddForm(forms.Form):
    """One of the organiser's tournaments (not in an event yet) taken in as a division."""

    tournament = forms.ChoiceField(label=_("One of your tournaments"))

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [(t.slug, t.name) for t in tournaments]


class EventPushForm(forms.Form):
    """The day runs late: every later fixture of every division moves by some minutes."""

    after = forms.TimeField(label=_("Fixtures kicking off at or after"), widget=_TIME)
    minutes = forms.IntegerField(label=_("Push back by (minutes)"), min_value=-12 * 60, max_value=12 * 60,
                                 initial=15, help_text=_("A negative number brings them forward."))
    reason = forms.CharField(label=_("Reason (kept in the log)"), required=False, max_length=200)

    def clean_minutes(self):
        if self.cleaned_data["minutes"] == 0:
            raise forms.ValidationError(_("Give a number of minutes other than 0."))
        return self.cleaned_data["minutes"]


class EventOrganiserForm(forms.Form):
    """A co-organiser, by their username (they sign up first)."""

    username = forms.CharField(label=_("Username"), max_length=150)
