"""Shared test fixtures."""

import os
import signal
from pathlib import Path

import pytest
from django.core.cache.backends.redis import RedisCache
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("default")


def _stop(signum, frame):
    """SIGTERM (how scripts/test stops pytest) ends the run as Ctrl+C does, so that the fixtures' teardown still
    stops the Celery workers and browsers they started in sessions of their own. Only once: a second signal (say
    from a supervisor that signals every process) must not cut that teardown short; scripts/test gives it a time
    limit and then kills what is left."""
    signal.signal(signal.SIGINT, lambda *args: None)
    signal.signal(signal.SIGTERM, lambda *args: None)
    raise KeyboardInterrupt


def pytest_configure(config):
    # Also when started in the background by a shell, which leaves SIGINT ignored.
    if not hasattr(config, "workerinput"):  # an xdist worker is stopped by its controller
        signal.signal(signal.SIGINT, _stop)
        signal.signal(signal.SIGTERM, _stop)


# The tests that take longest (tens of seconds each on two cores: browsers, real servers and workers, property tests),
# started first, longest first. In a parallel run (scripts/test) the workers take the tests in the order of the
# collection, so a long test collected late would otherwise run alone at the end while the other workers wait.
LONG_FIRST = (
    "tests/e2e/test_csp.py", "tests/e2e/test_play_issue19.py", "tests/league/test_result_path.py",
    "tests/matches/test_tasks_integration.py", "tests/scripts/test_cleanup.py",
    "tests/e2e/test_event_journey.py", "tests/scripts/test_serve.py", "tests/e2e/test_event_registration.py",
    "tests/league/test_web_bad_input.py", "tests/test_cache_mirror_live.py", "tests/e2e/", "tests/test_degrade.py",
    "tests/matches/test_simulation.py", "tests/matches/test_concurrent_moves.py",
    "tests/league/test_bracket_property.py", "tests/league/test_events.py", "tests/league/test_schedule.py",
    "tests/engine/test_levels.py", "tests/test_types.py",
)


# The test database every parallel worker copies (PostgreSQL's CREATE DATABASE ... TEMPLATE) instead of migrating its
# own: rendering the migrations' model states cost each worker about 20 s of CPU at the start of a run (2026-11-25,
# cProfile of a worker's session start), four times over on two cores, while the copy takes a fraction of a second.
TEMPLATE_KEY = "rugby_test_database_template"
TEMPLATE_ENV = "RUGBY_TEST_DATABASE_TEMPLATE"
TEMPLATE_STASH = pytest.StashKey[tuple[str, str]]()  # the controller's: (database name, the template's name)


def _copies_a_template(config) -> bool:
    """This is the controller of a parallel run on PostgreSQL whose workers make their test databases as usual."""
    from django.db import connection

    return (config.pluginmanager.has_plugin("dsession") and connection.vendor == "postgresql"
            and not config.getoption("reuse_db") and not config.getoption("nomigrations"))


def pytest_sessionstart(session):
    """The controller of a parallel run migrates one test database, the workers' template (before they start: xdist
    starts them in its own pytest_sessionstart, which runs last). In a worker, the databases of the sites and Celery
    workers that its tests start in subprocesses are copies of it too (tests/live_site.py's fresh_database)."""
    config = session.config
    template = getattr(config, "workerinput", {}).get(TEMPLATE_KEY)
    if template:
        os.environ[TEMPLATE_ENV] = template
    if not _copies_a_template(config):
        return
    from django.db import connection
    from pytest_django.plugin import blocking_manager_key

    name = connection.settings_dict["NAME"]
    with config.stash[blocking_manager_key].unblock():
        config.stash[TEMPLATE_STASH] = (name, connection.creation.create_test_db(verbosity=0, autoclobber=True,
                                                                                 serialize=False))
        connection.close()  # a template takes no connections while it is copied


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist hook: each worker learns the template's name."""
    made = node.config.stash.get(TEMPLATE_STASH, None)
    if made:
        node.workerinput[TEMPLATE_KEY] = made[1]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """The controller drops the template after the workers ended (xdist stops them in its own hook, before this)."""
    config = session.config
    made = config.stash.get(TEMPLATE_STASH, None)
    if made:
        from django.db import connection
        from pytest_django.plugin import blocking_manager_key

        with config.stash[blocking_manager_key].unblock():
            try:
                connection.creation.destroy_test_db(made[0], verbosity=0)
            except Exception as error:  # said, but the tests' outcome stands
                config.get_terminal_writer().line(f"could not drop the test database template: {error}", red=True)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, request):
    """pytest-django's, and a worker of a parallel run makes its test database as a copy of the controller's template:
    Django's migrate then finds every migration applied (and their rows, such as the nations, already there)."""
    template = getattr(request.config, "workerinput", {}).get(TEMPLATE_KEY)
    if template:
        from django.conf import settings as django_settings

        django_settings.DATABASES["default"].setdefault("TEST", {})["TEMPLATE"] = template


def _database_use(item) -> str:
    """"transaction", "db" or "" (none), as pytest-django sorts the tests (its pytest_collection_modifyitems)."""
    from django.test import TestCase, TransactionTestCase

    if getattr(item, "cls", None) and issubclass(item.cls, TransactionTestCase):
        return "db" if issubclass(item.cls, TestCase) else "transaction"
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    if (marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences"))
            or "transactional_db" in fixtures or "live_server" in fixtures):
        return "transaction"
    return "db" if marker or "db" in fixtures else ""


