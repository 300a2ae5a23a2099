"""Simulation services without a worker (SQLite by default): scope, exactly once, seeds, the match record."""

import pytest
from django.core.exceptions import ValidationError

from engine import replay
from league import services
from league.models import Fixture, Result, Tournament
from league.selectors import tournament_standings
from matches import simulation
from matches.models import Match, MatchAction, SimulationRun
from matches.selectors import match_actions
from tests.matches.sim_helpers import champion, results_by_key, rwc_tournament

pytestmark = pytest.mark.django_db


def test_whole_rwc2023_tournament_inline_gives_48_results_and_a_champion():
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="all", seed=7)
    assert (run.total, run.done) == (48, 0)
    seen = []
    run = simulation.run_inline(run, on_progress=lambda r: seen.append(r.done))
    assert run.status == SimulationRun.Status.FINISHED
    assert (run.done, run.total) == (48, 48)
    assert seen == sorted(seen) and seen[-1] == 48
    assert Result.objects.filter(fixture__tournament=tournament, source="simulated").count() == 48
    assert Match.objects.filter(fixture__tournament=tournament, status="finished").count() == 48
    # Tables: every team played 4 pool matches.
    for _pool, rows in tournament_standings(tournament):
        assert [row.played for row in rows] == [4] * 5
    # Knockouts: every knockout fixture has two teams and a winner; the final has a champion.
    for f in Fixture.objects.filter(tournament=tournament, stage="knockout").select_related("result"):
        assert f.home_id and f.away_id and f.result.winner_id in (f.home_id, f.away_id)
    assert champion(tournament) is not None


def test_same_seed_same_results_different_seed_different_results():
    a = rwc_tournament("a")
    b = rwc_tournament("b")
    c = rwc_tournament("c")
    simulation.run_inline(simulation.simulation_create(tournament=a, stage="pools", seed=11))
    # b plays its fixtures in reverse order: the order must not matter.
    run_b = simulation.simulation_create(tournament=b, stage="pools", seed=11)
    for fixture_id in reversed(simulation.ready_fixture_ids(run_b)):
        simulation.fixture_simulate(fixture_id=fixture_id, run_seed=11)
    simulation.run_inline(simulation.simulation_create(tournament=c, round_number=1, seed=12))
    assert len(results_by_key(a)) == 40
    assert results_by_key(a) == results_by_key(b)
    other = results_by_key(c)
    assert len(other) == 8 and other != {key: value for key, value in results_by_key(a).items() if key in other}


def test_a_fixture_with_a_result_is_skipped_and_a_second_delivery_changes_nothing():
    tournament = rwc_tournament()
    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk").first()
    first = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=3)
    assert first.status == "played"
    again = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=3)
    assert again.status == "skipped"
    assert Result.objects.filter(fixture=fixture).count() == 1
    assert Match.objects.filter(fixture=fixture).count() == 1
    assert fixture.result_changes.count() == 1


def test_knockout_fixture_without_teams_is_not_ready():
    tournament = rwc_tournament()
    qf = Fixture.objects.get(tournament=tournament, code="QF1")
    assert simulation.fixture_simulate(fixture_id=qf.pk, run_seed=1).status == "not_ready"
    assert not Result.objects.filter(fixture=qf).exists()


def test_the_match_record_replays_to_the_recorded_result():
    tournament = rwc_tournament()
    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk").first()
    outcome = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=5)
    match = Match.objects.get(pk=outcome.match_id)
    # The whole log in the match's own row: one write per simulated match, not one row per action.
    assert not MatchAction.objects.filter(match=match).exists()
    logged = match_actions(match)
    log = [(a.seat, a.action) for a in logged]
    assert len(log) == match.ply > 10 and [a.ply for a in logged] == list(range(1, match.ply + 1))
    assert all(a.by_computer for a in logged)
    state = replay(match.ruleset, seed=match.seed, options=match.options, actions=log)
    assert state.is_over
    result = Result.objects.get(fixture=fixture)
    assert tuple(state.outcome().points) == (result.home_score, result.away_score)
    assert tuple(state.outcome().tries) == (result.home_tries, result.away_tries)
    assert match.seed == simulation.fixture_seed(5, fixture)
    assert sorted(match.seats.values_list("kind", flat=True)) == ["computer", "computer"]


