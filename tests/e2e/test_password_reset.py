"""An organiser who forgot the password, on a 390 px phone (issue 14.5): "Forgot your password?" on the sign-in
page, the mail with its link (the console backend in the demo; Django's test outbox here), a new password chosen
on the site's own page, and signing in with it while the old one is refused. Screenshots go to test-artifacts/
(``reset-*.png``)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.browser import ORGANISER, PASSWORD, fits, phone_page, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

NEW_PASSWORD = "a-brand-new-phrase-7"


def test_an_organiser_resets_a_forgotten_password_by_mail(browser, live_server, signed_up_organiser, mailoutbox,
                                                          debug_off):
    base = live_server.url
    page = signed_up_organiser
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url(f"{base}/")

    page.goto(f"{base}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label(re.compile("mail", re.I)).fill(f"{ORGANISER}@example.org")
    shot(page, "reset-01-ask")
    assert fits(page)
    page.get_by_role("button", name=re.compile("Send")).click()
    page.get_by_role("heading", name="Check your e-mail").wait_for()

    assert len(mailoutbox) == 1 and mailoutbox[0].to == [f"{ORGANISER}@example.org"]
    link = re.search(r"http://\S+/accounts/reset/\S+/", mailoutbox[0].body).group(0)
    assert link.startswith(base)  # the address of the site that sent it, not a placeholder

    reader = phone_page(browser)  # the mail opened on the phone: a browser with no session
    reader.goto(link)
    reader.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    reader.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    shot(reader, "reset-02-choose")
    assert fits(reader)
    reader.get_by_role("button", name=re.compile("Change|Save|Set")).click()
    reader.get_by_role("heading", name="Password changed").wait_for()

    # The link worked once: opened again, it says so instead of offering the form.
    reader.goto(link)
    assert reader.get_by_label("New password", exact=True).count() == 0

    reader.goto(f"{base}/accounts/login/")
    reader.get_by_label("Username").fill(ORGANISER)
    reader.get_by_label("Password").fill(PASSWORD)
    reader.get_by_role("button", name="Sign in").click()
    assert reader.url.startswith(f"{base}/accounts/login/")  # the old password no longer opens the account
    reader.get_by_label("Password").fill(NEW_PASSWORD)
    reader.get_by_role("button", name="Sign in").click()
    reader.wait_for_url(f"{base}/")
    assert reader.get_by_role("link", name="Create a tournament").is_visible()
    shot(reader, "reset-03-signed-in")
