"""Held until interrupted: run only by tests/scripts/test_cleanup.py, through an inner ``scripts/test`` that it then
interrupts (its name does not match ``test_*.py``, so the suite does not collect it otherwise).

The test holds what the suite's tests start outside pytest's own process group — a Celery worker in a session of its
own, as tests/matches/test_tasks_integration.py does, and Chromium through the browser tests' own fixture — writes
their process ids to the file named by RUGBY_HELD_FILE, and waits for the signal.
"""

import json
import os
import time
from pathlib import Path

import pytest

from tests.e2e import conftest as browser_tests
from tests.matches.test_tasks_integration import Workers

browser = browser_tests.browser  # the browser tests' fixture, with its teardown


def test_hold_a_worker_and_a_browser_until_interrupted(browser, tmp_path):
    workers = Workers(dict(os.environ), tmp_path)
    try:
        worker = workers.start()
        deadline = time.monotonic() + 60
        while " ready." not in workers.logs():
            assert worker.poll() is None and time.monotonic() < deadline, workers.logs()
            time.sleep(0.2)
        browser.new_page().goto("about:blank")
        Path(os.environ["RUGBY_HELD_FILE"]).write_text(json.dumps({"pytest": os.getpid(), "worker": worker.pid}))
        time.sleep(600)
        pytest.fail("not interrupted within 10 minutes")
    finally:
        workers.stop_all()
