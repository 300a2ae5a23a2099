"""RUGBY_Bokx field geometry (engine/bokx/field.py), shared with the web page's board drawing."""

import json

from engine.bokx import field


def test_twenty_field_rows_between_two_in_goal_rows():
    assert field.ROWS == 22 and field.COLS == 16
    assert field.IN_GOAL_ROWS == [0, 21] and list(range(1, 21)) == field.FIELD_ROWS


def test_lines_fall_on_block_boundaries():
    assert field.LINES["halfway"] == [11]  # 10 blocks = 50 m from each goal line
    assert field.LINES["goal"] == [1, 21]
    assert field.LINES["10m"] == [9, 13]  # two blocks either side of halfway
    assert field.LINES["22m"] == [5, 17]  # four blocks (20 m, the nearest boundary to 22 m) from the goal line
    assert field.LINEOUT_LINES == {"5m": [1, 15], "15m": [3, 13]}


def test_zones_and_own_22_per_side():
    assert field.zones(0)["blue"] == [17, 18, 19]  # opponent's 22 up to one block short of the goal line
    assert field.zones(0)["red"] == list(range(9, 17))  # own 10 m line to the opponent's 22
    assert field.zones(1)["blue"] == [4, 3, 2]
    assert field.zones(0)["own_22"] == [1, 2, 3, 4]


def test_kick_off_blocks_are_half_turn_images():
    for spot, blocks in field.KICK_OFF_BLOCKS.items():
        (x0, y0), (x1, y1) = blocks[0], blocks[1]
        assert (x1, y1) == (15 - x0, 21 - y0), spot
    assert field.progress(0, field.KICK_OFF_BLOCKS["halfway"][0][1]) == field.HALFWAY_P
    assert field.progress(1, field.KICK_OFF_BLOCKS["22"][1][1]) == 4
    assert field.progress(1, field.KICK_OFF_BLOCKS["goal_line"][1][1]) == 0


def test_progress_and_row_are_inverse():
    for seat in (0, 1):
        for y in range(field.ROWS):
            assert field.row_of(seat, field.progress(seat, y)) == y


def test_geometry_is_plain_json():
    data = json.loads(json.dumps(field.as_dict()))
    assert data["kick_off_blocks"]["halfway"]["0"] == [7, 10]
    assert data["kick_off_colours"] == {"halfway": "purple", "22": "yellow", "goal_line": "orange"}


def test_the_lookup_tables_are_the_field_functions():
    """The rules' hot paths index ``PROGRESS`` and ``ROW`` instead of calling ``progress`` and ``row_of``."""
    for seat in (0, 1):
        for row in range(field.ROWS):
            assert field.PROGRESS[seat][row] == field.progress(seat, row)
            assert field.ROW[seat][row] == field.row_of(seat, row)
