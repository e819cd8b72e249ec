"""34.0 (fog of war): one's own units are face down to the enemy, who sees a stack and
not what is in it (R-PB-18.0).  A player may turn a unit face up at any moment of its own
phases, and turn face-up units face down again in its own logistics phase; a face-up unit
is seen by the enemy wherever it goes until then (view.py).  Why a player would: to show
strength where it deters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import PBState

KINDS = ("show", "hide")


def _turnable(state: PBState, side: str) -> list[Any]:
    """Combat units and HQs (34.0 "combat units"; a supply point is only a supply point, and
    a deception marker turned face up is removed, 34.2)."""
    return sorted((p for p in state.on_map(side) if p.unit != SUPPLY and q.kind(p.unit) != "deception"),
                  key=lambda p: p.id)


def gen(state: PBState, side: str) -> Iterator[Command]:
    """Called in ``side``'s own phases with no decision owed (rules.py)."""
    logistics = state.phase.startswith("logistics_")
    for p in _turnable(state, side):
        if p.id not in state.face_up[side]:
            yield Command("show", {"unit": p.id})
        elif logistics:
            yield Command("hide", {"unit": p.id})


def do_show(em: Emitter, data: dict[str, Any], side: str) -> None:
    p = em.state.pieces[data["unit"]]
    em.emit("turned_face_up", None, side=side, unit=p.id, name=p.unit, hex=p.hex)


def do_hide(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("turned_face_down", None, side=side, unit=data["unit"])


def why_not(state: PBState, side: str, cmd: Command) -> IllegalCommandError:
    pid = cmd.data.get("unit")
    p = state.pieces.get(pid)
    if p is None or p.side != side or p not in _turnable(state, side):
        return IllegalCommandError("34.0", f"{pid} is not one of your combat units or HQs on the map")
    up = pid in state.face_up[side]
    if cmd.type == "show":
        if up:
            return IllegalCommandError("34.0", f"{q.label(state, pid)} is face up already")
        return IllegalCommandError("34.0", "a unit is turned face up in one's own phases (not in the set-up or "
                                           "the air allocation)")
    if not up:
        return IllegalCommandError("34.0", f"{q.label(state, pid)} is face down already")
    return IllegalCommandError("34.0", "a face-up unit is turned face down in its own logistics phase")
