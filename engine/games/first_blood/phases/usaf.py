"""§7.11 refuelling and §11 USAF mission allocation, the US air phase.

Steps, each finished before the next: units over the capacity go to the
Reserve; every unit that flew this turn lands face-down on an operational strip;
then face-up units are allocated to CAP or Ground Attack for the next turn, and
the ones left idle go to the Reserve when the phase ends.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import CAP, GROUND_ATTACK, USAF_RESERVE, FBState, strip_loc


def refuel(em: Emitter) -> None:
    """§7.11: face-down units on the strips are refuelled and turned face-up; the units
    in CAP and Ground Attack, which flew this turn, are the ones that must land."""
    down = sorted(uid for uid, u in em.state.units.items()
                  if u.face_down and q.on_strip(u.loc) is not None)
    flown = sorted(q.units_at(em.state, CAP) + q.units_at(em.state, GROUND_ATTACK))
    em.emit("usaf_refuelled", "US", units=down, flown=flown)


def must_land(state: FBState) -> list[str]:
    return [u for u in state.landing if state.units[u].loc in (CAP, GROUND_ATTACK)]


def step(state: FBState) -> str:
    if len(q.active_usaf(state)) > q.air_capacity(state):
        return "excess"
    if must_land(state):
        return "land"
    return "allocate"


def _face_up_ready(state: FBState) -> list[str]:
    return sorted(uid for uid, u in state.units.items()
                  if (q.on_strip(u.loc) is not None or u.loc == USAF_RESERVE) and not u.face_down
                  and q.spec(uid).side == "US" and q.spec(uid).kind != "ground")


def gen_air_phase(state: FBState) -> list[Command]:
    st = step(state)
    if st == "excess":
        return [Command("to_reserve", {"unit": u}) for u in sorted(q.active_usaf(state))]
    if st == "land":
        strips = sorted(q.operational_strips(state))
        return [Command("land", {"unit": u, "hex": h}) for u in must_land(state) for h in strips]
    room = q.air_capacity(state) - len(q.active_usaf(state))
    out = []
    for u in _face_up_ready(state):
        if state.units[u].loc == USAF_RESERVE and room <= 0:
            continue
        if q.can_fly_cap(u):
            out.append(Command("allocate", {"unit": u, "box": CAP}))
        if q.can_fly_ga(u):
            out.append(Command("allocate", {"unit": u, "box": GROUND_ATTACK}))
    return out


def why_air_phase_illegal(state: FBState, cmd: Command) -> IllegalCommandError:
    st = step(state)
    if st == "excess":
        n = len(q.active_usaf(state)) - q.air_capacity(state)
        return IllegalCommandError("§11", f"first put {n} active USAF unit(s) into the Reserve: the "
                                          f"capacity is {q.air_capacity(state)} (6 per operational strip hex)")
    if st == "land":
        return IllegalCommandError("§11", "first land every unit that flew this turn, face-down, on an "
                                          "operational air strip hex")
    if cmd.type == "allocate":
        return IllegalCommandError("§11", "allocate a face-up unit that is not refuelling: fighters to "
                                          "CAP, bombers to Ground Attack, within the air capacity")
    return IllegalCommandError("§11", f"that is not possible now ({cmd.type})")


def do_to_reserve(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("usaf_moved", "US", unit=data["unit"], to=USAF_RESERVE, face_down=False)


def do_land(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("usaf_moved", "US", unit=data["unit"], to=strip_loc(data["hex"]), face_down=True)


def do_allocate(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("usaf_moved", "US", unit=data["unit"], to=data["box"], face_down=False)


def stand_down(em: Emitter) -> None:
    """Phase end: face-up units not allocated go to the Reserve (§11)."""
    idle = sorted(uid for uid, u in em.state.units.items() if q.spec(uid).side == "US"
                  and not u.face_down and q.on_strip(u.loc) is not None)
    for u in idle:
        em.emit("usaf_moved", "US", unit=u, to=USAF_RESERVE, face_down=False)
