"""Issue 19, boards that teach: the help and legend of every rule set in three languages, names instead of ids,
previews of the choices, boards drawn from the player's side, scores that read the same everywhere, the replay
player's frames, the live "My matches" list, and matches recorded under older rules."""

import importlib
import random
from pathlib import Path

import pytest
from django.apps import apps
from django.test import Client
from django.utils import translation

from engine import new_game, rulesets
from engine.bokx.cards import CALLS, CARDS, DECKS
from engine.help import LANGUAGES, cards_for, help_for
from engine.players import RandomPlayer, play_match
from league.models import Result
from matches import boards, services
from matches.models import Match, MatchAction

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _english():
    """Pages visited in another language leave it active in the thread: each test starts in English."""
    with translation.override("en"):
        yield


# ---- help in three languages --------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", rulesets(), ids=lambda s: s.id)
def test_every_rule_set_explains_itself_in_english_afrikaans_and_french(spec):
    english = help_for(spec.id, "en")
    assert english["summary"] and len(english["how_to_play"]) >= 3 and english["scoring"]
    for language in LANGUAGES[1:]:
        other = help_for(spec.id, language)
        # Written in that language, not the English fallen back to: every paragraph differs.
        assert other["summary"] != english["summary"]
        assert len(other["how_to_play"]) == len(english["how_to_play"])
        assert all(a != b for a, b in zip(other["how_to_play"], english["how_to_play"], strict=True))
        assert all(a != b for a, b in zip(other["scoring"], english["scoring"], strict=True))
        assert set(other["names"]) == set(english["names"]), "every name is translated"


def test_every_referee_card_and_call_has_a_name_and_text_in_every_language():
    for language in LANGUAGES:
        cards = cards_for("bokx", language)
        assert [c["id"] for c in cards] == [cid for group in DECKS for cid in DECKS[group]["cards"]]
        names = help_for("bokx", language)["names"]
        assert all(f"call.{call}" in names for call in CALLS) and all(group in names for group in DECKS)
        assert all(c["text"] and c["group_name"] and c["call_name"] for c in cards)
        if language != "en":
            assert all(c["text"] != CARDS[c["id"]]["text"] for c in cards), "translated, card by card"


def test_a_drawn_referee_card_is_named_not_shown_as_its_id():
    state = new_game("bokx", seed=3)
    rng = random.Random(1)
    while not state.view(None)["board"]["referee_card"]:
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    view = state.view(0)
    card = view["board"]["referee_card"]
    with translation.override("fr"):
        board = boards.board_context("block-field", view, 0, {"events": []}, help_for("bokx", "fr"))
    assert board["referee"]["text"] == help_for("bokx", "fr")["cards"][card["id"]]
    assert board["referee"]["call"] == help_for("bokx", "fr")["names"]["call." + card["call"]]
    assert card["id"] not in (board["referee"]["text"] + board["referee"]["group"] + board["referee"]["call"])


@pytest.mark.parametrize("language,words", [("en", "How to play"), ("af", "Hoe om te speel"),
                                            ("fr", "Comment jouer")])
def test_rules_pages_and_play_pages_link_the_help_in_the_visitors_language(language, words, players):
    client = Client()
    client.cookies["django_language"] = language
    for spec in rulesets():
        page = client.get(f"/matches/rules/{spec.id}/", HTTP_ACCEPT_LANGUAGE=language)
        assert page.status_code == 200
        html = page.content.decode()
        assert words in html and help_for(spec.id, language)["summary"].replace("'", "&#x27;") in html
    assert client.get("/matches/rules/manual/").status_code == 404
    assert client.get("/matches/rules/no-such-game/").status_code == 404
    match = services.match_create_friendly(ruleset="bokx", user=players[0], home="me", away="computer:beginner", seed=1)
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert 'data-testid="help"' in page and 'data-testid="legend"' in page and "/matches/rules/bokx/" in page


