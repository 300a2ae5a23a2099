"""A Redis cache that fails open: with Redis down or hanging, the site keeps serving from the database.

Every operation is given the short socket timeouts of the settings (``REDIS_TIMEOUT``). When one fails, the
error is logged and the cache answers as if it were empty (a read is a miss, ``add`` succeeds, a write is
dropped, ``incr`` finds no key); for the next ``CACHE_RETRY_SECONDS`` this process does not call Redis at all,
so a Redis that hangs costs one timeout per process every few seconds, not one per call.

**The mirror.** A few small keys are read by nearly every public request and change only when an organiser or a
result changes something: a tournament's row, its section tokens, the site's data version (the ``MIRROR``
option names their prefixes). Each process keeps the values it read of those keys, and every write of one
through this cache publishes the key on a Redis channel; a thread in each process listens and drops what it
hears. So a repeated read costs no round trip at all, and a change is seen by every process as soon as the
message arrives (the process that wrote sees it at once). What a process keeps is used only while its listener
is subscribed and heard Redis answer its ping within ``_FEED_SILENCE`` seconds (a lost connection, a Redis
restarted: every read goes to Redis again until the listener has subscribed again), and for at most
``CACHE_MIRROR_SECONDS`` (a setting). A value read from Redis while a change was heard is not kept (the
generation count), so a value read before a change can never be kept after it.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import redis
from cachetools import TTLCache
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


# The listener pings Redis this often; it must have heard an answer (or a message) this recently to trust the feed.
_PING_SECONDS = 1.0
_FEED_SILENCE = 3.0
# A message naming this instead of keys: drop everything (the cache was emptied).
_EVERYTHING = "*"


class Mirror:
    """The values of the mirrored keys this process read, dropped when a change is heard (see the module's text).

    One per Redis location and process, shared by the threads (each thread has its own cache backend object).
    Values are kept as Redis returned them (bytes): each reader decodes its own copy, as without the mirror.
    """

    def __init__(self, url: str, prefixes: tuple[str, ...]):
        self.prefixes = prefixes
        self._url = url
        self._channel = f"rugby:cache-changes:{url}"
        self._values: TTLCache[str, bytes] = TTLCache(maxsize=8192, ttl=settings.CACHE_MIRROR_SECONDS)
        self._lock = threading.Lock()
        self._generation = 0
        self._heard = 0.0  # when the listener last heard Redis (monotonic); 0: not subscribed
        self._listener: threading.Thread | None = None
        _every_mirror.add(self)

    @property
    def listener_name(self) -> str:
        """The name of the listener's connection to Redis (``CLIENT LIST``)."""
        return f"rugby-mirror-{os.getpid()}-{id(self)}"

    def mirrored(self, key: str) -> bool:
        """Whether ``key`` (a key as stored, with its prefix and version) is one of the mirrored keys."""
        return any(prefix in key for prefix in self.prefixes)

    def live(self) -> bool:
        """Whether kept values may be used: the listener is subscribed and heard Redis lately (started if not)."""
        if self._listener is None:
            self._start()
        return time.monotonic() - self._heard < _FEED_SILENCE

    def kept(self, keys: Iterable[str]) -> tuple[dict[str, bytes], int]:
        """The kept values of ``keys`` (the mirrored ones this process has), and the generation to pass to
        :meth:`keep` with what is read from Redis for the others."""
        with self._lock:
            found = {key: value for key in keys if (value := self._values.get(key)) is not None}
            return found, self._generation

    def keep(self, generation: int, values: dict[str, bytes]) -> None:
        """Keep values read from Redis, unless a change was heard since :meth:`kept` gave ``generation``."""
        with self._lock:
            if generation == self._generation and time.monotonic() - self._heard < _FEED_SILENCE:
                for key, value in values.items():
                    if self.mirrored(key):
                        self._values[key] = value

    def drop(self, keys: Iterable[str] | None) -> None:
        """Forget ``keys`` (None: everything) and make any read in flight not keep what it gets."""
        with self._lock:
            self._generation += 1
            if keys is None:
                self._values.clear()
            else:
                for key in keys:
                    self._values.pop(key, None)

    def changed(self, client: Any, keys: list[str] | None) -> None:
        """After a write of ``keys`` (None: the cache was emptied): forget them here, and tell every process."""
        if keys is not None:
            keys = [key for key in keys if self.mirrored(key)]
            if not keys:
                return
        self.drop(keys)
        # The writer's name first: its own listener skips what this process has already dropped.
        client.publish(self._channel, "\n".join([self.listener_name, *(keys or [_EVERYTHING])]))

    def forget_process(self) -> None:
        """In a forked child: nothing kept, no listener (the parent's thread does not exist in the child)."""
        self._lock = threading.Lock()
        self._values.clear()
        self._generation += 1
        self._heard = 0.0
        self._listener = None

    def _start(self) -> None:
        with self._lock:
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="cache-mirror", daemon=True)
                self._listener.start()

    def _listen(self) -> None:
        delay = 0.1
        while True:
            try:
                self._follow()
            except (RedisError, OSError) as exc:
                logger.warning("cache: the mirror's listener lost Redis (%s): reading Redis until it is back", exc)
            finally:
                self._heard = 0.0
                self.drop(None)  # whatever was said while nobody listened is lost
            time.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _follow(self) -> None:
        pubsub = redis.Redis.from_url(self._url, socket_connect_timeout=settings.REDIS_TIMEOUT,
                                      socket_timeout=_FEED_SILENCE, client_name=self.listener_name).pubsub()
        try:
            pubsub.subscribe(self._channel)
            pinged = 0.0
            while True:
                if time.monotonic() - pinged >= _PING_SECONDS:
                    pubsub.ping()
                    pinged = time.monotonic()
                message = pubsub.get_message(timeout=_PING_SECONDS)
                if message is None:
                    continue
                if message["type"] == "message":
                    writer, *keys = message["data"].decode().split("\n")
                    if writer != self.listener_name:
                        self.drop(None if keys == [_EVERYTHING] else keys)
                elif message["type"] == "subscribe":
                    self.drop(None)  # changes made before the subscription were not heard
                self._heard = time.monotonic()
        finally:
            pubsub.close()


