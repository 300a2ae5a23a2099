"""Abuse limits (issue 16.2): sign-in, token, sign-up, password reset and join codes are limited per client.

The client is the connection's address, or behind the site's own proxies (``TRUSTED_PROXIES``) the address the
outermost of them saw: a value the client writes into ``X-Forwarded-For`` itself never makes a new client. A
limited client gets 429 with ``Retry-After``; everyone else carries on.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from league.clients import client_ip
from league.models import Tournament
from matches import services as match_services
from tests.league.api_factories import make_tournament

pytestmark = pytest.mark.django_db
PROXY = "10.0.0.1"


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def behind_proxy(client_address: str, spoofed: str = "") -> dict:
    """The request headers of a client seen through one proxy of ours (which appends the address it saw)."""
    chain = f"{spoofed}, {client_address}" if spoofed else client_address
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": chain}


@pytest.mark.parametrize(("proxies", "meta", "expected"), [
    (0, {"REMOTE_ADDR": "198.51.100.7", "HTTP_X_FORWARDED_FOR": "203.0.113.9"}, "198.51.100.7"),
    (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "203.0.113.9"}, "203.0.113.9"),
    (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.9"}, "203.0.113.9"),
    (2, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "1.2.3.4, 203.0.113.9, 10.0.0.2"}, "203.0.113.9"),
    (1, {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": "not-an-address"}, PROXY),
    (1, {"REMOTE_ADDR": PROXY}, PROXY),
])
def test_client_address_is_read_through_the_trusted_proxies_only(settings, proxies, meta, expected):
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().get("/", **meta)
    assert client_ip(request) == expected


def test_eleven_wrong_passwords_lock_only_that_client(settings, organiser):
    settings.TRUSTED_PROXIES = 1
    guesser = Client(**behind_proxy("203.0.113.9"))
    statuses = [guesser.post("/accounts/login/", {"username": "organiser", "password": f"guess-{n}"}).status_code
                for n in range(11)]
    # The form answers 200 (wrong password) until the limit (10), then the lock-out page.
    assert statuses[:9] == [200] * 9 and statuses[9:] == [429, 429]
    locked = guesser.post("/accounts/login/", {"username": "organiser", "password": "pw-organiser-1"})
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    assert b"Too many wrong passwords" in locked.content
    # A new X-Forwarded-For value written by the guesser is still the same client.
    spoofing = Client(**behind_proxy("203.0.113.9", spoofed="192.0.2.55"))
    assert spoofing.post("/accounts/login/", {"username": "organiser", "password": "pw-organiser-1"}).status_code \
        == 429
    # Someone else behind the same proxy signs in as usual.
    other = Client(**behind_proxy("203.0.113.10"))
    response = other.post("/accounts/login/", {"username": "organiser", "password": "pw-organiser-1"})
    assert response.status_code == 302


def test_a_new_forwarded_for_value_per_request_does_not_bypass_the_token_limit(settings, organiser):
    settings.TRUSTED_PROXIES = 1
    settings.TOKEN_RATE = "5/m"
    statuses = []
    for n in range(7):
        client = APIClient(**behind_proxy("203.0.113.9", spoofed=f"192.0.2.{n}"))
        statuses.append(client.post("/api/token/", {"username": "organiser", "password": "pw-organiser-1"},
                                    format="json"))
    assert [r.status_code for r in statuses] == [200] * 5 + [429] * 2
    assert int(statuses[-1]["Retry-After"]) > 0
    other = APIClient(**behind_proxy("203.0.113.10"))
    assert other.post("/api/token/", {"username": "organiser", "password": "pw-organiser-1"},
                      format="json").status_code == 200


def test_wrong_passwords_through_the_token_endpoint_lock_out_with_429(settings, organiser):
    settings.TRUSTED_PROXIES = 1
    client = APIClient(**behind_proxy("203.0.113.9"))
    responses = [client.post("/api/token/", {"username": "organiser", "password": f"guess-{n}"}, format="json")
                 for n in range(10)]
    assert [r.status_code for r in responses] == [400] * 9 + [429]
    assert responses[-1].json()["code"] == "throttled" and int(responses[-1]["Retry-After"]) > 0


def test_signup_is_limited_per_client(settings):
    settings.TRUSTED_PROXIES = 1
    settings.SIGNUP_RATE = "3/h"
    statuses = []
    for n in range(4):
        client = Client(**behind_proxy("203.0.113.9", spoofed=f"192.0.2.{n}"))
        statuses.append(client.post("/signup/", {"username": f"spammer{n}", "email": f"s{n}@example.org",
                                                 "password1": "a-long-pass-phrase",
                                                 "password2": "a-long-pass-phrase"}))
    assert [r.status_code for r in statuses] == [302, 302, 302, 429]
    assert int(statuses[-1]["Retry-After"]) > 0
    other = Client(**behind_proxy("203.0.113.10"))
    assert other.post("/signup/", {"username": "teacher", "email": "t@example.org", "password1": "a-long-pass-phrase",
                                   "password2": "a-long-pass-phrase"}).status_code == 302


def test_password_reset_is_limited_per_client(settings, mailoutbox, organiser):
    settings.TRUSTED_PROXIES = 1
    settings.PASSWORD_RESET_RATE = "2/h"
    organiser.email = "organiser@example.org"
    organiser.save()
    client = Client(**behind_proxy("203.0.113.9"))
    statuses = [client.post("/accounts/password_reset/", {"email": "organiser@example.org"}).status_code
                for _ in range(3)]
    assert statuses == [302, 302, 429]
    assert len(mailoutbox) == 2
    assert Client(**behind_proxy("203.0.113.10")).post(
        "/accounts/password_reset/", {"email": "organiser@example.org"}).status_code == 302


def test_thirty_wrong_join_codes_behind_the_proxy_do_not_lock_out_others(settings, organiser):
    settings.TRUSTED_PROXIES = 1
    tournament = make_tournament("codes", user=organiser, teams=("FRA", "NZL"))
    entry = tournament.entries.first()
    right = match_services.entry_pass_for(entry).code
    guesser = Client(**behind_proxy("203.0.113.9"))
    statuses = [guesser.post("/matches/join/", {"code": f"AAAA-BBBB-{n:04d}"}).status_code for n in range(31)]
    assert statuses[:30] == [200] * 30 and statuses[30] == 429
    blocked = guesser.post("/matches/join/", {"code": right})
    assert blocked.status_code == 429 and int(blocked["Retry-After"]) > 0
    # The next pupil of the school, behind the same proxy, joins with their code.
    pupil = Client(**behind_proxy("203.0.113.10"))
    assert pupil.post("/matches/join/", {"code": right}).status_code == 302
    assert Tournament.objects.filter(slug="codes").exists()
