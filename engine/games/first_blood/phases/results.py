"""§7.7-§7.9 After the roll: casualties chosen by the loser, retreats, advance.

The result becomes a list of steps kept in the combat; each step either
happens at once (nothing to choose) or opens a pending decision for the side
that must choose, which may be the side that is not moving.
"""

from __future__ import annotations

from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.first_blood import queries as q
from engine.games.first_blood.phases.combat import landing_artillery
from engine.games.first_blood.phases.movement import overrun_strip
from engine.games.first_blood.state import FBState, is_map_hex

STEPS = {  # §7.7; "retreat" of an attack upon entry means elimination (§5.1)
    "AE": ["att_elim"],
    "A2": ["att_loss:2", "att_retreat"],
    "A1": ["att_loss:1", "att_retreat"],
    "EX": ["att_loss:1", "def_loss:1", "def_retreat", "advance"],
    "DR": ["def_retreat", "advance"],
    "D1": ["def_loss:1", "def_retreat", "advance"],
    "DE": ["def_elim", "advance"],
}
RESULT_RULE = "§7.7"


def start(em: Emitter) -> None:
    c = em.state.combat
    steps = list(STEPS[c.result])
    if c.origin is None and c.result != "DE":
        steps = [s for s in steps if s != "advance"]  # §7.8: advance only after DE
    if c.origin is not None and c.result in ("A1", "A2"):
        steps = ["att_elim"]  # §5.1: a landing that does not clear the hex dies whole
    em.emit("combat_steps", c.side, steps=steps)
    proceed(em)


# --- who is who ---------------------------------------------------------------

def attackers_alive(state: FBState) -> list[str]:
    c = state.combat
    return [a for a in c.attackers + landing_artillery(state, c) if state.units[a].loc != "eliminated"]


def defenders_alive(state: FBState) -> list[str]:
    c = state.combat
    return [d for d in c.defenders if state.units[d].loc in c.targets]


def retreat_options(state: FBState, uid: str, at: str, visited: list[str]) -> list[str]:
    """§7.9: where the unit may retreat to from ``at`` (``retreat_refusal`` decides)."""
    owner = q.hex_owner(state)
    enemy_zoc = q.zoc_of(state, q.other(q.spec(uid).side), owner)
    return [n for n in q.board().neighbors(at)
            if retreat_refusal(state, uid, at, n, visited, owner, enemy_zoc) is None]


def retreat_refusal(state: FBState, uid: str, at: str, to: str, visited: list[str],
                    owner: dict[str, str] | None = None, enemy_zoc: set[str] | None = None) -> str | None:
    """§7.9: why the unit may not retreat from ``at`` to ``to``, or None: one hex away;
    never into enemy units or enemy ZOC (even with friends in it), never across a river
    except at the bridge, never into a hex of its own path, never off the map."""
    b = q.board()
    side = q.spec(uid).side
    owner = q.hex_owner(state) if owner is None else owner
    enemy_zoc = q.zoc_of(state, q.other(side), owner) if enemy_zoc is None else enemy_zoc
    if to not in b.neighbors(at):
        return f"{to} is not next to {at} (a retreat goes one hex at a time, on the map)"
    if owner.get(to, side) != side:
        return f"{to} holds enemy units"
    if to in enemy_zoc:
        return f"{to} is in enemy ZOC"
    if b.is_river(at, to):
        return f"{at} to {to} crosses a river away from the bridge"
    if to in visited:
        return f"{to} is on the retreat's own path"
    return None


# --- the step machine -----------------------------------------------------------

