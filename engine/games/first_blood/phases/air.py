"""§6.6-§6.8 Air and naval assignments made in the movement phases:
IJ air-to-air combat, IJN shore bombardment, USAF ground support."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.core.errors import IllegalCommandError, Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import (
    CAP,
    GROUND_ATTACK,
    IJAAF_ATTACK,
    IJAAF_RESERVE,
    IJN_ATTACK,
    FBState,
)


def _ijaaf(state: FBState, kind: str) -> list[str]:
    return sorted(uid for uid, u in state.units.items()
                  if u.loc in (IJAAF_RESERVE, IJAAF_ATTACK) and q.spec(uid).kind == kind and not u.used)



def air_attack_refusal(state: FBState, units: list[str], target: str) -> Reason | None:
    """Table 7: one fighter downs a CAP fighter, two bombers down a CAP fighter, and once
    CAP is empty a fighter downs a Ground Attack bomber.  Why these may not, or None."""
    for uid in units:
        u = state.units.get(uid)
        if u is None or u.loc not in (IJAAF_RESERVE, IJAAF_ATTACK) or u.used:
            return "§6.7", f"{uid!r} is not an unused IJAAF unit in the Reserve or Attack box"
    if target not in state.units or state.units[target].loc not in (CAP, GROUND_ATTACK):
        return "§6.7", f"{target!r} is not a USAF unit in the CAP or Ground Attack box"
    kinds = sorted(q.spec(u).kind for u in units)
    if state.units[target].loc == GROUND_ATTACK:
        if q.units_at(state, CAP):
            return "§6.7", "the USAF CAP box must be emptied before Ground Attack bombers can be attacked"
        if kinds != ["fighter"]:
            return "§6.7", "only one IJAAF fighter attacks a Ground Attack bomber (Table 7)"
    elif kinds not in (["fighter"], ["bomber", "bomber"]):
        return "§6.7", "one IJAAF fighter, or two IJAAF bombers, attack one USAF unit in CAP (Table 7)"
    return None


def gen_air_attacks(state: FBState) -> list[Command]:
    """Every air-to-air attack Table 7 allows now (``air_attack_refusal`` decides)."""
    usaf = sorted(q.units_at(state, CAP)) + sorted(q.units_at(state, GROUND_ATTACK))
    fighters, bombers = _ijaaf(state, "fighter"), _ijaaf(state, "bomber")
    teams = [[f] for f in fighters] + [list(p) for p in combinations(bombers, 2)]
    return [Command("air_attack", {"units": team, "target": t})
            for t in usaf for team in teams if air_attack_refusal(state, team, t) is None]


def support_refusal(state: FBState, kind: str, uid: str, hex_id: str) -> Reason | None:
    """§6.6: an unused IJN destroyer in the IJN Attack box on a hex of US ground units;
    §6.8: an unassigned bomber in Ground Attack on a hex of IJ ground units."""
    box, enemy, rule = (IJN_ATTACK, "US", "§6.6") if kind == "naval_support" else (GROUND_ATTACK, "IJ", "§6.8")
    u = state.units.get(uid)
    if u is None or u.loc != box or u.used or u.support is not None:
        what = "IJN destroyer in the IJN Attack box" if kind == "naval_support" else \
            "bomber in the USAF Ground Attack box"
        return rule, f"only an unused, unassigned {what} may support ({uid!r} is not one)"
    if q.hex_owner(state).get(hex_id) != enemy:
        return rule, f"support goes on a hex with {enemy} ground units; {hex_id} has none"
    return None


def gen_naval_support(state: FBState) -> list[Command]:
    """§6.6: IJN destroyers in the IJN Attack box may be placed on US ground units."""
    return _gen_support(state, "naval_support", IJN_ATTACK, "US")


def gen_air_support(state: FBState) -> list[Command]:
    """§6.8: bombers in Ground Attack may be placed on IJ ground units (any number per combat)."""
    return _gen_support(state, "air_support", GROUND_ATTACK, "IJ")


def _gen_support(state: FBState, kind: str, box: str, enemy: str) -> list[Command]:
    units = sorted(q.units_at(state, box))
    hexes = sorted(h for h, s in q.hex_owner(state).items() if s == enemy)
    return [Command(kind, {"unit": u, "hex": h}) for u in units for h in hexes
            if support_refusal(state, kind, u, h) is None]


def why_air_illegal(state: FBState, side: str, cmd: Command) -> IllegalCommandError:
    if cmd.type == "air_attack":
        if side != "IJ":
            return IllegalCommandError("§6.7", "only the IJ fights air-to-air, in its movement phase")
        why = air_attack_refusal(state, list(cmd.data.get("units") or []), cmd.data.get("target"))
    elif cmd.type == "naval_support" and side != "IJ":
        return IllegalCommandError("§6.6", "shore bombardment is the IJN's")
    elif cmd.type == "air_support" and side != "US":
        return IllegalCommandError("§6.8", "ground support is the USAF's")
    else:
        why = support_refusal(state, cmd.type, cmd.data.get("unit"), cmd.data.get("hex"))
    return IllegalCommandError(*(why or ("§6.7", "that air mission is not possible now")))


def do_air_attack(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("air_combat", side, attackers=list(data["units"]), target=data["target"])


def do_support(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("support_assigned", side, unit=data["unit"], hex=data["hex"])


def return_unused_support(em: Emitter, side: str) -> None:
    """R-6.6a: a support placed on a hex that was not attacked goes back unused."""
    for uid, u in list(em.state.units.items()):
        if u.support is not None and q.spec(uid).side == side:
            em.emit("support_returned", side, unit=uid)
