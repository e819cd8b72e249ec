"""The JSON API's command, the busiest route, served without FastAPI's per-request
machinery (issue 35: a thin hot path).

FastAPI's route for ``POST /api/games/{game_id}/commands`` (app/routes/api.py) stays the
declared one: it is in the OpenAPI schema and the docs, and it answers every request this
layer does not fully understand.  What a command costs on that route besides its work
(matching the path through the included routers, solving the route's parameters,
validating the body as a request, the handler's wrappers) was a sixth of the server's CPU
per move, measured.  So this layer, the innermost of the app's middleware (the security
headers, compression and admission still wrap it), takes a well-formed command itself:

- the path and method match exactly, and the body is ``application/json``;
- the body parses as the route's strict JSON (``app.text.strict_json``) and validates as
  its model (``CommandIn``), as the route would parse and validate it;
- then it makes the route's one call (``command_path.send``) and sends its answer; an
  ``HTTPException`` on the way is answered by the app's own handler for it.

Anything else (another route, a body that does not parse or validate, another content
type) goes on to FastAPI with the body as it came, so every refusal of a malformed
request is FastAPI's own, word for word."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import command_path
from app.routes.api import API_ANSWER
from app.schemas import CommandIn
from app.text import strict_json

# the route's path, its ``{game_id}`` as Starlette matches a path parameter (no slash)
COMMANDS = re.compile(r"/api/games/([^/]+)/commands")


class HotCommands:
    """Pure ASGI middleware: the JSON API's well-formed command, straight to its one call."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = COMMANDS.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if route is None or not _json_body(scope):
            await self.app(scope, receive, send)
            return
        body = await _body(receive)
        replay = _replaying(body, receive)
        command = _command(body)
        if command is None:  # FastAPI's route says what is wrong with it
            await self.app(scope, replay, send)
            return
        request = Request(scope, replay)
        try:
            response = await command_path.send(request, route.group(1), {"type": command.type, "data": command.data},
                                               command.expected_seq, API_ANSWER)
        except HTTPException as exc:
            response = await _handled(request, exc)
        await response(scope, replay, send)


def _json_body(scope: Scope) -> bool:
    """Whether the request says its body is JSON, as ``application/json`` (a charset aside)."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            return value.split(b";", 1)[0].strip().lower() == b"application/json"
    return False


async def _body(receive: Receive) -> bytes:
    """The whole body (the app's body limit, outside this layer, counts it as it comes)."""
    chunks: list[bytes] = []
    more = True
    while more:
        message = await receive()
        if message["type"] != "http.request":  # the client went away: nothing to answer
            break
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    return b"".join(chunks)


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


def _command(body: bytes) -> CommandIn | None:
    """The command as the route's body, if it parses and validates as the route would take it."""
    try:
        return CommandIn.model_validate(strict_json(body))
    except (ValueError, ValidationError):  # (json.JSONDecodeError is a ValueError)
        return None


async def _handled(request: Request, exc: HTTPException) -> Response:
    """The app's answer to ``exc``, from the handler the app registered for its class."""
    handlers: dict[Any, Any] = request.app.exception_handlers
    handler = next(handlers[c] for c in type(exc).__mro__ if c in handlers)
    return await handler(request, exc)  # type: ignore[no-any-return]
