"""Helpers shared by the First Blood engine tests (pytest puts tests/ on the path)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.errors import IllegalCommandError
from engine.games.first_blood.phases import combat
from engine.games.first_blood.testing import play


def declare(state: Any, hexes: list[str], units: list[str]) -> dict[str, Any]:
    """Declare an attack on ``hexes`` with ``units``; return its assessment."""
    for h in hexes:
        play(state, "attack", hex=h)
    for u in units:
        play(state, "add", unit=u)
    return combat.assess(state, state.combat)


def resolved(events: list[Any]) -> dict[str, Any]:
    (event,) = [e for e in events if e.type == "combat_resolved"]
    return event.data


def illegal(state: Any, command: str, **data: Any) -> IllegalCommandError:
    with pytest.raises(IllegalCommandError) as excinfo:
        play(state, command, **data)
    return excinfo.value


def advance(state: Any, phase: str, turn: int) -> None:
    """End phases (choosing supply losses among the far IJ units) until ``phase`` of ``turn``."""
    for _ in range(300):
        if state.phase == phase and state.turn == turn:
            return
        assert state.result is None and state.turn <= turn, (state.phase, state.turn, state.result)
        if state.pending:
            play(state, "eliminate", unit=state.pending[0]["candidates"][-1])
        else:
            play(state, "end_phase")
    raise AssertionError("never reached the phase")
