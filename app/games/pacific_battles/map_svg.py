"""The reconstructed map of Guadalcanal for Pacific Battles as SVG: terrain by hex, the
sea, rivers along hexsides, the coast road and the trails, places and objective hexes,
the off-map bases, and the note that it is a reconstruction.  Drawn once per process
from ``engine/games/pacific_battles/board.py`` and served as its own file
(``app/games/maps.py``), which a page's map (``map_frame``) shows under its counters:
the same in every game, so a browser fetches it once instead of with every page.  A
click on it is told a hex by the page's script from the grid (``grid``)."""

from __future__ import annotations

import math
from functools import cache

from app.games.maps import map_url, publish
from app.render.counters import n, text
from engine.core.hexes import parse_hex_id
from engine.games.pacific_battles.board import Board, load_board

PX_PER_KM = 12.0
MARGIN_KM = 3.0
BASES_KM = 10.0  # the strip below the island for the off-map bases (26.2)
HEX_RADIUS = 3.0 / math.sqrt(3) * PX_PER_KM  # pointy-top hexes 3 km across the flats, centre to corner
COLOURS = {"clear": "#e8e2a8", "cultivated": "#c9dc8a", "village": "#e0c9a0", "airfield": "#d9d2c3",
           "marsh": "#a8c8b8", "jungle": "#4f8a3c", "hills": "#b59a62", "mountain": "#8a6e4b"}


def _point(board: Board, h: str) -> tuple[float, float]:
    x, y = board.km[h]
    return (x + MARGIN_KM) * PX_PER_KM, (y + MARGIN_KM) * PX_PER_KM


def _corners(cx: float, cy: float, r: float) -> str:
    angles = [math.radians(60 * i - 30) for i in range(6)]
    return " ".join(f"{n(cx + r * math.cos(a))},{n(cy + r * math.sin(a))}" for a in angles)


def _extent(board: Board) -> tuple[float, float, float]:
    """The map's width, the island's height and the whole height, in map pixels."""
    xs = [p[0] for p in board.km.values()]
    ys = [p[1] for p in board.km.values()]
    width = (max(xs) + 2 * MARGIN_KM) * PX_PER_KM
    island = (max(ys) + 2 * MARGIN_KM) * PX_PER_KM
    return width, island, island + BASES_KM * PX_PER_KM


@cache
def viewbox() -> str:
    """The map's viewBox, shared by the layer drawn over it."""
    width, _, height = _extent(load_board())
    return f"0 0 {n(width)} {n(height)}"


@cache
def grid() -> tuple[float, float, float, float, float, float]:
    """The hex grid in map pixels: hex (row, col) is centred at (ox + col * sx + (half if
    the row is odd), oy + row * sy), as ``(ox, oy, sx, sy, half, radius)``; read off the
    board's own centres and checked against every one of them."""
    board = load_board()
    rc = {h: parse_hex_id(h) for h in board.km}
    first, last = min(rc, key=rc.get), max(rc, key=rc.get)  # rows apart
    even = sorted((c, h) for h, (r, c) in rc.items() if r % 2 == 0)  # columns apart, in a row unshifted
    (ca, ha), (cb, hb) = even[0], even[-1]
    sx = (_point(board, hb)[0] - _point(board, ha)[0]) / (cb - ca)
    ox = _point(board, ha)[0] - ca * sx
    sy = (_point(board, last)[1] - _point(board, first)[1]) / (rc[last][0] - rc[first][0])
    oy = _point(board, first)[1] - rc[first][0] * sy
    odd = next(h for h, (r, _) in rc.items() if r % 2)
    half = _point(board, odd)[0] - ox - rc[odd][1] * sx
    for h, (r, c) in rc.items():
        x, y = _point(board, h)
        assert math.isclose(x, ox + c * sx + (half if r % 2 else 0), abs_tol=1e-6), h
        assert math.isclose(y, oy + r * sy, abs_tol=1e-6), h
    return ox, oy, sx, sy, half, HEX_RADIUS


def map_frame(layer: str = "") -> str:
    """The map as a page shows it: the published drawing under ``layer`` (a moment's
    counters, drawn into the same picture), with the grid a click is read by."""
    width, _, height = _extent(load_board())
    note = text(load_board().note)
    role = "group" if layer else "img"  # (with counters on it a picture no more: an image may hold no buttons)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="pb-map" viewBox="{viewbox()}" role="{role}" '
            f'aria-label="{note}" data-grid="{" ".join(format(v, ".7g") for v in grid())}"><title>{note}</title>'
            f'<image class="terrain" href="{map_url("pacific_battles")}" x="0" y="0" width="{n(width)}" '
            f'height="{n(height)}"/>{layer}</svg>')


PLACE_FONT = 11  # px, the places' names
# where a place's name may go, tried in turn: (x, y) from the hex's centre in radii, and the
# text's anchor; the first spot whose box overlaps no name placed before it is taken
LABEL_SPOTS = ((0, -0.55, "middle"), (0, 0.85, "middle"), (0.2, -0.55, "start"), (-0.2, -0.55, "end"),
               (0.2, 0.85, "start"), (-0.2, 0.85, "end"), (0, -1.1, "middle"), (0, 1.4, "middle"))


