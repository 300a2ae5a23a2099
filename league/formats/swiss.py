"""Format "swiss": everybody plays every round; teams on equal points meet, never twice; a rotating bye when
the count is odd (``format_options``: ``{"rounds": 5}``). Each next round is paired when the previous one is
complete; the pairing algorithm is ``league.swiss``."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import MANUAL
from league import brackets, swiss
from league.errors import DomainError
from league.format_selectors import swiss_table
from league.formats.base import ONE_DAY_PLAN, TournamentFormat, format_teams, int_option, plan_fields
from league.models import Entry, Fixture, Result, Tournament
from league.services.fixtures import entries_in_seed_order, fixtures_create, fixtures_delete
from league.services.teams import entries_add
from league.services.tournaments import tournament_create

DEFAULT_ROUNDS = 5


def swiss_rounds(tournament: Tournament, team_count: int | None = None) -> int:
    """How many Swiss rounds the tournament plays: the format option "rounds", else five (fewer when
    ``team_count`` teams cannot play five without a rematch)."""
    rounds = (tournament.format_options or {}).get("rounds")
    if rounds not in (None, ""):
        return int(rounds)
    if team_count is None:
        return DEFAULT_ROUNDS
    return max(1, min(DEFAULT_ROUNDS, swiss.swiss_rounds_possible(team_count)))


def check_swiss_rounds(rounds: int, team_count: int) -> None:
    """Refuse a number of rounds that ``team_count`` teams cannot all play without a rematch, saying how many
    they can."""
    possible = swiss.swiss_rounds_possible(team_count)
    if not 1 <= rounds <= possible:
        raise DomainError({"rounds": [_("%(teams)s teams can play 1 to %(possible)s Swiss rounds without a rematch, "
                                        "not %(rounds)s.") % {"teams": team_count, "possible": possible,
                                                              "rounds": rounds}]})


def _has_result(fixture: Fixture) -> bool:
    try:
        return fixture.result is not None
    except Result.DoesNotExist:
        return False


class SwissFormat(TournamentFormat):
    id = Tournament.Format.SWISS.value
    schedule_defaults = ONE_DAY_PLAN
    label = gettext_noop("Swiss (a set number of rounds)")
    description = gettext_noop(
        "Everybody plays a set number of rounds; round 1 pairs the top half against the bottom half by seed, "
        "then teams on equal points meet, never twice; a rotating bye when the count is odd.")
    table_kind = "swiss"
    fixtures_intro = gettext_noop(
        "Pair the next Swiss round from the current table (round 1: the top half against the bottom half by "
        "seed; then teams on equal points meet, never twice).")
    option_names = ("rounds",)

    def options(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        return {"rounds": int_option(kwargs, "rounds", DEFAULT_ROUNDS)} if kwargs.get("rounds") not in (None, "") \
            else {}

    def preset(self, *, name: str, slug: str | None = None, teams: Any = None, ruleset: str = MANUAL,
               points_system: str = Tournament.PointsSystem.WORLD_RUGBY, user: Any = None,
               status: str = Tournament.Status.IN_PROGRESS, visibility: str = Tournament.Visibility.PUBLIC,
               **kwargs: Any) -> Tournament:
        """A Swiss: round 1 paired by seed, each next round paired when the previous one is complete."""
        teams = format_teams(teams, self.min_teams, "A Swiss")
        default = max(1, min(DEFAULT_ROUNDS, swiss.swiss_rounds_possible(len(teams))))
        rounds = int_option(kwargs, "rounds", default)
        check_swiss_rounds(rounds, len(teams))
        with transaction.atomic():
            tournament = tournament_create(
                name=name, slug=slug, ruleset=ruleset, points_system=points_system,
                points_rules=kwargs.get("points_rules"), format=self.id, status=status, visibility=visibility,
                user=user, format_options={"rounds": rounds}, **plan_fields(self, kwargs))
            entries_add(tournament=tournament, teams=teams, user=user)
            self.generate_fixtures(tournament, user=user)
        return tournament

    def check_options(self, tournament: Tournament, options: dict[str, Any]) -> None:
        """The number of rounds: at least the rounds already paired, at most what the teams can play without a
        rematch (checked against the teams entered; a draft without teams yet is checked when it is paired)."""
        if options.get("rounds") in (None, ""):
            return
        rounds = int_option(options, "rounds", DEFAULT_ROUNDS)
        paired = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS).order_by(
            "-round_number").values_list("round_number", flat=True).first() or 0
        if rounds < max(1, paired):
            raise DomainError({"rounds": [_("%(paired)s rounds are already paired: the tournament cannot have "
                                            "fewer.") % {"paired": paired}]})
        teams = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
        if teams >= 2:
            check_swiss_rounds(rounds, teams)

    @transaction.atomic
    def generate_fixtures(self, tournament: Tournament, *, user: Any = None, **schedule: Any) -> None:
        """Pair and create the next Swiss round from the current table (refused while a round is unfinished)."""
        existing = list(Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS)
                        .select_related("result"))
        last = max((f.round_number for f in existing), default=0)
        table = swiss_table(tournament, fixtures=existing)
        ranked = [row["entry_id"] for row in table if not row["withdrawn"]]
        total = swiss_rounds(tournament, len(ranked))
        if last == 0:
            check_swiss_rounds(total, len(ranked))
        if last >= total:
            raise DomainError(_("All %(rounds)s Swiss rounds have been paired.") % {"rounds": total})
        unfinished = [f for f in existing if f.away_id is not None and not _has_result(f)
                      and f.status != Fixture.Status.CANCELLED]
        if unfinished:
            raise DomainError(_("Round %(round)s is not finished: %(count)s result(s) missing.")
                                % {"round": last, "count": len(unfinished)})
        points = {row["entry_id"]: row["points"] for row in table}
        played = [(f.home_id, f.away_id) for f in existing if f.away_id is not None]
        byes: dict[int, int] = {}
        venues: dict[int, str] = {}  # each team's games in round order: "H" home, "A" away
        for f in sorted(existing, key=lambda f: (f.round_number, f.slot)):
            if f.away_id is None and f.home_id is not None:
                byes[f.home_id] = byes.get(f.home_id, 0) + 1
            elif f.home_id is not None and f.away_id is not None:
                venues[f.home_id] = venues.get(f.home_id, "") + "H"
                venues[f.away_id] = venues.get(f.away_id, "") + "A"
        try:
            if last == 0:
                # Round 1 by seed: the top half against the bottom half (1 v n/2+1, 2 v n/2+2...).
                seeded = [e.pk for e in entries_in_seed_order(tournament)]
                pairing = swiss.swiss_first_round(seeded)
            else:
                pairing = swiss.swiss_pairings(ranked, played=played, byes=byes, points=points, venues=venues,
                                               rounds_left=total - last - 1)
        except swiss.SwissError as exc:
            raise DomainError(_("Round %(round)s cannot be paired: %(exc)s.") % {"round": last + 1, "exc": exc})
        number = last + 1
        fixtures = [Fixture(tournament=tournament, stage=Fixture.Stage.SWISS, round_number=number,
                            round_name=f"Round {number}", home_id=home, away_id=away, slot=i)
                    for i, (home, away) in enumerate(pairing.pairs)]
        if pairing.bye is not None:
            # A bye is kept as a fixture with no opponent, so it shows on the fixture list and is never repeated.
            fixtures.append(Fixture(tournament=tournament, stage=Fixture.Stage.SWISS, round_number=number,
                                    round_name=f"Round {number}", home_id=pairing.bye, away_source=brackets.BYE,
                                    slot=len(pairing.pairs), status=Fixture.Status.PLAYED))
        fixtures_create(tournament=tournament, fixtures=fixtures)

    def after_result(self, tournament: Tournament, fixture: Fixture, *, user: Any = None) -> None:
        """When the latest round is complete, pair the next one (until the last round).

        A correction to an earlier round re-pairs the later rounds that have no result yet, so pairings
        always follow the corrected table.
        """
        if fixture.stage != Fixture.Stage.SWISS:
            return
        round_number = fixture.round_number
        later = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS,
                                       round_number__gt=round_number)
        if later.exists():
            if Result.objects.filter(fixture__in=later).exists():
                return  # later rounds are under way: their pairings stand
            fixtures_delete(tournament=tournament, fixtures=later)
        round_fixtures = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS,
                                                round_number=round_number, away__isnull=False)
        if round_fixtures.exclude(status=Fixture.Status.CANCELLED).filter(result__isnull=True).exists():
            return
        still_in = Entry.objects.filter(tournament=tournament, withdrawn_at__isnull=True).count()
        if round_number < swiss_rounds(tournament, still_in):
            self.generate_fixtures(tournament, user=user)

    def complete(self, tournament: Tournament) -> bool:
        """Every round paired and decided: the last round is paired only when the one before is complete."""
        last = Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.SWISS).aggregate(
            last=Max("round_number"))["last"] or 0
        return last >= swiss_rounds(tournament) and super().complete(tournament)

    def table(self, tournament: Tournament) -> tuple[str, list[dict[str, Any]]]:
        return self.table_kind, swiss_table(tournament)


FORMAT = SwissFormat()