def pytest_collection_modifyitems(config, items):
    """The long tests of ``LONG_FIRST`` first, in its order, within pytest-django's order: the tests in a rolled-back
    transaction before the transactional ones, whose flush empties the tables of the migrations' rows (the nations)
    that the others read -- and since the workers take the tests in this order, no worker runs one of those after a
    flush. The long tests that use no test database start before all; the short ones end the run, filling the
    workers' last minutes."""

    def rank(item) -> int:
        return next((i for i, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)), len(LONG_FIRST))

    def key(item) -> tuple[int, int]:
        use, long = _database_use(item), rank(item)
        return ({"db": 1, "transaction": 2}.get(use, 0 if long < len(LONG_FIRST) else 3), long)

    items.sort(key=key)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI every service is installed by scripts/test, so a skip (no Chromium, no Redis, SQLite) is a failure.

    Locally the browser, worker and PostgreSQL-only tests may skip with their reason.
    """
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") == "true" and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where scripts/test provides every service: {reason}"


@pytest.fixture(autouse=True)
def _no_odds_after_result(settings):  # pytest-django's settings fixture, not hypothesis's
    """Results saved in tests do not queue odds tasks (matches/signals.py); tests of the odds switch it on."""
    settings.ODDS_AFTER_RESULT = False


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Each test starts with an empty cache: the per-client limits (sign-up, token, join codes...) count in it, and
    a count left by an earlier test (all from 127.0.0.1) must not refuse this one's requests."""
    from django.core.cache import cache

    from config.middleware import forget_recent_users
    from league.cache import forget_recent_answers

    cache.clear()
    forget_recent_answers()
    forget_recent_users()


@pytest.fixture(autouse=True)
def _recent_users_clock(monkeypatch):
    """The signed-in user's memory (``config.middleware``) does not expire by itself during a test: a test's query
    counts must not depend on how long the machine took between two requests (a test moves the clock itself)."""
    from config import middleware

    monkeypatch.setattr(middleware, "_clock", lambda: 0.0)


@pytest.fixture
def cache_round_trips(monkeypatch):
    """The names of the shared cache's calls made from now on that reached the cache server (with Redis: not the
    ones the mirror answered), one per call (a list the test may clear)."""
    import redis.client
    from django.core.cache import caches

    backend = caches["default"]
    calls: list[str] = []
    inside = [0]  # a backend may make get_many of its get (the tests' local memory does): count the outer call
    reached = [0]
    if isinstance(backend, RedisCache):
        for cls, method in ((redis.client.Redis, "execute_command"), (redis.client.Pipeline, "execute")):
            original = getattr(cls, method)

            def sent(*args, _original=original, **kwargs):
                reached[0] += 1
                return _original(*args, **kwargs)

            monkeypatch.setattr(cls, method, sent)
    else:
        reached = None  # a memory cache: every call is a "round trip"
    for name in ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "incr", "get_or_set"):
        original = getattr(backend, name)

        def counted(*args, _original=original, _name=name, **kwargs):
            before = reached[0] if reached is not None else None
            inside[0] += 1
            try:
                return _original(*args, **kwargs)
            finally:
                inside[0] -= 1
                if not inside[0] and (reached is None or reached[0] != before):
                    calls.append(_name)

        monkeypatch.setattr(backend, name, counted)
    return calls


@pytest.fixture
def cache_mirror():
    """This process's cache mirror (``config.cache``), listening (waited for); the test is skipped without Redis."""
    import time

    from django.core.cache import caches

    mirror = getattr(getattr(caches["default"], "_cache", None), "mirror", None)
    if mirror is None:
        pytest.skip("the cache mirror needs Redis (scripts/test starts one)")
    deadline = time.monotonic() + 5
    while not mirror.live():
        assert time.monotonic() < deadline, "the cache mirror's listener did not subscribe"
        time.sleep(0.01)
    return mirror


@pytest.fixture
def cache_mirror_deaf(monkeypatch):
    """The cache mirror's listener is not heard (as after a lost connection): every read goes to the cache."""
    from config.cache import Mirror

    monkeypatch.setattr(Mirror, "live", lambda self: False)


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts (and ends) in the site's default language. A page requested in French leaves French active in
    the test's thread (LocaleMiddleware activates the visitor's language and nothing deactivates it), and the
    services' refusals are translated: a later test calling a service directly would read them in French."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """A cheap hasher in tests: PBKDF2's deliberate slowness made every user created cost a large share of a test."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_local_cache():
    """Each test starts with an empty local-memory cache: SQLite gives the next test the same ids again, and a page
    or API list cached under (tournament 1, version 3) by one test must not be served to the next. (With Redis, in
    scripts/test, PostgreSQL never reuses an id, and the cache's database may be shared: it is left alone.)"""
    from django.conf import settings as django_settings
    from django.core.cache import cache

    if django_settings.CACHES["default"]["BACKEND"].endswith("LocMemCache"):
        cache.clear()


def _run_folder(tmp_path_factory) -> Path:
    """The test run's own temporary folder, shared by the workers of a parallel run (pytest-xdist gives each worker
    a folder inside its controller's)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def static_root(tmp_path_factory) -> Path:
    """The site's static files for the real sites that tests start (tests/live_site.py), collected once per test run
    and shared by its workers: collectstatic cost some 4.5 s of CPU each time, and each test or module collected
    them again."""
    from tests.live_site import collect_static, made_once_per_run

    return made_once_per_run(_run_folder(tmp_path_factory), "static", collect_static)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A migrated SQLite database that each SQLite site a test starts copies (``LiveSite(sqlite_template=...)``),
    made once per test run and shared by its workers, as PostgreSQL's sites copy the migrated template."""
    from tests.live_site import made_once_per_run, migrate_sqlite

    return made_once_per_run(_run_folder(tmp_path_factory), "sqlite", migrate_sqlite) / "site.sqlite3"


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(username="organiser", password="pw-organiser-1")
