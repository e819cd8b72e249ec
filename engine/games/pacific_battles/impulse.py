"""A land impulse's movement and air/naval strike phases (4.1 2-5 a, b): movement (11.0)
with follow-on eligibility (10.2), amphibious moves (22.0), air recon (16.7, 18.2), the
Recon marker, strikes (16.8), naval bombardment (17.0) and the strike limit (26.4)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from engine.core.errors import Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.core.hexes import distance_between, neighbor_ids
from engine.games.pacific_battles import air, markers, planning, tables, tell, terrain, victory
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.forces import DECEPTION
from engine.games.pacific_battles.movement import SUPPLY, bridged_sides, movement_points, reachable
from engine.games.pacific_battles.state import PBState, other

AMPHIBIOUS_SUPPLY = 3  # 22.2: three supply points, or one stack of combat units


# --- movement ----------------------------------------------------------------------------

def begin_movement(em: Emitter, side: str, follow_on: bool) -> None:
    s: PBState = em.state
    engineers = sorted({p.hex for p in s.on_map(side) if q.kind(p.unit) == "engineer" and not p.suppressed
                        and bridged_sides(q.board(), [p.hex])})
    if engineers:  # 20.2: where the engineers start the phase, their river hexsides cost nothing to cross
        tell.secret(em, "bridges_set", side, None, hexes=engineers)
    if not follow_on:
        return
    hqs = q.active_hqs(s, side)
    ids = sorted(p.id for p in s.on_map(side) if any(q.in_radius(s, hq, p.hex) for hq in hqs))
    tell.secret(em, "follow_on_set", side, {"side": side}, ids=ids)


def out_of_reach(to: Any) -> Reason:
    return "11.6", (f"{to} is out of reach: movement points (11.3), enemy units (11.5), zones of control (11.6, "
                    "13.4; an enemy stack that has not told you counts as having one until a unit moves next to "
                    "it, 18.4) or prohibited terrain")


def immobile(state: PBState, side: str, pid: Any, to: Any = None) -> Reason | None:
    """Why ``pid`` may not move at all now (None: it may): the test that lists the movers
    (``to``: the hex a refused move was for, named when the unit is at sea)."""
    p = state.pieces.get(pid)
    if p is None or p.side != side:
        return "11.2", f"{pid} is not one of your units on the map"
    if p.id in state.moved:
        return "11.2", f"{q.label(state, p.id)} has moved this phase"
    if p.unit == SUPPLY:
        return "7.8", "supply units move only by sea (22.2) or with an engineer (20.4)"
    if state.phase.startswith("follow_") and p.id not in state.eligible:
        return "10.2", (f"{q.label(state, p.id)} did not start the follow-on movement phase in the radius of an "
                        "activated HQ")
    if p.hex not in q.board().terrain:
        return out_of_reach(to)  # at sea (an assault from the sea, 22.3): it lands only by battle
    return None


def movers(state: PBState, side: str) -> list[str]:
    return sorted(p.id for p in state.on_map(side) if immobile(state, side, p.id) is None)


def move_refusal(state: PBState, side: str, pid: Any, to: Any) -> Reason | None:
    """Why ``pid`` may not move to ``to`` (None: it may), from the tests that list the moves."""
    why = immobile(state, side, pid, to)
    if why is None and to not in moves(state, pid):
        why = unreachable(state, pid, to)
    return why


def idle(state: PBState, side: str, pid: str) -> Reason | None:
    """Why ``side``'s unit on the map has no move now (None: it has one): the tests that
    list the moves; a unit that may move and can reach no hex is told why, for one of the
    hexes around it."""
    why = immobile(state, side, pid)
    if why is not None or moves(state, pid):
        return why
    around = sorted(q.board().neighbours(state.pieces[pid].hex))
    if not around:
        return "11.0", f"{q.label(state, pid)} has no land hex around it"
    rule, text = unreachable(state, pid, around[0])
    return rule, f"{q.label(state, pid)} can enter no hex now; {around[0]}, for one: {text}"


def unreachable(state: PBState, pid: str, to: Any) -> Reason:
    """Why ``to`` is not among ``pid``'s moves: the same search as ``moves``, on what its
    side knows, with one of its limits lifted at a time (the enemy's zones of control, then
    the movement points too); what is left is the way itself."""
    p = state.pieces[pid]
    if not isinstance(to, str) or to not in q.board().terrain:
        return "11.0", f"{to} is not a land hex of the map"
    name = q.label(state, pid)
    _, occupied, bridged, spent = _search_inputs(state, p)  # (the told ZOC: the limit lifted first)
    if to in occupied:
        return "11.5", f"{to} holds enemy units: no unit enters an enemy stack's hex (11.5)"
    if to in reachable(q.board(), q.forces(), [], p, frozenset(), occupied, bridged, spent):
        return "11.6", (f"{name} cannot reach {to} through the enemy's zones of control: a unit stops on entering "
                        "one (11.6) and, leaving one, its first hex must be free of them (13.4); an enemy stack that "
                        "has not told you counts as having one until a unit moves next to it (18.4)")
    far = reachable(q.board(), q.forces(), [], p, frozenset(), occupied, bridged, spent, unlimited=True)
    if to in far:
        left = movement_points(q.forces(), p) - Fraction(spent, 2)
        return "11.3", (f"{to} costs {name} {float(far[to]):g} movement points, more than its {float(left):g} left "
                        "(11.3; the terrain costs of the Terrain Effects Chart)")
    return "11.0", (f"{name} has no way to {to}: every way there crosses prohibited terrain (the Terrain Effects "
                    "Chart) or an enemy stack's hex (11.5)")


def _search_inputs(state: PBState, p: Any) -> tuple[Any, frozenset[str], frozenset[frozenset[str]], int]:
    """What a unit's move search reads of the state: the enemy ZOC its side was told of
    (18.4), the enemy's hexes, the river hexsides other engineers bridge (20.2: "all other"
    units) and the half movement points it has spent this phase."""
    hexes = [h for h in state.bridging if not (q.kind(p.unit) == "engineer" and h == p.hex)]
    return (q.zoc_known_to(state, p.side), q.enemy_places(state, p.side), bridged_sides(q.board(), hexes),
            state.moving.get(p.id, 0))


def moves(state: PBState, pid: str) -> dict[str, Any]:
    """Where ``pid`` may end a move, with what it costs, reckoned with the enemy ZOC its side
    has been told of (18.4).  Once per state and unit: the legal list after a command finds
    every unit's, and the next command, judged on that same state, one unit's again.
    (Shared: read only.)"""
    def search() -> dict[str, Any]:
        p = state.pieces[pid]
        known, occupied, bridged, spent = _search_inputs(state, p)
        key = (p.unit, p.side, p.hex, p.suppressed, known, occupied, bridged, spent)
        found = _REACHES.get(key)
        if found is None:
            found = reachable(q.board(), q.forces(), [], p, known, occupied, bridged, spent)
            if len(_REACHES) >= _REACHES_KEPT:
                _REACHES.clear()
            _REACHES[key] = found
        return found
    return state.cached(("moves", pid), search)


# A unit's moves depend on its counter, side, hex, suppression and the half movement
# points it has spent, on the enemy ZOC its side was told of and the enemy's hexes, and on
# the bridged river hexsides: nothing else.  A side's own moves change none of the enemy's,
# so after one unit moves the others' are those of the state before.  Kept across states,
# keyed by exactly those inputs (a pure function's memo: shared answers are read only).
_REACHES: dict[tuple[Any, ...], dict[str, Any]] = {}
_REACHES_KEPT = 2048  # some 5 KB each


def gen_movement(state: PBState, side: str, unit: str | None = None) -> Iterator[Command]:
    for pid in movers(state, side):
        if unit is not None and pid != unit:
            continue
        for h in sorted(moves(state, pid)):
            yield Command("move", {"unit": pid, "to": h})
    if unit is not None:
        return
    yield from gen_beyond_moves(state, side)


def move_rows(state: PBState, side: str) -> list[tuple[str, list[str]]]:
    """The moves ``gen_movement`` lists first, as (unit, its hexes) rows in its order: a
    legal list told as choices is built from them, not from each move's command."""
    return [(pid, sorted(moves(state, pid))) for pid in movers(state, side)]


