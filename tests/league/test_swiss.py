"""Swiss pairings (pure): score groups first, never a rematch, never a dead end, FIDE-like home and away.

The referee in ``swiss_oracle`` decides by brute force what the best round would have been; the property
tests compare every round of random tournaments with it. ``bench/swiss.py`` runs the larger sweep.
"""

import itertools
import random

import networkx as nx
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from league import swiss
from league.swiss import SwissError, SwissRound, swiss_pairings, swiss_rounds_possible
from tests.league import swiss_oracle as referee


def pair(ranked, **state):
    return swiss_pairings(ranked, **state)


def as_sets(rnd):
    return {frozenset(p) for p in rnd.pairs}


# --- The two examples ---------------------------------------------------------------------------


def test_pairs_within_score_groups_first():
    # A-D on 8 points, E and F on 0, C-D already played: (A, C), (B, D), (E, F) keeps everyone in their group
    # (the ranking-only pairing made (A, B), (C, E), (D, F)).
    rnd = swiss_pairings(list("ABCDEF"), played=[("C", "D")], points={"A": 8, "B": 8, "C": 8, "D": 8, "E": 0, "F": 0})
    assert as_sets(rnd) == {frozenset("AC"), frozenset("BD"), frozenset("EF")}


def test_a_round_that_would_leave_no_rematch_free_round_is_refused():
    # Rounds A-B, C-D, E-F then F-C, D-A, B-E; ranking D, E, A, B, F, C. Pairing D-E, A-F, B-C leaves two
    # triangles (A, C, E and B, D, F) unplayed: no fourth round. Three of the four legal third rounds keep it.
    played = [("A", "B"), ("C", "D"), ("E", "F"), ("F", "C"), ("D", "A"), ("B", "E")]
    ranked = list("DEABFC")
    assert as_sets(swiss_pairings(ranked, played=played)) == {frozenset("DE"), frozenset("AF"), frozenset("BC")}
    third = swiss_pairings(ranked, played=played, rounds_left=1)
    assert as_sets(third) == {frozenset("DE"), frozenset("AC"), frozenset("BF")}
    fourth = swiss_pairings(ranked, played=played + list(third.pairs))
    assert not as_sets(fourth) & {frozenset(p) for p in played + list(third.pairs)}


# --- Rules kept from before -----------------------------------------------------------------------------


def test_first_round_pairs_neighbours_and_later_rounds_pair_equal_points():
    ranked = ["A", "B", "C", "D", "E", "F", "G", "H"]
    first = swiss_pairings(ranked)
    assert first.pairs == (("A", "B"), ("C", "D"), ("E", "F"), ("G", "H"))
    # Winners A, C, E, G on 4 points, losers on 0: winners meet winners.
    points = {"A": 4, "C": 4, "E": 4, "G": 4, "B": 0, "D": 0, "F": 0, "H": 0}
    second = swiss_pairings(["A", "C", "E", "G", "B", "D", "F", "H"], played=first.pairs, points=points)
    assert as_sets(second) == {frozenset("AC"), frozenset("EG"), frozenset("BD"), frozenset("FH")}


def test_avoids_rematch_by_taking_next_team_down():
    second = swiss_pairings(["A", "B", "C", "D"], played=[("A", "B"), ("C", "D")])
    assert as_sets(second) == {frozenset("AC"), frozenset("BD")}


def test_bye_goes_to_lowest_ranked_without_one():
    first = swiss_pairings(["A", "B", "C", "D", "E"])
    assert first.bye == "E"
    second = swiss_pairings(["E", "A", "C", "B", "D"], played=first.pairs, byes={"E": 1})
    assert second.bye == "D"
    assert all("E" not in pair or "D" not in pair for pair in second.pairs)


