"""Data for 0006: every team gets its owner, every tournament its whole points system.

Owners (issue 16.1):

1. a team someone created is theirs (``created_by``); the RWC nations stay the site's (no owner);
2. a team with no creator (made from the command line) goes to the organiser who organises *every* tournament
   it is entered in (the earliest such account); when no one does (or it is in no organised tournament), it
   stays the site's: giving it to one of several organisers would let that one rename it on the others' pages;
3. a team entered in a tournament that its owner does not organise (the hijack of issue 16: B's "Greenfield
   School" in A's league) is copied for that tournament's first organiser, and the entry moved to the copy,
   so that no one can change what another organiser's pages show. The copy keeps the name and colours, and
   the code unless the new owner already has a team with it (then a free one; the same name reuses it).

Points (issue 21.3): the five numbers become ``points_rules`` with the tie-breaking order that made the tables
until now (World Rugby's, for every system). A tournament keeps its preset's name when those rules are the
preset's today; otherwise (rugby_league, whose preset now gives bye points and breaks ties on points
difference only; changed numbers) it is "custom", so every table is exactly what it was.
"""

from django.db import migrations

WORLD_RUGBY_ORDER = ["head_to_head", "points_difference", "tries_difference", "points_for", "tries_for",
                     "world_ranking"]
# The presets' rules as they are at this migration (league.standings.POINTS_PRESETS may change later).
PRESETS_NOW = {
    "world_rugby": {"win": 4, "draw": 2, "loss": 0, "try_bonus_threshold": 4, "try_bonus_relative": False,
                    "losing_bonus_margin": 7, "bye": 0, "all_wins_bonus": 0, "tie_breakers": WORLD_RUGBY_ORDER},
    "football": {"win": 3, "draw": 1, "loss": 0, "try_bonus_threshold": None, "try_bonus_relative": False,
                 "losing_bonus_margin": None, "bye": 0, "all_wins_bonus": 0, "tie_breakers": WORLD_RUGBY_ORDER},
}


def points_forward(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    for tournament in Tournament.objects.all():
        rules = {"win": tournament.win_points, "draw": tournament.draw_points, "loss": tournament.loss_points,
                 "try_bonus_threshold": tournament.try_bonus_threshold, "try_bonus_relative": False,
                 "losing_bonus_margin": tournament.losing_bonus_margin, "bye": 0, "all_wins_bonus": 0,
                 "tie_breakers": list(WORLD_RUGBY_ORDER)}
        name = tournament.points_system if PRESETS_NOW.get(tournament.points_system) == rules else "custom"
        Tournament.objects.filter(pk=tournament.pk).update(points_rules=rules, points_system=name)


def points_backward(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    for tournament in Tournament.objects.all():
        rules = tournament.points_rules or {}
        Tournament.objects.filter(pk=tournament.pk).update(
            win_points=rules.get("win", 4), draw_points=rules.get("draw", 2), loss_points=rules.get("loss", 0),
            try_bonus_threshold=rules.get("try_bonus_threshold"), losing_bonus_margin=rules.get("losing_bonus_margin"),
            points_system=tournament.points_system if tournament.points_system in ("world_rugby", "rugby_league",
                                                                                   "football") else "custom")


def _free_code(code, taken):
    if code not in taken:
        return code
    base = code[:3]
    for n in range(1, 1000):
        candidate = f"{base}{n}"[:5]
        if candidate not in taken:
            return candidate
    raise RuntimeError(f"no free code for {code}")


def owners_forward(apps, schema_editor):
    Team = apps.get_model("league", "Team")
    Entry = apps.get_model("league", "Entry")
    Organisers = apps.get_model("league", "Tournament").organisers.through
    organisers: dict[int, set[int]] = {}
    for tournament_id, user_id in Organisers.objects.values_list("tournament_id", "user_id"):
        organisers.setdefault(tournament_id, set()).add(user_id)
    entries_by_team: dict[int, list] = {}
    for entry in Entry.objects.all().order_by("tournament_id", "pk"):
        entries_by_team.setdefault(entry.team_id, []).append(entry)
    # 1 and 2: who owns each team.
    for team in Team.objects.filter(is_nation=False).order_by("pk"):
        owner = team.created_by_id
        if owner is None:
            sets = [organisers.get(e.tournament_id, set()) for e in entries_by_team.get(team.pk, [])]
            common = set.intersection(*sets) if sets else set()
            owner = min(common) if common else None
        if owner is not None:
            Team.objects.filter(pk=team.pk).update(owner_id=owner)
    # 3: copies for the organisers of tournaments the owner does not organise.
    codes: dict[int | None, dict[str, int]] = {}
    for team in Team.objects.all():
        codes.setdefault(team.owner_id, {})[team.code] = team.pk
    for team in Team.objects.filter(is_nation=False, owner__isnull=False).order_by("pk"):
        copies: dict[int, int] = {}
        for entry in entries_by_team.get(team.pk, []):
            people = organisers.get(entry.tournament_id, set())
            if not people or team.owner_id in people:
                continue
            new_owner = min(people)
            if new_owner not in copies:
                mine = codes.setdefault(new_owner, {})
                same = Team.objects.filter(owner_id=new_owner, name=team.name).first()
                if same is not None:
                    copies[new_owner] = same.pk
                else:
                    code = _free_code(team.code, mine)
                    copy = Team.objects.create(name=team.name, code=code, primary_colour=team.primary_colour,
                                               secondary_colour=team.secondary_colour, owner_id=new_owner)
                    mine[code] = copy.pk
                    copies[new_owner] = copy.pk
            target = copies[new_owner]
            if not Entry.objects.filter(tournament_id=entry.tournament_id, team_id=target).exists():
                Entry.objects.filter(pk=entry.pk).update(team_id=target)


class Migration(migrations.Migration):

    dependencies = [("league", "0013_org14a_owner_points_rules_audit")]

    operations = [
        migrations.RunPython(points_forward, points_backward),
        migrations.RunPython(owners_forward, migrations.RunPython.noop),
    ]