def test_fixture_seed_depends_on_stable_key_not_database_id():
    a = rwc_tournament("ka")
    b = rwc_tournament("kb")
    fa = Fixture.objects.filter(tournament=a, stage="pool").order_by("pk").first()
    fb = Fixture.objects.get(tournament=b, stage="pool", home__team=fa.home.team, away__team=fa.away.team)
    assert fa.pk != fb.pk
    assert simulation.fixture_seed(9, fa) == simulation.fixture_seed(9, fb)
    assert simulation.fixture_seed(9, fa) != simulation.fixture_seed(10, fa)


def test_entry_computer_level_chooses_the_player():
    tournament = rwc_tournament()
    fixture = Fixture.objects.filter(tournament=tournament, stage="pool").order_by("pk").first()
    type(fixture.home).objects.filter(pk=fixture.home_id).update(computer_level="beginner")
    outcome = simulation.fixture_simulate(fixture_id=fixture.pk, run_seed=5)
    levels = dict(Match.objects.get(pk=outcome.match_id).seats.values_list("seat", "computer_level"))
    assert levels == {0: "beginner", 1: "club"}


def test_stage_knockout_refused_before_the_pools_are_done_and_pools_only_stop_at_the_pools():
    tournament = rwc_tournament()
    with pytest.raises(ValidationError, match="not known"):
        simulation.simulation_create(tournament=tournament, stage="knockout")
    run = simulation.run_inline(simulation.simulation_create(tournament=tournament, stage="pools", seed=1))
    assert run.status == "finished" and (run.done, run.total) == (40, 40)
    assert not Result.objects.filter(fixture__tournament=tournament, fixture__stage="knockout").exists()
    # The quarter-finals are filled by advancement; the knockout stage can go now.
    run = simulation.run_inline(simulation.simulation_create(tournament=tournament, stage="knockout", seed=1))
    assert (run.done, run.total, run.status) == (8, 8, "finished")
    # The final was the last match: the tournament finished, and a finished tournament refuses simulations.
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    with pytest.raises(ValidationError, match="is finished") as refused:
        simulation.simulation_create(tournament=tournament, stage="all")
    assert refused.value.code == "conflict"
    services.tournament_reopen(tournament=tournament)
    with pytest.raises(ValidationError, match="already has a result"):
        simulation.simulation_create(tournament=tournament, stage="all")


def test_one_round_and_one_fixture_scopes():
    tournament = rwc_tournament()
    run = simulation.run_inline(simulation.simulation_create(tournament=tournament, round_number=1, seed=2))
    round_one = Fixture.objects.filter(tournament=tournament, round_number=1).count()
    assert (run.done, run.total) == (round_one, round_one)
    assert Result.objects.filter(fixture__tournament=tournament).count() == round_one
    fixture = Fixture.objects.filter(tournament=tournament, round_number=2).first()
    run = simulation.run_inline(simulation.simulation_create(tournament=tournament, fixture=fixture, seed=2))
    assert (run.done, run.total) == (1, 1)


@pytest.mark.parametrize("kwargs,message", [
    ({"stage": "everything"}, "Unknown stage"),
    ({"seed": "abc"}, "whole number"),
    ({"seed": -1}, "between"),
])
def test_bad_requests_are_refused_with_a_message(kwargs, message):
    tournament = rwc_tournament()
    with pytest.raises(ValidationError, match=message):
        simulation.simulation_create(tournament=tournament, **kwargs)


def test_a_second_run_is_refused_while_one_is_going():
    tournament = rwc_tournament()
    simulation.simulation_create(tournament=tournament, stage="pools")
    with pytest.raises(ValidationError, match="already running"):
        simulation.simulation_create(tournament=tournament, stage="pools")


