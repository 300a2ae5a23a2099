"""A simulated match keeps its whole action log in one row (issue 17), and stays replayable and the audit trail;
matches stored before, one ``MatchAction`` row per action, replay the same way (both forms are read).

Also pinned: the queries of one simulated fixture and of the bookkeeping after it, whatever the tournament.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.models import Fixture, Result, Team
from league.services import tournament_create_from_preset as preset_run
from matches import services, simulation
from matches.models import Match, MatchAction, MatchSeat
from matches.selectors import match_action, match_actions
from tests.matches.sim_helpers import rwc_tournament

pytestmark = pytest.mark.django_db


def _as_rows(match: Match) -> Match:
    """A copy of ``match`` stored the older way: no ``action_log``, one ``MatchAction`` row per action."""
    rows = Match.objects.create(ruleset=match.ruleset, options=match.options, seed=match.seed, status=match.status,
                                ply=match.ply, outcome=match.outcome, finished_at=match.finished_at)
    for seat in match.seats.all():
        MatchSeat.objects.create(match=rows, seat=seat.seat, kind=seat.kind, computer_level=seat.computer_level,
                                 name=seat.name)
    MatchAction.objects.bulk_create([MatchAction(match=rows, ply=ply, seat=seat, action=action, by_computer=True)
                                     for ply, (seat, action) in enumerate(match.action_log, start=1)])
    return rows


@pytest.fixture
def simulated():
    tournament = rwc_tournament()
    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk").first()
    outcome = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=3)
    return Match.objects.get(pk=outcome.match_id)


def test_a_simulated_match_is_one_row_and_replays_like_the_row_per_action_form(simulated):
    assert simulated.action_log and len(simulated.action_log) == simulated.ply
    assert not MatchAction.objects.filter(match=simulated).exists()
    legacy = _as_rows(simulated)
    both = (simulated, legacy)
    assert [(a.ply, a.seat, a.action) for a in match_actions(simulated)] == \
        [(a.ply, a.seat, a.action) for a in match_actions(legacy)]
    for ply in (0, 1, simulated.ply // 2, simulated.ply):
        states = [services.match_state(m, upto=ply) for m in both]
        assert states[0].to_dict() == states[1].to_dict()
        assert [getattr(match_action(m, ply), "action", None) for m in both][0] == \
            [getattr(match_action(m, ply), "action", None) for m in both][1]
    final = services.match_state(simulated)
    result = Result.objects.get(fixture=simulated.fixture)
    assert final.is_over and tuple(final.outcome().points) == (result.home_score, result.away_score)
    assert match_actions(simulated, after=5, upto=7)[0].ply == 6 and len(match_actions(simulated, after=5, upto=7)) == 2


def test_the_replay_page_and_api_read_both_forms(simulated):
    legacy = _as_rows(simulated)
    client = APIClient()
    step = simulated.ply // 2
    bodies = []
    for match in (simulated, legacy):
        page = client.get(f"/matches/{match.pk}/replay/?step={step}")
        assert page.status_code == 200 and "(computer)" in page.content.decode()
        log = client.get(f"/api/matches/{match.pk}/actions/").json()
        assert len(log["actions"]) == match.ply and log["actions"][0]["ply"] == 1
        replayed = client.get(f"/api/matches/{match.pk}/replay/{step}/").json()
        bodies.append(([(a["ply"], a["seat"], a["action"]) for a in log["actions"]], replayed["last_action"],
                       replayed["score"]))
    assert bodies[0] == bodies[1]


def test_one_simulated_fixture_and_its_bookkeeping_cost_the_same_queries_whatever_the_tournament(
        django_assert_max_num_queries):
    small = rwc_tournament("small")
    codes = [f"Q{i:03d}" for i in range(60)]
    Team.objects.bulk_create([Team(code=code, name=f"Club {code}") for code in codes])
    large = preset_run("league", name="Large", slug="large", teams=codes, ruleset="rugby-league-cards")
    for tournament in (small, large):
        run = simulation.simulation_create(tournament=tournament, stage="all", seed=1)
        (first, *_rest) = simulation.run_queue_ready(run_id=run.pk)
        # Load; lock, match, seats; the result (its savepoint, lock, result, audit, fixture, version, knockout
        # slots, anything left to play: the tournament finishes with its last result) -- and the savepoint of the
        # test's own transaction around it all (2 statements).
        with django_assert_max_num_queries(16):
            outcome = simulation.fixture_simulate(fixture_id=first, run_seed=run.seed)
        assert outcome.status == "played"
        with django_assert_max_num_queries(4 + 2):  # lock, ready, counts (one statement), update; the savepoint
            simulation.run_after_fixture(run_id=run.pk, fixture_id=first, status=outcome.status)
        run.refresh_from_db()
        assert run.done == 1 and str(first) in run.queued.split(",")


def test_a_simulated_match_records_its_rules_and_its_log_shows_when_the_rules_change(simulated):
    # Replayable under the rules it was played by; under other rules its pages list the stored one-row log.
    assert simulated.rules_version == services.get_spec(simulated.ruleset).rules_version
    Match.objects.filter(pk=simulated.pk).update(rules_version="0.0-old")
    page = APIClient().get(f"/matches/{simulated.pk}/watch/")
    html = page.content.decode()
    assert page.status_code == 200 and 'data-testid="archived-note"' in html
    assert html.count("<tr><td>") >= simulated.ply and f"<code>{simulated.action_log[-1][1]}</code>" in html



def test_online_moves_stay_one_row_each(fixture_people):
    # The one-row log is the simulation's: a match played online appends a MatchAction row per move, under the
    # unique (match, ply), with who played it and when.
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    services.match_submit_action(match=match, seat=0, ply=1, action="card:3", held_seats={0})
    services.match_submit_action(match=match, seat=1, ply=2, action="card:1", held_seats={1})
    match.refresh_from_db()
    assert match.action_log is None
    rows = list(MatchAction.objects.filter(match=match).order_by("ply").values_list("ply", "seat", "action"))
    assert rows == [(1, 0, "card:3"), (2, 1, "card:1")]
    assert [(a.ply, a.seat, a.action) for a in match_actions(match)] == rows
