"""Service tests of online play: every error case of the move API, retries, computer seats, finishing."""

import random
import threading
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from engine import new_game
from engine.core import Outcome
from league.models import Fixture, Result
from league.selectors import pool_standings
from matches import services
from matches.models import Match, MatchAction, MatchSeat
from tests.matches.conftest import make_fixture

pytestmark = pytest.mark.django_db


def start(fixture, seed=7, **kw):
    return services.match_start_for_fixture(fixture=fixture, seed=seed, **kw)


def submit(match, seat, action, user, ply=None, **kw):
    match.refresh_from_db()
    return services.match_submit_action(match=match, seat=seat, ply=match.ply + 1 if ply is None else ply,
                                        action=action, user=user, **kw)


def play_to_end(match, users, rng_seed=0):
    """Both people play legal random moves through the service until the match is over."""
    rng = random.Random(rng_seed)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.LIVE:
            return match
        state = services.match_state(match)
        seat = state.to_act()[0]
        submit(match, seat, rng.choice(state.legal_actions(seat)), users[seat])
    raise AssertionError("match did not finish")


# ---- starting -------------------------------------------------------------------------------------


def test_start_for_fixture_seats_follow_entries(tournament, players):
    fixture = make_fixture(tournament, home_player=players[0])  # away entry has nobody: the computer plays it
    match = start(fixture)
    seats = {s.seat: s for s in match.seats.all()}
    assert seats[0].kind == MatchSeat.Kind.PERSON and seats[0].user == players[0]
    assert seats[1].kind == MatchSeat.Kind.COMPUTER and seats[1].computer_level == "club"
    assert match.ruleset == "rugby-league-cards" and match.options["sets_per_half"] == 1
    assert len(seats[0].join_code) == 12 and seats[0].join_code != seats[1].join_code
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.LIVE
    # Starting again returns the same match.
    assert start(fixture).pk == match.pk


def test_start_refuses_manual_tournament_and_missing_team(tournament, players):
    fixture = make_fixture(tournament, home_player=players[0])
    tournament.ruleset = "manual"
    tournament.save()
    with pytest.raises(ValidationError):
        start(fixture)
    tournament.ruleset = "rugby-league-cards"
    tournament.save()
    fixture.away = None
    fixture.save()
    with pytest.raises(ValidationError):
        start(fixture)


def test_knockout_match_switches_on_extra_time(tournament, players):
    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1],
                           stage=Fixture.Stage.KNOCKOUT)
    assert start(fixture).options["extra_time"] is True


def test_friendly_has_no_fixture(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:random",
                                           seed=3)
    assert match.fixture is None and match.is_friendly
    seats = {s.seat: s for s in match.seats.all()}
    # The former name "random" is taken as today's closest level.
    assert seats[0].user == players[0] and seats[1].computer_level == "beginner"
    with pytest.raises(ValidationError):
        services.match_create_friendly(ruleset="no-such-game", user=players[0])
    with pytest.raises(ValidationError):
        services.match_create_friendly(ruleset="seasons", user=players[0], options={"nope": 1})


# ---- the move API's cases ------------------------------------------------------------------------


def test_valid_move_appends_to_the_log(fixture_people, players):
    match = start(fixture_people)
    out = submit(match, 0, "card:3", players[0])
    assert not out.replayed
    log = list(MatchAction.objects.filter(match=match).values_list("ply", "seat", "action", "user"))
    assert log == [(1, 0, "card:3", players[0].pk)]
    match.refresh_from_db()
    assert match.ply == 1 and match.snapshot_ply == 1


def test_403_when_the_caller_does_not_hold_the_seat(fixture_people, players, organiser):
    match = start(fixture_people)
    for user, seat in ((players[1], 0), (organiser, 0), (None, 1)):
        with pytest.raises(services.MatchError) as exc:
            submit(match, seat, "card:1", user)
        assert exc.value.code == "forbidden"
    assert MatchAction.objects.count() == 0


def test_403_for_a_computer_seat_even_by_its_entry_player(tournament, players):
    match = start(make_fixture(tournament, home_player=players[0]))
    with pytest.raises(services.MatchError) as exc:
        submit(match, 1, "card:1", players[0], held_seats={0, 1})
    assert exc.value.code == "forbidden"