def gen_beyond_moves(state: PBState, side: str) -> Iterator[Command]:
    """What ``gen_movement`` lists after the moves, in its order."""
    yield from _carries(state, side)
    yield from _sails(state, side)
    yield from _assaults(state, side)
    yield from gen_recon(state, side)


def _carried(state: PBState, side: str, engineer: str) -> str | None:
    """20.4: the supply point a combat effective engineer could pick up in its hex."""
    p = state.pieces[engineer]
    if q.kind(p.unit) != "engineer" or p.suppressed or p.id in state.moved:
        return None
    supply = sorted(x.id for x in state.at(p.hex) if x.side == side and x.unit == SUPPLY and x.id not in state.moved)
    return supply[0] if supply else None


def _carries(state: PBState, side: str) -> Iterator[Command]:
    for pid in movers(state, side):
        if _carried(state, side, pid) is not None:
            for h in sorted(moves(state, pid)):
                yield Command("carry", {"unit": pid, "to": h})


def do_carry(em: Emitter, data: dict[str, Any], side: str) -> None:
    """20.4: the engineer moves with one supply point and drops it at the end of its move."""
    p = em.state.pieces[data["unit"]]
    point = _carried(em.state, side, p.id)
    tell.secret(em, "pieces_moved", side, {"side": side, "from": p.hex, "to": data["to"], "count": 2}, actor=side,
                ids=[p.id, point], to=data["to"], **{"from": p.hex})


