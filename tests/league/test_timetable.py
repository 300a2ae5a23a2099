"""The scheduling core (``league.timetable``): placing rounds on pitches and slots, and finding clashes.
Pure tests, no database."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league import timetable
from league.scheduling import round_robin
from league.timetable import ORDER, PITCH, TEAM, Booking, Match, find_clashes, plan

T0 = datetime(2026, 3, 7, 10, 0)
MIN = timedelta(minutes=1)


def _rounds(pairs_by_round, *, prefix=""):
    return [[Match(key=f"{prefix}{r}-{i}", teams=frozenset(pair)) for i, pair in enumerate(pairs)]
            for r, pairs in enumerate(pairs_by_round)]


def _booking(key, start_min, *, teams=(), pitch=None, length=30, after=()):
    start = T0 + start_min * MIN
    return Booking(key, start, start + length * MIN, pitch, frozenset(teams), frozenset(after))


# --- plan -------------------------------------------------------------------------------------------------------


def test_one_day_festival_rounds_follow_each_other():
    # Four teams, one pitch, 30-minute matches, no change-over: every round on the same day from 10:00.
    rounds = _rounds([r.matches for r in round_robin(["W", "X", "Y", "Z"])])
    placed = plan(rounds, starts=[T0] * len(rounds), pitches=["Pitch"], length=30 * MIN)
    assert [b.start.strftime("%H:%M") for b, _slot in placed] == [
        "10:00", "10:30", "11:00", "11:30", "12:00", "12:30"]
    booked = Counter((b.start, t) for b, _slot in placed for t in b.teams)
    assert set(booked.values()) == {1}


def test_change_over_between_slots_and_rounds():
    rounds = _rounds([[("A", "B"), ("C", "D"), ("E", "F")], [("A", "C"), ("B", "E")]])
    placed = plan(rounds, starts=[T0, T0], pitches=["P1", "P2"], length=20 * MIN, changeover=10 * MIN)
    assert [(b.start.strftime("%H:%M"), b.pitch, slot) for b, slot in placed] == [
        ("10:00", "P1", 0), ("10:00", "P2", 0), ("10:30", "P1", 1),  # slot 1 starts a change-over later
        ("11:00", "P1", 0), ("11:00", "P2", 0),  # round 2 starts a change-over after round 1's last match
    ]


def test_round_split_into_slots_weekly():
    # 8 teams, 4 matches a round, 2 tables: two slots of two matches, 60 minutes apart; a round a week.
    rr = round_robin(list("ABCDEFGH"))
    rounds = _rounds([r.matches for r in rr])
    starts = [datetime(2026, 9, 5, 18, 30) + timedelta(days=7 * i) for i in range(len(rounds))]
    placed = plan(rounds, starts=starts, pitches=["Table 1", "Table 2"], length=60 * MIN)
    first = [(slot, b.pitch, b.start) for b, slot in placed[:4]]
    assert first == [(0, "Table 1", datetime(2026, 9, 5, 18, 30)), (0, "Table 2", datetime(2026, 9, 5, 18, 30)),
                     (1, "Table 1", datetime(2026, 9, 5, 19, 30)), (1, "Table 2", datetime(2026, 9, 5, 19, 30))]
    assert {b.start.date() for b, _slot in placed[-4:]} == {datetime(2026, 10, 17).date()}


def test_no_pitches_means_everyone_at_once():
    rounds = _rounds([[("A", "B"), ("C", "D")]])
    placed = plan(rounds, starts=[T0], pitches=[], length=30 * MIN)
    assert [(b.start, b.pitch, slot) for b, slot in placed] == [(T0, None, 0), (T0, None, 0)]


def test_a_match_waits_for_the_matches_it_takes_its_teams_from():
    # The Plate's first match takes the losers of the Cup's two semi-finals: same round, but after them.
    rounds = [[Match("SF1", frozenset({"A", "B"})), Match("SF2", frozenset({"C", "D"})),
               Match("PLATE", after=frozenset({"SF1", "SF2"}))]]
    placed = plan(rounds, starts=[T0], pitches=["P1", "P2", "P3"], length=30 * MIN, changeover=5 * MIN)
    by_key = {b.key: b for b, _slot in placed}
    assert by_key["PLATE"].start == T0 + 35 * MIN
    assert not find_clashes([b for b, _slot in placed])


def test_planned_around_what_is_there():
    # Another division holds Pitch 1 at 10:00; a match already played (fixed) stays where it is.
    busy = [_booking("u12", 0, pitch="P1", teams={"X", "Y"})]
    rounds = [[Match("fixed", frozenset({"A", "B"}), start=T0, pitch="P2"), Match("new", frozenset({"C", "D"}))]]
    placed = plan(rounds, starts=[T0], pitches=["P1", "P2"], length=30 * MIN, busy=busy)
    by_key = {b.key: (b.start, b.pitch) for b, _slot in placed}
    assert by_key == {"fixed": (T0, "P2"), "new": (T0 + 30 * MIN, "P1")}


def test_rest_between_a_teams_matches():
    rounds = [[Match("m1", frozenset({"A", "B"})), Match("m2", frozenset({"A", "C"}))]]
    placed = plan(rounds, starts=[T0], pitches=["P1", "P2"], length=20 * MIN, rest=30 * MIN)
    starts = {b.key: b.start for b, _slot in placed}
    assert starts["m2"] - (starts["m1"] + 20 * MIN) >= 30 * MIN
    assert not find_clashes([b for b, _slot in placed], rest=30 * MIN)


def test_bad_plans_refused():
    with pytest.raises(ValueError):
        plan([[]], starts=[T0], pitches=[], length=timedelta(0))
    with pytest.raises(ValueError):
        plan([[]], starts=[T0], pitches=["P", "P"], length=MIN)
    with pytest.raises(ValueError):
        plan([[], []], starts=[T0], pitches=[], length=MIN)


@settings(max_examples=60)
@given(n=st.integers(min_value=2, max_value=16), pitch_count=st.integers(min_value=0, max_value=6),
       double=st.booleans(), changeover=st.integers(min_value=0, max_value=15))
def test_planned_round_robins_never_clash(n, pitch_count, double, changeover):
    rounds = _rounds([r.matches for r in round_robin(list(range(n)), double=double)])
    pitches = [f"Pitch {i}" for i in range(pitch_count)]
    placed = plan(rounds, starts=[T0] * len(rounds), pitches=pitches, length=25 * MIN, changeover=changeover * MIN)
    bookings = [b for b, _slot in placed]
    assert len(bookings) == sum(len(r) for r in rounds)
    assert find_clashes(bookings) == []
    # Rounds follow each other: every match of a round starts after the previous round's matches end.
    ends = {}
    for b, _slot in placed:
        number = int(str(b.key).split("-")[0])
        assert all(b.start >= end + changeover * MIN for r, end in ends.items() if r < number)
        ends[number] = max(ends.get(number, b.end), b.end)
    if pitches:
        # A round of distinct teams needs ceil(matches / pitches) slots, no more.
        for r, matches in enumerate(rounds):
            slots = {slot for b, slot in placed if str(b.key).startswith(f"{r}-")}
            assert len(slots) == -(-len(matches) // len(pitches))


# --- clashes ---------------------------------------------------------------------------------------------------


def test_team_twice_at_once_counts_the_match_length():
    a = _booking("a", 0, teams={"FRA", "NZL"})
    b = _booking("b", 20, teams={"FRA", "ITA"})  # starts before a (30 minutes) is over
    clashes = find_clashes([a, b])
    assert [(c.kind, c.subject, c.first.key, c.second.key) for c in clashes] == [(TEAM, "FRA", "a", "b")]
    assert find_clashes([a, _booking("b", 30, teams={"FRA", "ITA"})]) == []  # back to back is allowed
    assert [c.kind for c in find_clashes([a, _booking("b", 30, teams={"FRA"})], rest=10 * MIN)] == [TEAM]


def test_pitch_double_booked():
    a = _booking("a", 0, pitch="Pitch 1", teams={"A", "B"})
    b = _booking("b", 29, pitch="Pitch 1", teams={"C", "D"})
    c = _booking("c", 0, pitch="Pitch 2", teams={"E", "F"})
    d = _booking("d", 0, pitch=None, teams={"G", "H"})
    e = _booking("e", 0, pitch=None, teams={"I", "J"})
    assert [(k.kind, k.subject) for k in find_clashes([a, b, c, d, e])] == [(PITCH, "Pitch 1")]


def test_a_match_before_one_it_depends_on():
    qf = _booking("QF1", 0, pitch="P1")
    sf = _booking("SF1", 20, pitch="P2", after={"QF1"})
    assert [(c.kind, c.subject) for c in find_clashes([qf, sf])] == [(ORDER, "QF1")]
    assert find_clashes([qf, _booking("SF1", 30, pitch="P2", after={"QF1"})]) == []


def test_involving_only_reports_the_moved_matches():
    old = [_booking("x", 0, teams={"A"}), _booking("y", 10, teams={"A"})]  # an old clash elsewhere
    moved = _booking("m", 100, teams={"B"}, pitch="P1")
    assert find_clashes([*old, moved], involving={"m"}) == []
    assert len(find_clashes([*old, moved])) == 1


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(1, 90), st.sampled_from(["P1", "P2", None]),
                          st.sets(st.sampled_from("ABCDEF"), max_size=2)), max_size=12))
def test_clashes_agree_with_a_pairwise_check(rows):
    bookings = [_booking(i, start, length=length, pitch=pitch, teams=teams)
                for i, (start, length, pitch, teams) in enumerate(rows)]
    expected = set()
    for x in bookings:
        for y in bookings:
            if x.key < y.key and x.overlaps(y):
                expected.update((TEAM, t, frozenset({x.key, y.key})) for t in x.teams & y.teams)
                if x.pitch is not None and x.pitch == y.pitch:
                    expected.add((PITCH, x.pitch, frozenset({x.key, y.key})))
    found = {(c.kind, c.subject, frozenset({c.first.key, c.second.key})) for c in find_clashes(bookings)}
    assert found == expected



@settings(max_examples=80, deadline=None)
@given(teams=st.integers(2, 14), pitch_count=st.integers(0, 4), rounds=st.integers(1, 4),
       changeover=st.integers(0, 20), busy_end=st.integers(-200, 200))
def test_the_shortcut_for_rounds_of_distinct_teams_is_what_the_search_finds(teams, pitch_count, rounds, changeover,
                                                                             busy_end):
    # Issue 17: a round whose teams all differ, with nothing booked reaching it, is filled in order without
    # searching; it must place every match where the search would (a booking near the start forces the search).
    pitches = [f"P{i}" for i in range(pitch_count)]
    rr = round_robin(list(range(teams)))[:rounds]
    matches = [[Match(key=(r.number, i), teams=frozenset(m)) for i, m in enumerate(r.matches)] for r in rr]
    day = datetime(2027, 3, 6, 10, 0)
    end = day + timedelta(minutes=busy_end)
    busy = [Booking("busy", end - timedelta(minutes=90), end, pitches[0] if pitches else None, frozenset({0}))]
    kwargs = {"starts": [day + timedelta(days=i) for i in range(len(rr))], "pitches": pitches,
              "length": timedelta(minutes=60), "changeover": timedelta(minutes=changeover), "busy": busy}
    fast = plan(matches, **kwargs)
    with mock.patch.object(timetable, "_apart", return_value=False):
        searched = plan(matches, **kwargs)
    assert fast == searched


@settings(max_examples=80, deadline=None)
@given(teams=st.integers(2, 14), pitch_count=st.integers(0, 4), rounds=st.integers(1, 4),
       changeover=st.integers(0, 20), days=st.integers(0, 2))
def test_plan_apart_is_what_plan_gives_a_round_robin(teams, pitch_count, rounds, changeover, days):
    pitches = [f"P{i}" for i in range(pitch_count)]
    rr = round_robin(list(range(teams)))[:rounds]
    day = datetime(2027, 3, 6, 10, 0)
    kwargs = {"starts": [day + timedelta(days=i * days) for i in range(len(rr))], "pitches": pitches,
              "length": timedelta(minutes=60), "changeover": timedelta(minutes=changeover)}
    planned = plan([[Match(key=(r.number, i), teams=frozenset(m)) for i, m in enumerate(r.matches)] for r in rr],
                   **kwargs)
    apart = timetable.plan_apart([len(r.matches) for r in rr], **kwargs)
    assert [(b.start, b.pitch, slot) for b, slot in planned] == [p for placed in apart for p in placed]
