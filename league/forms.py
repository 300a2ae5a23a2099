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
from django.utils.translation import gettext_lazy as _

from league import standings
from league.formats import FORMATS, format_of
from league.models import TIE_BREAKER_CHOICES, Entry, Fixture, Result, Team, Tournament, ruleset_choices
from league.templatetags.league_tags import side_name
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


TIE_BREAKER_SLOTS = 8
TRY_BONUS_NONE, TRY_BONUS_TRIES, TRY_BONUS_MORE_TRIES = "none", "tries", "more_tries"
TRY_BONUS_CHOICES = [(TRY_BONUS_NONE, _("No try bonus")), (TRY_BONUS_TRIES, _("For scoring N tries or more")),
                     (TRY_BONUS_MORE_TRIES, _("For winning with N more tries than the opponent"))]


def _points_field(label, *, lowest=0, required=False, help_text=""):
    return forms.IntegerField(label=label, min_value=lowest, max_value=standings.MAX_POINTS, required=required,
                              help_text=help_text, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class PointsSystemFields(forms.Form):
    """The points system: a preset, or "custom" with every part (used inside the new-tournament and settings
    forms). ``cleaned_data["points_rules"]``: the custom rules, or None for a preset."""

    points_system = forms.ChoiceField(label=_("Points system"), choices=Tournament.PointsSystem.choices,
                                      initial=Tournament.PointsSystem.WORLD_RUGBY,
                                      help_text=_("“Custom”: set every part below."))
    win = _points_field(_("Points for a win"))
    draw = _points_field(_("Points for a draw"))
    loss = _points_field(_("Points for a loss"))
    try_bonus = forms.ChoiceField(label=_("Try bonus point"), choices=TRY_BONUS_CHOICES, required=False)
    try_bonus_tries = _points_field(_("N (tries)"), lowest=1)
    losing_bonus_margin = _points_field(_("Losing bonus point for losing by at most (points)"), lowest=1,
                                        help_text=_("Empty: no losing bonus."))
    bye = _points_field(_("Points for a bye"))
    all_wins_bonus = _points_field(_("Bonus for winning every match (Grand Slam)"))
    CUSTOM_FIELDS = ("win", "draw", "loss", "try_bonus", "try_bonus_tries", "losing_bonus_margin", "bye",
                     "all_wins_bonus")

    def add_tie_breaker_fields(self):
        choices = [("", "—"), *TIE_BREAKER_CHOICES]
        for number in range(1, TIE_BREAKER_SLOTS + 1):
            self.fields[f"tie_breaker_{number}"] = forms.ChoiceField(
                label=_("Tie-breaker %(number)s") % {"number": number}, choices=choices, required=False)

    @staticmethod
    def points_initial(points_system: str, rules: dict | None) -> dict:
        """The fields' initial values for a stored system (the custom parts start from its rules)."""
        system = standings.PointsSystem.from_dict(rules or {})
        initial = {"points_system": points_system, "win": system.win, "draw": system.draw, "loss": system.loss,
                   "try_bonus": TRY_BONUS_NONE if system.try_bonus_threshold is None else
                   TRY_BONUS_MORE_TRIES if system.try_bonus_relative else TRY_BONUS_TRIES,
                   "try_bonus_tries": system.try_bonus_threshold, "losing_bonus_margin": system.losing_bonus_margin,
                   "bye": system.bye, "all_wins_bonus": system.all_wins_bonus}
        for number, name in enumerate(system.tie_breakers, start=1):
            initial[f"tie_breaker_{number}"] = name
        return initial

    def clean_points(self, data: dict) -> dict:
        """Build ``points_rules`` from the custom parts (None for a preset); errors go on their fields."""
        data["points_rules"] = None
        if data.get("points_system") != Tournament.PointsSystem.CUSTOM:
            return data
        for name in ("win", "draw", "loss"):
            if data.get(name) is None and name not in self.errors:
                self.add_error(name, _("A custom points system needs this number."))
        kind = data.get("try_bonus") or TRY_BONUS_NONE
        tries = data.get("try_bonus_tries")
        if kind != TRY_BONUS_NONE and tries is None and "try_bonus_tries" not in self.errors:
            self.add_error("try_bonus_tries", _("Say how many tries earn the bonus point."))
        order = [data.get(f"tie_breaker_{n}") for n in range(1, TIE_BREAKER_SLOTS + 1)]
        order = [name for name in order if name]
        if self.errors:
            return data
        rules = {"win": data["win"], "draw": data["draw"], "loss": data["loss"],
                 "try_bonus_threshold": tries if kind != TRY_BONUS_NONE else None,
                 "try_bonus_relative": kind == TRY_BONUS_MORE_TRIES,
                 "losing_bonus_margin": data.get("losing_bonus_margin"), "bye": data.get("bye") or 0,
                 "all_wins_bonus": data.get("all_wins_bonus") or 0, "tie_breakers": order}
        if len(set(order)) != len(order):
            self.add_error("tie_breaker_1", _("Each tie-breaker can be used once."))
        elif any(name in (standings.PLACED_EQUALLY, standings.DRAWING_LOTS) for name in order[:-1]):
            self.add_error("tie_breaker_1", _("“Placed equally” and “drawing of lots” decide every team still "
                                              "level: put them last."))
        else:
            try:
                data["points_rules"] = standings.PointsSystem.from_dict(rules).as_dict()
            except ValueError as exc:
                self.add_error("points_system", str(exc))
        return data


def format_choices():
    """The formats offered on the "new tournament" page (``league.formats``), each a preset."""
    return [(key, _(fmt.label)) for key, fmt in FORMATS.items()]


def format_descriptions() -> list[tuple[str, str]]:
    """(label, description) of each format, for the help under the choice."""
    return [(_(fmt.label), _(fmt.description)) for fmt in FORMATS.values()]


def ruleset_choices_with_default():
    return [("", _("Automatic: played off the site (a solo challenge: the solo game)")), *ruleset_choices()]


class TournamentCreateForm(PointsSystemFields):
    """A new tournament: a format (each is a preset), its teams now or later, and its settings."""

    name = forms.CharField(label=_("Name"), max_length=120)
    format = forms.ChoiceField(label=_("Format"), initial=Tournament.Format.LEAGUE)
    # Format options: each format uses its own and ignores the others (a little JavaScript hides them).
    double_round_robin = forms.BooleanField(label=_("Double round robin (home and away)"), required=False)
    pools = forms.IntegerField(label=_("Number of pools"), required=False, min_value=1, max_value=26,
                               help_text=_("Pools formats; empty: one pool for every four teams."))
    rounds = forms.IntegerField(label=_("Swiss rounds"), required=False, min_value=1, max_value=64,
                                help_text=_("Swiss; empty: five, or fewer when there are too few teams."))
    attempts = forms.IntegerField(label=_("Attempts per player"), required=False, min_value=1, max_value=20,
                                  help_text=_("Solo challenge; empty: one."))
    # The teams: any of these, in this order; none makes a draft that leads to its Teams page.
    nations = forms.BooleanField(label=_("The 20 Rugby World Cup 2023 nations"), required=False)
    own_teams = forms.ModelMultipleChoiceField(label=_("Your teams"), queryset=Team.objects.none(), required=False,
                                               widget=forms.CheckboxSelectMultiple)
    teams_text = forms.CharField(label=_("Paste a list of teams, one per line (“Name” or “Name, CODE”)"),
                                 required=False, widget=forms.Textarea(attrs={"rows": 5}))
    teams_file = forms.FileField(label=_("Or a CSV file of teams"), required=False,
                                 help_text=_("A header row with name (required), code, primary_colour, "
                                             "secondary_colour, seed."))
    ruleset = forms.ChoiceField(label=_("Rule set"), required=False)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Tournament.Visibility.choices,
                                   initial=Tournament.Visibility.PUBLIC)
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False,
                                  help_text=_("Kick-offs are shown and entered in it."))
    slug = forms.SlugField(label=_("Web address (slug)"), max_length=60, required=False,
                           help_text=_("Letters, digits and hyphens; made from the name when left empty."))

    field_order = ["name", "format", "double_round_robin", "pools", "rounds", "attempts", "nations", "own_teams",
                   "teams_text", "teams_file", "points_system"]

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = format_choices()
        self.fields["ruleset"].choices = ruleset_choices_with_default()
        self.fields["time_zone"].choices = zone_choices()
        self.fields["time_zone"].initial = default_time_zone()
        self.add_tie_breaker_fields()
        if user is not None and user.is_authenticated:
            self.fields["own_teams"].queryset = Team.objects.filter(owner=user).order_by("name", "code")
        if not self.fields["own_teams"].queryset.exists():
            del self.fields["own_teams"]
        self.order_fields([*self.field_order, *self.CUSTOM_FIELDS,
                           *(f"tie_breaker_{n}" for n in range(1, TIE_BREAKER_SLOTS + 1)),
                           "ruleset", "visibility", "time_zone", "slug"])

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or default_time_zone()

    def clean_slug(self):
        slug = self.cleaned_data.get("slug") or ""
        if slug and Tournament.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("The web address “%(slug)s” is already taken: choose another, or leave "
                                          "it empty for a free one."), params={"slug": slug})
        return slug

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the tournament a name."))
        return name

    def clean_teams_text(self):
        return parse_team_lines(self.cleaned_data.get("teams_text") or "")

    def clean_teams_file(self):
        upload = self.cleaned_data.get("teams_file")
        return parse_teams_csv(upload) if upload else []

    def clean(self):
        return self.clean_points(super().clean())

    def team_rows(self) -> list[dict]:
        """The pasted and uploaded teams, pasted first."""
        return [*self.cleaned_data.get("teams_text", []), *self.cleaned_data.get("teams_file", [])]