def do_move(em: Emitter, data: dict[str, Any], side: str) -> None:
    """11.0; 18.4: a unit that stops next to a stack it took for a ZOC and is told that the
    stack has none may go on moving with the movement points it has left."""
    s: PBState = em.state
    p = s.pieces[data["unit"]]
    known = q.zoc_known_to(s, side)
    cost = moves(s, p.id)[data["to"]]
    spent = s.moving.get(p.id, 0) + int(cost * 2)
    goes_on = (p.unit != DECEPTION and data["to"] in known and data["to"] not in q.enemy_zoc(s, side)
               and spent < int(movement_points(q.forces(), p) * 2))
    extra = {"spent": spent} if goes_on else {}  # its own side's only: it tells the unit's movement factor
    tell.secret(em, "pieces_moved", side, {"side": side, "from": p.hex, "to": data["to"], "count": 1}, actor=side,
                ids=[p.id], to=data["to"], **{"from": p.hex}, **extra)


def _cargo(state: PBState, side: str, carrier: str, kind: str) -> list[str]:
    here = state.pieces[carrier].hex
    if kind == "supply":
        return sorted(p.id for p in state.at(here) if p.side == side and p.unit == SUPPLY)[:AMPHIBIOUS_SUPPLY]
    return sorted(p.id for p in state.at(here) if p.side == side and p.unit != SUPPLY and p.id != carrier
                  and p.id not in state.moved)


def _sails(state: PBState, side: str) -> Iterator[Command]:
    """22.1-22.3: a combat effective amphibious unit in a coastal hex carries one stack or
    three supply points to any coastal hex it could enter, not onto the enemy; all its move."""
    follow = state.phase.startswith("follow_")
    enemy = q.enemy_hexes(state, side)
    for p in state.on_map(side):
        if q.kind(p.unit) != "amphibious" or p.suppressed or p.id in state.moved or p.hex not in q.board().coastal:
            continue
        if follow and p.id not in state.eligible:
            continue
        kinds = ["units"] + (["supply"] if _cargo(state, side, p.id, "supply") else [])
        for h in sorted(q.board().coastal - enemy - {p.hex}):
            if q.board().cost(h, h, q.spec(p).mechanised) is None:
                continue
            for kind in kinds:
                yield Command("sail", {"carrier": p.id, "to": h, "cargo": kind})


