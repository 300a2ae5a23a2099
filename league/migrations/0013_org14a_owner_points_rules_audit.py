"""Issue 16.1 (teams belong to an owner), issue 21.3 (the whole points system stored), issue 14.2 (an audit
trail of the changes that are not results): the new columns and table. The data follows in 0014; the
constraints and the removal of the five points columns in 0015 (schema and data kept apart for PostgreSQL)."""

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import league.models


class Migration(migrations.Migration):

    dependencies = [
        ("league", "0012_live18_scoring"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="team",
            name="owner",
            field=models.ForeignKey(blank=True, help_text="Empty: a team of the site (the RWC nations).", null=True,
                                    on_delete=django.db.models.deletion.CASCADE, related_name="teams",
                                    to=settings.AUTH_USER_MODEL, verbose_name="owner"),
        ),
        migrations.AlterField(
            model_name="team",
            name="code",
            field=models.CharField(max_length=5, validators=[django.core.validators.RegexValidator(
                "^[A-Z0-9]{2,5}$", "Use 2 to 5 capital letters or digits, e.g. FRA.")], verbose_name="short code"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="points_rules",
            field=models.JSONField(blank=True, default=league.models.default_points_rules, verbose_name="points rules"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="points_system",
            field=models.CharField(choices=[
                ("world_rugby", "World Rugby (4/2/0 + bonus points)"),
                ("six_nations", "Six Nations (World Rugby + Grand Slam bonus)"),
                ("sevens", "Sevens (3/2/1, no bonus)"),
                ("top14", "Top 14 (bonus for 3 more tries, losing bonus within 5)"),
                ("premiership", "Premiership (4/2/0 + bonus points, wins first)"),
                ("rugby_league", "Rugby league (2/1/0, 2 for a bye)"),
                ("football", "Football (3/1/0)"),
                ("custom", "Custom")], default="world_rugby", max_length=20, verbose_name="points system"),
        ),
        migrations.CreateModel(
            name="AuditRecord",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("tournament_name", models.CharField(blank=True, max_length=120)),
                ("action", models.CharField(choices=[
                    ("settings_changed", "Settings changed"), ("organiser_added", "Co-organiser added"),
                    ("organiser_removed", "Co-organiser removed"), ("team_changed", "Team changed"),
                    ("entry_removed", "Team removed from the tournament"), ("entry_withdrawn", "Team withdrawn"),
                    ("entries_arranged", "Seeds or pools changed"), ("fixtures_deleted", "Fixtures deleted"),
                    ("tournament_deleted", "Tournament deleted")], max_length=30)),
                ("old", models.JSONField(blank=True, null=True)),
                ("new", models.JSONField(blank=True, null=True)),
                ("changed_at", models.DateTimeField(auto_now_add=True)),
                ("changed_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                 related_name="+", to=settings.AUTH_USER_MODEL)),
                ("team", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                           related_name="audit_records", to="league.team")),
                ("tournament", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                 related_name="audit_records", to="league.tournament")),
            ],
            options={
                "ordering": ["-changed_at", "-id"],
                "indexes": [models.Index(fields=["tournament", "changed_at"], name="league_audi_tournam_393a1b_idx"),
                            models.Index(fields=["team", "changed_at"], name="league_audi_team_id_a6f677_idx")],
            },
        ),
    ]
