"""Server test fixtures: every test runs on SQLite, and on a fresh PostgreSQL
database whenever one is reachable (in CI it must be)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from app_support import ADMIN
from fastapi.testclient import TestClient
from live_server import PG_ADMIN_DSN, fresh_postgres_database

from app.config import Settings
from app.main import create_app

DATABASES = ["sqlite", "postgresql"]  # every server test runs on both


def postgres_available() -> bool:
    try:
        with psycopg.connect(PG_ADMIN_DSN, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


@pytest.fixture(scope="session")
def _pg_ok() -> bool:
    ok = postgres_available()
    if not ok and os.environ.get("CI"):
        pytest.fail("PostgreSQL must be reachable in CI (start it first)")
    return ok


@contextmanager
def fresh_database(kind: str, folder: Path, pg_ok: bool) -> Iterator[str]:
    """The URL of a new, empty database of ``kind``: a SQLite file in ``folder``, or a
    PostgreSQL database dropped afterwards (the test is skipped where none answers)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'games.db'}"
        return
    if not pg_ok:
        pytest.skip("PostgreSQL is not reachable")
    with fresh_postgres_database("test") as url:
        yield url


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path, _pg_ok: bool) -> Iterator[str]:
    with fresh_database(request.param, tmp_path, _pg_ok) as url:
        yield url


@pytest.fixture(scope="module", params=DATABASES)
def module_database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
                        _pg_ok: bool) -> Iterator[str]:
    """A database shared by a module's tests (a long fuzz that builds on one game)."""
    with fresh_database(request.param, tmp_path_factory.mktemp("db"), _pg_ok) as url:
        yield url


def settings_for(database_url: str) -> Settings:
    return Settings(database_url=database_url, secret_key="test-signing-key", admin_user=ADMIN[0],
                    admin_password=ADMIN[1], base_url="http://testserver", snapshot_every=25,
                    mail_interval_seconds=0)  # the mail tests run the delivery job themselves


@pytest.fixture
def settings(database_url: str) -> Settings:
    return settings_for(database_url)


@pytest.fixture(scope="module")
def module_settings(module_database_url: str) -> Settings:
    return settings_for(module_database_url)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(settings)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def game(client: TestClient) -> dict[str, str]:
    """A new First Blood game: US created it, IJ joined; their tokens."""
    r = client.post("/api/games", json={"side": "US", "name": "Alice"})
    assert r.status_code == 201, r.text
    body = r.json()
    ij_token = body["invite_url"].split("token=")[1]
    r2 = client.post(f"/api/games/{body['game_id']}/join", json={"token": ij_token, "name": "Bob"})
    assert r2.status_code == 200, r2.text
    assert r2.json()["token"] != ij_token  # the invitation is used up
    client.cookies.clear()
    return {"id": body["game_id"], "US": body["token"], "IJ": r2.json()["token"]}
