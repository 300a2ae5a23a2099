"""``manage.py demo``: a demo Rugby World Cup 2023 tournament with some results (idempotent)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.db import transaction

from league import services
from league.management.commands._common import LeagueCommand, tournament_url, validation_message
from league.models import Fixture, Result, Tournament
from league.stored_texts import Coded

DEMO_SLUG = "demo-rwc2023"
DEMO_NAME = "Demo: Rugby World Cup 2023"


def demo_score(rng: random.Random, strength: float) -> tuple[int, int]:
    """A plausible rugby union score (points, tries) for a side of the given strength (0..1)."""
    tries = sum(rng.random() < 0.12 + 0.5 * strength for _ in range(7))
    conversions = sum(rng.random() < 0.7 for _ in range(tries))
    kicks = sum(rng.random() < 0.35 for _ in range(4))
    return 5 * tries + 2 * conversions + 3 * kicks, tries


class Command(LeagueCommand):
    help = (
        f"Create the demo tournament ({DEMO_SLUG}): the 20 RWC 2023 nations in their pools, with the results of "
        "the first rounds made up (stronger nations by World Rugby ranking usually win) so the standings have "
        "something to show. Running it again changes nothing. Prints the tournament's address."
    )

    def add_arguments(self, parser):
        parser.add_argument("--rounds", type=int, default=3,
                            help="How many of the five pool rounds get results (default 3).")
        parser.add_argument("--organiser", metavar="USERNAME", help="Make this existing user an organiser.")
        parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="Start of the printed address.")
        parser.add_argument("--seed", type=int, default=2023, help="Seed of the made-up results (2023).")

    def handle(self, *args, **options):
        if not 0 <= options["rounds"] <= 5:
            raise CommandError("--rounds must be between 0 and 5.")
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        created = tournament is None
        try:
            with transaction.atomic():
                if created:
                    # Start two weeks ago, a round a week, so some rounds are past and some to come.
                    tournament = services.tournament_create_from_preset("rwc2023", name=DEMO_NAME, slug=DEMO_SLUG,
                                            start_date=date.today() - timedelta(days=14))
                recorded = self._results(tournament, options["rounds"], options["seed"])
        except ValidationError as exc:
            raise CommandError(validation_message(exc))
        if options["organiser"]:
            user = get_user_model().objects.filter(username=options["organiser"]).first()
            if user is None:
                raise CommandError(f"No user {options['organiser']!r}.")
            services.organiser_add(tournament=tournament, user=user)
        state = "Created" if created else "Already there:"
        self.stdout.write(self.style.SUCCESS(
            f"{state} {tournament.name} ({Result.objects.filter(fixture__tournament=tournament).count()} results"
            + (f", {recorded} added now" if recorded and not created else "") + ")."))
        self.stdout.write(tournament_url(tournament, options["base_url"]))

    def _results(self, tournament: Tournament, rounds: int, seed: int) -> int:
        """Made-up results for the pool fixtures of the first ``rounds`` rounds that have none yet."""
        fixtures = (Fixture.objects.filter(tournament=tournament, stage=Fixture.Stage.POOL,
                                           round_number__lte=rounds, result__isnull=True)
                    .select_related("home__team", "away__team").order_by("round_number", "pk"))
        count = 0
        for fixture in fixtures:
            rng = random.Random(f"{seed}:{fixture.home.team.code}:{fixture.away.team.code}")
            home_rank, away_rank = fixture.home.team.world_ranking or 20, fixture.away.team.world_ranking or 20
            home_score, home_tries = demo_score(rng, max(0.05, (21 - home_rank) / 20 - 0.2))
            away_score, away_tries = demo_score(rng, max(0.05, (21 - away_rank) / 20 - 0.25))
            services.result_record(fixture=fixture, home_score=home_score, away_score=away_score,
                                   home_tries=home_tries, away_tries=away_tries, reason=Coded("demo"))
            count += 1
        return count
