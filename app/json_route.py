"""Routes whose JSON bodies are parsed strictly (``app.text.strict_json``): no NaN,
no NUL, no unpaired surrogates, no nesting deep enough to exhaust the stack.  A body
that breaks one of these gets FastAPI's usual 422 ``json_invalid`` answer."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from app.text import strict_json


class StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_json(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict_handler
