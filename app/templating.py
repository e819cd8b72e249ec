"""The Jinja2 environment every page is rendered with (autoescaping on)."""

from __future__ import annotations

import weakref
from dataclasses import is_dataclass
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from app.render.counters import factors
from app.services.computer import levels_offered
from app.static_files import static_url


class PageEnvironment(jinja2.Environment):
    """Jinja's environment, with ``x.name`` on a dict read as its key first.  Jinja asks
    for the attribute first and the key only after the attribute's AttributeError, and a
    board's answer reads some hundred names of dicts (the view, its lines, choosers):
    a tenth of its drawing went to those exceptions.  (So a dict whose key is named like
    a dict method shadows the method: templates call ``items()`` only on dicts keyed by
    data, sides and names.)"""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


# the project's templates, and those of games from elsewhere, each under its game's id
_ELSEWHERE: dict[str, jinja2.BaseLoader] = {}
TEMPLATES = Jinja2Templates(env=PageEnvironment(
    loader=jinja2.ChoiceLoader([jinja2.FileSystemLoader(Path(__file__).resolve().parents[1] / "templates"),
                                jinja2.PrefixLoader(_ELSEWHERE)]),
    autoescape=jinja2.select_autoescape()))  # (what Jinja2Templates(directory=...) makes)
TEMPLATES.env.globals["static_url"] = static_url


def duration(seconds: float) -> str:
    """``2 d 3 h``, ``4 h 5 min``, ``6 min 7 s``: a span of time as people read it."""
    s = int(seconds)
    d, h, m = s // 86_400, s % 86_400 // 3600, s % 3600 // 60
    return f"{d} d {h} h" if d else f"{h} h {m} min" if h else f"{m} min {s % 60} s"


TEMPLATES.env.globals["duration"] = duration


TEMPLATES.env.globals["computer_levels"] = levels_offered  # the levels the computer plays a game at
TEMPLATES.env.filters["factors"] = factors  # a counter's bottom line (CF-MF, CF-R-MF, F, DD), as the map draws it
# templates change with a release, not while a server runs: no stat of each file per page
TEMPLATES.env.auto_reload = False


def add_templates(prefix: str, folder: Path) -> None:
    """The templates in ``folder``, named ``<prefix>/<name>`` (a game from elsewhere's)."""
    _ELSEWHERE[prefix] = jinja2.FileSystemLoader(folder)


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
    """The page ``name`` drawn with ``context``.  A Jinja context can be a reference cycle
    (macros imported "with context" close over it), freed only by the garbage collector;
    the board's templates import none, and in case a page does, the page's own objects
    (a board: its state, view and legal list) go in as weak proxies, held by this call
    while it draws, and are freed by reference counting as soon as the request ends.
    Kept in the cycle, a board made every young collection a pause of 5-13 ms."""
    held = {k: weakref.proxy(v) if is_dataclass(v) and not isinstance(v, type) else v for k, v in context.items()}
    return TEMPLATES.TemplateResponse(request, name, held, status_code=status_code, headers=headers)
