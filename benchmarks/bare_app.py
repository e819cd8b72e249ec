"""The floor for ``action_latency.py``: a bare FastAPI app whose one endpoint does the
least a command must do: read the request's body, write it by one INSERT and a COMMIT
through SQLAlchemy.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/NAME \
        python -m uvicorn bare_app:app --app-dir benchmarks --port 8001

The engine comes from the project's own ``app.db.make_engine``, so the pool settings
are the server's.  The table ``bare_writes`` is its own, created at start.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import BigInteger, Column, DateTime, Integer, MetaData, String, Table, insert

from app.db import make_engine

metadata = MetaData()
bare_writes = Table(
    "bare_writes", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),  # (SQLite: rowid)
    Column("payload", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
engine = make_engine(os.environ["DATABASE_URL"])


@asynccontextmanager
async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
    metadata.create_all(engine)
    yield
    engine.dispose()


app = FastAPI(title="bare write", lifespan=lifespan)


@app.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/bare")
async def bare(request: Request) -> dict[str, int]:
    """The body it was sent, written by one INSERT and a COMMIT in the thread pool, as the
    server's commands are.  It is sent a body like a command's: a client that sends a
    body in a second write (httpx does) makes every command wait for it, so a floor
    that was sent none would not be the least a command must do."""
    payload = (await request.body()).decode("utf-8", "replace")[:200]
    return await run_in_threadpool(_write, payload)


def _write(payload: str) -> dict[str, int]:
    with engine.connect() as conn:
        new_id = conn.execute(insert(bare_writes).values(payload=payload, created_at=datetime.now(UTC))
                              .returning(bare_writes.c.id)).scalar_one()
        conn.commit()
    return {"id": new_id}