class TournamentSettingsForm(PointsSystemFields):
    """The settings an organiser may change at any time (the points system too: the tables follow)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    visibility = forms.ChoiceField(label=_("Visibility"), choices=Tournament.Visibility.choices)
    status = forms.ChoiceField(label=_("Status"), choices=Tournament.Status.choices)
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False,
                                  help_text=_("Kick-offs are shown and entered in it. Changing it keeps their local "
                                              "times: 09:00 stays 09:00."))
    walkover_score = forms.IntegerField(label=_("Walkover score"), min_value=0, max_value=999)
    walkover_tries = forms.IntegerField(label=_("Walkover tries"), min_value=0, max_value=200)
    rounds = forms.IntegerField(label=_("Swiss rounds"), min_value=1, max_value=64, required=False)
    # The model's label and help; its bounds checked here so the error sits on the field.
    move_clock_seconds = Tournament._meta.get_field("move_clock_seconds").formfield(min_value=10,
                                                                                    max_value=7 * 24 * 3600)

    # Live scoring (issue 18): the match clock's half, and whether full time waits for an organiser.
    half_minutes = Tournament._meta.get_field("half_minutes").formfield(required=False)
    live_result_needs_confirmation = Tournament._meta.get_field("live_result_needs_confirmation").formfield(
        required=False)

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.add_tie_breaker_fields()
        if "rounds" not in format_of(tournament).option_names:
            del self.fields["rounds"]
        choices = zone_choices()
        if tournament.time_zone not in dict(choices):
            choices.insert(0, (tournament.time_zone, tournament.time_zone))
        self.fields["time_zone"].choices = choices
        self.order_fields(["name", "visibility", "status", "time_zone", "points_system", *self.CUSTOM_FIELDS,
                           *(f"tie_breaker_{n}" for n in range(1, TIE_BREAKER_SLOTS + 1)), "rounds",
                           "walkover_score", "walkover_tries", "move_clock_seconds", "half_minutes",
                           "live_result_needs_confirmation"])

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict:
        initial = {"name": tournament.name, "visibility": tournament.visibility, "status": tournament.status,
                   "time_zone": tournament.time_zone, "walkover_score": tournament.walkover_score,
                   "walkover_tries": tournament.walkover_tries, "move_clock_seconds": tournament.move_clock_seconds,
                   "half_minutes": tournament.half_minutes,
                   "live_result_needs_confirmation": tournament.live_result_needs_confirmation,
                   "rounds": (tournament.format_options or {}).get("rounds")}
        return {**initial, **cls.points_initial(tournament.points_system, tournament.points_rules)}

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.tournament.time_zone

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the tournament a name."))
        return name

    def clean(self):
        return self.clean_points(super().clean())

    def clean_half_minutes(self):
        value = self.cleaned_data.get("half_minutes")
        return self.tournament.half_minutes if value is None else value


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
    """One own team: name, short code and colours (a new team, or the owner's changes to one)."""

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


def parse_teams_csv(upload) -> list[dict]:
    """Own teams from a CSV file with a header row: name, code, primary_colour, secondary_colour, seed (all but
    name optional), in the order of the seed column (rows without a seed follow in the file's order)."""
    text = _upload_text(upload)
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
    return sorted(teams, key=lambda t: (t["seed"] is None, t["seed"] or 0, t["line"]))


class TeamsCsvForm(forms.Form):
    """Own teams from a CSV file with a header row: name, code, primary_colour, secondary_colour, seed (all but
    name optional). Entries are seeded in the order of the seed column."""

    file = forms.FileField(label=_("CSV file"))

    def clean_file(self):
        return parse_teams_csv(self.cleaned_data["file"])


class OwnTeamsForm(forms.Form):
    """Enter some of the organiser's own teams (from earlier tournaments) that are not in this one yet."""

    teams = forms.ModelMultipleChoiceField(label=_("Your teams"), queryset=Team.objects.none(),
                                           widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, user, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["teams"].queryset = (Team.objects.filter(owner=user).exclude(entries__tournament=tournament)
                                         .order_by("name", "code"))


class EntriesArrangeForm(forms.Form):
    """Every entry's seed and pool, changed together (before the fixtures are made)."""

    def __init__(self, *args, entries, pools, **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        pool_choices = [("", "—"), *((p.name, _("Pool %(name)s") % {"name": p.name}) for p in pools)]
        for entry in self.entries:
            self.fields[f"seed_{entry.pk}"] = forms.IntegerField(
                label=_("Seed of %(team)s") % {"team": entry.team.name}, min_value=1, max_value=9999,
                required=False, initial=entry.seed, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
            if len(pool_choices) > 1:
                self.fields[f"pool_{entry.pk}"] = forms.ChoiceField(
                    label=_("Pool of %(team)s") % {"team": entry.team.name}, choices=pool_choices, required=False,
                    initial=entry.pool.name if entry.pool_id else "")

    def rows(self):
        """(entry, seed field, pool field or None) for the template."""
        return [(e, self[f"seed_{e.pk}"], self[f"pool_{e.pk}"] if f"pool_{e.pk}" in self.fields else None)
                for e in self.entries]

    def changes(self) -> tuple[dict[int, int | None], dict[int, str | None]]:
        """The seeds and pools asked for, by entry id (``services.entries_arrange``'s arguments)."""
        seeds = {e.pk: self.cleaned_data.get(f"seed_{e.pk}") for e in self.entries}
        pools = {e.pk: self.cleaned_data.get(f"pool_{e.pk}") or None for e in self.entries
                 if f"pool_{e.pk}" in self.fields}
        return seeds, pools


class ConfirmForm(forms.Form):
    """A confirmation before data is lost, and why (kept in the audit trail); ``reset_later_rounds`` offers to
    delete the later knockout results a deletion would alter (a knockout result)."""

    confirm = forms.BooleanField(label=_("Yes, I am sure"))
    reason = forms.CharField(label=_("Why (kept in the audit trail)"), max_length=200, required=False)

    def __init__(self, *args, confirm_label=None, reason=True, reset_later_rounds=False, **kwargs):
        super().__init__(*args, **kwargs)
        if confirm_label:
            self.fields["confirm"].label = confirm_label
        if not reason:
            del self.fields["reason"]
        if reset_later_rounds:
            self.fields["reset_later_rounds"] = forms.BooleanField(
                label=_("Reset the later rounds"), required=False,
                help_text=_("When a later knockout match depends on this one and was played, its result is deleted "
                            "too (kept in the audit trail)."))


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
    """Enter or correct a result, in the teams' names: the score and tries of each, or a walkover to one (no
    score to type: the tournament's walkover score is used), and for a knockout match that ends level, who
    went through and how. The rules are the result service's (the same answer as the API, the CSV import and
    the admin); the page's script only hides what does not apply."""

    kind = forms.ChoiceField(label=_("Result"), initial=Result.Kind.PLAYED)
    home_score = _number_field(_("Home score"))
    home_tries = _number_field(_("Home tries"), initial=0, required=False)
    away_score = _number_field(_("Away score"))
    away_tries = _number_field(_("Away tries"), initial=0, required=False)
    winner = forms.ChoiceField(label=_("Level after the match: who went through?"), required=False)
    decided_by = forms.ChoiceField(label=_("How"), required=False, choices=[
        ("", "—"), *((value, label) for value, label in Result.DecidedBy.choices
                     if value not in (Result.DecidedBy.NONE, Result.DecidedBy.WALKOVER))])
    reason = forms.CharField(label=_("Reason for a correction"), max_length=200, required=False)
    reset_later_rounds = forms.BooleanField(
        label=_("Reset the later rounds"), required=False,
        help_text=_("Only when a correction changes who went through: the results of the knockout matches played "
                    "since are deleted (kept in the audit trail)."))

    def __init__(self, *args, fixture: Fixture, correcting: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fixture = fixture
        if self.data.get("kind") in (Result.Kind.WALKOVER_HOME, Result.Kind.WALKOVER_AWAY):
            # A walkover takes the tournament's walkover score: no score to type.
            self.fields["home_score"].required = self.fields["away_score"].required = False
        if not correcting:
            del self.fields["reason"]  # a first result corrects nothing
        home = side_name(fixture, "home")
        away = side_name(fixture, "away") if fixture.stage != Fixture.Stage.SOLO else _("the game")
        self.fields["home_score"].label = _("%(team)s: points") % {"team": home}
        self.fields["home_tries"].label = _("%(team)s: tries") % {"team": home}
        self.fields["away_score"].label = _("%(team)s: points") % {"team": away}
        self.fields["away_tries"].label = _("%(team)s: tries") % {"team": away}
        kinds = [(Result.Kind.PLAYED, _("Played"))]
        if fixture.home_id and fixture.away_id:
            kinds += [(Result.Kind.WALKOVER_HOME, _("Walkover to %(team)s") % {"team": home}),
                      (Result.Kind.WALKOVER_AWAY, _("Walkover to %(team)s") % {"team": away})]
        else:
            del self.fields["kind"]
        if "kind" in self.fields:
            self.fields["kind"].choices = kinds
        choices = [("", "—")]
        if fixture.home_id:
            choices.append(("home", home))
        if fixture.away_id:
            choices.append(("away", away))
        self.fields["winner"].choices = choices
        if fixture.stage != Fixture.Stage.KNOCKOUT:
            del self.fields["winner"]
            del self.fields["decided_by"]
            del self.fields["reset_later_rounds"]
        elif not correcting:
            del self.fields["reset_later_rounds"]

    def clean(self):
        data = super().clean()
        kind = data.get("kind") or Result.Kind.PLAYED
        data["kind"] = kind
        if kind != Result.Kind.PLAYED:
            # A walkover takes the tournament's walkover score: what was typed (or left) in the boxes is ignored.
            data.update(home_score=None, away_score=None, home_tries=0, away_tries=0)
        for name in ("home_tries", "away_tries"):
            if data.get(name) is None and name not in self.errors:
                data[name] = 0
        level = kind == Result.Kind.PLAYED and data.get("home_score") is not None and \
            data.get("home_score") == data.get("away_score")
        if "winner" in self.fields and not level:
            # Only a level knockout match needs who went through: a choice left from a level score is dropped.
            data["winner"], data["decided_by"] = "", ""
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
