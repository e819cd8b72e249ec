"""The map of Guadalcanal: the hex grid laid over the island's geography.

``data/guadalcanal.toml`` (a reconstruction) describes the island in kilometres: the
coasts, the places, zones of ground, the rivers, the roads and trails.  Here the grid
is laid over it: a hex is land when its centre is, takes the ground of the last zone
that covers it, a river runs along every hexside whose centres it separates, and a
road or trail is the chain of hexes along its waypoints.  Hex ids are First Blood's
``RRCC`` (rows grow north, columns west: ``engine/core/hexes.py``).
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.hexes import are_adjacent, format_hex_id, neighbor_ids, parse_hex_id
from engine.games.pacific_battles.terrain import HEXSIDES, ROAD, TERRAIN, enter_cost

DATA = Path(__file__).parent / "data" / "guadalcanal.toml"
Point = tuple[float, float]


@dataclass(frozen=True, eq=False)
class Board:
    terrain: dict[str, str]  # land hex -> terrain name (terrain.TERRAIN)
    sea: frozenset[str]  # all-sea hexes of the grid
    coastal: frozenset[str]  # land hexes next to the sea
    rivers: dict[frozenset[str], str]  # hexside -> river name
    bridges: frozenset[frozenset[str]]
    paths: dict[str, tuple[str, ...]]  # road or trail name -> its hexes in order
    path_kind: dict[str, str]  # name -> "road" | "trail"
    places: dict[str, str]  # place name -> hex
    objectives: tuple[str, ...]  # objective hexes, west to east: the ports (26.8)
    bases: dict[str, str]  # off-map base -> the side it belongs to (26.2)
    note: str
    links: dict[frozenset[str], str] = field(default_factory=dict)  # hexside -> "road" | "trail"
    km: dict[str, Point] = field(default_factory=dict)  # land hex -> its centre, km east and south
    # hex -> its land neighbours, as asked (the movement search, the ZOCs and the fog ask
    # them of the same hexes over and over; working them out from the id each time was a
    # tenth of what a side may not know)
    _around: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False)

    def land(self, hex_id: str) -> bool:
        return hex_id in self.terrain

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        found = self._around.get(hex_id)
        if found is None:
            found = tuple(n for n in neighbor_ids(hex_id) if n in self.terrain)
            if hex_id in self.terrain or hex_id in self.sea:  # the grid's: not any id a command names
                self._around[hex_id] = found
        return found

    def cost(self, a: str, b: str, mechanised: bool, bridged: bool = False) -> int | None:
        """Movement points to step from ``a`` into the adjacent ``b`` (None: not allowed);
        ``bridged``: an engineer bridges the hexside (20.2)."""
        if b not in self.terrain:
            return None
        side = frozenset((a, b))
        return enter_cost(self.terrain[b], mechanised, hexside=self.rivers.get(side) and "river",
                          path=self.links.get(side), bridged=bridged or side in self.bridges)


def _interp(points: list[list[float]], x: float) -> float:
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0) if x1 != x0 else y0
    return points[0][1] if x < points[0][0] else points[-1][1]


class _Grid:
    def __init__(self, spec: dict[str, Any]) -> None:
        self.w = float(spec["hex_km"])
        self.h = self.w * math.sqrt(3) / 2
        self.cols, self.rows = int(spec["columns"]), int(spec["rows"])

    def centre(self, hex_id: str) -> Point:
        row, col = parse_hex_id(hex_id)
        x = (self.cols - 1 - col) * self.w + (self.w / 2 if row % 2 else 0.0)
        y = (self.rows - 1.5 - row) * self.h
        return x, y

    def ids(self) -> list[str]:
        return [format_hex_id(r, c) for r in range(self.rows) for c in range(self.cols)]

    def nearest(self, p: Point) -> str:
        return min(self.ids(), key=lambda h: math.dist(self.centre(h), p))


def _crosses(p: Point, q: Point, a: Point, b: Point) -> bool:
    """Whether segment p-q crosses segment a-b."""
    def side(o: Point, s: Point, t: Point) -> float:
        return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])
    return side(p, q, a) * side(p, q, b) < 0 and side(a, b, p) * side(a, b, q) < 0


def _build(spec: dict[str, Any]) -> Board:
    grid = _Grid(spec)
    north, south = spec["north_coast"], spec["south_coast"]
    places = {name: grid.nearest((p["x"], p["y"])) for name, p in spec["places"].items()}
    terrain: dict[str, str] = {}
    for h in grid.ids():
        x, y = grid.centre(h)
        if (0 <= x <= south[-1][0] and _interp(north, x) <= y <= _interp(south, x)) or h in places.values():
            ground = "jungle"
            for z in spec["zones"]:
                lo, hi = z["x"]
                if not lo <= x <= hi:
                    continue
                depth = y - _interp(north, x)
                height = _interp(south, x) - y
                band = depth if "depth" in z else height
                if z.get("depth", z.get("height"))[0] <= band <= z.get("depth", z.get("height"))[1]:
                    ground = z["terrain"]
            terrain[h] = ground
    for name, p in spec["places"].items():
        if p["terrain"]:
            terrain[places[name]] = p["terrain"]
    sea = frozenset(h for h in grid.ids() if h not in terrain)
    coastal = frozenset(h for h in terrain
                        if any(n in sea or n not in terrain for n in neighbor_ids(h)) or _edge(h, grid))
    rivers: dict[frozenset[str], str] = {}
    for name, line in spec["rivers"].items():
        segments = list(zip(line, line[1:], strict=False))
        for h in terrain:
            for n in neighbor_ids(h):
                if n in terrain and h < n and any(_crosses(grid.centre(h), grid.centre(n), tuple(a), tuple(b))
                                                  for a, b in segments):
                    rivers[frozenset((h, n))] = name
    paths: dict[str, tuple[str, ...]] = {}
    kind: dict[str, str] = {}
    for table, k in (("roads", "road"), ("trails", "trail")):
        for name, points in spec[table].items():
            paths[name] = _path(grid, [_where(spec, p) for p in points], terrain)
            kind[name] = k
    links: dict[frozenset[str], str] = {}
    for name, hexes in paths.items():
        for a, b in zip(hexes, hexes[1:], strict=False):
            side = frozenset((a, b))
            if links.get(side) != "road":
                links[side] = kind[name]
    bridged = set(spec["bridges"])
    bridges = frozenset(s for s, river in rivers.items() if river in bridged and links.get(s) == "road")
    objectives = tuple(sorted((places[n] for n, p in spec["places"].items() if p["objective"]),
                              key=lambda h: grid.centre(h)[0]))
    board = Board(terrain, sea, coastal, rivers, bridges, paths, kind, places, objectives,
                  dict(spec["bases"]), spec["note"], links, {h: grid.centre(h) for h in terrain})
    _validate(board)
    return board


def _edge(h: str, grid: _Grid) -> bool:
    row, col = parse_hex_id(h)
    return row in (0, grid.rows - 1) or col in (0, grid.cols - 1)


def _where(spec: dict[str, Any], p: Any) -> Point:
    if isinstance(p, str):
        place = spec["places"][p]
        return float(place["x"]), float(place["y"])
    return float(p[0]), float(p[1])


def _path(grid: _Grid, points: list[Point], terrain: dict[str, str]) -> tuple[str, ...]:
    """The land hexes along straight legs between the points, each next to the one before,
    through every point's hex, without the zigzags of a line between two rows."""
    out: list[str] = []
    pinned = {min(terrain, key=lambda c: math.dist(grid.centre(c), p)) for p in points}
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        steps = max(1, int(math.dist((x0, y0), (x1, y1)) / 0.25))
        for i in range(steps + 1):
            p = (x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            land = [h for h in terrain if math.dist(grid.centre(h), p) < 2 * grid.w]
            h = min(land, key=lambda c: math.dist(grid.centre(c), p))
            if not out or out[-1] != h:
                if out and not are_adjacent(out[-1], h):  # a corner cut between two hexes: go round
                    via = min((n for n in neighbor_ids(out[-1]) if n in terrain and are_adjacent(n, h)),
                              key=lambda c: math.dist(grid.centre(c), p))
                    out.append(via)
                while len(out) >= 2 and out[-1] not in pinned and are_adjacent(out[-2], h):
                    out.pop()  # a step sideways and back: straight on instead
                out.append(h)
    return tuple(out)


def _validate(board: Board) -> None:
    assert set(board.terrain.values()) <= set(TERRAIN), "unknown terrain"
    assert set(board.rivers.values()) and all(len(s) == 2 for s in board.rivers), "rivers"
    assert "river" in HEXSIDES and set(board.path_kind.values()) <= set(ROAD)
    for name, hexes in board.paths.items():
        assert all(are_adjacent(a, b) for a, b in zip(hexes, hexes[1:], strict=False)), f"{name} is broken"
    assert all(h in board.coastal for h in board.objectives), "every objective is on the coast (26.8)"


@cache
def load_board() -> Board:
    with DATA.open("rb") as f:
        return _build(tomllib.load(f))
