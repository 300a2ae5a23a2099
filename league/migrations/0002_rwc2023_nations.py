"""The 20 Rugby World Cup 2023 nations exist after ``migrate``."""

from django.db import migrations


def add_nations(apps, schema_editor):
    from league.nations import RWC2023_NATIONS

    Team = apps.get_model("league", "Team")
    for code, name, primary, secondary, pool, ranking in RWC2023_NATIONS:
        Team.objects.update_or_create(
            code=code,
            defaults=dict(name=name, primary_colour=primary, secondary_colour=secondary, is_nation=True,
                          rwc2023_pool=pool, world_ranking=ranking),
        )


def remove_nations(apps, schema_editor):
    from league.nations import RWC2023_CODES

    apps.get_model("league", "Team").objects.filter(code__in=RWC2023_CODES, entries__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]
    operations = [migrations.RunPython(add_nations, remove_nations)]