def test_bye_moves_up_when_the_lowest_ranked_resting_leaves_no_round():
    # A-D have all met each other: if E, F or G rests, two of A-D must meet again. So one of A-D rests:
    # the lowest-ranked, D.
    rnd = swiss_pairings(list("ABCDEFG"), played=list(itertools.combinations("ABCD", 2)))
    assert rnd.bye == "D"
    assert all(len(set(p) & set("ABC")) == 1 for p in rnd.pairs)


def test_impossible_round_is_refused():
    with pytest.raises(SwissError):
        swiss_pairings(["A", "B"], played=[("A", "B")])
    with pytest.raises(SwissError):
        swiss_pairings(["A"])
    with pytest.raises(ValueError):
        swiss_pairings(["A", "A"])


def test_more_rounds_asked_than_possible_still_pairs_this_one():
    # Four teams can play three rounds; asking for five more still pairs a round that keeps as many as possible.
    rnd = swiss_pairings(list("ABCD"), rounds_left=5)
    assert len(rnd.pairs) == 2
    # After A-B, C-D and A-C, B-D only A-D, B-C is left: whatever is asked, that is the round.
    rnd = swiss_pairings(list("ABCD"), played=[("A", "B"), ("C", "D"), ("A", "C"), ("B", "D")], rounds_left=3)
    assert as_sets(rnd) == {frozenset("AD"), frozenset("BC")}


@pytest.mark.parametrize("n, expected", [(0, 0), (1, 0), (2, 1), (3, 3), (4, 3), (5, 5), (6, 5), (16, 15),
                                         (24, 23), (25, 25)])
def test_rounds_possible_is_the_full_round_robin(n, expected):
    # Every pair meets at most once (and, with an odd count, everyone rests at most once): that many rounds,
    # and the look-ahead guarantees every one of them.
    assert swiss_rounds_possible(n) == expected


# --- Home and away --------------------------------------------------------------------------------------


def test_home_goes_to_team_with_fewer_home_matches_without_a_venue_history():
    rnd = swiss_pairings(["A", "B"], home_counts={"A": 2, "B": 1})
    assert rnd.pairs == (("B", "A"),)


@pytest.mark.parametrize("venues, home", [
    ({"A": "HAH", "B": "AHA"}, "B"),      # B has more away games than home ones
    ({"A": "HA", "B": "AH"}, "A"),        # balanced: A was away last time
    ({"A": "AHAH", "B": "HAAH"}, "B"),    # balanced, same last two venues: B was away in round 2, A at home
    ({"A": "HA", "B": "HA"}, "A"),        # identical histories: the higher-ranked team
    ({"A": "AAHH", "B": "HHAH"}, "B"),    # B has more home games, but A hosting would be A's third in a row
    ({"A": "HH", "B": "HH"}, "A"),        # unavoidable: someone gets a third, the higher-ranked hosts
])
def test_home_and_away_fide_like(venues, home):
    assert swiss_pairings(["A", "B"], venues=venues).pairs[0][0] == home


def test_pairing_avoids_a_third_home_or_away_game_in_a_row_within_a_group():
    # Neighbours A-B and C-D would each give someone a third home or away game; A-C and B-D do not.
    venues = {"A": "HH", "B": "HH", "C": "AA", "D": "AA"}
    rnd = swiss_pairings(list("ABCD"), venues=venues)
    assert set(rnd.pairs) == {("C", "A"), ("D", "B")}


def test_score_groups_come_before_home_and_away():
    venues = {"A": "HH", "B": "HH", "C": "AA", "D": "AA"}
    rnd = swiss_pairings(list("ABCD"), venues=venues, points={"A": 4, "B": 4, "C": 0, "D": 0})
    assert as_sets(rnd) == {frozenset("AB"), frozenset("CD")}


# --- Against the referee --------------------------------------------------------------------------------


def check(n, rounds, seed, *, bonus):
    with referee.searches_out_of_steps(swiss) as ran_out:
        report = referee.play(pair, n, rounds, seed, bonus=bonus)
    assert not report.dead_end, "a promised round could not be paired"
    assert report.rounds == rounds
    assert report.rematches == 0
    assert report.cross == report.cross_min, "avoidable cross-group pairs"
    assert report.avoidable_triples == 0, "an avoidable third home or away game in a row"
    assert report.inconclusive == 0
    assert not ran_out, "a look-ahead search ran out of steps"


