"""A map as a picture (PNG), for the "your move" mail (issue 36: the mailbox is a witness):
the layers a board draws for a view, its terrain file put inside, drawn by resvg (the
``resvg_py`` package: a maintained renderer, no browser) with the page's map styles."""

from __future__ import annotations

import base64
import re
from functools import cache
from pathlib import Path

import resvg_py

from app.games.maps import map_file

STYLES = Path(__file__).resolve().parents[2] / "static" / "map.css"
_MAP_HREF = re.compile(r'href="/maps/([a-z0-9_]+)\.svg\?v=[0-9a-f]+"')
_VIEWBOX = re.compile(r'viewBox="([-0-9. ]+)"')
WIDTH = 1000  # pixels: a mail's picture, readable on a phone, small enough for a mailbox
WIDE = 1600  # a map much wider than high (Pacific Battles'): its counters stay readable


@cache
def _styles() -> str:
    return STYLES.read_text(encoding="utf-8")


def _inline(svg: str) -> str:
    """``svg`` with each published map it links (``/maps/NAME.svg``) inside it, as data."""
    def data(match: re.Match[str]) -> str:
        found = map_file(match.group(1))
        if found is None:
            return match.group(0)
        return f'href="data:image/svg+xml;base64,{base64.b64encode(found.body).decode()}"'
    return _MAP_HREF.sub(data, svg)


def _placed(layer: str, w: float, h: float) -> str:
    """A layer's root element sized to the picture (its own width and height, e.g. 100%, go)."""
    end = layer.index(">")
    head = re.sub(r'\s(width|height)="[^"]*"', "", layer[:end])
    return head.replace("<svg ", f'<svg x="0" y="0" width="{w:g}" height="{h:g}" ', 1) + layer[end:]


def _size(layer: str) -> tuple[float, float]:
    """The width and height of a layer's viewBox."""
    box = _VIEWBOX.search(layer)
    if box is None:
        raise ValueError("a map layer names its viewBox")
    _, _, w, h = (float(v) for v in box.group(1).split())
    return w, h


def standalone(layers: list[str]) -> str:
    """One SVG of ``layers`` (SVG elements sharing the first one's viewBox), drawn in order."""
    w, h = _size(layers[0])
    inner = "".join(_placed(_inline(layer), w, h) for layer in layers)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}" width="{w:g}" height="{h:g}">'
            f"{inner}</svg>")


def png(layers: list[str]) -> bytes:
    """The layers drawn as a PNG (``WIDTH`` pixels wide, ``WIDE`` for a wide map), on white."""
    w, h = _size(layers[0])
    return bytes(resvg_py.svg_to_bytes(svg_string=standalone(layers), width=WIDE if w > 2 * h else WIDTH,
                                       background="#ffffff",
                                       style_sheet=_styles()))
