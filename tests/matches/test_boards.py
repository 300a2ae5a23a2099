"""The drawing data of the play pages: pure functions over a seat's view."""

from engine import new_game
from matches import boards


def test_card_faces():
    assert boards.card_face("TH") == {"label": "10\u2665", "red": True, "down": False}
    assert boards.card_face("QS")["label"] == "Q\u2660" and not boards.card_face("QS")["red"]
    assert boards.card_face(None)["down"]


def test_card_game_board_has_the_pitch_the_coin_and_no_card_identities():
    state = new_game("rugby-league-cards", seed=1)
    board = boards.board_context(state.spec.board_kind, state.view(None), None)
    assert [c["label"] for c in board["cells"]] == ["T", "1", "2", "3", "3", "2", "1", "T"]
    assert board["ball_x"] == 20 + 1 * 40 + 20  # home 1-space
    assert all(c["down"] and c["label"] == "" for row in board["rows"].values() for c in row)
    assert board["clock"].startswith("1st half")


def test_unknown_or_odd_views_fall_back_to_the_generic_layout():
    assert boards.board_context("no-such-board", {"a": 1}, None)["kind"] == "generic"
    assert boards.board_context("seven-cell-pitch", {"weird": True}, 0)["kind"] == "generic"
    # A kind without a drawing lays out the rule set's board data (and the phase), not the envelope.
    view = new_game("seasons", seed=1).view(0)
    generic = boards.board_context("", view, 0)
    keys = [key for key, _ in generic["items_list"]]
    assert generic["kind"] == "generic" and keys[0] == "phase" and "teams" in keys and "legal actions" not in keys


def test_action_buttons_are_short_for_cards_and_swaps():
    buttons = boards.action_buttons("seven-cell-pitch", [{"action": "card:4", "label": "Play card 4"},
                                                         {"action": "drop-goal", "label": "Drop goal"}])
    assert [(b["text"], b["kind"]) for b in buttons] == [("4", "card"), ("Drop goal", "wide")]
    swap = boards.action_buttons("team-draft", [{"action": "swap:th:2s", "label": "Draft 10\u2665, release 2\u2660"}])
    # In words (issue 19: "+5\u2665 \u22122\u2666" with the words only in a tooltip was a puzzle).
    assert swap[0]["text"] == "Take 10\u2665, give up 2\u2660" and swap[0]["label"].startswith("Draft")
    plain = boards.action_buttons("block-field", [{"action": "kick-double", "label": "Kick, double"}])
    assert [(b["text"], b["kind"]) for b in plain] == [("Kick, double", "wide")]


def test_every_rule_set_has_a_drawing_of_its_board():
    """Each playable rule set names a board kind that has a builder, and its views draw without falling back."""
    from engine import rulesets
    from engine.players import RandomPlayer, play_match

    for spec in rulesets():
        assert spec.board_kind in boards.BUILDERS, spec.id
        state = new_game(spec.id, seed=2)
        for seat in (*spec.person_seats, None):
            assert boards.board_context(spec.board_kind, state.view(seat), seat)["kind"] == spec.board_kind
        play_match(state, {0: RandomPlayer(), 1: RandomPlayer()})
        assert boards.board_context(spec.board_kind, state.view(None), None)["kind"] == spec.board_kind
