"""Same seeds, same games: a pin against "optimisations" that change play (issue 17 item 5).

The engine is made faster without changing *what* it plays: for the same seed and players a match must make
exactly the same actions, events, outcome and ``to_dict()`` (stored matches are replayed under the same
``rules_version``). Each digest below is a SHA-256 over 200 seeded matches (seeds 0..199) of one rule set
between two players of one level: per match, the JSON of ``state.to_dict()`` (history, events with their
commentary, chance state, position) and of ``outcome().to_dict()``.

The digests were computed from main **before** the speed work of perf17d (commit b7ef7bb), with this file's
own ``match_digest``. If a change is *meant* to change play (new rules, a stronger club player), bump the rule
set's ``rules_version`` or say so in the commit, and recompute the digests deliberately -- never to make a
speed-up pass.
"""

import hashlib
import json

import pytest

from engine.players import make_player, play_match
from engine.registry import get_ruleset, new_game

SEEDS = 200

DIGESTS = {
    ("rugby-league-cards", "club"): "32f89db7db69ce3d4b24607dde6670ccc637158d07441b4010f39836783f69b1",
    ("rugby-league-cards", "random"): "fc90abf2737ed4b96dccf23bf986c210ba8af461fbeccbdb65f9334e67f4b0a0",
    ("rugby-league-cards", "beginner"): "836af06dfc202a391f10e723fe8b2ceec267f423a736ebb0e238069c14b1150f",
    ("bokx", "club"): "fc179b1b0f49ac32086d42ac9ffc3a3dfb00a152795cb599fc1504b90a16299b",
    ("bokx", "random"): "b86a3229a7b7719cad013530dc5effbb5d4e79b471dae62915a0cbdb524fce1b",
    ("bokx", "beginner"): "75b5a9d8cb6080f9c4932c62d3df37573f9ce6e37d9b8f8051fe979a370916e5",
    ("seasons", "club"): "b436a881e2f6b9c877c79705f539ce4d7aac880a5f46be31d03f053047ae1276",
    ("seasons", "random"): "d87a01872d526d99615e25096d306d1e86500ec781bbb8ad5d114237bd2a59ca",
    ("seasons", "beginner"): "7810646d6d4317034d6f40105478ed0a1081243665d02ffc70b5a348fd4b7209",
    ("rugby-champion-solo", "club"): "04aeea7147ea32cf862478926e4877a46acf8060b15ac3dc82df476704c60b90",
    ("rugby-champion-solo", "random"): "0c0c5aaa50ad79e432a48f1e8b15280d458679e81d87421910ee1a9b4cf3dd2e",
    ("rugby-champion-solo", "beginner"): "9a203d1cfd133c7eb39e1240643fb5511b8e45984065c48454d9ff7d74fa8ded",
}


def match_digest(ruleset: str, level: str, *, checked: bool = False, seeds: int = SEEDS) -> str:
    """SHA-256 over the saved state and outcome of the matches with seeds 0..seeds-1 between ``level`` players."""
    digest = hashlib.sha256()
    seats = get_ruleset(ruleset).spec.person_seats
    for seed in range(seeds):
        state = play_match(new_game(ruleset, seed=seed), {s: make_player(ruleset, level) for s in seats},
                           checked=checked)
        digest.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        digest.update(json.dumps(state.outcome().to_dict(), sort_keys=True, default=str).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("ruleset", "level"), sorted(DIGESTS), ids=[f"{r}-{lv}" for r, lv in sorted(DIGESTS)])
def test_the_same_seeds_play_the_same_matches_as_before_the_speed_work(ruleset, level):
    assert match_digest(ruleset, level) == DIGESTS[ruleset, level]


@pytest.mark.parametrize("ruleset", sorted({r for r, _level in DIGESTS}))
def test_the_checked_path_plays_the_same_club_matches_as_the_lean_path(ruleset):
    """``apply`` (legality checked, as the site plays) and ``advance`` (the simulations' lean path) agree."""
    assert match_digest(ruleset, "club", checked=True) == DIGESTS[ruleset, "club"]


@pytest.mark.parametrize("ruleset", sorted({r for r, _level in DIGESTS}))
def test_a_match_played_without_events_makes_the_same_actions_position_and_outcome(ruleset):
    """``play_match(..., events=False)`` (the simulations' path: they store the action log and the outcome)
    keeps no events from its actions and changes nothing else: the same history, position, chance state and outcome."""
    seats = get_ruleset(ruleset).spec.person_seats
    for seed in range(60):
        for level in ("club", "random"):
            full = play_match(new_game(ruleset, seed=seed), {s: make_player(ruleset, level) for s in seats})
            lean = new_game(ruleset, seed=seed)
            before = list(lean.events)  # what the deal at the start said, before play_match
            play_match(lean, {s: make_player(ruleset, level) for s in seats}, events=False)
            assert len(full.events) > len(before) and lean.events == before
            assert lean.history == full.history
            assert lean.state_dict() == full.state_dict()
            assert lean.chance.to_dict() == full.chance.to_dict()
            assert lean.outcome() == full.outcome()


def test_a_searching_player_keeps_the_events_its_determinisations_read():
    state = new_game("rugby-league-cards", seed=3, options={"sets_per_half": 1})
    players = {0: make_player("rugby-league-cards", "international", iterations=4),
               1: make_player("rugby-league-cards", "club")}
    assert play_match(state, players, events=False).events
