"""The cache's mirror (config.cache): each process keeps the small keys it read, and hears every change.

Two processes are played by two clients of the same Redis, each with a mirror of its own (its own listener).
"""

from __future__ import annotations

import os
import time

import pytest
from django.conf import settings

from config.cache import Mirror, _OneClientPerPool

PREFIXES = ("test-mirror:",)
KEY = ":1:test-mirror:row"
OTHER = ":1:not-mirrored"

pytestmark = pytest.mark.skipif("Redis" not in settings.CACHES["default"]["BACKEND"],
                                reason="the mirror needs Redis (scripts/test starts one)")


def _process() -> _OneClientPerPool:
    """A client with a mirror of its own, listening: what another process would have."""
    url = settings.CACHES["default"]["LOCATION"]
    client = _OneClientPerPool([url], socket_timeout=1)
    client.mirror = Mirror(url, PREFIXES)
    deadline = time.monotonic() + 5
    while not client.mirror.live():
        assert time.monotonic() < deadline, "the listener did not subscribe"
        time.sleep(0.01)
    return client


def _until(check, seconds: float = 3.0) -> float:
    """Seconds until ``check()`` is true (fails after ``seconds``)."""
    start = time.monotonic()
    while not check():
        assert time.monotonic() - start < seconds, "never true"
        time.sleep(0.002)
    return time.monotonic() - start


class Counting:
    """Counts the client's reads that reach Redis."""

    def __init__(self, client: _OneClientPerPool, monkeypatch):
        self.reads = 0
        redis_client = client.get_client()
        original = redis_client.mget

        def mget(keys):
            self.reads += 1
            return original(keys)

        monkeypatch.setattr(redis_client, "mget", mget)


@pytest.fixture
def two_processes():
    first, second = _process(), _process()
    first.delete(KEY)
    yield first, second
    first.delete(KEY)


def test_a_kept_value_is_read_without_a_round_trip(two_processes, monkeypatch):
    first, _ = two_processes
    first.set(KEY, "v1", 60)
    counting = Counting(first, monkeypatch)
    assert first.get(KEY, None) == "v1"
    assert [first.get(KEY, None) for _ in range(5)] == ["v1"] * 5
    assert counting.reads == 1  # its own change's message, heard meanwhile, did not drop what it read since


def test_a_change_is_heard_by_the_others_only(two_processes):
    first, second = two_processes
    first.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1" and second.get(KEY, None) == "v1"
    first.set(KEY, "v2", 60)
    _until(lambda: second.mirror.kept([KEY])[0] == {})  # dropped by the message
    time.sleep(0.05)  # the writer's own listener got it too, and skipped it
    assert first.get(KEY, None) == "v2" and first.mirror.kept([KEY])[0] == {KEY: first.get_client().get(KEY)}


def test_keys_not_mirrored_are_read_from_redis_every_time(two_processes, monkeypatch):
    first, _ = two_processes
    first.set(OTHER, "x", 60)
    counting = Counting(first, monkeypatch)
    assert [first.get(OTHER, None) for _ in range(3)] == ["x"] * 3
    assert counting.reads == 3


def test_a_change_in_another_process_is_heard(two_processes):
    first, second = two_processes
    second.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1"
    assert first.get(KEY, None) == "v1"  # kept
    second.set(KEY, "v2", 60)
    waited = _until(lambda: first.get(KEY, None) == "v2")
    assert waited < 1
    assert all(first.get(KEY, None) == "v2" for _ in range(20))  # never the old value again


def test_the_writing_process_sees_its_own_change_at_once(two_processes):
    first, _ = two_processes
    first.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1"
    first.set(KEY, "v2", 60)
    assert first.get(KEY, None) == "v2"
    first.delete(KEY)
    assert first.get(KEY, "gone") == "gone"


@pytest.mark.parametrize("change", ["delete", "delete_many", "set_many", "incr", "clear"])
def test_every_kind_of_write_is_heard(two_processes, change):
    first, second = two_processes
    second.set(KEY, 1, 60)
    assert first.get(KEY, None) == 1
    assert first.get(KEY, None) == 1
    {"delete": lambda: second.delete(KEY), "delete_many": lambda: second.delete_many([KEY]),
     "set_many": lambda: second.set_many({KEY: 7}, 60), "incr": lambda: second.incr(KEY, 6),
     "clear": lambda: second.clear()}[change]()
    expected = 7 if change in ("set_many", "incr") else None
    _until(lambda: first.get(KEY, None) == expected)


def test_a_value_read_while_a_change_was_heard_is_not_kept(two_processes):
    """The race: a value read from Redis before a change, whose message arrives before the reader keeps it."""
    first, _ = two_processes
    mirror = first.mirror
    _, generation = mirror.kept([KEY])
    mirror.drop([KEY])  # the listener hears a change while the read is in flight
    mirror.keep(generation, {KEY: b"old"})
    assert mirror.kept([KEY])[0] == {}


def test_nothing_kept_is_used_while_the_listener_is_not_heard(two_processes, monkeypatch):
    first, second = two_processes
    second.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1"
    first.mirror._heard = time.monotonic() - 60  # its pings went unanswered
    counting = Counting(first, monkeypatch)
    assert first.get(KEY, None) == "v1"
    assert counting.reads == 1


def test_a_lost_connection_forgets_everything_and_subscribes_again(two_processes):
    first, second = two_processes
    second.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1"
    assert first.get(KEY, None) == "v1"
    # Redis drops the listener's connection (as a restart or a network cut would).
    admin = first.get_client(write=True)
    listeners = [entry for entry in admin.client_list(_type="pubsub") if entry["name"] == first.mirror.listener_name]
    assert len(listeners) == 1
    admin.client_kill_filter(_id=listeners[0]["id"])
    _until(lambda: not first.mirror.live() or first.mirror.kept([KEY])[0] == {})
    second.set(KEY, "v2", 60)
    _until(lambda: first.get(KEY, None) == "v2")
    _until(first.mirror.live, 5)


def test_a_forked_child_keeps_nothing_and_listens_for_itself(two_processes):
    first, _ = two_processes
    first.set(KEY, "v1", 60)
    assert first.get(KEY, None) == "v1"
    assert first.get(KEY, None) == "v1"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through the pipe
        kept = first.mirror.kept([KEY])[0]
        os.write(write, b"empty" if kept == {} and not first.mirror.live() else b"kept")
        os._exit(0)
    os.close(write)
    answer = os.read(read, 16)
    os.waitpid(pid, 0)
    assert answer == b"empty"
