"""League data: teams, tournaments, entries, pools, fixtures, results and their audit trail.

Standings are never stored: they are derived from results (see ``selectors``).
Invariants that the database can hold are constraints here.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from engine import MANUAL, RuleSetSpec, get_spec, specs
from league import standings as standings_module
from league.levels import DEFAULT_LEVEL, level_choices, level_help
from league.rulesets import ruleset_options_validate
from league.standings import POINTS_PRESETS, PointsSystem
from league.stored_texts import REGISTRATION_SUMMARIES, RESULT_REASONS, SCHEDULE_SUMMARIES, render, with_typed
from league.timezones import default_time_zone, validate_time_zone, zone

hex_colour = RegexValidator(r"^#[0-9A-Fa-f]{6}$", _("Use a colour like #1A2B3C."))
team_code = RegexValidator(r"^[A-Z0-9]{2,5}$", _("Use 2 to 5 capital letters or digits, e.g. FRA."))


# Money of an event (entry fees, donations, pledges): ISO 4217 codes of currencies with two decimal places (no
# amount is ever a float; ``league.fundraising_selectors.money_text`` formats them).
CURRENCY_CHOICES = [("ZAR", "ZAR (R)"), ("GBP", "GBP (£)"), ("EUR", "EUR (€)"), ("NZD", "NZD (NZ$)"),
                    ("AUD", "AUD (A$)"), ("USD", "USD (US$)"), ("CAD", "CAD (C$)"), ("FJD", "FJD (FJ$)"),
                    ("ARS", "ARS (AR$)"), ("CHF", "CHF"), ("NAD", "NAD (N$)")]
MONEY_DIGITS = 10


def default_points_rules() -> dict:
    """The World Rugby points system as stored on a tournament."""
    return POINTS_PRESETS["world_rugby"].as_dict()


def ruleset_choices():
    """Rule sets offered for a tournament: played off the site (results entered by hand) or by the engine."""
    return [(spec.id, _(spec.name)) for spec in specs()]


# What each tie-breaker means, for the points-system form and the History page (the vocabulary is
# league.standings.TIE_BREAKERS).
TIE_BREAKER_CHOICES = [
    (standings_module.HEAD_TO_HEAD, _("Head-to-head: the winner of the match between two teams level")),
    (standings_module.HEAD_TO_HEAD_POINTS, _("Table points in the matches between the teams level")),
    (standings_module.HEAD_TO_HEAD_POINTS_DIFFERENCE, _("Points difference in the matches between the teams level")),
    (standings_module.HEAD_TO_HEAD_TRIES_DIFFERENCE, _("Tries difference in the matches between the teams level")),
    (standings_module.WINS, _("Matches won")),
    (standings_module.POINTS_DIFFERENCE, _("Points difference")),
    (standings_module.TRIES_DIFFERENCE, _("Tries difference")),
    (standings_module.POINTS_FOR, _("Points scored")),
    (standings_module.TRIES_FOR, _("Tries scored")),
    (standings_module.WORLD_RANKING, _("World Rugby ranking")),
    (standings_module.PLACED_EQUALLY, _("Placed equally (share the place)")),
    (standings_module.DRAWING_LOTS, _("Drawing of lots")),
]


class Team(models.Model):
    """A side: one of the 20 RWC 2023 nations (the site's), or an organiser's own team (school, club, person).

    A team belongs to its ``owner`` (None: the site's, as the nations are): only the owner changes it, and
    naming a team by code or name finds only the nations and the caller's own teams. Codes are unique per
    owner, so two schools can both be "STJ".
    """

    name = models.CharField(_("name"), max_length=80)
    code = models.CharField(_("short code"), max_length=5, validators=[team_code])
    primary_colour = models.CharField(_("primary colour"), max_length=7, default="#1F6F3F", validators=[hex_colour])
    secondary_colour = models.CharField(_("secondary colour"), max_length=7, default="#FFFFFF",
                                        validators=[hex_colour])
    is_nation = models.BooleanField(_("RWC 2023 nation"), default=False)
    rwc2023_pool = models.CharField(_("RWC 2023 pool"), max_length=1, blank=True)
    world_ranking = models.PositiveSmallIntegerField(_("World Rugby ranking"), null=True, blank=True)
    # An uploaded logo, checked and re-encoded as a PNG by ``services.team_logo_set``: the file's name under
    # MEDIA_ROOT/logos/ (its content's hash), served by ``league.views.team_logo``; empty: the colours' crest.
    logo = models.CharField(_("logo"), max_length=80, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    # CASCADE: an account's unused teams go with it; a team entered in a tournament protects it (Entry.team).
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="teams", verbose_name=_("owner"),
                              help_text=_("Empty: a team of the site (the RWC nations)."))

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(world_ranking__isnull=True) | Q(world_ranking__gte=1),
                                   name="team_ranking_positive"),
            models.UniqueConstraint(fields=["owner", "code"], condition=Q(owner__isnull=False),
                                    name="team_unique_code_per_owner",
                                    violation_error_message=_("You already have a team with this code.")),
            models.UniqueConstraint(fields=["code"], condition=Q(owner__isnull=True), name="team_unique_site_code",
                                    violation_error_message=_("A team of the site already has this code.")),
        ]

    def __str__(self):
        return f"{self.name} ({self.code})"


class Tournament(models.Model):
    """A competition: its rule set, points system, format, visibility, status and organisers."""

    class PointsSystem(models.TextChoices):
        # One per preset of league.standings.POINTS_PRESETS (a test checks they agree), then "custom".
        WORLD_RUGBY = "world_rugby", _("World Rugby (4/2/0 + bonus points)")
        SIX_NATIONS = "six_nations", _("Six Nations (World Rugby + Grand Slam bonus)")
        SEVENS = "sevens", _("Sevens (3/2/1, no bonus)")
        TOP14 = "top14", _("Top 14 (bonus for 3 more tries, losing bonus within 5)")
        PREMIERSHIP = "premiership", _("Premiership (4/2/0 + bonus points, wins first)")
        RUGBY_LEAGUE = "rugby_league", _("Rugby league (2/1/0, 2 for a bye)")
        FOOTBALL = "football", _("Football (3/1/0)")
        CUSTOM = "custom", _("Custom")

    class Format(models.TextChoices):
        LEAGUE = "league", _("League (round robin)")
        RWC2023 = "rwc2023", _("Rugby World Cup 2023 (4 pools of 5, quarter-finals)")
        POOLS_KNOCKOUT = "pools_knockout", _("Pools then knockout")
        SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
        CUP_PLATE = "cup_plate", _("Pools then Cup / Plate / Bowl / Shield")
        SWISS = "swiss", _("Swiss")
        SOLO = "solo", _("Solo challenge (leaderboard)")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        UNLISTED = "unlisted", _("Unlisted")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    ruleset = models.CharField(_("rule set"), max_length=40, choices=ruleset_choices, default=MANUAL)
    ruleset_options = models.JSONField(_("rule set options"), default=dict, blank=True)
    # The preset the points system was chosen from ("custom" when edited part by part); the system itself,
    # every part of it, is ``points_rules`` (``league.standings.PointsSystem.as_dict``).
    points_system = models.CharField(_("points system"), max_length=20, choices=PointsSystem.choices,
                                     default=PointsSystem.WORLD_RUGBY)
    points_rules = models.JSONField(_("points rules"), default=default_points_rules, blank=True)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.LEAGUE)
    format_options = models.JSONField(_("format options"), default=dict, blank=True)
    double_round_robin = models.BooleanField(_("double round robin (home and away)"), default=False)
    visibility = models.CharField(_("visibility"), max_length=10, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.DRAFT)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_tournaments",
                                        blank=True, verbose_name=_("organisers"))
    draw_method = models.CharField(_("draw method"), max_length=10, blank=True)
    draw_seed = models.BigIntegerField(_("draw seed"), null=True, blank=True)
    walkover_score = models.PositiveSmallIntegerField(_("walkover score"), default=28)
    walkover_tries = models.PositiveSmallIntegerField(_("walkover tries"), default=4)
    # Where and when: the zone its times are shown and entered in, and how its days are laid out (stored so
    # that fixtures made later -- the knockout, the next Swiss round -- follow the same plan).
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone,
                                 validators=[validate_time_zone],
                                 help_text=_("Kick-offs are shown and entered in this zone."))
    first_day = models.DateField(_("first day"), null=True, blank=True)
    first_kickoff = models.TimeField(_("first kick-off"), default=dt.time(14, 0))
    slot_minutes = models.PositiveSmallIntegerField(
        _("minutes per match"), default=90, validators=[MinValueValidator(1), MaxValueValidator(24 * 60)])
    changeover_minutes = models.PositiveSmallIntegerField(
        _("change-over minutes"), default=0, validators=[MaxValueValidator(24 * 60)],
        help_text=_("Time between two matches on a pitch."))
    days_between_rounds = models.PositiveSmallIntegerField(
        _("days between rounds"), default=7, validators=[MaxValueValidator(365)],
        help_text=_("0: every round on the same day, one after another (a festival)."))
    pitches = models.JSONField(_("pitches or tables"), default=list, blank=True)
    # Online play: seconds a player has for each move before the computer takes their seat (None: no clock).
    move_clock_seconds = models.PositiveIntegerField(
        _("move clock (seconds)"), null=True, blank=True,
        validators=[MinValueValidator(10), MaxValueValidator(7 * 24 * 3600)],
        help_text=_("Online matches: a player who has not moved after this many seconds is replaced by the "
                    "computer for the rest of the match, and the opponent is told. Empty: no clock."))
    # Live scoring of matches played on a real pitch or board (``services.live``): the length of a half on
    # the match clock, and whether full time counts at once or waits for an organiser to confirm it.
    half_minutes = models.PositiveSmallIntegerField(
        _("minutes a half (live scoring)"), default=40,
        validators=[MinValueValidator(1), MaxValueValidator(60)],
        help_text=_("The match clock of live scoring: 40 as in the RUGBY_Bokx booklet; 7, 10 or 20 at a school "
                    "festival."))
    live_result_needs_confirmation = models.BooleanField(
        _("an organiser confirms live results"), default=False,
        help_text=_("Off: a match scored live counts at full time. On: it waits for an organiser to confirm it."))
    # Bumped on every result change: part of public pages' cache keys.
    version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]

    def __str__(self):
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        """The tournament's time zone."""
        return zone(self.time_zone)

    @property
    def points(self) -> PointsSystem:
        """The tournament's points system (``points_rules``; the preset of that name when they are empty)."""
        return PointsSystem.from_tournament(self)

    @property
    def spec(self) -> RuleSetSpec:
        """The rule set's facts (solo or duel, played on the site or off it, its scoring), from the engine."""
        return get_spec(self.ruleset)

    def clean(self):
        # Options the engine refuses would be stored and only fail when the first match starts: refuse them
        # here, where the admin and the services check a tournament (an unknown rule set is the field's error).
        if self.ruleset_options and self.ruleset in {s.id for s in specs() if s.playable}:
            ruleset_options_validate(self.ruleset, self.ruleset_options)
        try:
            PointsSystem.from_dict(self.points_rules or {})
        except (TypeError, ValueError) as exc:
            raise ValidationError({"points_rules": [str(exc)]})


class Pool(models.Model):
    """A group of entries that play each other (a league is one pool)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="pools")
    name = models.CharField(_("name"), max_length=20)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament", "order", "name"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="pool_unique_name")]

    def __str__(self):
        return f"Pool {self.name}"


class Entry(models.Model):
    """A team in a tournament: its seed, its pool, and the person (or computer) who plays it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveSmallIntegerField(_("seed"), null=True, blank=True)
    pool = models.ForeignKey(Pool, null=True, blank=True, on_delete=models.SET_NULL, related_name="entries")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="entries", verbose_name=_("player"))
    player_name = models.CharField(_("player's name"), max_length=80, blank=True)
    # The engine's levels (league.levels): played by the computer when nobody plays the entry.
    computer_level = models.CharField(_("computer level"), max_length=16, choices=level_choices(),
                                      default=DEFAULT_LEVEL, help_text=level_help())
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "team__name"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "team"], name="entry_unique_team"),
            models.UniqueConstraint(fields=["tournament", "seed"], name="entry_unique_seed"),
        ]

    def __str__(self):
        return f"{self.team.code} in {self.tournament.slug}"


