"""Matches played through the engine: online play between people, computer seats, friendlies.

The truth of a match is its rule set, options, seed and the ordered action log
(:class:`MatchAction`, ply unique per match; or, for a simulated match, ``Match.action_log``: the whole log
in one row). ``Match.snapshot`` is a cache of
the engine state at ``snapshot_ply`` for speed; it is never the only copy and
can always be rebuilt by replaying the log (see ``services.match_state``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from league.levels import level_choices, level_help
from league.stored_texts import render

# No 0/O, 1/I/L: a pupil reads the code off a sheet of paper or a whiteboard.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
# 12 characters of a 31-letter alphabet: about 59 bits, far beyond guessing at the rate limit.
CODE_LENGTH = 12


def new_join_code() -> str:
    """A fresh random join code (unambiguous alphabet, ``CODE_LENGTH`` characters)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """A typed code as stored: capitals, no spaces or dashes."""
    return "".join(ch for ch in (text or "").upper() if ch.isalnum())


def format_code(code: str) -> str:
    """A code as shown to people: groups of four (ABCD-EFGH-JKMN)."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


class Match(models.Model):
    """One game of a rule set: a fixture's match, or a friendly (no fixture)."""

    class Status(models.TextChoices):
        LIVE = "live", _("Live")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    ruleset = models.CharField(_("rule set"), max_length=40)
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE)
    # A fixture is played as (at most) one match; friendlies have none.
    fixture = models.OneToOneField("league.Fixture", null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="match")
    # Number of actions in the log: the ply of the last action (0 before the first move).
    # Also the version of the match for conditional requests (ETag).
    ply = models.PositiveIntegerField(default=0)
    # Cache of the engine state (GameState.to_dict()) at snapshot_ply; never the only copy.
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    snapshot_ply = models.PositiveIntegerField(null=True, blank=True, editable=False)
    # Outcome as the engine gave it (Outcome.to_dict()) when finished.
    outcome = models.JSONField(null=True, blank=True)
    # The whole ordered action log in one row, ``[[seat, action], ...]`` (ply n is item n - 1), for a match the
    # computer seats played from start to finish at once (a simulation): one write per match instead of one
    # row per action. Null: the log is the ``MatchAction`` rows (online play appends one per move, under the
    # unique (match, ply) constraint). ``matches.selectors.match_actions`` reads either form.
    action_log = models.JSONField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The engine's rules version the match was played under (``RuleSetSpec.rules_version``): a log recorded
    # under other rules may not replay on today's engine, so its pages then show what was stored instead.
    rules_version = models.CharField(_("rules version"), max_length=20, blank=True)
    # Move clock: seconds a person has for each move, after which the computer plays their seat (None: no clock).
    move_clock = models.PositiveIntegerField(_("move clock (seconds)"), null=True, blank=True)
    # When the seats to act last changed (a move, or the last open seat taken): the move clock counts from here.
    # None while a seat is still open: the match has not started.
    moved_at = models.DateTimeField(null=True, blank=True)
    # The seat whose draw offer stands (None: no offer); any move withdraws it.
    draw_offer = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [models.Index(fields=["status", "-updated_at"])]

    def __str__(self):
        return f"Match {self.pk} ({self.ruleset})"

    @property
    def is_friendly(self) -> bool:
        return self.fixture_id is None


class MatchSeat(models.Model):
    """Who holds a seat: a person (account, entry's player or join code), a computer level, or open.

    A person who has no account holds the seat through their browser session
    after entering the seat's join code (or their entry's pass code).
    """

    class Kind(models.TextChoices):
        PERSON = "person", _("Person")
        COMPUTER = "computer", _("Computer")
        OPEN = "open", _("Open (waiting for someone to join)")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()  # 0 = home, 1 = away
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.OPEN)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="match_seats")
    computer_level = models.CharField(max_length=16, choices=level_choices(), blank=True, help_text=level_help())
    entry = models.ForeignKey("league.Entry", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    name = models.CharField(_("name shown"), max_length=80, blank=True)
    join_code = models.CharField(max_length=16, unique=True, default=new_join_code, editable=False)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="matchseat_unique_seat"),
            models.CheckConstraint(condition=Q(seat__in=[0, 1]), name="matchseat_seat_0_or_1"),
            models.CheckConstraint(condition=~Q(kind="computer") | ~Q(computer_level=""),
                                   name="matchseat_computer_has_level"),
        ]

    def __str__(self):
        return f"{self.match_id}/{('home', 'away')[self.seat]}: {self.label}"

    @property
    def label(self) -> str:
        """The name a page shows for this seat."""
        if self.name:
            return self.name
        if self.kind == self.Kind.COMPUTER:
            return str(dict(level_choices()).get(self.computer_level, self.computer_level))
        if self.user_id:
            return self.user.get_username()
        return ("Home", "Away")[self.seat]

    @property
    def display_code(self) -> str:
        return format_code(self.join_code)