# ---- choices explained before they are made ---------------------------------------------------------------------


def test_side_choices_preview_where_the_ball_ends_and_seasons_exchanges_preview_the_season():
    state = new_game("bokx", seed=5)
    rng = random.Random(2)
    while state.phase_name() != "side":
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_act()[0]
    previews = state.action_previews(seat)
    assert set(previews) == {"left", "right"}
    side = state.view(seat)["board"]["side_preview"]
    assert previews["left"]["x"] == side["left"]["x"] and previews["left"]["blocks"] == side["blocks"]
    legal = [{"action": a, "label": state.describe_action(a)} for a in state.legal_actions(seat)]
    buttons = boards.action_buttons("block-field", legal, previews)
    assert all(b["preview"] for b in buttons)
    drawn = boards.board_context("block-field", state.view(seat), seat)
    assert {p["side"] for p in drawn["previews"]} == {"left", "right"}

    seasons = new_game("seasons", seed=1)
    seat = seasons.to_act()[0]
    previews = seasons.action_previews(seat)
    swap = next(a for a in seasons.legal_actions(seat) if a != "pass")
    assert set(previews) == set(seasons.legal_actions(seat))
    button = boards.action_buttons("team-draft", [{"action": swap, "label": seasons.describe_action(swap)}],
                                   previews)[0]
    assert button["text"].startswith("Take ") and "give up" in button["text"]
    assert button["preview"].startswith("season as the teams stand:")


def test_set_piece_pairs_show_their_totals_and_cards_their_red_value_arrow_and_whistles():
    state = new_game("rugby-champion-solo", seed=1)
    rng = random.Random(4)
    while state.phase_name() not in ("lineout", "scrum"):
        state.apply(0, rng.choice(state.legal_actions(0)))
    previews = state.action_previews(0)
    pair = state.legal_actions(0)[0]
    assert previews[pair]["total"] == sum(previews[pair]["values"]) and previews[pair]["np_value"] == 6
    help_data = help_for("rugby-champion-solo", "en")
    button = boards.action_buttons("defensive-line", [{"action": pair, "label": "x"}], previews, help_data)[0]
    assert f"total {previews[pair]['total']} v 6 + hidden card" in button["preview"]
    board = boards.board_context("defensive-line", state.view(0), 0, {"seats": []}, help_data)
    card = board["hand"][0]
    assert sum(r["red"] for r in card["rows"]) == 1 and card["arrow"] in ("left", "right")
    assert board["setpiece"]["value"] == 6


def test_advantage_names_the_non_player_not_away():
    state = new_game("rugby-champion-solo", seed=1)
    view = state.view(0)
    view["board"]["advantage"] = "away"
    board = boards.board_context("defensive-line", view, 0, {"seats": [{"seat": 0, "name": "Ann"},
                                                                       {"seat": 1, "name": "The Non-player"}]})
    assert board["advantage"] == "The Non-player"


# ---- drawn from the player's side -------------------------------------------------------------------------------


def test_away_sees_the_bokx_field_turned_round_so_their_left_is_on_the_left():
    state = new_game("bokx", seed=5)
    view = state.view(1)
    home, away = (boards.board_context("block-field", view, seat) for seat in (0, 1))
    ball = view["board"]["ball"]
    # The same ball, mirrored on both axes.
    assert home["ball_x"] + away["ball_x"] == home["w"]
    assert home["ball_y"] + away["ball_y"] == 2 * home["top"] + home["field_h"]
    # Away attacks towards row 0, which is at the top of its screen: up, like home on its own page.
    state_away_poss = dict(view)
    state_away_poss["board"] = {**view["board"], "possession": 1}
    assert boards.board_context("block-field", state_away_poss, 1)["attack_up"]
    assert not boards.board_context("block-field", state_away_poss, 0)["attack_up"]
    # Away's "left" (x + 1 in the engine) is a smaller x on its screen.
    x_more = {**view["board"], "ball": {"x": ball["x"] + 1, "y": ball["y"]}}
    moved = boards.board_context("block-field", {**view, "board": x_more}, 1)
    assert moved["ball_x"] < away["ball_x"]


