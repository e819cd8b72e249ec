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


def can_work(state: FBState, uid: str, hex_id: str) -> bool:
    """§10: started the turn in the strip hex, has not moved or retreated, not fought,
    and its hex was not bombarded this turn."""
    u, t = state.units[uid], state.turn
    return (u.loc == hex_id and u.start_hex == hex_id and u.moved_turn != t
            and u.fought_turn != t and u.bombarded_turn != t)


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
    return IllegalCommandError("§10", "the engineer must have started the turn in the strip hex and not "
                                      "moved, retreated, fought or been bombarded this turn")


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
