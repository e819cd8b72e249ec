"""Apply one event to the state: one handler per event type, no rule checks.

Replaying a log runs only these handlers; all judgement happened in ``decide``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from engine.core import undo
from engine.core.events import Event
from engine.games.first_blood import queries as q
from engine.games.first_blood.oob import load_oob
from engine.games.first_blood.state import (
    ARRIVING,
    ELIMINATED,
    IJAAF_ATTACK,
    IJAAF_RESERVE,
    IJN_ATTACK,
    IJN_RESERVE,
    Combat,
    FBState,
    Strip,
    Unit,
    is_map_hex,
)

Handler = Callable[[FBState, dict[str, Any], str | None], None]
HANDLERS: dict[str, Handler] = {}


def on(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


def apply(state: FBState, event: Event) -> None:
    undo.track(state, event, FBState.clone)
    HANDLERS[event.type](state, event.data, event.side)
    state.seq += 1


@on(undo.UNDONE)
def _undone(s: FBState, d: dict[str, Any], side: str | None) -> None:
    restored = undo.rebuild(s, d["step"], apply, FBState.clone)
    for f in fields(FBState):
        setattr(s, f.name, getattr(restored, f.name))
    s.shared()  # its units are the rebuilt state's now
    s.memo = None  # type: ignore[misc]  # and what was asked of the units before


# --- game and turn ------------------------------------------------------------

@on("game_created")
def _created(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.secret, s.scenario, s.options = d["secret"], d["scenario"], dict(d["options"])
    s.units = {uid: Unit(uid) for uid in sorted(d["units"])}
    s.strips = {h: Strip(h, d["strips"][h]["status"], d["strips"][h]["built"]) for h in sorted(d["strips"])}


@on("turn_started")
def _turn(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.turn = d["turn"]
    s.last_combat = None
    for uid, u in s.units.items():
        start = u.loc if is_map_hex(u.loc) else None
        if (u.start_hex, u.used, u.support) != (start, False, None):  # (a unit left as it is stays shared)
            u = s.unit(uid)
            u.start_hex, u.used, u.support = start, False, None


@on("phase_started")
def _phase(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.phase, s.turn = d["phase"], d["turn"]
    s.blocked = []
    if s.phase.endswith("_combat"):
        s.last_combat = None  # the report of a combat lasts until the next combat phase or turn
    oob = load_oob()
    if s.phase.endswith("_movement"):
        for uid, u in s.units.items():
            fresh = (oob[uid].mf, False, False)
            if oob[uid].side == side and oob[uid].kind == "ground" and (u.mf_left, u.stopped, u.moved) != fresh:
                u = s.unit(uid)
                u.mf_left, u.stopped, u.moved = fresh
    elif s.phase.endswith("_combat"):
        for uid, u in s.units.items():
            if u.fought or u.defended:
                u = s.unit(uid)
                u.fought = u.defended = False
    elif s.phase == "ij_supply":
        s.supply_die = None


@on("entries_blocked")
def _blocked(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.blocked = list(d["blocked"])


@on("game_ended")
def _ended(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.result = {"winner": d["winner"], "reason": d["reason"], "turn": d["turn"]}
    s.phase = "game_over"


# --- placement and movement ---------------------------------------------------

@on("units_arrived")
def _arrived(s: FBState, d: dict[str, Any], side: str | None) -> None:
    for uid in d["units"]:
        s.unit(uid).loc = ARRIVING


@on("unit_placed")
def _placed(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc = d["to"]
    box = q.in_box(u.loc)
    if box is not None:
        u.boxes, u.box_arrival = [box], s.turn
    if is_map_hex(u.loc):
        u.start_hex = u.loc


@on("unit_moved")
def _moved(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc = d["to"]
    u.mf_left -= d["cost"]
    u.moved, u.moved_turn = True, s.turn
    if d["stops"]:
        u.stopped = True
    box = q.in_box(u.loc)
    if box is not None:
        u.boxes.append(box)


@on("strip_overrun")
def _overrun(s: FBState, d: dict[str, Any], side: str | None) -> None:
    for uid in d["usaf"]:
        s.unit(uid).loc = ELIMINATED
    strip = s.strips[d["hex"]]
    strip.status, strip.work = "dest", 0


# --- air and naval --------------------------------------------------------------

@on("air_combat")
def _air_combat(s: FBState, d: dict[str, Any], side: str | None) -> None:
    for uid in d["attackers"] + [d["target"]]:
        s.unit(uid).loc = ELIMINATED


@on("support_assigned")
def _support(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.unit(d["unit"]).support = d["hex"]


@on("support_spent")
def _support_spent(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.support, u.used = None, True
    if q.spec(u.id).kind == "destroyer":
        u.loc = ELIMINATED  # §6.6: destroyers are eliminated after the combat


@on("support_returned")
def _support_returned(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.unit(d["unit"]).support = None


@on("bombarded")
def _bombarded(s: FBState, d: dict[str, Any], side: str | None) -> None:
    strip = s.strips[d["hex"]]
    if d["target"] is not None:
        s.unit(d["target"]).loc = ELIMINATED
    if d["effect"] == "damaged":
        strip.status = "dam"
    elif d["effect"] == "destroyed":
        strip.status = "dest"
    strip.work = 0
    for uid, u in s.units.items():
        if u.loc == d["hex"]:
            s.unit(uid).bombarded_turn = s.turn
    shooter = s.unit(d["unit"])
    shooter.used = True
    if q.spec(shooter.id).kind == "ground":
        shooter.fought, shooter.fought_turn = True, s.turn
    else:
        shooter.loc = ELIMINATED  # §7.10: destroyers and bombers are spent


@on("strategic_shift")
def _strategic(s: FBState, d: dict[str, Any], side: str | None) -> None:
    for uid in d["removed"]:
        s.unit(uid).loc = ELIMINATED
    for uid in d["advanced"]:
        u = s.unit(uid)
        u.loc = {IJAAF_RESERVE: IJAAF_ATTACK, IJN_RESERVE: IJN_ATTACK}[u.loc]


@on("usaf_refuelled")
def _refuelled(s: FBState, d: dict[str, Any], side: str | None) -> None:
    for uid in d["units"]:
        s.unit(uid).face_down = False
    s.landing = list(d["flown"])


@on("usaf_moved")
def _usaf_moved(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc, u.face_down = d["to"], d["face_down"]


# --- combat -----------------------------------------------------------------------

@on("combat_declared")
def _declared(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat = Combat(side, targets=[d["hex"]])


@on("combat_target_added")
def _target_added(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat.targets.append(d["hex"])


@on("combat_unit_added")
def _unit_added(s: FBState, d: dict[str, Any], side: str | None) -> None:
    uid = d["unit"]
    if d["role"] == "direct":
        s.combat.attackers.append(uid)
        if not is_map_hex(s.units[uid].loc):
            s.combat.origin = s.units[uid].loc
    else:
        s.combat.artillery.append(uid)


@on("combat_cancelled")
def _cancelled(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat = None


@on("combat_resolved")
def _resolved(s: FBState, d: dict[str, Any], side: str | None) -> None:
    c = s.combat
    c.defenders, c.result = list(d["defenders"]), d["result"]
    s.last_combat = {**undo.unmarked(d), "side": side, "seq": s.seq}
    # R-5.1a: artillery landing with an attack upon entry has been through that combat
    for uid in d["attackers"] + d["artillery"] + d.get("landing", []):
        u = s.unit(uid)
        u.fought, u.fought_turn = True, s.turn
    for uid in d["defenders"]:
        u = s.unit(uid)
        u.defended, u.fought_turn = True, s.turn


@on("combat_steps")
def _steps(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat.steps = list(d["steps"])


@on("combat_step_done")
def _step_done(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat.steps.pop(0)


@on("combat_ended")
def _combat_ended(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.combat = None


@on("decision_opened")
def _decision(s: FBState, d: dict[str, Any], side: str | None) -> None:
    if d.get("replaces"):
        s.pending[0] = d["decision"]
    else:
        s.pending.append(d["decision"])


@on("decision_closed")
def _decision_closed(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.pending.pop(0)


@on("unit_eliminated")
def _eliminated(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc, u.support = ELIMINATED, None


@on("unit_retreated")
def _retreated(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc, u.moved_turn = d["to"], s.turn


@on("unit_advanced")
def _advanced(s: FBState, d: dict[str, Any], side: str | None) -> None:
    u = s.unit(d["unit"])
    u.loc, u.moved_turn = d["to"], s.turn


# --- supply and engineering ----------------------------------------------------------

@on("supply_rolled")
def _supply(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.supply_die = d["die"]


@on("work_done")
def _work(s: FBState, d: dict[str, Any], side: str | None) -> None:
    strip = s.strips[d["hex"]]
    strip.work, strip.worked_turn = d["marker"], s.turn


@on("work_disrupted")
def _work_disrupted(s: FBState, d: dict[str, Any], side: str | None) -> None:
    s.strips[d["hex"]].work = 0


@on("strip_repaired")
def _repaired(s: FBState, d: dict[str, Any], side: str | None) -> None:
    strip = s.strips[d["hex"]]
    strip.status, strip.built, strip.work = "oper", True, 0
