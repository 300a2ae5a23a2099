"""Forms of the organiser's pages. Each validates its input and shows clear errors; the work is done by services."""

from __future__ import annotations

import csv
import datetime
import io
import re

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from league.formats import FORMATS
from league.models import Entry, Fixture, Result, Team, Tournament, ruleset_choices
from league.timezones import default_time_zone, zone_choices


class SignupForm(UserCreationForm):
    """An organiser's account: a username, an e-mail address (to reset a forgotten password) and a password.

    Pupils who only play need no account: they join with the code on their sheet.
    """

    email = forms.EmailField(label=_("E-mail address"), max_length=254,
                             help_text=_("Only used to send you a link if you forget your password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account already uses this e-mail address: sign in, or use “Forgot "
                                          "your password?” on the sign-in page."))
        return email


def preset_choices():
    """The presets offered on the "new tournament" page (each format's, ``league.formats``), plus "step by step"."""
    return [("", _("None: choose step by step"))] + [(key, fmt.label) for key, fmt in FORMATS.items()]


class TournamentCreateForm(forms.Form):
    """A new tournament: from a preset (everything set up in one go) or step by step."""

    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(label=_("Web address (slug)"), max_length=60, required=False,
                           help_text=_("Letters, digits and hyphens; made from the name when left empty."))
    preset = forms.ChoiceField(label=_("Preset"), required=False)
    ruleset = forms.ChoiceField(label=_("Rule set"))
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial=Tournament.Format.LEAGUE)
    points_system = forms.ChoiceField(label=_("Points system"), choices=Tournament.PointsSystem.choices,
                                      initial=Tournament.PointsSystem.WORLD_RUGBY)
    double_round_robin = forms.BooleanField(label=_("Double round robin (home and away)"), required=False)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Tournament.Visibility.choices,
                                   initial=Tournament.Visibility.PUBLIC)
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False,
                                  help_text=_("Kick-offs are shown and entered in it."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = preset_choices()
        self.fields["ruleset"].choices = ruleset_choices()
        self.fields["time_zone"].choices = zone_choices()
        self.fields["time_zone"].initial = default_time_zone()

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or default_time_zone()

    def clean_slug(self):
        slug = self.cleaned_data.get("slug") or slugify(self.data.get("name", ""))[:60]
        if not slug:
            raise forms.ValidationError(_("Give the tournament a web address made of letters or digits."))
        if Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("The web address “%(slug)s” is already taken: choose another."),
                                        params={"slug": slug})
        return slug


class TournamentSettingsForm(forms.ModelForm):
    """The settings an organiser may change at any time."""

    time_zone = forms.ChoiceField(label=_("Time zone"), required=False,
                                  help_text=_("Kick-offs are shown and entered in it. Changing it keeps their local "
                                              "times: 09:00 stays 09:00."))

    class Meta:
        model = Tournament
        fields = ["name", "visibility", "status", "time_zone", "win_points", "draw_points", "loss_points",
                  "try_bonus_threshold", "losing_bonus_margin", "walkover_score", "walkover_tries",
                  "move_clock_seconds", "half_minutes", "live_result_needs_confirmation"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        choices = zone_choices()
        if self.instance.time_zone not in dict(choices):
            choices.insert(0, (self.instance.time_zone, self.instance.time_zone))
        self.fields["time_zone"].choices = choices
        # Live scoring's settings keep their value when a form leaves them out.
        self.fields["half_minutes"].required = False

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.instance.time_zone

    def clean_half_minutes(self):
        value = self.cleaned_data.get("half_minutes")
        return self.instance.half_minutes if value is None else value


class InviteOrganiserForm(forms.Form):
    """Invite a co-organiser by their username (they sign up first)."""

    username = forms.CharField(label=_("Username"), max_length=150)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("Nobody has the username “%(username)s”. Ask them to sign up first."),
                                        params={"username": username})
        if self.tournament.organisers.filter(pk=user.pk).exists():
            raise forms.ValidationError(_("%(username)s already organises this tournament."),
                                        params={"username": username})
        self.user = user
        return username


