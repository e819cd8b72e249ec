"""Why a command is refused: the rule and the reason, from the same rules that list the
legal commands (asked only once a command is known to be illegal)."""

from __future__ import annotations

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.games.pacific_battles import arrivals, battles, decisions, face_up, impulse
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles.state import PBState

PHASE_OF = {  # the phase step each command belongs to, and the rule that says so
    "place": ("japanese_setup", "25.4"), "land": ("reinforcements", "6.2"), "to_base": ("reinforcements", "26.2"),
    "evacuate": ("reinforcements", "23.0"), "buy": ("reinforcements", "25.6d"),
    "activate": ("logistics", "7.3"), "refit": ("logistics", "7.5"), "repair": ("logistics", "7.6"),
    "fortify": ("logistics", "20.3"), "breakdown": ("logistics", "9.1"), "combine": ("logistics", "9.2"),
    "move": ("movement", "11.0"), "carry": ("movement", "20.4"),
    "sail": ("movement", "22.1"), "assault": ("movement", "22.3"), "recon": ("movement", "16.7"),
    "strike": ("strike", "16.8"), "declare": ("combat", "14.2"), "add": ("combat", "14.2"),
    "add_hex": ("combat", "14.22"), "close": ("combat", "14.2"), "cancel": ("combat", "14.2"),
    "fight": ("combat", "14.2"),
}


def _in(state: PBState, where: str) -> bool:
    return state.phase.startswith(where) or seq.step(state.phase) == where


def why_not(state: PBState, side: str, cmd: Command) -> IllegalCommandError:
    t = cmd.type
    if state.pending:
        d = state.pending[0]
        return IllegalCommandError(decisions.rule(d), f"first {d['side']} must {decisions.must(d)}")
    if t in PHASE_OF and not _in(state, PHASE_OF[t][0]):
        return IllegalCommandError("4.1", f"'{t}' belongs to the {PHASE_OF[t][0]} phase; this is the "
                                          f"{seq.title(state)}")
    if t == "end_phase":
        if seq.step(state.phase) == "combat":  # (battles declared and no attack owed: "fight", not this)
            return IllegalCommandError(*(battles.end_refusal(state, side) or battles.owed_attacks([], [])))
        if state.phase == "japanese_setup":
            return IllegalCommandError("25.4", "place every unit first")
        return IllegalCommandError("4.2", "this phase ends by itself")
    if t in face_up.KINDS:
        return face_up.why_not(state, side, cmd)
    if t in ("land", "to_base", "evacuate", "buy"):
        return arrivals.why_not(state, side, cmd)
    if t == "move":
        return IllegalCommandError(*(impulse.move_refusal(state, side, cmd.data.get("unit"), cmd.data.get("to"))
                                     or impulse.out_of_reach(cmd.data.get("to"))))
    if t == "strike":
        return IllegalCommandError(*(impulse.strike_refusal(state, side, cmd.data.get("hex"), cmd.data.get("points"))
                                     or impulse.strike_limit(state, side)))
    if t == "recon":
        return IllegalCommandError(*(impulse.recon_refusal(state, side, cmd.data.get("hex"))
                                     or impulse.RECON_REFUSED))
    if t == "close" and (refused := battles.close_refusal(state, side)) is not None:
        return IllegalCommandError(*refused)
    if t in ("declare", "add", "add_hex"):
        return IllegalCommandError("14.23", "every attacker must be next to every defending hex; a unit attacks "
                                            "once and a hex is attacked once a phase (14.14, 14.27)")
    if t == "play":
        return IllegalCommandError("5.3", f"{cmd.data.get('marker')} is not in your hand or cannot be played now "
                                          "(the Campaign Markers list says when)")
    if t == "place":
        return IllegalCommandError("25.4", "the Japanese set up on or within three hexes of Henderson Field, "
                                           "within the stacking limit (12.8)")
    rule = PHASE_OF.get(t, ("", "4.1"))[1]
    return IllegalCommandError(rule, f"'{t}' is not possible now: {seq.title(state)}")

