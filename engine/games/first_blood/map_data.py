"""The First Blood map as data for a client (``GET /api/games/{id}/map``): every hex with
its terrain, every hexside that matters (rivers, bridges, ridges, jungle sides), the named
places, Henderson Field and the fighter strip, the off-map boxes, the entry points and the
US set-up area, in the schema both games share (docs/api-map.md).  Read from the same
``Board`` the rules and the SVG board use, so the three cannot disagree."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.games.first_blood.board import load_board


@cache
def map_data() -> dict[str, Any]:
    b = load_board()
    hexes = []
    for h, t in sorted(b.hexes.items()):
        entry: dict[str, Any] = {"id": h, "terrain": t.centre, "high_ground": t.high}
        if t.label:
            entry["label"] = t.label
        hexes.append(entry)
    sides: list[dict[str, Any]] = []
    for side in sorted(b.rivers, key=sorted):
        sides.append({"hexes": sorted(side), "kind": "bridge" if side in b.bridges else "river"})
    for h in sorted(b.hexes):
        for n in b.neighbors(h):
            if h < n and b.is_ridge(h, n):
                sides.append({"hexes": [h, n], "kind": "ridge"})
    for h, t in sorted(b.hexes.items()):
        for n in sorted(t.jungle_edges):
            if n in b.hexes:  # entering ``h`` from ``n`` costs one more (§6.1)
                sides.append({"hexes": sorted((h, n)), "kind": "jungle", "entering": h})
    rows, cols = b.setup_rows, b.setup_cols
    setup = sorted(h for h in b.hexes if b.in_setup_area(h))
    return {
        "game": "first_blood", "note": b.note,
        "hex_ids": "RRCC: two digits of row (growing north), two of column (growing west); an odd row "
                   "sits half a hex east of the even rows around it",
        "hexes": hexes, "hexsides": sides,
        "places": [{"name": name, "hex": h} for h, name in sorted(b.labels.items())]
                  + [{"name": "Henderson Field", "hex": h} for h in b.henderson]
                  + [{"name": "Fighter strip", "hex": h} for h in b.fighter_strip],
        "objectives": list(b.henderson), "airfields": list(b.airstrips), "ports": [],
        "boxes": [{"id": x.id, "name": x.name, "side": None, "hexes": list(x.hexes)} for x in b.boxes.values()],
        "entries": [{"id": e.id, "side": e.side, "name": e.name, "group": e.group, "hexes": list(e.hexes)}
                    for e in b.entries.values()],
        "paths": [],
        "areas": [{"name": f"US set-up area, rows {rows[0]:02d}-{rows[1]:02d}, columns {cols[0]:02d}-{cols[1]:02d} "
                           "(§3)", "side": "US", "hexes": setup}],
        "terrain": {
            "clear": {"movement": 1}, "beach": {"movement": 1}, "rough": {"movement": 1},
            "jungle": {"movement": 1, "note": "a jungle hex for combat (§7.1); jungle hexsides cost the extra"},
            "hexsides": {"jungle": {"movement_extra": 1}, "ridge": {"movement_extra": 1},
                         "river": {"movement_extra": 2}, "bridge": {"movement_extra": 0}},
            "rule": "§6.1, Table 1",
        },
    }

