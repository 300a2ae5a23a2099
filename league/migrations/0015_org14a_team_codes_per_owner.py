"""After 0007: team codes unique per owner (and among the site's teams); the five points columns go (the
tournament's ``points_rules`` holds the whole system)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("league", "0014_org14a_owners_and_points_data")]

    operations = [
        migrations.AddConstraint(
            model_name="team",
            constraint=models.UniqueConstraint(condition=models.Q(("owner__isnull", False)), fields=("owner", "code"),
                                               name="team_unique_code_per_owner",
                                               violation_error_message="You already have a team with this code."),
        ),
        migrations.AddConstraint(
            model_name="team",
            constraint=models.UniqueConstraint(condition=models.Q(("owner__isnull", True)), fields=("code",),
                                               name="team_unique_site_code",
                                               violation_error_message="A team of the site already has this code."),
        ),
        migrations.RemoveField(model_name="tournament", name="win_points"),
        migrations.RemoveField(model_name="tournament", name="draw_points"),
        migrations.RemoveField(model_name="tournament", name="loss_points"),
        migrations.RemoveField(model_name="tournament", name="try_bonus_threshold"),
        migrations.RemoveField(model_name="tournament", name="losing_bonus_margin"),
    ]
