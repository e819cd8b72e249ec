"""Maps that are the same in every game of a kind (a game's terrain), served once as
their own SVG files and kept by the browser, instead of inside every board page.

A board publishes a map by name with the function that draws it; its pages draw it
by ``map_url`` (``/maps/NAME.svg?v=HASH``: the hash changes whenever the drawing
does, so the file may be kept for a year without asking again)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

_DRAWN: dict[str, Callable[[], str]] = {}


@dataclass(frozen=True)
class MapFile:
    body: bytes
    version: str


def publish(name: str, draw: Callable[[], str]) -> None:
    _DRAWN[name] = draw


@cache
def map_file(name: str) -> MapFile | None:
    draw = _DRAWN.get(name)
    if draw is None:
        return None
    body = draw().encode()
    return MapFile(body, hashlib.sha256(body).hexdigest()[:12])


def map_url(name: str) -> str:
    found = map_file(name)
    assert found is not None, f"no map published as {name!r}"
    return f"/maps/{name}.svg?v={found.version}"
