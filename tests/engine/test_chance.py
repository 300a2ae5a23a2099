"""Chance sources: seeded draws replay exactly; scripted draws reproduce a position and refuse the impossible."""

import json

import pytest

from engine.chance import Chance, ChanceError, ScriptedChance, SeededChance, derive_seed


def test_derive_seed_is_stable_and_label_dependent():
    assert derive_seed(7, "seat", 0) == derive_seed(7, "seat", 0)
    assert derive_seed(7, "seat", 0) != derive_seed(7, "seat", 1)
    assert derive_seed(7, "chance") != derive_seed(8, "chance")
    assert 0 <= derive_seed(123, "x") < 2**64


def test_seeded_chance_is_reproducible_and_counts_draws():
    a, b = SeededChance(42), SeededChance(42)
    seq_a = [a.roll(6), a.pick("ABCDE"), a.shuffle([1, 2, 3, 4]), a.roll(20)]
    seq_b = [b.roll(6), b.pick("ABCDE"), b.shuffle([1, 2, 3, 4]), b.roll(20)]
    assert seq_a == seq_b
    assert a.draws == 4
    assert 1 <= seq_a[0] <= 6 and sorted(seq_a[2]) == [1, 2, 3, 4]


def test_seeded_chance_round_trips_through_json_mid_sequence():
    chance = SeededChance(5)
    for _ in range(10):
        chance.roll(6)
    restored = Chance.from_dict(json.loads(json.dumps(chance.to_dict())))
    assert isinstance(restored, SeededChance)
    assert [restored.roll(6) for _ in range(20)] == [chance.roll(6) for _ in range(20)]
    assert restored.draws == chance.draws == 30


def test_seeded_pick_from_nothing_is_refused():
    with pytest.raises(ChanceError, match="empty"):
        SeededChance(1).pick([])


def test_scripted_chance_follows_its_script():
    chance = ScriptedChance([3, "QH", [2, 1, 3], "keep"])
    assert chance.roll(6) == 3
    assert chance.pick(["7S", "QH"]) == "QH"
    assert chance.shuffle([1, 2, 3]) == [2, 1, 3]
    assert chance.shuffle(["a", "b"]) == ["a", "b"]
    assert chance.remaining == 0 and chance.draws == 4


def test_scripted_chance_raises_when_the_script_runs_out():
    chance = ScriptedChance([1])
    chance.roll(6)
    with pytest.raises(ChanceError, match="ran out"):
        chance.roll(6)


@pytest.mark.parametrize("value", [0, 7, "6", True])
def test_scripted_die_value_must_be_possible(value):
    with pytest.raises(ChanceError, match="impossible"):
        ScriptedChance([value]).roll(6)


def test_scripted_pick_must_be_available():
    with pytest.raises(ChanceError, match="impossible"):
        ScriptedChance(["AS"]).pick(["7S", "QH"])


def test_scripted_shuffle_must_be_a_permutation():
    with pytest.raises(ChanceError, match="permutation"):
        ScriptedChance([[1, 1, 2]]).shuffle([1, 2, 3])


def test_scripted_chance_round_trips_with_its_position():
    chance = ScriptedChance([1, 2, 3])
    chance.roll(6)
    restored = Chance.from_dict(json.loads(json.dumps(chance.to_dict())))
    assert isinstance(restored, ScriptedChance)
    assert restored.roll(6) == 2 and restored.remaining == 1


def test_unknown_chance_kind_is_refused():
    with pytest.raises(ValueError, match="unknown chance source"):
        Chance.from_dict({"kind": "dice-tower"})


def test_seeded_draws_match_the_standard_random_calls():
    # The fast path must draw exactly what randint/randrange would (stored matches replay on it).
    import random

    chance, reference = SeededChance(99), random.Random(99)
    for sides in (2, 6, 13, 52, 1000):
        assert chance.roll(sides) == reference.randint(1, sides)
        options = list(range(sides))
        assert chance.pick(options) == options[reference.randrange(len(options))]


def test_a_die_needs_sides():
    with pytest.raises(ChanceError, match="side"):
        SeededChance(1).roll(0)
