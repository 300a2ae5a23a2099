"""Issue 14: the site's own result-change reasons, schedule and registration summaries and fixture jobs' notes
stored as a code and parameters (shown in each reader's language)."""

import contextlib
import re

from django.db import migrations, models
from django.utils import translation
from django.utils.translation import gettext_noop

# --- data: the site's own sentences stored before the codes become codes ------------------------------------------
#
# Result-change reasons were always stored in English (plain literals). Schedule summaries were translated when
# saved, so a summary may be in English, Afrikaans or French: each template is matched in the three languages.
# A text that matches nothing (an organiser's own words, a sentence of an older version) stays as stored and is
# shown as stored. The templates are copied here (not imported) so that this migration keeps meaning the same.

LANGUAGES = ("en", "af", "fr")
BATCH = 2000

REASONS = [  # (code, pattern on the stored English reason, parameters that are whole numbers)
    ("live_full_time", r"Full time of the live score\.", ()),
    ("live_confirmed", r"Live score confirmed by an organiser\.", ()),
    ("csv_import", r"CSV import", ()),
    ("simulated_match", r"simulated match (?P<match>\d+)", ("match",)),
    ("simulated_score", r"simulated score \(seed (?P<seed>\d+)\)", ("seed",)),
    ("online_match", r"online match (?P<match>\d+)", ("match",)),
    ("online_resigned", r"online match (?P<match>\d+): (?P<side>home|away) resigned", ("match",)),
    ("online_draw_agreed", r"online match (?P<match>\d+): (?P<side>home|away) agreed a draw with the other side",
     ("match",)),
    ("bracket_reset", r"Reset: an earlier result was corrected\.", ()),
    ("reset_from", r"Reset from (?P<fixture>.+) by the organiser\.", ()),
    ("withdrew_voided", r"(?P<team>.+) withdrew\. Played results voided\.", ()),
    ("withdrew", r"(?P<team>.+) withdrew\.", ()),
    ("demo", r"demo data", ()),
]
REASON_TEXTS = {
    "live_full_time": "Full time of the live score.", "live_confirmed": "Live score confirmed by an organiser.",
    "csv_import": "CSV import", "simulated_match": "simulated match %(match)s",
    "simulated_score": "simulated score (seed %(seed)s)", "online_match": "online match %(match)s",
    "online_resigned": "online match %(match)s: %(side)s resigned",
    "online_draw_agreed": "online match %(match)s: %(side)s agreed a draw with the other side",
    "bracket_reset": "Reset: an earlier result was corrected.",
    "reset_from": "Reset from %(fixture)s by the organiser.",
    "withdrew": "%(team)s withdrew.", "withdrew_voided": "%(team)s withdrew. Played results voided.",
    "demo": "demo data",
}

SUMMARIES = {  # code: the msgid it was saved with (translated at the time)
    "retimed": "%(count)s fixtures scheduled from %(when)s.",
    "retimed_no_day": "%(count)s fixtures given pitches (no first day yet).",
    "moved": "%(fixture)s moved to %(when)s%(where)s.",
    "pushed": "%(count)s fixtures from %(time)s on %(day)s moved by %(minutes)s minutes.",
    "swapped": "%(first)s and %(second)s swapped.",
    "zone": "Time zone changed from %(old)s to %(new)s; kick-offs keep their local times.",
    "event_scheduled": "The day scheduled: %(count)s fixtures from %(when)s.",
    "event_pushed": "The day: %(count)s fixtures from %(time)s on %(day)s moved by %(minutes)s minutes.",
    "event_day_moved": "The event's day moved from %(old)s to %(new)s.",
}
# What each parameter may look like (a kick-off label has no comma; the pitch comes after one).
GROUPS = {"count": r"\d+", "minutes": r"[+-]?\d+", "when": r"[^,]+?", "where": r"(?:, .+)?",
          "time": r"\d\d:\d\d", "day": r"\d{4}-\d\d-\d\d", "old": r".+?", "new": r".+?"}
PLACEHOLDER = re.compile(r"%\\\((\w+)\\\)s")


def _pattern(template, groups=GROUPS):
    escaped = re.escape(template)
    return re.compile("^" + PLACEHOLDER.sub(lambda m: f"(?P<{m.group(1)}>{groups.get(m.group(1), '.+?')})",
                                            escaped) + "$", re.S)


def _summary_patterns():
    patterns, undecided = [], set()
    for language in LANGUAGES:
        with translation.override(language):
            undecided.add(translation.gettext("a time to be decided"))
            for code, msgid in SUMMARIES.items():
                patterns.append((code, _pattern(translation.gettext(msgid))))
    return patterns, undecided