def test_409_when_ply_is_not_the_next(fixture_people, players):
    match = start(fixture_people)
    submit(match, 0, "card:1", players[0])
    for ply in (1, 3, 50):  # already played by someone else / in the future
        with pytest.raises(services.MatchError) as exc:
            submit(match, 1, "card:1", players[1], ply=ply)
        assert exc.value.code == "conflict" and exc.value.reason == "stale_ply"


def test_409_when_it_is_not_this_seats_turn(fixture_people, players):
    match = start(fixture_people)
    submit(match, 0, "card:1", players[0])  # home has chosen; only away is to act
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "card:2", players[0])
    assert exc.value.code == "conflict" and exc.value.reason == "not_your_turn"


def test_400_for_an_illegal_action_lists_the_legal_ones(fixture_people, players):
    match = start(fixture_people)
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "card:9", players[0])
    assert exc.value.code == "invalid"
    assert exc.value.legal == [f"card:{i}" for i in range(1, 7)]
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "", players[0])
    assert exc.value.code == "invalid"
    with pytest.raises(services.MatchError) as exc:
        services.match_submit_action(match=match, seat="x", ply=1, action="card:1", user=players[0])
    assert exc.value.code == "invalid"


def test_a_retried_request_is_answered_as_the_first_time_and_applies_nothing(fixture_people, players):
    match = start(fixture_people)
    first = submit(match, 0, "card:2", players[0], ply=1)
    again = submit(match, 0, "card:2", players[0], ply=1)
    assert again.replayed and not first.replayed
    assert MatchAction.objects.filter(match=match).count() == 1
    assert again.state.to_dict() == first.state.to_dict()
    # A different action at the same ply is not a retry.
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "card:3", players[0], ply=1)
    assert exc.value.code == "conflict"


def test_409_when_the_match_is_over(fixture_people, players):
    match = play_to_end(start(fixture_people), players)
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "card:1", players[0])
    assert exc.value.code == "conflict"


def test_simultaneous_choice_rebases_for_the_web_but_not_the_api(fixture_people, players):
    match = start(fixture_people)
    submit(match, 0, "card:1", players[0], ply=1)  # both were to choose; home was quicker
    with pytest.raises(services.MatchError):
        submit(match, 1, "card:4", players[1], ply=1)
    out = submit(match, 1, "card:4", players[1], ply=1, rebase_simultaneous=True)
    assert not out.replayed
    assert list(MatchAction.objects.filter(match=match).values_list("ply", "seat", "action")) == [
        (1, 0, "card:1"), (2, 1, "card:4")]
    # A double tap of the rebased request is a retry, not a new move.
    assert submit(match, 1, "card:4", players[1], ply=1, rebase_simultaneous=True).replayed
    assert MatchAction.objects.filter(match=match).count() == 2


# ---- computer seats ----------------------------------------------------------------------------------


def test_computer_moves_right_after_the_person(tournament, players):
    match = start(make_fixture(tournament, home_player=players[0]))
    # Both sides choose blind at once: the computer has already made its choice at kick-off.
    assert list(MatchAction.objects.filter(match=match).values_list("seat", "by_computer")) == [(1, True)]
    out = submit(match, 0, "card:1", players[0])
    assert out.computer_moves >= 1
    log = list(MatchAction.objects.filter(match=match).order_by("ply").values_list("seat", "by_computer"))
    assert log[1] == (0, False) and log[2] == (1, True)
    # The person is to act again (the computer never leaves a turn hanging).
    assert 0 in out.state.to_act()


def test_organiser_replaces_a_seat_with_the_computer(fixture_people, players, organiser):
    match = start(fixture_people)
    submit(match, 0, "card:1", players[0])
    with pytest.raises(services.MatchError) as exc:
        services.match_replace_seat_with_computer(match=match, seat=1, user=players[0])
    assert exc.value.code == "forbidden"
    services.match_replace_seat_with_computer(match=match, seat=1, user=organiser, level="beginner")
    match.refresh_from_db()
    assert match.ply >= 2  # the computer answered at once (and chose blind for the next tackle)
    assert MatchAction.objects.get(match=match, ply=2).by_computer
    with pytest.raises(services.MatchError) as exc:
        submit(match, 1, "card:2", players[1])
    assert exc.value.code == "forbidden"


