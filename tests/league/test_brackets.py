"""Knockout plans: single elimination, crossovers after pools, RWC 2023, Cup/Plate/Bowl (pure, no database)."""

import math
import random

import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from league.brackets import (
    bracket_size,
    crossover_entrants,
    knockout,
    losers_knockout,
    pools_knockout,
    rwc2023_knockout,
    seed_order,
    source_label,
    tiered_knockouts,
)


def play_out(plan, rng):
    """Play a plan with random winners: {code: (home, away, winner, loser)} with teams as sources."""
    played = {}

    def resolve(source):
        kind, _, code = source.partition(":")
        if kind == "winner":
            return played[code][2]
        if kind == "loser":
            return played[code][3]
        return source

    for match in sorted(plan.matches, key=lambda m: (m.round_number, m.slot)):
        home, away = resolve(match.home_source), resolve(match.away_source)
        winner, loser = (home, away) if rng.random() < 0.5 else (away, home)
        played[match.code] = (home, away, winner, loser, match.round_number)
    return played


def test_seed_order_keeps_top_seeds_apart():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(2) == [1, 2]
    with pytest.raises(ValueError):
        seed_order(6)


def test_eight_teams_standard_pairings():
    plan = knockout([f"seed:{i}" for i in range(1, 9)])
    qfs = [(m.home_source, m.away_source) for m in plan.matches if m.round_number == 1]
    assert qfs == [("seed:1", "seed:8"), ("seed:4", "seed:5"), ("seed:2", "seed:7"), ("seed:3", "seed:6")]
    assert [m.code for m in plan.matches] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F"]
    assert plan.byes == []


def test_six_teams_byes_go_to_top_two_seeds():
    plan = knockout([f"seed:{i}" for i in range(1, 7)], third_place=True)
    assert plan.byes == ["seed:1", "seed:2"]
    first = [(m.code, m.home_source, m.away_source) for m in plan.matches if m.round_number == 1]
    assert first == [("QF1", "seed:4", "seed:5"), ("QF2", "seed:3", "seed:6")]
    sf = [(m.code, m.home_source, m.away_source) for m in plan.matches if m.round_number == 2]
    assert sf == [("SF1", "seed:1", "winner:QF1"), ("SF2", "seed:2", "winner:QF2")]
    bronze = plan.match("BF")
    assert (bronze.home_source, bronze.away_source, bronze.round_name) == ("loser:SF1", "loser:SF2", "Bronze final")


def test_two_and_three_teams():
    two = knockout(["seed:1", "seed:2"], third_place=True)
    assert [(m.code, m.round_name) for m in two.matches] == [("F", "Final")]
    three = knockout(["seed:1", "seed:2", "seed:3"], third_place=True)
    assert [m.code for m in three.matches] == ["SF1", "F"]  # one semi-final: no bronze final possible
    assert three.byes == ["seed:1"]


def test_knockout_refuses_too_few_or_repeated_teams():
    with pytest.raises(ValueError):
        knockout(["seed:1"])
    with pytest.raises(ValueError):
        knockout(["seed:1", "seed:1"])


@hsettings(max_examples=120)
@given(n=st.integers(min_value=2, max_value=64), third=st.booleans(), coin=st.integers(0, 2**32))
def test_single_elimination_properties(n, third, coin):
    plan = knockout([f"seed:{i}" for i in range(1, n + 1)], third_place=third)
    rounds = math.ceil(math.log2(n))
    size = bracket_size(n)
    assert plan.rounds == rounds
    assert len(plan.byes) == size - n
    # Byes go to the top seeds.
    assert sorted(int(s.split(":")[1]) for s in plan.byes) == list(range(1, size - n + 1))
    real = [m for m in plan.matches if m.code != "BF"]
    assert len(real) == n - 1  # every match but the final knocks one team out
    assert (plan.match("BF") is not None) if (third and n >= 4) else all(m.code != "BF" for m in plan.matches)
    played = play_out(plan, random.Random(coin))
    per_round = {}
    for home, away, _winner, _loser, rnd in played.values():
        assert home != away
        teams = per_round.setdefault(rnd, [])
        teams += [home, away]
    for teams in per_round.values():
        assert len(teams) == len(set(teams)), "a team plays twice in one round"
    # Seeds 1 and 2 can only meet in the final (or, both beaten in the semi-finals, the bronze final).
    for code, (home, away, *_rest) in played.items():
        if {home, away} == {"seed:1", "seed:2"}:
            assert code in ("F", "BF")
    # Every team enters: in round one or through a bye.
    first_round = {s for m in plan.matches if m.round_number == 1 for s in (m.home_source, m.away_source)}
    assert first_round | set(plan.byes) == {f"seed:{i}" for i in range(1, n + 1)}


