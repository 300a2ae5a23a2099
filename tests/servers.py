"""Throw-away Redis and PostgreSQL servers for the outage tests, started by the test itself.

The outage tests stop, hang (SIGSTOP) and restart their servers: they use servers of their own on free ports,
never the ones scripts/test starts for the rest of the suite. Each helper is a context manager that stops its
server whatever happens.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(check, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up waiting for {check}")
        time.sleep(0.1)


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class RedisServer:
    port: int
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for(lambda: _port_open(self.port))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def hang(self) -> None:
        """SIGSTOP: the port still accepts connections (the kernel does), but nothing answers."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    if not shutil.which("redis-server"):
        import pytest

        pytest.skip("redis-server is not installed (scripts/test installs it)")
    server = RedisServer(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class PostgresServer:
    port: int
    data: Path
    user: str | None

    @property
    def url(self) -> str:
        return f"postgres://rugby@127.0.0.1:{self.port}/rugby"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def ctl(self, action: str, *extra: str) -> None:
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data / "data"), "-w", "-t", "60", *extra, action)

    def restart(self) -> None:
        self.ctl("restart", "-m", "fast", "-l", str(self.data / "postgres.log"), "-o", self._options())

    def _options(self) -> str:
        return (f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off")


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    if not (PG_BIN / "initdb").exists():
        import pytest

        pytest.skip("PostgreSQL 15 is not installed (scripts/test installs it)")
    user = "postgres" if os.geteuid() == 0 else None  # PostgreSQL refuses to run as root
    folder = Path(tempfile.mkdtemp(prefix="rugby-outage-pg.", dir="/tmp"))
    folder.chmod(0o777)
    if user:
        shutil.chown(folder, user)
    server = PostgresServer(free_port(), folder, user)
    try:
        server._run(str(PG_BIN / "initdb"), "-D", str(folder / "data"), "-U", "rugby", "--auth=trust", "-E", "UTF8")
        # -l: the server's output to a file (it would otherwise hold this process's pipes open).
        server.ctl("start", "-l", str(folder / "postgres.log"), "-o", server._options())
        server._run(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(server.port), "-U", "rugby", "rugby")
        yield server
    finally:
        with contextlib.suppress(Exception):
            server.ctl("stop", "-m", "immediate")
        shutil.rmtree(folder, ignore_errors=True)
