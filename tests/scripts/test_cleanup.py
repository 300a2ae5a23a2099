"""The commands leave the machine as they found it: every process they start stops when they end.

``scripts/test`` and ``scripts/run`` are started here as a newcomer would, each with a temporary folder of its own
(TMPDIR), free ports, and a mark in its environment that every process it starts inherits; then run to the end,
stopped as Ctrl+C does (SIGINT to the terminal's process group, here the inner script's) or as ``kill`` does
(SIGTERM to the script alone), or made to fail. Afterwards nothing of theirs may be left: no process carrying the
mark, naming the folder on its command line or left in the script's session, nothing listening on their ports, and
nothing in the folder (a failed test run keeps its logs there, but these runs pass or are interrupted).

This runs inside the suite's own ``scripts/test``: the inner runs use their own ports and folders, and stop only
what they started themselves (found by their own run id), so the outer run's servers live on.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARK = "RUGBY_CLEANUP_MARK"
# What the inner runs must not inherit from the outer run: they start or choose their own.
OUTER_ONLY = {"DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "VAR_DIR", "PGTEST_PORT",
              "REDISTEST_PORT", "HOST", "PORT", "WORKERS", "PYTEST_ADDOPTS", "PYTEST_CURRENT_TEST"}
HELD = ["tests/test_smoke.py", "tests/scripts/held_until_interrupted.py"]

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not (shutil.which("initdb") or list(Path("/usr/lib/postgresql").glob("*/bin/initdb"))),
                       reason="needs PostgreSQL's server (scripts/test uses it)"),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server (scripts/test installs it)"),
    pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="needs Chromium (scripts/test installs it)"),
]


_given: set[int] = set()


def free_port() -> int:
    """A free port, never the same twice: the runs started at once must not get the same."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _given:
            _given.add(port)
            return port


def listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, parent, group, session, ...); [] if none."""
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return []


def running(pid: int | str) -> bool:
    """The process exists and is not a zombie (an orphan is reaped by init, which may take its time)."""
    return _stat(pid)[:1] not in ([], ["Z"])


class Inner:
    """One run of a command, in a session of its own, with its own folder, ports and mark."""

    def __init__(self, tmp_path: Path):
        # Short: the PostgreSQL socket and Chromium's live in the run's folder, and Unix socket paths are short.
        self.root = Path(tempfile.mkdtemp(prefix="rt"))
        self.root.chmod(0o711)  # as /tmp is: the postgres user reaches the cluster inside (when run as root)
        self.mark = uuid.uuid4().hex
        self.log = tmp_path / "output.txt"
        self.ports: list[int] = []
        self.proc: subprocess.Popen | None = None
        self.session: int | None = None
        self.held: Path | None = None  # where the held test says it holds (scripts/test)
        self.port: int | None = None  # the site's (scripts/run)
        self.var: Path | None = None  # its var/ folder (scripts/run)
        self.taken: socket.socket | None = None  # a socket on the site's port, keeping it taken

    def start(self, *args: str, **env: str) -> subprocess.Popen:
        environ = {k: v for k, v in os.environ.items() if k not in OUTER_ONLY and not k.startswith("PYTEST_XDIST")}
        environ.update(TMPDIR=str(self.root), **{MARK: self.mark}, **env)
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(["bash", *args], cwd=ROOT, env=environ, stdin=subprocess.DEVNULL,
                                         stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        self.session = self.proc.pid
        return self.proc

    def test_command(self, *args: str, **env: str) -> subprocess.Popen:
        self.ports += [free_port(), free_port()]
        return self.start("scripts/test", *args, PGTEST_PORT=str(self.ports[-2]), REDISTEST_PORT=str(self.ports[-1]),
                          **env)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running after {timeout} s:\n{self.output()}")

    def wait_for(self, what: str, condition, timeout: float = 240):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = condition()
            if value:
                return value
            assert self.proc.poll() is None, f"ended ({self.proc.returncode}) before {what}:\n{self.output()}"
            time.sleep(0.2)
        pytest.fail(f"no {what} after {timeout} s:\n{self.output()}")

    def processes(self) -> dict[int, str]:
        """pid -> command line of every process of this run: by the mark, the folder or the session."""
        found = {}
        mark, root = f"{MARK}={self.mark}".encode(), f"{self.root}/"
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                environ = (entry / "environ").read_bytes().split(b"\0")
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
            except OSError:
                continue
            if not cmdline:  # a zombie (or a kernel thread)
                continue
            if mark in environ or root in cmdline or _stat(entry.name)[3:4] == [str(self.session)]:
                found[int(entry.name)] = cmdline
        return found

    def assert_nothing_left(self) -> None:
        left = self.processes()
        busy = [port for port in self.ports if listening(port)]
        files = sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*"))
        self.kill(left)
        assert not left, f"left running: {left}\n{self.output()}"
        assert not busy, f"still listening: ports {busy}\n{self.output()}"
        assert not files, f"left in its folder {self.root}: {files}\n{self.output()}"

    @staticmethod
    def kill(pids) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        """Whatever happened above: stop the run (it stops its own), then anything of it still there."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.kill(self.processes())
        shutil.rmtree(self.root, ignore_errors=True)
        if self.taken:
            self.taken.close()


