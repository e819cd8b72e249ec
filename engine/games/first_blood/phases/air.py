"""§6.6-§6.8 Air and naval assignments made in the movement phases:
IJ air-to-air combat, IJN shore bombardment, USAF ground support."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.core.errors import IllegalCommandError
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


def gen_air_attacks(state: FBState) -> list[Command]:
    """Table 7: a fighter downs a CAP fighter; two bombers down a CAP fighter; once CAP
    is empty a fighter downs a Ground Attack bomber."""
    cap = sorted(q.units_at(state, CAP))
    ga = sorted(q.units_at(state, GROUND_ATTACK))
    fighters, bombers = _ijaaf(state, "fighter"), _ijaaf(state, "bomber")
    out = []
    for target in cap:
        out += [Command("air_attack", {"units": [f], "target": target}) for f in fighters]
        out += [Command("air_attack", {"units": list(p), "target": target})
                for p in combinations(bombers, 2)]
    if not cap:
        for target in ga:
            out += [Command("air_attack", {"units": [f], "target": target}) for f in fighters]
    return out


def gen_naval_support(state: FBState) -> list[Command]:
    """§6.6: IJN destroyers in the IJN Attack box may be placed on US ground units."""
    ships = sorted(uid for uid, u in state.units.items()
                   if u.loc == IJN_ATTACK and not u.used and u.support is None)
    hexes = sorted(h for h, s in q.hex_owner(state).items() if s == "US")
    return [Command("naval_support", {"unit": s, "hex": h}) for s in ships for h in hexes]


def gen_air_support(state: FBState) -> list[Command]:
    """§6.8: bombers in Ground Attack may be placed on IJ units (any number per combat)."""
    bombers = sorted(uid for uid, u in state.units.items()
                     if u.loc == GROUND_ATTACK and not u.used and u.support is None)
    hexes = sorted(h for h, s in q.hex_owner(state).items() if s == "IJ")
    return [Command("air_support", {"unit": b, "hex": h}) for b in bombers for h in hexes]


def why_air_illegal(state: FBState, side: str, cmd: Command) -> IllegalCommandError:
    if cmd.type == "air_attack":
        if side != "IJ":
            return IllegalCommandError("§6.7", "only the IJ fights air-to-air, in its movement phase")
        target = cmd.data.get("target")
        if target in state.units and state.units[target].loc == GROUND_ATTACK and q.units_at(state, CAP):
            return IllegalCommandError("§6.7", "the USAF CAP box must be emptied before Ground Attack "
                                               "bombers can be attacked")
        return IllegalCommandError("§6.7", "one IJAAF fighter, or two IJAAF bombers, against one USAF "
                                           "unit in CAP; only fighters attack Ground Attack bombers")
    if cmd.type == "naval_support":
        return IllegalCommandError("§6.6", "only an unused IJN destroyer in the IJN Attack box may "
                                           "support, and only on a hex with US ground units")
    return IllegalCommandError("§6.8", "only an unassigned bomber in the USAF Ground Attack box may "
                                       "support, and only on a hex with IJ ground units")


def do_air_attack(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("air_combat", side, attackers=list(data["units"]), target=data["target"])


def do_support(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("support_assigned", side, unit=data["unit"], hex=data["hex"])


def return_unused_support(em: Emitter, side: str) -> None:
    """R-6.6a: a support placed on a hex that was not attacked goes back unused."""
    for uid, u in list(em.state.units.items()):
        if u.support is not None and q.spec(uid).side == side:
            em.emit("support_returned", side, unit=uid)
