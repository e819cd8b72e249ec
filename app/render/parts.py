"""A map's changing layers drawn in parts, so that an answer sends only the parts that
changed: each part is a ``<g id="..." data-d="...">`` always present and always in the
same place among the layers' children, ``data-d`` a digest of what it draws.  A page
says which digests it shows (static/board.js), and an answer swaps in only the parts
whose digest differs (both games' boards).

Cards of a board's panels can be kept the same way (``kept_card``): an element marked
``data-kept`` whose ``data-d`` is a digest of what it shows; the page says those digests
after its map parts', and an answer draws and sends a kept card only when it differs."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup


@dataclass(frozen=True)
class Part:
    id: str
    digest: str
    svg: str


def digest(data: bytes) -> str:
    # two fast checksums, not a cryptographic hash: a digest only tells a page's part
    # from its next version, and is computed for every part of every answer
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


def part(pid: str, cls: str, inner: str) -> Part:
    d = digest(inner.encode())
    return Part(pid, d, f'<g id="{pid}" class="{cls}" data-d="{d}">{inner}</g>')


def split_shown(shown: list[str] | None, parts: int, cards: tuple[str, ...]) -> tuple[list[str] | None, dict[str, str]]:
    """A page's digests (``shown``) cut into its map's ``parts`` ones and its kept
    ``cards``' (by id, in the page's order): a page that did not say its cards has none."""
    if shown is None or len(shown) not in (parts, parts + len(cards)):
        return None, {}
    return shown[:parts], dict(zip(cards, shown[parts:], strict=False))


def kept_card(pid: str, cls: str, what: bytes, draw: Callable[[], str], oob: bool, shown: dict[str, str]) -> Markup:
    """The element ``pid`` holding what ``draw`` draws, ``what`` being all that the
    drawing shows (its digest tells the page's card from this one): in a page always, in
    an answer (``oob``) only when the page shows another (``shown``: the page's digests
    by id); then it is swapped in by its id.  Unchanged, it is neither drawn nor sent."""
    d = digest(what)
    if oob and shown.get(pid) == d:
        return Markup("")
    swap = ' hx-swap-oob="true"' if oob else ""
    return Markup(f'<div id="{pid}" class="{cls}" data-kept data-d="{d}"{swap}>') + Markup(draw()) + Markup("</div>")


def changed_parts(parts: list[Part], shown: list[str] | None) -> str | None:
    """The parts whose digest differs from the page's (``shown``, in order), each to be
    swapped in by its id, wrapped in an ``<svg>`` so that they are read as SVG; None when
    the page's parts are not known (it did not say, or said something else): then the
    whole layers element is sent."""
    if shown is None or len(shown) != len(parts):
        return None
    out = [p.svg.replace("<g ", '<g hx-swap-oob="true" ', 1) for p, d in zip(parts, shown, strict=True)
           if p.digest != d]
    return f'<svg xmlns="http://www.w3.org/2000/svg" hidden>{"".join(out)}</svg>' if out else ""
