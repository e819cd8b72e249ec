"""Fog of war (18.0): what one side may see of the other's stacks.

A side sees its own units whole.  Of an enemy stack it sees that it is there, whether it
has a ZOC (18.4: always announced) and whether it is fortified (18.5); its units only when
the stack has been examined (18.1 adjacent at the start of a friendly combat phase, 18.2
air recon, 18.7 markers) or the game is over.  Enemy units off the map (the reinforcement
track, 18.6; the off-map base) are never shown.  The pieces a side may not see never reach
its view: the server sends the view, and nothing else, to that side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.games.pacific_battles.forces import Forces
from engine.games.pacific_battles.movement import Piece, has_zoc, spec_of


def seen_by(forces: Forces, pieces: Iterable[Piece], side: str | None, examined: Iterable[str] = (),
            fortified: Iterable[str] = (), everything: bool = False) -> dict[str, Any]:
    """``side``'s picture of the map (None: a spectator, who sees what both sides may see:
    every stack as unknown).

    ``examined``: hexes whose enemy stacks ``side`` has examined this phase;
    ``fortified``: hexes with a fortification marker; ``everything``: the game is over."""
    examined, fortified = set(examined), set(fortified)
    own: list[dict[str, Any]] = []
    enemy: dict[str, dict[str, Any]] = {}
    for p in pieces:
        spec = spec_of(forces, p)
        unit = {"id": p.id, "unit": p.unit, "side": p.side, "hex": p.hex, "suppressed": p.suppressed,
                "factors": None if spec is None else [spec.attack, spec.defence, spec.movement]}
        if everything or (side is not None and p.side == side):
            own.append(unit)
            continue
        stack = enemy.setdefault(p.hex, {"hex": p.hex, "side": p.side, "zoc": False, "fortified": p.hex in fortified,
                                         "units": None})
        stack["zoc"] = stack["zoc"] or has_zoc(forces, p)
        if side is not None and p.hex in examined:
            stack["units"] = [*(stack["units"] or []), unit]
    return {"units": own, "stacks": sorted(enemy.values(), key=lambda s: s["hex"])}
