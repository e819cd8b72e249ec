"""Pure ASGI middleware: admission control and the security headers of every answer."""

from __future__ import annotations

import asyncio
from collections import deque

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import error_json

# The pages load only this site's scripts and styles (no inline code, no eval), are
# never framed, and post forms only here.
PAGE_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")
# FastAPI's /docs page runs Swagger UI from a CDN with an inline script; it holds no secret.
DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
            "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https:; "
            "object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
# "same-origin", not "no-referrer": under no-referrer browsers send "Origin: null" with
# this site's own form posts, which the cross-site check must refuse.
FIXED = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
         (b"x-frame-options", b"DENY"), (b"cross-origin-opener-policy", b"same-origin")]


class SecurityHeaders:
    """Adds the headers every answer carries; answers that set no Cache-Control are
    ``no-store`` (pages and API answers may hold a secret or a player's view)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"] in ("/docs", "/redoc") or scope["path"].startswith("/docs/")
        csp = (DOCS_CSP if docs else PAGE_CSP).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in FIXED:
                    headers.raw.append((key, value))
                headers.raw.append((b"content-security-policy", csp))
                if "cache-control" not in headers:
                    headers.raw.append((b"cache-control", b"no-store"))
            await send(message)

        await self.app(scope, receive, send_with_headers)


READS = ("GET", "HEAD", "OPTIONS")


class Admission:
    """At most ``limit`` requests at a time inside the application (static files and
    live streams aside); the rest wait their turn here, holding nothing.

    Each admitted request holds at most one database connection, and the pool has
    ``limit`` connections: so no request ever waits for a connection, and none waits
    for a thread while another waits for its connection.  A burst makes requests
    queue (slower), never fail; one that waits longer than ``timeout`` gets a 503.

    A player's action comes first: requests that change something (a command, a join,
    a chat line; every method but GET, HEAD and OPTIONS) go before every waiting read
    (a board, a poll, a legal list), and reads hold at most ``read_limit`` of the slots,
    so an action never waits for other players' reads to finish, only shares the
    processor with them.  Within each kind, first come first served."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float, read_limit: int | None = None) -> None:
        self.app = app
        self.limit = limit
        self.read_limit = min(limit, read_limit) if read_limit else limit
        self.timeout = timeout
        self.busy = 0  # admitted and not yet finished
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {True: deque(), False: deque()}  # by "is a write"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/") or scope["path"].endswith("/stream"):
            # static files hold nothing; a live stream waits for moves holding no thread
            # and no pooled connection (the hub caps them: app/live.py)
            await self.app(scope, receive, send)
            return
        write = scope.get("method", "GET") not in READS
        try:
            if not self._admit_now(write):  # only a wait needs a timer
                async with asyncio.timeout(self.timeout):
                    await self._wait(write)
        except TimeoutError:
            busy = error_json(503, "the server is busy; try again in a few seconds", headers={"Retry-After": "5"})
            await busy(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self._leave()

    def _room(self, write: bool) -> bool:
        return self.busy < (self.limit if write else self.read_limit)

    def _admit_now(self, write: bool) -> bool:
        """Take a slot if one is free and nobody it must let go first is waiting."""
        for queue in self._waiting.values():
            while queue and queue[0].done():  # given up waiting (a timeout)
                queue.popleft()
        ahead = self._waiting[True] or (not write and self._waiting[False])
        if not ahead and self._room(write):
            self.busy += 1
            return True
        return False

    async def _wait(self, write: bool) -> None:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[write].append(turn)
        try:
            await turn  # _leave counts the slot as taken before it hands it over
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._leave()  # handed a slot just as the wait ran out: hand it on
            else:
                turn.cancel()  # _wake skips it
            raise

    def _leave(self) -> None:
        self.busy -= 1
        for write in (True, False):  # writes first; a read never has room a waiting write lacks
            queue = self._waiting[write]
            while queue and self._room(write):
                turn = queue.popleft()
                if not turn.done():
                    self.busy += 1
                    turn.set_result(None)
            if queue:
                return
