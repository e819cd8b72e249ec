"""§6 Movement: hexside costs, ZOC, stacking, entry points and off-map boxes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from engine.core.errors import IllegalCommandError, Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import FBState, box_loc, is_map_hex

BOX_ORDER = ("A", "B", "C", "D")  # west to east
ENTRY_LIMIT = 4  # §5


class Reach(NamedTuple):  # (a tuple: some 35 are made a search)
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


def immobile(state: FBState, uid: str) -> Reason | None:
    """Why the unit may not move at all now, or None if it may."""
    u = state.units[uid]
    if u.stopped:
        return "§6.2", f"{q.label(uid)} entered an enemy ZOC and must halt"
    if q.in_box(u.loc) is not None and u.box_arrival == state.turn:
        return "§5.2", "reinforcements placed in an off-map box cannot move this turn"
    if u.mf_left <= 0:
        return "§6", f"{q.label(uid)} has no MF left"
    return None


def may_move(state: FBState, uid: str) -> bool:
    return immobile(state, uid) is None


@dataclass(frozen=True)
class Ground:
    """Who stands where: computed once for all the units whose moves are listed."""
    owner: dict[str, str]  # map hex -> side of the ground units in it
    occ: dict[str, list[str]]  # map hex -> ground units in it
    zoc: dict[str, set[str]]  # side -> hexes in its ZOC
    over: list[str]  # over-stacked hexes (§6.4, R-6.4a)
    full: frozenset[str] = frozenset()  # map hexes with no room for one more ground unit (§6.4)
    held: dict[str, frozenset[str]] = field(default_factory=dict)  # side -> map hexes its ground units hold
    relief: dict[tuple[str, str], bool] = field(default_factory=dict)  # memo of ``_relieved``


def ground(state: FBState) -> Ground:
    """Who stands where, once per state (read only; its ``relief`` fills as it is asked)."""
    return state.cached("ground", lambda: _ground(state))


def _ground(state: FBState) -> Ground:
    owner = q.hex_owner(state)
    occ = q.occupancy(state)
    return Ground(owner, occ, {s: q.zoc_of(state, s, owner) for s in ("US", "IJ")}, q.overstacked(state, occ),
                  frozenset(h for h in occ if q.room(occ, h) <= 0),
                  held={s: frozenset(h for h, o in owner.items() if o == s) for s in ("US", "IJ")})


def reachable(state: FBState, uid: str) -> dict[str, Reach]:
    """Every place the unit may end a move now, with the cheapest cost and path.

    §6.4 "only applies at the end of the movement phase" (R-6.4a): a move may pass
    through full hexes and may even end in one, if another unit there can still leave
    it for a hex with room; until one has, only the units of the over-stacked hex may
    move, so the phase can always be brought back within the limit.  Once per state
    and unit: read only."""
    return state.cached(("reachable", uid), lambda: _reachable(state, uid))


def _reachable(state: FBState, uid: str) -> dict[str, Reach]:
    where = ground(state)
    origin = state.units[uid].loc
    if _held_back(where, origin):
        return {}
    full = where.full  # only a full hex can refuse the end of a move (``_end_refusal``)
    return {h: r for h, r in _found(state, uid).items()
            if h not in full or _end_refusal(state, where, h, origin) is None}


def _held_back(where: Ground, origin: str) -> Reason | None:
    if where.over and origin not in where.over:
        return "§6.4", (f"{', '.join(where.over)} holds more than {q.STACK_LIMIT} units: "
                        "move one of its units out first")
    return None


def _end_refusal(state: FBState, where: Ground, dest: str, origin: str) -> Reason | None:
    """Why a move may not end in ``dest``, which it can reach (R-6.4a)."""
    if not is_map_hex(dest) or q.room(where.occ, dest) > 0:
        return None
    if q.room(where.occ, dest) < 0:
        return "§6.4", f"{dest} is already over-stacked"
    if _relieved(state, where, dest, origin):
        return None
    return "§6.4", (f"{dest} already holds {q.STACK_LIMIT} friendly units, and none of them "
                    "could move on to make room")


def _held(state: FBState, uid: str) -> Reason | None:
    """Why the unit may not move at all now: its own state, or an over-stacked hex elsewhere
    to clear first (§6.4, R-6.4a)."""
    return immobile(state, uid) or _held_back(ground(state), state.units[uid].loc)


def refusal(state: FBState, uid: str, dest: str) -> Reason:
    """Why ``uid`` may not move to ``dest`` now: from the same search that lists its moves."""
    held = _held(state, uid)
    if held:
        return held
    refused = _refused(state, uid, ground(state), state.units[uid].loc)
    if dest in refused:
        return refused[dest]
    if not q.board().on_map(dest):
        return "§6", f"{dest} is not a land hex of the map"
    return "§6.1", f"{q.label(uid)} cannot reach {dest} with {state.units[uid].mf_left} MF"


def idle(state: FBState, uid: str) -> Reason | None:
    """Why a ground unit in play has no move now, None if it has one: from the same search
    that lists its moves (a unit that may move at all and can reach no hex is told what
    refused the hexes around it)."""
    if reachable(state, uid):
        return None
    held = _held(state, uid)
    if held:
        return held
    refused = sorted(_refused(state, uid, ground(state), state.units[uid].loc).items())
    if not refused:
        return "§6.1", f"{q.label(uid)} has too few MF ({state.units[uid].mf_left}) to enter any hex around it"
    place, (rule, text) = refused[0]
    return rule, f"{q.label(uid)} can enter no hex now; {place}, for one: {text}"


def refusals(state: FBState, uid: str) -> dict[str, Reason]:
    """Why each place the unit's search considered, but may not end a move in, is
    refused (for "why not" on the map: the same search that lists its moves)."""
    return {} if _held(state, uid) else _refused(state, uid, ground(state), state.units[uid].loc)


def _refused(state: FBState, uid: str, where: Ground, origin: str) -> dict[str, Reason]:
    why: dict[str, tuple[int, Reason]] = {}
    found = _search(state, uid, where, why)
    out = {place: reason for place, (_rank, reason) in why.items() if place not in found}
    for place in found:
        end = _end_refusal(state, where, place, origin)
        if end is not None:
            out[place] = end
    return out


def _relieved(state: FBState, where: Ground, full: str, origin: str) -> bool:
    """Could a unit already in the full hex still leave it for a hex with room, once
    the mover has left ``origin``?"""
    key = (full, origin)
    if key not in where.relief:
        where.relief[key] = any(
            h != full and is_map_hex(h) and q.room(where.occ, h) + (h == origin) > 0
            for u in where.occ[full] for h in _found(state, u))
    return where.relief[key]


def _found(state: FBState, uid: str) -> dict[str, Reach]:
    """``_search`` without the reasons, once per state and unit (read only)."""
    return state.cached(("found", uid), lambda: _found_anew(state, uid))


# A search's answer depends on the unit's place, MF left, boxes and entry cost, and on
# where the enemy stands (its units' hexes and so its ZOC), nothing else; a side's own
# moves change none of the enemy's, so after one unit moves the others' searches are
# those of the state before.  Kept across states, keyed by exactly those inputs (a
# pure function's memo: shared answers are read only, as ``state.cached``'s are).
_SEARCHES: dict[tuple[Any, ...], dict[str, Reach]] = {}
_SEARCHES_KEPT = 4096


def _found_anew(state: FBState, uid: str) -> dict[str, Reach]:
    if not may_move(state, uid):
        return {}
    where = ground(state)
    u, side = state.units[uid], q.spec(uid).side
    key = (u.loc, u.mf_left, tuple(u.boxes), side, entry_cost(uid), _enemy_at(state, where, side))
    found = _SEARCHES.get(key)
    if found is None:
        found = _search(state, uid, where)
        if len(_SEARCHES) >= _SEARCHES_KEPT:
            _SEARCHES.clear()
        _SEARCHES[key] = found
    return found


def _enemy_at(state: FBState, where: Ground, side: str) -> frozenset[tuple[str, str]]:
    """The hexes ``side``'s enemy holds (with the holder), once per state: what a
    search of ``side``'s reads of the state besides the unit (the enemy ZOC follows)."""
    return state.cached(("enemy_at", side),
                        lambda: frozenset((h, o) for h, o in where.owner.items() if o != side))


