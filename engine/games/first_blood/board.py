"""The First Blood map: terrain of hexes and hexsides, entry points, boxes.

Loaded from ``data/map.toml`` (a reconstruction: the printed map is not in the
rulebook) and validated on load, so a bad edit fails loudly at import time.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from engine.core.hexes import are_adjacent, neighbor_ids, parse_hex_id

DATA = Path(__file__).parent / "data"
CENTRES = ("clear", "beach", "jungle", "rough")


@dataclass(frozen=True)
class Terrain:
    id: str
    centre: str  # clear | beach | jungle | rough; "jungle" = jungle for combat (§2.1, §7.1)
    high: bool  # high ground; a hexside between high and low ground is a ridge
    jungle_edges: frozenset[str]  # neighbours from which entering this hex costs +1 (§6.1)
    label: str = ""


@dataclass(frozen=True)
class EntryPoint:
    id: str
    side: str  # "US" | "IJ"
    name: str
    at: str  # where it is drawn (an RRCC position just off the land)
    hexes: tuple[str, ...]  # the hexes it points to
    group: str  # US: "east" | "west" (§5.3 attack upon entry); IJ: edge name


@dataclass(frozen=True)
class OffMapBox:
    id: str  # "A".."D", west to east
    name: str
    hexes: tuple[str, ...]  # map hexes a unit in the box may enter (§6.5)


@dataclass(frozen=True, eq=False)
class Board:
    hexes: dict[str, Terrain]
    rivers: frozenset[frozenset[str]]
    bridges: frozenset[frozenset[str]]
    henderson: tuple[str, ...]
    fighter_strip: tuple[str, ...]
    setup_rows: tuple[int, int]
    setup_cols: tuple[int, int]
    entries: dict[str, EntryPoint]
    boxes: dict[str, OffMapBox]
    labels: dict[str, str] = field(default_factory=dict)
    note: str = ""
    adjacent: dict[str, tuple[str, ...]] = field(default_factory=dict)

    steps: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        adj = {h: tuple(n for n in neighbor_ids(h) if n in self.hexes) for h in self.hexes}
        object.__setattr__(self, "adjacent", adj)
        # (neighbour, MF to enter it) for every hex: the inner loop of every path search
        object.__setattr__(self, "steps", {h: tuple((n, self.move_cost(h, n)) for n in adj[h]) for h in adj})

    # --- terrain queries -------------------------------------------------
    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.hexes

    def neighbors(self, hex_id: str) -> tuple[str, ...]:
        return self.adjacent[hex_id]

    def is_river(self, a: str, b: str) -> bool:
        """A river hexside that is not bridged (§2.1: the bridge counts as clear)."""
        side = frozenset((a, b))
        return side in self.rivers and side not in self.bridges

    def is_ridge(self, a: str, b: str) -> bool:
        return self.hexes[a].high != self.hexes[b].high

    def is_jungle_edge(self, frm: str, to: str) -> bool:
        return frm in self.hexes[to].jungle_edges

    def is_jungle_hex(self, hex_id: str) -> bool:
        return self.hexes[hex_id].centre == "jungle"

    def move_cost(self, frm: str, to: str) -> int:
        """MF to move between adjacent map hexes (§6.1, Table 1)."""
        cost = 1
        if self.is_jungle_edge(frm, to):
            cost += 1
        if self.is_ridge(frm, to):
            cost += 1
        if self.is_river(frm, to):
            cost += 2
        return cost

    @property
    def airstrips(self) -> tuple[str, ...]:
        return self.henderson + self.fighter_strip

    def in_setup_area(self, hex_id: str) -> bool:
        row, col = parse_hex_id(hex_id)
        return (self.setup_rows[0] <= row <= self.setup_rows[1]
                and self.setup_cols[0] <= col <= self.setup_cols[1] and hex_id in self.hexes)


def _pairs(raw: list[list[str]], hexes: dict[str, Terrain], what: str) -> frozenset[frozenset[str]]:
    out = set()
    for a, b in raw:
        if a not in hexes or b not in hexes:
            raise ValueError(f"map: {what} {a}-{b} names a hex that is not on the map")
        if not are_adjacent(a, b):
            raise ValueError(f"map: {what} {a}-{b} joins hexes that are not adjacent")
        out.add(frozenset((a, b)))
    return frozenset(out)


def parse_board(raw: dict) -> Board:
    hexes: dict[str, Terrain] = {}
    for hex_id, spec in raw["hexes"].items():
        parse_hex_id(hex_id)
        centre = spec.get("c", "clear")
        if centre not in CENTRES:
            raise ValueError(f"map: hex {hex_id} has unknown centre terrain {centre!r}")
        edges = spec.get("jungle_edges", [])
        if edges == "all":
            edges = list(neighbor_ids(hex_id))
        for n in edges:
            if not are_adjacent(hex_id, n):
                raise ValueError(f"map: hex {hex_id} lists jungle edge towards non-neighbour {n}")
        hexes[hex_id] = Terrain(hex_id, centre, bool(spec.get("high", False)),
                                frozenset(edges), spec.get("label", ""))
    rivers = _pairs(raw["rivers"]["sides"], hexes, "river")
    bridges = _pairs(raw["rivers"].get("bridges", []), hexes, "bridge")
    if not bridges <= rivers:
        raise ValueError("map: every bridge must cross a river hexside")
    strips = raw["airstrips"]
    for h in strips["henderson"] + strips["fighter"]:
        if h not in hexes:
            raise ValueError(f"map: air strip {h} is not a land hex")
    entries = {}
    for e in raw["entry"]:
        for h in e["hexes"]:
            if h not in hexes:
                raise ValueError(f"map: entry point {e['id']} points to {h}, not a land hex")
        if e["side"] not in ("US", "IJ"):
            raise ValueError(f"map: entry point {e['id']} has unknown side {e['side']!r}")
        entries[e["id"]] = EntryPoint(e["id"], e["side"], e["name"], e["at"], tuple(e["hexes"]),
                                      e.get("group", ""))
    boxes = {}
    for b in raw["box"]:
        for h in b["hexes"]:
            if h not in hexes:
                raise ValueError(f"map: box {b['id']} leads to {h}, not a land hex")
        boxes[b["id"]] = OffMapBox(b["id"], b["name"], tuple(b["hexes"]))
    if list(boxes) != ["A", "B", "C", "D"]:
        raise ValueError("map: the off-map boxes must be A, B, C, D from west to east (§6.5)")
    area = raw["setup_area"]
    return Board(
        hexes=hexes, rivers=rivers, bridges=bridges,
        henderson=tuple(strips["henderson"]), fighter_strip=tuple(strips["fighter"]),
        setup_rows=tuple(area["rows"]), setup_cols=tuple(area["cols"]),
        entries=entries, boxes=boxes,
        labels=dict(raw.get("labels", {})), note=raw["meta"]["note"],
    )


@cache
def load_board(path: Path = DATA / "map.toml") -> Board:
    with open(path, "rb") as fh:
        return parse_board(tomllib.load(fh))
