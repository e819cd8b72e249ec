"""Pixel maths for the map, after Red Blob Games' ``Layout``: used only by the renderer.

The map is drawn north up and **west left**: ``RRCC`` columns grow to the west, so
``x`` falls as the column grows; rows grow to the north, so ``y`` (SVG, downwards)
falls as the row grows.  Hexes are pointy-top in horizontal rows, and an even row
sits half a hex further west (left) than the odd rows around it.  In axial terms
(``engine.core.hexes.Hex``) that is Red Blob's pointy layout mirrored in both axes.

Besides hex geometry, :func:`page_layout` places the panels around the map: the
turn track and the nine boxes above it, the off-map boxes A-D and the "To place"
tray below it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from engine.core.hexes import Hex, hex_from_id

SQRT3 = math.sqrt(3.0)


class Point(NamedTuple):
    x: float
    y: float


class Rect(NamedTuple):
    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True)
class Layout:
    """Hex size (centre to corner, px) and the pixel position of axial ``Hex(0, 0)``."""

    size: float
    origin: Point

    @property
    def hex_width(self) -> float:
        """Distance between the centres of two neighbours (flat side to flat side)."""
        return SQRT3 * self.size

    @property
    def row_step(self) -> float:
        return 1.5 * self.size

    def hex_to_pixel(self, h: Hex) -> Point:
        return Point(self.origin.x - self.hex_width * (h.q + h.r / 2), self.origin.y - self.row_step * h.r)

    def centre(self, hex_id: str) -> Point:
        """Pixel centre of an ``RRCC`` id (any position, on the land or not)."""
        return self.hex_to_pixel(hex_from_id(hex_id))

    def corners(self, hex_id: str, scale: float = 1.0) -> list[Point]:
        """The six corners, clockwise on screen from the top; ``scale`` < 1 shrinks towards the centre."""
        c = self.centre(hex_id)
        r = self.size * scale
        return [Point(c.x + r * math.cos(math.radians(a)), c.y + r * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)]

    def edge(self, a: str | Hex, b: str | Hex) -> tuple[Point, Point]:
        """The two corner points of the hexside shared by adjacent hexes ``a`` and ``b``."""
        pa = self.hex_to_pixel(a if isinstance(a, Hex) else hex_from_id(a))
        pb = self.hex_to_pixel(b if isinstance(b, Hex) else hex_from_id(b))
        mx, my = (pa.x + pb.x) / 2, (pa.y + pb.y) / 2
        dx, dy = pb.x - pa.x, pb.y - pa.y
        k = self.size / 2 / math.hypot(dx, dy)  # half an edge along the perpendicular
        return Point(mx - dy * k, my + dx * k), Point(mx + dy * k, my - dx * k)

    def bounds(self, hex_ids: Iterable[str]) -> Rect:
        """Smallest rectangle holding the whole hexes (corners included)."""
        pts = [self.centre(h) for h in hex_ids]
        half_w, r = self.hex_width / 2, self.size
        x0, x1 = min(p.x for p in pts) - half_w, max(p.x for p in pts) + half_w
        y0, y1 = min(p.y for p in pts) - r, max(p.y for p in pts) + r
        return Rect(x0, y0, x1 - x0, y1 - y0)


def inset_band(p1: Point, p2: Point, centre: Point, depth: float) -> list[Point]:
    """A band along the edge ``p1``-``p2`` reaching ``depth`` (0..1) of the way to ``centre``."""
    return [p1, p2, Point(p2.x + (centre.x - p2.x) * depth, p2.y + (centre.y - p2.y) * depth),
            Point(p1.x + (centre.x - p1.x) * depth, p1.y + (centre.y - p1.y) * depth)]


# --- the whole sheet ---------------------------------------------------------

TOP_BOXES: tuple[tuple[str, str], ...] = (
    ("ijaaf_reserve", "IJAAF Reserve"), ("ijaaf_attack", "IJAAF Attack"),
    ("ijn_reserve", "IJN Reserve"), ("ijn_attack", "IJN Attack"),
    ("airfield:henderson", "Henderson Field"), ("airfield:fighter", "Fighter strip"),
    ("cap", "USAF CAP"), ("ga", "USAF Ground Attack"), ("usaf_reserve", "USAF Reserve"),
)


@dataclass(frozen=True)
class Page:
    """Where everything goes: hex layout, map frame and the panels (all in px)."""

    layout: Layout
    width: float
    height: float
    map: Rect
    header: Rect  # title and phase line
    turn_cells: tuple[Rect, ...]
    top_boxes: dict[str, Rect]
    off_map: dict[str, Rect]  # "A".."D"
    tray: Rect
    counter: float  # counter side


def page_layout(land: Iterable[str], extra: Iterable[str], boxes: dict[str, tuple[str, ...]], *,
                size: float = 38.0, margin: float = 12.0, turns: int = 15) -> Page:
    """Place the map (``land`` hexes plus ``extra`` positions such as entry points) and its panels.

    ``boxes`` maps each off-map box id to the south-edge hexes it leads to; each box is
    drawn under those hexes.
    """
    land = sorted(land)
    probe = Layout(size, Point(0.0, 0.0))
    b = probe.bounds([*land, *extra])
    counter = round(size * 0.92)
    gap = 6.0
    header = Rect(margin, margin, b.w, 22.0)
    track_y = header.y + header.h + 2
    cell_w = b.w / turns
    turn_cells = tuple(Rect(margin + i * cell_w, track_y, cell_w, 30.0) for i in range(turns))
    boxes_y = track_y + 30.0 + gap
    box_h = 20.0 + 3 * (counter + 4) + 4
    box_w = (b.w - gap * (len(TOP_BOXES) - 1)) / len(TOP_BOXES)
    top_boxes = {key: Rect(margin + i * (box_w + gap), boxes_y, box_w, box_h) for i, (key, _) in enumerate(TOP_BOXES)}
    map_rect = Rect(margin, boxes_y + box_h + gap, b.w, b.h)
    layout = Layout(size, Point(map_rect.x - b.x, map_rect.y - b.y))
    off_y = map_rect.y + map_rect.h + gap
    off_h = 18.0 + counter + 14
    off_map = {}
    for key, hexes in boxes.items():
        xs = [layout.centre(h).x for h in hexes]
        x0 = min(xs) - layout.hex_width / 2 + 2
        x1 = max(xs) + layout.hex_width / 2 - 2
        off_map[key] = Rect(x0, off_y, x1 - x0, off_h)
    tray = Rect(margin, off_y + off_h + gap, b.w, 18.0 + counter + 14)
    height = tray.y + tray.h + 18 + margin
    return Page(layout, b.w + 2 * margin, height, map_rect, header, turn_cells, top_boxes, off_map, tray, counter)