def _search(state: FBState, uid: str, where: Ground,
            why: dict[str, tuple[int, Reason]] | None = None) -> dict[str, Reach]:
    """Every place the unit could end a move now, stacking aside.  With ``why``, also
    the reason each place it considered, and each box and entry point, is refused
    (the most telling reason kept: enemy units, ZOC to ZOC, cost, a halt on the way)."""
    if not may_move(state, uid):
        return {}
    b = q.board()
    u = state.units[uid]
    side = q.spec(uid).side
    owner, enemy_zoc = where.owner, where.zoc[q.other(side)]
    budget = u.mf_left
    out: dict[str, Reach] = {}

    def refuse(place: str, rank: int, rule: str, text: str) -> None:
        if why is not None and (place not in why or rank < why[place][0]):
            why[place] = (rank, (rule, text))

    if why is not None:
        _refuse_off_map(uid, u.loc, u.boxes, budget, refuse)

    # Dijkstra with a bucket per cost: every step costs 1-4 MF and no move costs more
    # than the unit's MF left, so the buckets are few; each is taken in hex order, as a
    # heap of (cost, hex) would pop them, so that of two equal ways the same one is kept
    buckets: list[list[str]] = [[] for _ in range(budget + 1)]
    best: dict[str, int] = {}
    prev: dict[str, str | None] = {}
    start_in_zoc = False
    origin = u.loc
    if is_map_hex(origin):
        best[origin] = 0
        prev[origin] = None
        start_in_zoc = origin in enemy_zoc
        buckets[0].append(origin)
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
        for h in first:
            if owner.get(h, side) != side:
                refuse(h, 0, "§6.4", f"{h} holds enemy units")
            elif cost > budget:
                refuse(h, 2, "§6.5", f"coming on costs {cost} MF, {q.label(uid)} has {budget}")
            elif cost < best.get(h, 1 << 30):
                best[h] = cost
                prev[h] = None
                buckets[cost].append(h)

    explain = why is not None  # (the reasons' texts are written only when asked for)
    steps = b.steps
    paths: dict[str, tuple[str, ...]] = {}  # each hex's way, made as it is settled (its way there is)
    enemy_held = where.held[q.other(side)]
    for cost, bucket in enumerate(buckets):
        for h in sorted(bucket):  # (each step costs 1 MF or more: a bucket is whole once reached)
            if h in paths:
                continue  # settled at a lower cost
            if h != origin:
                before = prev[h]
                paths[h] = (h,) if before is None or before == origin else paths[before] + (h,)
                if h in enemy_zoc:
                    for n, _ in steps[h] if explain else ():  # §6.2: movement halts on entering an enemy ZOC
                        if n in enemy_held:
                            refuse(n, 0, "§6.4", f"{n} holds enemy units")
                        else:
                            refuse(n, 3, "§6.2", f"the way to {n} leads through enemy ZOC ({h}), "
                                                 "where movement halts")
                    continue
            leaving_zoc = h == origin and start_in_zoc
            for n, step in steps[h]:
                if n in enemy_held:
                    if explain:
                        refuse(n, 0, "§6.4", f"{n} holds enemy units")  # never into an enemy-occupied hex
                    continue
                if leaving_zoc and n in enemy_zoc:
                    if explain:
                        refuse(n, 1, "§6.2", "a unit may not move from one enemy ZOC hex to another")
                    continue
                c = cost + step
                if c > budget:
                    if explain:
                        refuse(n, 2, "§6.1", f"{q.label(uid)} cannot reach {n} with {budget} MF "
                                             f"(the cheapest way costs {c})")
                elif c < best.get(n, 1 << 30):
                    best[n] = c
                    prev[n] = h
                    buckets[c].append(n)

    for h, cost in best.items():
        if h != origin:
            out[h] = Reach(cost, paths[h], h in enemy_zoc)
    return out


