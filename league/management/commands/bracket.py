"""``manage.py bracket``: a tournament's knockout bracket as JSON or a text table."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from league.format_selectors import bracket_for_tournament, bracket_rounds
from league.formats import format_of
from league.management.commands._common import tournament_or_error
from league.models import Tournament

_DECIDED = {"extra_time": "after extra time", "tries": "on tries", "kicking": "after a kicking competition",
            "walkover": "walkover"}


def _side(match: dict, side: str) -> str:
    name = match[f"{side}_name"]
    return f"{name} ({match[side]})" if name else match[side]


class Command(BaseCommand):
    help = (
        "Print a tournament's knockout bracket. --format json gives a list of rounds, each a list of matches "
        "with home, away (team codes, or the slot's description such as 'Winner Pool A' or 'Winner QF1'), "
        "home_score, away_score, winner (a team code or null) and code, bracket, round, decided_by, status, "
        "bye; --format table (the default) is for reading."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--format", choices=["json", "table"], default="table", help="json or table (default).")

    def handle(self, *args, **options):
        tournament = tournament_or_error(options["slug"])
        data = bracket_for_tournament(tournament)
        if options["format"] == "json":
            self.stdout.write(json.dumps(bracket_rounds(tournament, data=data), indent=2))
            return
        self.stdout.write(tournament.name)
        if not data["brackets"]:
            self._no_bracket(tournament)
        for bracket in data["brackets"]:
            for rnd in bracket["rounds"]:
                self.stdout.write("")
                self.stdout.write(" ".join(part for part in (bracket["name"], rnd["name"]) if part))
                for match in rnd["matches"]:
                    if match["bye"]:
                        self.stdout.write(f"  {'':6} {_side(match, 'home')} - bye")
                        continue
                    score = "v"
                    if match["home_score"] is not None:
                        score = f"{match['home_score']}-{match['away_score']}"
                    line = f"  {match['code']:6} {_side(match, 'home')} {score} {_side(match, 'away')}"
                    if match["winner"] and match["decided_by"]:
                        line += f" ({match['winner']} {_DECIDED.get(match['decided_by'], match['decided_by'])})"
                    self.stdout.write(line)

    def _no_bracket(self, tournament: Tournament) -> None:
        """A Swiss or solo challenge has its format's table instead of a bracket: print that."""
        kind, rows = format_of(tournament).table(tournament)
        if kind == "swiss":
            self.stdout.write("Swiss table (no knockout bracket)")
            for row in rows:
                note = " (withdrawn)" if row["withdrawn"] else ""
                self.stdout.write(f"  {row['position']:>3}  {row['team']:5} P{row['played']:<3} W{row['won']:<3} "
                                  f"D{row['drawn']:<3} L{row['lost']:<3} byes {row['byes']}  {row['points']} pts{note}")
        elif kind == "solo":
            self.stdout.write("Solo challenge leaderboard (no knockout bracket)")
            for row in rows:
                if row["position"] is None:
                    self.stdout.write(f"    -  {row['team']:5} no attempt yet")
                else:
                    self.stdout.write(f"  {row['position']:>3}  {row['team']:5} margin {row['margin']:+d}, "
                                      f"{row['points_for']}-{row['points_against']} ({row['attempts']} attempt(s))")
        else:
            self.stdout.write("No knockout bracket.")