def place_labels(board: Board, radius: float) -> dict[str, tuple[float, float, str]]:
    """Each place's name where it overprints no other (neighbouring places, such as Gifu,
    Mount Austen and Edson's Ridge, would otherwise share one line): (x, y, anchor).  A
    name's width is reckoned from its letters (bold italic sans-serif, about 0.62 em each)."""
    placed: dict[str, tuple[float, float, str]] = {}
    boxes: list[tuple[float, float, float, float]] = []

    def box(x: float, y: float, anchor: str, width: float) -> tuple[float, float, float, float]:
        left = x - width / 2 if anchor == "middle" else x if anchor == "start" else x - width
        return left, y - PLACE_FONT, left + width, y + 2

    def overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
        return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))

    for name, h in sorted(board.places.items(), key=lambda kv: (kv[1] not in board.objectives, kv[0])):
        cx, cy = _point(board, h)
        width = len(name) * PLACE_FONT * 0.62
        spots = [(cx + dx * radius, cy + dy * radius, anchor) for dx, dy, anchor in LABEL_SPOTS]
        best = min(spots, key=lambda sp: sum(overlap(box(*sp, width), b) for b in boxes))  # (the first of equals)
        placed[name] = best
        boxes.append(box(*best, width))
    return placed


@cache
def render_pacific_map() -> str:
    board = load_board()
    radius = HEX_RADIUS
    width, island, height = _extent(board)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="pb-map" viewBox="0 0 {n(width)} {n(height)}" '
           f'role="img" aria-label="{text(board.note)}">',
           f"<title>{text(board.note)}</title>",
           f'<rect class="sea" x="0" y="0" width="{n(width)}" height="{n(island)}" fill="#9cc3e0"/>',
           '<g class="hexes">']
    for h in sorted(board.terrain):
        cx, cy = _point(board, h)
        t = board.terrain[h]
        out.append(f'<polygon class="hex terrain-{t}" data-hex="{h}" points="{_corners(cx, cy, radius)}" '
                   f'fill="{COLOURS[t]}" stroke="#55554a" stroke-width="0.6"><title>{h}: {t}</title></polygon>')
    out.append('</g><g class="rivers" stroke="#2f6fb0" stroke-width="3" stroke-linecap="round">')
    for side, name in sorted(board.rivers.items(), key=lambda kv: sorted(kv[0])):
        a, b = sorted(side)
        (ax, ay), (bx, by) = _point(board, a), _point(board, b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        px, py = -dy / length * radius / 2, dx / length * radius / 2
        bridged = ' class="bridged"' if side in board.bridges else ""
        out.append(f'<line{bridged} x1="{n(mx + px)}" y1="{n(my + py)}" x2="{n(mx - px)}" y2="{n(my - py)}">'
                   f"<title>{text(name)}</title></line>")
    out.append("</g>")
    for name, hexes in board.paths.items():
        kind = board.path_kind[name]
        pts = " ".join(f"{n(x)},{n(y)}" for x, y in (_point(board, h) for h in hexes))
        dash = "" if kind == "road" else ' stroke-dasharray="6 4"'
        colour = "#7a3b12" if kind == "road" else "#5a4a32"
        out.append(f'<polyline class="{kind}" points="{pts}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}>'
                   f"<title>{text(name)}</title></polyline>")
    out.append(f'<g class="places" font-family="sans-serif" font-size="{PLACE_FONT}">')
    for _, h in sorted(board.places.items()):
        cx, cy = _point(board, h)
        if h in board.objectives:
            out.append(f'<circle class="objective" data-hex="{h}" cx="{n(cx)}" cy="{n(cy)}" r="6" fill="#fff" '
                       f'stroke="#b01c1c" stroke-width="2.5"><title>Objective hex and port (26.8)</title></circle>')
    for name, (x, y, anchor) in place_labels(board, radius).items():
        out.append(f'<text class="place" x="{n(x)}" y="{n(y)}" text-anchor="{anchor}">{text(name)}</text>')
    out.append("</g>")
    y0 = island + 2 * PX_PER_KM
    for i, (base, side) in enumerate(sorted(board.bases.items())):
        x0 = (MARGIN_KM + 5 + i * 60) * PX_PER_KM
        out.append(f'<g class="base" data-base="{text(base)}"><rect x="{n(x0)}" y="{n(y0)}" '
                   f'width="{n(50 * PX_PER_KM)}" height="{n(6 * PX_PER_KM)}" fill="#f4efe0" stroke="#55554a"/>'
                   f'<text x="{n(x0 + 8)}" y="{n(y0 + 20)}" font-family="sans-serif" font-size="13">'
                   f"{text(base)} ({text(side)} base, off the map: 26.2)</text></g>")
    out.append(f'<text class="note" x="{n(width - 8)}" y="{n(height - 8)}" text-anchor="end" '
               f'font-family="sans-serif" font-size="12">{text(board.note)}</text>')
    out.append("</svg>")
    return "".join(out)


publish("pacific_battles", render_pacific_map)
