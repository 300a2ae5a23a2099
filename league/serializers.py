"""REST API serializers: the JSON shapes of teams, tournaments, entries, pools, fixtures, results, standings.

Serializers translate and validate; the writes that carry rules (results, new tournaments, entries)
go through ``league.services``. Teams are named by their short code and tournaments by their slug,
so the JSON reads like the league tables ("FRA", "rwc2023").
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine import MANUAL, get_spec
from league.brackets import source_label
from league.formats import FORMATS
from league.levels import level_choices, level_help, site_level
from league.models import Entry, Fixture, Pool, Result, ResultChange, ScheduleChange, Team, Tournament
from league.permissions import can_edit_tournament, viewable_tournaments
from league.rulesets import ruleset_options_validate
from league.selectors import teams_for
from league.standings import TIE_BREAKERS, PointsSystem


def _without_nul(value, label: str):
    """Refuse NUL characters anywhere in a JSON value: PostgreSQL's jsonb cannot store them (a 500 otherwise)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and "\x00" in item:
            raise serializers.ValidationError(_("%(label)s cannot contain NUL characters.") % {"label": label})
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return value


class _SlugRelatedField(serializers.SlugRelatedField):
    """A row by its slug or code; a value with a NUL character simply matches none (PostgreSQL refuses it)."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class TeamSerializer(serializers.ModelSerializer):
    """A team; signed-in users create their own (school, club, person) with name, short code and colours.
    ``owner``: the username of the organiser it belongs to (null: the site's, as the nations are)."""

    owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)

    class Meta:
        model = Team
        fields = ["code", "name", "primary_colour", "secondary_colour", "is_nation", "rwc2023_pool", "world_ranking",
                  "owner"]
        read_only_fields = ["is_nation", "rwc2023_pool", "world_ranking", "owner"]
        # Codes are unique per owner: the team service checks it (with the owner, which is not an input here).
        validators = []

    def to_internal_value(self, data):
        # Codes are capitals ("FRA"); accept "fra" from a hand-typed request rather than refusing it.
        if hasattr(data, "get") and isinstance(data.get("code"), str):
            data = data.copy()
            data["code"] = data["code"].strip().upper()
        return super().to_internal_value(data)


class PresetOptionsSerializer(serializers.Serializer):
    """The options a preset understands (``create_tournament --option``), checked before the preset runs."""

    start_date = serializers.DateField(required=False, help_text=_("Day of round 1, YYYY-MM-DD."))
    first_kickoff = serializers.TimeField(required=False, help_text=_("First kick-off of a day, HH:MM."))
    slot_minutes = serializers.IntegerField(required=False, min_value=1, max_value=24 * 60,
                                            help_text=_("Minutes a match keeps a pitch."))
    changeover_minutes = serializers.IntegerField(required=False, min_value=0, max_value=24 * 60,
                                                  help_text=_("Minutes between two matches on a pitch."))
    days_between_rounds = serializers.IntegerField(required=False, min_value=0, max_value=365,
                                                   help_text=_("0: every round on the same day (a festival)."))
    venues = serializers.ListField(child=serializers.CharField(max_length=80), required=False, max_length=100,
                                   help_text=_("The pitches or tables."))
    draw = serializers.ChoiceField(choices=["seeded", "random"], required=False)
    draw_seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62)
    pools = serializers.IntegerField(required=False, min_value=1, max_value=64)
    qualifiers = serializers.IntegerField(required=False, min_value=1, max_value=64)
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=64)
    attempts = serializers.IntegerField(required=False, min_value=1, max_value=64)
    third_place = serializers.BooleanField(required=False)
    plate_from_cup_losers = serializers.BooleanField(required=False)
    tiers = serializers.JSONField(required=False, help_text=_("Cup/Plate tiers, as the cup_plate preset takes them."))

    def validate_tiers(self, value):
        return _without_nul(value, _("Tiers"))

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    _("Unknown option(s): %(unknown)s. Known: %(known)s.")
                    % {"unknown": ", ".join(unknown), "known": ", ".join(self.fields)})
        return super().to_internal_value(data)


