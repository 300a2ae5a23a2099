"""The RUGBY_Bokx field: 22 x 16 blocks of 5 m, as plain data.

The rules and the web page's SVG board both read this module, so everything
here is plain ints, lists and dicts (JSON-able, no classes).

Coordinates: ``x`` is the column (0..15, across the field, side line to side
line) and ``y`` the row (0..21, along the field, dead-ball line to dead-ball
line). Each block is 5 m x 5 m. Row 0 and row 21 are the in-goal areas; rows
1..20 are the field of play (20 blocks = 100 m between the goal lines). Home
(seat 0) defends row 0 and attacks towards row 21; away (seat 1) the reverse.
Lines fall on block boundaries: ``line at 4`` means the line between row 3 and
row 4 (for rows) or column 3 and column 4 (for columns).

A side's *progress* ``p`` is its own measure of a row: ``p = y`` for home,
``p = 21 - y`` for away, so p 0 is its own in-goal and p 21 the opponent's.

Text drawing (home at the bottom attacking upwards; ``B`` Blue zone, ``R`` Red
zone for home's kicks at goal, ``o`` orange, ``y`` yellow, ``P`` purple
kick-off blocks; the dotted lines are the 5 m and 15 m lineout lines)::

         x: 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5   (columns 10-15 shown as 0-5)
    y=21   |                o              |  away in-goal, orange block (x 8); away dead-ball line above
           =================================  away goal line (line at 21)
    y=20   |                               |
    y=19   |B B B B B B B B B B B B B B B B|  Blue zone (home): p 17..19
    y=18   |B B B B B B B B B B B B B B B B|
    y=17   |B B B B B B B B y B B B B B B B|  away yellow block (x 8)
           ---------------------------------  away 22 m line (line at 17)
    y=16   |R R R R R R R R R R R R R R R R|  Red zone (home): p 9..16
    y=15   |R R R R R R R R R R R R R R R R|
    y=14   |R R R R R R R R R R R R R R R R|
    y=13   |R R R R R R R R R R R R R R R R|
           . . . . . . . . . . . . . . . .   away 10 m line (line at 13)
    y=12   |R R R R R R R R R R R R R R R R|
    y=11   |R R R R R R R R P R R R R R R R|  away purple block (x 8)
           =================================  halfway line (line at 11)
    y=10   |R R R R R R R P R R R R R R R R|  home purple block (x 7)
    y=9    |R R R R R R R R R R R R R R R R|
           . . . . . . . . . . . . . . . .   home 10 m line (line at 9)
    y=8    |                               |
    ...
           ---------------------------------  home 22 m line (line at 5)
    y=4    |              y                |  home yellow block (x 7)
    ...
    y=1    |                               |
           =================================  home goal line (line at 1)
    y=0    |              o                |  home in-goal, orange block (x 7); home dead-ball line below
             ^   ^                   ^   ^
            5 m 15 m                15 m 5 m   lineout lines (between columns 0|1, 2|3, 12|13, 14|15)

The 22 m line is drawn 20 m (4 blocks) from the goal line, the nearest block
boundary to 22 m. The Blue zone runs from the opponent's 22 m line up to one
block short of the goal line; the Red zone from the kicker's own 10 m line to
the opponent's 22 m line (see INTERPRETATIONS.md).
"""

from typing import Any

COLS = 16
ROWS = 22
BLOCK_METRES = 5

# Rows that are in-goal, and the field of play between them.
IN_GOAL_ROWS = [0, 21]
FIELD_ROWS = list(range(1, 21))

# Lines across the field (between rows), as the row index the line sits *below*
# (line at r = the boundary between row r-1 and row r).
LINES = {
    "dead_ball": [0, 22],
    "goal": [1, 21],
    "22m": [5, 17],
    "10m": [9, 13],
    "halfway": [11],
}
# Dotted lineout lines along the field (between columns), same convention.
LINEOUT_LINES = {"5m": [1, 15], "15m": [3, 13]}
SIDE_LINES = [0, COLS]

# Progress rows (a side's own measure, see module docstring) of each area.
OWN_IN_GOAL_P = 0
OWN_22_P = [0, 1, 2, 3, 4]  # the in-goal counts as inside the 22 for kicking
RED_ZONE_P = list(range(9, 17))
BLUE_ZONE_P = [17, 18, 19]
OPP_IN_GOAL_P = 21
HALFWAY_P = 10  # the kicker's last row before the halfway line
TEN_METRE_P = 12  # a halfway kick-off must land beyond this row

# Kick-off blocks per seat: (x, y). Home's blocks and away's are 180-degree images.
KICK_OFF_BLOCKS = {
    "halfway": {0: [7, 10], 1: [8, 11]},   # purple
    "22": {0: [7, 4], 1: [8, 17]},         # yellow
    "goal_line": {0: [7, 0], 1: [8, 21]},  # orange
}
KICK_OFF_COLOURS = {"halfway": "purple", "22": "yellow", "goal_line": "orange"}

# After a lineout the ball is placed in the first block inside the 15 m line.
LINEOUT_BALL_X = {"left": 3, "right": 12}


def progress(seat: int, y: int) -> int:
    """``seat``'s own row measure: 0 its in-goal, 21 the opponent's in-goal."""
    return y if seat == 0 else 21 - y


# ``PROGRESS[seat][y] == progress(seat, y)`` for every row: the rules' and the club player's hot paths index it
# (a lookup instead of a function call, some 300 a match: 2 % of a lean Bokx match, measured with callgrind).
PROGRESS = tuple(tuple(progress(seat, y) for y in range(ROWS)) for seat in (0, 1))
# ``ROW[seat][p] == row_of(seat, p)``, likewise (the same reflection of the field, so the same table).
ROW = PROGRESS


def row_of(seat: int, p: int) -> int:
    """The board row of ``seat``'s progress row ``p`` (inverse of :func:`progress`)."""
    return p if seat == 0 else 21 - p


def zones(seat: int) -> dict[str, list[int]]:
    """Board rows of ``seat``'s kicking zones and own 22 (for drawing and for players)."""
    return {
        "blue": [row_of(seat, p) for p in BLUE_ZONE_P],
        "red": [row_of(seat, p) for p in RED_ZONE_P],
        "own_22": [row_of(seat, p) for p in OWN_22_P if p > 0],
    }


def as_dict() -> dict[str, Any]:
    """The whole geometry as one JSON-able dict (for the web page's board drawing)."""
    return {
        "cols": COLS, "rows": ROWS, "block_metres": BLOCK_METRES,
        "in_goal_rows": IN_GOAL_ROWS, "lines": LINES, "lineout_lines": LINEOUT_LINES,
        "side_lines": SIDE_LINES, "kick_off_blocks": {k: {str(s): v for s, v in d.items()}
                                                      for k, d in KICK_OFF_BLOCKS.items()},
        "kick_off_colours": KICK_OFF_COLOURS,
        "zones": {"0": zones(0), "1": zones(1)},
    }