def sea_next_to(hex_id: str) -> str | None:
    """The all-sea hex an assault on ``hex_id`` comes from (the first, west to east)."""
    b = q.board()
    seas = sorted(n for n in neighbor_ids(hex_id) if n in b.sea)
    return seas[0] if seas else None


def _assaults(state: PBState, side: str) -> Iterator[Command]:
    """22.3: a combat effective amphibious unit in a coastal hex takes its stack to the sea
    next to a coastal hex held by the enemy; they land only by winning the battle there."""
    follow = state.phase.startswith("follow_")
    targets = sorted(h for h in q.enemy_hexes(state, side) if h in q.board().coastal and sea_next_to(h))
    for p in state.on_map(side):
        if q.kind(p.unit) != "amphibious" or p.suppressed or p.id in state.moved or p.hex not in q.board().coastal:
            continue
        if (follow and p.id not in state.eligible) or not _cargo(state, side, p.id, "units"):
            continue
        for h in targets:
            yield Command("assault", {"carrier": p.id, "target": h})


def do_assault(em: Emitter, data: dict[str, Any], side: str) -> None:
    p = em.state.pieces[data["carrier"]]
    ids = sorted([p.id, *_cargo(em.state, side, p.id, "units")])
    sea = sea_next_to(data["target"])
    tell.secret(em, "pieces_moved", side, {"side": side, "from": p.hex, "to": sea, "count": len(ids),
                                           "assault": data["target"]}, actor=side, ids=ids, to=sea,
                assault=data["target"], **{"from": p.hex})


def do_sail(em: Emitter, data: dict[str, Any], side: str) -> None:
    p = em.state.pieces[data["carrier"]]
    ids = sorted([p.id, *_cargo(em.state, side, p.id, data["cargo"])])
    tell.secret(em, "pieces_moved", side, {"side": side, "from": p.hex, "to": data["to"], "count": len(ids),
                                           "amphibious": True}, actor=side, ids=ids, to=data["to"],
                amphibious=True, **{"from": p.hex})


# --- recon (16.7, 18.2) and examining (18.1) ----------------------------------------------------

def recon_points(state: PBState, side: str) -> int:
    return state.air[side].missions.get("recon", 0)


RECON_REFUSED: Reason = ("16.7", "air recon needs a point on the Recon mission and a hex of the map from which "
                                 "it examines an enemy stack not yet examined this phase: the stack's hex, one next "
                                 "to it, or within two of it in open ground (16.71)")


def gen_recon(state: PBState, side: str) -> Iterator[Command]:
    if recon_points(state, side) <= 0:
        return
    for h in recon_targets(state, side):
        yield Command("recon", {"hex": h})


def recon_refusal(state: PBState, side: str, hex_id: Any) -> Reason | None:
    """Why no air recon over ``hex_id`` (None: there may be one, in a phase that has them)."""
    if recon_points(state, side) <= 0 or hex_id not in recon_targets(state, side):
        return RECON_REFUSED
    return None


def recon_targets(state: PBState, side: str) -> list[str]:
    """16.7: any hex of the map from which an air recon examines an enemy stack not yet
    examined this phase (R-PB-16.7: a flight that would examine nothing is not offered; where
    the enemy's stacks are is no secret, so neither is this list)."""
    b = q.board()
    on_map = set(b.terrain) | b.sea
    out: set[str] = set()
    for t in q.enemy_hexes(state, side) - state.examined[side]:
        near = {t, *neighbor_ids(t)}  # sea hexes too: a flight over the sea off a beach sees it
        out |= near
        if t in b.terrain and terrain.TERRAIN[b.terrain[t]].open_to_recon:  # seen from two hexes away
            out.update(n for h in near for n in neighbor_ids(h))
    return sorted(out & on_map)


def recon_hexes(state: PBState, hex_id: str) -> set[str]:
    """16.71: the hex and its neighbours, and open ground within two hexes."""
    b = q.board()
    out = {hex_id, *b.neighbours(hex_id)}
    for h, t in b.terrain.items():
        if distance_between(h, hex_id) <= 2 and terrain.TERRAIN[t].open_to_recon:
            out.add(h)
    return out


