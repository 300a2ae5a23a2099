"""``manage.py import_results``: results from a CSV file, all or nothing."""

from __future__ import annotations

import sys

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from league.management.commands._common import LeagueCommand, tournament_or_error, validation_message
from league.services import IMPORT_COLUMNS, results_import_csv


class Command(LeagueCommand):
    help = (
        "Import results from a CSV file with the columns "
        f"{','.join(IMPORT_COLUMNS)} (a header row is optional). Teams are named by code or name; each row's "
        "fixture is found by its two teams and pool (round and date only choose between two meetings of the "
        "same teams). If any row is invalid or matches no fixture, every such row is reported with its line "
        "number and nothing of the file is saved. Example:\n"
        "  manage.py import_results wc-evening results.csv"
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("file", help="The CSV file (UTF-8), or - to read standard input.")
        parser.add_argument("--user", metavar="USERNAME", help="Record the changes in the audit trail as this user.")

    def handle(self, *args, **options):
        tournament = tournament_or_error(options["slug"])
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user {options['user']!r}.")
        try:
            if options["file"] == "-":
                text = sys.stdin.read()
            else:
                with open(options["file"], encoding="utf-8-sig") as handle:
                    text = handle.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror or exc}.")
        except UnicodeDecodeError:
            raise CommandError(f"{options['file']} is not UTF-8 text: save the CSV as UTF-8 and try again.")
        try:
            summary = results_import_csv(tournament=tournament, file=text, user=user)
        except ValidationError as exc:
            raise CommandError("Nothing was imported:\n" + validation_message(exc))
        self.stdout.write(self.style.SUCCESS(
            f"Imported {summary.total} result(s) into {tournament.slug}: {summary.created} new, "
            f"{summary.updated} corrected, {summary.unchanged} unchanged."))
