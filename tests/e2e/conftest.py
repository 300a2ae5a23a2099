"""Fixtures of the browser tests: Chromium, the nations, DEBUG off, an empty cache, and an organiser signed up
through the form (helpers in ``tests/e2e/browser.py``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.browser import CHROMIUM, CHROMIUM_ARGS, phone_page, sign_up

# Playwright's sync API runs an event loop in the test's thread; the tests also read the database directly.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def nations(transactional_db):
    """The 20 nations of the data migration: a transactional test before this one may have flushed them."""
    from league.models import Team
    from league.nations import RWC2023_NATIONS

    for code, name, primary, secondary, pool, ranking in RWC2023_NATIONS:
        Team.objects.get_or_create(code=code, defaults={
            "name": name, "primary_colour": primary, "secondary_colour": secondary, "is_nation": True,
            "rwc2023_pool": pool, "world_ranking": ranking})


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's Chromium is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _close_pages(request):
    """The pages a test opened are closed when it ends: the module's Chromium lives on for the next test, and a
    live page left open would go on polling (the match and big-screen pages do) a server that has stopped."""
    yield
    browser = request.node.funcargs.get("browser")  # none if the test did not get that far
    if browser is not None:
        for context in browser.contexts:
            context.close()


@pytest.fixture
def debug_off(settings):
    """As production serves: DEBUG off (the site's own error pages, no debug toolbar of any kind)."""
    settings.DEBUG = False


@pytest.fixture
def fresh_cache():
    """An empty cache before and after: a cached page of an earlier test's tournament (same ids) is not served."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def signed_up_organiser(browser, live_server):
    """A phone that signed up as the organiser ``coach`` through the sign-up form, on the new-tournament page."""
    page = phone_page(browser)
    sign_up(page, live_server.url)
    return page
