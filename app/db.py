"""Database engine, sessions, and migrations applied at start."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from filelock import FileLock
from sqlalchemy import Engine, Executable, Row, create_engine, event, exc, make_url, text
from sqlalchemy.orm import Session, sessionmaker

from app.config import sqlite_path

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
# A pooled PostgreSQL connection idle this long is pinged before it is handed out (a
# restarted or failed-over database has closed it); one used since is not: a ping on
# every checkout is a round trip more for every request, a third of a read's time.
PING_IDLE_SECONDS = 5.0


def make_engine(url: str, pool_size: int = 16) -> Engine:
    """One pool of exactly ``pool_size`` connections (no overflow): the server admits
    that many requests at a time, each holding at most one connection, so no request
    ever waits for a connection (README, "Sizing")."""
    if url.startswith("sqlite"):
        private_sqlite_file(url)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                               pool_size=pool_size, max_overflow=0)
        sqlite_pragmas(engine, busy_ms=30_000)
        return engine
    engine = create_engine(url, pool_size=pool_size, max_overflow=0)
    ping_idle_connections(engine)
    return engine


def sqlite_pragmas(engine: Engine, busy_ms: int) -> None:
    """Every SQLite connection of ``engine`` as the server's: foreign keys checked, the log
    written ahead (WAL: readers never wait for the writer), a lock waited for ``busy_ms``."""

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record) -> None:  # noqa: ANN001
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={int(busy_ms)}")
        cur.close()


def ping_idle_connections(engine: Engine, idle: float = PING_IDLE_SECONDS) -> None:
    """SQLAlchemy's "pessimistic" disconnect handling, for idle connections only: a
    checkout that finds its connection dead raises ``DisconnectionError``, and the pool
    replaces the connection and tries again.  A connection broken while in steady use
    fails its one request, and SQLAlchemy then renews every older connection of the pool."""

    @event.listens_for(engine, "checkin")
    def _used(_dbapi_conn, record) -> None:  # noqa: ANN001
        record.info["returned"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_conn, record, _proxy) -> None:  # noqa: ANN001
        returned = record.info.get("returned")
        if returned is None or time.monotonic() - returned < idle:
            return  # new (it just connected) or used a moment ago
        try:
            engine.dialect.do_ping(dbapi_conn)
        except Exception as err:  # noqa: BLE001 - whatever the driver raises for a dead connection
            raise exc.DisconnectionError(f"a pooled connection idle for {idle:.0f} s or more is gone") from err


def conninfo(database_url: str) -> str:
    """libpq's connection string for a SQLAlchemy URL (``postgresql+psycopg://...``), for
    the connections psycopg makes itself (the live updates' LISTEN, the event loop's writes)."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


def private_sqlite_file(url: str) -> None:
    """The SQLite file holds unfinished games' dice secrets: create it readable by
    this user only (SQLite gives its -wal and -shm files the same mode), and take
    group and other access away from an older file."""
    path = sqlite_path(url)
    if path is None:
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if p.exists() and p.stat().st_mode & 0o077:
            p.chmod(0o600)


def alembic_config(url: str) -> Config:
    cfg = Config(str(MIGRATIONS / "alembic.ini"))
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


MIGRATION_LOCK = 7_412_903  # a PostgreSQL advisory lock id: one migrating worker at a time


def migrate(url: str) -> None:
    """``alembic upgrade head``: the schema comes only from the migrations.  Workers
    starting together take turns: under an advisory lock on PostgreSQL, under a lock
    file beside the database on SQLite."""
    cfg = alembic_config(url)
    if not url.startswith("postgresql"):
        path = sqlite_path(url)
        if path is None:
            command.upgrade(cfg, "head")
            return
        private_sqlite_file(url)
        with FileLock(f"{path}.migrate.lock", mode=0o600):
            command.upgrade(cfg, "head")
        return
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            try:
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, "head")
                conn.commit()
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


class Database:
    def __init__(self, url: str, pool_size: int = 16) -> None:
        self.url = url
        self.engine = make_engine(url, pool_size)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        # reads (GET requests): each statement its own transaction, so a read costs no
        # BEGIN and no ROLLBACK round trip, and closing it does no I/O.  The few writes a
        # read makes (a player seen, chat read) are single statements.
        self.read_sessions = sessionmaker(self.engine.execution_options(isolation_level="AUTOCOMMIT"),
                                          expire_on_commit=False)

    def session(self) -> Iterator[Session]:
        with self.sessions() as s:
            yield s


def peek(sessions: Callable[[], Session], statement: Executable,
         params: dict[str, Any] | None = None) -> Row[Any] | None:
    """The first row ``statement`` reads, on an autocommit connection of the sessions'
    engine: no session, no transaction.  How a periodic job looks for work, which it
    mostly finds none of: a session's look (with its BEGIN and ROLLBACK) cost five times
    the CPU, taken from the requests in the same process every few seconds."""
    bind = getattr(sessions, "kw", {}).get("bind")  # a sessionmaker's engine, else a session's
    if bind is None:
        with sessions() as session:
            bind = session.get_bind()
    with _autocommit(bind).connect() as conn:
        return conn.execute(statement, params or {}).first()


@cache
def _autocommit(engine: Engine) -> Engine:
    return engine.execution_options(isolation_level="AUTOCOMMIT")