def proceed(em: Emitter) -> None:
    """Run steps until one needs a decision, then open it; end the combat when done."""
    while True:
        state: FBState = em.state
        c = state.combat
        if c is None or state.pending:
            return
        if not c.steps:
            em.emit("combat_ended", c.side)
            return
        step = c.steps[0]
        who = "att" if step.startswith("att") else "def"
        side = c.side if who == "att" else q.other(c.side)
        units = attackers_alive(state) if who == "att" else defenders_alive(state)
        if step.endswith("_elim"):
            for u in units:
                em.emit("unit_eliminated", side, unit=u, reason=f"{c.result} ({RESULT_RULE})")
        elif ":" in step:
            n = int(step.split(":")[1])
            if len(units) <= n:
                for u in units:
                    em.emit("unit_eliminated", side, unit=u, reason=f"{c.result} ({RESULT_RULE})")
            else:
                em.emit("decision_opened", side, decision={
                    "kind": "loss", "side": side, "count": n, "candidates": units,
                    "reason": c.result, "rule": RESULT_RULE})
        elif step.endswith("_retreat"):
            mapped = [u for u in units if is_map_hex(state.units[u].loc)]
            if mapped:
                open_retreat(em, side, mapped)
        elif step == "advance":
            open_advance(em)
        em.emit("combat_step_done", c.side, step=step)


def open_retreat(em: Emitter, side: str, units: list[str]) -> None:
    todo = {u: {"at": em.state.units[u].loc, "visited": [em.state.units[u].loc], "extended": False}
            for u in units}
    for u, info in list(todo.items()):
        if not retreat_options(em.state, u, info["at"], info["visited"]):
            em.emit("unit_eliminated", side, unit=u, reason="no retreat route (§7.9)")
            del todo[u]
    if todo:
        em.emit("decision_opened", side, decision={
            "kind": "retreat", "side": side, "units": todo, "rule": "§7.9"})


def open_advance(em: Emitter) -> None:
    state: FBState = em.state
    c = state.combat
    owner = q.hex_owner(state)
    vacated = [h for h in c.targets if h not in owner]
    units = [u for u in attackers_alive(state) if is_map_hex(state.units[u].loc)
             or c.origin is not None]
    if not vacated or not units:
        return
    if c.origin is not None:
        # §5.1/§7.8: after an attack upon entry the attackers must enter the cleared hex
        target = vacated[0]
        for u in units:
            em.emit("unit_advanced", c.side, unit=u, frm=state.units[u].loc, to=target)
        if c.side == "IJ" and target in em.state.strips:
            overrun_strip(em, target)
        occ = q.occupancy(em.state)
        if q.room(occ, target) < 0:
            em.emit("decision_opened", c.side, decision={
                "kind": "loss", "side": c.side, "count": -q.room(occ, target),
                "candidates": list(occ[target]), "reason": "over-stacked after entering", "rule": "§5.1"})
        return
    em.emit("decision_opened", c.side, decision={
        "kind": "advance", "side": c.side, "units": units, "hexes": vacated, "rule": "§7.8"})


# --- decisions: legal commands and handlers ----------------------------------------

def gen_decision(state: FBState, side: str) -> list[Command]:
    d = state.pending[0]
    if d["kind"] in ("loss", "supply_loss"):
        return [Command("eliminate", {"unit": u}) for u in d["candidates"]]
    if d["kind"] == "retreat":
        out = []
        for u, info in sorted(d["units"].items()):
            for h in retreat_options(state, u, info["at"], info["visited"]):
                out.append(Command("retreat", {"unit": u, "to": h}))
            if info["extended"]:
                out.append(Command("retreat", {"unit": u, "to": None}))
        return out
    if d["kind"] == "advance":
        occ = q.occupancy(state)
        owner = q.hex_owner(state)
        out = [Command("advance", {"unit": u, "to": h}) for u in d["units"] for h in d["hexes"]
               if owner.get(h, side) == side and q.room(occ, h) > 0]
        return out + [Command("end_advance")]
    return []