class TeamForm(forms.ModelForm):
    """One own team: name, short code and colours."""

    class Meta:
        model = Team
        fields = ["name", "code", "primary_colour", "secondary_colour"]
        widgets = {"primary_colour": forms.TextInput(attrs={"type": "color"}),
                   "secondary_colour": forms.TextInput(attrs={"type": "color"})}

    def clean_code(self):
        return self.cleaned_data["code"].strip().upper()


def parse_team_lines(text: str) -> list[dict]:
    """Read a pasted list: one team a line, "Name" or "Name, CODE" (or "Name;CODE"); blank lines are skipped."""
    teams = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        parts = [p.strip() for p in re.split(r"[,;\t]", line)]
        name = parts[0]
        code = parts[1].upper() if len(parts) > 1 and parts[1] else ""
        if not name:
            raise forms.ValidationError(_("Line %(line)s has no team name."), params={"line": number})
        teams.append({"line": number, "name": name, "code": code})
    return teams


class PasteTeamsForm(forms.Form):
    """Several own teams at once, pasted one per line."""

    teams = forms.CharField(label=_("Teams, one per line (“Name” or “Name, CODE”)"),
                            widget=forms.Textarea(attrs={"rows": 8}))

    def clean_teams(self):
        teams = parse_team_lines(self.cleaned_data["teams"])
        if not teams:
            raise forms.ValidationError(_("Paste at least one team name."))
        return teams


