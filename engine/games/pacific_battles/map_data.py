"""The Pacific Battles map of Guadalcanal as data for a client (``GET /api/games/{id}/map``):
every hex with its terrain (the sea too), the hexsides that matter (rivers and streams,
bridges, road and trail links), the roads and trails, the named places, the nine objective
hexes (the ports, 26.8), Henderson Field, the off-map bases (26.2) and the Terrain Effects
Chart, in the schema both games share (docs/api-map.md).  Read from the same ``Board`` the
rules and the SVG board use, so the three cannot disagree."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.games.pacific_battles import terrain
from engine.games.pacific_battles.board import load_board

HENDERSON = "Henderson Field"


@cache
def map_data() -> dict[str, Any]:
    b = load_board()
    hexes: list[dict[str, Any]] = [{"id": h, "terrain": t, "coastal": h in b.coastal}
                                   for h, t in sorted(b.terrain.items())]
    hexes += [{"id": h, "terrain": terrain.SEA, "coastal": False} for h in sorted(b.sea)]
    hexes.sort(key=lambda x: x["id"])
    sides: list[dict[str, Any]] = []
    for side, name in sorted(b.rivers.items(), key=lambda kv: sorted(kv[0])):
        sides.append({"hexes": sorted(side), "kind": "bridge" if side in b.bridges else "river", "name": name})
    for side, kind in sorted(b.links.items(), key=lambda kv: sorted(kv[0])):
        sides.append({"hexes": sorted(side), "kind": kind})
    chart = {t.name: {"movement": [t.infantry, t.mechanised], "defence_shift": t.defence,
                      "bombardment_shift": t.bombardment, "open_to_recon": t.open_to_recon}
             for t in terrain.TERRAIN.values()}
    chart["hexsides"] = {h.name: {"movement_extra": [h.infantry, h.mechanised], "defence_shift": h.defence}
                         for h in terrain.HEXSIDES.values()}
    chart["paths"] = {kind: {"movement": list(cost)} for kind, cost in terrain.ROAD.items()}
    chart["note"] = ("movement: points to enter, [non-mechanised, mechanised], null where prohibited (11.5); "
                     "shifts: columns left for the defender (14.33, 16.81). RECONSTRUCTED (terrain.py)")
    return {
        "game": "pacific_battles", "note": b.note,
        "hex_ids": "RRCC: two digits of row (growing north), two of column (growing west); an odd row "
                   "sits half a hex east of the even rows around it",
        "hexes": hexes, "hexsides": sides,
        "places": [{"name": name, "hex": h} for name, h in sorted(b.places.items())],
        "objectives": list(b.objectives), "airfields": [b.places[HENDERSON]], "ports": list(b.objectives),
        "boxes": [{"id": base, "name": base, "side": side, "hexes": []} for base, side in sorted(b.bases.items())],
        "entries": [],
        "paths": [{"name": name, "kind": b.path_kind[name], "hexes": list(path)}
                  for name, path in sorted(b.paths.items())],
        "areas": [],
        "terrain": chart,
    }
