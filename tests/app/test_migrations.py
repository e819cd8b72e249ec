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
