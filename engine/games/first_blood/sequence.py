"""§4 Table 5: the turn sequence, and what happens by itself between decisions.

After every command the game "settles": a phase in which the acting side has
nothing left to decide ends, its closing steps run, and the next phase starts,
until some side owes a decision or the game is over.
"""

from __future__ import annotations

from engine.core.game import Emitter
from engine.games.first_blood.oob import turn_name
from engine.games.first_blood.phases import (
    air,
    combat,
    engineering,
    reinforcements,
    strategic,
    supply,
    usaf,
    victory,
)
from engine.games.first_blood.state import FBState

SETUP = ("us_setup", "ij_setup")
TURN = (
    "ij_reinforcements", "ij_movement", "ij_combat", "ij_supply", "ij_strategic",
    "us_reinforcements", "us_movement", "us_combat", "us_engineering", "us_air",
)
PHASE_TITLES = {
    "us_setup": "US set-up (§3)", "ij_setup": "IJ set-up (§3)",
    "ij_reinforcements": "IJ reinforcements (§5.2)", "ij_movement": "IJ movement (§6)",
    "ij_combat": "IJ combat (§7)", "ij_supply": "IJ supply (§8)", "ij_strategic": "IJ strategic (§9)",
    "us_reinforcements": "US reinforcements (§5.3)", "us_movement": "US movement (§6)",
    "us_combat": "US combat (§7)", "us_engineering": "US engineering (§10)",
    "us_air": "US air (§7.11, §11)", "game_over": "game over",
}


def phase_side(phase: str) -> str | None:
    if phase.startswith("us_"):
        return "US"
    if phase.startswith("ij_"):
        return "IJ"
    return None


def next_phase(state: FBState) -> tuple[str, int]:
    """(phase, turn) after the current one."""
    if state.phase == "created":
        return "us_setup", 0
    if state.phase == "us_setup":
        return "ij_setup", 0
    if state.phase == "ij_setup" or state.phase == "us_air":
        return "ij_reinforcements", state.turn + 1
    return TURN[TURN.index(state.phase) + 1], state.turn


def enter(em: Emitter, phase: str, turn: int) -> None:
    side = phase_side(phase)
    if phase == "ij_reinforcements":
        em.emit("turn_started", None, turn=turn, name=turn_name(turn))
    em.emit("phase_started", side, phase=phase, turn=turn)
    if phase in ("us_setup", "ij_setup") or phase.endswith("_reinforcements"):
        reinforcements.bring_in(em, side)
    elif phase.endswith("_combat"):
        blocked = combat.blocked_entries(em.state, side)
        if blocked:
            em.emit("entries_blocked", side, blocked=blocked)
    elif phase == "ij_supply":
        supply.roll_for_supply(em)
    elif phase == "ij_strategic":
        strategic.shift_boxes(em)
    elif phase == "us_engineering":
        engineering.complete_work(em)
    elif phase == "us_air":
        usaf.refuel(em)


def leave(em: Emitter, phase: str) -> None:
    side = phase_side(phase)
    if phase.endswith("_combat"):
        reinforcements.eliminate_stranded(em, side)
        air.return_unused_support(em, side)
    elif phase == "us_engineering":
        engineering.abandon_unfinished(em)
    elif phase == "us_air":
        usaf.stand_down(em)


def end_phase(em: Emitter) -> None:
    """Close the current phase and open the next (or end the game after a full turn)."""
    state: FBState = em.state
    leave(em, state.phase)
    if state.phase == "us_air":
        outcome = victory.check(em.state)
        if outcome is not None:
            em.emit("game_ended", None, winner=outcome[0], reason=outcome[1], turn=state.turn)
            return
    phase, turn = next_phase(em.state)
    enter(em, phase, turn)


def settle(em: Emitter, needs_input) -> None:
    """Advance through phases until a decision is owed (``needs_input(state)``)."""
    for _ in range(1000):
        state: FBState = em.state
        if state.result is not None or state.pending or needs_input(state):
            return
        end_phase(em)
    raise RuntimeError("the turn sequence did not settle")  # a bug, never a player's error
