"""§7.10 Airfield bombardment by IJ artillery, IJN destroyers and IJAAF bombers."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.phases.combat import in_range
from engine.games.first_blood.state import (
    CAP,
    IJAAF_ATTACK,
    IJAAF_RESERVE,
    IJN_ATTACK,
    IJN_RESERVE,
    FBState,
    is_map_hex,
    strip_loc,
)


def bombarders(state: FBState) -> list[str]:
    us_zoc = q.zoc_of(state, "US")
    cap_empty = not q.units_at(state, CAP)
    out = []
    for uid, u in state.units.items():
        s = q.spec(uid)
        if s.side != "IJ" or u.used:
            continue
        artillery = (s.kind == "ground" and s.is_artillery and is_map_hex(u.loc)
                     and not u.fought and u.loc not in us_zoc)
        ship = s.kind == "destroyer" and u.loc in (IJN_RESERVE, IJN_ATTACK) and u.support is None
        plane = s.kind == "bomber" and u.loc in (IJAAF_RESERVE, IJAAF_ATTACK) and cap_empty
        if artillery or ship or plane:
            out.append(uid)
    return sorted(out)


def _worth_bombarding(state: FBState, uid: str, hex_id: str) -> bool:
    strip = state.strips[hex_id]
    if not strip.built and (not strip.work or q.spec(uid).kind == "ground"):
        return False  # R-7.10a: artillery only hits built strips; others also stop work on new ones
    worse = strip.status == "oper" if q.spec(uid).kind == "ground" else strip.status != "dest"
    has_us = any(q.spec(u).side == "US" for u in q.units_at(state, hex_id))
    return worse or strip.work > 0 or has_us or bool(q.units_at(state, strip_loc(hex_id)))


def gen_bombard(state: FBState) -> list[Command]:
    out = []
    for uid in bombarders(state):
        u = state.units[uid]
        for h in sorted(state.strips):
            if q.spec(uid).kind == "ground" and not in_range(uid, u.loc, h):
                continue
            if not _worth_bombarding(state, uid, h):
                continue
            usaf = sorted(q.units_at(state, strip_loc(h)))
            if usaf:
                out += [Command("bombard", {"unit": uid, "hex": h, "target": t}) for t in usaf]
            else:
                out.append(Command("bombard", {"unit": uid, "hex": h, "target": None}))
    return out


def why_bombard_illegal(state: FBState, cmd: Command) -> IllegalCommandError:
    uid = cmd.data.get("unit")
    if uid in state.units and q.spec(uid).kind == "bomber" and q.units_at(state, CAP):
        return IllegalCommandError("§7.10", "IJAAF bombers cannot bomb air strips while USAF fighters "
                                            "patrol in the CAP box")
    if uid in state.units and q.spec(uid).kind == "ground":
        return IllegalCommandError("§7.10", "artillery bombards a built air strip hex within its range, "
                                            "once per combat phase, and not while in enemy ZOC")
    return IllegalCommandError("§7.10", "name an unused bombarding unit, a built air strip hex, and a "
                                        "USAF unit there if there is one (it must be hit first)")


def do_bombard(em: Emitter, data: dict[str, Any], side: str) -> None:
    state: FBState = em.state
    uid, h, target = data["unit"], data["hex"], data.get("target")
    strip = state.strips[h]
    if target is not None:
        effect = "usaf_eliminated"
    elif q.spec(uid).kind == "ground":
        effect = "damaged" if strip.status == "oper" else "none"
    else:
        effect = "destroyed" if strip.status != "dest" else "none"
    em.emit("bombarded", side, unit=uid, hex=h, target=target, effect=effect, work_lost=strip.work)
