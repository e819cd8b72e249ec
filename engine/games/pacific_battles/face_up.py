"""34.0 (fog of war): one's own units are face down to the enemy, who sees a stack and
not what is in it (R-PB-18.0).  A player may turn a unit face up at any moment of its own
phases, and turn face-up units face down again in its own logistics phase; a face-up unit
is seen by the enemy wherever it goes until then (view.py).  Why a player would: to show
strength where it deters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core.errors import IllegalCommandError, Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import PBState

KINDS = ("show", "hide")


def _turnable(state: PBState, side: str) -> list[Any]:
    """Combat units and HQs (34.0 "combat units"; a supply point is only a supply point, and
    a deception marker turned face up is removed, 34.2)."""
    return sorted((p for p in state.on_map(side) if _is_turnable(p)), key=lambda p: p.id)


def _is_turnable(p: Any) -> bool:
    return p.unit != SUPPLY and q.kind(p.unit) != "deception"


def refusal(state: PBState, side: str, kind: str, pid: Any) -> Reason | None:
    """Why ``side`` may not turn ``pid`` (``kind``: "show" or "hide") now, None if it may in
    one of its own phases: the test that lists the turns (``gen``)."""
    p = state.pieces.get(pid)
    if p is None or p.side != side or not _is_turnable(p):
        return "34.0", f"{pid} is not one of your combat units or HQs on the map"
    up = p.id in state.face_up[side]
    if kind == "show":
        return ("34.0", f"{q.label(state, p.id)} is face up already") if up else None
    if not up:
        return "34.0", f"{q.label(state, p.id)} is face down already"
    return None if state.phase.startswith("logistics_") else NOT_NOW["hide"]


NOT_NOW: dict[str, Reason] = {
    "show": ("34.0", "a unit is turned face up in one's own phases (not in the set-up or the air allocation)"),
    "hide": ("34.0", "a face-up unit is turned face down in its own logistics phase"),
}


def gen(state: PBState, side: str) -> Iterator[Command]:
    """Called in ``side``'s own phases with no decision owed (rules.py); listed once per
    state and side (the legal list and whether the phase needs its player both ask)."""
    yield from state.cached(("face_up", side), lambda: tuple(
        Command(kind, {"unit": p.id}) for p in _turnable(state, side) for kind in KINDS
        if refusal(state, side, kind, p.id) is None))


def do_show(em: Emitter, data: dict[str, Any], side: str) -> None:
    p = em.state.pieces[data["unit"]]
    em.emit("turned_face_up", None, side=side, unit=p.id, name=p.unit, hex=p.hex)


def do_hide(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("turned_face_down", None, side=side, unit=data["unit"])


def why_not(state: PBState, side: str, cmd: Command) -> IllegalCommandError:
    return IllegalCommandError(*(refusal(state, side, cmd.type, cmd.data.get("unit")) or NOT_NOW[cmd.type]))
