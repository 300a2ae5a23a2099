"""The club player (formerly "aware") and the command line, on Rugby League with a 52-card deck."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import new_game
from engine.__main__ import main
from engine.players import RandomPlayer, make_player, play_match
from engine.rugby_league_cards.player import (
    MARGIN_CAP,
    RugbyLeagueClubPlayer,
    drop_goal,
    penalty_values,
    play_on,
)

ROOT = Path(__file__).resolve().parents[2]


def aware_win_rate(games: int, first_seed: int = 0) -> float:
    wins = 0
    for seed in range(first_seed, first_seed + games):
        aware_seat = seed % 2
        players = {aware_seat: make_player("rugby-league-cards", "aware"), 1 - aware_seat: RandomPlayer()}
        outcome = play_match(new_game("rugby-league-cards", seed=seed), players).outcome()
        wins += outcome.winner == aware_seat
    return wins / games


def test_aware_player_beats_the_random_player():
    # bench/engine.py --winrate 2000 measures the full figure (about 79%); 200 matches keep this quick.
    assert aware_win_rate(200) > 0.65


def test_club_player_is_registered_also_under_its_former_name():
    assert isinstance(make_player("rugby-league-cards", "club"), RugbyLeagueClubPlayer)
    assert isinstance(make_player("rugby-league-cards", "aware"), RugbyLeagueClubPlayer)


def _view(**overrides):
    """A home seat's view (the envelope) with the board data the player reads."""
    board = {"golden_point": False, "period_ends_after_set": 10, "sets_played": 0, "sets_per_half": 10,
             "progress": 2, "tackles_lost": 0}
    board.update(overrides)
    return {"seat": 0, "score": {"home": {"points": 0, "tries": 0}, "away": {"points": 0, "tries": 0}},
            "board": board}


def test_aware_player_kicks_for_touch_in_its_own_half():
    player = RugbyLeagueClubPlayer()
    assert player.choose(_view(progress=2), ["kick-for-touch", "tap-and-run"], None) == "kick-for-touch"


def test_aware_player_taps_near_the_line_but_kicks_the_goal_that_wins_at_the_end():
    player = RugbyLeagueClubPlayer()
    # Early on, on the opponent's 1-space, the next tackle scores a try: tap and run.
    assert player.choose(_view(progress=6), ["kick-for-goal", "tap-and-run"], None) == "tap-and-run"
    values = penalty_values(1, -1, 5, False)
    assert values["tap-and-run"] > values["kick-for-goal"]


def test_aware_player_takes_the_drop_goal_that_wins_golden_point():
    player = RugbyLeagueClubPlayer()
    # Golden point, on the opponent's 1-space with a tackle lost: 7/8 for the drop goal v 1/2 for the try.
    view = _view(golden_point=True, period_ends_after_set=25, sets_played=21, progress=6, tackles_lost=1)
    assert player.choose(view, ["card:1", "card:2", "drop-goal"], None) == "drop-goal"
    assert drop_goal(10, 0, 6, True) > play_on(10, 0, 6, 1, True)
    # Early in a match, no tackle lost, on the 3-space: play on.
    assert player.choose(_view(progress=4), ["card:1", "drop-goal"], None) == "card:1"


def test_aware_player_copes_with_long_matches():
    # 60 sets a half: the look-ahead table is filled from the end, never by deep recursion.
    player = RugbyLeagueClubPlayer()
    view = _view(sets_per_half=60, progress=5, tackles_lost=1)
    assert player.choose(view, ["card:1", "drop-goal"], None) in {"card:1", "drop-goal"}


@pytest.mark.parametrize("seat", [0, 1])
def test_club_player_decides_by_the_table_at_any_margin_and_time(seat):
    # The player hands the sets left and the margin as the match stands to its cached decisions, which floor and
    # clip them: the choice is still the table's best option, for margins beyond the table's cap and either seat.
    player = RugbyLeagueClubPlayer()
    for sets_played in (0, 12, 19):
        sets_left = max(1, 20 - sets_played)
        for margin in (-45, -MARGIN_CAP - 1, -MARGIN_CAP, -7, -1, 0, 2, MARGIN_CAP, MARGIN_CAP + 1, 45):
            clipped = max(-MARGIN_CAP, min(MARGIN_CAP, margin))
            ours, theirs = (10 + margin, 10) if margin >= 0 else (10, 10 - margin)
            points = (ours, theirs) if seat == 0 else (theirs, ours)
            for progress in (1, 3, 4, 5, 6):
                view = _view(sets_played=sets_played, progress=progress)
                view["seat"] = seat
                view["score"]["home"]["points"], view["score"]["away"]["points"] = points
                kick = "kick-for-touch" if progress <= 3 else "kick-for-goal"
                values = penalty_values(sets_left, clipped, progress, False)
                best = kick if values[kick] >= values["tap-and-run"] else "tap-and-run"
                assert player.choose(view, [kick, "tap-and-run"], None) == best
                if progress < 4:
                    continue
                for lost in (0, 1):
                    view["board"]["tackles_lost"] = lost
                    drop = drop_goal(sets_left, clipped, progress, False) > \
                        play_on(sets_left, clipped, progress, lost, False) + 1e-9
                    assert player.choose(view, ["card:1", "card:2", "drop-goal"], None) == \
                        ("drop-goal" if drop else "card:1")


def run_cli(*args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_cli_one_match_json():
    out = json.loads(run_cli("simulate", "rugby-league-cards", "--seed", "5", "--json"))
    assert set(out) == {"ruleset", "seed", "home", "away", "winner", "actions"}
    assert out["ruleset"] == "rugby-league-cards" and out["seed"] == 5
    assert set(out["home"]) == {"points", "tries"} and out["winner"] in {"home", "away", "draw"}
    club = make_player("rugby-league-cards", "club")
    state = play_match(new_game("rugby-league-cards", seed=5), {0: club, 1: club})  # club is the default level
    assert out["actions"] == len(state.history) and out["home"]["points"] == state.score[0]


def test_cli_commentary_and_options(capsys):
    args = ["simulate", "rugby-league-cards", "--seed", "2", "--home", "aware", "--option", "sets_per_half=1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Kick-off" in out and "HALF TIME" in out and "Result: home" in out


def test_cli_many_games_summary(capsys):
    assert main(["simulate", "rugby-league-cards", "--seed", "10", "--games", "6", "--json",
                 "--home", "aware", "--option", "sets_per_half=2", "--option", "extra_time=true"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"games", "home_wins", "away_wins", "draws", "mean_points", "mean_tries",
                            "matches_per_second"}
    assert summary["games"] == 6 and summary["draws"] == 0, "extra time always finds a winner"
    assert summary["home_wins"] + summary["away_wins"] == 6


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "no-such-game"], "unknown rule set"),
    (["simulate", "rugby-league-cards", "--option", "halves=3"], "unknown option"),
    (["simulate", "rugby-league-cards", "--option", "sets_per_half=ten"], "must be a int"),
    (["simulate", "rugby-league-cards", "--option", "oops"], "key=value"),
    (["simulate", "rugby-league-cards", "--games", "0"], "at least 1"),
    (["simulate", "rugby-league-cards", "--option", "sets_per_half=0"], "at least 1"),
])
def test_cli_refuses_bad_input(capsys, args, message):
    assert main(args) == 2
    assert message in capsys.readouterr().err
