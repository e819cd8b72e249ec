"""A command's append on SQLite, for the event loop's command path (app/fast_commands.py).

The embedded default's counterpart of app/async_appends.py.  SQLite has no asyncio
driver and no statement that updates one table and inserts into another, so the append
is the thread path's own statements (``store.write_sqlite``: the optimistic lock with the
seat check, the events, the record's entries; a handover's clock, ``clock.handed_over``)
in one transaction, on a connection of its own, in one thread of its own: the event loop
decides the command and draws the answer, and hands this thread only the write (and the
read of the row as written, for a board's answer).  What the request then skips is the
thread pool's admission and the ORM's session: the seat and the state are known here, as
on PostgreSQL.

The transaction takes the write lock first (``BEGIN IMMEDIATE``) and waits for it at most
``BUSY_MS``: another writer (a worker's thread path, another worker) holding it longer
sends the command to the thread path, which waits its turn as it always has.  The commit
is the same as the thread path's (WAL, SQLite's default synchronous level): durable
before the answer leaves.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, exc

from app import store
from app.db import sqlite_pragmas
from app.services import clock
from app.store import SAVE_SNAPSHOT, Batch

BUSY_MS = 200  # how long a write waits for another writer's lock before the thread path takes it
QUEUE = 8  # writes waiting for this thread at most; more go through the request threads


class SqliteAppends:
    errors = (exc.DBAPIError,)  # a write that failed (a lock not had in time too): the thread path answers

    def __init__(self, database_url: str) -> None:
        self.engine = _engine(database_url)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-appends")
        self._conn: Connection | None = None  # this thread's, once opened
        self.busy = 0  # writes handed to the thread and not back; only the event loop's thread changes it

    async def open(self) -> None:
        await self._run(self._connection)

    async def close(self) -> None:
        await self._run(self._dispose)
        self._thread.shutdown(wait=True)

    def recover(self) -> None:
        """After a failed write: the next one opens a new connection (a file moved or
        broken would fail every write on the old one)."""
        self._thread.submit(self._dispose)

    def room(self) -> bool:
        return self.busy < QUEUE

    async def append(self, batch: Batch, returning: bool) -> list[tuple[Any, ...]] | int:
        """As ``AsyncAppends.append``: with ``returning`` the game row as written with its
        seats, as ``store.append_pg(returning=True)`` gives them (a row per seat, the count
        of events appended first; none: nothing was written), else the events appended."""
        return await self._run(self._append, batch, returning)

    async def snapshot(self, params: dict[str, Any]) -> None:
        await self._run(self._snapshot, params)

    # --- in this module's thread ------------------------------------------------------
    async def _run(self, work: Any, *args: Any) -> Any:
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)
        finally:
            self.busy -= 1

    def _connection(self) -> Connection:
        if self._conn is None or self._conn.closed or self._conn.invalidated:
            self._conn = self.engine.connect()
        return self._conn

    def _dispose(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self.engine.dispose()

    def _append(self, batch: Batch, returning: bool) -> list[tuple[Any, ...]] | int:
        conn = self._connection()
        with conn.begin() as trans:
            if not store.write_sqlite(conn, batch) or not _handed_over(conn, batch):
                # a stale sequence, a replaced secret, a handover that must queue a notice:
                # nothing of it stays, and the thread path answers
                trans.rollback()
                return [] if returning else 0
            return store.written_row(conn, batch) if returning else len(batch.events)

    def _snapshot(self, params: dict[str, Any]) -> None:
        conn = self._connection()
        with conn.begin():
            conn.execute(SAVE_SNAPSHOT, params)


def _handed_over(conn: Connection, batch: Batch) -> bool:
    """The next side's clock, for a batch that hands the decision over (as the thread path
    sets it: ``clock.handed_over``, in the same transaction), unless that side's seat wants
    a notice: then False, and the thread path writes the command with its notices.  (The
    transaction holds the write lock from its start: no vacation changes meanwhile.)"""
    h = batch.handover
    if h is None:
        return True
    if h.notices and store.wants_notice(conn, batch.game_id, h.to_decide):
        return False
    clock.handed_over(conn, batch.game_id, h.to_decide, h.now, joint=h.joint)  # type: ignore[arg-type]
    return True


def _engine(database_url: str) -> Engine:
    """One connection, as the server's (app/db.py: WAL, foreign keys), which takes the write
    lock as its transaction begins and waits ``BUSY_MS`` for it."""
    engine = create_engine(database_url, connect_args={"check_same_thread": False, "timeout": BUSY_MS / 1000,
                                                       "isolation_level": None},
                           pool_size=1, max_overflow=0)
    sqlite_pragmas(engine, BUSY_MS)

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")  # the write lock now: no upgrade to wait for mid-way

    return engine
