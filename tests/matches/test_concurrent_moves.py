"""Issue 19: every move lands once. Both players' blind choices, sent at the same instant and repeated, on the
demo's SQLite and on PostgreSQL, to a real gunicorn site (two processes, eight threads each, DEBUG off): every
answer is 201 (applied, or a retry answered as the first time), 400 (an illegal card) or 409 (the ply was taken:
the client sends its choice again at the next ply) -- never a 500 -- and each choice is applied exactly once.

Before issue 19, 12 of 15 fresh matches on SQLite lost a click to "database is locked" (API: [201, 500, 500, ...]).
"""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from tests.live_site import SETUP, LiveSite, postgres_available

pytestmark = [pytest.mark.integration]

MATCHES = 15


@pytest.fixture(params=["sqlite", "postgresql"])
def site(request, tmp_path, static_root):
    if request.param == "postgresql" and not postgres_available():
        pytest.skip("needs PostgreSQL in DATABASE_URL (bash scripts/test starts one)")
    template = request.getfixturevalue("migrated_sqlite") if request.param == "sqlite" else None
    with LiveSite(request.param, tmp_path, static_root, sqlite_template=template) as site:
        yield site
        assert "Traceback" not in site.log(), site.log()


def _post(site, token: str, pk: int, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(f"{site.url}/api/matches/{pk}/actions/", data=json.dumps(body).encode(),
                                     headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
                                     method="POST")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        text = exc.read()
        try:
            return exc.code, json.loads(text or b"{}")
        except ValueError:
            return exc.code, {"body": text[:300].decode(errors="replace")}


def test_simultaneous_blind_choices_all_land_once(site):
    data = site.shell_json(SETUP.format(n=MATCHES))
    tokens, matches = data["tokens"], data["matches"]
    statuses: list[int] = []
    lock = threading.Lock()
    per_match = 6
    barrier = threading.Barrier(per_match * len(matches))

    def player(seat: int, pk: int, action: str, careful: bool) -> None:
        """Sends ``action`` as ply 1 with everyone else at once. A player's client sends its choice again at the
        next ply after a 409 (the other side's blind choice took ply 1), as the page does; the extra requests
        (an illegal card from each side) are sent once."""
        barrier.wait()
        ply = 1
        for _ in range(4):
            status, body = _post(site, tokens[seat], pk, {"ply": ply, "action": action})
            with lock:
                statuses.append(status)
            if status == 409 and careful and body.get("code") in ("stale_ply", "busy"):
                ply = body.get("next_ply", ply)
                continue
            return

    threads = []
    for m in matches:
        for seat, action, careful in ((0, "card:3", True), (1, "card:5", True), (0, "card:9", False),
                                      (1, "card:9", False), (0, "kick-for-goal", False), (1, "drop-goal", False)):
            threads.append(threading.Thread(target=player, args=(seat, m["pk"], action, careful)))
    assert len(threads) == per_match * len(matches)
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert statuses and all(s in (201, 400, 409) for s in statuses), sorted(set(statuses))
    assert statuses.count(201) == 2 * len(matches)  # both choices of every match, once each
    for m in matches:
        for seat, choice in ((0, "card:3"), (1, "card:5")):
            # Each player's own log shows their choice (the other's stays hidden while the match is live).
            log = json.loads(urllib.request.urlopen(urllib.request.Request(
                f"{site.url}/api/matches/{m['pk']}/actions/", headers={"Authorization": f"Token {tokens[seat]}"}),
                timeout=30).read())
            first_round = log["actions"][:2]
            assert sorted(a["seat"] for a in first_round) == [0, 1], log
            assert [a["action"] for a in first_round if a["seat"] == seat] == [choice]
