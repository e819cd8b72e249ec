"""§1/§12 Victory, checked at the end of every complete turn."""

from __future__ import annotations

from engine.games.first_blood import queries as q
from engine.games.first_blood.oob import LAST_TURN
from engine.games.first_blood.state import ARRIVING, POOL, FBState


def ij_ground_anywhere(state: FBState) -> bool:
    return any(q.spec(uid).side == "IJ" and q.spec(uid).kind == "ground"
               and (q.in_play(u.loc) or u.loc == ARRIVING)
               for uid, u in state.units.items())


def ij_ground_to_come(state: FBState) -> bool:
    return any(q.spec(uid).side == "IJ" and q.spec(uid).kind == "ground" and u.loc == POOL
               for uid, u in state.units.items())


def check(state: FBState) -> tuple[str, str] | None:
    """(winner, reason) or None to play on."""
    owner = q.hex_owner(state)
    held = [h for h, s in state.strips.items() if s.built and owner.get(h) == "IJ"]
    if held:
        return "IJ", f"IJ ground units hold the completed air field hex {', '.join(sorted(held))} (§1)"
    if state.turn >= LAST_TURN:
        on_map = [uid for uid in q.ground_on_map(state, "IJ")]
        if on_map:
            return "IJ", "IJ ground units are still on the map at the end of Jan III (§1)"
        return "US", "no IJ ground units on the map at the end of Jan III (§1)"
    if not ij_ground_anywhere(state) and not ij_ground_to_come(state):
        return "US", "every IJ ground unit is gone and none are coming: the IJ can no longer win (§12)"
    return None