# The order of the fixtures still to be played, soonest first: by kick-off, then (for fixtures without one, a league
# made without a start date) by round -- every pool's first round before any pool's second, whatever order the
# pools' fixtures were made in -- then the slot and the id. The indexes ``fixture_to_play`` and ``fixture_live`` keep
# this order, so the queries that order by it (``order_by(*SOONEST)``) stop after the first rows.
SOONEST = ("kickoff", "round_number", "slot", "id")


class Fixture(models.Model):
    """A scheduled match between two entries (or two slots still to be filled).

    Pool fixtures have a pool; knockout fixtures have a ``code`` (QF1, SF2...)
    and sources that say where their teams come from ("pool:A:1", "winner:QF1",
    "loser:SF1", "seed:3"), so advancement can fill them.
    """

    class Stage(models.TextChoices):
        POOL = "pool", _("Pool")
        KNOCKOUT = "knockout", _("Knockout")
        SWISS = "swiss", _("Swiss")
        SOLO = "solo", _("Solo")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        LIVE = "live", _("Live")
        PLAYED = "played", _("Played")
        CANCELLED = "cancelled", _("Cancelled")

    # No index of its own: the (tournament, round_number) and (tournament, stage) indexes lead with it, and each
    # index costs time on every one of a big league's half a million inserted fixtures.
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="fixtures", db_index=False)
    pool = models.ForeignKey(Pool, null=True, blank=True, on_delete=models.CASCADE, related_name="fixtures")
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.POOL)
    bracket = models.CharField(_("bracket"), max_length=20, blank=True,
                               help_text=_("Cup, Plate, Bowl, Shield... empty for pool fixtures."))
    round_number = models.PositiveSmallIntegerField(_("round"), default=1)
    round_name = models.CharField(_("round name"), max_length=40, blank=True)
    code = models.CharField(_("code"), max_length=20, blank=True)
    # RESTRICT, not PROTECT: an entry with fixtures cannot be deleted on its own (withdraw it instead), but
    # deleting the whole tournament (which cascades to both) is allowed.
    home = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="home_fixtures")
    away = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="away_fixtures")
    home_source = models.CharField(max_length=40, blank=True)
    away_source = models.CharField(max_length=40, blank=True)
    kickoff = models.DateTimeField(_("kick-off"), null=True, blank=True)
    venue = models.CharField(_("venue or table"), max_length=80, blank=True)
    slot = models.PositiveSmallIntegerField(_("time slot in round"), default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)

    class Meta:
        ordering = ["tournament", "round_number", "kickoff", "slot", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(home__isnull=True) | Q(away__isnull=True) | ~Q(home=F("away")),
                                   name="fixture_two_different_teams"),
            models.UniqueConstraint(fields=["tournament", "code"], condition=~Q(code=""),
                                    name="fixture_unique_code"),
        ]
        indexes = [
            # The public pages' sections (a round, a day, a pitch, the next kick-offs). Each index costs time on
            # every one of a big league's half a million inserted fixtures (bench/fixture_generation.py measures
            # each), so three of them hold only the rows their queries can ask for.
            models.Index(fields=["tournament", "round_number"]),
            # The stages after the pools (knockout, Swiss, solo), read after every result by advancement (a
            # 1,000-team league, no knockout at all, was scanned whole to find none). A pool round is found by
            # the index above: pool fixtures never enter this one.
            models.Index(fields=["tournament", "round_number"], condition=~Q(stage="pool"),
                         name="fixture_later_stage"),
            # A day's fixtures (and the list of days): only timed fixtures (every query on it bounds the kick-off,
            # which excludes NULL), so a league generated without a start date writes none here.
            models.Index(fields=["tournament", "kickoff"], condition=Q(kickoff__isnull=False), name="fixture_day"),
            # A pitch's fixtures: only those with a pitch (a league without pitches writes none here). Its queries
            # ask for one pitch by equality, which the byte-wise operator class serves as well; comparing the
            # name by the database's collation on every insert cost a timed league a second for its pitches.
            models.Index(fields=["tournament", "venue", "kickoff"], condition=~Q(venue=""), name="fixture_pitch",
                         opclasses=["", "varchar_pattern_ops", ""]),
            # The fixtures still to be played, soonest first (the next kick-offs, the day and round to open on, the
            # organiser's scorer page): played and cancelled ones leave it, so finding the next one never walks
            # past a season's played matches. The status is its condition, not a key: a text key compared on
            # every insert cost a timed league's generation about a second. Its key is SOONEST (above).
            models.Index(fields=["tournament", *SOONEST], condition=Q(status__in=["scheduled", "live"]),
                         name="fixture_to_play"),
            # The matches being played (a handful at a time; a new fixture never enters it).
            models.Index(fields=["tournament", *SOONEST], condition=Q(status="live"), name="fixture_live"),
        ]

    def __str__(self):
        home = self.home.team.code if self.home_id else (self.home_source or "TBD")
        away = self.away.team.code if self.away_id else (self.away_source or "TBD")
        return f"{self.code or f'R{self.round_number}'}: {home} v {away}"


