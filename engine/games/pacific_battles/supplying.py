"""The logistics phase (4.1 1f, 7.0): suppression removed, breakdown and combine (9.0,
26.7), supply spent to activate HQs (7.3), refit (7.5), repair aircraft (7.6, 26.3) and
fortify (20.3, 21.0); HQs not activated flip over at the end (7.4).  Dig In and Staff
Planning are played here."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import tell
from engine.games.pacific_battles.logistics import fortification_hexes, in_supply_radius
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import PBState

BASE = "base"
REFIT_BATTALIONS = 3  # 7.5: one supply point refits up to three battalion equivalents
REPAIR = 3  # 7.6: one supply point repairs up to three damaged air units
DIG_IN = 3  # Dig In: up to three fortification markers


def begin(em: Emitter, side: str) -> None:
    s: PBState = em.state
    ids = sorted(p.id for p in s.on_map(side) if p.suppressed)
    if ids:
        tell.secret(em, "suppression_removed", side, {"side": side}, ids=ids)


def end(em: Emitter, side: str) -> None:
    s: PBState = em.state
    idle = sorted(p.id for p in s.on_map(side) if p.id in s.active and p.id not in s.activated_now)
    if idle:
        tell.secret(em, "hqs_deactivated", side, {"side": side}, ids=idle, why="not activated this phase (7.4)")


def supply_points(state: PBState, side: str) -> list[tuple[str, str]]:
    """(id, where) of every supply point that may be spent: on the map outside an
    overstacked hex (12.5.2), or in the home base.  (Once per state and side, asked for
    each refit the legal list weighs: shared, read only.)"""
    return state.cached(("supply_points", side), lambda: _supply_points(state, side))


def _supply_points(state: PBState, side: str) -> list[tuple[str, str]]:
    over = set(q.overstacked(state, side))
    out = [(p.id, p.hex) for p in state.on_map(side) if p.unit == SUPPLY and p.hex not in over]
    out += [(o.id, BASE) for o in state.in_box(side, "base") if o.unit == SUPPLY]
    return sorted(out)


def _one_per_place(points: list[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for pid, where in points:
        seen.setdefault(where, pid)
    return sorted((pid, where) for where, pid in seen.items())


def gen_logistics(state: PBState, side: str) -> Iterator[Command]:
    points = _one_per_place(supply_points(state, side))
    hqs = [p for p in state.on_map(side) if q.is_hq(p) and p.id not in state.activated_now]
    over = set(q.overstacked(state, side))
    for pid, where in points:
        if where == BASE:
            continue
        for hq in hqs:
            if in_supply_radius(where, hq.hex) and not hq.suppressed and hq.hex not in over:
                yield Command("activate", {"supply": pid, "hq": hq.id})
    for o in state.in_box(side, "replace"):
        for where, credit in sorted(state.refit_credit.items()):  # a point spent here still pays (7.5)
            if q.unit_spec(o.unit).kind != "hq" and credit >= q.battalions(o.unit):
                yield Command("refit", {"unit": o.id, "supply": where})
        for pid, where in points:  # naming a point there spends the credit first
            if refit_cost_at(state, side, o.unit, where) is not None:
                yield Command("refit", {"unit": o.id, "supply": pid})
    if state.air[side].damaged:
        for pid, where in points:
            if where == BASE or (where == q.henderson_hex() and not state.repaired_on_field):
                yield Command("repair", {"supply": pid})
    for p in state.on_map(side):
        if q.kind(p.unit) == "engineer" and not p.suppressed:
            for pid, where in points:
                if where != BASE and in_supply_radius(where, p.hex) and fortification_hexes(
                        q.board(), q.forces(), list(state.pieces.values()), p) - state.fortified:
                    yield Command("fortify", {"engineer": p.id, "supply": pid})
        s = q.spec(p)
        if s is not None and s.breaks is not None:
            yield Command("breakdown", {"unit": p.id})
    yield from _combines(state, side)
    yield Command("end_phase")


def refit_cost_at(state: PBState, side: str, unit: str, where: str) -> int | None:
    """Supply points a refit of ``unit`` spends at ``where`` (0: paid by the points already
    spent there this phase, whose unused battalions carry over), or None when there are
    not enough."""
    spec = q.unit_spec(unit)
    there = [pid for pid, w in supply_points(state, side) if w == where]
    if spec.kind == "hq":
        return spec.support if len(there) >= spec.support else None
    if state.refit_credit.get(where, 0) >= spec.battalions:
        return 0
    return 1 if there else None


def _combines(state: PBState, side: str) -> Iterator[Command]:
    """9.2, 9.41, 9.42: a regiment counter from the mix, from its number of battalions of its
    kind in one hex, none suppressed."""
    for name in sorted(state.mix):
        spec = q.forces().units.get(name)
        if spec is None or spec.side != side or spec.breaks is None:
            continue
        bn, n = spec.breaks
        by_hex: dict[str, list[str]] = {}
        for p in state.on_map(side):
            if p.unit == bn and not p.suppressed:
                by_hex.setdefault(p.hex, []).append(p.id)
        for h in sorted(by_hex):
            if len(by_hex[h]) >= n:
                yield Command("combine", {"into": name, "units": sorted(by_hex[h])[:n]})


def do_activate(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "supply_spent", side, {"side": side, "points": 1}, ids=[data["supply"]], why="HQ activation")
    tell.secret(em, "hq_activated", side, {"side": side}, hq=data["hq"])


def do_refit(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    o = s.off[data["unit"]]
    where = dict(supply_points(s, side)).get(data["supply"], data["supply"])  # a point, or where one was spent
    spec = q.unit_spec(o.unit)
    cost = refit_cost_at(s, side, o.unit, where)
    if spec.kind == "hq":
        ids = [data["supply"]] + [pid for pid, w in supply_points(s, side) if w == where and pid != data["supply"]]
        tell.secret(em, "supply_spent", side, {"side": side, "points": cost}, ids=ids[:cost], why="refit (7.5)")
    elif cost == 0:
        tell.secret(em, "refit_credit_used", side, None, where=where,
                    credit=s.refit_credit[where] - spec.battalions)
    else:
        tell.secret(em, "supply_spent", side, {"side": side, "points": 1}, ids=[data["supply"]], why="refit (7.5)",
                    where=where, credit=s.refit_credit.get(where, 0) + REFIT_BATTALIONS - spec.battalions)
    if where == BASE:
        tell.secret(em, "off_moved", side, {"side": side, "refit": 1}, ids=[o.id], box="base")
    else:  # 7.51: in the hex where the supply was spent
        tell.secret(em, "piece_placed", side, {"side": side, "hex": where}, actor=side, id=o.id, hex=where)


def do_repair(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    where = dict(supply_points(s, side))[data["supply"]]
    n = min(REPAIR, s.air[side].damaged)
    tell.secret(em, "supply_spent", side, {"side": side, "points": 1}, ids=[data["supply"]], why="air repair (7.6)",
                on_field=where != BASE)
    em.emit("air_changed", None, side=side, boxes={"damaged": -n, "reserve": n}, why="repaired (7.6, 26.3)")


def do_fortify(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    eng = s.pieces[data["engineer"]]
    hexes = sorted(fortification_hexes(q.board(), q.forces(), list(s.pieces.values()), eng) - s.fortified)
    tell.secret(em, "supply_spent", side, {"side": side, "points": 1}, ids=[data["supply"]], why="fortification (20.3)")
    em.emit("fortified", side, side=side, hexes=hexes)


def do_breakdown(em: Emitter, data: dict[str, Any], side: str, public: bool = False) -> None:
    s: PBState = em.state
    p = s.pieces[data["unit"]]
    bn, n = q.spec(p).breaks
    ids = q.new_ids(s, side, n)
    into = [[i, bn] for i in ids]
    if public:
        em.emit("broken_down", side, id=p.id, into=into, hex=p.hex)
    else:
        tell.secret(em, "broken_down", side, {"side": side, "hex": p.hex}, id=p.id, into=into, hex=p.hex)


def do_combine(em: Emitter, data: dict[str, Any], side: str) -> None:
    hex_id = em.state.pieces[data["units"][0]].hex
    tell.secret(em, "combined", side, {"side": side, "hex": hex_id}, ids=data["units"], into=data["into"], hex=hex_id)


# --- Dig In and Staff Planning ----------------------------------------------------------------

def gen_dig(state: PBState, side: str) -> Iterator[Command]:
    for h in sorted({p.hex for p in state.on_map(side)} - state.fortified):
        yield Command("dig", {"hex": h})
    yield Command("pass")


def do_dig(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("fortified", side, side=side, hexes=[data["hex"]], why="Dig In")
    left = em.state.pending[0]["left"] - 1
    if left > 0 and list(gen_dig(em.state, side))[:-1]:
        tell.progress(em, side, changes={"left": left})
    else:
        em.emit("decision_made", side)


def gen_staff(state: PBState, side: str) -> Iterator[Command]:
    for p in state.on_map(side):
        if q.is_hq(p) and p.id not in state.activated_now and not p.suppressed:
            yield Command("activate_free", {"hq": p.id})


def do_activate_free(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "hq_activated", side, {"side": side}, hq=data["hq"], why="Staff Planning")
    em.emit("decision_made", side)

