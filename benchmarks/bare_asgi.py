"""The second floor for ``action_latency.py`` (issue 35): a bare ASGI app, no framework
and no ORM, whose one endpoint reads the request's body and writes it by one INSERT and a
COMMIT with the database driver alone, with the server's durability: on PostgreSQL
psycopg's own async pool on the event loop (the default synchronous commit); on SQLite
the standard library's sqlite3, one connection, in WAL mode as the server's (its default
synchronous setting), the write made on the event loop (the few hundred microseconds it
takes are the floor: no thread hop).

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/NAME \\
        python -m uvicorn bare_asgi:app --app-dir benchmarks --port 8002
    DATABASE_URL=sqlite:////some/dir/bench.db python -m uvicorn bare_asgi:app --app-dir benchmarks --port 8002
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from psycopg_pool import AsyncConnectionPool

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

URL = os.environ["DATABASE_URL"]
SQLITE = URL.startswith("sqlite:///")
pool = None if SQLITE else AsyncConnectionPool(URL.replace("postgresql+psycopg://", "postgresql://", 1),
                                               min_size=2, max_size=4, open=False)
TABLE = ("CREATE TABLE IF NOT EXISTS bare_asgi_writes (id bigserial PRIMARY KEY, payload varchar(200) NOT NULL, "
         "created_at timestamptz NOT NULL DEFAULT now())")
SQLITE_TABLE = ("CREATE TABLE IF NOT EXISTS bare_asgi_writes (id INTEGER PRIMARY KEY, payload TEXT NOT NULL, "
                "created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)")
lite: sqlite3.Connection | None = None


def _open_sqlite() -> sqlite3.Connection:
    conn = sqlite3.connect(URL.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=30000")
    conn.execute(SQLITE_TABLE)
    return conn


def _write_sqlite(payload: str) -> int | None:
    assert lite is not None
    lite.execute("BEGIN IMMEDIATE")
    row = lite.execute("INSERT INTO bare_asgi_writes (payload) VALUES (?) RETURNING id", (payload,)).fetchone()
    lite.execute("COMMIT")
    return row[0] if row else None


async def _answer(send: Send, status: int, body: dict[str, Any]) -> None:
    data = orjson.dumps(body)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    global lite
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if pool is None:
                    lite = _open_sqlite()
                else:
                    await pool.open()
                    async with pool.connection() as conn:
                        await conn.execute(TABLE)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if pool is None:
                    assert lite is not None
                    lite.close()
                else:
                    await pool.close()
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    if scope["path"] == "/healthz":
        await _answer(send, 200, {"status": "ok"})
        return
    body, more = b"", True
    while more:  # the body, which a client may send after the headers: a command waits for it too
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    payload = body.decode("utf-8", "replace")[:200]
    if pool is None:
        await _answer(send, 200, {"id": _write_sqlite(payload)})
        return
    async with pool.connection() as conn:  # committed as the block ends
        cursor = await conn.execute("INSERT INTO bare_asgi_writes (payload) VALUES (%s) RETURNING id", (payload,))
        row = await cursor.fetchone()
    await _answer(send, 200, {"id": row[0] if row else None})
