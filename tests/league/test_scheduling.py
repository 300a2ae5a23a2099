"""Round robin (circle method), time slots and the calendar: pure tests, no database."""

from collections import Counter
from datetime import date, datetime, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.scheduling import Round, assign_slots, round_robin, schedule_rounds, slots_needed

team_counts = st.integers(min_value=2, max_value=40)


def _check_round_robin(n: int, double: bool) -> None:
    teams = [f"T{i:02d}" for i in range(n)]
    rounds = round_robin(teams, double=double)
    per_half = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_half * (2 if double else 1)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))

    pairs = Counter()
    home, away = Counter(), Counter()
    ordered_pairs = Counter()
    byes = Counter()
    for rnd in rounds:
        playing = [t for match in rnd.matches for t in match]
        # Nobody plays twice in a round; with an odd count exactly one team rests.
        assert len(playing) == len(set(playing))
        if n % 2:
            assert rnd.bye is not None and rnd.bye not in playing
            assert len(playing) == n - 1
            byes[rnd.bye] += 1
        else:
            assert rnd.bye is None and len(playing) == n
        for h, a in rnd.matches:
            assert h != a
            pairs[frozenset((h, a))] += 1
            ordered_pairs[(h, a)] += 1
            home[h] += 1
            away[a] += 1

    expected = 2 if double else 1
    assert len(pairs) == n * (n - 1) // 2
    assert set(pairs.values()) == {expected}
    if n % 2:
        assert set(byes.values()) == {expected}  # every team rests once per half
    for team in teams:
        assert home[team] + away[team] == expected * (n - 1)
        if double:
            assert home[team] == away[team]
        else:
            assert abs(home[team] - away[team]) <= 1
    if double:
        # Each opponent once at home and once away.
        assert set(ordered_pairs.values()) == {1}


@settings(max_examples=60)
@given(n=team_counts)
def test_single_round_robin_properties(n):
    _check_round_robin(n, double=False)


@settings(max_examples=60)
@given(n=team_counts)
def test_double_round_robin_properties(n):
    _check_round_robin(n, double=True)


@pytest.mark.parametrize("n", range(2, 41))
@pytest.mark.parametrize("double", [False, True])
def test_every_size_from_2_to_40(n, double):
    # Hypothesis samples sizes; this pins every size of the issue once.
    _check_round_robin(n, double)


@settings(max_examples=50)
@given(teams=st.lists(st.integers(), min_size=2, max_size=40, unique=True))
def test_any_team_values(teams):
    rounds = round_robin(teams)
    met = {frozenset(m) for r in rounds for m in r.matches}
    assert len(met) == len(teams) * (len(teams) - 1) // 2


def test_small_cases_by_hand():
    assert round_robin([]) == []
    assert round_robin(["A"]) == []
    assert round_robin(["A", "B"]) == [Round(1, (("A", "B"),), None)]
    # Three teams: each rests once and is at home once, away once.
    assert round_robin(["A", "B", "C"]) == [
        Round(1, (("B", "A"),), "C"),
        Round(2, (("A", "C"),), "B"),
        Round(3, (("C", "B"),), "A"),
    ]
    # Four teams (Berger): A is fixed and alternates home and away.
    assert round_robin(["A", "B", "C", "D"]) == [
        Round(1, (("A", "D"), ("C", "B"))),
        Round(2, (("C", "A"), ("B", "D"))),
        Round(3, (("A", "B"), ("D", "C"))),
    ]
    second_half = round_robin(["A", "B"], double=True)[1]
    assert second_half == Round(2, (("B", "A"),), None)


def test_duplicate_teams_refused():
    with pytest.raises(ValueError, match="only once"):
        round_robin(["A", "B", "A"])


@settings(max_examples=100)
@given(
    n=st.integers(min_value=2, max_value=40),
    venue_count=st.integers(min_value=1, max_value=12),
    double=st.booleans(),
)
def test_slots_no_team_or_venue_twice_in_a_slot(n, venue_count, double):
    venues = [f"Table {i}" for i in range(1, venue_count + 1)]
    for rnd in round_robin(list(range(n)), double=double):
        places = assign_slots(rnd.matches, venues)
        assert len(places) == len(rnd.matches)
        by_slot: dict[int, list] = {}
        for (slot, venue), match in zip(places, rnd.matches, strict=True):
            assert venue in venues
            by_slot.setdefault(slot, []).append((venue, match))
        for booked in by_slot.values():
            teams = [t for _venue, match in booked for t in match]
            assert len(teams) == len(set(teams))
            assert len({venue for venue, _ in booked}) == len(booked)
        # Slots are consecutive from 0, and a round of distinct teams needs no more than ceil(matches / venues).
        assert sorted(by_slot) == list(range(len(by_slot)))
        assert len(by_slot) == slots_needed(len(rnd.matches), venue_count)


