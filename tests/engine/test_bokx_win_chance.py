"""RUGBY_Bokx's win-chance table (learned from club play) and the international player's evaluation by it."""

import importlib.util
import pathlib

import pytest

from engine import new_game
from engine.bokx import win_chance as wc
from engine.bokx.field import row_of
from engine.bokx.player import BokxInternationalPlayer

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("bokx_win_table", ROOT / "scripts" / "bokx_win_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_table_has_a_chance_for_every_cell():
    table = wc.table()
    assert len(table.values) == (2 * wc.MAX_DIFF + 1) * wc.TIME_STEPS * wc.ZONES * len(wc.PHASES)
    assert all(0.0 <= v <= 1.0 for v in table.values)
    with pytest.raises(ValueError, match="holds"):
        wc.WinTable([500] * 10)


def test_the_lookup_clips_the_score_difference_and_reads_the_right_cell():
    table = wc.WinTable(list(range(len(wc.table().values))))  # each cell holds its own index (per mille)
    assert table.chance(0, 0, 0, 0) * 1000 == pytest.approx(wc.WinTable.index(0, 0, 0, 0))
    assert table.chance(40, 3, 2, 1) == table.chance(wc.MAX_DIFF, 3, 2, 1)
    assert table.chance(-40, 3, 2, 1) == table.chance(-wc.MAX_DIFF, 3, 2, 1)
    cells = {wc.WinTable.index(d, t, z, p) for d in range(-wc.MAX_DIFF, wc.MAX_DIFF + 1)
             for t in range(wc.TIME_STEPS) for z in range(wc.ZONES) for p in range(len(wc.PHASES))}
    assert cells == set(range(len(table.values)))  # every cell has exactly one key


def test_time_zone_and_phase_indexes():
    assert wc.time_index(0, 40) == 0
    assert wc.time_index(239, 40) == 0 and wc.time_index(240, 40) == 1
    assert wc.time_index(80 * 60, 40) == wc.TIME_STEPS - 1
    assert wc.time_index(60, 10) == wc.time_index(240, 40)  # a 10-minute half is judged by its share of time
    assert wc.seconds_left(1, 600, 2400, 40) == 1800 + 2400
    assert wc.seconds_left(2, 2500, 2400, 40) == 0
    assert wc.seconds_left(5, 10, None, 40) == 0
    assert [wc.ZONE_OF_ROW[p] for p in (0, 4, 5, 10, 16, 17, 21)] == [0, 1, 2, 3, 4, 5, 6]
    assert wc.phase_index("side", {"k": "run"}) == 1 and wc.phase_index("side", {"k": "kick"}) == 2
    assert [wc.phase_index(p, {}) for p in ("call", "penalty", "free_kick", "kickoff")] == [0, 3, 4, 5]


def test_the_table_never_prefers_fewer_points():
    table = wc.table()
    for t in range(wc.TIME_STEPS):
        for z in range(wc.ZONES):
            for p in range(len(wc.PHASES)):
                column = [table.chance(d, t, z, p) for d in range(-wc.MAX_DIFF, wc.MAX_DIFF + 1)]
                assert column == sorted(column), (t, z, p)


def test_the_table_reads_like_rugby():
    table = wc.table()
    call = wc.PHASES.index("call")
    # Level at the start: about even; seven points up with four minutes left: nearly won.
    assert 0.4 < table.chance(0, wc.TIME_STEPS - 1, 3, call) < 0.6
    assert table.chance(7, 0, 3, call) > 0.9
    # Late and level, the ball near the opponent's line is worth more than in the own in-goal.
    assert table.chance(0, 0, 6, call) > table.chance(0, 0, 0, call) + 0.1
    # A lead is worth more the less time is left.
    assert table.chance(5, 0, 3, call) > table.chance(5, wc.TIME_STEPS - 1, 3, call)


def test_the_evaluation_rises_with_the_score_and_is_symmetric():
    player = BokxInternationalPlayer(iterations=8)
    state = new_game("bokx", seed=3)
    state.phase, state.actor, state.poss, state.period, state.secs = "call", 0, 0, 2, 1800
    state.y = row_of(0, 12)
    values = []
    for lead in range(-12, 13):
        state.score = [10 + max(lead, 0), 10 + max(-lead, 0)]
        values.append(player.evaluate(state, 0))
        assert player.evaluate(state, 0) + player.evaluate(state, 1) == pytest.approx(1.0)
    assert values == sorted(values) and values[0] < 0.2 < 0.8 < values[-1]


def test_the_table_script_is_deterministic_for_its_seeds():
    script = _script()
    first = script.build(12, 5_000)
    assert first == script.build(12, 5_000)
    assert first != script.build(12, 6_000)
    stride = wc.TIME_STEPS * wc.ZONES * len(wc.PHASES)
    for rest in range(0, stride, 97):  # every row of a freshly built table is non-decreasing too
        column = [first[d * stride + rest] for d in range(2 * wc.MAX_DIFF + 1)]
        assert column == sorted(column)


def test_pool_adjacent_violators_gives_the_monotone_fit():
    assert _script().monotone([1.0, 3.0, 2.0, 4.0], [1.0, 1.0, 1.0, 1.0]) == [1.0, 2.5, 2.5, 4.0]
    assert _script().monotone([5.0, 1.0], [3.0, 1.0]) == [4.0, 4.0]


def test_extra_time_is_judged_by_the_margin_and_the_clock():
    player = BokxInternationalPlayer(iterations=8)
    state = new_game("bokx", seed=4, options={"extra_time": True})
    state.phase, state.actor, state.poss, state.y = "call", 1, 1, row_of(1, 10)
    state.period, state.secs, state.period_len = 3, 0, 600
    state.score = [20, 20]
    level = player.evaluate(state, 0)
    state.score = [23, 20]
    assert 0.5 < player.evaluate(state, 0) < 1.0 and 0.0 < level < 0.5  # away holds the ball at halfway
    state.period, state.period_len = 5, None  # sudden death: three points up, though the other side has the ball
    assert player.evaluate(state, 0) > 0.75
