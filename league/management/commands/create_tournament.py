"""``manage.py create_tournament``: a whole tournament from a preset, from the command line."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.utils.text import slugify

from engine import MANUAL, get_spec
from league import services
from league.formats import FORMATS
from league.management.commands._common import LeagueCommand, tournament_url, validation_message
from league.models import Fixture, Tournament, ruleset_choices


def _date(value: str) -> date:
    try:
        return datetime.strptime(value, "%Y-%m-%d").date()
    except ValueError:
        raise CommandError(f"--start-date must look like 2026-09-05, not {value!r}.")


def _time(value: str):
    try:
        return datetime.strptime(value, "%H:%M").time()
    except ValueError:
        raise CommandError(f"--kickoff must look like 14:30, not {value!r}.")


def next_saturday(today: date | None = None) -> date:
    """The next Saturday after today (rugby's day), used when no start date is given."""
    today = today or date.today()
    return today + timedelta(days=(5 - today.weekday()) % 7 or 7)


class Command(LeagueCommand):
    help = (
        "Create a tournament from a preset, with its teams, pools and round-robin fixtures (dates, kick-offs "
        "and venues). Examples:\n"
        "  manage.py create_tournament --preset rwc2023 --name 'World Cup evening' --slug wc-evening\n"
        "  manage.py create_tournament --preset league --name 'Winter league' --slug winter "
        "--teams FRA,NZL,IRE,RSA --double --venues 'Pitch 1,Pitch 2'"
    )

    def add_arguments(self, parser):
        described = [f"{key}: {(getattr(func, 'description', '') or func.__doc__ or '').rstrip('.')}"
                     for key, func in sorted(FORMATS.items())]
        parser.add_argument("--preset", required=True, choices=sorted(FORMATS),
                            help="; ".join(described).replace("%", "%%") + ".")
        parser.add_argument("--name", required=True, help="The tournament's name, e.g. 'Saturday festival'.")
        parser.add_argument("--slug", help="Its web address (letters, digits, hyphens); made from the name if absent.")
        parser.add_argument("--teams", default="",
                            help="Comma-separated team codes or names (league preset), e.g. FRA,NZL,IRE,RSA.")
        parser.add_argument("--double", action="store_true",
                            help="Double round robin: everyone meets twice, home and away swapped (league preset).")
        parser.add_argument("--ruleset", default=None,
                            help=f"The rule set matches use: {MANUAL!r} (results entered by hand, the default; a "
                                 "solo challenge's default is the engine's solo game) or one the engine plays.")
        parser.add_argument("--points-system", default=Tournament.PointsSystem.WORLD_RUGBY,
                            choices=[c for c in Tournament.PointsSystem.values if c != "custom"],
                            help="A points-system preset: " + ", ".join(
                                c for c in Tournament.PointsSystem.values if c != "custom")
                            + " (default world_rugby: 4/2/0 + bonus points).")
        parser.add_argument("--start-date", help="Day of round 1, YYYY-MM-DD (default: next Saturday).")
        parser.add_argument("--kickoff", default=None,
                            help="Kick-off of a day's first slot, HH:MM (the format's: 14:00 for a league, 09:00 "
                                 "for a one-day festival).")
        parser.add_argument("--slot-minutes", type=int, default=None,
                            help="Minutes a match keeps a pitch (the format's: 90, or 30 for a festival).")
        parser.add_argument("--changeover-minutes", type=int, default=None,
                            help="Minutes between two matches on a pitch (the format's: 0, or 10 for a festival).")
        parser.add_argument("--days-between-rounds", type=int, default=None,
                            help="Days between rounds (the format's: 7 for a league, 0 for a festival: every "
                                 "round on one day, one after another).")
        parser.add_argument("--time-zone", default=None,
                            help="The tournament's IANA time zone, e.g. Africa/Johannesburg (default: the site's "
                                 "TIME_ZONE); kick-offs are in it.")
        parser.add_argument("--venues", default=None,
                            help="Comma-separated pitches or tables, e.g. 'Pitch 1,Pitch 2', or a number N for "
                                 "N numbered pitches (tables for engine rule sets). A round with more matches than "
                                 "venues is split into consecutive time slots. rwc2023 defaults to the nine 2023 "
                                 "stadiums; league to no venue.")
        parser.add_argument("--organiser", action="append", default=[], metavar="USERNAME",
                            help="A user who may edit the tournament (repeat for several).")
        parser.add_argument("--draft", action="store_true",
                            help="Keep it as a draft (only its organisers see it) instead of in progress.")
        parser.add_argument("--unlisted", action="store_true", help="Unlisted: readable by link, never listed.")
        parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                            help="A format preset's option (repeat for several): pools=4, qualifiers=2, "
                                 "third_place=yes (pools_knockout, cup_plate, single_elimination), "
                                 "plate_from_cup_losers=yes (cup_plate), draw=seeded|random, draw_seed=N, "
                                 "rounds=5 (swiss), attempts=2 (solo).")

    def handle(self, *args, **options):
        slug = options["slug"] or slugify(options["name"])[:60]
        if not slug:
            raise CommandError("Give a --slug (the name has no letters or digits to make one from).")
        if options["ruleset"] is not None and options["ruleset"] not in {key for key, _label in ruleset_choices()}:
            known = ", ".join(key for key, _label in ruleset_choices())
            raise CommandError(f"Unknown rule set {options['ruleset']!r}; choose one of: {known}.")
        users = []
        for username in options["organiser"]:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"No user {username!r} (create it with manage.py createsuperuser or the site).")
            users.append(user)
        kwargs = {
            "name": options["name"], "slug": slug,
            "teams": [t.strip() for t in options["teams"].split(",") if t.strip()],
            "double": options["double"], "points_system": options["points_system"],
            "start_date": _date(options["start_date"]) if options["start_date"] else next_saturday(),
            "first_kickoff": _time(options["kickoff"]) if options["kickoff"] else None,
            "slot_minutes": options["slot_minutes"], "changeover_minutes": options["changeover_minutes"],
            "days_between_rounds": options["days_between_rounds"], "time_zone": options["time_zone"],
            "status": Tournament.Status.DRAFT if options["draft"] else Tournament.Status.IN_PROGRESS,
            "visibility": Tournament.Visibility.UNLISTED if options["unlisted"] else Tournament.Visibility.PUBLIC,
        }
        if options["ruleset"] is not None:
            kwargs["ruleset"] = options["ruleset"]
        if options["venues"] is not None:
            kwargs["venues"] = self._venues(options["venues"], options["ruleset"] or MANUAL)
        for option in options["option"]:
            key, sep, value = option.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or not key or key in kwargs:
                raise CommandError(f"--option must look like pools=4 (and not repeat another flag), not {option!r}.")
            kwargs[key] = value.strip()
        fmt = FORMATS[options["preset"]]
        if not fmt.fixed_teams and len(kwargs["teams"]) < fmt.min_teams:
            raise CommandError(f"The {options['preset']} preset needs --teams (at least {fmt.min_teams}), e.g. "
                               "--teams FRA,NZL,IRE,RSA.")
        try:
            tournament = services.tournament_create_from_preset(options["preset"], **kwargs)
        except ValidationError as exc:
            raise CommandError(validation_message(exc))
        for user in users:
            services.organiser_add(tournament=tournament, user=user)
        fixtures = Fixture.objects.filter(tournament=tournament).count()
        self.stdout.write(self.style.SUCCESS(
            f"Created {tournament.name} ({tournament.slug}): {tournament.entries.count()} teams in "
            f"{tournament.pools.count()} pool(s), {fixtures} fixtures."))
        self.stdout.write(tournament_url(tournament))

    @staticmethod
    def _venues(value: str, ruleset: str) -> list[str]:
        value = value.strip()
        if value.isdigit():
            count = int(value)
            if count < 1:
                raise CommandError("--venues must name at least one venue.")
            word = "Table" if get_spec(ruleset).playable else "Pitch"
            return [f"{word} {i}" for i in range(1, count + 1)]
        venues = [v.strip() for v in value.split(",") if v.strip()]
        if not venues:
            raise CommandError("--venues must name at least one venue.")
        return venues
