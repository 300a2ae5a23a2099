"""Issue 19: no response of any kind -- pages, the live fragment, replays, the API, refusals (400/403/404/409 bodies),
error pages, with DEBUG off or on -- gives away the other seat's hidden blind choice while a match is live.

The check is non-interference: two twin matches (same players, same seed) differ only in home's hidden choice
(card 1 in one, card 2 in the other). Every response the away player or a spectator can get must be the same for
both, once the match's id, tokens and times are taken out. Any dependence on the hidden choice -- in a template, a
JSON body, an ETag, an error message, a DEBUG page's variables -- shows up as a difference.
"""

import json
import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches import boards, services

pytestmark = pytest.mark.django_db

RULESET, OPTIONS = "rugby-league-cards", {"sets_per_half": 1}


def _normalise(text: str, pks: tuple[int, ...]) -> str:
    text = text.replace("\\u0022", '"').replace("\\u002D", "-")  # the ETag as escapejs writes it
    pk = "(?:" + "|".join(map(str, pks)) + ")"  # either twin: "My matches" lists both
    text = re.sub(rf"/matches/{pk}/", "/matches/PK/", text)
    text = re.sub(rf'"id": ?{pk}\b', '"id": PK', text)
    text = re.sub(rf"\b[Mm]atch {pk}\b", "match PK", text)
    text = re.sub(r'W/\\?"m\d+-p(\d+)-(\w+)-\d+-s(\w)\\?"', r"ETAG-p\1-\2-s\3", text)
    text = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1TOKEN", text)
    text = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1TOKEN", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?", "TIME", text)
    return text


@pytest.fixture
def twins(players):
    """Two live matches alike in everything but home's hidden first card (position 1 or 2)."""
    twins = []
    for position in (1, 2):
        match = services.match_create_friendly(ruleset=RULESET, user=players[0], home="me", away=players[1],
                                               seed=11, options=OPTIONS)
        services.match_submit_action(match=match, seat=0, ply=1, action=f"card:{position}", user=players[0])
        match.refresh_from_db()
        assert match.status == "live" and match.ply == 1
        twins.append(match)
    return twins


def _responses(match, players) -> dict[str, tuple[int, str]]:
    """Everything the away player and a spectator can ask about the match, without changing it."""
    away, watcher = Client(), Client()
    away.force_login(players[1])
    api_away, api_watcher = APIClient(), APIClient()
    api_away.force_authenticate(players[1])
    pk = match.pk
    gets = {
        "play": (away, f"/matches/{pk}/"), "watch": (watcher, f"/matches/{pk}/watch/"),
        "fragment": (away, f"/matches/{pk}/board/"), "fragment-watch": (watcher, f"/matches/{pk}/board/?as=watch"),
        "replay-page": (away, f"/matches/{pk}/replay/"), "replay-0": (watcher, f"/matches/{pk}/replay/?step=0"),
        "replay-1": (away, f"/matches/{pk}/replay/?step=1"),
        "replay-frame": (watcher, f"/matches/{pk}/replay/?step=1&fragment=1"),
        "mine": (away, "/matches/mine/?fragment=1"), "404": (away, f"/matches/{pk}/no-such-page/"),
        "manage-404": (away, f"/matches/{pk}/manage/"),
        "api-view": (api_away, f"/api/matches/{pk}/"), "api-view-watch": (api_watcher, f"/api/matches/{pk}/"),
        "api-log": (api_away, f"/api/matches/{pk}/actions/"),
        "api-log-watch": (api_watcher, f"/api/matches/{pk}/actions/"),
        "api-replay-1": (api_away, f"/api/matches/{pk}/replay/1/"),
        "api-replay-2": (api_watcher, f"/api/matches/{pk}/replay/2/"),
    }
    out = {}
    for name, (client, url) in gets.items():
        response = client.get(url)
        out[name] = (response.status_code, response.content.decode())
    # Refusals: none of them applies anything.
    posts = {
        "api-stale": (api_away, f"/api/matches/{pk}/actions/", {"ply": 1, "action": "card:5"}),
        "api-illegal": (api_away, f"/api/matches/{pk}/actions/", {"ply": 2, "action": "kick-for-goal"}),
        "api-not-your-seat": (api_away, f"/api/matches/{pk}/actions/", {"ply": 2, "action": "card:1", "seat": 0}),
        "api-watcher": (api_watcher, f"/api/matches/{pk}/actions/", {"ply": 2, "action": "card:1"}),
        "api-draw": (api_away, f"/api/matches/{pk}/draw/", {"do": "offer"}),
        "api-draw-answer": (api_away, f"/api/matches/{pk}/draw/", {"do": "accept"}),
    }
    for name, (client, url, data) in posts.items():
        response = client.post(url, data, format="json")
        out[name] = (response.status_code, response.content.decode())
    for name, data in (("web-not-your-seat", {"ply": 2, "seat": 0, "action": "card:1"}),
                       ("web-illegal", {"ply": 2, "seat": 1, "action": "kick-for-goal"}),
                       ("web-future-ply", {"ply": 9, "seat": 1, "action": "card:1"})):
        response = away.post(f"/matches/{pk}/act/", data, HTTP_HX_REQUEST="true")
        out[name] = (response.status_code, response.content.decode())
    response = away.post(f"/matches/{pk}/draw/", {"do": "offer", "seat": 1}, HTTP_HX_REQUEST="true")
    out["web-draw"] = (response.status_code, response.content.decode())
    response = watcher.post(f"/matches/{pk}/resign/", {"seat": 1})
    out["web-resign-watcher"] = (response.status_code, response.content.decode())
    match.refresh_from_db()
    assert match.ply == 1 and match.status == "live", "a refusal changed the match"
    return out