def examine(em: Emitter, side: str, hexes: set[str], why: str, rule: str) -> None:
    """The enemy units in ``hexes``, for ``side`` only (18.0)."""
    s: PBState = em.state
    enemy = other(side)
    found = {h: [[p.id, p.unit] for p in sorted(s.at(h), key=lambda p: p.id) if p.side == enemy]
             for h in sorted(hexes)}
    found = {h: units for h, units in found.items() if units}
    tell.secret(em, "examined", side, {"side": side, "why": why, "rule": rule, "stacks": len(found)},
                side=side, hexes=sorted(found), units=found, why=why, rule=rule)


def do_recon(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("air_changed", side, side=side, missions={"recon": -1, "flown": 1}, why=f"air recon over {data['hex']}")
    examine(em, side, recon_hexes(em.state, data["hex"]), f"air recon over {data['hex']}", "16.7")


# --- strikes (16.8) and naval bombardment (17.0) -------------------------------------------

def strike_points(state: PBState, side: str) -> int:
    return state.air[side].missions.get("strike", 0)


def placed_at(state: PBState, hex_id: str) -> int:
    return sum(s["air"] for s in state.strikes if s["hex"] == hex_id)


def strikes_over(state: PBState) -> Reason | None:
    return ("16.8", "this phase's strikes are resolved") if state.struck else None


def strike_room(state: PBState, side: str, hex_id: str) -> int:
    """26.4: the air strike points ``side`` may still place on ``hex_id``."""
    return min(strike_points(state, side), tables.AIR_STRIKE_LIMIT - placed_at(state, hex_id))


def strike_refusal(state: PBState, side: str, hex_id: Any, points: Any) -> Reason | None:
    """Why no strike of ``points`` on ``hex_id`` (None: there may be one, in a strike phase),
    from the tests that list the strikes."""
    over = strikes_over(state)
    if over:
        return over
    if hex_id not in q.enemy_hexes(state, side):
        return "16.8", "strikes go against hexes holding enemy ground units"
    if (hex_id in q.board().terrain and isinstance(points, int)
            and 1 <= points <= strike_room(state, side, hex_id)):
        return None
    return strike_limit(state, side)


def strike_limit(state: PBState, side: str) -> Reason:
    return "26.4", (f"at most {tables.AIR_STRIKE_LIMIT} air strike points a hex, from the "
                    f"{strike_points(state, side)} left on the Strike mission")


def gen_strikes(state: PBState, side: str) -> Iterator[Command]:
    if strikes_over(state):
        return
    for h in sorted(q.enemy_hexes(state, side) & set(q.board().terrain)):
        for n in range(1, strike_room(state, side, h) + 1):
            yield Command("strike", {"hex": h, "points": n})
    yield from gen_recon(state, side)
    yield from gen_artillery(state, side)


def do_strike(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("strike_placed", side, side=side, hex=data["hex"], air=data["points"])


# --- HQ artillery (29.0, optional) ------------------------------------------------------------

ARTILLERY_HQS = {"Japanese": 2, "Allied": 3}  # 29.1 limits: HQs firing into one hex


def artillery_left(state: PBState, hq: str) -> int:
    used = sum(st["value"] for st in state.strikes if st.get("artillery") == hq)
    return q.spec(state.pieces[hq]).support - used


def gen_artillery(state: PBState, side: str) -> Iterator[Command]:
    """29.1, 29.2: an activated HQ in or next to a friendly supply unit's hex fires its support
    value (or parts of it) at enemy hexes within its support radius; a supply point is spent
    for each HQ that fires."""
    if not state.options.get("artillery") or state.struck:
        return
    supply = [p for p in state.on_map(side) if p.unit == SUPPLY]
    targets = sorted(q.enemy_hexes(state, side) & set(q.board().terrain))
    for hq in q.active_hqs(state, side):
        left = artillery_left(state, hq.id)
        fired = any(st.get("artillery") == hq.id for st in state.strikes)
        if left <= 0 or not (fired or any(distance_between(p.hex, hq.hex) <= 1 for p in supply)):
            continue
        for h in targets:
            firing = {st["artillery"] for st in state.strikes if st["hex"] == h and st.get("artillery")}
            if not q.in_radius(state, hq, h) or (hq.id not in firing and len(firing) >= ARTILLERY_HQS[side]):
                continue
            for points in range(1, left + 1):
                yield Command("artillery", {"hq": hq.id, "hex": h, "points": points})


def do_artillery(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    hq = s.pieces[data["hq"]]
    if not any(st.get("artillery") == hq.id for st in s.strikes):
        point = sorted((p for p in s.on_map(side) if p.unit == SUPPLY and distance_between(p.hex, hq.hex) <= 1),
                       key=lambda p: p.id)[0]
        tell.secret(em, "supply_spent", side, {"side": side, "points": 1}, ids=[point.id], why="HQ artillery (29.1)")
    tell.secret(em, "strike_placed", side, {"side": side, "hex": data["hex"], "air": 0, "value": data["points"],
                                             "artillery": True}, actor=side, side=side, hex=data["hex"], air=0,
                value=data["points"], artillery=hq.id)


def bombard(em: Emitter, side: str, name: str, hex_id: str) -> None:
    markers.play(em, side, name, f"naval bombardment of {markers.NAVAL[name]} on {hex_id}", target=hex_id)
    em.emit("strike_placed", side, side=side, hex=hex_id, air=0, naval=name, value=markers.NAVAL[name])


def resolve_strikes(em: Emitter, side: str) -> None:
    """16.8: every strike placed, then one hex at a time: points (air and naval together),
    the terrain shifting left, markers right, one die; AA after, on one air unit (16.84);
    the units in the hex are not revealed (16.85)."""
    s: PBState = em.state
    by_hex: dict[str, dict[str, int]] = {}
    for st in s.strikes:
        got = by_hex.setdefault(st["hex"], {"air": 0, "naval": 0})
        got["air"] += st["air"]
        got["naval"] += st["value"]
    if not by_hex and not s.struck:
        em.emit("strikes_resolved", side, side=side, count=0)
        return
    em.emit("strikes_resolved", side, side=side, count=len(by_hex))
    for i, (h, got) in enumerate(sorted(by_hex.items())):
        t = terrain.TERRAIN[q.board().terrain[h]]
        die = em.roll(i)
        column, result = air.strike(got["air"] + got["naval"], t.bombardment, die, em.state.shifts[side])
        em.emit("strike_result", side, side=side, hex=h, air=got["air"], naval=got["naval"], column=column,
                die=die, result=result, terrain=t.bombardment, shift=em.state.shifts[side])
        enemy = other(side)
        here = [p for p in em.state.at(h) if p.side == enemy]
        if result == "AA" and got["air"]:
            em.emit("air_changed", None, side=side, boxes={"damaged": 1}, missions={"struck": -1},
                    why=f"anti-aircraft fire over {h} (16.84)")
        if result in ("S", "E"):
            supply = sorted(p.id for p in here if p.unit == SUPPLY)
            if supply:
                tell.secret(em, "pieces_removed", enemy, {"side": enemy, "hex": h, "what": "a supply point"},
                            ids=supply[:1], box="mix")
            combat = sorted(p.id for p in here if q.is_combat(p) or q.is_hq(p))
            if result == "E" and combat:
                planning.owe_losses(em, enemy, 1, "battalions", combat, f"the strike on {h}", "16.8", vp_to=side)
            if combat:
                tell.secret(em, "suppressed", enemy, {"side": enemy, "hex": h}, ids=combat)


def vp_for(side: str, unit: str) -> tuple[int, str]:
    """Immediate VP to ``side`` for eliminating the enemy counter ``unit``."""
    kind = q.kind(unit)
    if kind == "supply":
        return 0, "supply"
    if kind == "hq":
        return victory.for_loss(side, "hq"), "hq"
    return victory.for_loss(side, "battalion", q.battalions(unit)), "battalion"
