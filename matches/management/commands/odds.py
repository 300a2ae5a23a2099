"""``python manage.py odds SLUG``: compute a tournament's qualification odds now and print them."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from league.models import Tournament
from matches import odds


class Command(BaseCommand):
    help = ("Compute (and store) a tournament's qualification odds: the remaining fixtures simulated many times "
            "from a score model fitted to the engine's own results for its rule set.")

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--runs", type=int, default=None, help="runs (default: the ODDS_RUNS setting, 10000)")

    def handle(self, *args, **options):
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with the slug {options['slug']!r}.")
        if options["runs"] is not None and options["runs"] < 1:
            raise CommandError("--runs must be at least 1.")
        status = odds.odds_refresh(tournament_id=tournament.pk, runs=options["runs"])
        table = odds.tournament_odds(tournament)
        if table is None:
            raise CommandError(f"No odds for {tournament.name}: {status}.")
        self.stdout.write(f"{table['runs']} runs, score model: {table['model']}")
        self.stdout.write(f"{'':6}" + "".join(f"{c[:8]:>9}" for c in table["columns"]))
        for row in table["rows"]:
            self.stdout.write(f"{row['team']:6}" + "".join(f"{v:>9}" for v in row["values"]))