def test_a_tournament_played_on_real_pitches_is_simulated_from_the_rugby_score_model():
    from matches.odds import RWC2023_POOL_SCORES

    a, b = rwc_tournament("manual-a"), rwc_tournament("manual-b")
    Tournament.objects.filter(pk__in=[a.pk, b.pk]).update(ruleset="manual")
    for t in (a, b):
        t.refresh_from_db()
        run = simulation.run_inline(simulation.simulation_create(tournament=t, stage="all", seed=5))
        assert (run.status, run.done) == ("finished", 48)
    assert champion(a) is not None
    assert results_by_key(a) == results_by_key(b)
    assert not Match.objects.exists()  # no engine, no match record
    scores = set(RWC2023_POOL_SCORES) | {(ap, at, hp, ht) for hp, ht, ap, at in RWC2023_POOL_SCORES}
    for r in Result.objects.filter(fixture__tournament=a, fixture__stage="pool"):
        assert (r.home_score, r.home_tries, r.away_score, r.away_tries) in scores


def test_queue_hands_each_ready_fixture_out_once_unless_resumed():
    tournament = rwc_tournament()
    run = simulation.simulation_create(tournament=tournament, stage="all", seed=1)
    sent = []
    first = simulation.run_queue_ready(run_id=run.pk, send=sent.extend)
    assert len(first) == 40 and sent == first
    assert simulation.run_queue_ready(run_id=run.pk, send=sent.extend) == []
    assert len(simulation.run_queue_ready(run_id=run.pk, again=True)) == 40


@pytest.mark.django_db
def test_options_stored_around_the_services_fail_with_a_clear_error_not_a_crash():
    from django.core.exceptions import ValidationError

    from league.models import Fixture, Tournament
    from matches.simulation import play_fixture
    from tests.matches.sim_helpers import rwc_tournament

    tournament = rwc_tournament("bad-options")
    Tournament.objects.filter(pk=tournament.pk).update(ruleset_options={"sets_per_half": 0})
    fixture = Fixture.objects.select_related("tournament", "home", "away").filter(
        tournament=tournament, stage="pool").first()
    with pytest.raises(ValidationError, match="refused by the engine"):
        play_fixture(fixture, seed=1)


@pytest.mark.django_db
def test_bokx_commentary_names_the_fixture_teams():
    tournament = rwc_tournament("bokx-names")
    Tournament.objects.filter(pk=tournament.pk).update(ruleset="bokx", ruleset_options={"half_minutes": 5})
    fixture = Fixture.objects.select_related("tournament", "home__team", "away__team").filter(
        tournament=tournament, stage="pool").first()
    state, options, _levels = simulation.play_fixture(fixture, seed=4)
    assert (options["home_team"], options["away_team"]) == (fixture.home.team.name, fixture.away.team.name)
    # A simulation keeps only the action log; the commentary a page shows is the replay's, play by play.
    replayed = replay("bokx", seed=4, options=options, actions=state.history)
    assert replayed.to_dict()["history"] == state.to_dict()["history"] and replayed.outcome() == state.outcome()
    play = [e.text for e in replayed.events[1:]]  # after the toss
    assert len(play) > 20
    assert any(fixture.home.team.name in text for text in play) and any(fixture.away.team.name in text for text in play)


def _knockout_of_four(slug: str) -> Tournament:
    return services.tournament_create_from_preset("single_elimination", name="Cup", slug=slug,
                                                  teams=["FRA", "NZL", "ITA", "URU"], ruleset="manual")


