"""Pure ASGI middleware: admission control and the security headers of every answer."""

from __future__ import annotations

import asyncio

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


class Admission:
    """At most ``limit`` requests at a time inside the application (static files and
    live streams aside); the rest wait their turn here, holding nothing.

    Each admitted request holds at most one database connection, and the pool has
    ``limit`` connections: so no request ever waits for a connection, and none waits
    for a thread while another waits for its connection.  A burst makes requests
    queue (slower), never fail; one that waits longer than ``timeout`` gets a 503."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout
        self._slots: asyncio.Semaphore | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/") or scope["path"].endswith("/stream"):
            # static files hold nothing; a live stream waits for moves holding no thread
            # and no pooled connection (the hub caps them: app/live.py)
            await self.app(scope, receive, send)
            return
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limit)
        try:
            async with asyncio.timeout(self.timeout):
                await self._slots.acquire()
        except TimeoutError:
            busy = error_json(503, "the server is busy; try again in a few seconds", headers={"Retry-After": "5"})
            await busy(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self._slots.release()