@hsettings(max_examples=60)
@given(n=st.integers(min_value=2, max_value=64))
def test_top_seeds_meet_in_final_when_favourites_win(n):
    plan = knockout([f"seed:{i}" for i in range(1, n + 1)])
    winners = {}

    def resolve(s):
        return winners[s.split(":")[1]] if s.startswith("winner:") else int(s.split(":")[1])

    for m in plan.matches:
        winners[m.code] = min(resolve(m.home_source), resolve(m.away_source))
    final = plan.match("F")
    assert {resolve(final.home_source), resolve(final.away_source)} == {1, 2}


def test_rwc2023_pairings():
    plan = rwc2023_knockout()
    pairs = {m.code: (m.home_source, m.away_source) for m in plan.matches}
    assert pairs == {
        "QF1": ("pool:C:1", "pool:D:2"), "QF2": ("pool:B:1", "pool:A:2"),
        "QF3": ("pool:D:1", "pool:C:2"), "QF4": ("pool:A:1", "pool:B:2"),
        "SF1": ("winner:QF1", "winner:QF2"), "SF2": ("winner:QF3", "winner:QF4"),
        "BF": ("loser:SF1", "loser:SF2"), "F": ("winner:SF1", "winner:SF2"),
    }


def _earliest_same_pool_meeting(plan):
    """The earliest round in which two teams from one pool could meet, over all ways the bracket can go."""
    # Leaves of each match subtree: which pool sources can reach it.
    reach = {}

    def sources(s):
        return reach[s.split(":", 1)[1]] if s.startswith("winner:") else {s}

    earliest = None
    for m in plan.matches:
        if m.code.endswith("BF"):
            continue
        home, away = sources(m.home_source), sources(m.away_source)
        pools_home = {s.split(":")[1] for s in home}
        pools_away = {s.split(":")[1] for s in away}
        if pools_home & pools_away and (earliest is None or m.round_number < earliest):
            earliest = m.round_number
        reach[m.code] = home | away
    return earliest


@hsettings(max_examples=80)
@given(pools=st.integers(min_value=1, max_value=8), k=st.integers(min_value=1, max_value=4))
def test_crossover_keeps_pool_mates_apart(pools, k):
    if pools * k < 2:
        return
    names = [chr(65 + i) for i in range(pools)]
    plan = pools_knockout(names, k)
    rounds = plan.rounds
    earliest = _earliest_same_pool_meeting(plan)
    if k >= 2:
        # k teams of a pool can be spread over k sub-brackets: they meet no earlier than that allows.
        assert earliest >= rounds - math.ceil(math.log2(k)) + 1
    else:
        assert earliest is None
    # Pool winners never meet each other in the first round when there are runners-up to play.
    if k >= 2 and pools >= 2:
        for m in plan.matches:
            if m.round_number == 1 and m.home_source.startswith("pool:"):
                assert not (m.home_source.endswith(":1") and m.away_source.endswith(":1"))


def test_crossover_four_pools_top_two():
    entrants = crossover_entrants("ABCD", [1, 2])
    assert entrants[:4] == ["pool:A:1", "pool:B:1", "pool:C:1", "pool:D:1"]
    plan = knockout(entrants)
    for m in plan.matches:
        if m.round_number == 1:
            assert m.home_source.endswith(":1") and m.away_source.endswith(":2")
    assert _earliest_same_pool_meeting(plan) == 3


def test_cup_plate_bowl_by_pool_position():
    brackets = tiered_knockouts("ABCD", [("Cup", [1, 2]), ("Plate", [3]), ("Bowl", [4])])
    assert [b.name for b in brackets] == ["Cup", "Plate", "Bowl"]
    cup, plate, bowl = brackets
    assert [m.code for m in cup.matches][:2] == ["CUP-QF1", "CUP-QF2"]
    assert {m.bracket for m in plate.matches} == {"Plate"}
    plate_teams = {s for m in plate.matches if m.round_number == 1 for s in (m.home_source, m.away_source)}
    assert plate_teams == {"pool:A:3", "pool:B:3", "pool:C:3", "pool:D:3"}
    assert bowl.match("BOWL-F")


def test_losers_of_cup_quarter_finals_drop_to_plate():
    cup = pools_knockout("ABCD", 2, name="Cup", prefix="CUP-")
    plate = losers_knockout(cup, name="Plate")
    semis = [(m.code, m.home_source, m.away_source) for m in plate.matches if m.round_number == 1]
    assert semis == [("PLATE-SF1", "loser:CUP-QF1", "loser:CUP-QF2"),
                     ("PLATE-SF2", "loser:CUP-QF3", "loser:CUP-QF4")]
    assert plate.match("PLATE-F").home_source == "winner:PLATE-SF1"


def test_source_labels():
    assert source_label("pool:A:1") == "Winner Pool A"
    assert source_label("pool:D:2") == "Runner-up Pool D"
    assert source_label("pool:B:3") == "3rd place Pool B"
    assert source_label("winner:QF1") == "Winner QF1"
    assert source_label("loser:SF2") == "Loser SF2"
    assert source_label("seed:3") == "Seed 3"
