"""``manage.py standings``: a tournament's pool tables as JSON, CSV or a text table."""

from __future__ import annotations

import csv
import json

from league.management.commands._common import LeagueCommand, tournament_or_error
from league.selectors import standing_row_data, tournament_standings
from league.standings import ROW_KEYS
from league.stored_texts import tie_break_explanation
from league.text import csv_cell

_TABLE_COLUMNS = [("Pos", "position"), ("Team", "team"), ("P", "played"), ("W", "won"), ("D", "drawn"),
                  ("L", "lost"), ("PF", "points_for"), ("PA", "points_against"), ("PD", None),
                  ("TF", "tries_for"), ("TA", "tries_against"), ("BP", "bonus_points"), ("Pts", "points")]


class Command(LeagueCommand):
    help = (
        "Print a tournament's standings, always computed from its results. --format json gives a list of "
        'pools, each {"pool": "A", "rows": [...]} with the row keys ' + ", ".join(ROW_KEYS) + ", tie_breaks and "
        "explanation (how tie-breakers placed the team); "
        "--format csv gives one line per team with a pool column; --format table (the default) is for reading."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--format", choices=["json", "csv", "table"], default="table",
                            help="json, csv or table (default).")

    def handle(self, *args, **options):
        tournament = tournament_or_error(options["slug"])
        tables = tournament_standings(tournament)
        fmt = options["format"]
        if fmt == "json":
            data = [{"pool": pool.name, "rows": [standing_row_data(row) for row in rows]} for pool, rows in tables]
            self.stdout.write(json.dumps(data, indent=2))
        elif fmt == "csv":
            writer = csv.writer(self.stdout, lineterminator="\n")
            writer.writerow(["pool", *ROW_KEYS, "explanation"])
            for pool, rows in tables:
                for row in rows:
                    data = row.as_dict()
                    writer.writerow([csv_cell(value) for value in (pool.name, *(data[key] for key in ROW_KEYS),
                                                                   tie_break_explanation(row))])
        else:
            self.stdout.write(f"{tournament.name}")
            for pool, rows in tables:
                self.stdout.write("")
                self.stdout.write(f"Pool {pool.name}" if len(pool.name) <= 2 else pool.name)
                lines = [[title for title, _key in _TABLE_COLUMNS]]
                for row in rows:
                    data = row.as_dict()
                    lines.append([str(data[key]) if key else f"{row.points_difference:+d}"
                                  for _title, key in _TABLE_COLUMNS])
                widths = [max(len(line[i]) for line in lines) for i in range(len(_TABLE_COLUMNS))]
                for line in lines:
                    self.stdout.write("  ".join(cell.ljust(w) if i == 1 else cell.rjust(w)
                                                for i, (cell, w) in enumerate(zip(line, widths, strict=True))))
