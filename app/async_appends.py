"""A command's append on PostgreSQL, sent from the event loop (app/fast_commands.py).

A command the worker can decide without reading (its seat and the state are known
here) needs the database once, for its write.  Sent over an asyncio connection, the
request needs no trip to a thread and back, nor waits for a free thread behind the
reads.  These connections are psycopg's own asyncio pool, ``size`` per worker besides
the ``threads`` of the request threads (README, "Sizing"); a command that finds them
all busy takes the thread path, which answers the same.

psycopg directly rather than SQLAlchemy's asyncio layer: that layer's greenlet bridge
cost more (about 0.3 ms a statement here) than the database's own work on the append.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool
from sqlalchemy import TextClause
from sqlalchemy.dialects.postgresql import psycopg as pg_dialect

from app.db import conninfo
from app.store import SAVE_SNAPSHOT, Batch

_DIALECT = pg_dialect.dialect()  # the statements as the server's own engine sends them
SNAPSHOT = str(SAVE_SNAPSHOT.compile(dialect=_DIALECT))
APPLICATION_NAME = "guadalcanal-appends"  # how these connections show in pg_stat_activity


class AsyncAppends:
    errors = (psycopg.Error,)  # a write that failed (the pool's timeout too): the thread path answers

    def __init__(self, database_url: str, size: int) -> None:
        # each statement its own transaction: the append is one statement, atomic alone
        self.pool = AsyncConnectionPool(conninfo(database_url), min_size=size, max_size=size, open=False,
                                        kwargs={"autocommit": True, "application_name": APPLICATION_NAME},
                                        name="appends")
        self.size = size
        self.busy = 0  # appends under way; only the event loop's thread changes it
        self._checking: asyncio.Task[None] | None = None

    async def open(self) -> None:
        await self.pool.open(wait=True)

    async def close(self) -> None:
        await self.pool.close()

    def recover(self) -> None:
        """After a failed write: have the pool test its idle connections and replace the
        broken ones (all of them, after a database restart), in the background, so that
        the next commands do not each meet a dead one first."""
        if self._checking is None or self._checking.done():
            self._checking = asyncio.get_running_loop().create_task(self.pool.check())

    def room(self) -> bool:
        """Whether a connection is free now (the loop's own count: nothing waits for one)."""
        return self.busy < self.size

    async def append(self, batch: Batch, returning: bool) -> list[tuple[Any, ...]] | int:
        """Run the append; with ``returning``, the rows of ``append_pg(returning=True)`` (the
        game row as written, with its seats) as tuples (their columns are known: no names
        to decode per answer), else the number of events appended."""
        self.busy += 1
        try:
            async with self.pool.connection() as conn:
                cur = conn.cursor()
                await cur.execute(_compiled(batch.pg_statement(returning)), batch.pg_params())
                return await cur.fetchall() if returning else cur.rowcount
        finally:
            self.busy -= 1

    async def snapshot(self, params: dict[str, Any]) -> None:
        """Store a game's snapshot (``store.snapshot_params``), once a connection is free."""
        self.busy += 1
        try:
            async with self.pool.connection() as conn:
                await conn.execute(SNAPSHOT, params)
        finally:
            self.busy -= 1


@cache
def _compiled(statement: TextClause) -> str:
    """An append statement's text (app/store.py ``append_pg``: a few variants), compiled once."""
    return str(statement.compile(dialect=_DIALECT))
