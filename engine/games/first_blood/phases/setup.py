"""§3 Initial set-up: the US inside the blue line, then the IJ in boxes A or D."""

from __future__ import annotations

from functools import cache

from engine.games.first_blood import queries as q
from engine.games.first_blood.state import ARRIVING, CAP, GROUND_ATTACK, FBState, box_loc, strip_loc


@cache
def setup_area() -> tuple[str, ...]:
    """The land hexes inside the blue line (§3), in the board's order."""
    b = q.board()
    return tuple(h for h in b.hexes if b.in_setup_area(h))


def setup_targets(state: FBState, uid: str, occ: dict[str, list[str]] | None = None,
                  free: list[str] | None = None) -> list[str]:
    """Where the unit may be set up (``occ``: ``q.occupancy(state)`` if the caller has it;
    ``free``: ``free_setup_hexes(occ)``, the same for every US ground unit, if it has that)."""
    s = q.spec(uid)
    if s.side == "IJ":
        return [box_loc("A"), box_loc("D")] if s.kind == "ground" else []
    if s.kind == "ground":
        if free is None:
            free = free_setup_hexes(q.occupancy(state) if occ is None else occ)
        return list(free)
    # USAF: Henderson's hexes, CAP (fighters) or Ground Attack (bombers)
    targets = [strip_loc(h) for h in q.board().henderson]
    if q.can_fly_cap(uid):
        targets.append(CAP)
    if q.can_fly_ga(uid):
        targets.append(GROUND_ATTACK)
    return targets


def free_setup_hexes(occ: dict[str, list[str]]) -> list[str]:
    """The hexes inside the blue line with room for one more ground unit (§3, §6.4)."""
    return [h for h in setup_area() if q.room(occ, h) > 0]


def unplaced(state: FBState, side: str) -> list[str]:
    return [uid for uid, u in state.units.items() if u.loc == ARRIVING and q.spec(uid).side == side]
