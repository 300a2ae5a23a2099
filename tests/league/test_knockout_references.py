"""Knockout first rounds pinned to published references (issue 21: they stay exactly as they are).

* 16 teams: the standard bracket order 1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11 (each half, quarter and
  eighth keeps the seeds' sums constant: the top two can only meet in the final), as brackets-manager.js's
  "inner_outer" seeding and Tabbycat's elimination draws lay it out.
* 12 teams: Tabbycat's partial elimination test case (draw/tests/test_generator.py, ``test_weird_numbers``):
  a break of 12 plays 5-12, 6-11, 7-10, 8-9 while seeds 1-4 bypass to the next round, where the top seed meets
  the winner of the lowest pairing (8-9) and so on.
* 8 teams: Tabbycat's ``test_even_numbers``: 1-8, 2-7, 3-6, 4-5 (as a set; our order is the bracket's).
"""

from league.brackets import knockout


def first_round(n):
    plan = knockout([f"seed:{i}" for i in range(1, n + 1)])
    numbers = [(int(m.home_source.split(":")[1]), int(m.away_source.split(":")[1]))
               for m in plan.matches if m.round_number == 1]
    return plan, numbers


def test_sixteen_teams_standard_first_round():
    plan, numbers = first_round(16)
    assert numbers == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert plan.byes == []
    assert all(a + b == 17 for a, b in numbers)


def test_twelve_teams_four_byes_then_top_seed_meets_the_lowest_survivor():
    plan, numbers = first_round(12)
    assert sorted(numbers) == [(5, 12), (6, 11), (7, 10), (8, 9)]
    assert sorted(plan.byes) == ["seed:1", "seed:2", "seed:3", "seed:4"]
    by_code = {m.code: m for m in plan.matches}
    first_codes = {frozenset((m.home_source, m.away_source)): m.code for m in plan.matches if m.round_number == 1}
    second = {(m.home_source, m.away_source) for m in plan.matches if m.round_number == 2}
    winner = {pair: f"winner:{first_codes[frozenset((f'seed:{pair[0]}', f'seed:{pair[1]}'))]}"
              for pair in [(8, 9), (5, 12), (7, 10), (6, 11)]}
    assert second == {("seed:1", winner[(8, 9)]), ("seed:4", winner[(5, 12)]), ("seed:2", winner[(7, 10)]),
                      ("seed:3", winner[(6, 11)])}
    assert by_code["F"].round_number == 4


def test_eight_teams_as_tabbycat():
    _plan, numbers = first_round(8)
    assert {frozenset(p) for p in numbers} == {frozenset(p) for p in [(1, 8), (2, 7), (3, 6), (4, 5)]}
