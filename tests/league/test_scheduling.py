"""Round robin (FIDE Berger tables): pure tests, no database. Times and pitches: ``test_timetable.py``."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.scheduling import Round, berger_table, round_robin

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
    # Nobody plays three home or three away games in a row (a bye neither breaks nor extends a run).
    assert max(_longest_run(rounds, team) for team in teams) <= 2


def _longest_run(rounds, team) -> int:
    """The longest run of home or away games of ``team`` (byes skipped)."""
    venues = "".join("H" if team == h else "A" for r in rounds for h, a in r.matches if team in (h, a))
    longest = run = 0
    for i, venue in enumerate(venues):
        run = run + 1 if i and venue == venues[i - 1] else 1
        longest = max(longest, run)
    return longest


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
    # Three teams: Berger's table for four, number 4 being the bye; each rests once, home once, away once.
    assert round_robin(["A", "B", "C"]) == [
        Round(1, (("B", "C"),), "A"),
        Round(2, (("A", "B"),), "C"),
        Round(3, (("C", "A"),), "B"),
    ]
    assert round_robin(["A", "B", "C", "D"]) == [
        Round(1, (("A", "D"), ("B", "C"))),
        Round(2, (("D", "C"), ("A", "B"))),
        Round(3, (("B", "D"), ("C", "A"))),
    ]
    second_half = round_robin(["A", "B"], double=True)[1]
    assert second_half == Round(2, (("B", "A"),), None)


# FIDE Handbook C.05, Annex 1 (Berger tables), as published for 3/4 to 13/14 players - e.g.
# http://c.w.fox.tripod.com/chess/berger.html - one line per round, "home-away" per board.
BERGER_TABLES = {
    4: """1-4 2-3 | 4-3 1-2 | 2-4 3-1""",
    6: """1-6 2-5 3-4 | 6-4 5-3 1-2 | 2-6 3-1 4-5 | 6-5 1-4 2-3 | 3-6 4-2 5-1""",
    8: """1-8 2-7 3-6 4-5 | 8-5 6-4 7-3 1-2 | 2-8 3-1 4-7 5-6 | 8-6 7-5 1-4 2-3 | 3-8 4-2 5-1 6-7 |
          8-7 1-6 2-5 3-4 | 4-8 5-3 6-2 7-1""",
    10: """1-10 2-9 3-8 4-7 5-6 | 10-6 7-5 8-4 9-3 1-2 | 2-10 3-1 4-9 5-8 6-7 | 10-7 8-6 9-5 1-4 2-3 |
           3-10 4-2 5-1 6-9 7-8 | 10-8 9-7 1-6 2-5 3-4 | 4-10 5-3 6-2 7-1 8-9 | 10-9 1-8 2-7 3-6 4-5 |
           5-10 6-4 7-3 8-2 9-1""",
    12: """1-12 2-11 3-10 4-9 5-8 6-7 | 12-7 8-6 9-5 10-4 11-3 1-2 | 2-12 3-1 4-11 5-10 6-9 7-8 |
           12-8 9-7 10-6 11-5 1-4 2-3 | 3-12 4-2 5-1 6-11 7-10 8-9 | 12-9 10-8 11-7 1-6 2-5 3-4 |
           4-12 5-3 6-2 7-1 8-11 9-10 | 12-10 11-9 1-8 2-7 3-6 4-5 | 5-12 6-4 7-3 8-2 9-1 10-11 |
           12-11 1-10 2-9 3-8 4-7 5-6 | 6-12 7-5 8-4 9-3 10-2 11-1""",
    14: """1-14 2-13 3-12 4-11 5-10 6-9 7-8 | 14-8 9-7 10-6 11-5 12-4 13-3 1-2 |
           2-14 3-1 4-13 5-12 6-11 7-10 8-9 | 14-9 10-8 11-7 12-6 13-5 1-4 2-3 |
           3-14 4-2 5-1 6-13 7-12 8-11 9-10 | 14-10 11-9 12-8 13-7 1-6 2-5 3-4 |
           4-14 5-3 6-2 7-1 8-13 9-12 10-11 | 14-11 12-10 13-9 1-8 2-7 3-6 4-5 |
           5-14 6-4 7-3 8-2 9-1 10-13 11-12 | 14-12 13-11 1-10 2-9 3-8 4-7 5-6 |
           6-14 7-5 8-4 9-3 10-2 11-1 12-13 | 14-13 1-12 2-11 3-10 4-9 5-8 6-7 |
           7-14 8-6 9-5 10-4 11-3 12-2 13-1""",
}


def _published(size):
    return [[tuple(int(x) for x in board.split("-")) for board in line.split()]
            for line in BERGER_TABLES[size].split("|")]


@pytest.mark.parametrize("n", range(3, 15))
def test_single_round_robin_is_fide_berger_table(n):
    size = n + n % 2  # an odd count plays the next even table, its last number being the bye
    table = _published(size)
    assert berger_table(n) == table
    teams = [f"#{i}" for i in range(1, n + 1)]
    expected = []
    for number, boards in enumerate(table, start=1):
        matches = tuple((f"#{h}", f"#{a}") for h, a in boards if size not in (h, a) or n == size)
        bye = next((f"#{min(h, a)}" for h, a in boards if max(h, a) > n), None)
        expected.append(Round(number, matches, bye))
    assert round_robin(teams) == expected


@pytest.mark.parametrize("n", [4, 6, 8, 14])
def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle(n):
    teams = [f"#{i}" for i in range(1, n + 1)]
    single = round_robin(teams)
    double = round_robin(teams, double=True)
    assert [r.matches for r in double[:n - 1]] == [r.matches for r in single[:-2] + single[-2:][::-1]]
    assert [r.matches for r in double[n - 1:]] == [tuple((a, h) for h, a in r.matches) for r in single]
    # Without the swap, two teams would play three home or three away games in a row (the example).
    plain = single + [Round(0, tuple((a, h) for h, a in r.matches)) for r in single]
    assert max(_longest_run(plain, team) for team in teams) == 3


def test_duplicate_teams_refused():
    with pytest.raises(ValueError, match="only once"):
        round_robin(["A", "B", "A"])