@hsettings(max_examples=150, deadline=None)
@given(n=st.integers(min_value=6, max_value=24), data=st.data())
def test_random_tournaments_never_dead_end_and_pair_as_well_as_possible(n, data):
    rounds = data.draw(st.integers(min_value=1, max_value=swiss_rounds_possible(n)), label="rounds")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    check(n, rounds, seed, bonus=data.draw(st.booleans(), label="bonus points"))


@pytest.mark.parametrize("n", range(6, 13))
def test_every_allowed_number_of_rounds_small_fields(n):
    for rounds in range(1, swiss_rounds_possible(n) + 1):
        for seed in range(4):
            check(n, rounds, (n, rounds, seed), bonus=seed % 2 == 1)


@pytest.mark.parametrize("n", [24, 25])
def test_a_full_length_swiss_of_24_and_25_teams(n):
    # Every pair meets once (and with 25 everyone rests once): each round must leave the rest pairable.
    for seed in range(2):
        check(n, swiss_rounds_possible(n), seed, bonus=seed == 1)


def test_byes_rotate_and_everybody_plays_once_a_round():
    for n in (5, 7, 11):
        teams = [f"T{i:02d}" for i in range(n)]
        played, byes = [], {}
        for number in range(n):
            rnd = swiss_pairings(teams[::-1], played=played, byes=byes, rounds_left=n - 1 - number)
            seen = [t for p in rnd.pairs for t in p] + [rnd.bye]
            assert sorted(seen) == teams
            played += rnd.pairs
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
        assert byes == dict.fromkeys(teams, 1)
        assert len({frozenset(p) for p in played}) == len(played) == n * (n - 1) // 2


# --- The pieces, against brute force --------------------------------------------------------------------


def _adjacency(graph, vertices):
    index = {v: i for i, v in enumerate(vertices)}
    return [sum(1 << index[u] for u in graph[v]) for v in vertices]


@hsettings(max_examples=150, deadline=None)
@given(m=st.sampled_from([2, 4, 6, 8, 10]), k=st.integers(1, 5), density=st.floats(0.3, 1.0),
       seed=st.integers(0, 10**6))
def test_disjoint_perfect_matchings_agree_with_brute_force(m, k, density, seed):
    rng = random.Random(seed)
    graph = nx.Graph()
    graph.add_nodes_from(range(m))
    graph.add_edges_from((a, b) for a, b in itertools.combinations(range(m), 2) if rng.random() < density)
    adj = _adjacency(graph, range(m))
    found = swiss._disjoint_perfect_matchings(adj, k)
    edges = frozenset(frozenset(e) for e in graph.edges)
    assert (found is not None) == referee.rounds_remain(range(m), edges, k)
    if found is not None:
        assert len(found) == k
        used = [frozenset(e) for matching in found for e in matching]
        assert len(used) == len(set(used)) and set(used) <= edges
        assert all(sorted(v for e in matching for v in e) == list(range(m)) for matching in found)


def test_disjoint_perfect_matchings_hard_cases():
    petersen = nx.petersen_graph()  # cubic, no odd cut below 3, yet not 3-edge-colourable
    adj = _adjacency(petersen, range(10))
    assert swiss._disjoint_perfect_matchings(adj, 1) is not None
    assert swiss._disjoint_perfect_matchings(adj, 2) is None  # every perfect matching leaves two 5-cycles
    two_triangles = _adjacency(nx.disjoint_union(nx.complete_graph(3), nx.complete_graph(3)), range(6))
    assert swiss._disjoint_perfect_matchings(two_triangles, 1) is None
    # Two K5 joined by two edges: every vertex has degree >= 4, but an odd cut of 2 allows only 2 rounds.
    joined = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    joined.add_edges_from([(0, 5), (1, 6)])
    adj = _adjacency(joined, range(10))
    assert swiss._min_odd_cut(adj) == 2
    assert swiss._disjoint_perfect_matchings(adj, 3) is None
    assert swiss._disjoint_perfect_matchings(adj, 2) is not None
    # A whole round robin: K24 holds 23 disjoint perfect matchings, fixed edges respected.
    k24 = [((1 << 24) - 1) & ~(1 << v) for v in range(24)]
    found = swiss._disjoint_perfect_matchings(k24, 23, fixed=[(0, 23)])
    assert len(found) == 23 and (0, 23) in found[0]


