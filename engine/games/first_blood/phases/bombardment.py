"""§7.10 Airfield bombardment by IJ artillery, IJN destroyers and IJAAF bombers."""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalCommandError, Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.phases.combat import in_range
from engine.games.first_blood.phases.engineering import crews, needs_work
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


def bombarder_refusal(state: FBState, uid: str, us_zoc: set[str] | None = None) -> Reason | None:
    """Why the unit may not bombard an air strip now, or None (cited as §7.10, with the
    section that forbids it in the text)."""
    u, s = state.units[uid], q.spec(uid)
    if s.side != "IJ":
        return "§7.10", f"{q.label(uid)} is not an IJ unit"
    if u.used:
        return "§7.10", f"{q.label(uid)} has already acted this turn (§6.6: one action only)"
    if s.kind == "ground":
        if not s.is_artillery or not is_map_hex(u.loc):
            return "§7.10", "only IJ artillery on the map, destroyers and bombers bombard air strips"
        if u.fought:
            return "§7.10", f"{q.label(uid)} has already taken part in a combat (§7.5: one action only)"
        if u.loc in (q.zoc_of(state, "US") if us_zoc is None else us_zoc):
            return "§7.10", f"{q.label(uid)} is in enemy ZOC and must attack what it touches (§7, R-7.5a)"
        return None
    if s.kind == "destroyer":
        if u.loc not in (IJN_RESERVE, IJN_ATTACK):
            return "§7.10", f"{q.label(uid)} bombards only from the IJN Reserve or Attack box"
        if u.support is not None:
            return "§7.10", f"{q.label(uid)} is giving shore bombardment (§6.6: one action only)"
        return None
    if s.kind == "bomber" and u.loc in (IJAAF_RESERVE, IJAAF_ATTACK):
        if q.units_at(state, CAP):
            return "§7.10", "IJAAF bombers cannot bomb air strips while USAF fighters patrol in the CAP box"
        return None
    return "§7.10", f"{q.label(uid)} cannot bombard air strips"


def target_refusal(state: FBState, uid: str, hex_id: str) -> Reason | None:
    """Why this bombarder may not bombard this air strip hex now, or None."""
    if hex_id not in state.strips:
        return "§7.10", f"{hex_id} is not an air strip hex"
    if q.spec(uid).kind == "ground" and not in_range(uid, state.units[uid].loc, hex_id):
        return "§7.10", f"{hex_id} is out of {q.label(uid)}'s range ({q.spec(uid).range}, counting both hexes)"
    strip = state.strips[hex_id]
    if not strip.built and (not strip.work or q.spec(uid).kind == "ground"):
        # R-7.10a: artillery only hits built strips; others also stop work on new ones
        return "§7.10", f"the strip at {hex_id} has not been built" + (
            "" if q.spec(uid).kind == "ground" else " and no work is under way on it")
    worse = strip.status == "oper" if q.spec(uid).kind == "ground" else strip.status != "dest"
    # US ground units there are not hit (§7.10); a bombardment only keeps an engineer there
    # from working on the strip this turn (§10): one that could, on a strip that needs it
    kept_from_work = needs_work(state, hex_id) and bool(crews(state, hex_id))
    if not (worse or strip.work > 0 or kept_from_work or q.units_at(state, strip_loc(hex_id))):
        return "§7.10", (f"bombarding {hex_id} would change nothing: no USAF unit, no work to stop, no worse status, "
                         "no engineer there who could work on it this turn (R-7.10a)")
    return None


def bombarders(state: FBState) -> list[str]:
    us_zoc = q.zoc_of(state, "US")
    return sorted(uid for uid in state.units if bombarder_refusal(state, uid, us_zoc) is None)


def gen_bombard(state: FBState) -> list[Command]:
    out = []
    for uid in bombarders(state):
        for h in sorted(state.strips):
            if target_refusal(state, uid, h) is not None:
                continue
            usaf = sorted(q.units_at(state, strip_loc(h)))
            if usaf:
                out += [Command("bombard", {"unit": uid, "hex": h, "target": t}) for t in usaf]
            else:
                out.append(Command("bombard", {"unit": uid, "hex": h, "target": None}))
    return out


def why_bombard_illegal(state: FBState, cmd: Command) -> IllegalCommandError:
    uid, h, target = cmd.data.get("unit"), cmd.data.get("hex"), cmd.data.get("target")
    if uid not in state.units:
        return IllegalCommandError("§7.10", f"there is no unit {uid!r}")
    why = bombarder_refusal(state, uid) or (target_refusal(state, uid, h) if isinstance(h, str) else None)
    if why:
        return IllegalCommandError(*why)
    usaf = q.units_at(state, strip_loc(h))
    if usaf:
        return IllegalCommandError("§7.10", f"name the USAF unit at {h} that is hit: one of "
                                            f"{', '.join(q.label(u) for u in sorted(usaf))} (R-7.10a)")
    return IllegalCommandError("§7.10", f"there is no USAF unit at {h} to hit ({target!r})")


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