class Result(models.Model):
    """The result of a fixture: one per fixture at most (the database enforces it)."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        WALKOVER_HOME = "walkover_home", _("Walkover to home")
        WALKOVER_AWAY = "walkover_away", _("Walkover to away")

    class DecidedBy(models.TextChoices):
        NONE = "", _("Score")
        EXTRA_TIME = "extra_time", _("Extra time")
        TRIES = "tries", _("Tries count")
        KICKING = "kicking", _("Kicking competition")
        WALKOVER = "walkover", _("Walkover")

    class Source(models.TextChoices):
        MANUAL = "manual", _("Entered by hand")
        IMPORT = "import", _("Imported")
        ONLINE = "online", _("Played online")
        LIVE = "live", _("Scored live")
        SIMULATED = "simulated", _("Simulated")

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="result")
    home_score = models.PositiveSmallIntegerField(_("home score"))
    away_score = models.PositiveSmallIntegerField(_("away score"))
    home_tries = models.PositiveSmallIntegerField(_("home tries"), default=0)
    away_tries = models.PositiveSmallIntegerField(_("away tries"), default=0)
    kind = models.CharField(max_length=15, choices=Kind.choices, default=Kind.PLAYED)
    # For a knockout draw: who went through, and how.
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    decided_by = models.CharField(max_length=12, choices=DecidedBy.choices, default="", blank=True)
    stats = models.JSONField(default=dict, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.MANUAL)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    updated_at = models.DateTimeField(auto_now=True)
    # Not stored: set by league.services.result_record to whether this call made the fixture's first result
    # (decided under the fixture's row lock, so of simultaneous first entries exactly one is told True).
    was_created = False

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(home_score__gte=0) & Q(away_score__gte=0) & Q(home_tries__gte=0) & Q(away_tries__gte=0),
                name="result_non_negative"),
        ]

    def __str__(self):
        return f"{self.fixture}: {self.home_score}-{self.away_score}"


class ResultChange(models.Model):
    """Append-only audit trail of every result change: who, when, old and new values."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="result_changes")
    action = models.CharField(max_length=10)  # created, updated, deleted
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    # What the organiser typed, as typed ("" when the site gave the reason).
    reason = models.CharField(max_length=200, blank=True)
    # The site's own reason: a code of ``league.stored_texts.RESULT_REASONS`` and its parameters, shown in the
    # reader's language ("" when none; rows saved before the codes keep their words in ``reason``).
    reason_code = models.CharField(max_length=40, blank=True, default="")
    reason_params = models.JSONField(default=dict, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["fixture", "changed_at", "id"]

    def __str__(self):
        return f"{self.action} {self.fixture_id} at {self.changed_at:%Y-%m-%d %H:%M}"

    @property
    def reason_text(self) -> str:
        """Why the result changed, in the reader's language: the site's reason, then the organiser's words."""
        return with_typed(render(RESULT_REASONS, self.reason_code, self.reason_params), self.reason)


class ScheduleChange(models.Model):
    """Append-only audit trail of changes to the timetable: a fixture moved, a day pushed back, two fixtures
    swapped, the fixtures re-timed, the time zone changed. One row per change, with every fixture it moved."""

    class Action(models.TextChoices):
        MOVE = "move", _("Moved")
        PUSH = "push", _("Pushed back")
        SWAP = "swap", _("Swapped")
        RETIME = "retime", _("Re-timed")
        ZONE = "zone", _("Time zone changed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="schedule_changes")
    action = models.CharField(max_length=10, choices=Action.choices)
    # The words of a change saved before the codes ("" since: see ``summary_code``).
    summary = models.CharField(max_length=300, blank=True)
    # What the change did: a code of ``league.stored_texts.SCHEDULE_SUMMARIES`` and its parameters, shown in the
    # reader's language.
    summary_code = models.CharField(max_length=40, blank=True, default="")
    summary_params = models.JSONField(default=dict, blank=True)
    # [{"fixture": id, "old": {"kickoff": iso, "venue": str}, "new": {...}}, ...]
    fixtures = models.JSONField(default=list, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "-changed_at", "-id"]

    def __str__(self):
        return f"{self.action} in {self.tournament_id}: {self.summary_code or self.summary}"

    @property
    def summary_text(self) -> str:
        """What the change did, in the reader's language (a summary saved before the codes: as stored)."""
        return render(SCHEDULE_SUMMARIES, self.summary_code, self.summary_params, self.summary)


class Event(models.Model):
    """A festival day or a fundraiser evening run as one thing: several divisions (tournaments, each with its
    own format and points system) sharing one list of pitches or tables and one day's schedule.

    The plan of the day (first kick-off, minutes per match, change-over, the rest a team has between two
    matches, the time the day must be over by, the pitches) is the event's; every division follows it. A
    tournament on its own needs no event. Later parts of an event (players registering, nations drawn, money
    raised, the prize-giving) hang off this row, so everything about the day is found from one link.
    """

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    visibility = models.CharField(_("visibility"), max_length=10, choices=Tournament.Visibility.choices,
                                  default=Tournament.Visibility.PUBLIC)
    status = models.CharField(_("status"), max_length=12, choices=Tournament.Status.choices,
                              default=Tournament.Status.DRAFT)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_events", blank=True,
                                        verbose_name=_("organisers"))
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone,
                                 validators=[validate_time_zone],
                                 help_text=_("Kick-offs are shown and entered in this zone."))
    day = models.DateField(_("day"), null=True, blank=True)
    first_kickoff = models.TimeField(_("first kick-off"), default=dt.time(9, 0))
    finish_by = models.TimeField(_("finish by"), null=True, blank=True,
                                 help_text=_("The last match must be over by then. Empty: no limit."))
    slot_minutes = models.PositiveSmallIntegerField(
        _("minutes per match"), default=20, validators=[MinValueValidator(1), MaxValueValidator(24 * 60)])
    changeover_minutes = models.PositiveSmallIntegerField(
        _("change-over minutes"), default=5, validators=[MaxValueValidator(24 * 60)],
        help_text=_("Time between two matches on a pitch."))
    rest_minutes = models.PositiveSmallIntegerField(
        _("rest between a team's matches (minutes)"), default=0, validators=[MaxValueValidator(24 * 60)],
        help_text=_("The least time between the end of a team's (or a player's) match and its next one."))
    pitches = models.JSONField(_("pitches or tables"), default=list, blank=True)
    # Players registering themselves (league.services.registrations).
    registration_open = models.BooleanField(_("players may register"), default=False)
    registration_cap = models.PositiveSmallIntegerField(
        _("places"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text=_("Empty: no limit. Players who register once the places are taken go on the waiting list."))
    hide_surnames = models.BooleanField(
        _("show only first names and initials"), default=False,
        help_text=_("Public pages show every player's first name and the initial of the surname."))
    # Bumped on every change visitors see (the event or any of its divisions): part of its pages' cache keys.
    version = models.PositiveIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Money, recorded, not processed (league.services.fundraising): every amount of the event is in its currency.
    currency = models.CharField(_("currency"), max_length=3, choices=CURRENCY_CHOICES, default="ZAR")
    fundraising_goal = models.DecimalField(_("fundraising goal"), max_digits=MONEY_DIGITS, decimal_places=2,
                                           null=True, blank=True, validators=[MinValueValidator(0)])
    entry_fee = models.DecimalField(_("entry fee per player"), max_digits=MONEY_DIGITS, decimal_places=2,
                                    default=0, validators=[MinValueValidator(0)])

    class Meta:
        ordering = ["-created_at", "name"]

    def __str__(self):
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        """The event's time zone."""
        return zone(self.time_zone)


class Division(models.Model):
    """A tournament that is part of an event (the under-11s of a festival, the cup of an evening)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions")
    # One event at most per tournament; deleting the event leaves its tournaments as they are.
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="division")
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "order", "id"]

    def __str__(self):
        return f"{self.tournament_id} in {self.event_id}"


class Registration(models.Model):
    """A player who signed up for an event from its link or QR code (or was added by an organiser).

    The registration is the person; the division they play in and the nation (or team card) they play are
    given later (the organiser's approval, the nation draw) through ``entry``. Their surname and contact are
    the organisers' only: public pages show the first name and the surname's initial when the player is a
    minor or the event hides surnames, and only with the player's consent to show the first name at all.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for approval")
        APPROVED = "approved", _("approved")
        WAITING = "waiting", _("on the waiting list")
        REMOVED = "removed", _("removed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    first_name = models.CharField(_("first name"), max_length=60)
    surname = models.CharField(_("surname"), max_length=60, blank=True)
    contact = models.CharField(_("contact (e-mail or phone)"), max_length=120, blank=True,
                               help_text=_("Seen by the organisers only."))
    minor = models.BooleanField(_("under 18"), default=False)
    show_name = models.BooleanField(_("my first name may be shown publicly"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    # The event's own running number (1, 2, 3... in order of registration): "Player 7" for one who does not want
    # their name shown.
    number = models.PositiveIntegerField(_("number"), default=0)
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="registrations", verbose_name=_("division"))
    # The nation (or team card) the player asks for: theirs in a players' choice draw (first come).
    choice = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
                               verbose_name=_("nation or team wanted"))
    # The player's place in a division (the team or nation they play), once approved and drawn.
    entry = models.OneToOneField(Entry, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="registration")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # First come, first served: the waiting list's order is the order of registration.
        ordering = ["event_id", "created_at", "id"]

    def __str__(self):
        return f"{self.first_name} in {self.event_id}"


class RegistrationChange(models.Model):
    """Append-only trail of the registrations of an event: who registered, was approved, edited, removed, moved
    up from the waiting list (and why), and the places changed. No contact or surname is written here."""

    class Action(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        APPROVED = "approved", _("Approved")
        EDITED = "edited", _("Edited")
        REMOVED = "removed", _("Removed")
        MOVED_UP = "moved_up", _("Moved up from the waiting list")
        SETTINGS = "settings", _("Registration settings changed")
        DRAWN = "drawn", _("Nations drawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registration_changes")
    registration = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="changes")
    action = models.CharField(max_length=12, choices=Action.choices)
    # The words of a change saved before the codes ("" since: see ``summary_code``).
    summary = models.CharField(max_length=300, blank=True)
    # What happened: a code of ``league.stored_texts.REGISTRATION_SUMMARIES`` and its parameters, shown in the
    # reader's language.
    summary_code = models.CharField(max_length=40, blank=True, default="")
    summary_params = models.JSONField(default=dict, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-changed_at", "-id"]

    def __str__(self):
        return f"{self.action} in {self.event_id}: {self.summary_code or self.summary}"

    @property
    def summary_text(self) -> str:
        """What happened, in the reader's language (a summary saved before the codes: as stored)."""
        return render(REGISTRATION_SUMMARIES, self.summary_code, self.summary_params, self.summary)


class NationDraw(models.Model):
    """The nations (or team cards) of a division given to its approved players: by the players' choice, a
    random draw or dice throws. The seed and the outcome are kept, so anyone can replay the draw
    (``league.nation_draws``) and check it; the big screen reveals ``outcome`` one card at a time."""

    class Method(models.TextChoices):
        CHOICE = "choice", _("Players' choice")
        RANDOM = "random", _("Random draw")
        DICE = "dice", _("Dice throws")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="nation_draws")
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="nation_draws")
    method = models.CharField(_("method"), max_length=10, choices=Method.choices)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    # The cards in the order they were offered: [team id, ...].
    cards = models.JSONField(default=list)
    # In the order revealed: [{"registration": id, "team": id, "throws": [[d1, d2], ...]}, ...].
    outcome = models.JSONField(default=list)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "-made_at", "-id"]

    def __str__(self):
        return f"{self.method} draw in {self.division_id}"


class FixtureJob(models.Model):
    """A large fixture generation run by a worker rather than in the organiser's request, with its progress.

    Made by ``league.services.fixtures_generate_or_queue`` when a generation would write more than
    ``settings.FIXTURES_PER_REQUEST`` fixtures (a 200-team league has 19,900); ``options`` are the schedule the
    organiser chose (dates and times as ISO text).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="fixture_jobs")
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(_("fixtures planned"), default=0)
    done = models.PositiveIntegerField(_("fixtures written"), default=0)
    # Why the job failed: a code of JOB_NOTES and its parameters, shown in the reader's language
    # (``error_text``); ``error`` keeps the words of a job that failed before the codes.
    error = models.TextField(blank=True)
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_params = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    UNREACHABLE = "unreachable"
    REFUSED = "refused"
    CRASHED = "crashed"
    JOB_NOTES = {
        UNREACHABLE: _("The workers could not be reached: nothing was generated. Try again."),
        # The refusal's words are the service's, made by the worker (in the site's language).
        REFUSED: "%(detail)s",
        CRASHED: _("The generation failed: %(detail)s"),
    }

    def __str__(self):
        return f"fixtures of {self.tournament_id}: {self.status}"

    @property
    def error_text(self) -> str:
        """Why the job failed, in the reader's language ("" when it did not)."""
        return render(self.JOB_NOTES, self.error_code, self.error_params, self.error)


class ScorerLink(models.Model):
    """A capability to score: whoever opens its link (a referee, a table's players, a parent volunteer) may score
    its fixture, or every fixture on its pitch or table, without an account, until an organiser revokes it.

    Only a hash of the token is stored, so the table alone does not give the links away; the printable token
    is made again from ``nonce`` with the site's secret key (``services.live.scorer_link_token``), so a score
    sheet or a join card can be printed again. Handing a link to someone else is revoking it and making a new
    one.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="scorer_links")
    fixture = models.ForeignKey(Fixture, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="scorer_links")
    venue = models.CharField(_("pitch or table"), max_length=80, blank=True)
    label = models.CharField(_("held by"), max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    nonce = models.CharField(max_length=32, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # Ids, not the relations: ordering by a relation would join its table (and its own ordering's).
        ordering = ["tournament_id", "venue", "fixture_id", "created_at"]
        constraints = [
            # A link scores one fixture or one pitch, never both nor neither.
            models.CheckConstraint(condition=(Q(fixture__isnull=False) & Q(venue=""))
                                   | (Q(fixture__isnull=True) & ~Q(venue="")), name="scorerlink_fixture_or_venue"),
        ]

    def __str__(self):
        return f"scorer link {self.pk} ({self.venue or self.fixture_id})"

    @property
    def live(self) -> bool:
        return self.revoked_at is None


class LiveMatch(models.Model):
    """A fixture being scored live: the match clock and the score as the scorers' events make them.

    A snapshot the service keeps in step with the fixture's ``ScoreEvent`` log (which is the truth), so the pages
    read one row per live match. The clock is server timestamps (``league.match_clock``): every screen computes
    the same time from them.
    """

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="live")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="live_matches")
    phase = models.CharField(max_length=12, default="not_started")
    paused = models.BooleanField(default=False)
    banked_seconds = models.FloatField(default=0)
    running_since = models.DateTimeField(null=True, blank=True)
    half_seconds = models.PositiveIntegerField()
    home_points = models.PositiveIntegerField(default=0)
    away_points = models.PositiveIntegerField(default=0)
    home_tries = models.PositiveIntegerField(default=0)
    away_tries = models.PositiveIntegerField(default=0)
    last_seq = models.PositiveIntegerField(default=0)
    # Why full time did not make the result: a code of NOTE_TEXTS (stored as a code, not a sentence, so each
    # reader gets it in their own language), or "" when nothing waits.
    result_note = models.CharField(max_length=300, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    AWAITING_CONFIRMATION = "awaiting_confirmation"
    NEEDS_ORGANISER = "needs_organiser"
    NOTE_TEXTS = {
        AWAITING_CONFIRMATION: _("Full time: waiting for an organiser to confirm the result."),
        NEEDS_ORGANISER: _("Full time: the result needs an organiser, on its result form (a level knockout match: "
                           "who went through?)."),
    }

    class Meta:
        indexes = [models.Index(fields=["tournament", "phase"], name="livematch_tournament_phase")]

    def __str__(self):
        return f"live {self.fixture_id}: {self.home_points}-{self.away_points} ({self.phase})"

    @property
    def result_note_text(self) -> str:
        """The note in the reader's language ("" when none; a sentence stored before the codes is shown as is)."""
        return str(self.NOTE_TEXTS.get(self.result_note, self.result_note))


class ScoreEvent(models.Model):
    """One event a scorer sent for a fixture scored live: a score, a card, a clock call, or the undo of an earlier
    event. Append-only and ordered (``seq``): the audit trail of the live score, kept after the result.

    ``client_id`` is made by the scorer's phone and unique per fixture, so an event sent again (after a lost
    answer, from the offline queue) is applied once.
    """

    class Kind(models.TextChoices):
        SCORE = "score", _("Score")
        CARD = "card", _("Card")
        CLOCK = "clock", _("Clock")
        UNDO = "undo", _("Undo")

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="score_events")
    seq = models.PositiveIntegerField()
    client_id = models.CharField(max_length=40)
    kind = models.CharField(max_length=8, choices=Kind.choices)
    code = models.CharField(max_length=20, blank=True)
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.CharField(max_length=60, blank=True)
    undoes = models.OneToOneField("self", null=True, blank=True, on_delete=models.CASCADE,
                                  related_name="undone_by")
    # When it happened on the server's clock (a clock call sent late from the offline queue counts from when
    # it was made, as the phone knew the server's time then, never later than its arrival).
    at = models.DateTimeField()
    recorded_at = models.DateTimeField(auto_now_add=True)
    by_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    by_link = models.ForeignKey(ScorerLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="events")

    class Meta:
        ordering = ["fixture_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "client_id"], name="scoreevent_unique_client_id"),
            models.UniqueConstraint(fields=["fixture", "seq"], name="scoreevent_unique_seq"),
            models.CheckConstraint(condition=Q(side__isnull=True) | Q(side__in=[0, 1]), name="scoreevent_side"),
        ]

    def __str__(self):
        return f"{self.fixture_id}#{self.seq} {self.kind} {self.code}"