def test_the_card_game_and_seasons_put_the_viewers_cards_at_the_bottom():
    state = new_game("rugby-league-cards", seed=1)
    home = boards.board_context("seven-cell-pitch", state.view(0), 0)
    away = boards.board_context("seven-cell-pitch", state.view(1), 1)
    assert home["near"] == "home" and away["near"] == "away"
    assert home["rows"]["home"][0]["y"] > home["rows"]["away"][0]["y"]
    assert away["rows"]["away"][0]["y"] > away["rows"]["home"][0]["y"]
    assert home["attack_right"] and not away["attack_right"]  # home attacks away's try line, on away's left
    # The viewer's own face-down cards are buttons (the choice is theirs); the other row's are not.
    legal = {"legal_actions": [{"action": f"card:{i}", "label": ""} for i in range(1, 7)]}
    drawn = boards.board_context("seven-cell-pitch", state.view(1), 1, legal)
    assert [c["action"] for c in drawn["rows"]["away"]] == [f"card:{i}" for i in range(1, 7)]
    assert not any(c["action"] for c in drawn["rows"]["home"])
    seasons = new_game("seasons", seed=1)
    near = boards.board_context("team-draft", seasons.view(1), 1)["near"]
    assert [c["label"] for c in near] == [boards.card_face(c)["label"] for c in seasons.view(1)["board"]["teams"][1]]


def test_card_game_commentary_writes_cards_with_the_boards_suit_symbols():
    state = new_game("rugby-league-cards", seed=1)
    state.apply(0, "card:1")
    state.apply(1, "card:1")
    text = state.events[-1].text
    assert any(s in text for s in "\u2660\u2665\u2666\u2663")
    assert not any(f"{rank}{suit}" in text for rank in "23456789JQKA" for suit in "SHDC")


# ---- scores read the same everywhere -------------------------------------------------------------------------


def test_seasons_shows_whole_seasons_as_the_result_and_the_games_halves_beside_them(tournament, players):
    tournament.ruleset, tournament.ruleset_options = "seasons", {}
    tournament.save()
    from tests.matches.conftest import make_fixture

    fixture = make_fixture(tournament, home_player=players[0], away_player=players[1])
    # A seed whose first season is halved: the game says ½-½, the result 0-0.
    for seed in range(200):
        state = new_game("seasons", seed=seed)
        if state.results[0]["winner"] is None:
            break
    match = services.match_start_for_fixture(fixture=fixture, seed=seed)
    client = Client()
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/")
    sides = page.context["score_sides"]
    assert [(s["points"], s["game"]) for s in sides] == [("0", "\u00bd"), ("0", "\u00bd")]
    assert 'data-testid="score-note"' in page.content.decode()
    # Played to the end: the fixture and the standings give the whole seasons; the fixture page the halves too.
    state = services.match_state(match)
    play_match(state, {0: RandomPlayer(), 1: RandomPlayer()})
    for seat, action in state.history[match.ply:]:
        match.refresh_from_db()
        services.match_submit_action(match=match, seat=seat, ply=match.ply + 1, action=action, held_seats={0, 1})
    result = Result.objects.get(fixture=fixture)
    outcome = state.outcome()
    assert (result.home_score, result.away_score) == (outcome.stats[0]["seasons_won"], outcome.stats[1]["seasons_won"])
    final = client.get(f"/matches/{match.pk}/").context["score_sides"]
    assert [s["points"] for s in final] == [str(result.home_score), str(result.away_score)]
    fixture_page = client.get(f"/t/{tournament.slug}/matches/{fixture.pk}/").content.decode()
    assert f"{result.home_score}–{result.away_score}" in fixture_page
    assert 'data-testid="game-score"' in fixture_page
    assert boards.score_text(outcome.points[0]) in fixture_page


