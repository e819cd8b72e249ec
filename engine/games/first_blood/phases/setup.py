"""§3 Initial set-up: the US inside the blue line, then the IJ in boxes A or D."""

from __future__ import annotations

from engine.games.first_blood import queries as q
from engine.games.first_blood.phases.movement import STACK_LIMIT
from engine.games.first_blood.state import ARRIVING, CAP, GROUND_ATTACK, FBState, box_loc, strip_loc


def setup_targets(state: FBState, uid: str) -> list[str]:
    s = q.spec(uid)
    if s.side == "IJ":
        return [box_loc("A"), box_loc("D")] if s.kind == "ground" else []
    if s.kind == "ground":
        b = q.board()
        occ = q.occupancy(state)
        return [h for h in b.hexes if b.in_setup_area(h) and len(occ.get(h, ())) < STACK_LIMIT]
    # USAF: Henderson's hexes, CAP (fighters) or Ground Attack (bombers)
    targets = [strip_loc(h) for h in q.board().henderson]
    if q.can_fly_cap(uid):
        targets.append(CAP)
    if q.can_fly_ga(uid):
        targets.append(GROUND_ATTACK)
    return targets


def unplaced(state: FBState, side: str) -> list[str]:
    return [uid for uid, u in state.units.items() if u.loc == ARRIVING and q.spec(uid).side == side]