@hsettings(max_examples=60, deadline=None)
@given(m=st.sampled_from([4, 6, 8]), seed=st.integers(0, 10**6))
def test_rounds_come_cheapest_first_and_all_of_them(m, seed):
    rng = random.Random(seed)
    teams = [f"T{i}" for i in range(m)]
    played = [p for p in itertools.combinations(teams, 2) if rng.random() < 0.3]
    points = {t: rng.choice((0, 2, 4)) for t in teams}
    venues = {t: rng.choice(("", "H", "HH", "AA", "HA")) for t in teams}
    problem = swiss._Round(teams, played, {}, points, venues, {})
    ranked = list(problem._by_cost(list(range(m))))
    costs = [cost for cost, _matching in ranked]
    assert costs == sorted(costs)
    met = {frozenset(p) for p in played}
    allowed = {v: {u for u in teams if u != v and frozenset((u, v)) not in met} for v in teams}
    brute = list(referee._perfect_matchings(teams, allowed))
    assert len(ranked) == len(brute)
    assert {frozenset(frozenset((teams[i], teams[j])) for i, j in matching) for _c, matching in ranked} == {
        frozenset(frozenset(p) for p in matching) for matching in brute}


def test_the_round_dataclass_is_unchanged():
    assert SwissRound(pairs=(("A", "B"),)).bye is None


# --- Round one by seed (issue 14.8): the top half against the bottom half ---------------------------------


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    rnd = swiss.swiss_first_round(list("ABCDEFGH"))
    assert rnd.bye is None
    assert rnd.pairs == (("A", "E"), ("F", "B"), ("C", "G"), ("H", "D"))  # home shared: board 2 and 4 swapped
    odd = swiss.swiss_first_round(list("ABCDEFG"))
    assert odd.bye == "G" and as_sets(odd) == {frozenset("AD"), frozenset("BE"), frozenset("CF")}
    with pytest.raises(SwissError):
        swiss.swiss_first_round(["A"])
    with pytest.raises(ValueError):
        swiss.swiss_first_round(list("AAB"))


@pytest.mark.parametrize("n", range(2, 17))
def test_after_round_one_by_seed_every_promised_round_still_pairs(n):
    """Every number of rounds up to swiss_rounds_possible stays reachable after the seeded round one, whatever
    the results: random results, 20 tournaments per size, never a rematch nor a dead end."""
    rng = random.Random(n)
    teams = [f"T{i:02d}" for i in range(n)]
    total = swiss_rounds_possible(n)
    for _ in range(20):
        first = swiss.swiss_first_round(teams)
        played = list(first.pairs)
        byes = {first.bye: 1} if first.bye else {}
        points = dict.fromkeys(teams, 0)
        for home, away in first.pairs:
            points[rng.choice((home, away))] += 2
        for number in range(2, total + 1):
            ranked = sorted(teams, key=lambda t: (-points[t], t))
            rnd = swiss_pairings(ranked, played=played, byes=byes, points=points, rounds_left=total - number)
            assert not {frozenset(p) for p in rnd.pairs} & {frozenset(p) for p in played}
            played += rnd.pairs
            if rnd.bye:
                byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
            for home, away in rnd.pairs:
                points[rng.choice((home, away))] += 2
