"""Live updates: tell every open board at once that its game moved or its chat grew.

A stream (Server-Sent Events, ``GET /games/{id}/stream``) carries only the game's new
length, its newest chat message's number and how many seats are taken (the creator's page
learns that the opponent joined), never what happened or what was said: the
page then asks for the changes as the side it is (so nothing hidden, and no chat a
spectator may not read, can travel in a stream message).  The hub learns of a move three
ways: from this process's own commands at once; from other processes through
PostgreSQL's LISTEN/NOTIFY (the append statement notifies, in its own transaction);
on SQLite, by reading the watched games' lengths a few times a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import psycopg
from fastapi import HTTPException
from sqlalchemy import bindparam, create_engine, func, make_url, select
from sqlalchemy.orm import Session
from sqlalchemy.pool import NullPool
from sse_starlette.sse import EventSourceResponse

from app.db import conninfo
from app.models import ChatMessage, Game, Seat
from app.store import LIVE_CHANNEL

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(eq=False)  # each stream is its own watch (kept in a set)
class _Watch:
    """One open stream: the newest values it has been told of, by kind, and a bell."""
    told: dict[str, int]
    bell: asyncio.Event = field(default_factory=asyncio.Event)
    known: dict[str, int] = field(default_factory=dict)  # rung, not told yet

    def __post_init__(self) -> None:
        self.known = dict(self.told)


class Hub:
    def __init__(self, database_url: str, poll_seconds: float = 0.5, max_streams: int = 1000) -> None:
        self.database_url = database_url
        self.poll_seconds = poll_seconds
        self.max_streams = max_streams
        self._watches: dict[str, set[_Watch]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        # its own connections, outside the request pool (README, "Sizing"), a few at a time
        self._engine = create_engine(database_url, poolclass=NullPool)
        self._reads = asyncio.Semaphore(4)
        newest_chat = select(func.max(ChatMessage.id)).where(ChatMessage.game_id == Game.id).scalar_subquery()
        seats = select(func.count(Seat.id)).where(Seat.game_id == Game.id,
                                                  Seat.joined_at.is_not(None)).scalar_subquery()
        ids = Game.id.in_(bindparam("ids", expanding=True))
        self._query = select(Game.id, Game.seq, newest_chat.label("chat")).where(ids)
        self._seats_query = select(Game.id, Game.seq, newest_chat.label("chat"), seats.label("seats")).where(ids)

    @property
    def postgres(self) -> bool:
        return make_url(self.database_url).get_backend_name() == "postgresql"

    @property
    def streams(self) -> int:
        return sum(len(w) for w in self._watches.values())

    # --- life ------------------------------------------------------------------------
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._listen() if self.postgres else self._poll())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for watches in self._watches.values():
            for w in watches:
                w.bell.set()  # let every stream end
        self._engine.dispose()

    async def values(self, ids: list[str], seats: list[str] | None = None) -> dict[str, dict[str, int]]:
        """Each game's length and newest chat id now, and the seats taken of the games in
        ``seats`` (None: of every game), read on the hub's own connection."""
        counted = ids if seats is None else seats
        plain = [] if seats is None else sorted(set(ids) - set(seats))

        def read(session: Session) -> dict[str, dict[str, int]]:
            out = {r.id: {"moved": r.seq, "chat": r.chat or 0} for r in
                   (session.execute(self._query, {"ids": plain}) if plain else ())}
            out |= {r.id: {"moved": r.seq, "chat": r.chat or 0, "seats": r.seats} for r in
                    (session.execute(self._seats_query, {"ids": counted}) if counted else ())}
            return out
        return await self.run(read)

    async def run(self, work: Callable[[Session], T]) -> T:
        """``work`` with a session on the hub's own connection, in a thread (a stream is
        not admitted like a request, so it never takes a connection of the pool)."""
        def in_thread() -> T:
            with Session(self._engine) as session:
                return work(session)
        async with self._reads:
            return await asyncio.to_thread(in_thread)

    def response(self, game_id: str, seq: int, chat: int = 0, seats: int | None = None) -> EventSourceResponse:
        """The stream: "moved" with the game's new length each time it grows past
        ``seq``, "chat" with the newest message's id each time one is written after
        ``chat``, "seats" with the seats taken once more than ``seats`` are (None: not
        watched), each at once if that has happened already; "gone" if there is no such game."""
        watched = {"moved": seq, "chat": chat} | ({} if seats is None else {"seats": seats})
        if self.streams >= self.max_streams:
            raise HTTPException(503, "too many live streams; poll instead", headers={"Retry-After": "30"})

        async def news() -> AsyncIterator[dict[str, str]]:
            # watched before reading: nothing missed
            async with self.watch(game_id, watched) as watch:
                now = (await self.values([game_id])).get(game_id)
                if now is None:
                    yield {"event": "gone", "data": "no such game"}
                    return
                for kind, value in now.items():
                    self._ring_watch(watch, kind, value)
                while (told := await self.next(watch)) is not None:
                    for kind, value in told:
                        yield {"event": kind, "data": str(value)}

        return EventSourceResponse(news(), ping=15, headers={"Cache-Control": "no-store"})

    # --- telling ---------------------------------------------------------------------
    def moved(self, game_id: str, seq: int) -> None:
        """A game reached ``seq`` (from any thread)."""
        self._tell(game_id, "moved", seq)

    def chatted(self, game_id: str, message_id: int) -> None:
        """A chat message was written (from any thread)."""
        self._tell(game_id, "chat", message_id)

    def _tell(self, game_id: str, kind: str, value: int) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._ring, game_id, kind, value)

    def _ring(self, game_id: str, kind: str, value: int) -> None:
        for w in self._watches.get(game_id, ()):
            self._ring_watch(w, kind, value)

    @staticmethod
    def _ring_watch(w: _Watch, kind: str, value: int) -> None:
        if kind in w.known and value > w.known[kind]:  # (a kind it watches)
            w.known[kind] = value
            w.bell.set()

    # --- listening -------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def watch(self, game_id: str, told: dict[str, int]) -> AsyncIterator[_Watch]:
        """Watch a game from these values on."""
        w = _Watch(dict(told))
        self._watches.setdefault(game_id, set()).add(w)
        try:
            yield w
        finally:
            self._watches[game_id].discard(w)
            if not self._watches[game_id]:
                del self._watches[game_id]

    async def next(self, w: _Watch) -> list[tuple[str, int]] | None:
        """Wait until something is newer than last told: what, by kind (None: the hub
        has stopped, the server is going down)."""
        while True:
            fresh = [(k, v) for k, v in w.known.items() if v > w.told.get(k, 0)]
            if fresh:
                w.told.update(fresh)
                return fresh
            await w.bell.wait()
            w.bell.clear()
            if self._task is None or self._task.done():
                return None

    async def _listen(self) -> None:
        """PostgreSQL: one connection per process LISTENs; reconnects after a failure."""
        delay = 0.5
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(conninfo(self.database_url), autocommit=True) as conn:
                    await conn.execute(f"LISTEN {LIVE_CHANNEL}")
                    delay = 0.5
                    async for note in conn.notifies():
                        game_id, *kind, value = note.payload.split(":")
                        if value.isdigit() and kind in ([], ["chat"], ["seats"]):
                            self._ring(game_id, kind[0] if kind else "moved", int(value))
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - the database went away: try again, slower
                log.warning("live updates: LISTEN connection lost; retrying in %.1f s", delay, exc_info=True)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    async def _poll(self) -> None:
        """SQLite (no notifications): read the watched games' lengths a few times a
        second while anybody watches."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            if not self._watches:
                continue
            # seats are counted only for the games a page still inviting watches (a subquery)
            counted = [g for g, watches in self._watches.items() if any("seats" in w.known for w in watches)]
            try:
                now = await self.values(list(self._watches), counted)
            except Exception:  # noqa: BLE001 - a busy or missing file: try again next time
                log.warning("live updates: could not read game lengths", exc_info=True)
                continue
            for game_id, values in now.items():
                for kind, value in values.items():
                    self._ring(game_id, kind, value)