def interrupt(proc: subprocess.Popen, how: str) -> int:
    """As Ctrl+C does (SIGINT to the terminal's foreground process group) or as `kill` does (SIGTERM to the pid)."""
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
        return 130
    proc.send_signal(signal.SIGTERM)
    return 143


def serves(port: int) -> bool:
    with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
        return response.status == 200
    return False


def start(key: str, inner: Inner, tmp_path: Path) -> None:
    command, how = key.split(":")
    if command == "test":
        if how == "end":
            inner.test_command("tests/test_smoke.py")
        else:
            inner.held = tmp_path / "held.json"
            inner.test_command(*HELD, RUGBY_HELD_FILE=str(inner.held))
        return
    inner.port = free_port()
    if how == "port-taken":
        inner.taken = socket.socket()
        inner.taken.bind(("127.0.0.1", inner.port))
        inner.taken.listen()
    else:
        inner.ports.append(inner.port)
    inner.var = tmp_path / "var"
    inner.start("scripts/run", VAR_DIR=str(inner.var), PORT=str(inner.port), WORKERS="1")


class Runs(dict):
    """The module's runs by key; one not started yet starts when a test first asks for it."""

    def __init__(self, tmp_path_factory):
        super().__init__()
        self.tmp_path_factory = tmp_path_factory

    def start(self, key: str) -> Inner:
        tmp_path = self.tmp_path_factory.mktemp(key.replace(":", "-"))
        self[key] = Inner(tmp_path)
        start(key, self[key], tmp_path)
        return self[key]

    def __missing__(self, key: str) -> Inner:
        return self.start(key)


@pytest.fixture(scope="module")
def runs(request, tmp_path_factory):
    """The runs that the selected tests below check. Run serially, they all start at once: quicker than one after
    the other, and it shows that runs at the same time do not clash. In a parallel run (pytest -n) each worker
    collects every test but runs only those it is given, so a run starts when a test first asks for it (the other
    workers' runs go at the same time); starting every selected run would start each of them again on every worker
    that takes one of these tests (pytest-xdist 3.8's xdist_group, which could keep them on one worker, has no
    effect under pytest 9). Each test then finishes and checks its own."""
    started = Runs(tmp_path_factory)
    try:
        if not os.environ.get("PYTEST_XDIST_WORKER"):
            keys = {item.callspec.params["run"] for item in request.session.items
                    if item.module is request.module and hasattr(item, "callspec") and "run" in item.callspec.params}
            for key in sorted(keys):
                started.start(key)
        yield started
    finally:
        for inner in started.values():
            inner.close()


@pytest.mark.parametrize("run", ["test:end"])
def test_test_command_run_to_the_end_leaves_nothing(runs, run):
    inner = runs[run]
    assert inner.wait(300) == 0, inner.output()
    assert "1 passed" in inner.output()
    inner.assert_nothing_left()


@pytest.mark.parametrize("run", ["test:ctrl-c", "test:kill"])
def test_test_command_interrupted_mid_test_leaves_nothing(runs, run):
    """Interrupted while a test holds a Celery worker and Chromium (outside pytest's process group) and the run's
    PostgreSQL and Redis serve: all of them stop, and the folder goes."""
    inner = runs[run]
    pids = inner.wait_for("test holding a worker and a browser",
                          lambda: inner.held.exists() and json.loads(inner.held.read_text()))
    started = inner.processes()
    assert {pids["pytest"], pids["worker"]} <= started.keys()
    for name in ("postgres -D", "chromium", "celery"):
        assert any(name in cmd for cmd in started.values()), (name, started)
    assert all(listening(port) for port in inner.ports)
    clusters = [Path(cmd.split(" -D ")[1].split()[0]) for cmd in started.values() if "postgres -D " in cmd]

    status = interrupt(inner.proc, run.split(":")[1])
    assert inner.wait(180) == status, inner.output()
    assert "stopping what this run started" in inner.output()
    inner.assert_nothing_left()
    assert clusters and not any(c.exists() for c in clusters), clusters


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=20) as response:
        return response.read().decode()