def _refuse_off_map(uid: str, loc: str, visited: list[str], budget: int,
                    refuse: Callable[[str, int, str, str], None]) -> None:
    """§6.4/§6.5: why each box and entry point is refused as a destination (the search
    adds the boxes that are allowed)."""
    b = q.board()
    for e in b.entries:
        refuse(f"entry:{e}", 0, "§6.4", "it is not possible to move into entry points")
    box = q.in_box(loc)
    for nb in BOX_ORDER:
        if q.spec(uid).side != "IJ":
            refuse(box_loc(nb), 0, "§6.5", "only IJ units move through the off-map boxes")
        elif is_map_hex(loc) or q.in_entry(loc) is not None:
            refuse(box_loc(nb), 0, "§6.5", "IJ units may never re-enter off-map boxes from the map")
        elif nb in visited:
            refuse(box_loc(nb), 0, "§6.5", "a unit can never re-enter an off-map box it has been in")
        elif box is None or nb not in box_neighbours(box):
            refuse(box_loc(nb), 0, "§6.5", "off-map moves go one box at a time, east or west")
        elif entry_cost(uid) > budget:
            refuse(box_loc(nb), 2, "§6.5", f"a box move costs half the unit's MF ({entry_cost(uid)}); "
                                           f"{q.label(uid)} has {budget}")


