"""Issue 14: why a simulation run stopped short or failed, stored as a code and parameters (shown translated)."""

import re

from django.db import migrations, models

# The English sentences runs were noted with before the codes (never translated), and their codes. Anything
# else stays as stored in ``error`` and is shown as stored.
NOTES = [
    ("stuck", re.compile(r"(?P<count>\d+) fixture\(s\) could not be simulated: their teams are not known or people "
                         r"are playing them\.", re.S)),
    ("not_queued", re.compile(r"The simulation could not be queued for the workers \((?P<detail>.*)\)\. Is the "
                              r"broker running\?", re.S)),
    ("fixture_failed", re.compile(r"fixture (?P<fixture>\d+): (?P<detail>.*)", re.S)),
]
TEXTS = {
    "stuck": "%(count)s fixture(s) could not be simulated: their teams are not known or people are playing them.",
    "not_queued": "The simulation could not be queued for the workers (%(detail)s). Is the broker running?",
    "fixture_failed": "fixture %(fixture)s: %(detail)s",
}


def codes_forward(apps, schema_editor):
    SimulationRun = apps.get_model("matches", "SimulationRun")
    for run in SimulationRun.objects.filter(error_code="").exclude(error="").iterator():
        for code, pattern in NOTES:
            found = pattern.fullmatch(run.error)
            if found:
                params = found.groupdict()
                for key in ("count", "fixture"):
                    if key in params:
                        params[key] = int(params[key])
                run.error, run.error_code, run.error_params = "", code, params
                run.save(update_fields=["error", "error_code", "error_params"])
                break


def codes_backward(apps, schema_editor):
    SimulationRun = apps.get_model("matches", "SimulationRun")
    for run in SimulationRun.objects.exclude(error_code="").iterator():
        try:
            run.error = TEXTS[run.error_code] % run.error_params
        except (KeyError, TypeError, ValueError):
            run.error = run.error_code
        run.save(update_fields=["error"])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0006_perf17_match_action_log'),
    ]

    operations = [
        migrations.AddField(
            model_name='simulationrun',
            name='error_code',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='simulationrun',
            name='error_params',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(codes_forward, codes_backward),
    ]