class PointsRulesField(serializers.JSONField):
    """A whole points system (``league.standings.PointsSystem.as_dict``): win, draw, loss, try bonus (threshold,
    relative), losing bonus margin, bye, all-wins bonus and the ordered tie-breakers."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        try:
            return PointsSystem.from_dict(value).as_dict()
        except (TypeError, ValueError) as exc:
            raise serializers.ValidationError(str(exc))


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament. The slug, rule set and format are chosen at creation and fixed after it. The points system
    is ``points_system`` (a preset's name, or "custom") and ``points_rules`` (every part of it): sending a
    preset's name alone brings its rules; sending rules alone makes a custom system."""

    organisers = serializers.SlugRelatedField(slug_field="username", many=True, read_only=True)
    can_edit = serializers.SerializerMethodField(help_text=_("Whether the caller may change this tournament."))
    preset = serializers.ChoiceField(
        choices=[], required=False, write_only=True,
        help_text=_("Set up the whole tournament (teams, pools, fixtures, bracket) with a preset, as "
                    "`create_tournament --preset` does."))
    teams = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, write_only=True,
        help_text=_("With a preset: the teams, by code or name, in seed order."))
    preset_options = PresetOptionsSerializer(required=False, write_only=True,
                                             help_text=_("With a preset: its further options."))
    first_kickoff = serializers.SerializerMethodField(help_text=_("First kick-off of a day, HH:MM (local)."))
    points_rules = PointsRulesField(required=False, help_text=_(
        "Every part of the points system: win, draw, loss, try_bonus_threshold, try_bonus_relative, "
        "losing_bonus_margin, bye, all_wins_bonus, tie_breakers (in order, from: %(names)s).")
        % {"names": ", ".join(TIE_BREAKERS)})

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "ruleset", "ruleset_options", "format", "format_options", "double_round_robin",
            "points_system", "points_rules", "walkover_score", "walkover_tries", "visibility", "status", "time_zone",
            "first_day", "first_kickoff", "slot_minutes", "changeover_minutes", "days_between_rounds", "pitches",
            "half_minutes", "live_result_needs_confirmation", "draw_method", "draw_seed", "organisers",
            "can_edit", "version", "created_at",
            "preset", "teams", "preset_options",
        ]
        # The plan of the days changes through ``schedule/`` (which re-times the fixtures by it).
        read_only_fields = ["draw_method", "draw_seed", "version", "created_at", "first_day", "first_kickoff",
                            "slot_minutes", "changeover_minutes", "days_between_rounds", "pitches"]
        # Fixed after creation: changing them would not change the draw or fixtures already made.
        create_only_fields = ["slug", "ruleset", "format", "double_round_robin", "preset", "teams",
                              "preset_options"]
        # Upper bounds that hold on every database (PostgreSQL's smallint), so a huge number is a 400. The slug
        # may be left out: a free one is made from the name ("winter-league-2").
        extra_kwargs = {"walkover_score": {"max_value": 999}, "walkover_tries": {"max_value": 200},
                        "slug": {"required": False}}

    def validate_ruleset_options(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("Rule set options must be a JSON object."))
        return _without_nul(value, _("Rule set options"))

    def validate_format_options(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError(_("Format options must be a JSON object."))
        return _without_nul(value, _("Format options"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = sorted(FORMATS)

    def get_first_kickoff(self, tournament) -> str:
        return tournament.first_kickoff.strftime("%H:%M")

    def get_can_edit(self, tournament) -> bool:
        request = self.context.get("request")
        return bool(request and can_edit_tournament(request.user, tournament))

    def validate(self, attrs):
        if self.instance is not None:
            errors = {
                name: [_("This cannot be changed once the tournament exists.")]
                for name in self.Meta.create_only_fields
                if name in attrs and attrs[name] != getattr(self.instance, name, None)
            }
            if errors:
                raise serializers.ValidationError(errors)
        ruleset = attrs.get("ruleset") or getattr(self.instance, "ruleset", MANUAL)
        if attrs.get("ruleset_options") and get_spec(ruleset).playable:
            # Checked now: options the engine refuses would otherwise be stored and break the first match.
            ruleset_options_validate(ruleset, attrs["ruleset_options"])
        return attrs


class _LevelField(serializers.ChoiceField):
    """A computer level (the engine's levels); a former name (``aware``, ``random``) is taken as today's."""

    def __init__(self, **kwargs):
        super().__init__(choices=level_choices(), help_text=level_help(), **kwargs)

    def to_internal_value(self, data):
        return super().to_internal_value(site_level(data) if isinstance(data, str) else data)


class EntrySerializer(serializers.ModelSerializer):
    """A team in a tournament: its seed, its pool (by name) and the name of the person who plays it. The team
    is named by its code among the nations and the caller's own teams."""

    computer_level = _LevelField(required=False)

    tournament = _SlugRelatedField(slug_field="slug", queryset=Tournament.objects.all())
    team = _SlugRelatedField(slug_field="code", queryset=Team.objects.none())
    pool = serializers.CharField(source="pool.name", required=False, allow_null=True, allow_blank=True,
                                 max_length=20, help_text=_("The pool's name; a new name makes a new pool."))
    team_name = serializers.CharField(source="team.name", read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "tournament", "team", "team_name", "seed", "pool", "player_name", "computer_level",
                  "withdrawn_at"]
        read_only_fields = ["withdrawn_at"]
        extra_kwargs = {"seed": {"min_value": 1, "max_value": 9999}}
        # The unique (tournament, team) and (tournament, seed) rules are checked in validate(), with
        # messages on the field concerned rather than DRF's generic "must make a unique set".
        validators = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        request = self.context.get("request")
        if request is not None and "tournament" in self.fields:
            # Unknown and invisible tournaments get the same "does not exist" answer.
            self.fields["tournament"].queryset = viewable_tournaments(request.user)
        if "team" in self.fields:
            # Another organiser's team is no team of the caller's: "does not exist", like an unknown code. On
            # reading, the entry's own team is shown whoever owns it.
            user = request.user if request is not None else None
            self.fields["team"].queryset = teams_for(user).order_by("is_nation", "pk")

    def validate(self, attrs):
        instance = self.instance
        if instance is not None:
            for name in ("tournament", "team"):
                if name in attrs and attrs[name] != getattr(instance, name):
                    raise serializers.ValidationError({name: [_("This cannot be changed; add a new entry instead.")]})
        tournament = attrs.get("tournament") or getattr(instance, "tournament", None)
        if instance is None and Entry.objects.filter(tournament=tournament, team=attrs.get("team")).exists():
            raise serializers.ValidationError({"team": [_("This team is already in the tournament.")]})
        seed = attrs.get("seed")
        if tournament is not None and seed is not None:
            clash = Entry.objects.filter(tournament=tournament, seed=seed)
            if instance is not None:
                clash = clash.exclude(pk=instance.pk)
            if clash.exists():
                raise serializers.ValidationError({"seed": [_("Another team already has this seed.")]})
        return attrs

    @staticmethod
    def pool_name(validated_data) -> str | None:
        """Take the pool's name out of the validated data (None for no pool)."""
        pool = validated_data.pop("pool", None)
        name = (pool or {}).get("name")
        return name.strip() if name and name.strip() else None


class PoolSerializer(serializers.ModelSerializer):
    """A pool and the codes of its teams."""

    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    teams = serializers.SerializerMethodField()

    class Meta:
        model = Pool
        fields = ["id", "tournament", "name", "order", "teams"]

    def get_teams(self, pool) -> list[str]:
        return [entry.team.code for entry in pool.entries.all()]


class ResultSerializer(serializers.ModelSerializer):
    """A fixture's result as read: scores, tries, how it was decided and where it came from."""

    winner = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = ["home_score", "away_score", "home_tries", "away_tries", "kind", "winner", "decided_by", "stats",
                  "source", "updated_at"]

    def get_winner(self, result) -> str | None:
        """The code of the team that went through when a knockout draw was decided another way."""
        if result.winner_id is None:
            return None
        fixture = result.fixture
        for entry in (fixture.home, fixture.away):
            if entry is not None and entry.pk == result.winner_id:
                return entry.team.code
        return None


class ResultWriteSerializer(serializers.Serializer):
    """What an organiser sends to record or correct a result (``league.services.result_correct`` checks it)."""

    # Not required here: a walkover takes the tournament's walkover score, and the service says
    # "The home score is required." for a played match sent without one. No bounds here either: the result
    # service checks them (not negative, not too large, consistent with the tries), with the same messages
    # as the form, the CSV import and the admin.
    home_score = serializers.IntegerField(required=False, allow_null=True, default=None)
    away_score = serializers.IntegerField(required=False, allow_null=True, default=None)
    home_tries = serializers.IntegerField(default=0)
    away_tries = serializers.IntegerField(default=0)
    kind = serializers.ChoiceField(choices=Result.Kind.choices, default=Result.Kind.PLAYED)
    winner = serializers.CharField(
        required=False, allow_blank=True, allow_null=True, default=None,
        help_text=_("For a knockout draw: the code of the team that went through."))
    decided_by = serializers.ChoiceField(choices=Result.DecidedBy.choices, required=False, allow_blank=True,
                                         default="")
    stats = serializers.DictField(required=False, default=dict)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="",
                                   help_text=_("Why the result is corrected (kept in the audit trail)."))
    reset_later_rounds = serializers.BooleanField(
        default=False, help_text=_("A correction that changes who went through to a knockout match already "
                                   "played is refused, unless this is true: then those later results are deleted."))

    def validate_stats(self, value):
        return _without_nul(value, _("Stats"))

    def validate_winner(self, value):
        if not value:
            return None
        fixture = self.context["fixture"]
        code = value.strip().upper()
        for entry in (fixture.home, fixture.away):
            if entry is not None and entry.team.code == code:
                return entry
        raise serializers.ValidationError(_("The winner must be one of the two teams of this fixture."))


@extend_schema_field(OpenApiTypes.STR)
class _TeamCodeField(serializers.Field):
    """An entry shown as its team's code (null while a knockout slot is not filled)."""

    def to_representation(self, entry):
        return entry.team.code


class FixtureSerializer(serializers.ModelSerializer):
    """A fixture: teams by code (or the description of a slot still to fill), kick-off, venue, result.

    The kick-off is given in the tournament's time zone (with its offset); a kick-off sent without an offset
    is read in that zone too. A change of kick-off or venue is refused (409) if it makes a clash.
    """

    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    time_zone = serializers.CharField(source="tournament.time_zone", read_only=True,
                                      help_text=_("The tournament's time zone: the kick-off's."))
    pool = serializers.SerializerMethodField(help_text=_("The pool's name; null for a knockout fixture."))
    home = _TeamCodeField(read_only=True, allow_null=True)
    away = _TeamCodeField(read_only=True, allow_null=True)
    home_label = serializers.SerializerMethodField(help_text=_("The team's code, or where it will come from."))
    away_label = serializers.SerializerMethodField(help_text=_("The team's code, or where it will come from."))
    result = serializers.SerializerMethodField()

    class Meta:
        model = Fixture
        fields = ["id", "tournament", "pool", "stage", "bracket", "round_number", "round_name", "code", "home",
                  "away", "home_label", "away_label", "home_source", "away_source", "kickoff", "time_zone", "venue",
                  "slot", "status", "result"]
        read_only_fields = ["stage", "bracket", "round_number", "code", "home_source", "away_source", "slot",
                            "status"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if isinstance(self.instance, Fixture):
            # A kick-off without an offset is the tournament's local time.
            self.fields["kickoff"].timezone = self.instance.tournament.zone

    def to_representation(self, fixture):
        data = super().to_representation(fixture)
        if fixture.kickoff is not None:
            data["kickoff"] = fixture.kickoff.astimezone(fixture.tournament.zone).isoformat()
        return data

    def get_pool(self, fixture) -> str | None:
        # Not a CharField(source="pool.name", default=None): a PATCH (partial) skips a field's default,
        # so a knockout fixture's answer lost its "pool" key.
        return fixture.pool.name if fixture.pool_id else None

    def validate_kickoff(self, value):
        # A year like 0016 is a typo, and near the ends of the calendar a time zone shift overflows the date.
        if value is not None and not 1900 <= value.year <= 2999:
            raise serializers.ValidationError(_("Give a kick-off between the years 1900 and 2999."))
        return value

    def get_home_label(self, fixture) -> str:
        return fixture.home.team.code if fixture.home_id else source_label(fixture.home_source)

    def get_away_label(self, fixture) -> str:
        return fixture.away.team.code if fixture.away_id else source_label(fixture.away_source)

    @extend_schema_field(ResultSerializer(allow_null=True))
    def get_result(self, fixture):
        try:
            result = fixture.result
        except Result.DoesNotExist:
            return None
        return result_data(result, fixture)


_TIMESTAMP = serializers.DateTimeField()


def result_data(result: Result, fixture: Fixture) -> dict:
    """``ResultSerializer(result).data`` without a serializer per row (a fixture list built ~1.5 ms per row on
    them): the same keys and values, from the fixture's teams already loaded."""
    winner = None
    if result.winner_id is not None:
        for entry in (fixture.home, fixture.away):
            if entry is not None and entry.pk == result.winner_id:
                winner = entry.team.code
    return {"home_score": result.home_score, "away_score": result.away_score, "home_tries": result.home_tries,
            "away_tries": result.away_tries, "kind": result.kind, "winner": winner, "decided_by": result.decided_by,
            "stats": result.stats, "source": result.source, "updated_at": _TIMESTAMP.to_representation(
                result.updated_at)}


class TieBreakSerializer(serializers.Serializer):
    """One decision of a tie-breaker: the row was placed above ``teams`` (codes) on ``criterion``, or placed
    equally with them; ``text`` says it in words ("above Scotland on points difference")."""

    criterion = serializers.ChoiceField(choices=[*TIE_BREAKERS, "team_code"])
    teams = serializers.ListField(child=serializers.CharField())
    text = serializers.CharField()


class StandingRowSerializer(serializers.Serializer):
    """One row of a pool table (the keys of the league's JSON standings)."""

    position = serializers.IntegerField()
    team = serializers.CharField(help_text=_("The team's code."))
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    tries_for = serializers.IntegerField()
    tries_against = serializers.IntegerField()
    bonus_points = serializers.IntegerField()
    points = serializers.IntegerField()


class PoolStandingRowSerializer(StandingRowSerializer):
    """A pool table's row, with how tie-breakers placed it: ``position`` is shared by teams placed equally."""

    tie_breaks = TieBreakSerializer(many=True)
    explanation = serializers.CharField(help_text=_("The tie-break decisions in words, \"; \"-separated (\"\" "
                                                    "when none)."))


class SwissRowSerializer(StandingRowSerializer):
    """A row of a Swiss table: the standings keys, plus byes (each worth a win), seed and withdrawal."""

    entry_id = serializers.IntegerField()
    name = serializers.CharField(help_text=_("The team's name."))
    byes = serializers.IntegerField()
    withdrawn = serializers.BooleanField()
    seed = serializers.IntegerField(allow_null=True)


class LeaderboardRowSerializer(serializers.Serializer):
    """A row of a solo challenge's leaderboard: each entrant's best attempt, ranked by margin then points."""

    position = serializers.IntegerField(allow_null=True)
    team = serializers.CharField()
    name = serializers.CharField()
    attempts = serializers.IntegerField()
    margin = serializers.IntegerField(allow_null=True)
    points_for = serializers.IntegerField(allow_null=True)
    points_against = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()


class PoolStandingsSerializer(serializers.Serializer):
    """A pool's table: ``{"pool": "A", "rows": [...]}``."""

    pool = serializers.CharField()
    rows = PoolStandingRowSerializer(many=True)


class FixtureFilterSerializer(serializers.Serializer):
    """Query parameters of the fixture list (all optional)."""

    tournament = serializers.SlugField(required=False, help_text=_("The tournament's slug."))
    pool = serializers.CharField(required=False, help_text=_("The pool's name (e.g. A) or id."))
    round = serializers.IntegerField(required=False, min_value=0, max_value=32767, help_text=_("The round number."))
    team = serializers.CharField(required=False, help_text=_("A team's code: its home and away fixtures."))
    date = serializers.DateField(required=False, help_text=_("Kick-off date, YYYY-MM-DD."))
    stage = serializers.ChoiceField(choices=Fixture.Stage.choices, required=False)
    status = serializers.ChoiceField(choices=Fixture.Status.choices, required=False)


class TournamentScopeFilterSerializer(serializers.Serializer):
    """Query parameters of entry and pool lists."""

    tournament = serializers.SlugField(required=False, help_text=_("The tournament's slug."))


class TournamentFilterSerializer(serializers.Serializer):
    """Query parameters of the tournament list."""

    mine = serializers.BooleanField(required=False, default=False,
                                    help_text=_("Only the tournaments the caller organises."))
    status = serializers.ChoiceField(choices=Tournament.Status.choices, required=False)


class TeamFilterSerializer(serializers.Serializer):
    """Query parameters of the team list."""

    nation = serializers.BooleanField(required=False, allow_null=True, default=None,
                                      help_text=_("true: the 20 RWC 2023 nations; false: the others."))
    search = serializers.CharField(required=False, help_text=_("Part of a team's name or code."))


class BracketMatchSerializer(serializers.Serializer):
    """One knockout match of the bracket JSON (``league.format_selectors.bracket_rounds``)."""

    code = serializers.CharField()
    bracket = serializers.CharField(help_text=_("Cup, Plate, Bowl, Shield... empty for a single bracket."))
    round = serializers.CharField()
    round_name = serializers.CharField()
    round_number = serializers.IntegerField()
    home = serializers.CharField(help_text=_("The team's code, or where it will come from (\"Winner Pool A\")."))
    away = serializers.CharField(help_text=_("The team's code, or where it will come from (\"Winner Pool A\")."))
    home_name = serializers.CharField(allow_null=True)
    away_name = serializers.CharField(allow_null=True)
    home_slot = serializers.CharField()
    away_slot = serializers.CharField()
    home_score = serializers.IntegerField(allow_null=True)
    away_score = serializers.IntegerField(allow_null=True)
    home_tries = serializers.IntegerField(allow_null=True)
    away_tries = serializers.IntegerField(allow_null=True)
    winner = serializers.CharField(allow_null=True, help_text=_("The code of the team that went through."))
    decided_by = serializers.CharField()
    kind = serializers.CharField()
    status = serializers.CharField()
    kickoff = serializers.DateTimeField(allow_null=True)
    venue = serializers.CharField()
    fixture_id = serializers.IntegerField(allow_null=True)
    bye = serializers.BooleanField()


class EntryWithdrawSerializer(serializers.Serializer):
    """An organiser withdraws a team: its remaining fixtures are walkovers to its opponents."""

    keep_played_results = serializers.BooleanField(
        default=True, help_text=_("Keep its played pool results (true) or void them (false)."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class EntryWithdrawResultSerializer(serializers.Serializer):
    walkovers = serializers.IntegerField()
    voided = serializers.IntegerField()


class ResultsImportSerializer(serializers.Serializer):
    """A results CSV (``pool,round,date,home,away,home_score,away_score,home_tries,away_tries``): a file or text."""

    file = serializers.FileField(required=False, help_text=_("The CSV file (multipart upload)."))
    csv = serializers.CharField(required=False, trim_whitespace=False, help_text=_("Or the CSV text itself."))

    def validate(self, attrs):
        if bool(attrs.get("file")) == bool(attrs.get("csv")):
            raise serializers.ValidationError({"file": [_("Send either a CSV file or the CSV text, not both.")]})
        size = attrs["file"].size if attrs.get("file") else len(attrs["csv"].encode())
        if size > settings.MAX_UPLOAD_BYTES:
            raise serializers.ValidationError({"file" if attrs.get("file") else "csv": [
                _("The file is too large: %(size)s kB at most.") % {"size": settings.MAX_UPLOAD_BYTES // 1000}]})
        return attrs


class ImportSummarySerializer(serializers.Serializer):
    """What an import did."""

    created = serializers.IntegerField()
    updated = serializers.IntegerField()
    unchanged = serializers.IntegerField()


class ResultChangeSerializer(serializers.ModelSerializer):
    """One row of a result's audit trail: who changed it, when, the old and new values, and why."""

    changed_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    reason = serializers.CharField(source="reason_text", read_only=True, help_text=_(
        "Why, in the request's language: the site's own reason, then the organiser's words."))
    reason_code = serializers.CharField(read_only=True, help_text=_(
        "The site's own reason as a code (\"live_full_time\", \"csv_import\"...), \"\" for none."))
    reason_params = serializers.JSONField(read_only=True, help_text=_("The values in the site's reason."))

    class Meta:
        model = ResultChange
        fields = ["action", "old", "new", "reason", "reason_code", "reason_params", "changed_by", "changed_at"]
        read_only_fields = fields


class FixtureSwapSerializer(serializers.Serializer):
    """Swap a fixture's kick-off and venue with another fixture of the same tournament."""

    other = serializers.IntegerField(min_value=1, help_text=_("The id of the other fixture."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class SchedulePlanSerializer(serializers.Serializer):
    """The plan of the days; every fixture still to play is scheduled again by it (played ones stay)."""

    first_day = serializers.DateField(required=False, allow_null=True, help_text=_("Day of round 1 (local)."))
    first_kickoff = serializers.TimeField(required=False, help_text=_("First kick-off of a day, HH:MM (local)."))
    slot_minutes = serializers.IntegerField(required=False, min_value=1, max_value=24 * 60)
    changeover_minutes = serializers.IntegerField(required=False, min_value=0, max_value=24 * 60)
    days_between_rounds = serializers.IntegerField(required=False, min_value=0, max_value=365)
    pitches = serializers.ListField(child=serializers.CharField(max_length=80), required=False, max_length=100)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def validate_first_day(self, value):
        if value is not None and not 1900 <= value.year <= 2999:
            raise serializers.ValidationError(_("Give a day between the years 1900 and 2999."))
        return value


class ScheduleResultSerializer(serializers.Serializer):
    """How many fixtures a schedule change placed or moved."""

    fixtures = serializers.IntegerField()


class PushSerializer(serializers.Serializer):
    """The day runs late: every fixture still to play on ``day`` from ``after`` on moves ``minutes`` later."""

    day = serializers.DateField(help_text=_("The local day, YYYY-MM-DD."))
    after = serializers.TimeField(help_text=_("Fixtures kicking off at or after this local time, HH:MM."))
    minutes = serializers.IntegerField(min_value=-12 * 60, max_value=12 * 60,
                                       help_text=_("Minutes later (negative: earlier); not 0."))
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")

    def validate_minutes(self, value):
        if value == 0:
            raise serializers.ValidationError(_("Give a number of minutes other than 0."))
        return value


class ScheduleChangeSerializer(serializers.ModelSerializer):
    """One change to the timetable: what, who, when, why, and each fixture's old and new kick-off and venue."""

    changed_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    summary = serializers.CharField(source="summary_text", read_only=True, help_text=_(
        "What the change did, in the request's language."))
    summary_code = serializers.CharField(read_only=True, help_text=_(
        "What the change did as a code (\"moved\", \"pushed\", \"swapped\"...), \"\" for a change saved before "
        "the codes."))
    summary_params = serializers.JSONField(read_only=True, help_text=_("The values in the summary."))

    class Meta:
        model = ScheduleChange
        fields = ["action", "summary", "summary_code", "summary_params", "fixtures", "reason", "changed_by",
                  "changed_at"]
        read_only_fields = fields


class ErrorSerializer(serializers.Serializer):
    """The body of a refusal: ``{"detail": "message", "code": "..."}`` (a 401, 403, 404, 409, 429 or 503)."""

    detail = serializers.CharField(help_text=_("What was refused, in words."))
    code = serializers.CharField(required=False, help_text=_("A short code for programs (\"conflict\", "
                                                             "\"not_authenticated\"...)."))


class LiveScoreSerializer(serializers.Serializer):
    """One match being played now: its score, tries and clock (``clock_origin_ms``: when its running clock read
    0:00, ms since the epoch; null while stopped)."""

    fixture = serializers.IntegerField()
    home = serializers.CharField(allow_null=True)
    away = serializers.CharField(allow_null=True)
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    home_tries = serializers.IntegerField()
    away_tries = serializers.IntegerField()
    clock = serializers.CharField()
    clock_origin_ms = serializers.IntegerField(allow_null=True)
    half_seconds = serializers.IntegerField()
    second_half = serializers.BooleanField()
    source = serializers.CharField()


class LiveSerializer(serializers.Serializer):
    """The live scores of a tournament and the live projection of its pools' standings (not final)."""

    matches = LiveScoreSerializer(many=True)
    projection = serializers.ListField(child=serializers.DictField(), help_text=_(
        "The pools with a match being played, as {\"pool\": \"A\", \"rows\": [...]} if the live scores stayed."))


class LiveEventSerializer(serializers.Serializer):
    """One scorer's event: a score, a card, a clock call or an undo (``id``: made by the client, unique per match,
    so an event sent again is applied once)."""

    id = serializers.CharField(max_length=40)
    kind = serializers.CharField(max_length=8, help_text=_("score, card, clock or undo"))
    code = serializers.CharField(required=False, allow_blank=True, default="")
    side = serializers.ChoiceField(choices=["home", "away"], required=False, allow_null=True, default=None)
    player = serializers.CharField(required=False, allow_blank=True, default="", max_length=60)
    undoes = serializers.CharField(required=False, allow_blank=True, default="")
    at_ms = serializers.IntegerField(required=False, allow_null=True, default=None)


class LiveEventsSerializer(serializers.Serializer):
    events = LiveEventSerializer(many=True)
