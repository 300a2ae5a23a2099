"""The answers a process keeps (issue 17): a versioned answer is built once, then served from the process's
recent answers without a round trip to the shared cache; and the Redis cache keeps one client per pool."""

from __future__ import annotations

from django.core.cache import cache

from config.cache import FailOpenRedisCache
from league.cache import forget_recent_answers, versioned_answer


def test_a_versioned_answer_is_built_once_and_then_served_from_the_process():
    built = []

    def build() -> bytes:
        built.append(1)
        return b"table v1"

    assert versioned_answer("test:answer:v1", build, 60) == b"table v1"
    assert cache.get("test:answer:v1") == b"table v1"  # shared with the other processes
    cache.clear()
    assert versioned_answer("test:answer:v1", build, 60) == b"table v1"  # no round trip, nothing rebuilt
    assert len(built) == 1
    forget_recent_answers()
    assert versioned_answer("test:answer:v1", build, 60) == b"table v1"
    assert len(built) == 2
    assert versioned_answer("test:answer:v2", lambda: b"table v2", 60) == b"table v2"  # a new version: a new key


def test_a_refused_answer_is_never_kept():
    assert versioned_answer("test:answer:refused", lambda: None, 60) is None
    assert cache.get("test:answer:refused") is None
    assert versioned_answer("test:answer:refused", lambda: b"now", 60) == b"now"


def test_the_redis_cache_keeps_one_client_per_pool():
    backend = FailOpenRedisCache("redis://127.0.0.1:1/0", {})  # never connected: building a client needs no server
    client = backend._cache.get_client()
    assert backend._cache.get_client(write=True) is client
