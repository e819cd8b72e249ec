"""Server test fixtures: every test runs on SQLite, and on a fresh PostgreSQL
database whenever one is reachable (in CI it must be)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import psycopg
import pytest
from app_support import ADMIN
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app

PG_ADMIN = os.environ.get("TEST_POSTGRES_DSN", "host=127.0.0.1 port=5432 user=postgres dbname=postgres")
PG_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/{db}")


def postgres_available() -> bool:
    try:
        with psycopg.connect(PG_ADMIN, connect_timeout=3):
            return True
    except psycopg.Error:
        return False


@pytest.fixture(scope="session")
def _pg_ok() -> bool:
    ok = postgres_available()
    if not ok and os.environ.get("CI"):
        pytest.fail("PostgreSQL must be reachable in CI (start it first)")
    return ok


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path, _pg_ok: bool) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    if not _pg_ok:
        pytest.skip("PostgreSQL is not reachable")
    name = f"test_{secrets.token_hex(6)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield PG_URL.format(db=name)
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, secret_key="test-signing-key", admin_user=ADMIN[0],
                    admin_password=ADMIN[1], base_url="http://testserver", snapshot_every=25,
                    mail_interval_seconds=0)  # the mail tests run the delivery job themselves


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
