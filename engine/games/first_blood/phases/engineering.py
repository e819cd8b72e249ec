"""§10 US engineering: repairing and building air strips with work markers 1 and 2.

A Damaged strip is repaired one turn after the work is declared; a Destroyed (or
unbuilt) strip needs two consecutive turns of work and is ready the turn after.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.state import FBState

OPTION_TWO_UNITS = "two_units_as_engineer"  # §10 optional rule


def work_refusal(state: FBState, uid: str, hex_id: str) -> str | None:
    """§10: why the unit may not work on this strip this turn, or None.  It must have
    started the turn in the strip hex, not moved or retreated, not fought, and its hex
    must not have been bombarded this turn."""
    u, t = state.units[uid], state.turn
    name = q.label(uid)
    if q.spec(uid).side != "US" or q.spec(uid).kind != "ground":
        return f"{uid!r} is not a US ground unit"
    if u.loc != hex_id:
        return f"{name} is not in {hex_id}"
    if u.start_hex != hex_id or u.moved_turn == t:
        return f"{name} did not start the turn in {hex_id}, or moved or retreated this turn"
    if u.fought_turn == t:
        return f"{name} took part in a combat this turn"
    if u.bombarded_turn == t:
        return f"{hex_id} was bombarded this turn, with {name} in it"
    return None


def can_work(state: FBState, uid: str, hex_id: str) -> bool:
    return work_refusal(state, uid, hex_id) is None


def needs_work(state: FBState, hex_id: str) -> bool:
    s = state.strips[hex_id]
    if s.worked_turn == state.turn:
        return False  # one engineer at a time (§10)
    return (s.status == "dam" and s.work == 0) or (s.status == "dest" and s.work in (0, 1))


def crews(state: FBState, hex_id: str) -> list[list[str]]:
    """Engineers who may work here; with the option, also any two US ground units."""
    here = sorted(u for u in q.units_at(state, hex_id)
                  if q.spec(u).side == "US" and can_work(state, u, hex_id))
    out = [[u] for u in here if q.spec(u).type == "engineer"]
    if state.options.get(OPTION_TWO_UNITS):
        out += [list(p) for p in combinations(here, 2)]
    return out


def gen_work(state: FBState) -> list[Command]:
    return [Command("work", {"hex": h, "units": crew})
            for h in sorted(state.strips) if needs_work(state, h) for crew in crews(state, h)]


def why_work_illegal(state: FBState, cmd: Command) -> IllegalCommandError:
    h = cmd.data.get("hex")
    if h not in state.strips:
        return IllegalCommandError("§10", f"{h} is not an air strip hex")
    if not needs_work(state, h):
        return IllegalCommandError("§10", f"the strip at {h} needs no work now (it is operational, or "
                                          "work is already done there this turn)")
    units = cmd.data.get("units") or []
    if len(units) == 2 and not state.options.get(OPTION_TWO_UNITS):
        return IllegalCommandError("§10", "two units may work as one engineer only with the optional rule")
    if len(units) == 1 and units[0] in state.units and q.spec(units[0]).type != "engineer":
        return IllegalCommandError("§10", f"{q.label(units[0])} is not an engineer")
    for uid in units:
        why = work_refusal(state, uid, h) if uid in state.units else f"there is no unit {uid!r}"
        if why:
            return IllegalCommandError("§10", why)
    return IllegalCommandError("§10", "one engineer (or, with the optional rule, two US ground units) works")


def do_work(em: Emitter, data: dict[str, Any], side: str) -> None:
    s = em.state.strips[data["hex"]]
    em.emit("work_done", "US", hex=data["hex"], units=list(data["units"]), marker=s.work + 1)


def complete_work(em: Emitter) -> None:
    """Phase start: work declared in an earlier turn that survived is finished."""
    for h, s in sorted(em.state.strips.items()):
        if s.worked_turn < em.state.turn and ((s.status == "dam" and s.work == 1)
                                             or (s.status == "dest" and s.work == 2)):
            em.emit("strip_repaired", "US", hex=h, was=s.status)


def abandon_unfinished(em: Emitter) -> None:
    """Phase end: a Destroyed strip's first turn of work not followed by the second is lost."""
    for h, s in sorted(em.state.strips.items()):
        if s.status == "dest" and s.work == 1 and s.worked_turn < em.state.turn:
            em.emit("work_disrupted", "US", hex=h, reason="the second turn of work was not done (§10)")
