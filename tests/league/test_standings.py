"""Pool tables computed by hand: points, bonus points, walkovers and the RWC 2023 tie-breakers."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league import standings as s
from league.standings import MatchResult, PointsSystem, StandingEntry, compute_standings

WORLD_RUGBY = s.POINTS_PRESETS["world_rugby"]
NO_BONUS = PointsSystem(4, 2, 0, None, None)  # tie-breaker tests: table points from wins and draws only

# Team code -> World Rugby ranking (None: an unranked club side).
RANKINGS = {"FRA": 2, "NZL": 4, "ITA": 13, "URU": 17, "AAA": 8, "BBB": 3, "CCC": 10, "DDD": 12,
            "XXX": None, "YYY": None}


def entries(*codes):
    return [StandingEntry(entry_id=i, team_code=code, team_name=code.title(), world_ranking=RANKINGS.get(code))
            for i, code in enumerate(codes, start=1)]


def table(codes, games, points_system=NO_BONUS):
    """games: (home, away, home_score, away_score, home_tries, away_tries[, kind])."""
    ids = {code: i for i, code in enumerate(codes, start=1)}
    results = [MatchResult(ids[g[0]], ids[g[1]], *g[2:]) for g in games]
    return compute_standings(entries(*codes), results, points_system)


def order(rows):
    return [row.team_code for row in rows]


def line(row):
    """(P, W, D, L, PF, PA, TF, TA, BP, Pts)."""
    return (row.played, row.won, row.drawn, row.lost, row.points_for, row.points_against, row.tries_for,
            row.tries_against, row.bonus_points, row.points)


def test_world_rugby_table_with_a_draw_both_bonus_points_and_a_walkover():
    rows = table(["FRA", "NZL", "ITA", "URU"], [
        ("FRA", "NZL", 27, 20, 4, 2),  # FRA win + try bonus = 5; NZL lose by 7 = losing bonus 1
        ("ITA", "URU", 17, 17, 2, 2),  # draw: 2 each
        ("NZL", "ITA", 33, 30, 5, 4),  # NZL 4 + 1; ITA lose by 3 with 4 tries: both bonus points = 2
        ("FRA", "URU", 28, 0, 4, 0, "walkover_home"),  # the configured walkover: 28-0, 4 tries
    ], WORLD_RUGBY)
    assert order(rows) == ["FRA", "NZL", "ITA", "URU"]
    by = {row.team_code: row for row in rows}
    assert line(by["FRA"]) == (2, 2, 0, 0, 55, 20, 8, 2, 2, 10)
    assert line(by["NZL"]) == (2, 1, 0, 1, 53, 57, 7, 8, 2, 6)
    assert line(by["ITA"]) == (2, 0, 1, 1, 47, 50, 6, 7, 2, 4)
    assert line(by["URU"]) == (2, 0, 1, 1, 17, 45, 2, 6, 0, 2)
    assert [row.position for row in rows] == [1, 2, 3, 4]
    assert by["FRA"].points_difference == 35 and by["FRA"].tries_difference == 6


def test_the_team_giving_a_walkover_gets_no_losing_bonus():
    # A walkover configured as 5-0 would otherwise be a loss by 5 or fewer.
    rows = table(["FRA", "NZL"], [("FRA", "NZL", 0, 5, 0, 1, "walkover_away")], WORLD_RUGBY)
    assert [(row.team_code, row.bonus_points, row.points) for row in rows] == [("NZL", 0, 4), ("FRA", 0, 0)]
    # The same score played out gives the losing bonus point.
    rows = table(["FRA", "NZL"], [("FRA", "NZL", 0, 5, 0, 1)], WORLD_RUGBY)
    assert [(row.team_code, row.bonus_points, row.points) for row in rows] == [("NZL", 0, 4), ("FRA", 1, 1)]


def test_bonus_point_edges():
    rows = table(["FRA", "NZL"], [("FRA", "NZL", 15, 7, 3, 1)], WORLD_RUGBY)  # 3 tries, lose by 8: no bonus
    assert [row.points for row in rows] == [4, 0]
    rows = table(["FRA", "NZL"], [("FRA", "NZL", 22, 20, 4, 4)], WORLD_RUGBY)  # both 4 tries; lose by 2
    assert [(row.team_code, row.points) for row in rows] == [("FRA", 5), ("NZL", 2)]
    rows = table(["FRA", "NZL"], [("FRA", "NZL", 20, 20, 4, 4)], WORLD_RUGBY)  # a draw: no losing bonus
    assert [row.points for row in rows] == [3, 3]


def test_rugby_league_and_football_points():
    games = [("FRA", "NZL", 20, 10, 4, 2), ("ITA", "URU", 12, 12, 2, 2)]
    rows = table(["FRA", "NZL", "ITA", "URU"], games, s.POINTS_PRESETS["rugby_league"])
    assert {row.team_code: row.points for row in rows} == {"FRA": 2, "NZL": 0, "ITA": 1, "URU": 1}
    rows = table(["FRA", "NZL", "ITA", "URU"], games, s.POINTS_PRESETS["football"])
    assert {row.team_code: row.points for row in rows} == {"FRA": 3, "NZL": 0, "ITA": 1, "URU": 1}
    assert {row.team_code: row.bonus_points for row in rows} == {"FRA": 0, "NZL": 0, "ITA": 0, "URU": 0}


def test_as_dict_has_exactly_the_public_keys():
    row = table(["FRA", "NZL"], [("FRA", "NZL", 10, 3, 1, 0)])[0]
    data = row.as_dict()
    assert list(data) == ["position", "team", "played", "won", "drawn", "lost", "points_for", "points_against",
                          "tries_for", "tries_against", "bonus_points", "points"]
    assert data["team"] == "FRA" and data["position"] == 1 and data["points"] == 4


def test_results_of_other_pools_are_ignored():
    rows = compute_standings(entries("FRA", "NZL"), [MatchResult(1, 99, 50, 0, 7, 0)], NO_BONUS)
    assert all(row.played == 0 for row in rows)


# --- Two teams level: each step of the order ---------------------------------------------------------


def test_two_way_tie_a_head_to_head():
    # AAA and BBB on 4; BBB has the far better points difference, but AAA won their match.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 5, 1, 1), ("BBB", "CCC", 60, 0, 8, 0)])
    assert order(rows) == ["AAA", "BBB", "CCC"]
    assert rows[0].tie_break == s.HEAD_TO_HEAD


def test_two_way_tie_b_points_difference():
    # Drew each other (no head-to-head winner): AAA +30, BBB +20.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 1, 1), ("AAA", "CCC", 30, 0, 4, 0),
                                         ("BBB", "CCC", 20, 0, 2, 0)])
    assert order(rows) == ["AAA", "BBB", "CCC"]
    assert (rows[0].points, rows[1].points) == (6, 6)
    assert rows[0].tie_break == s.POINTS_DIFFERENCE


def test_two_way_tie_c_tries_difference():
    # Both +20 on points; tries difference AAA 0+2 = +2, BBB 0+3 = +3.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 2, 2), ("AAA", "CCC", 20, 0, 2, 0),
                                         ("BBB", "CCC", 20, 0, 3, 0)])
    assert order(rows) == ["BBB", "AAA", "CCC"]
    assert rows[0].tie_break == s.TRIES_DIFFERENCE


def test_two_way_tie_d_points_for():
    # Both +20 and +2 tries; AAA scored 40, BBB 35.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 1, 1), ("AAA", "CCC", 30, 10, 3, 1),
                                         ("BBB", "CCC", 25, 5, 3, 1)])
    assert order(rows) == ["AAA", "BBB", "CCC"]
    assert (rows[0].points_difference, rows[1].points_difference) == (20, 20)
    assert rows[0].tie_break == s.POINTS_FOR


def test_two_way_tie_e_tries_for():
    # Both +15 points, +2 tries and 30 points scored; AAA scored 4 tries, BBB 3.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 1, 1), ("AAA", "CCC", 20, 5, 3, 1),
                                         ("BBB", "CCC", 20, 5, 2, 0)])
    assert order(rows) == ["AAA", "BBB", "CCC"]
    assert rows[0].tie_break == s.TRIES_FOR


def test_two_way_tie_f_world_ranking():
    # Identical records: the World Rugby ranking decides (BBB 3rd beats AAA 8th).
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 1, 1), ("AAA", "CCC", 20, 5, 2, 1),
                                         ("BBB", "CCC", 20, 5, 2, 1)])
    assert order(rows) == ["BBB", "AAA", "CCC"]
    assert rows[0].tie_break == s.WORLD_RANKING


def test_unranked_teams_come_after_ranked_ones_then_by_code():
    rows = table(["YYY", "XXX", "AAA"], [])
    assert order(rows) == ["AAA", "XXX", "YYY"]
    assert [row.tie_break for row in rows] == [s.WORLD_RANKING, s.TEAM_CODE, ""]


def test_double_round_robin_head_to_head_counts_wins():
    # One win each against the other: no head-to-head winner, points difference decides.
    rows = table(["AAA", "BBB"], [("AAA", "BBB", 10, 5, 1, 1), ("BBB", "AAA", 30, 5, 4, 1)])
    assert order(rows) == ["BBB", "AAA"]
    assert rows[0].tie_break == s.POINTS_DIFFERENCE


# --- Three teams level -------------------------------------------------------------------------------


def test_three_way_tie_first_place_by_points_difference_then_restart_at_head_to_head():
    # A circle: AAA beat BBB, BBB beat CCC, CCC beat AAA, all on 4 points. Head-to-head cannot rank three,
    # so points difference picks the top: BBB +10 (AAA +5, CCC -15). Then the process restarts for the two
    # left: CCC beat AAA, so CCC is second although AAA has the better points difference.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 20, 10, 2, 1), ("BBB", "CCC", 30, 10, 3, 1),
                                         ("CCC", "AAA", 15, 10, 2, 1)])
    assert [row.points for row in rows] == [4, 4, 4]
    assert order(rows) == ["BBB", "CCC", "AAA"]
    assert [row.tie_break for row in rows] == [s.POINTS_DIFFERENCE, s.HEAD_TO_HEAD, ""]
    assert {row.team_code: row.points_difference for row in rows} == {"AAA": 5, "BBB": 10, "CCC": -15}


def test_three_way_tie_two_still_level_go_on_to_tries_difference():
    # Points difference: AAA +10, BBB +10, CCC -20. CCC is out of the race for first; between AAA and BBB
    # the criteria go on (tries difference: AAA -1, BBB +5), not back to their match (which AAA won).
    # Then AAA and CCC restart at head-to-head: CCC beat AAA.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 25, 10, 2, 2), ("BBB", "CCC", 35, 10, 5, 0),
                                         ("CCC", "AAA", 15, 10, 2, 1)])
    assert {row.team_code: row.points_difference for row in rows} == {"AAA": 10, "BBB": 10, "CCC": -20}
    assert order(rows) == ["BBB", "CCC", "AAA"]
    assert [row.tie_break for row in rows] == [s.TRIES_DIFFERENCE, s.HEAD_TO_HEAD, ""]


def test_three_way_tie_each_step_down_to_the_ranking():
    # Three identical records (all draws 10-10, 1 try each): the ranking orders them, BBB 3, AAA 8, CCC 10.
    rows = table(["AAA", "BBB", "CCC"], [("AAA", "BBB", 10, 10, 1, 1), ("BBB", "CCC", 10, 10, 1, 1),
                                         ("CCC", "AAA", 10, 10, 1, 1)])
    assert order(rows) == ["BBB", "AAA", "CCC"]
    assert [row.tie_break for row in rows] == [s.WORLD_RANKING, s.WORLD_RANKING, ""]


def test_three_way_tie_below_a_clear_leader():
    # FRA wins everything; AAA, BBB, CCC each beat one of the others (circle) and are level on 4.
    games = [("FRA", "AAA", 30, 0, 4, 0), ("FRA", "BBB", 30, 0, 4, 0), ("FRA", "CCC", 30, 0, 4, 0),
             ("AAA", "BBB", 20, 10, 2, 1), ("BBB", "CCC", 30, 10, 3, 1), ("CCC", "AAA", 15, 10, 2, 1)]
    rows = table(["AAA", "BBB", "CCC", "FRA"], games)
    assert order(rows) == ["FRA", "BBB", "CCC", "AAA"]
    assert [row.position for row in rows] == [1, 2, 3, 4]


def test_three_way_tie_narrowed_by_points_for_then_ranking():
    games = [("AAA", "BBB", 25, 20, 2, 2), ("BBB", "CCC", 20, 15, 2, 2), ("CCC", "AAA", 20, 20, 2, 2)]
    # First a near miss: CCC and AAA draw, so AAA 6, BBB 4, CCC 2 - no tie.
    rows = table(["AAA", "BBB", "CCC"], games)
    assert order(rows) == ["AAA", "BBB", "CCC"]
    # Now the true circle with equal differences: every team wins once by 5 and loses once by 5.
    games = [("AAA", "BBB", 25, 20, 2, 2), ("BBB", "CCC", 20, 15, 2, 2), ("CCC", "AAA", 20, 15, 2, 2)]
    rows = table(["AAA", "BBB", "CCC"], games)
    pf = {row.team_code: row.points_for for row in rows}
    assert pf == {"AAA": 40, "BBB": 40, "CCC": 35}
    # AAA and BBB level on everything through tries scored (4 each): the ranking puts BBB (3) first;
    # then AAA and CCC restart at head-to-head: CCC beat AAA.
    assert order(rows) == ["BBB", "CCC", "AAA"]
    assert [row.tie_break for row in rows] == [s.WORLD_RANKING, s.HEAD_TO_HEAD, ""]


def test_two_separate_ties_in_one_table():
    games = [
        ("AAA", "BBB", 20, 10, 2, 1), ("BBB", "CCC", 20, 10, 2, 1), ("CCC", "AAA", 20, 10, 2, 1),
        ("DDD", "AAA", 40, 0, 5, 0), ("BBB", "DDD", 15, 10, 2, 1), ("CCC", "DDD", 12, 10, 1, 1),
        ("AAA", "DDD", 0, 0, 0, 0),
    ]
    rows = table(["AAA", "BBB", "CCC", "DDD"], games)
    by = {row.team_code: row for row in rows}
    assert {c: by[c].points for c in by} == {"AAA": 6, "BBB": 8, "CCC": 8, "DDD": 6}
    # BBB v CCC level on 8: BBB won their match. AAA v DDD level on 6: they drew 0-0 and DDD won 40-0
    # once, so DDD has more head-to-head wins.
    assert order(rows) == ["BBB", "CCC", "DDD", "AAA"]
    assert [row.tie_break for row in rows] == [s.HEAD_TO_HEAD, "", s.HEAD_TO_HEAD, ""]


@pytest.mark.parametrize("n", [1, 5, 20])
def test_empty_results_give_a_table_ordered_by_ranking(n):
    codes = [f"T{i:02d}" for i in range(n)]
    rows = table(codes, [])
    assert [row.position for row in rows] == list(range(1, n + 1))
    assert order(rows) == codes  # unranked and level on everything: by code
    assert all(row.points == 0 and row.played == 0 for row in rows)


def test_points_system_from_a_tournament_like_object():
    class T:
        win_points, draw_points, loss_points, try_bonus_threshold, losing_bonus_margin = 3, 1, 0, None, 5

    assert PointsSystem.from_tournament(T) == PointsSystem(3, 1, 0, None, 5)


@settings(max_examples=100)
@given(st.data())
def test_table_invariants(data):
    n = data.draw(st.integers(min_value=2, max_value=8))
    codes = [f"T{i}" for i in range(n)]
    pairs = [(h, a) for h in range(1, n + 1) for a in range(1, n + 1) if h != a]
    chosen = data.draw(st.lists(st.sampled_from(pairs), max_size=20))
    results = [MatchResult(h, a, data.draw(st.integers(0, 60)), data.draw(st.integers(0, 60)),
                           data.draw(st.integers(0, 8)), data.draw(st.integers(0, 8)),
                           data.draw(st.sampled_from(["played", "walkover_home", "walkover_away"])))
               for h, a in chosen]
    rows = compute_standings(entries(*codes), results, WORLD_RUGBY)
    assert sorted(row.position for row in rows) == list(range(1, n + 1))
    assert [row.position for row in rows] == list(range(1, n + 1))
    assert all(a.points >= b.points for a, b in zip(rows, rows[1:], strict=False))
    assert sum(r.won for r in rows) == sum(r.lost for r in rows)
    assert sum(r.drawn for r in rows) % 2 == 0
    assert sum(r.played for r in rows) == 2 * len(results)
    assert sum(r.points_for for r in rows) == sum(r.points_against for r in rows)
    assert sum(r.tries_for for r in rows) == sum(r.tries_against for r in rows)
    for r in rows:
        assert r.played == r.won + r.drawn + r.lost
        assert r.points == 4 * r.won + 2 * r.drawn + r.bonus_points
        assert 0 <= r.bonus_points <= 2 * r.played
    # The order does not depend on the order the results come in.
    again = compute_standings(entries(*codes), list(reversed(results)), WORLD_RUGBY)
    assert [r.team_code for r in again] == [r.team_code for r in rows]