def test_score_text():
    assert [boards.score_text(x) for x in (5.5, 0.5, 3, "2", None)] == ["5\u00bd", "\u00bd", "3", "2", "0"]


# ---- the replay player and My matches -------------------------------------------------------------------------


def test_replay_frames_for_the_player_and_the_page_without_javascript(fixture_people, players):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    for seat, action in ((0, "card:1"), (1, "card:2"), (0, "card:3"), (1, "card:4")):
        services.match_submit_action(match=match, seat=seat, ply=match.ply + 1, action=action, held_seats={seat})
        match.refresh_from_db()
    client = Client()
    page = client.get(f"/matches/{match.pk}/replay/?step=2")
    html = page.content.decode()
    assert 'id="replay-player"' in html and 'data-testid="scrubber"' in html and 'data-testid="autoplay"' in html
    assert "<html" in html
    frame = client.get(f"/matches/{match.pk}/replay/?step=3&fragment=1")
    assert frame.status_code == 200 and "<html" not in frame.content.decode()
    assert "Move 3 of 4" in frame.content.decode() and "<svg" in frame.content.decode()


def test_my_matches_refreshes_itself(fixture_people, players, organiser):
    client = Client()
    client.force_login(players[0])
    page = client.get("/matches/mine/").content.decode()
    assert 'hx-trigger="every 5s"' in page and "refreshes by itself" in page
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    fragment = client.get("/matches/mine/?fragment=1").content.decode()
    assert f"/matches/{match.pk}/" in fragment and "<html" not in fragment


def test_home_page_links_friendlies(players):
    client = Client()
    assert "/matches/new/" in client.get("/").content.decode()
    client.force_login(players[0])
    assert 'data-testid="new-friendly"' in client.get("/").content.decode()


# ---- a move that raced another is sent again by the page ---------------------------------------------------