def test_all_computer_fixture_plays_out_at_once(tournament):
    match = start(make_fixture(tournament))
    assert match.status == Match.Status.FINISHED
    assert Result.objects.get(fixture=match.fixture).source == "online"


# ---- state, replay and finishing ---------------------------------------------------------------------


def test_state_is_rebuilt_from_the_log_without_the_snapshot(fixture_people, players):
    match = start(fixture_people)
    for action, seat in (("card:1", 0), ("card:2", 1), ("card:3", 1), ("card:4", 0)):
        submit(match, seat, action, players[seat])
    match.refresh_from_db()
    cached = services.match_state(match).to_dict()
    match.snapshot = None
    match.snapshot_ply = None
    replayed = services.match_state(match).to_dict()
    assert cached == replayed
    assert services.match_state(match, upto=0).to_dict() == new_game(
        match.ruleset, seed=match.seed, options=match.options).to_dict()


def test_finishing_writes_the_result_and_updates_the_standings(fixture_people, players):
    match = play_to_end(start(fixture_people, seed=11), players)
    state = services.match_state(match)
    outcome = state.outcome()
    result = Result.objects.get(fixture=fixture_people)
    assert (result.home_score, result.away_score) == outcome.points
    assert (result.home_tries, result.away_tries) == outcome.tries
    assert result.source == "online" and result.stats["ruleset"] == "rugby-league-cards"
    assert match.outcome["winner"] in ("home", "away", "draw")
    rows = {row.team_code: row for row in pool_standings(fixture_people.pool)}
    assert set(rows) == {"FRA", "NZL"}
    assert all(r.played == 1 for r in rows.values())
    assert (rows["FRA"].points_for, rows["NZL"].points_for) == outcome.points


def test_result_mapping_for_seasons_counts_whole_seasons_and_halved():
    outcome = Outcome(points=(Fraction(11, 2), Fraction(11, 2)), tries=(0, 0),
                      stats=({"seasons_won": 5, "halved": 1}, {"seasons_won": 5, "halved": 1}))
    mapped = services.result_from_outcome("seasons", outcome)
    assert (mapped["home_score"], mapped["away_score"]) == (5, 5)
    assert mapped["stats"]["home"]["halved"] == 1 and mapped["winner_seat"] is None
    assert mapped["stats"]["ruleset"] == "seasons"
    outcome = Outcome(points=(7, 4), tries=(0, 0), stats=({"seasons_won": 7, "halved": 0},
                                                           {"seasons_won": 4, "halved": 0}))
    assert services.result_from_outcome("seasons", outcome)["winner_seat"] == 0


def test_abandon_puts_the_fixture_back(fixture_people, organiser, players):
    match = start(fixture_people)
    with pytest.raises(services.MatchError):
        services.match_abandon(match=match, user=players[0])
    services.match_abandon(match=match, user=organiser)
    fixture_people.refresh_from_db()
    assert fixture_people.status == Fixture.Status.SCHEDULED
    with pytest.raises(services.MatchError) as exc:
        submit(match, 0, "card:1", players[0])
    assert exc.value.code == "conflict"
    # The organiser can start the fixture afresh; the abandoned match keeps its log.
    again = start(fixture_people, seed=99)
    assert again.pk != match.pk and again.fixture == fixture_people
    match.refresh_from_db()
    assert match.fixture is None and match.outcome["abandoned_fixture"] == fixture_people.pk


# ---- concurrency (PostgreSQL row lock) ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL; SQLite serialises writes")
def test_two_threads_submitting_the_same_ply_exactly_one_wins(tournament, players):
    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    match = start(fixture)
    barrier = threading.Barrier(2)
    outcomes = []

    def go(seat, action):
        from django.db import connections
        try:
            barrier.wait()
            services.match_submit_action(match=Match.objects.get(pk=match.pk), seat=seat, ply=1, action=action,
                                         user=players[seat])
            outcomes.append("created")
        except services.MatchError as exc:
            outcomes.append(exc.code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=go, args=(0, "card:1")), threading.Thread(target=go, args=(1, "card:2"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "created"]
    assert MatchAction.objects.filter(match=match).count() == 1
