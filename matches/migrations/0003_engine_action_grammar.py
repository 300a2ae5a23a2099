"""Issue 13: every rule set writes its actions in one grammar (``engine/core.py``): ``verb`` or
``verb:arg[:arg...]``, each part a lowercase id of letters and digits joined by hyphens.

This rewrites what is stored in the old strings: the match logs (``MatchAction.action``) and the cached
engine states (``Match.snapshot``: its ``history``, and the Bokx events that quote the action chosen).

* ``bokx``: underscores become hyphens (``kick_double`` -> ``kick-double``; likewise ``run_on``,
  ``drop_goal``, ``tap_backs``, ``tap_forwards``, ``kick_off``);
* ``seasons``: ``swap AS 2S`` -> ``swap:as:2s`` (``pass`` is unchanged);
* ``rugby-champion-solo``: spaces become colons (``play prop-1 physical left`` ->
  ``play:prop-1:physical:left``, ``pair a b`` -> ``pair:a:b``, ``convert c`` -> ``convert:c``);
* ``rugby-league-cards``: unchanged (``card:4``, ``drop-goal``... were in the grammar already).

No game changes: the same seed and log replay to the same match. Reversible, and both directions are
idempotent (running one twice changes nothing more). Self-contained on purpose -- it does not import the
engine, so it keeps meaning what it meant when the engine moves on -- which is why it names the rule sets
whose old logs it rewrites. Odds samples (``ScoreModel``) hold scores only and need nothing.
"""

from django.db import migrations

# The Bokx events whose data quotes the action taken: (event kind, data key).
BOKX_ACTION_EVENTS = {("call", "call"), ("turnover", "call"), ("toss_choice", "choice")}


def new_action(ruleset: str, action: str) -> str:
    """An action string of the old grammar in the new one (unchanged if it is new already)."""
    if ruleset == "bokx":
        return action.replace("_", "-")
    if ruleset == "seasons":
        return action.replace(" ", ":").lower()
    if ruleset == "rugby-champion-solo":
        return action.replace(" ", ":")
    return action


def old_action(ruleset: str, action: str) -> str:
    """The reverse of :func:`new_action` (unchanged if it is old already)."""
    if ruleset == "bokx":
        return action.replace("-", "_")
    if ruleset == "seasons":
        verb, *cards = action.split(":")
        return " ".join([verb, *(card.upper() for card in cards)])
    if ruleset == "rugby-champion-solo":
        return action.replace(":", " ")
    return action


def convert_snapshot(ruleset: str, snapshot, convert):
    """A saved engine state (``GameState.to_dict()``) with its action strings passed through ``convert``."""
    if not isinstance(snapshot, dict):
        return snapshot
    snapshot = dict(snapshot)
    snapshot["history"] = [[seat, convert(ruleset, action)] for seat, action in snapshot.get("history", [])]
    if ruleset == "bokx":
        events = []
        for event in snapshot.get("events", []):
            data = event.get("data") or {}
            keys = [key for kind, key in BOKX_ACTION_EVENTS if event.get("kind") == kind and key in data]
            if keys:
                data = dict(data)
                for key in keys:
                    data[key] = convert(ruleset, data[key])
                event = dict(event, data=data)
            events.append(event)
        snapshot["events"] = events
    return snapshot


def _rewrite(apps, convert) -> None:
    Match = apps.get_model("matches", "Match")
    MatchAction = apps.get_model("matches", "MatchAction")
    changed = []
    for row in MatchAction.objects.select_related("match").only("id", "action", "match__ruleset").iterator():
        action = convert(row.match.ruleset, row.action)
        if action != row.action:
            row.action = action
            changed.append(row)
        if len(changed) >= 1000:
            MatchAction.objects.bulk_update(changed, ["action"])
            changed = []
    MatchAction.objects.bulk_update(changed, ["action"])
    for match in Match.objects.exclude(snapshot=None).only("id", "ruleset", "snapshot").iterator():
        snapshot = convert_snapshot(match.ruleset, match.snapshot, convert)
        if snapshot != match.snapshot:
            Match.objects.filter(pk=match.pk).update(snapshot=snapshot)


def forwards(apps, schema_editor) -> None:
    _rewrite(apps, new_action)


def backwards(apps, schema_editor) -> None:
    _rewrite(apps, old_action)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0002_qualificationodds_scoremodel_simulationrun"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards, elidable=False),
    ]
