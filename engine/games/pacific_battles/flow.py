"""What happens between decisions: the phases' opening and closing steps, the end of the
turn (4.1 6: victory points, sudden death, the last turn), and settling after every
command until some side owes a decision."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.game import Emitter
from engine.games.pacific_battles import (
    arrivals,
    battles,
    deception,
    decisions,
    impulse,
    markers,
    planning,
    supplying,
    tell,
    victory,
)
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles.logistics import henderson_active
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.sequence import turn_name  # also read from here (app/services/pb_board.py)
from engine.games.pacific_battles.state import SIDES, PBState, other


def enter(em: Emitter, phase: str, turn: int) -> None:
    if phase == "initiative":
        em.emit("turn_began", None, turn=turn, name=turn_name(turn))
    step = seq.step(phase)
    em.emit("phase_began", None, phase=phase, turn=turn, clear_examined=step == "movement",
            logistics=phase.startswith("logistics_"))
    side = seq.side_of(em.state)
    if phase == "initiative":
        planning.begin_turn(em)
    elif phase.startswith("markers_"):
        planning.draw_markers(em, side)
    elif phase == "air_allocation":
        planning.open_allocation(em)
    elif phase == "air_superiority":
        planning.begin_superiority(em)
    elif phase.startswith("reinforcements_"):
        arrivals.begin(em, side)
    elif phase.startswith("logistics_"):
        supplying.begin(em, side)
    elif step == "movement":
        impulse.begin_movement(em, side, seq.is_follow_on(phase))
    elif step == "combat":
        battles.begin(em, side)
    elif phase == "victory":
        end_of_turn(em)


def leave(em: Emitter) -> None:
    s: PBState = em.state
    side = seq.side_of(s)
    phase = s.phase
    if phase.startswith("reinforcements_"):
        if arrivals.owe_interdiction(em, side):
            return  # 16.61: the interdictor rolls first; the phase ends once the rolls are over
        arrivals.end(em, side)
    elif phase.startswith("logistics_"):
        supplying.end(em, side)
    elif seq.step(phase) == "strike" and not s.struck:
        impulse.resolve_strikes(em, side)
    elif seq.step(phase) == "combat":
        stranded = sorted(pid for pid in s.assaults if pid in s.pieces and s.pieces[pid].side == side)
        if stranded:  # 22.3: an assault that did not land is lost
            battles.eliminate(em, stranded, other(side), [], "the assault from the sea did not land (22.3)")
    if seq.step(phase) in ("movement", "strike", "combat") or phase.startswith("reinforcements_"):
        for sd in SIDES:  # 12.5.1: overstacked HQs become inactive at the end of any phase
            over = set(q.overstacked(em.state, sd))
            idle = sorted(p.id for p in em.state.on_map(sd) if p.hex in over and p.id in em.state.active)
            if idle:
                tell.secret(em, "hqs_deactivated", sd, {"side": sd}, ids=idle, why="overstacked (12.5)")


def end_phase(em: Emitter) -> None:
    leave(em)
    if em.state.pending or em.state.result is not None:
        return  # the phase's closing steps owe a decision (a strike's loss): it ends after it
    s: PBState = em.state
    nxt, turn = seq.TRACK.next(s.phase or None, s.turn)
    enter(em, nxt.name, turn)


def end_of_turn(em: Emitter) -> None:
    """4.1 6: the victory check (24.0, 25.3), then the last turn's verdict (24.2) or the next turn."""
    s: PBState = em.state
    b = q.board()
    pieces = list(s.pieces.values())
    holder = next((sd for sd in SIDES if henderson_active(b, q.forces(), pieces, sd, s.turn)), None)
    held = {sd: sum(1 for h in b.objectives if any(p.side == sd and p.unit != SUPPLY for p in s.at(h)))
            for sd in SIDES}
    check = victory.check(holder, held, len(b.objectives))
    for sd, points in check.gains.items():
        if points:
            em.emit("vp_scored", None, side=sd, points=points, why="; ".join(w for w in check.why if w.startswith(sd)))
    if check.sudden_death:
        em.emit("game_ended", None, winner=check.sudden_death, level="Sudden Death Victory",
                reason=f"{check.sudden_death} holds Henderson Field activated and every objective hex (25.3)")
        return
    if s.turn >= s.last_turn:
        winner, level = victory.result(em.state.vp)
        vp = em.state.vp
        em.emit("game_ended", None, winner=winner or "draw", level=level,
                reason=f"the last turn is over: Allied {vp['Allied']} VP, Japanese {vp['Japanese']} VP (24.2): {level}")
        return
    for sd in SIDES:
        expiring = list(em.state.expiring[sd])
        held_naval = [m for m in em.state.hand[sd] if m in markers.NAVAL]
        gone = expiring + held_naval
        if gone:
            to_pool = [m for m in gone if markers.end_of_turn_fate(sd, m) == "pool"]
            removed = [m for m in gone if markers.end_of_turn_fate(sd, m) == "removed"]
            data = {"side": sd, "to_pool": to_pool, "removed": removed, "from_hand": held_naval}
            if held_naval:  # unplayed ones were secret
                tell.secret(em, "markers_expired", sd, {"side": sd}, **data)
            else:
                em.emit("markers_expired", None, **data)


def settle(em: Emitter, needs_input: Callable[[PBState], bool], limit: int = 5000) -> None:
    """End phases and run automatic steps until a decision is owed or the game is over."""
    for _ in range(limit):
        deception.sweep(em)
        s: PBState = em.state
        if s.result is not None:
            return
        if s.pending:
            if decisions.advance(em):
                continue
            return
        if seq.step(s.phase) == "combat" and s.fought and any(not b["done"] for b in s.battles):
            battles.next_battle(em)
            continue
        if needs_input(s):
            return
        end_phase(em)
    raise RuntimeError("the turn sequence did not settle")  # a rules bug, never a player's error
