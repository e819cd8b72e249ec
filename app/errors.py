"""One error shape for the whole server, and the OpenAPI entries that document it.

The JSON API answers every error with ``ErrorOut`` (``detail``, ``kind``, ``rule``,
``errors``); the browser pages answer with an HTML page saying the same thing.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from app.schemas import ConflictOut, ErrorOut
from app.templating import page
from engine.core.errors import NotYourTurnError, RuleError

KINDS = {400: "malformed", 401: "unauthorized", 403: "forbidden", 404: "not_found", 405: "malformed",
         409: "conflict", 413: "too_large", 422: "malformed", 429: "rate_limited", 503: "unavailable"}
DESCRIPTIONS = {
    401: "no seat secret (or no admin credentials)",
    403: "a wrong secret, another side's command, or a form from another site",
    404: "no such game (or unit)",
    409: "the game has moved on (stale expected_seq), or it is not over yet",
    413: "the request body is too large",
    422: "malformed request, or a command the rules forbid (the rule section is named)",
    429: "too many requests from this address or seat; Retry-After says when to come back",
}
MODELS: dict[int, type[ErrorOut]] = {409: ConflictOut}


def responses(*codes: int, **models: type[ErrorOut]) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for these error codes, each with the ErrorOut model or
    the subclass given as a keyword (``e422=ImportErrorOut``)."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        if code == 413:  # answered by Starlette's body limit, before any route runs
            out[code] = {"description": DESCRIPTIONS[413], "content": {"text/plain": {"schema": {"type": "string"}}}}
            continue
        model = models.get(f"e{code}", MODELS.get(code, ErrorOut))
        out[code] = {"model": model, "description": DESCRIPTIONS.get(code, "error")}
    return out


def error_json(status: int, detail: str, *, kind: str = "", rule: str = "", errors: list[Any] | None = None,
               headers: dict[str, str] | None = None, **extra: Any) -> JSONResponse:
    """An ``ErrorOut`` answer (``extra``: the fields a subclass adds)."""
    body = {"detail": detail, "kind": kind or KINDS.get(status, "error"), "rule": rule, "errors": errors, **extra}
    return JSONResponse(body, status_code=status, headers=headers)


def rule_error(exc: RuleError) -> JSONResponse:
    """An engine refusal: 403 when it is not your turn, else 422, naming the rule."""
    status = 403 if isinstance(exc, NotYourTurnError) else 422
    kind = {"NotYourTurnError": "not_your_turn", "IllegalCommandError": "illegal"}.get(type(exc).__name__,
                                                                                       "malformed")
    return error_json(status, str(exc), kind=kind, rule=exc.rule)


def wants_html(request: Request) -> bool:
    path = request.url.path
    if path.startswith(("/api/", "/healthz", "/openapi", "/docs", "/static/")):
        return False
    return "text/html" in request.headers.get("accept", "") or request.headers.get("hx-request") == "true"


def error_page(request: Request, status: int, detail: str, headers: dict[str, str] | None = None) -> Response:
    return page(request, "error.html", status_code=status, headers=headers, status=status, detail=detail)


def _readable(errors: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    fields = []
    for e in errors:
        loc = [x if isinstance(x, int) else str(x) for x in e.get("loc", ())]
        msg = str(e.get("msg", "invalid"))
        ctx = e.get("ctx") or {}
        if e.get("type") == "json_invalid" and ctx.get("error"):
            msg = f"the body is not valid JSON: {ctx['error']}"
        fields.append({"loc": loc, "msg": msg, "type": str(e.get("type", ""))})
    detail = "; ".join(f"{'.'.join(map(str, f['loc']))}: {f['msg']}" for f in fields) or "malformed request"
    return detail, fields


def install(app: FastAPI) -> None:
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if wants_html(request):
            return error_page(request, exc.status_code, detail, exc.headers)
        return error_json(exc.status_code, detail, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        detail, fields = _readable(list(exc.errors()))
        if wants_html(request):
            return error_page(request, 422, detail)
        return error_json(422, detail, errors=fields)
