"""Stored matches survive the move to one action grammar (issue 13): the data migration rewrites old logs and
snapshots, and they replay to the same state.

``tests/data/pre_issue13_match_logs.json`` was written by the engine just before the change (commit 3742eeb): for
each rule set, a match up to ply 60 or its end (its log, its snapshot at ply 30 and its full saved state) and a
whole match (its log and outcome), all in the old action strings (``kick_double``, ``swap AS 2S``,
``play prop-1 physical``...).
"""

import importlib
import json
import random
from pathlib import Path

import pytest
from django.apps import apps

import engine
from engine import is_action
from engine.players import make_player, seat_rng
from matches import services
from matches.models import Match, MatchAction

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
OLD_LOGS = json.loads((ROOT / "tests" / "data" / "pre_issue13_match_logs.json").read_text())["matches"]
# Found by its distinctive name (its number may change when migrations are linearised).
(MIGRATION_FILE,) = (ROOT / "matches" / "migrations").glob("*_engine_action_grammar.py")
migration = importlib.import_module(f"matches.migrations.{MIGRATION_FILE.stem}")


def _store(record: dict) -> Match:
    """A match as the old code stored it: its log of old action strings and, if any, its old snapshot."""
    match = Match.objects.create(ruleset=record["ruleset"], seed=record["seed"], options=record["options"],
                                 ply=len(record["actions"]), snapshot=record.get("snapshot"),
                                 snapshot_ply=record.get("snapshot_ply"))
    MatchAction.objects.bulk_create([MatchAction(match=match, ply=n, seat=seat, action=action)
                                     for n, (seat, action) in enumerate(record["actions"], start=1)])
    return match


def _log(match: Match) -> list[list]:
    return [list(row) for row in match.actions.order_by("ply").values_list("seat", "action")]


def _wordless(saved: dict) -> dict:
    """A saved state without its commentary lines: their wording may change (issue 19 writes the card game's
    cards with the board's suit symbols, A♥ for AH), the position, history and event data may not. A cached
    snapshot keeps the words it was saved with. Nor its rules version: a rule set's version moves on when any of
    its rules changes (Bokx's touch-in-goal restart, issue 20), and a match stored with the old version is then
    archived by the site (``rules_current``); these logs never reach that rule, so they replay all the same."""
    return {**saved, "rules_version": None,
            "events": [{k: v for k, v in e.items() if k != "text"} for e in saved["events"]]}


@pytest.mark.parametrize("record", OLD_LOGS, ids=lambda r: f"{r['ruleset']}-{r['seed']}")
def test_an_old_log_migrates_and_replays_to_the_same_state(record):
    match = _store(record)
    migration.forwards(apps, None)
    match.refresh_from_db()
    log = _log(match)
    assert [seat for seat, _ in log] == [seat for seat, _ in record["actions"]]
    assert all(is_action(action) for _, action in log)
    if record["ruleset"] != "rugby-league-cards":  # the card game's actions were in the grammar already
        assert log != record["actions"]

    # From the seed and the migrated log alone...
    replayed = engine.replay(record["ruleset"], seed=record["seed"], options=record["options"], actions=log)
    assert replayed.outcome().to_dict() == record["outcome"]
    assert replayed.is_over == record["over"]
    # ...and through the site's own path, which starts from the migrated snapshot when there is one.
    state = services.match_state(match)
    assert _wordless(state.to_dict()) == _wordless(replayed.to_dict())
    if "final" in record:
        # The whole saved state, events and history included, is the old one in the new strings.
        expected = migration.convert_snapshot(record["ruleset"], record["final"], migration.new_action)
        assert _wordless(state.to_dict()) == _wordless(expected)
        assert state.state_dict() == record["final"]["state"], "the position itself did not change"
        ply = record["snapshot_ply"]
        middle = engine.replay(record["ruleset"], seed=record["seed"], options=record["options"], actions=log[:ply])
        assert _wordless(middle.to_dict()) == _wordless(match.snapshot), \
            "the migrated snapshot is what a replay gives today"

    # Forwards twice changes nothing; backwards gives back exactly what was stored.
    migration.forwards(apps, None)
    match.refresh_from_db()
    assert _log(match) == log
    migration.backwards(apps, None)
    match.refresh_from_db()
    assert _log(match) == record["actions"]
    assert match.snapshot == record.get("snapshot")


@pytest.mark.parametrize("spec", engine.rulesets(), ids=lambda s: s.id)
def test_the_migration_maps_every_action_of_today_back_and_forth(spec):
    """Every action a game of today plays survives the reverse mapping and the forward one."""
    for seed in range(3):
        state = engine.new_game(spec.id, seed=seed)
        players = {seat: make_player(spec.id, "aware" if seed % 2 else "random") for seat in (0, 1)}
        rngs = {seat: seat_rng(seed, seat) for seat in (0, 1)}
        rng = random.Random(seed)
        while state.to_act():
            acting = state.to_act()
            for seat in acting:
                for action in state.legal_actions(seat):
                    old = migration.old_action(spec.id, action)
                    assert migration.new_action(spec.id, old) == action
                    assert migration.new_action(spec.id, action) == action
            seat = acting[rng.randrange(len(acting))]
            player = players[seat]
            view = state.view(seat) if player.needs_view else None
            state.apply(seat, player.choose(view, state.legal_actions(seat), rngs[seat]))
        saved = state.to_dict()
        old = migration.convert_snapshot(spec.id, saved, migration.old_action)
        assert migration.convert_snapshot(spec.id, old, migration.new_action) == saved