def test_a_result_committed_by_another_worker_meanwhile_never_makes_the_run_look_stuck(monkeypatch):
    # Issue 17: "47/48: 1 fixture could not be simulated". Worker A finishes semi-final 1 and does the run's
    # bookkeeping; worker B commits semi-final 2 (which makes the final ready) between A's "what is ready?" and
    # A's "is anything left?" (each statement sees the latest commits). A must not end the run as stuck.
    tournament = _knockout_of_four("race")
    run = simulation.simulation_create(tournament=tournament, stage="all", seed=3)
    semi_1, semi_2 = simulation.run_queue_ready(run_id=run.pk)
    assert simulation.fixture_simulate(fixture_id=semi_1, run_seed=run.seed).status == "played"
    ready_now = simulation.ready_fixture_ids

    def ready_then_the_other_worker_commits(run_):
        ready = ready_now(run_)
        monkeypatch.setattr(simulation, "ready_fixture_ids", ready_now)
        assert simulation.fixture_simulate(fixture_id=semi_2, run_seed=run.seed).status == "played"
        return ready

    monkeypatch.setattr(simulation, "ready_fixture_ids", ready_then_the_other_worker_commits)
    assert simulation.run_after_fixture(run_id=run.pk, fixture_id=semi_1, status="played") == []
    run.refresh_from_db()
    assert (run.status, run.error) == (SimulationRun.Status.RUNNING, "")
    # B's own bookkeeping then hands the final out, and its result ends the run complete.
    final = Fixture.objects.get(tournament=tournament, home__isnull=False, away__isnull=False,
                                result__isnull=True)
    assert simulation.run_after_fixture(run_id=run.pk, fixture_id=semi_2, status="played") == [final.pk]
    simulation.fixture_simulate(fixture_id=final.pk, run_seed=run.seed)
    simulation.run_after_fixture(run_id=run.pk, fixture_id=final.pk, status="played")
    run.refresh_from_db()
    assert (run.status, run.error, run.done, run.total) == (SimulationRun.Status.FINISHED, "", 3, 3)


def test_the_last_result_committed_meanwhile_finishes_the_run_without_a_stuck_note(monkeypatch):
    # The other order: the last fixture's result lands while another fixture's bookkeeping counts.
    tournament = _knockout_of_four("race-last")
    run = simulation.simulation_create(tournament=tournament, stage="all", seed=4)
    semi_1, semi_2 = simulation.run_queue_ready(run_id=run.pk)
    for semi in (semi_1, semi_2):
        simulation.fixture_simulate(fixture_id=semi, run_seed=run.seed)
    (final,) = simulation.run_after_fixture(run_id=run.pk, fixture_id=semi_1, status="played")
    assert simulation.run_after_fixture(run_id=run.pk, fixture_id=semi_2, status="played") == []
    run.refresh_from_db()
    assert run.status == SimulationRun.Status.RUNNING  # the final is handed out and not played yet
    simulation.fixture_simulate(fixture_id=final, run_seed=run.seed)
    # A late, second delivery of semi-final 1 does its bookkeeping after the final's result is in.
    simulation.run_after_fixture(run_id=run.pk, fixture_id=semi_1, status="skipped")
    run.refresh_from_db()
    assert (run.status, run.error_text, run.error_code, run.done) == (SimulationRun.Status.FINISHED, "", "", 3)
    # A run that really is stuck still says so: a fixture whose teams are no longer known comes back unplayed.
    blocked = _knockout_of_four("stuck")
    stuck = simulation.simulation_create(tournament=blocked, stage="all", seed=5)
    semi_1, semi_2 = simulation.run_queue_ready(run_id=stuck.pk)
    simulation.fixture_simulate(fixture_id=semi_1, run_seed=stuck.seed)
    simulation.run_after_fixture(run_id=stuck.pk, fixture_id=semi_1, status="played")
    Fixture.objects.filter(pk=semi_2).update(home=None)
    simulation.run_after_fixture(run_id=stuck.pk, fixture_id=semi_2, status="not_ready")
    stuck.refresh_from_db()
    assert stuck.status == SimulationRun.Status.FINISHED
    assert (stuck.error_code, stuck.error_params) == (SimulationRun.STUCK, {"count": 2})
    assert stuck.error_text.startswith("2 fixture(s) could not be simulated")
