"""A Redis cache that fails open: with Redis down or hanging, the site keeps serving from the database.

Every operation is given the short socket timeouts of the settings (``REDIS_TIMEOUT``). When one fails, the
error is logged and the cache answers as if it were empty (a read is a miss, ``add`` succeeds, a write is
dropped, ``incr`` finds no key); for the next ``CACHE_RETRY_SECONDS`` this process does not call Redis at all,
so a Redis that hangs costs one timeout per process every few seconds, not one per call.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

_down_until = [0.0]  # shared by the threads of a process


def _skipping() -> bool:
    return time.monotonic() < _down_until[0]


def _failed(operation: str, exc: Exception) -> None:
    if not _skipping():
        logger.warning("cache: Redis %s failed (%s): serving without the cache for %ss", operation, exc,
                       settings.CACHE_RETRY_SECONDS)
    _down_until[0] = time.monotonic() + float(settings.CACHE_RETRY_SECONDS)


def _fail_open(fallback: Any):
    """Run the operation; on a Redis error (or while Redis is known to be down) return ``fallback(args)``."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            if _skipping():
                return fallback(*args, **kwargs)
            try:
                return method(self, *args, **kwargs)
            except (RedisError, OSError) as exc:
                _failed(method.__name__, exc)
                return fallback(*args, **kwargs)

        return wrapper

    return decorate


def _default(key: Any = None, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return kwargs.get("default", default)


def _missing_key(key: Any, *args: Any, **kwargs: Any) -> Any:
    raise ValueError(f"Key {key!r} not found (the cache is unavailable).")


class _OneClientPerPool(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` around the connection pool for every operation, which costs
    about as much as the round trip itself; a ``redis.Redis`` holds no connection of its own (the pool does) and
    is thread-safe, so one per pool is kept."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, answering "empty" instead of raising when Redis is unavailable."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _OneClientPerPool

    get = _fail_open(_default)(RedisCache.get)
    add = _fail_open(lambda *a, **k: True)(RedisCache.add)
    set = _fail_open(lambda *a, **k: None)(RedisCache.set)
    touch = _fail_open(lambda *a, **k: False)(RedisCache.touch)
    delete = _fail_open(lambda *a, **k: False)(RedisCache.delete)
    get_many = _fail_open(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _fail_open(lambda *a, **k: False)(RedisCache.has_key)
    incr = _fail_open(_missing_key)(RedisCache.incr)
    set_many = _fail_open(lambda *a, **k: [])(RedisCache.set_many)
    delete_many = _fail_open(lambda *a, **k: None)(RedisCache.delete_many)
    clear = _fail_open(lambda *a, **k: False)(RedisCache.clear)


def cache_is_skipping() -> bool:
    """Whether this process is serving without the cache now (after a Redis failure)."""
    return _skipping()


def cache_reset() -> None:
    """Try Redis again at the next call (tests)."""
    _down_until[0] = 0.0
