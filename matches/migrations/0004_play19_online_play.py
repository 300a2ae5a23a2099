"""Issue 19: online play's audit trail (``MatchEvent``), the move clock, draw offers, and each match's rules version.

``Match.rules_version`` of the existing matches comes from their cached engine state (``snapshot``, which
``GameState.to_dict`` stamps with the rules version it was saved under); a match without a snapshot keeps an
empty version (unknown: its pages try today's engine and fall back to what was stored if it cannot replay).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models.fields.json import KeyTextTransform


def fill_rules_version(apps, schema_editor) -> None:
    Match = apps.get_model("matches", "Match")
    Match.objects.filter(snapshot__has_key="rules_version").update(
        rules_version=KeyTextTransform("rules_version", "snapshot"))


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_engine_action_grammar'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='draw_offer',
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='move_clock',
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name='move clock (seconds)'),
        ),
        migrations.AddField(
            model_name='match',
            name='moved_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='match',
            name='rules_version',
            field=models.CharField(blank=True, max_length=20, verbose_name='rules version'),
        ),
        migrations.CreateModel(
            name='MatchEvent',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ply', models.PositiveIntegerField()),
                ('seat', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('kind', models.CharField(choices=[('joined', 'Took a seat'), ('resigned', 'Resigned'), ('draw_offered', 'Offered a draw'), ('draw_accepted', 'Accepted the draw'), ('draw_declined', 'Declined the draw'), ('clock', 'Ran out of time: the computer plays the seat'), ('replaced', 'The organiser gave the seat to the computer'), ('abandoned', 'The organiser abandoned the match')], max_length=16)),
                ('data', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='events', to='matches.match')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['match', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('seat__isnull', True), ('seat__in', [0, 1]), _connector='OR'), name='matchevent_seat_0_or_1')],
            },
        ),
        migrations.RunPython(fill_rules_version, migrations.RunPython.noop, elidable=False),
    ]