class EntryPass(models.Model):
    """A personal pass code for an entry: it signs its holder into every seat of that entry's matches."""

    entry = models.OneToOneField("league.Entry", on_delete=models.CASCADE, related_name="pass_code")
    code = models.CharField(max_length=16, unique=True, default=new_join_code, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"pass for {self.entry_id}"

    @property
    def display_code(self) -> str:
        return format_code(self.code)


class MatchAction(models.Model):
    """One applied action: the append-only log that replays the match and settles disputes."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    ply = models.PositiveIntegerField()  # 1 for the first action
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=80)
    # Who submitted it (None: a computer seat, or a pupil signed in by code).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="matchaction_unique_ply"),
            models.CheckConstraint(condition=Q(ply__gte=1), name="matchaction_ply_positive"),
        ]

    def __str__(self):
        return f"{self.match_id}#{self.ply} {('home', 'away')[self.seat]}: {self.action}"


class MatchEvent(models.Model):
    """What happened to a match besides its moves: seats taken, resignations, draw offers, the move clock, the
    organiser's interventions. Append-only, like the action log: the audit trail of disputes."""

    class Kind(models.TextChoices):
        JOINED = "joined", _("Took a seat")
        RESIGNED = "resigned", _("Resigned")
        DRAW_OFFERED = "draw_offered", _("Offered a draw")
        DRAW_ACCEPTED = "draw_accepted", _("Accepted the draw")
        DRAW_DECLINED = "draw_declined", _("Declined the draw")
        CLOCK = "clock", _("Ran out of time: the computer plays the seat")
        REPLACED = "replaced", _("The organiser gave the seat to the computer")
        ABANDONED = "abandoned", _("The organiser abandoned the match")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events")
    # The match's ply when it happened (the number of moves played before it).
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="+")
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "id"]
        constraints = [models.CheckConstraint(condition=Q(seat__isnull=True) | Q(seat__in=[0, 1]),
                                              name="matchevent_seat_0_or_1")]

    def __str__(self):
        return f"{self.match_id}@{self.ply} {self.kind}"


class SimulationRun(models.Model):
    """A simulation of a tournament's fixtures by computer players (issue 8): its seed, scope and progress.

    ``total`` is the number of fixtures in the scope when the run started; ``done`` how many of them have a
    result now (kept up to date by the workers, never decreasing). The fixtures' results themselves are the
    truth: a run that is resumed after a crash just carries on from them.
    """

    class Stage(models.TextChoices):
        POOLS = "pools", _("Pool matches")
        KNOCKOUT = "knockout", _("Knockout matches")
        ALL = "all", _("Everything")
        FIXTURE = "fixture", _("One fixture")
        ROUND = "round", _("One round")

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey("league.Tournament", on_delete=models.CASCADE, related_name="simulation_runs")
    seed = models.BigIntegerField(_("seed"))
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.ALL)
    # The fixture (stage "fixture") or round number (stage "round") when the scope is narrower than a stage.
    fixture = models.ForeignKey("league.Fixture", null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    # Why the run stopped short or failed: a code of RUN_NOTES and its parameters, shown in the reader's language
    # (``error_text``); ``error`` keeps the words of a run noted before the codes.
    error = models.TextField(blank=True)
    error_code = models.CharField(max_length=40, blank=True, default="")
    error_params = models.JSONField(default=dict, blank=True)
    # Ids of the fixtures this run has handed to the workers ("12,13,14"): each goes out once.
    queued = models.TextField(blank=True, default="", editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["tournament", "status"])]

    STUCK = "stuck"
    NOT_QUEUED = "not_queued"
    FIXTURE_FAILED = "fixture_failed"
    RUN_NOTES = {
        STUCK: _("%(count)s fixture(s) could not be simulated: their teams are not known or people are playing "
                 "them."),
        NOT_QUEUED: _("The simulation could not be queued for the workers (%(detail)s). Is the broker running?"),
        FIXTURE_FAILED: _("Fixture %(fixture)s could not be simulated: %(detail)s"),
    }

    def __str__(self):
        return f"simulation {self.pk} of {self.tournament_id} ({self.stage}, {self.done}/{self.total})"

    @property
    def error_text(self) -> str:
        """Why the run stopped short or failed, in the reader's language ("" when it did not)."""
        return render(self.RUN_NOTES, self.error_code, self.error_params, self.error)


class ScoreModel(models.Model):
    """Results of many engine matches between computer players of a rule set: the odds' score model.

    ``samples`` is a list of ``[home_points, home_tries, away_points, away_tries]``, one per match played by
    the engine with players of ``home_level`` and ``away_level`` (an empirical joint distribution).
    """

    ruleset = models.CharField(max_length=40)
    rules_version = models.CharField(max_length=20, blank=True)
    home_level = models.CharField(max_length=16)
    away_level = models.CharField(max_length=16)
    samples = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ruleset", "rules_version", "home_level", "away_level"],
                                               name="scoremodel_unique")]

    def __str__(self):
        return f"{self.ruleset} {self.home_level}/{self.away_level}: {len(self.samples)} matches"


class QualificationOdds(models.Model):
    """A tournament's latest qualification odds (``matches.odds``), computed at ``version`` of the tournament."""

    tournament = models.OneToOneField("league.Tournament", on_delete=models.CASCADE, related_name="odds")
    version = models.PositiveIntegerField(default=0)
    runs = models.PositiveIntegerField(default=0)
    model = models.CharField(max_length=80, blank=True)
    data = models.JSONField(default=dict)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"odds of {self.tournament_id} at v{self.version} ({self.runs} runs)"
