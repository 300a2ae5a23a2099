"""What the browser tests share (Playwright driving Debian's Chromium): where Chromium is, a phone, screenshots,
and signing up or in through the site's own forms. The fixtures are in ``conftest.py``."""

from __future__ import annotations

import os
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
# The organiser the sign-up tests make through the form.
ORGANISER = "coach"
PASSWORD = "a-long-pass-phrase"


def promised(seconds: float) -> float:
    """A delay the site promises, stretched only on a starved machine: by the 1-minute load per core above 2 (the
    test suite runs two workers per core). Quiet or in an ordinary CI run the promise stands as it is; with helpers'
    suites on top (load 12-20 on 2 cores) a page's poll waited 3.8 s for the CPU, not for the site."""
    load_per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    return seconds * max(1.0, load_per_core / 2)


def phone_page(browser, *, viewport: dict | None = None, timeout: float = 15_000, init_script: str = ""):
    """A new page in a context of its own, as a phone (touch, 390 px wide unless ``viewport`` says otherwise)."""
    context = browser.new_context(viewport=viewport or PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.set_default_timeout(timeout)
    return page


def shot(page, name: str, **kwargs) -> None:
    """A full-page screenshot in test-artifacts/<name>.png (look at them)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, **kwargs)


def fits(page) -> bool:
    """Nothing sticks out sideways. Compared with the context's viewport, not ``innerWidth``: a mobile browser
    widens its layout viewport to fit content that sticks out, so ``innerWidth`` grows with the overflow."""
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"] + 1


def sign_up(page, base: str, username: str = ORGANISER, password: str = PASSWORD) -> None:
    """Sign up through the form (username, e-mail address, the password twice) and land on "new tournament"."""
    page.goto(f"{base}/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("E-mail address").fill(f"{username}@example.org")
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password confirmation").fill(password)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url("**/new/")


def sign_in(page, base: str, username: str, password: str) -> None:
    """Sign in through the sign-in page and land on the home page."""
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
