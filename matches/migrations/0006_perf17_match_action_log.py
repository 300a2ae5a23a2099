"""Issue 17: a simulated match keeps its whole ordered action log in its own row (one write per match)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0005_players20_computer_levels'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='action_log',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]