def movable_units(state: FBState, side: str) -> list[str]:
    """The side's ground units that may still move, in the state's order (read only)."""
    return state.cached(("movable_units", side), lambda: _movable_units(state, side))


def _movable_units(state: FBState, side: str) -> list[str]:
    oob = q.specs()
    return [uid for uid, u in state.units.items()
            if oob[uid].side == side and oob[uid].kind == "ground" and u.mf_left > 0
            and not u.stopped and q.in_play(u.loc)]


def iter_moves(state: FBState, side: str, unit: str | None = None) -> Iterator[Command]:
    """The legal moves, unit by unit, computed only as far as they are asked for."""
    units = [unit] if unit is not None else movable_units(state, side)
    for uid in units:
        if uid not in state.units or q.spec(uid).side != side or q.spec(uid).kind != "ground":
            continue
        yield from moves_to(uid, tuple(sorted(reachable(state, uid))))


@lru_cache(maxsize=4096)
def moves_to(uid: str, places: tuple[str, ...]) -> tuple[Command, ...]:
    """A unit's move commands, made once per list of places: after one unit moves, the
    others' lists are those of the state before (commands are never changed once made)."""
    return tuple(Command("move", {"unit": uid, "to": to}) for to in places)


def gen_moves(state: FBState, side: str, unit: str | None = None) -> list[Command]:
    return list(iter_moves(state, side, unit))


def must_move_units(state: FBState, side: str) -> list[str]:
    """§6.5: IJ units in an off-map box must move every turn, except the turn they arrived
    (read only)."""
    return state.cached(("must_move_units", side), lambda: _must_move_units(state, side))


def _must_move_units(state: FBState, side: str) -> list[str]:
    return [uid for uid, u in state.units.items()
            if q.in_box(u.loc) is not None and q.spec(uid).side == side
            and u.box_arrival != state.turn and not u.moved]


def unmet_must_moves(state: FBState, side: str) -> list[str]:
    return [uid for uid in must_move_units(state, side) if reachable(state, uid)]


def why_move_illegal(state: FBState, side: str, data: dict[str, Any]) -> IllegalCommandError:
    uid, dest = data.get("unit"), data.get("to")
    if uid not in state.units:
        return IllegalCommandError("§6", f"there is no unit {uid!r}")
    if q.spec(uid).side != side:
        return IllegalCommandError("§6", f"{q.label(uid)} is not yours")
    if q.spec(uid).kind != "ground":
        return IllegalCommandError("§6", "only ground units move on the map")
    if not isinstance(dest, str):
        return IllegalCommandError("§6", "say where to move")
    return IllegalCommandError(*refusal(state, uid, dest))


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
