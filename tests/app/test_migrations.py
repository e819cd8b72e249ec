"""The migrations are the schema: upgrading an empty database gives exactly the
tables the models describe (autogenerate finds nothing to add)."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text

from app.db import Database, migrate
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


def _migrate_in_a_process(url: str, start: Any) -> None:
    start.wait()
    migrate(url)


def test_workers_starting_together_migrate_once(database_url: str) -> None:
    """Several app processes start at once (``uvicorn --workers N``); the migrations take
    turns, under an advisory lock on PostgreSQL and a lock file on SQLite."""
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_migrate_in_a_process, args=(database_url, start)) for _ in range(8)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 8
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
    finally:
        engine.dispose()


def test_the_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    """It holds the dice secrets of unfinished games."""
    url = f"sqlite:///{tmp_path / 'data' / 'games.db'}"
    migrate(url)
    db = Database(url)
    with db.sessions() as s:
        s.execute(text("CREATE TABLE t (x INTEGER)"))
        s.execute(text("INSERT INTO t VALUES (1)"))
        s.commit()
        files = [p for p in (tmp_path / "data").iterdir() if p.name.startswith("games.db")]
        assert {p.name for p in files} >= {"games.db", "games.db-wal", "games.db-shm"}
        for p in files:
            assert p.stat().st_mode & 0o077 == 0, (p.name, oct(p.stat().st_mode))
    db.engine.dispose()
    assert (tmp_path / "data").stat().st_mode & 0o077 == 0


def test_an_older_world_readable_sqlite_file_is_made_private(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch(mode=0o644)
    path.chmod(0o644)
    Database(f"sqlite:///{path}").engine.dispose()
    assert path.stat().st_mode & 0o777 == 0o600
