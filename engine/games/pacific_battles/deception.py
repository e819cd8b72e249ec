"""Deception markers (optional 34.1-34.4 with the scenario's 35.2): stacks that are nothing.

They come face down: the enemy sees one more stack (with no ZOC, 18.4) and nothing else.
They are placed on or next to friendly units but never next to an enemy unit (34.1), or
where the turn's reinforcements land; they move like units (34.3); the instant one is next
to an enemy land unit, or its hex is examined, it is shown and removed (34.2, 34.3)."""

from __future__ import annotations

from engine.core.game import Emitter
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import tell
from engine.games.pacific_battles.forces import DECEPTION
from engine.games.pacific_battles.state import SIDES, PBState, other

OPTION = "deception"
AT_START = {"Japanese": 6, "Allied": 0}  # 35.2: initial deployment
EACH_TURN = {"Japanese": 1, "Allied": 2}  # 35.2: September 1942 to the end of the game
FROM_TURN = 2
WITH_MARKER = {"Operation KA-GO": 2, "Operation KE": 2}  # 35.2: on the turn picked / implemented


def on(state: PBState) -> bool:
    return bool(state.options.get(OPTION))


def add(em: Emitter, side: str, count: int, due: int) -> None:
    """``count`` markers onto ``side``'s track, due on turn ``due`` (0: the set-up)."""
    if count <= 0:
        return
    ids = q.new_ids(em.state, side, count)
    tell.secret(em, "pieces_added", side, {"side": side, "deception": count}, side=side,
                pieces=[[i, DECEPTION, "track", due, False] for i in ids], new_ids=count)


def placement_hexes(state: PBState, side: str) -> set[str]:
    """34.1: on or next to a friendly unit, in a hex next to no enemy unit."""
    return {h for h in q.around_units(state, side) if h in q.board().terrain} - q.around_units(state, other(side))


def sweep(em: Emitter) -> None:
    """34.2, 34.3: markers next to an enemy land unit, or in a hex the enemy examined, go."""
    s: PBState = em.state
    if not any(p.unit == DECEPTION for p in s.pieces.values()):
        return
    for side in SIDES:
        touching = q.around_units(s, other(side))
        gone = [p for p in s.on_map(side) if p.unit == DECEPTION
                and (p.hex in touching or p.hex in s.examined[other(side)])]
        for hex_id in sorted({p.hex for p in gone}):
            ids = sorted(p.id for p in gone if p.hex == hex_id)
            tell.secret(em, "pieces_removed", side, {"owner": side, "hex": hex_id, "what": "a deception marker",
                                                      "deception": len(ids)},
                        ids=ids, box="mix", owner=side, unit=DECEPTION, why="shown: a deception marker (34.2)")