class AuditRecord(models.Model):
    """Append-only audit trail of the changes that are not results (those are ``ResultChange``): settings and
    points system, organisers, teams renamed or recoloured, entries removed, moved or re-seeded, fixtures
    deleted, the tournament deleted. Who, when, what, and the old and new values; shown to the organisers."""

    class Action(models.TextChoices):
        SETTINGS_CHANGED = "settings_changed", _("Settings changed")
        ORGANISER_ADDED = "organiser_added", _("Co-organiser added")
        ORGANISER_REMOVED = "organiser_removed", _("Co-organiser removed")
        TEAM_CHANGED = "team_changed", _("Team changed")
        ENTRY_REMOVED = "entry_removed", _("Team removed from the tournament")
        ENTRY_WITHDRAWN = "entry_withdrawn", _("Team withdrawn")
        ENTRIES_ARRANGED = "entries_arranged", _("Seeds or pools changed")
        FIXTURES_DELETED = "fixtures_deleted", _("Fixtures deleted")
        TOURNAMENT_DELETED = "tournament_deleted", _("Tournament deleted")
        MONEY_CHANGED = "money_changed", _("Money changed")

    # SET_NULL: the record of a deleted tournament stays (with its name) for the site's administrators.
    tournament = models.ForeignKey(Tournament, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="audit_records")
    tournament_name = models.CharField(max_length=120, blank=True)
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_records")
    # The event of a change that is an event's own (its money): the trail of a fundraiser evening.
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.CASCADE, related_name="audit_records")
    action = models.CharField(max_length=30, choices=Action.choices)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-id"]
        indexes = [models.Index(fields=["tournament", "changed_at"]), models.Index(fields=["team", "changed_at"])]

    def __str__(self):
        return f"{self.action} ({self.tournament_name or self.team_id}) at {self.changed_at:%Y-%m-%d %H:%M}"