def test_no_response_depends_on_the_other_seats_hidden_choice(twins, players):
    one, two = (_responses(match, players) for match in twins)
    assert one.keys() == two.keys()
    for name in one:
        status_one, text_one = one[name]
        status_two, text_two = two[name]
        assert status_one == status_two, name
        pks = (twins[0].pk, twins[1].pk)
        assert _normalise(text_one, pks) == _normalise(text_two, pks), name
    # They are real answers, refusals among them.
    assert {one[n][0] for n in ("api-stale", "api-draw", "api-draw-answer")} == {409}
    assert one["api-illegal"][0] == 400 and one["api-not-your-seat"][0] == 403 and one["404"][0] == 404
    assert json.loads(one["api-log"][1])["actions"][0]["action"] == "hidden"


@pytest.mark.parametrize("debug", [False, True])
def test_error_pages_do_not_show_the_match_either(twins, players, settings, monkeypatch, debug):
    """A crash while the other seat's hidden card is in memory (here: while away's stale move is checked against
    the log, which holds home's blind card) shows nothing of it, with DEBUG off (our 500 page) or on (Django's
    page, whose local variables and POST data ``config.reporting`` hides)."""
    settings.DEBUG = debug

    def crash(*args, **kwargs):
        raise RuntimeError("an engine bug")

    monkeypatch.setattr(services, "_simultaneous_rebase_ok", crash)
    pages = []
    for match in twins:
        away = Client(raise_request_exception=False)
        away.force_login(players[1])
        response = away.post(f"/matches/{match.pk}/act/", {"ply": 1, "seat": 1, "action": "card:4"})
        assert response.status_code == 500
        pages.append(response.content.decode())
        match.refresh_from_db()
        assert match.ply == 1  # nothing was applied
    for page, hidden in zip(pages, ("card:1", "card:2"), strict=True):
        assert hidden not in page and "card:4" not in page  # not even away's own POST data
        assert "'pending'" not in page and '"pending"' not in page
    if not debug:
        assert "Something went wrong" in pages[0]
    # The drawing code crashing on a page render: the same.
    monkeypatch.setattr(boards, "board_context", crash)
    away = Client(raise_request_exception=False)
    away.force_login(players[1])
    page = away.get(f"/matches/{twins[0].pk}/").content.decode()
    assert "card:1" not in page and "pending" not in page
