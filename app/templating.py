"""The Jinja2 environment every page is rendered with (autoescaping on)."""

from __future__ import annotations

import weakref
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.static_files import static_url

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).resolve().parents[1] / "templates"))
TEMPLATES.env.globals["static_url"] = static_url
# templates change with a release, not while a server runs: no stat of each file per page
TEMPLATES.env.auto_reload = False


def compile_all() -> int:
    """Compile every template once, at start: a burst of first visits to a new process
    would otherwise compile each template in every request thread that misses it at
    once (Jinja fills its cache only after a compile), half of a page's work then."""
    names = TEMPLATES.env.list_templates(extensions=["html"])
    for name in names:
        TEMPLATES.env.get_template(name)
    return len(names)


def page(request: Request, name: str, status_code: int = 200, headers: dict[str, str] | None = None,
         **context: Any) -> HTMLResponse:
    """The page ``name`` drawn with ``context``.  A Jinja context is a reference cycle (its
    macros close over it), freed only by the garbage collector; so the page's own objects
    (a board: its state, view and legal list) go in as weak proxies, held by this call
    while it draws, and are freed by reference counting as soon as the request ends.
    Kept in the cycle, a board made every young collection a pause of 5-13 ms."""
    held = {k: weakref.proxy(v) if is_dataclass(v) and not isinstance(v, type) else v for k, v in context.items()}
    return TEMPLATES.TemplateResponse(request, name, held, status_code=status_code, headers=headers)
