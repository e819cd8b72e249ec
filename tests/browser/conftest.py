"""Browser test fixtures: a real uvicorn server with fixed dice, and real Chromium.

The server runs in a subprocess on a free port with its own SQLite file, so the
test talks to it exactly as two players' browsers would.  Chromium is Debian's
(``/usr/bin/chromium``), driven through Playwright; the test is skipped when it
is missing, except in CI (env ``CI``), where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from live_server import free_port
from mail_support import Inbox, smtp_server

try:
    import playwright.sync_api  # noqa: F401
except ImportError:  # pragma: no cover - the test extra is not installed
    if os.environ.get("CI"):
        raise
    collect_ignore_glob = ["test_*.py"]

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(HERE) not in sys.path:  # for the helper modules next to this file (e2e_plan, e2e_pages)
    sys.path.insert(0, str(HERE))
ARTIFACTS = REPO / "test-artifacts"
ADMIN = ("admin", "pw")  # the test servers' admin credentials
ADMIN_PASSWORD = ADMIN[1]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    message = "Chromium is not installed (/usr/bin/chromium): the browser tests need it"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer /healthz in {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    """Keep each phase's report on the test item, so fixtures can tell a failed test."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def chromium() -> str:
    return chromium_path()


@pytest.fixture(scope="session")
def dice_secret() -> str:
    """A dice secret under which the planned first turn rolls as planned (see plan.py)."""
    from e2e_plan import find_secret

    return find_secret()


@contextmanager
def running_server(tmp: Path, dice_secret: str, smtp_url: str = "", **settings: str) -> Iterator[str]:
    """A uvicorn server in a subprocess on a free port, its own SQLite file in ``tmp``,
    every game rolling from ``dice_secret`` (empty: each game's own seed chains), sending its
    mail to ``smtp_url`` if given (``settings``: more of its environment); its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'g.db'}", "SECRET_KEY": "test",
           "ADMIN_PASSWORD": ADMIN_PASSWORD, "BASE_URL": url, "FIXED_DICE_SECRET": dice_secret,
           "SMTP_URL": smtp_url, "MAIL_INTERVAL_SECONDS": "0.5", **settings}
    log = tmp / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_healthy(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def mailbox() -> Iterator[tuple[str, Inbox]]:
    """Where the browser tests' server sends its mail (a real SMTP server, aiosmtpd): its
    URL and what it has been given."""
    with smtp_server() as server:
        yield server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, dice_secret: str, chromium: str,
           mailbox: tuple[str, Inbox]) -> Iterator[str]:
    """The base URL of a fresh server whose games all use ``dice_secret`` and whose mail
    goes to ``mailbox``."""
    with running_server(tmp_path_factory.mktemp("server"), dice_secret, mailbox[0]) as url:
        yield url


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