def demo_shell(inner: Inner, code: str) -> str:
    """Python run in a process of its own against the demo's var/ folder, as its Celery worker runs."""
    environ = {k: v for k, v in os.environ.items() if k not in OUTER_ONLY and not k.startswith("PYTEST")}
    environ.update(VAR_DIR=str(inner.var), TMPDIR=str(inner.root), **{MARK: inner.mark})
    done = subprocess.run([str(ROOT / ".venv/bin/python"), "manage.py", "shell", "-c", code], cwd=ROOT, env=environ,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("run", ["demo:ctrl-c", "demo:kill"])
def test_demo_command_stopped_leaves_nothing(runs, run):
    inner = runs[run]
    inner.wait_for("site", lambda: serves(inner.port))
    inner.wait_for("Celery worker", lambda: any("celery" in cmd for cmd in inner.processes().values()))
    if run == "demo:ctrl-c":
        # A result written by another process (the worker) refreshes the page the site has cached: the demo's
        # cache is shared through var/, not each process's memory.
        found = demo_shell(inner, "from league.models import Fixture; f = Fixture.objects.filter("
                                  "tournament__slug='demo-rwc2023', result__isnull=True, home__isnull=False, "
                                  "away__isnull=False).order_by('round_number', 'id').first(); "
                                  "print(f.pk, f.round_number)")
        fixture_id, round_number = found.splitlines()[-1].split()
        url = f"http://127.0.0.1:{inner.port}/t/demo-rwc2023/fixtures/?round={round_number}"
        assert 'class="score">71<' not in fetch(url)  # and now cached
        demo_shell(inner, "from league.models import Fixture; from league.services import result_record; "
                          f"result_record(fixture=Fixture.objects.get(pk={fixture_id}), home_score=71, away_score=3, "
                          "home_tries=11, away_tries=0)")
        assert 'class="score">71<' in fetch(url)

    status = interrupt(inner.proc, run.split(":")[1])
    assert inner.wait(120) == status, inner.output()
    inner.assert_nothing_left()


@pytest.mark.parametrize("run", ["demo:port-taken"])
def test_demo_command_whose_site_cannot_start_leaves_nothing(runs, run):
    inner = runs[run]
    assert inner.wait(240) == 1, inner.output()
    inner.taken.close()
    assert "That port is already in use" in inner.output()
    assert "the site stopped by itself" in inner.output()
    inner.assert_nothing_left()


def lib_script(tmp_path: Path, body: str, **env: str) -> subprocess.CompletedProcess:
    """A script BODY on scripts/lib.sh's run machinery; its folder goes in tmp_path/tmp, and BODY writes the pid
    of the process it tries it on to tmp_path/pid (PID_FILE)."""
    environ = {k: v for k, v in os.environ.items() if k not in OUTER_ONLY}
    (tmp_path / "tmp").mkdir()
    environ.update(TMPDIR=str(tmp_path / "tmp"), PID_FILE=str(tmp_path / "pid"), **env)
    return subprocess.run(["bash", "-c", f"set -euo pipefail; source scripts/lib.sh; run_begin check; {body}"],
                          cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)


def test_a_child_that_ignores_sigterm_is_killed_after_the_timeout_and_said_so(tmp_path):
    done = lib_script(tmp_path, """start_child "a stubborn child" stubborn.log bash -c 'trap "" TERM; sleep 300'
                                   echo "$CHILD_PID" > "$PID_FILE"; sleep 1  # until it ignores SIGTERM""",
                      STOP_TIMEOUT="1")
    assert done.returncode == 0, done.stderr
    assert "a stubborn child (pid" in done.stderr and "did not stop: killing it" in done.stderr
    assert not running((tmp_path / "pid").read_text().strip())
    assert not list((tmp_path / "tmp").iterdir())


def test_a_child_that_cannot_be_stopped_is_reported_and_fails_the_run(tmp_path):
    # As if no signal could reach it (another user's process, or one stuck in the kernel); HURRY=1 as after a
    # second Ctrl+C, so that the waits are short.
    done = lib_script(tmp_path, """start_child "an unstoppable child" unstoppable.log sleep 300
                                   echo "$CHILD_PID" > "$PID_FILE"
                                   kill() { :; }; HURRY=1""")
    pid = int((tmp_path / "pid").read_text())
    try:
        assert done.returncode == 1, done.stderr
        assert "could not stop everything this run started" in done.stderr
        assert "an unstoppable child: processes" in done.stderr
        assert "its files are kept for a look" in done.stderr
    finally:
        os.kill(pid, signal.SIGKILL)


def test_a_process_that_left_its_group_is_found_by_the_run_id_and_stopped(tmp_path):
    # As a Celery worker that a test started in a session of its own, when pytest itself had to be killed.
    done = lib_script(tmp_path, """start_child parent parent.log bash -c 'setsid sleep 300 & echo $! >"$PID_FILE"; wait'
                                   sleep 1""")
    assert done.returncode == 0, done.stderr
    assert "still running after the run's own processes stopped" in done.stderr and "sleep 300" in done.stderr
    assert not running((tmp_path / "pid").read_text().strip())
    assert not list((tmp_path / "tmp").iterdir())