def _match_reason(text):
    for code, pattern, numbers in REASONS:
        found = re.fullmatch(pattern, text, re.S)
        if found:
            params = found.groupdict()
            return code, {key: int(value) if key in numbers else value for key, value in params.items()}
    return None


def codes_forward(apps, schema_editor):
    ResultChange = apps.get_model("league", "ResultChange")
    ScheduleChange = apps.get_model("league", "ScheduleChange")
    batch = []
    for change in ResultChange.objects.filter(reason_code="").exclude(reason="").only("pk", "reason").iterator():
        found = _match_reason(change.reason)
        if found:
            change.reason_code, change.reason_params = found
            change.reason = ""
            batch.append(change)
        if len(batch) >= BATCH:
            ResultChange.objects.bulk_update(batch, ["reason", "reason_code", "reason_params"])
            batch = []
    ResultChange.objects.bulk_update(batch, ["reason", "reason_code", "reason_params"])
    patterns, undecided = _summary_patterns()
    batch = []
    for change in ScheduleChange.objects.filter(summary_code="").exclude(summary="").select_related(
            "tournament").iterator():
        for code, pattern in patterns:
            found = pattern.match(change.summary)
            if found:
                params = found.groupdict()
                if "count" in params:
                    params["count"] = int(params["count"])
                if "when" in params and params["when"] in undecided:
                    params["when"] = None  # shown again as "a time to be decided" in the reader's language
                if "when" in params:
                    params["tz"] = change.tournament.time_zone
                if "where" in params:
                    params["where"] = params["where"] or ""
                change.summary_code, change.summary_params, change.summary = code, params, ""
                batch.append(change)
                break
    ScheduleChange.objects.bulk_update(batch, ["summary", "summary_code", "summary_params"], batch_size=BATCH)


# The sentences registrations were saved with are no longer in the code: marked here (gettext_noop) so that the
# catalogues keep their Afrikaans and French, which this migration must recognise.
REGISTERED = gettext_noop("%(player)s registered (%(where)s).")
MOVED_UP = gettext_noop("%(player)s moved up from the waiting list (%(why)s).")
DRAWN = gettext_noop("%(count)s players drawn in %(division)s (%(method)s%(seed)s).")
REMOVED_WHY = gettext_noop("%(player)s removed")
REGISTRATION_SUMMARIES = {  # code: the msgid it was saved with (translated at the time), and fixed parameters
    "approved": ("%(player)s approved.", {}),
    "removed": ("%(player)s removed.", {}),
    "edited": ("%(player)s edited: %(fields)s.", {}),
    "settings": ("Registration: %(what)s.", {}),
    "registered_waiting": (REGISTERED, {"where": gettext_noop("on the waiting list")}),
    "registered_place": (REGISTERED, {"where": gettext_noop("holds a place")}),
    "moved_up_more_places": (MOVED_UP, {"why": gettext_noop("more places")}),
    "moved_up_after_removal": (MOVED_UP, {}),
    "drawn": (DRAWN, {"seed": ""}),
    "drawn_seed": (DRAWN, {}),
}
REGISTRATION_GROUPS = {"count": r"\d+", "seed": r"(?:, \w+ \d+)?"}
METHODS = {"choice": "Players' choice", "random": "Random draw", "dice": "Dice throws"}


def _registration_patterns():
    """(code, pattern, fixed parameters in that language, method labels in that language) in every language."""
    patterns = []
    for language in LANGUAGES:
        with translation.override(language):
            methods = {translation.gettext(label): code for code, label in METHODS.items()}
            removed = _pattern(translation.gettext(REMOVED_WHY), REGISTRATION_GROUPS)
            for code, (msgid, fixed) in REGISTRATION_SUMMARIES.items():
                patterns.append((code, _pattern(translation.gettext(msgid), REGISTRATION_GROUPS),
                                 {key: translation.gettext(value) if value else "" for key, value in fixed.items()},
                                 methods, removed))
    return patterns


def _registration_code(text, patterns):
    for code, pattern, fixed, methods, removed in patterns:
        found = pattern.match(text)
        if not found:
            continue
        params = found.groupdict()
        if any(params.get(key) != value for key, value in fixed.items()):
            continue
        for key in fixed:
            params.pop(key)
        if code == "moved_up_after_removal":
            who = removed.match(params.pop("why"))
            if not who:
                continue
            params["removed"] = who.group("player")
        if code.startswith("drawn"):
            if params["method"] not in methods:
                continue
            params["method"] = methods[params["method"]]
            params["count"] = int(params["count"])
            if code == "drawn_seed":
                seed = re.fullmatch(r", \w+ (\d+)", params["seed"])
                if not seed:
                    continue
                params["seed"] = int(seed.group(1))
        return code, params
    return None