def test_a_move_that_met_the_database_busy_is_answered_409_with_retry(fixture_people, players, monkeypatch):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    client = Client()
    client.force_login(players[0])

    def busy(**kwargs):
        raise services.MatchError("busy", code="conflict", reason="busy", data={"retry": True})

    monkeypatch.setattr(services, "match_submit_action", busy)
    response = client.post(f"/matches/{match.pk}/act/", {"ply": 1, "seat": 0, "action": "card:1"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 409 and response["X-Match-Retry"] == "1"
    assert 'id="match-live"' in response.content.decode()  # the fresh board comes too
    monkeypatch.undo()
    # The same request sent again lands, once.
    again = client.post(f"/matches/{match.pk}/act/", {"ply": 1, "seat": 0, "action": "card:1"},
                        HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and match.actions.count() == 1


# ---- matches recorded under older rules -------------------------------------------------------------------------


MIGRATION = importlib.import_module(
    "matches.migrations." + next((ROOT / "matches" / "migrations").glob("*_play19_online_play.py")).stem)


def test_the_migration_stamps_existing_matches_with_their_snapshots_rules_version(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:beginner",
                                           seed=1)
    bare = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:beginner",
                                          seed=2)
    Match.objects.filter(pk=match.pk).update(rules_version="")
    Match.objects.filter(pk=bare.pk).update(rules_version="", snapshot=None, snapshot_ply=None)
    snapshot = Match.objects.get(pk=match.pk).snapshot
    Match.objects.filter(pk=match.pk).update(snapshot={**snapshot, "rules_version": "0.9"})
    MIGRATION.fill_rules_version(apps, None)
    assert Match.objects.get(pk=match.pk).rules_version == "0.9"
    assert Match.objects.get(pk=bare.pk).rules_version == ""


def test_a_match_of_older_rules_shows_what_was_stored_instead_of_failing(fixture_people, players, organiser):
    match = services.match_start_for_fixture(fixture=fixture_people, seed=5)
    services.match_submit_action(match=match, seat=0, ply=1, action="card:3", held_seats={0})
    Match.objects.filter(pk=match.pk).update(rules_version="0.1")
    away = Client()
    away.force_login(players[1])
    for url in (f"/matches/{match.pk}/", f"/matches/{match.pk}/watch/", f"/matches/{match.pk}/replay/?step=1"):
        page = away.get(url)
        html = page.content.decode()
        assert page.status_code == 200 and 'data-testid="archived-note"' in html
        assert "version 0.1" in html and "card:3" not in html  # live: home's blind card stays hidden
    assert away.get(f"/matches/{match.pk}/board/").status_code == 304  # the fragment stops asking
    assert away.get(f"/matches/{match.pk}/replay/?step=1&fragment=1").status_code == 404
    body = away.get(f"/api/matches/{match.pk}/").json()
    assert body["archived"] is True and body["rules_version"] == "0.1"
    replay = away.get(f"/api/matches/{match.pk}/replay/1/")
    assert replay.status_code == 409 and replay.json()["code"] == "rules_changed"
    with pytest.raises(services.MatchError) as exc:
        services.match_submit_action(match=match, seat=1, ply=2, action="card:1", held_seats={1})
    assert exc.value.reason == "rules_changed"
    # Once it is over (the organiser abandons it), the whole log is open.
    services.match_abandon(match=match, user=organiser)
    assert "card:3" in away.get(f"/matches/{match.pk}/replay/").content.decode()


def test_a_log_that_does_not_replay_is_shown_as_stored(players):
    match = services.match_create_friendly(ruleset="seasons", user=players[0], home="me", away="computer:beginner",
                                           seed=1)
    # A move the engine refuses there: a log that cannot be replayed (an unknown rules version, or damage).
    MatchAction.objects.create(match=match, ply=match.ply + 1, seat=0, action="swap:zz:zz")
    Match.objects.filter(pk=match.pk).update(snapshot=None, snapshot_ply=None, rules_version="", ply=match.ply + 1)
    page = Client().get(f"/matches/{match.pk}/watch/")
    assert page.status_code == 200 and 'data-testid="archived-note"' in page.content.decode()


# ---- translated ---------------------------------------------------------------------------------------------------

# The files of issue 19's pages: every string they mark for translation has an Afrikaans and a French one.
ISSUE19_SOURCES = ("matches/boards.py", "matches/views.py", "matches/forms.py", "matches/models.py",
                   "matches/templates/matches/_live.html", "matches/templates/matches/_scoreboard.html",
                   "matches/templates/matches/_help.html", "matches/templates/matches/_replay_frame.html",
                   "matches/templates/matches/_mine_list.html", "matches/templates/matches/play.html",
                   "matches/templates/matches/replay.html", "matches/templates/matches/rules.html",
                   "matches/templates/matches/archived.html", "matches/templates/matches/mine.html",
                   "matches/templates/matches/new.html", "matches/templates/matches/manage.html",
                   "matches/templates/matches/boards/", "templates/400.html", "templates/403.html",
                   "templates/404.html", "templates/500.html", "web/templates/web/fixture_detail.html",
                   "web/templates/web/tournament_list.html")


@pytest.mark.parametrize("language", ["af", "fr"])
def test_the_strings_of_the_play_pages_are_translated(language):
    text = (ROOT / "locale" / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    missing = []
    for block in text.split("\n\n"):
        places = [p for line in block.splitlines() if line.startswith("#: ") for p in line[3:].split()]
        if not any(p.startswith(ISSUE19_SOURCES) for p in places):
            continue
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in block.splitlines())
        strings = [line for line in block.splitlines() if line.startswith("msgstr")]
        empty = all(line.endswith('""') for line in strings) and not any(
            line.startswith('"') for line in block.splitlines()[block.splitlines().index(strings[0]) + 1:])
        if fuzzy or empty:
            missing.append(block.splitlines()[-1 - len(strings)])
    assert missing == []
