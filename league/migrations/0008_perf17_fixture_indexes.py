"""Issue 17: the (tournament, stage) index advancement reads by; the tournament-only index it makes redundant."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0007_players20_computer_levels'),
    ]

    operations = [
        # The new index first, then the one it makes redundant goes (never a moment without either).
        migrations.AddIndex(
            model_name='fixture',
            index=models.Index(fields=['tournament', 'stage'], name='fixture_tournament_stage'),
        ),
        migrations.AlterField(
            model_name='fixture',
            name='tournament',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='fixtures', to='league.tournament'),
        ),
    ]