def registration_codes_forward(apps, schema_editor):
    RegistrationChange = apps.get_model("league", "RegistrationChange")
    patterns = _registration_patterns()
    batch = []
    for change in RegistrationChange.objects.filter(summary_code="").exclude(summary="").iterator():
        found = _registration_code(change.summary, patterns)
        if found:
            change.summary_code, change.summary_params = found
            change.summary = ""
            batch.append(change)
    RegistrationChange.objects.bulk_update(batch, ["summary", "summary_code", "summary_params"], batch_size=BATCH)


def registration_codes_backward(apps, schema_editor):
    RegistrationChange = apps.get_model("league", "RegistrationChange")
    for change in RegistrationChange.objects.exclude(summary_code="").iterator():
        msgid, fixed = REGISTRATION_SUMMARIES.get(change.summary_code, ("%(code)s", {}))
        params = {"code": change.summary_code, **fixed, **change.summary_params}
        if change.summary_code == "moved_up_after_removal":
            params["why"] = f"{params.get('removed')} removed"
        if change.summary_code == "drawn_seed":
            params["seed"] = f", seed {params.get('seed')}"
        params["method"] = METHODS.get(params.get("method"), params.get("method"))
        try:
            change.summary = (msgid % params)[:300]
        except (KeyError, TypeError, ValueError):
            change.summary = change.summary_code
        change.save(update_fields=["summary"])


JOB_NOTES = [  # a fixture job's English note before the codes (never translated)
    ("unreachable", re.compile(r"The workers could not be reached: nothing was generated\. Try again\.")),
    ("crashed", re.compile(r"The generation failed: (?P<detail>.*)", re.S)),
]
JOB_TEXTS = {"unreachable": "The workers could not be reached: nothing was generated. Try again.",
             "crashed": "The generation failed: %(detail)s", "refused": "%(detail)s"}


def job_codes_forward(apps, schema_editor):
    FixtureJob = apps.get_model("league", "FixtureJob")
    for job in FixtureJob.objects.filter(error_code="").exclude(error="").iterator():
        for code, pattern in JOB_NOTES:
            found = pattern.fullmatch(job.error)
            if found:
                job.error, job.error_code, job.error_params = "", code, found.groupdict()
                job.save(update_fields=["error", "error_code", "error_params"])
                break


def job_codes_backward(apps, schema_editor):
    FixtureJob = apps.get_model("league", "FixtureJob")
    for job in FixtureJob.objects.exclude(error_code="").iterator():
        try:
            job.error = JOB_TEXTS[job.error_code] % job.error_params
        except (KeyError, TypeError, ValueError):
            job.error = job.error_code
        job.save(update_fields=["error"])


def codes_backward(apps, schema_editor):
    """Back to sentences (in English) before the code columns go."""
    ResultChange = apps.get_model("league", "ResultChange")
    ScheduleChange = apps.get_model("league", "ScheduleChange")
    for change in ResultChange.objects.exclude(reason_code="").iterator():
        text = REASON_TEXTS.get(change.reason_code, change.reason_code)
        with contextlib.suppress(KeyError, TypeError, ValueError):
            text = text % change.reason_params
        change.reason = (f"{text} {change.reason}" if change.reason else text)[:200]
        change.save(update_fields=["reason"])
    for change in ScheduleChange.objects.exclude(summary_code="").iterator():
        params = dict(change.summary_params)
        if "when" in params:
            params["when"] = params["when"] or "a time to be decided"
        try:
            change.summary = (SUMMARIES[change.summary_code] % params)[:300]
        except (KeyError, TypeError, ValueError):
            change.summary = change.summary_code
        change.save(update_fields=["summary"])


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0019_events22_money'),
    ]

    operations = [
        migrations.AddField(
            model_name='resultchange',
            name='reason_code',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='resultchange',
            name='reason_params',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='schedulechange',
            name='summary_code',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='schedulechange',
            name='summary_params',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name='schedulechange',
            name='summary',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='registrationchange',
            name='summary_code',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='registrationchange',
            name='summary_params',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AlterField(
            model_name='registrationchange',
            name='summary',
            field=models.CharField(blank=True, max_length=300),
        ),
        migrations.AddField(
            model_name='fixturejob',
            name='error_code',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AddField(
            model_name='fixturejob',
            name='error_params',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(codes_forward, codes_backward),
        migrations.RunPython(job_codes_forward, job_codes_backward),
        migrations.RunPython(registration_codes_forward, registration_codes_backward),
    ]
