"""The cross-division scheduler of events (``league.timetable.plan_divisions`` and ``overrun``): several
divisions on one day's shared pitches. Pure tests, no database; the property tests draw whole festivals
(divisions of different sizes, some players in two divisions, matches already fixed, a rest gap) and check
that every match is placed with no pitch or team clash and the rest held, and that ``overrun`` says exactly
by how many slots a day is late."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from league.scheduling import round_robin
from league.timetable import Booking, Match, find_clashes, interleave, overrun, plan_divisions

T0 = datetime(2026, 6, 13, 9, 0)
MIN = timedelta(minutes=1)


def _division(name, teams, *, shared=None):
    """A round robin of ``teams`` in division ``name``; ``shared`` maps a team to a player who plays it (so a
    player in two divisions is one side in both)."""
    shared = shared or {}

    def sides(team):
        return frozenset({(name, team), *([shared[team]] if team in shared else [])})

    return [[Match(key=(name, r, i), teams=sides(a) | sides(b)) for i, (a, b) in enumerate(rnd.matches)]
            for r, rnd in enumerate(round_robin(teams))]


def test_interleave_takes_turns():
    assert interleave([[1, 2, 3], ["a"], [], ["x", "y"]]) == [1, "a", "x", 2, "y", 3]


def test_three_divisions_on_four_pitches_share_the_morning():
    divisions = [_division("U11", "ABCD"), _division("U13", "EFGHIJ"), _division("U15", "KLMN")]
    placed = plan_divisions(divisions, start=T0, pitches=["P1", "P2", "P3", "P4"], length=20 * MIN,
                            changeover=5 * MIN, rest=10 * MIN)
    bookings = [b for b, _slot in placed]
    assert len(bookings) == 6 + 15 + 6
    assert find_clashes(bookings, rest=10 * MIN) == []
    # The first slot holds a match of every division: no division waits for another's day.
    first = [b.key[0] for b in bookings if b.start == T0]
    assert set(first) == {"U11", "U13", "U15"}
    assert Counter(b.pitch for b in bookings if b.start == T0) == {"P1": 1, "P2": 1, "P3": 1, "P4": 1}


def test_a_player_in_two_divisions_never_plays_twice_at_once():
    cup = _division("Cup", "ABCD", shared={"A": "Sam"})
    social = _division("Social", "WXYZ", shared={"W": "Sam"})
    placed = [b for b, _slot in plan_divisions([cup, social], start=T0, pitches=["T1", "T2", "T3", "T4"],
                                               length=30 * MIN)]
    sam = sorted((b.start, b.end) for b in placed if "Sam" in b.teams)
    assert len(sam) == 6
    assert all(end <= start for (_s, end), (start, _e) in zip(sam, sam[1:], strict=False))


def test_overrun_counts_the_slots_a_day_is_late():
    step = 25 * MIN
    bookings = [Booking(i, T0 + i * step, T0 + i * step + 20 * MIN, "P1") for i in range(10)]
    finish = T0 + 4 * step  # 10:40: matches 4..9 end after it
    assert overrun(bookings, finish=finish, step=step) == (6, 6)
    assert overrun(bookings, finish=T0 + 10 * step, step=step) == (0, 0)


@st.composite
def festivals(draw):
    count = draw(st.integers(1, 4))
    players = [f"player{i}" for i in range(3)]
    divisions = []
    for d in range(count):
        teams = [f"t{i}" for i in range(draw(st.integers(2, 6)))]
        shared = {t: p for t, p in zip(teams, draw(st.lists(st.sampled_from([None, *players]),
                                                            min_size=len(teams), max_size=len(teams))),
                                       strict=True) if p is not None}
        divisions.append(_division(f"d{d}", teams, shared=shared))
    pitches = [f"P{i}" for i in range(draw(st.integers(1, 4)))]
    length = draw(st.integers(5, 40)) * MIN
    changeover = draw(st.integers(0, 10)) * MIN
    rest = draw(st.integers(0, 45)) * MIN
    # Matches already on the day (played ones), kept apart from each other.
    busy = [Booking(("played", i), T0 + i * (length + changeover), T0 + i * (length + changeover) + length,
                    draw(st.sampled_from(pitches)), frozenset({draw(st.sampled_from(players))}))
            for i in range(draw(st.integers(0, 3)))]
    return divisions, pitches, length, changeover, rest, busy


@given(festivals(), st.integers(0, 600))
def test_every_match_is_placed_with_no_clash_and_the_rest_held(festival, finish_minutes):
    divisions, pitches, length, changeover, rest, busy = festival
    placed = plan_divisions(divisions, start=T0, pitches=pitches, length=length, changeover=changeover,
                            busy=busy, rest=rest)
    bookings = [b for b, _slot in placed]
    wanted = [m.key for division in divisions for rnd in division for m in rnd]
    assert sorted(map(str, (b.key for b in bookings))) == sorted(map(str, wanted))
    assert all(b.pitch in pitches and b.start >= T0 and b.end - b.start == length for b in bookings)
    keys = {b.key for b in bookings}
    assert find_clashes([*bookings, *busy], rest=rest, involving=keys) == []
    # A division's rounds in order: no match of a team's round r+1 before its round r.
    for division in divisions:
        starts = {b.key: b.start for b in bookings}
        for earlier, later in zip(division, division[1:], strict=False):
            assert max(starts[m.key] for m in earlier) <= max(starts[m.key] for m in later)
    # Every fixture is placed, or the day says by how many slots it is late.
    finish = T0 + finish_minutes * MIN
    step = length + changeover
    late, slots = overrun(bookings, finish=finish, step=step)
    last = max(b.end for b in bookings)
    if last <= finish:
        assert (late, slots) == (0, 0)
    else:
        assert late == sum(1 for b in bookings if b.end > finish) and late >= 1
        assert (slots - 1) * step < last - finish <= slots * step
