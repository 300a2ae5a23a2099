"""Who is signed in, for page reads: the user this process loaded for the same session in the last few seconds
(``config.middleware.AuthenticationMiddleware``). A signed-in phone polling a page costs no user query; changes to
the user reach reads within ``RECENT_USER_SECONDS`` and writes at once."""

from __future__ import annotations

import pytest
from django.test import Client

from config import middleware

pytestmark = pytest.mark.django_db

SIGNED_IN_PAGE = "/accounts/password_change/"  # 200 signed in, a redirect to the sign-in page otherwise


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(middleware, "_clock", lambda: now[0])
    middleware.forget_recent_users()
    yield now
    middleware.forget_recent_users()


@pytest.fixture
def signed_in(organiser):
    client = Client()
    client.force_login(organiser)
    return client


def test_a_repeated_read_does_not_load_the_user_again(signed_in, clock, django_assert_num_queries):
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200
    signed_in.get("/")
    with django_assert_num_queries(0):
        # The home page is kept whole: with the user remembered, a signed-in visit costs no query at all.
        assert signed_in.get("/").status_code == 200
        assert signed_in.get(SIGNED_IN_PAGE).status_code == 200


def test_a_user_deactivated_elsewhere_is_remembered_by_reads_and_refused_by_writes(signed_in, organiser, clock):
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200
    type(organiser).objects.filter(pk=organiser.pk).update(is_active=False)  # by another process
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200  # remembered, for a moment
    # A write loads the user: refused at once (the password form sends a signed-out visitor to sign in).
    refused = signed_in.post(SIGNED_IN_PAGE, {"old_password": "pw-organiser-1", "new_password1": "x-new-pw-123456",
                                              "new_password2": "x-new-pw-123456"})
    assert refused.status_code == 302 and "/login/" in refused["Location"]


def test_a_change_made_by_this_process_is_seen_by_its_next_read(signed_in, organiser, clock):
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200
    organiser.is_active = False
    organiser.save()
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 302


def test_a_password_changed_elsewhere_signs_reads_out_after_the_memory(organiser, django_user_model, clock):
    phone, laptop = Client(), Client()
    phone.force_login(organiser)
    assert phone.get(SIGNED_IN_PAGE).status_code == 200
    # Changed by another process (an update sends no signal to this one).
    organiser.set_password("a-new-password-42")
    django_user_model.objects.filter(pk=organiser.pk).update(password=organiser.password)
    assert phone.get(SIGNED_IN_PAGE).status_code == 200  # remembered, for a moment
    clock[0] += middleware.RECENT_USER_SECONDS + 0.1
    assert phone.get(SIGNED_IN_PAGE).status_code == 302  # Django's own check: the old password's session ends
    laptop.force_login(organiser)
    assert laptop.get(SIGNED_IN_PAGE).status_code == 200  # its session holds the new password's hash


def test_a_password_changed_in_this_session_keeps_it_signed_in(signed_in, clock):
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200
    changed = signed_in.post(SIGNED_IN_PAGE, {"old_password": "pw-organiser-1", "new_password1": "x-new-pw-123456",
                                              "new_password2": "x-new-pw-123456"})
    assert changed.status_code == 302 and "done" in changed["Location"]
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 200


def test_signing_out_and_in_as_someone_else_is_seen_at_once(signed_in, organiser, django_user_model, clock):
    assert signed_in.get(SIGNED_IN_PAGE).context["user"] == organiser
    signed_in.post("/accounts/logout/")
    assert signed_in.get(SIGNED_IN_PAGE).status_code == 302
    other = django_user_model.objects.create_user("other", password="pw-other-12345")
    signed_in.force_login(other)
    assert signed_in.get(SIGNED_IN_PAGE).context["user"] == other


def test_each_request_has_its_own_copy_of_the_user(signed_in, organiser, clock):
    first = signed_in.get(SIGNED_IN_PAGE).context["user"]
    second = signed_in.get(SIGNED_IN_PAGE).context["user"]
    assert first == second == organiser and first is not second


def test_the_password_is_changed_on_the_sites_own_pages(signed_in, organiser, clock):
    """The signed-in name in the header leads to the site's own password page (not the admin's)."""
    home = signed_in.get("/").content.decode()
    assert 'href="/accounts/password_change/"' in home
    page = signed_in.get(SIGNED_IN_PAGE).content.decode()
    assert "Change your password" in page and "Django administration" not in page
    refused = signed_in.post(SIGNED_IN_PAGE, {"old_password": "wrong", "new_password1": "x-new-pw-123456",
                                              "new_password2": "x-new-pw-123456"})
    assert refused.status_code == 200 and "old password was entered incorrectly" in refused.content.decode()
    done = signed_in.post(SIGNED_IN_PAGE, {"old_password": "pw-organiser-1", "new_password1": "x-new-pw-123456",
                                           "new_password2": "x-new-pw-123456"}, follow=True)
    assert "Password changed" in done.content.decode() and "Django administration" not in done.content.decode()
    organiser.refresh_from_db()
    assert organiser.check_password("x-new-pw-123456")