@settings(max_examples=100)
@given(
    matches=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)).filter(lambda m: m[0] != m[1]),
                     max_size=25),
    venue_count=st.integers(min_value=1, max_value=5),
)
def test_slots_when_a_team_appears_twice(matches, venue_count):
    # Several pools sharing the venues, or a busy festival: a team may have two matches in a round.
    venues = [f"Pitch {i}" for i in range(venue_count)]
    places = assign_slots(matches, venues)
    by_slot: dict[int, list] = {}
    for (slot, venue), match in zip(places, matches, strict=True):
        by_slot.setdefault(slot, []).append((venue, match))
    for booked in by_slot.values():
        teams = [t for _venue, match in booked for t in match]
        assert len(teams) == len(set(teams))
        assert len({venue for venue, _ in booked}) == len(booked) <= venue_count
    if matches:
        assert sorted(by_slot) == list(range(len(by_slot)))


def test_no_venues_means_one_slot():
    assert assign_slots([("A", "B"), ("C", "D")], None) == [(0, ""), (0, "")]


def test_round_split_into_slots_by_hand():
    # 8 teams, 4 matches a round, 2 tables: two slots of two matches, 60 minutes apart.
    rounds = {"A": round_robin(list("ABCDEFGH"))}
    plan = schedule_rounds(rounds, start_date=date(2026, 9, 5), first_kickoff=time(18, 30), slot_minutes=60,
                           days_between_rounds=7, venues=["Table 1", "Table 2"])
    first = [m for m in plan if m.round_number == 1]
    assert [(m.slot, m.venue, m.kickoff) for m in first] == [
        (0, "Table 1", datetime(2026, 9, 5, 18, 30)),
        (0, "Table 2", datetime(2026, 9, 5, 18, 30)),
        (1, "Table 1", datetime(2026, 9, 5, 19, 30)),
        (1, "Table 2", datetime(2026, 9, 5, 19, 30)),
    ]
    last = [m for m in plan if m.round_number == 7]
    assert {m.kickoff.date() for m in last} == {date(2026, 10, 17)}


def test_pools_share_the_venues_and_the_day():
    rounds = {"A": round_robin([1, 2, 3, 4]), "B": round_robin([1, 2, 3, 4])}  # same values, different sides
    plan = schedule_rounds(rounds, start_date=date(2026, 1, 10), venues=["P1", "P2", "P3"])
    round_one = [m for m in plan if m.round_number == 1]
    assert len(round_one) == 4
    assert Counter(m.slot for m in round_one) == {0: 3, 1: 1}
    # Pools interleave: the first slot has matches from both pools.
    assert {m.pool for m in round_one if m.slot == 0} == {"A", "B"}
    assert all(m.kickoff.date() == date(2026, 1, 10) for m in round_one)


def test_no_start_date_keeps_kickoffs_empty():
    plan = schedule_rounds({"A": round_robin(["X", "Y", "Z"])})
    assert plan and all(m.kickoff is None and m.venue == "" and m.slot == 0 for m in plan)


def test_bad_calendar_settings():
    with pytest.raises(ValueError):
        schedule_rounds({"A": round_robin(["X", "Y"])}, slot_minutes=0)
    with pytest.raises(ValueError):
        assign_slots([("X", "Y")], ["P1", "P1"])


def test_one_day_festival_rounds_follow_each_other():
    # Four teams, one pitch, 30-minute slots, every round on the same day from 10:00.
    plan = schedule_rounds({"A": round_robin(["W", "X", "Y", "Z"])}, start_date=date(2026, 3, 7),
                           first_kickoff=time(10, 0), slot_minutes=30, days_between_rounds=0, venues=["Pitch"])
    assert [m.kickoff.strftime("%H:%M") for m in plan] == ["10:00", "10:30", "11:00", "11:30", "12:00", "12:30"]
    assert [m.round_number for m in plan] == [1, 1, 2, 2, 3, 3]
    # No team is booked twice at the same time, across rounds too.
    booked = Counter((m.kickoff, t) for m in plan for t in (m.home, m.away))
    assert set(booked.values()) == {1}
