"""The one action-string grammar of every rule set (``engine/core.py``): parse, format and round trips."""

import random

import pytest

import engine
from engine import Action, format_action, is_action, parse_action
from engine.players import make_player, seat_rng

GOOD = ["pass", "drop-goal", "card:4", "swap:th:2s", "play:prop-1:physical:left", "no-convert", "kick-double",
        "pair:lock-1:number-8-2", "a", "0", "x-1-y:2"]
BAD = ["", "Pass", "swap TH 2S", "swap:TH:2s", "kick_double", "swap as 2s", "card:", ":4", "card::4", "a--b",
       "-a", "a-", "play:prop-1:", "caf\u00e9", "tab\there", " pass", "pass "]


@pytest.mark.parametrize("text", GOOD)
def test_good_actions_round_trip(text):
    action = parse_action(text)
    assert isinstance(action, Action) and str(action) == text
    assert format_action(action.verb, *action.args) == text
    assert is_action(text)


@pytest.mark.parametrize("text", BAD)
def test_bad_actions_are_refused_with_the_text_named(text):
    assert not is_action(text)
    with pytest.raises(ValueError, match="not an action"):
        parse_action(text)


def test_format_checks_every_part_and_takes_numbers():
    assert format_action("card", 4) == "card:4"
    assert format_action("swap", "th", "2s") == "swap:th:2s"
    assert parse_action("card:4") == Action("card", ("4",))
    assert parse_action("pass") == Action("pass") and parse_action("pass").args == ()
    for verb, args in (("Swap", ()), ("swap", ("TH",)), ("kick_double", ()), ("card", ("",)), ("a b", ())):
        with pytest.raises(ValueError):
            format_action(verb, *args)
    assert not is_action(None) and not is_action(4)
    with pytest.raises(ValueError):
        parse_action(4)


@pytest.mark.parametrize("spec", engine.rulesets(), ids=lambda s: s.id)
def test_every_legal_action_of_every_rule_set_is_in_the_grammar(spec):
    """Random and aware play from several seeds: each legal action parses and formats back to itself."""
    seen = set()
    for seed, level in ((0, "random"), (1, "aware"), (2, "random")):
        state = engine.new_game(spec.id, seed=seed)
        players = {seat: make_player(spec.id, level) for seat in (0, 1)}
        rngs = {seat: seat_rng(seed, seat) for seat in (0, 1)}
        rng = random.Random(seed)
        while state.to_act():
            acting = state.to_act()
            for seat in acting:
                for action in state.legal_actions(seat):
                    if action not in seen:
                        parsed = parse_action(action)
                        assert format_action(parsed.verb, *parsed.args) == action
                        seen.add(action)
            seat = acting[rng.randrange(len(acting))]
            player = players[seat]
            view = state.view(seat) if player.needs_view else None
            state.apply(seat, player.choose(view, state.legal_actions(seat), rngs[seat]))
        assert all(is_action(action) for _seat, action in state.history)
    assert seen