def why_decision_illegal(state: FBState, side: str, cmd: Command) -> IllegalCommandError:
    d = state.pending[0]
    rule = d.get("rule", "§7")
    kinds = {"loss": "eliminate", "supply_loss": "eliminate", "retreat": "retreat",
             "advance": "advance"}
    if cmd.type not in (kinds[d["kind"]], "end_advance"):
        return IllegalCommandError(rule, f"first {describe_decision(d)}")
    uid = cmd.data.get("unit")
    if d["kind"] in ("loss", "supply_loss"):
        return IllegalCommandError(rule, f"{uid} cannot be taken as this loss; choose one of "
                                         + ", ".join(q.label(u) for u in d["candidates"]))
    if d["kind"] == "retreat":
        if uid not in d["units"]:
            return IllegalCommandError("§7.9", f"{uid} is not retreating")
        to = cmd.data.get("to")
        if to is None:
            return IllegalCommandError("§7.9", "a unit may only stop (and be eliminated) during an "
                                               "extended retreat")
        info = d["units"][uid]
        why = retreat_refusal(state, uid, info["at"], to, info["visited"]) if isinstance(to, str) else None
        return IllegalCommandError("§7.9", why or f"{q.label(uid)} cannot retreat to {to}")
    return IllegalCommandError("§7.8", "advance only attacking units, into the vacated hexes, "
                                       "at most 3 per hex")


def describe_decision(d: dict[str, Any]) -> str:
    """What the deciding side must do, as a verb phrase ("choose 1 unit to ...")."""
    if d["kind"] == "loss":
        n = d["count"]
        return f"choose {n} unit{'s' if n > 1 else ''} to eliminate ({d['reason']}, {d['rule']})"
    if d["kind"] == "supply_loss":
        return "choose a ground unit or an IJN Reserve destroyer to give up (supply, §8)"
    if d["kind"] == "retreat":
        return f"retreat {', '.join(q.label(u) for u in d['units'])} (§7.9)"
    return f"advance into {', '.join(d['hexes'])} or stay (§7.8)"


def do_eliminate(em: Emitter, data: dict[str, Any], side: str) -> None:
    d = dict(em.state.pending[0])
    reason = "supply (§8)" if d["kind"] == "supply_loss" else f"{d['reason']} ({d['rule']})"
    em.emit("unit_eliminated", side, unit=data["unit"], reason=reason)
    left = d.get("count", 1) - 1
    _continue(em, side, {**d, "count": left, "candidates": [u for u in d["candidates"] if u != data["unit"]]},
              more=left > 0)


def do_retreat(em: Emitter, data: dict[str, Any], side: str) -> None:
    d = em.state.pending[0]
    uid, to = data["unit"], data["to"]
    info = dict(d["units"][uid])
    units = {k: v for k, v in d["units"].items() if k != uid}
    if to is None:
        em.emit("unit_eliminated", side, unit=uid, reason="ended its extended retreat (§7.9)")
    else:
        em.emit("unit_retreated", side, unit=uid, frm=info["at"], to=to)
        if side == "IJ" and to in em.state.strips:
            overrun_strip(em, to)
        if q.room(q.occupancy(em.state), to) < 0:
            visited = info["visited"] + [to]
            if retreat_options(em.state, uid, to, visited):
                units[uid] = {"at": to, "visited": visited, "extended": True}
            else:
                em.emit("unit_eliminated", side, unit=uid, reason="no room at the end of its retreat (§7.9)")
    _continue(em, side, {**d, "units": units}, more=bool(units))


def do_advance(em: Emitter, data: dict[str, Any], side: str) -> None:
    d = em.state.pending[0]
    uid, to = data["unit"], data["to"]
    em.emit("unit_advanced", side, unit=uid, frm=em.state.units[uid].loc, to=to)
    if side == "IJ" and to in em.state.strips:
        overrun_strip(em, to)
    units = [u for u in d["units"] if u != uid]
    _continue(em, side, {**d, "units": units}, more=bool(units))


def _continue(em: Emitter, side: str, decision: dict[str, Any], more: bool) -> None:
    """Keep the decision open with what is left of it, or close it and go on with the combat."""
    if more:
        em.emit("decision_opened", side, decision=decision, replaces=True)
    else:
        em.emit("decision_closed", side)
        proceed(em)


def do_end_advance(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("decision_closed", side)
    proceed(em)
