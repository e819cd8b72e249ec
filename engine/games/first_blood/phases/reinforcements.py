"""§5 Reinforcements: who arrives, where each side may place them (§5.2, §5.3)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import chain
from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.phases import setup
from engine.games.first_blood.phases.movement import ENTRY_LIMIT
from engine.games.first_blood.state import (
    ARRIVING,
    IJAAF_ATTACK,
    IJAAF_RESERVE,
    IJN_ATTACK,
    IJN_RESERVE,
    POOL,
    USAF_RESERVE,
    FBState,
    box_loc,
    entry_loc,
)


def arrivals(state: FBState, side: str, turn: int) -> list[str]:
    return [uid for uid, u in state.units.items()
            if u.loc == POOL and q.spec(uid).side == side and q.spec(uid).arrives == turn]


def bring_in(em: Emitter, side: str) -> None:
    """Phase start: this turn's units arrive; USAF units go straight to the Reserve (§5.3)."""
    units = arrivals(em.state, side, em.state.turn)
    if units:
        em.emit("units_arrived", side, units=units)
    for uid in units:
        if side == "US" and q.spec(uid).kind != "ground" and em.state.turn > 0:
            em.emit("unit_placed", side, unit=uid, to=USAF_RESERVE)


def entry_points_open(state: FBState, side: str) -> list[str]:
    return [loc for loc, why in entry_points(state, side).items() if why is None]


def entry_points(state: FBState, side: str) -> dict[str, tuple[str, str] | None]:
    """Each of ``side``'s entry points: None if reinforcements may be placed there now,
    else (rule, why not)."""
    b = q.board()
    owner = q.hex_owner(state)
    out: dict[str, tuple[str, str] | None] = {}
    for e in b.entries.values():
        if e.side != side:
            continue
        loc = entry_loc(e.id)
        if len(q.units_at(state, loc)) >= ENTRY_LIMIT:
            out[loc] = ("§5", f"{e.id} already holds {ENTRY_LIMIT} ground units")
        elif q.all_held_by_enemy(owner, e.hexes, side) and side == "IJ":
            out[loc] = ("§5", f"every hex of {e.id} is held by the US: the IJ lands in boxes A or D (§5.3, R-5a)")
        elif q.all_held_by_enemy(owner, e.hexes, side) and not q.all_held_by_enemy(
                owner, q.coast_hexes(side, e.group), side):
            out[loc] = ("§5", f"the IJ holds {', '.join(e.hexes)} while another entry hex of the {e.group} "
                              "coast is free: a landing there could neither come on nor attack upon entry, "
                              "which needs the whole coast held (§5.3, R-5c)")
        else:
            out[loc] = None
    return out


def reinforcement_targets(state: FBState, uid: str) -> list[str]:
    s = q.spec(uid)
    if s.kind == "destroyer":
        return [IJN_RESERVE, IJN_ATTACK]  # §5.2
    if s.kind != "ground":
        return [IJAAF_RESERVE, IJAAF_ATTACK] if s.side == "IJ" else [USAF_RESERVE]
    targets = entry_points_open(state, s.side)
    if s.side == "IJ":
        targets += [box_loc("A"), box_loc("D")]  # §5.2
    return targets


def targets_for(state: FBState, uid: str, occ: dict[str, list[str]] | None = None,
                free: list[str] | None = None) -> list[str]:
    return setup.setup_targets(state, uid, occ, free) if state.turn == 0 else reinforcement_targets(state, uid)


def iter_place(state: FBState, side: str, unit: str | None = None) -> Iterator[Command]:
    """The legal placements, unit by unit, computed only as far as they are asked for."""
    for group in _place_groups(state, side, unit):
        yield from group


def gen_place(state: FBState, side: str, unit: str | None = None) -> list[Command]:
    """All the legal placements (a set-up's 2,000 listed without a generator's step for each)."""
    return list(chain.from_iterable(_place_groups(state, side, unit)))


def _place_groups(state: FBState, side: str, unit: str | None) -> Iterator[tuple[Command, ...]]:
    for uid, targets in place_rows(state, side, unit):
        yield placements(uid, targets)


def place_rows(state: FBState, side: str, unit: str | None = None) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each unit to place (``unit``: only it) with the places it may go to, in order."""
    units = [unit] if unit is not None else setup.unplaced(state, side)
    occ = q.occupancy(state) if units else None
    # the set-up hexes with room are the same for every US ground unit: found once
    free = setup.free_setup_hexes(occ) if occ is not None and state.turn == 0 and side == "US" else None
    for uid in units:
        if uid in state.units and state.units[uid].loc == ARRIVING and q.spec(uid).side == side:
            yield uid, tuple(targets_for(state, uid, occ, free))


@lru_cache(maxsize=4096)
def placements(uid: str, targets: tuple[str, ...]) -> tuple[Command, ...]:
    """A unit's placement commands, made once per list of places: a set-up lists some
    2,000 (25 units times the free hexes) after every placement, the free hexes change
    only when one fills up, and commands are never changed once made."""
    return tuple(Command("place", {"unit": uid, "to": to}) for to in targets)


def why_place_illegal(state: FBState, side: str, data: dict[str, Any]) -> IllegalCommandError:
    uid = data.get("unit")
    rule = "§3" if state.turn == 0 else "§5"
    if uid not in state.units or q.spec(uid).side != side:
        return IllegalCommandError(rule, f"{uid!r} is not one of your units")
    if state.units[uid].loc != ARRIVING:
        return IllegalCommandError(rule, f"{q.label(uid)} is not waiting to be placed")
    to = data.get("to")
    if state.turn == 0:
        if side == "US" and q.spec(uid).kind == "ground":
            return IllegalCommandError("§3", f"{to}: US units set up on land inside the blue line "
                                             "(rows 02-12, columns 02-15), at most 3 per hex")
        if side == "US":
            return IllegalCommandError("§3", "USAF units set up on Henderson, fighters in CAP, "
                                             "bombers in Ground Attack")
        return IllegalCommandError("§3", "the IJ sets up in off-map box A or D")
    if isinstance(to, str) and to.startswith("entry:"):
        why = entry_points(state, side).get(to, ("§5", f"{to[6:]} is not one of your entry points"))
        return IllegalCommandError(*(why or ("§5", f"{q.label(uid)} cannot be placed at {to}")))
    return IllegalCommandError(rule, f"{q.label(uid)} cannot be placed at {to}")


def do_place(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("unit_placed", side, unit=data["unit"], to=data["to"])


def eliminate_stranded(em: Emitter, side: str) -> None:
    """§5: units still on entry points at the end of their combat phase are eliminated."""
    for uid, u in list(em.state.units.items()):
        if q.spec(uid).side == side and q.in_entry(u.loc) is not None:
            em.emit("unit_eliminated", side, unit=uid, reason="did not enter the map (§5)")
