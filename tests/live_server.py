"""Run the real server as a separate OS process, and make throw-away PostgreSQL databases.

Used by the crash-recovery test (``tests/app/test_crash_recovery.py``) and the
benchmarks in ``benchmarks/``::

    with fresh_postgres_database() as url, LiveServer(server_env(url)) as server:
        httpx.get(f"{server.url}/healthz")
        server.kill()      # SIGKILL, as in a crash
        server.start()     # again, on the same database

The server is ``python -m uvicorn app.main:app`` (or any other ASGI app) started
in the repository root in a session of its own, so that a ``--workers`` server is
killed whole: the supervisor and every worker.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any

import httpx
import psycopg

from engine.core.choices import expand

ROOT = Path(__file__).resolve().parents[1]
PG_ADMIN_DSN = os.environ.get("TEST_POSTGRES_DSN", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PG_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/{db}")
ADMIN_USER = "admin"


# Ports for the test servers: below the kernel's ephemeral range (32768 and up on Linux),
# which outgoing connections take theirs from, and a block of its own for each of
# pytest-xdist's workers.  A port asked of the kernel (bind to 0) is free only until the
# server binds it: another worker, or any client's connection, could be handed it meanwhile.
PORTS_FROM, PORTS_EACH = 20_000, 1_000
_next_port = itertools.count()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now, from this process's block."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # (gw0, gw1, ...; none outside xdist)
    block = int(worker[2:]) % 12 if worker[2:].isdigit() else 0  # (12 blocks end below 32,768)
    for _ in range(PORTS_EACH):
        port = PORTS_FROM + block * PORTS_EACH + next(_next_port) % PORTS_EACH
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:  # in use, or still closing
                continue
        return port
    raise RuntimeError(f"no free port in {PORTS_FROM + block * PORTS_EACH}..+{PORTS_EACH}")


def server_env(database_url: str, admin_password: str = "admin-live-password", **extra: str) -> dict[str, str]:
    """The settings a test or benchmark server runs with (rate limits off)."""
    return {"DATABASE_URL": database_url, "SECRET_KEY": secrets.token_urlsafe(32),
            "ADMIN_USER": ADMIN_USER, "ADMIN_PASSWORD": admin_password,
            "RATE_LIMIT_ENABLED": "false", **extra}


class ServerDied(RuntimeError):
    """The server process exited (or never answered) while it was expected to serve."""


class LiveServer:
    """One uvicorn server process on a free port of 127.0.0.1.

    ``env`` is added to this process's environment; ``BASE_URL`` defaults to the
    server's own address; ``extra_args`` go to uvicorn as they are.  The port stays
    the same across restarts."""

    def __init__(self, env: Mapping[str, str], app: str = "app.main:app", workers: int | None = None,
                 app_dir: Path | str | None = None, port: int | None = None, ready_timeout: float = 30.0,
                 extra_args: list[str] | None = None, access_log: bool = False) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {"BASE_URL": self.url, **env}
        self.app = app
        self.workers = workers
        self.app_dir = app_dir
        self.ready_timeout = ready_timeout
        self.access_log = access_log  # uvicorn's access log, written (with stdout) to the same log file
        self.extra_args = list(extra_args or [])
        self.proc: subprocess.Popen[bytes] | None = None
        self._stderr_path = Path(tempfile.mkstemp(prefix="live-server-", suffix=".log")[1])

    # --- running -----------------------------------------------------------------
    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", "uvicorn", self.app, "--host", "127.0.0.1", "--port", str(self.port)]
        if not self.access_log:
            cmd.append("--no-access-log")
        if self.workers is not None:
            cmd += ["--workers", str(self.workers)]
        if self.app_dir is not None:
            cmd += ["--app-dir", str(self.app_dir)]
        return cmd + self.extra_args

    def start(self) -> LiveServer:
        """Start the process and wait until ``GET /healthz`` answers 200."""
        if self.running:
            raise RuntimeError("the server is already running")
        with self._stderr_path.open("ab") as err:
            self.proc = subprocess.Popen(self.command(), cwd=ROOT, env={**os.environ, **self.env},
                                         stdin=subprocess.DEVNULL, stderr=err,
                                         stdout=err if self.access_log else subprocess.DEVNULL,
                                         start_new_session=True)
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Poll ``/healthz`` until it answers 200; raise ``ServerDied`` (with the server's
        stderr) if the process exits or the timeout passes first."""
        deadline = time.monotonic() + self.ready_timeout
        last = "no answer yet"
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                code = None if self.proc is None else self.proc.returncode
                raise ServerDied(f"the server exited (code {code}) before it was ready:\n{self.stderr_tail()}")
            try:
                r = httpx.get(f"{self.url}/healthz", timeout=2.0)
                if r.status_code == 200:
                    return
                last = f"healthz answered {r.status_code}: {r.text[:200]}"
            except httpx.HTTPError as exc:
                last = f"{type(exc).__name__}: {exc}"
            time.sleep(0.1)
        self.kill()
        raise ServerDied(f"the server did not become ready within {self.ready_timeout} s ({last}):\n"
                         f"{self.stderr_tail()}")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM and wait; SIGKILL the whole process group if it lingers."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout)
        self.kill()

    def kill(self) -> None:
        """SIGKILL the server's process group (supervisor and workers), as in a crash."""
        if self.proc is None:
            return
        with suppress(ProcessLookupError, PermissionError):  # already gone
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        # give the kernel a moment to reap the workers so that the port is free again
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and _group_alive(self.proc.pid):
            time.sleep(0.05)

    def stderr_text(self) -> str:
        """Everything the server has written to stderr (all its runs so far)."""
        try:
            return self._stderr_path.read_text(errors="replace")
        except OSError:
            return ""

    def stderr_tail(self, chars: int = 6000) -> str:
        """The end of the server's stderr."""
        return self.stderr_text()[-chars:]

    # --- context manager ---------------------------------------------------------
    def __enter__(self) -> LiveServer:
        return self.start() if not self.running else self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
        self._stderr_path.unlink(missing_ok=True)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# --- PostgreSQL -----------------------------------------------------------------------
