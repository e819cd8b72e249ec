"""What a First Blood bot reckons once per decision from its believed state: who stands
where, whose ZOC covers what, how far each hex is from the air strips that count for
victory (§1), and which enemy units could reach each hex's neighbourhood next turn."""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import cache

from engine.games.first_blood import queries as q
from engine.games.first_blood.phases import movement
from engine.games.first_blood.state import FBState, is_map_hex

FAR = 99.0


@cache
def cost_to(targets: frozenset[str]) -> dict[str, float]:
    """MF needed to go from each map hex to the nearest of ``targets`` (terrain only, no ZOC)."""
    b = q.board()
    dist = {t: 0.0 for t in targets}
    heap = [(0.0, t) for t in targets]
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist.get(h, FAR):
            continue
        for n in b.neighbors(h):  # moving n -> h costs move_cost(n, h)
            nd = d + b.move_cost(n, h)
            if nd < dist.get(n, FAR):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


@cache
def reach_from(start: str, budget: int) -> frozenset[str]:
    """Map hexes a unit at ``start`` could enter with ``budget`` MF (terrain only)."""
    b = q.board()
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > best[h]:
            continue
        for n, cost in b.steps[h]:
            nd = d + cost
            if nd <= budget and nd < best.get(n, budget + 1):
                best[n] = nd
                heapq.heappush(heap, (nd, n))
    return frozenset(best)


def entry_hexes(loc: str) -> tuple[str, ...]:
    """The map hexes a unit at an entry point or in an off-map box may enter."""
    b = q.board()
    if q.in_entry(loc) is not None:
        return b.entries[q.in_entry(loc)].hexes
    if q.in_box(loc) is not None:
        return b.boxes[q.in_box(loc)].hexes
    return ()


@cache
def threatened_from(start: str, budget: int) -> frozenset[str]:
    """The hexes next to any hex a unit at ``start`` could enter with ``budget`` MF."""
    b = q.board()
    return frozenset(n for h in reach_from(start, budget) for n in b.neighbors(h))


@dataclass
class Picture:
    state: FBState
    side: str
    enemy: str
    pos: dict[str, str]  # ground unit on the map -> hex
    occ: dict[str, list[str]]
    owner: dict[str, str]
    zoc: dict[str, set[str]]
    strips: frozenset[str]  # built strip hexes (§1)
    strip_cost: dict[str, float]
    open_cost: dict[str, float]  # MF to the nearest victory strip hex no US unit holds
    threats: dict[str, list[str]] = field(default_factory=dict)  # hex -> enemy units that could attack it
    # enemy hex -> own units not yet moved this phase that could still move next to it, and where
    joiners: dict[str, dict[str, str]] = field(default_factory=dict)

    def enemy_units_on_map(self) -> list[str]:
        return [u for u, h in self.pos.items() if q.spec(u).side == self.enemy]


def picture(state: FBState, side: str) -> Picture:
    pos = {u: state.units[u].loc for u in q.ground_on_map(state)}
    owner = dict(q.hex_owner(state))
    zoc = {s: set(q.zoc_of(state, s)) for s in q.SIDES}
    strips = frozenset(h for h, s in state.strips.items() if s.built)
    open_strips = frozenset(h for h in strips if owner.get(h) != "US")
    pic = Picture(state, side, q.other(side), pos, {h: list(us) for h, us in q.occupancy(state).items()},
                  owner, zoc, strips, cost_to(strips) if strips else {},
                  cost_to(open_strips) if open_strips else {})
    pic.threats = threats_against(state, q.other(side))
    return pic


def find_joiners(pic: Picture) -> None:
    """Fill ``pic.joiners``: in a movement phase an attack is built unit by unit, so a unit
    moving next to an enemy counts on the others that could still join it."""
    b = q.board()
    state = pic.state
    for uid in movement.movable_units(state, pic.side):
        if state.units[uid].moved:
            continue
        for dest in movement.reachable(state, uid):
            if not is_map_hex(dest):
                continue
            for e in b.neighbors(dest):
                if pic.owner.get(e) == pic.enemy:
                    spots = pic.joiners.setdefault(e, {})
                    if uid not in spots or b.is_river(spots[uid], e):
                        spots[uid] = dest


def threats_against(state: FBState, attacker: str) -> dict[str, list[str]]:
    """Hex -> ``attacker``'s ground units that could stand next to it after their next
    movement (from the map, an off-map box or an entry point; terrain only)."""
    b = q.board()
    out: dict[str, list[str]] = {}
    for uid, u in state.units.items():
        s = q.spec(uid)
        if s.side != attacker or s.kind != "ground":
            continue
        if is_map_hex(u.loc):
            starts = [(u.loc, s.mf)]
        elif q.in_box(u.loc) is not None:
            starts = [(h, s.mf - movement.entry_cost(uid)) for h in b.boxes[q.in_box(u.loc)].hexes]
        elif q.in_entry(u.loc) is not None:
            starts = [(h, s.mf - movement.entry_cost(uid)) for h in b.entries[q.in_entry(u.loc)].hexes]
        else:
            continue
        seen: set[str] = set()
        for start, budget in starts:
            seen |= threatened_from(start, max(budget, 0))
        for n in seen:
            out.setdefault(n, []).append(uid)
    return out
