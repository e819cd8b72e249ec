"""§4 Table 5: the turn sequence, and what happens by itself between decisions.

After every command the game "settles": a phase in which the acting side has
nothing left to decide ends, its closing steps run, and the next phase starts,
until some side owes a decision or the game is over.
"""

from __future__ import annotations

from engine.core import phases
from engine.core.game import Emitter
from engine.core.phases import Phase, TurnTrack
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

TRACK = TurnTrack(
    setup=[Phase("us_setup", "US", "US set-up (§3)"), Phase("ij_setup", "IJ", "IJ set-up (§3)")],
    turn=[
        Phase("ij_reinforcements", "IJ", "IJ reinforcements (§5.2)"), Phase("ij_movement", "IJ", "IJ movement (§6)"),
        Phase("ij_combat", "IJ", "IJ combat (§7)"), Phase("ij_supply", "IJ", "IJ supply (§8)"),
        Phase("ij_strategic", "IJ", "IJ strategic (§9)"),
        Phase("us_reinforcements", "US", "US reinforcements (§5.3)"), Phase("us_movement", "US", "US movement (§6)"),
        Phase("us_combat", "US", "US combat (§7)"), Phase("us_engineering", "US", "US engineering (§10)"),
        Phase("us_air", "US", "US air (§7.11, §11)"),
    ],
)
TURN = tuple(p.name for p in TRACK.turn)
PHASE_TITLES = {name: p.title for name, p in TRACK.by_name.items()} | {"game_over": "game over"}


def phase_side(phase: str) -> str | None:
    return TRACK.side(phase)


def next_phase(state: FBState) -> tuple[str, int]:
    """(phase, turn) after the current one."""
    phase, turn = TRACK.next(None if state.phase == "created" else state.phase, state.turn)
    return phase.name, turn


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
    phases.settle(lambda: em.state, needs_input, lambda: end_phase(em))