def create_postgres_database(prefix: str = "live") -> tuple[str, str]:
    """Create an empty database; returns its name and its SQLAlchemy URL."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return name, PG_URL.format(db=name)


def drop_postgres_database(name: str) -> None:
    """Drop the database, disconnecting whoever is still connected to it."""
    with psycopg.connect(PG_ADMIN_DSN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_postgres_database(prefix: str = "live") -> Iterator[str]:
    """A new, empty PostgreSQL database for the ``with`` block; its URL."""
    name, url = create_postgres_database(prefix)
    try:
        yield url
    finally:
        drop_postgres_database(name)


# --- playing ----------------------------------------------------------------------------
def invitation_token(invite_url: str) -> str:
    """The opponent's invitation secret: whatever follows ``token=`` (``?token=`` or ``#token=``)."""
    return invite_url.split("token=", 1)[1]


def two_player_game(http: Any) -> tuple[str, str, str]:
    """A new game over the API on an httpx client: the US creates it (Alice), the IJ joins
    (Bob); (game id, US secret, IJ secret)."""
    created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    joined = http.post(f"/api/games/{created['game_id']}/join",
                       json={"token": invitation_token(created["invite_url"]), "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return created["game_id"], created["token"], joined.json()["token"]


def set_up_and_hand_over(http: Any, game_id: str, token: str, side: str = "US") -> None:
    """``side`` places every unit it sets up, then hands over (the set-up ends by the
    player's word): the decision, and a "your move", pass to the other side."""
    headers = {"Authorization": f"Bearer {token}"}
    while True:
        legal = http.get(f"/api/games/{game_id}/legal", headers=headers).json()
        if legal["prompt"]["side"] != side:
            return
        cmd = next((c for c in expand(legal["choices"]) if c["type"] == "place"), {"type": "end_phase", "data": {}})
        r = http.post(f"/api/games/{game_id}/commands", headers=headers,
                      json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text


def place_set_up(http: Any, game_id: str, token: str, n: int) -> list[int]:
    """The seat ``token`` places ``n`` units of its set-up; the moment before each placement."""
    auth, moments = {"Authorization": f"Bearer {token}"}, []
    for _ in range(n):
        legal = http.get(f"/api/games/{game_id}/legal", headers=auth).json()
        place = next(c for c in expand(legal["choices"]) if c["type"] == "place")
        moments.append(legal["seq"])
        answer = http.post(f"/api/games/{game_id}/commands", headers=auth, json={**place, "expected_seq": legal["seq"]})
        assert answer.status_code == 200, answer.text
    return moments


def simple_pick(commands: list[dict[str, Any]]) -> dict[str, Any]:
    """A deterministic legal command: the first placement, else end the phase, else the first."""
    for kind in ("place", "end_phase"):
        for c in commands:
            if c["type"] == kind:
                return c
    return commands[0]


def map_parts(html: str) -> dict[str, str]:
    """A board's map layers' parts in a page or in an answer, by id, each as a page
    holds it (what a browser's htmx does with an answer: ``page_parts |= map_parts(answer)``),
    then its kept cards (``data-kept``), each as its digest (which stands for what it shows)."""
    parts: dict[str, str] = {}
    m = re.search(r'<svg [^>]*id="(?:map|pb)-layers"[^>]*>(.*?)</svg>', html, re.S) or re.search(
        r'<svg xmlns="http://www.w3.org/2000/svg" hidden>(.*?)</svg>', html, re.S)
    if m is not None:
        body = re.sub(r"^<title>.*?</title>(<defs>.*?</defs>)?", "",
                      m.group(1).replace('<g hx-swap-oob="true" ', "<g "))
        parts = {re.match(r'<g id="([^"]+)"', c).group(1): c for c in re.split(r'(?=<g id="layer-)', body) if c}
    for card in re.finditer(r'<div id="([^"]+)" class="[^"]*" data-kept data-d="([0-9a-f]+)"', html):
        parts[card.group(1)] = f'data-d="{card.group(2)}"'
    return parts


def shown_digests(parts: dict[str, str]) -> str:
    """The ``parts`` a page sends with each request for the board's changes (static/board.js)."""
    return ".".join(re.search(r'data-d="([0-9a-f]+)"', c).group(1) for c in parts.values())
