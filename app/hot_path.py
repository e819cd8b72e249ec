"""A player's command, the busiest request, served without FastAPI's per-request machinery
(issue 35: a thin hot path).

FastAPI's routes for a command stay the declared ones: the JSON API's
``POST /api/games/{game_id}/commands`` (app/routes/api.py) is in the OpenAPI schema and
the docs, and the board's ``/games/{game_id}/command`` and ``/click`` (app/routes/pages.py)
are where their endpoints live.  What a command cost on those routes besides its work
(matching the path through the included routers, solving the route's parameters,
validating the body as a request, the handler's wrappers) was a sixth of the server's
CPU per move, measured.  So this layer, the innermost of the app's middleware (the
security headers, compression and admission still wrap it), takes such a request itself
and makes the route's own call:

- the JSON API's command, if its body is ``application/json``, parses as the route's
  strict JSON (``app.text.strict_json``) and validates as its model (``CommandIn``);
  anything else goes on to FastAPI's route with its body as it came, so every refusal
  of a malformed request is FastAPI's own, word for word;
- the board's command and click: the routes' one dependency (``same_origin``), then their
  endpoints, which read and check their forms themselves.

An ``HTTPException`` on the way is answered by the app's own handler for its class, as
FastAPI's exception middleware would."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import command_path
from app.deps import same_origin
from app.routes import pages
from app.routes.api import API_ANSWER
from app.schemas import CommandIn
from app.text import strict_json

# an answer to a request, or None: not this layer's to take (FastAPI's route answers it)
Take = Callable[[Request, str], Awaitable[Response | None]]


@dataclass(frozen=True)
class HotRoute:
    path: re.Pattern[str]  # the route's path, its ``{game_id}`` as Starlette matches one (no slash)
    take: Take


async def _json_command(request: Request, game_id: str) -> Response | None:
    if not _says_json(request):
        return None
    try:
        command = CommandIn.model_validate(strict_json(await request.body()))
    except (ValueError, ValidationError):  # (json.JSONDecodeError is a ValueError)
        return None
    return await command_path.send(request, game_id, {"type": command.type, "data": command.data},
                                   command.expected_seq, API_ANSWER)


def _board(endpoint: Callable[[Request, str], Awaitable[Response]]) -> Take:
    """A board route's endpoint behind its router's one dependency."""
    async def take(request: Request, game_id: str) -> Response:
        await same_origin(request)
        return await endpoint(request, game_id)

    return take


HOT = (HotRoute(re.compile(r"/api/games/([^/]+)/commands"), _json_command),
       HotRoute(re.compile(r"/games/([^/]+)/command"), _board(pages.command)),
       HotRoute(re.compile(r"/games/([^/]+)/click"), _board(pages.click)))


class HotCommands:
    """Pure ASGI middleware: a command's post, straight to its route's one call."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hot = _hot(scope)
        if hot is None:
            await self.app(scope, receive, send)
            return
        route, game_id = hot
        request = Request(scope, receive)
        try:
            response = await route.take(request, game_id)
        except HTTPException as exc:
            response = await _handled(request, exc)
        if response is None:  # FastAPI's route, with the body this layer may have read
            await self.app(scope, _replaying(await request.body(), receive), send)
            return
        await response(scope, receive, send)


def _hot(scope: Scope) -> tuple[HotRoute, str] | None:
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    path, root = scope["path"], scope.get("root_path", "")
    if root and path.startswith(root + "/"):  # behind a proxy's prefix: the route's path, as Starlette reads it
        path = path[len(root):]
    for route in HOT:
        match = route.path.fullmatch(path)
        if match is not None:
            return route, match.group(1)
    return None


def _says_json(request: Request) -> bool:
    """Whether the request says its body is JSON, as ``application/json`` (a charset aside)."""
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower() == "application/json"


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body read already, then whatever comes next (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


async def _handled(request: Request, exc: HTTPException) -> Response:
    """The app's answer to ``exc``, from the handler the app registered for its class."""
    handlers: dict[Any, Any] = request.app.exception_handlers
    handler = next(handlers[c] for c in type(exc).__mro__ if c in handlers)
    return await handler(request, exc)  # type: ignore[no-any-return]
