"""Accounts (issue 14.5): sign-up with an e-mail address, "forgot password" by e-mail, the site's own error pages
(no debug URL list, no bare "403 Forbidden", a CSRF failure page) and a favicon."""

from __future__ import annotations

import re

import dj_email_url
import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_signup_asks_for_an_email_address(client, django_user_model):
    page = client.get("/signup/").content.decode()
    assert 'name="email"' in page and 'type="email"' in page
    response = client.post("/signup/", {"username": "coach", "password1": "a-long-pass-phrase",
                                        "password2": "a-long-pass-phrase"})
    assert response.status_code == 200 and not django_user_model.objects.filter(username="coach").exists()
    client.post("/signup/", {"username": "coach", "email": "coach@example.org", "password1": "a-long-pass-phrase",
                             "password2": "a-long-pass-phrase"})
    assert django_user_model.objects.get(username="coach").email == "coach@example.org"
    # One account per address, so that a reset reaches the right person.
    again = Client().post("/signup/", {"username": "coach2", "email": "COACH@example.org",
                                       "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"})
    assert again.status_code == 200 and "already uses this e-mail" in again.content.decode()


def test_forgotten_password_is_reset_by_email(client, organiser, mailoutbox):
    organiser.email = "organiser@example.org"
    organiser.save()
    assert "Forgot your password?" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password_reset/", {"email": "organiser@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["organiser@example.org"]
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+/)", mailoutbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "a-brand-new-phrase",
                                                    "new_password2": "a-brand-new-phrase"})
    assert done.status_code == 302
    assert Client().post("/accounts/login/", {"username": "organiser", "password": "a-brand-new-phrase"}) \
        .status_code == 302
    # Unknown addresses get the same answer (no way to learn who has an account), and no mail.
    assert client.post("/accounts/password_reset/", {"email": "nobody@example.org"}).status_code == 302
    assert len(mailoutbox) == 1


def test_the_mail_backend_comes_from_the_environment():
    assert dj_email_url.parse("console://")["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    smtp = dj_email_url.parse("smtp://user:pw@mail.example.org:587/?tls=True")
    assert smtp["EMAIL_HOST"] == "mail.example.org" and smtp["EMAIL_USE_TLS"] is True


@pytest.mark.parametrize(("url", "status", "title"), [
    ("/t/no-such-tournament/", 404, "Page not found"),
    ("/no/such/page/", 404, "Page not found"),
])
def test_error_pages_are_the_sites_own(settings, client, url, status, title):
    settings.DEBUG = False
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == status and title in html and 'class="site-header"' in html
    assert f'<p class="error-status muted">Error {status}</p>' in html  # the code, for a parent to read out
    assert "URLconf" not in html and "Using the URLconf" not in html


def test_forbidden_and_csrf_pages_are_styled(settings, organiser, django_user_model):
    from tests.league.api_factories import make_tournament

    settings.DEBUG = False
    make_tournament("mine", user=organiser)
    stranger = django_user_model.objects.create_user(username="stranger", password="pw-stranger-1")
    client = Client()
    client.force_login(stranger)
    forbidden = client.get("/t/mine/manage/settings/")
    assert forbidden.status_code == 403 and "You may not do that" in forbidden.content.decode()
    assert "Error 403</p>" in forbidden.content.decode()
    csrf = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "x", "password": "y"})
    html = csrf.content.decode()
    assert csrf.status_code == 403 and "That form could not be accepted" in html and "403 Forbidden" not in html
    assert "Error 403</p>" in html


def test_server_error_page_needs_no_request(settings):
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong on our side" in html and "favicon.svg" in html


def test_favicon(client):
    page = client.get("/").content.decode()
    assert 'rel="icon"' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("favicon.svg")


def test_a_first_time_organiser_finds_the_way_to_create_a_tournament(client, django_user_model):
    """The home page tells a visitor how to run a tournament (signing up leads to the new-tournament form)."""
    page = client.get("/").content.decode()
    assert 'href="/signup/">Sign up and create a tournament</a>' in page
    user = django_user_model.objects.create_user(username="org", password="pw-organiser-1")
    client.force_login(user)
    page = client.get("/").content.decode()
    assert "Sign up and create a tournament" not in page and 'href="/new/">Create a tournament</a>' in page
