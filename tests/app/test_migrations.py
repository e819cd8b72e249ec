"""The migrations are the schema: upgrading an empty database gives exactly the
tables the models describe (autogenerate finds nothing to add)."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from app.db import migrate
from app.models import Base


def test_upgrade_head_matches_the_models(database_url: str) -> None:
    migrate(database_url)
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert diff == []
    assert {"games", "seats", "events", "snapshots", "alembic_version"} <= tables


def test_healthz_reports_the_database(client) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}


def test_workers_starting_together_migrate_once(database_url: str) -> None:
    """Several app processes may start at once on PostgreSQL; the migrations take turns
    under an advisory lock instead of colliding.  (SQLite serves one process: not tested.)"""
    import threading

    import pytest

    if not database_url.startswith("postgresql"):
        pytest.skip("one process owns a SQLite file")

    errors: list[BaseException] = []

    def start() -> None:
        try:
            migrate(database_url)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        engine.dispose()
