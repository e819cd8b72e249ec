"""A map's changing layers drawn in parts, so that an answer sends only the parts that
changed: each part is a ``<g id="..." data-d="...">`` always present and always in the
same place among the layers' children, ``data-d`` a digest of what it draws.  A page
says which digests it shows (static/board.js), and an answer swaps in only the parts
whose digest differs (both games' boards)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Part:
    id: str
    digest: str
    svg: str


def part(pid: str, cls: str, inner: str) -> Part:
    # two fast checksums, not a cryptographic hash: a digest only tells a page's part
    # from its next version, and is computed for every part of every answer
    data = inner.encode()
    digest = f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"
    return Part(pid, digest, f'<g id="{pid}" class="{cls}" data-d="{digest}">{inner}</g>')


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