# -- Money of an event: recorded, not processed -----------------------------------------------------------------


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("cash")
    CARD = "card", _("card")
    TRANSFER = "transfer", _("transfer")


class EntryFee(models.Model):
    """A registered player's entry fee: how much, whether it is paid and how. Fees count in the event's total
    but are not fundraising: they never make a player the top fundraiser."""

    registration = models.OneToOneField(Registration, on_delete=models.CASCADE, related_name="fee")
    amount = models.DecimalField(_("amount"), max_digits=MONEY_DIGITS, decimal_places=2,
                                 validators=[MinValueValidator(0)])
    paid = models.BooleanField(_("paid"), default=False)
    method = models.CharField(_("paid by"), max_length=10, choices=PaymentMethod.choices, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gte=0), name="entryfee_amount_non_negative")]

    def __str__(self):
        return f"fee of {self.registration_id}: {self.amount}"


class Donation(models.Model):
    """Money given to the event, optionally for a player (it then counts as their fundraising)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="donations")
    donor_name = models.CharField(_("donor's name"), max_length=80)
    amount = models.DecimalField(_("amount"), max_digits=MONEY_DIGITS, decimal_places=2,
                                 validators=[MinValueValidator(Decimal("0.01"))])
    message = models.CharField(_("message"), max_length=200, blank=True)
    anonymous = models.BooleanField(_("anonymous"), default=False,
                                    help_text=_("Shown as “Anonymous” on the thank-you list."))
    registration = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="donations", verbose_name=_("for the player"))
    method = models.CharField(_("paid by"), max_length=10, choices=PaymentMethod.choices, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="donation_amount_positive")]

    def __str__(self):
        return f"donation {self.amount} to {self.event_id}"


class Pledge(models.Model):
    """A sponsor's promise of an amount per try, per point or per win of a player (their registration: the
    entry they play) or of a side (an entry of a division), optionally capped. What it comes to is never
    stored: ``league.fundraising_selectors`` derives it from the results, so a corrected result corrects it."""

    class Basis(models.TextChoices):
        TRY = "try", _("per try")
        POINT = "point", _("per point")
        WIN = "win", _("per win")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pledges")
    sponsor_name = models.CharField(_("sponsor's name"), max_length=80)
    anonymous = models.BooleanField(_("anonymous"), default=False,
                                    help_text=_("Shown as “Anonymous” on the thank-you list."))
    basis = models.CharField(_("pledged"), max_length=5, choices=Basis.choices, default=Basis.TRY)
    rate = models.DecimalField(_("amount each"), max_digits=MONEY_DIGITS, decimal_places=2,
                               validators=[MinValueValidator(Decimal("0.01"))])
    cap = models.DecimalField(_("at most"), max_digits=MONEY_DIGITS, decimal_places=2, null=True, blank=True,
                              validators=[MinValueValidator(Decimal("0.01"))], help_text=_("Empty: no limit."))
    registration = models.ForeignKey(Registration, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="pledges", verbose_name=_("player"))
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="pledges",
                              verbose_name=_("team or nation"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(rate__gt=0), name="pledge_rate_positive"),
            models.CheckConstraint(condition=Q(cap__isnull=True) | Q(cap__gt=0), name="pledge_cap_positive"),
            models.CheckConstraint(condition=Q(registration__isnull=True, entry__isnull=False)
                                   | Q(registration__isnull=False, entry__isnull=True), name="pledge_one_target"),
        ]

    def __str__(self):
        return f"pledge {self.rate} {self.basis} in {self.event_id}"