def _upload_text(upload) -> str:
    """An uploaded CSV file's text: at most settings.MAX_UPLOAD_BYTES, UTF-8 (a spreadsheet's byte-order mark
    dropped)."""
    if upload.size > settings.MAX_UPLOAD_BYTES:
        raise forms.ValidationError(_("The file is too large: %(size)s kB at most.")
                                    % {"size": settings.MAX_UPLOAD_BYTES // 1000})
    try:
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise forms.ValidationError(_("The file is not UTF-8 text: save it as “CSV UTF-8”."))


class TeamsCsvForm(forms.Form):
    """Own teams from a CSV file with a header row: name, code, primary_colour, secondary_colour, seed (all but name
    optional). Entries are seeded in the order of the seed column."""

    file = forms.FileField(label=_("CSV file"))

    def clean_file(self):
        text = _upload_text(self.cleaned_data["file"])
        if "\x00" in text:  # a binary or UTF-16 file; PostgreSQL would refuse the names anyway
            raise forms.ValidationError(_("The file is not CSV text (it contains NUL characters)."))
        # strict: an unterminated quote is an error, not the rest of the file read as one team's name.
        reader = csv.DictReader(io.StringIO(text), strict=True)
        try:
            fieldnames = reader.fieldnames
            rows = list(reader)
        except csv.Error as exc:  # e.g. a cell longer than the csv module's limit
            raise forms.ValidationError(_("Line %(line)s: the CSV cannot be read (%(error)s)."),
                                        params={"line": reader.line_num, "error": exc})
        if not fieldnames or "name" not in [f.strip().lower() for f in fieldnames]:
            raise forms.ValidationError(_("The first row must be a header with at least a “name” column."))
        teams = []
        for number, row in enumerate(rows, start=2):
            if None in row:  # DictReader keeps the cells beyond the header under None, as a list
                raise forms.ValidationError(_("Line %(line)s has more cells than the header has columns."),
                                            params={"line": number})
            row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
            if not row.get("name"):
                raise forms.ValidationError(_("Line %(line)s has no team name."), params={"line": number})
            seed = row.get("seed") or ""
            # isascii: "²" is a digit to isdigit() but not a number to int().
            if seed and not (seed.isascii() and seed.isdigit()):
                raise forms.ValidationError(_("Line %(line)s: the seed must be a whole number."),
                                            params={"line": number})
            teams.append({"line": number, "name": row["name"], "code": row.get("code", "").upper(),
                          "primary_colour": row.get("primary_colour", ""),
                          "secondary_colour": row.get("secondary_colour", ""),
                          "seed": int(seed) if seed else None})
        if not teams:
            raise forms.ValidationError(_("The file has no teams."))
        # Seeds order the entries (seed 1 first); rows without a seed follow in the file's order.
        return sorted(teams, key=lambda t: (t["seed"] is None, t["seed"] or 0, t["line"]))


class DrawForm(forms.Form):
    """Draw the pools: seeded by bands or random, with a seed anyone can use to check the draw."""

    METHODS = [("seeded", _("Seeded (one team of each band per pool)")), ("random", _("Random"))]
    method = forms.ChoiceField(label=_("Method"), choices=METHODS, initial="seeded")
    pool_count = forms.IntegerField(label=_("Number of pools"), min_value=1, max_value=26, initial=4)
    seed = forms.IntegerField(label=_("Random seed"), required=False, min_value=0, max_value=2**62,
                              help_text=_("Leave empty for a new random seed; it is shown after the draw."))


def _pitch_list(text: str) -> list[str]:
    pitches = [v.strip() for v in text.split(",") if v.strip()]
    if len({p.casefold() for p in pitches}) != len(pitches):
        raise forms.ValidationError(_("Each pitch or table may be named only once."))
    return pitches


class SchedulePlanForm(forms.Form):
    """How the days are laid out: first day and kick-off, minutes per match, change-over, days between rounds
    (0 for a one-day festival), pitches or tables. Times are the tournament's local times."""

    start_date = forms.DateField(label=_("First day"), required=False, widget=forms.DateInput(attrs={"type": "date"}),
                                 help_text=_("Leave empty to give pitches but no times yet."))
    first_kickoff = forms.TimeField(label=_("First kick-off"),
                                    widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    slot_minutes = forms.IntegerField(label=_("Minutes per match"), min_value=1, max_value=24 * 60,
                                      help_text=_("How long a match keeps a pitch, half-time included."))
    changeover_minutes = forms.IntegerField(label=_("Change-over minutes"), min_value=0, max_value=24 * 60,
                                            required=False, help_text=_("Time between two matches on a pitch."))
    days_between_rounds = forms.IntegerField(label=_("Days between rounds"), min_value=0, max_value=365,
                                             help_text=_("0: every round on the same day, one after another (a "
                                                         "festival)."))
    venues = forms.CharField(label=_("Pitches or tables, separated by commas"), required=False, max_length=2000,
                             help_text=_("With more matches in a round than pitches, the round is split into time "
                                         "slots."))

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict:
        """The form filled with the tournament's stored plan."""
        return {"start_date": tournament.first_day, "first_kickoff": tournament.first_kickoff,
                "slot_minutes": tournament.slot_minutes, "changeover_minutes": tournament.changeover_minutes,
                "days_between_rounds": tournament.days_between_rounds,
                "venues": ", ".join(tournament.pitches or [])}

    def clean_venues(self):
        return _pitch_list(self.cleaned_data["venues"])

    def plan(self) -> dict:
        """The cleaned data as the schedule services' settings."""
        data = self.cleaned_data
        return {"first_day": data["start_date"], "first_kickoff": data["first_kickoff"],
                "slot_minutes": data["slot_minutes"], "changeover_minutes": data["changeover_minutes"],
                "days_between_rounds": data["days_between_rounds"], "pitches": data["venues"]}


class FixturesForm(SchedulePlanForm):
    """Generate the fixtures, timed by the plan of the days (stored for the fixtures made later)."""

    double = forms.BooleanField(label=_("Double round robin (home and away)"), required=False)


class MoveFixtureForm(forms.Form):
    """Move one fixture: its day, kick-off (local time) and pitch."""

    day = forms.DateField(label=_("Day"), widget=forms.DateInput(attrs={"type": "date"}))
    time = forms.TimeField(label=_("Kick-off"), widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    venue = forms.CharField(label=_("Pitch or table"), required=False, max_length=80,
                            widget=forms.TextInput(attrs={"list": "pitches"}))
    reason = forms.CharField(label=_("Reason (kept in the log)"), required=False, max_length=200)


class PushForm(forms.Form):
    """The day runs late: every later fixture of a day moves by some minutes."""

    day = forms.ChoiceField(label=_("Day"))
    after = forms.TimeField(label=_("Fixtures kicking off at or after"),
                            widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"))
    minutes = forms.IntegerField(label=_("Push back by (minutes)"), min_value=-12 * 60, max_value=12 * 60, initial=20,
                                 help_text=_("A negative number brings them forward."))
    reason = forms.CharField(label=_("Reason (kept in the log)"), required=False, max_length=200)

    def __init__(self, *args, days=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["day"].choices = [(d.isoformat(), date_format(d, "l j F Y")) for d in days]

    def clean_minutes(self):
        if self.cleaned_data["minutes"] == 0:
            raise forms.ValidationError(_("Give a number of minutes other than 0."))
        return self.cleaned_data["minutes"]

    def clean_day(self):
        return datetime.date.fromisoformat(self.cleaned_data["day"])


class SwapFixtureForm(forms.Form):
    """Swap a fixture's kick-off and pitch with another fixture still to play."""

    other = forms.TypedChoiceField(label=_("Swap with"), coerce=int)
    reason = forms.CharField(label=_("Reason (kept in the log)"), required=False, max_length=200)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["other"].choices = [("", "—"), *choices]


def _number_field(label, **kwargs):
    """A whole number whose rules (not negative, not too large, consistent with the tries) the result service
    checks, so the form says what the API, the CSV import and the admin say; the browser still offers 0 up."""
    return forms.IntegerField(label=label, widget=forms.NumberInput(attrs={"min": 0}), **kwargs)


class ResultForm(forms.Form):
    """Enter or correct a result: scores, tries, walkovers, and who went through after a knockout draw."""

    home_score = _number_field(_("Home score"))
    away_score = _number_field(_("Away score"))
    home_tries = _number_field(_("Home tries"), initial=0)
    away_tries = _number_field(_("Away tries"), initial=0)
    kind = forms.ChoiceField(label=_("Result type"), choices=Result.Kind.choices, initial=Result.Kind.PLAYED)
    winner = forms.ChoiceField(label=_("Who went through (knockout draw only)"), required=False)
    decided_by = forms.ChoiceField(label=_("Decided by"), choices=Result.DecidedBy.choices, required=False)
    reason = forms.CharField(label=_("Reason for a correction"), max_length=200, required=False)
    reset_later_rounds = forms.BooleanField(
        label=_("Reset the later rounds"), required=False,
        help_text=_("Only when a correction changes who went through: the results of the knockout matches played "
                    "since are deleted (kept in the audit trail)."))

    def __init__(self, *args, fixture: Fixture, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixture = fixture
        choices = [("", "—")]
        if fixture.home_id:
            choices.append(("home", fixture.home.team.name))
        if fixture.away_id:
            choices.append(("away", fixture.away.team.name))
        self.fields["winner"].choices = choices
        if fixture.stage != Fixture.Stage.KNOCKOUT:
            del self.fields["winner"]
            del self.fields["decided_by"]
            del self.fields["reset_later_rounds"]

    def clean(self):
        data = super().clean()
        side = data.get("winner")
        data["winner_entry"] = {"home": self.fixture.home, "away": self.fixture.away}.get(side) if side else None
        return data


class ResultsImportForm(forms.Form):
    """A CSV of results: pool,round,date,home,away,home_score,away_score,home_tries,away_tries."""

    file = forms.FileField(label=_("CSV file"))

    def clean_file(self):
        return _upload_text(self.cleaned_data["file"])


class EntryPlayerForm(forms.ModelForm):
    """Who plays an entry: a person's account or name, or the computer at a level."""

    username = forms.CharField(label=_("Username"), required=False, max_length=150)

    class Meta:
        model = Entry
        fields = ["player_name", "computer_level"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.player_id:
            self.fields["username"].initial = self.instance.player.get_username()

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if not username:
            self.player = None
            return ""
        self.player = get_user_model().objects.filter(username=username).first()
        if self.player is None:
            raise forms.ValidationError(_("Nobody has the username “%(username)s”."), params={"username": username})
        return username



class WithdrawForm(forms.Form):
    """Withdraw a team: its remaining fixtures become walkovers to the opponents."""

    keep_played = forms.BooleanField(label=_("Keep the results it has already played"), required=False, initial=True)
    confirm = forms.BooleanField(label=_("Yes, withdraw this team"))


class TeamLogoForm(forms.Form):
    """A logo file; ``services.team_logo_set`` checks its size and type and re-encodes it."""

    logo = forms.FileField(label=_("Logo (PNG, JPEG, GIF or WebP, at most 2 MB)"))
