"""What the benchmarks run on: PostgreSQL and Redis as production has them, and Apache's ``ab`` as the load generator.

``services()`` uses DATABASE_URL (a PostgreSQL URL) and REDIS_URL when both are set; otherwise it starts a
throw-away PostgreSQL cluster (PostgreSQL's default durability: fsync and synchronous commits on, as in
production) and Redis server on free local ports, and removes them at the end. ``ab_path()`` installs Debian's
apache2-utils when ``ab`` is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def services() -> Iterator[None]:
    """DATABASE_URL and REDIS_URL from the environment, or a throw-away PostgreSQL and Redis (exported)."""
    if os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get("REDIS_URL"):
        yield
        return
    tmp = Path(tempfile.mkdtemp(prefix="rugby-bench-"))
    pg_port, redis_port = free_port(), free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(tmp, "postgres")
    run = lambda *cmd: subprocess.run([*as_postgres, *cmd], check=True, capture_output=True)  # noqa: E731
    redis = None
    try:
        run("initdb", "-D", str(tmp / "data"), "-U", "rugby", "--auth=trust", "-E", "UTF8")
        run("pg_ctl", "-D", str(tmp / "data"), "-l", str(tmp / "log"), "-w", "-o",
            f"-p {pg_port} -k {tmp} -c listen_addresses=127.0.0.1 -c max_connections=200", "start")
        run("createdb", "-h", "127.0.0.1", "-p", str(pg_port), "-U", "rugby", "rugby")
        redis = subprocess.Popen(["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                                  "--appendonly", "no"], stdout=subprocess.DEVNULL)
        time.sleep(0.5)
        os.environ["DATABASE_URL"] = f"postgres://rugby@127.0.0.1:{pg_port}/rugby"
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}/0"
        yield
    finally:
        if redis is not None:
            redis.terminate()
            redis.wait(timeout=10)
        with contextlib.suppress(subprocess.CalledProcessError):
            run("pg_ctl", "-D", str(tmp / "data"), "-m", "fast", "stop")
        shutil.rmtree(tmp, ignore_errors=True)


def ab_path() -> str:
    """The path of Apache's ``ab`` (Debian's apache2-utils), installed first if it is missing."""
    found = shutil.which("ab")
    if found:
        return found
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "apache2-utils"], check=False,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, capture_output=True)
    found = shutil.which("ab")
    if not found:  # a fresh machine's package lists may be empty
        subprocess.run([*sudo, "apt-get", "update", "-qq"], check=False, capture_output=True)
        subprocess.run([*sudo, "apt-get", "install", "-y", "-qq", "apache2-utils"], check=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, capture_output=True)
        found = shutil.which("ab")
    if not found:
        raise SystemExit("ab (apache2-utils) is needed and could not be installed")
    return found


def ab(url: str, *, clients: int, seconds: float, cookie: str | None = None, headers: tuple[str, ...] = (),
       ok_304: bool = False) -> dict:
    """Drive ``url`` with ``ab -k -c clients`` for ``seconds``: requests per second, completed and failed (non-2xx
    answers included, unless ``ok_304``: a conditional request's 304 is its success). ``ab`` is a C program: the
    load generator takes one core at most and never caps the server the way a pool of Python threads does."""
    # ab reads -t as whole seconds (atoi: "0.5" would be no limit at all, and 100 million requests).
    command = [ab_path(), "-k", "-c", str(clients), "-t", str(max(1, round(seconds))), "-n", "100000000", "-q", "-s",
               "30"]
    if cookie:
        command += ["-C", cookie]
    for header in headers:
        command += ["-H", header]
    try:
        done = subprocess.run([*command, url], capture_output=True, text=True, timeout=seconds + 90)
    except subprocess.TimeoutExpired:  # ab itself hung (seen once on a saturated machine): a phase lost, said so
        print(f"ab hung on {url}: phase counted as 0 req/s with an error", file=sys.stderr)
        return {"rps": 0.0, "complete": 0, "failed": 1}
    out = done.stdout

    def number(pattern: str) -> float:
        found = re.search(pattern, out)
        return float(found.group(1)) if found else 0.0

    if done.returncode != 0 and "Requests per second" not in out:
        raise SystemExit(f"ab failed on {url}: {done.stderr.strip() or out[-500:]}")
    # A page whose length varies (a CSRF token) counts as a "Length" failure in ab: not an error.
    errors = sum(int(number(rf"{kind}:\s+(\d+)")) for kind in ("Connect", "Receive", "Exceptions"))
    return {"rps": number(r"Requests per second:\s+([\d.]+)"), "complete": int(number(r"Complete requests:\s+(\d+)")),
            "failed": errors + (0 if ok_304 else int(number(r"Non-2xx responses:\s+(\d+)")))}


def load_average() -> str:
    """The machine's load (1, 5 and 15 minutes) and its cores: other people's work weighs on every figure."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"