_mirrors: dict[tuple[str, tuple[str, ...]], Mirror] = {}
_mirrors_lock = threading.Lock()
_every_mirror: weakref.WeakSet[Mirror] = weakref.WeakSet()


def mirror_for(url: str, prefixes: tuple[str, ...]) -> Mirror:
    """This process's mirror of ``prefixes`` at the Redis ``url``."""
    with _mirrors_lock:
        mirror = _mirrors.get((url, prefixes))
        if mirror is None:
            mirror = _mirrors[(url, prefixes)] = Mirror(url, prefixes)
        return mirror


def _forget_mirrors_in_child() -> None:
    global _mirrors_lock
    _mirrors_lock = threading.Lock()
    for mirror in list(_every_mirror):
        mirror.forget_process()


os.register_at_fork(after_in_child=_forget_mirrors_in_child)


class _OneClientPerPool(RedisCacheClient):
    """Django's client builds a new ``redis.Redis`` around the connection pool for every operation, which costs
    about as much as the round trip itself; a ``redis.Redis`` holds no connection of its own (the pool does) and
    is thread-safe, so one per pool is kept. Reads and writes of the mirrored keys go through the mirror."""

    def __init__(self, servers: list[str], mirror: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(servers, **kwargs)
        self._clients: dict[int, Any] = {}
        self.mirror = mirror_for(servers[0], tuple(mirror)) if mirror else None

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client

    def _fetch(self, keys: list[str]) -> dict[str, bytes]:
        values = self.get_client().mget(keys)
        return {key: value for key, value in zip(keys, values, strict=True) if value is not None}

    def _read(self, keys: list[str]) -> dict[str, bytes]:
        """The stored values of ``keys`` (raw), from the mirror where it may answer, else one round trip."""
        mirror = self.mirror
        if mirror is None or not any(mirror.mirrored(key) for key in keys) or not mirror.live():
            return self._fetch(keys)
        found, generation = mirror.kept(keys)
        missing = [key for key in keys if key not in found]
        if missing:
            read = self._fetch(missing)
            mirror.keep(generation, read)
            found.update(read)
        return found

    def get(self, key: Any, default: Any) -> Any:
        value = self._read([key]).get(key)
        return default if value is None else self._serializer.loads(value)

    def get_many(self, keys: Iterable[Any]) -> dict[Any, Any]:
        keys = list(keys)
        return {key: self._serializer.loads(value) for key, value in self._read(keys).items()} if keys else {}

    def _changed(self, keys: list[str] | None) -> None:
        if self.mirror is not None:
            self.mirror.changed(self.get_client(write=True), keys)

    def _write(self, keys: list[str] | None, write: Callable[..., Any], *args: Any) -> Any:
        """Run Django's ``write(self, *args)`` of ``keys`` and tell the mirrors (even when it failed half way)."""
        try:
            return write(self, *args)
        finally:
            self._changed(keys)

    def add(self, key: Any, value: Any, timeout: Any) -> Any:
        return self._write([key], RedisCacheClient.add, key, value, timeout)

    def set(self, key: Any, value: Any, timeout: Any) -> Any:
        return self._write([key], RedisCacheClient.set, key, value, timeout)

    def set_many(self, data: dict[Any, Any], timeout: Any) -> Any:
        return self._write(list(data), RedisCacheClient.set_many, data, timeout)

    def delete(self, key: Any) -> Any:
        return self._write([key], RedisCacheClient.delete, key)

    def delete_many(self, keys: Any) -> Any:
        keys = list(keys)
        return self._write(keys, RedisCacheClient.delete_many, keys)

    def incr(self, key: Any, delta: Any) -> Any:
        return self._write([key], RedisCacheClient.incr, key, delta)

    def touch(self, key: Any, timeout: Any) -> Any:
        return self._write([key], RedisCacheClient.touch, key, timeout)

    def clear(self) -> Any:
        return self._write(None, RedisCacheClient.clear)


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
