"""§6 Movement: hexside costs, ZOC, stacking, entry points and off-map boxes."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import FBState, box_loc, is_map_hex

BOX_ORDER = ("A", "B", "C", "D")  # west to east
ENTRY_LIMIT = 4  # §5


@dataclass(frozen=True)
class Reach:
    cost: int
    path: tuple[str, ...]  # hexes entered, in order; () for a box move
    stops: bool  # ends in enemy ZOC (§6.2)


def entry_cost(uid: str) -> int:
    """§5.2/§6.5: the IJ pays half its MF to come on from an entry point or a box;
    §5.3: the US pays nothing to land."""
    s = q.spec(uid)
    return 0 if s.side == "US" else (s.mf + 1) // 2


def box_neighbours(box: str) -> list[str]:
    i = BOX_ORDER.index(box)
    return [BOX_ORDER[j] for j in (i - 1, i + 1) if 0 <= j < len(BOX_ORDER)]


def may_move(state: FBState, uid: str) -> bool:
    u = state.units[uid]
    if u.stopped or u.mf_left <= 0:
        return False
    box = q.in_box(u.loc)
    return not (box is not None and u.box_arrival == state.turn)  # §5.2: not on arrival


@dataclass(frozen=True)
class Ground:
    """Who stands where: computed once for all the units whose moves are listed."""
    owner: dict[str, str]  # map hex -> side of the ground units in it
    occ: dict[str, list[str]]  # map hex -> ground units in it
    zoc: dict[str, set[str]]  # side -> hexes in its ZOC
    over: list[str]  # over-stacked hexes (§6.4, R-6.4a)
    relief: dict[tuple[str, str], bool] = field(default_factory=dict)  # memo of ``_relieved``


def ground(state: FBState) -> Ground:
    owner = q.hex_owner(state)
    occ = q.occupancy(state)
    return Ground(owner, occ, {s: q.zoc_of(state, s, owner) for s in ("US", "IJ")}, q.overstacked(state, occ))


def reachable(state: FBState, uid: str, where: Ground | None = None) -> dict[str, Reach]:
    """Every place the unit may end a move now, with the cheapest cost and path.

    §6.4 "only applies at the end of the movement phase" (R-6.4a): a move may pass
    through full hexes and may even end in one, if another unit there can still leave
    it for a hex with room; until one has, only the units of the over-stacked hex may
    move, so the phase can always be brought back within the limit."""
    where = where or ground(state)
    origin = state.units[uid].loc
    if where.over and origin not in where.over:
        return {}
    return {h: r for h, r in _search(state, uid, where).items()
            if not is_map_hex(h) or q.room(where.occ, h) > 0
            or (q.room(where.occ, h) == 0 and _relieved(state, where, h, origin))}


def _relieved(state: FBState, where: Ground, full: str, origin: str) -> bool:
    """Could a unit already in the full hex still leave it for a hex with room, once
    the mover has left ``origin``?"""
    key = (full, origin)
    if key not in where.relief:
        where.relief[key] = any(
            h != full and is_map_hex(h) and q.room(where.occ, h) + (h == origin) > 0
            for u in where.occ[full] for h in _search(state, u, where))
    return where.relief[key]


def _search(state: FBState, uid: str, where: Ground) -> dict[str, Reach]:
    """Every place the unit could end a move now, stacking aside."""
    if not may_move(state, uid):
        return {}
    b = q.board()
    u = state.units[uid]
    side = q.spec(uid).side
    owner, enemy_zoc = where.owner, where.zoc[q.other(side)]
    budget = u.mf_left
    out: dict[str, Reach] = {}

    frontier: list[tuple[int, str]] = []
    best: dict[str, int] = {}
    prev: dict[str, str | None] = {}
    start_in_zoc = False
    origin = u.loc
    if is_map_hex(origin):
        best[origin] = 0
        prev[origin] = None
        start_in_zoc = origin in enemy_zoc
        heapq.heappush(frontier, (0, origin))
    else:
        entry, box = q.in_entry(origin), q.in_box(origin)
        if entry is not None:
            first = b.entries[entry].hexes
        elif box is not None:
            first = b.boxes[box].hexes
            for nb in box_neighbours(box):
                if nb not in u.boxes and entry_cost(uid) <= budget:
                    out[box_loc(nb)] = Reach(entry_cost(uid), (), False)
        else:
            return {}
        cost = entry_cost(uid)
        if cost <= budget:
            for h in first:
                if owner.get(h, side) == side and cost < best.get(h, 1 << 30):
                    best[h] = cost
                    prev[h] = None
                    heapq.heappush(frontier, (cost, h))

    while frontier:
        cost, h = heapq.heappop(frontier)
        if cost > best[h]:
            continue
        if h != origin and h in enemy_zoc:
            continue  # §6.2: movement halts on entering an enemy ZOC
        for n, step in b.steps[h]:
            if owner.get(n, side) != side:
                continue  # §6.4: never into an enemy-occupied hex
            if h == origin and start_in_zoc and n in enemy_zoc:
                continue  # §6.2: no moving from one enemy ZOC hex to another
            c = cost + step
            if c <= budget and c < best.get(n, 1 << 30):
                best[n] = c
                prev[n] = h
                heapq.heappush(frontier, (c, n))

    for h, cost in best.items():
        if h == origin:
            continue
        path = [h]
        while prev[path[-1]] not in (None, origin):
            path.append(prev[path[-1]])  # type: ignore[arg-type]
        path.reverse()
        out[h] = Reach(cost, tuple(path), h in enemy_zoc)
    return out


def movable_units(state: FBState, side: str) -> list[str]:
    oob = q.specs()
    return [uid for uid, u in state.units.items()
            if oob[uid].side == side and oob[uid].kind == "ground" and u.mf_left > 0
            and not u.stopped and q.in_play(u.loc)]


def iter_moves(state: FBState, side: str, unit: str | None = None) -> Iterator[Command]:
    """The legal moves, unit by unit, computed only as far as they are asked for."""
    units = [unit] if unit is not None else movable_units(state, side)
    where = ground(state) if units else None
    for uid in units:
        if uid not in state.units or q.spec(uid).side != side or q.spec(uid).kind != "ground":
            continue
        for dest in sorted(reachable(state, uid, where)):
            yield Command("move", {"unit": uid, "to": dest})


def gen_moves(state: FBState, side: str, unit: str | None = None) -> list[Command]:
    return list(iter_moves(state, side, unit))


def must_move_units(state: FBState, side: str) -> list[str]:
    """§6.5: IJ units in an off-map box must move every turn, except the turn they arrived."""
    return [uid for uid, u in state.units.items()
            if q.spec(uid).side == side and q.in_box(u.loc) is not None
            and u.box_arrival != state.turn and not u.moved]


def unmet_must_moves(state: FBState, side: str) -> list[str]:
    units = must_move_units(state, side)
    where = ground(state) if units else None
    return [uid for uid in units if reachable(state, uid, where)]


def why_move_illegal(state: FBState, side: str, data: dict[str, Any]) -> IllegalCommandError:
    uid, dest = data.get("unit"), data.get("to")
    if uid not in state.units:
        return IllegalCommandError("§6", f"there is no unit {uid!r}")
    s, u = q.spec(uid), state.units[uid]
    if s.side != side:
        return IllegalCommandError("§6", f"{q.label(uid)} is not yours")
    if s.kind != "ground":
        return IllegalCommandError("§6", "only ground units move on the map")
    if u.stopped:
        return IllegalCommandError("§6.2", f"{q.label(uid)} entered an enemy ZOC and must halt")
    if q.in_box(u.loc) and u.box_arrival == state.turn:
        return IllegalCommandError("§5.2", "reinforcements placed in an off-map box cannot move this turn")
    if u.mf_left <= 0:
        return IllegalCommandError("§6", f"{q.label(uid)} has no MF left")
    if not isinstance(dest, str):
        return IllegalCommandError("§6", "say where to move")
    b = q.board()
    if dest.startswith("box:"):
        if is_map_hex(u.loc):
            return IllegalCommandError("§6.5", "IJ units may never re-enter off-map boxes from the map")
        if dest[4:] in u.boxes:
            return IllegalCommandError("§6.5", "a unit can never re-enter an off-map box it has been in")
        return IllegalCommandError("§6.5", "off-map moves go one box at a time, east or west, "
                                           "for half the unit's MF")
    if dest.startswith("entry:"):
        return IllegalCommandError("§6.4", "it is not possible to move into entry points")
    if not b.on_map(dest):
        return IllegalCommandError("§6", f"{dest} is not a land hex of the map")
    owner = q.hex_owner(state)
    if owner.get(dest, side) != side:
        return IllegalCommandError("§6.4", f"{dest} holds enemy units")
    where = ground(state)
    if where.over and u.loc not in where.over:
        return IllegalCommandError("§6.4", f"{', '.join(where.over)} holds more than {q.STACK_LIMIT} units: "
                                           "move one of its units out first")
    if q.room(where.occ, dest) < 0:
        return IllegalCommandError("§6.4", f"{dest} is already over-stacked")
    if q.room(where.occ, dest) == 0 and dest in _search(state, uid, where):
        return IllegalCommandError("§6.4", f"{dest} already holds {q.STACK_LIMIT} friendly units, and none "
                                           "of them could move on to make room")
    enemy_zoc = q.zoc_of(state, q.other(side))
    if is_map_hex(u.loc) and u.loc in enemy_zoc and dest in b.neighbors(u.loc) and dest in enemy_zoc:
        return IllegalCommandError("§6.2", "a unit may not move from one enemy ZOC hex to another")
    return IllegalCommandError("§6.1", f"{q.label(uid)} cannot reach {dest} with {u.mf_left} MF "
                                       "(terrain, enemy ZOC or enemy units block every path)")


def do_move(em: Emitter, data: dict[str, Any], side: str) -> None:
    state: FBState = em.state
    uid, dest = data["unit"], data["to"]
    reach = reachable(state, uid)[dest]
    em.emit("unit_moved", side, unit=uid, frm=state.units[uid].loc, to=dest,
            path=list(reach.path), cost=reach.cost, stops=reach.stops)
    if side == "IJ":
        for h in reach.path:
            if h in em.state.strips:
                overrun_strip(em, h)


def overrun_strip(em: Emitter, hex_id: str) -> None:
    """§6.3: an IJ unit entering an air strip hex destroys it, its USAF units and work."""
    state: FBState = em.state
    usaf = q.units_at(state, "strip:" + hex_id)
    strip = state.strips[hex_id]
    if usaf or strip.status != "dest" or strip.work:
        em.emit("strip_overrun", "IJ", hex=hex_id, usaf=usaf, work_lost=strip.work)
