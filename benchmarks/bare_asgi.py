"""The second floor for ``action_latency.py`` (issue 35): a bare ASGI app, no framework
and no ORM, whose one endpoint reads the request's body and writes it by one INSERT and a
COMMIT with the database driver alone (psycopg's own async pool, on the event loop),
with the server's durability (PostgreSQL's default synchronous commit).

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/NAME \\
        python -m uvicorn bare_asgi:app --app-dir benchmarks --port 8002
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from psycopg_pool import AsyncConnectionPool

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

DSN = os.environ["DATABASE_URL"].replace("postgresql+psycopg://", "postgresql://", 1)
pool = AsyncConnectionPool(DSN, min_size=2, max_size=4, open=False)
TABLE = ("CREATE TABLE IF NOT EXISTS bare_asgi_writes (id bigserial PRIMARY KEY, payload varchar(200) NOT NULL, "
         "created_at timestamptz NOT NULL DEFAULT now())")


async def _answer(send: Send, status: int, body: dict[str, Any]) -> None:
    data = orjson.dumps(body)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})


async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await pool.open()
                async with pool.connection() as conn:
                    await conn.execute(TABLE)
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
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
    async with pool.connection() as conn:  # committed as the block ends
        cursor = await conn.execute("INSERT INTO bare_asgi_writes (payload) VALUES (%s) RETURNING id",
                                    (body.decode("utf-8", "replace")[:200],))
        row = await cursor.fetchone()
    await _answer(send, 200, {"id": row[0] if row else None})
