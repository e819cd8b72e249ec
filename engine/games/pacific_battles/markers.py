"""The campaign markers (5.0 and the Campaign Markers list): when each may be played,
what becomes of it, and the effects of those played the instant they are drawn.

The held ones are played by their owner with the ``play`` command at the moments below;
``playable`` is the one list of those moments (the legal commands read it)."""

from __future__ import annotations

from engine.core.game import Emitter
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence
from engine.games.pacific_battles.logistics import combat_effective_engineer
from engine.games.pacific_battles.state import PBState

NAVAL = {"Ironbottom Sound": 3, "The Bombardment": 6, "Destroyer Support": 2, "Naval Battle of Guadalcanal": 3}
BATTLE = ("Banzai!", "Gung Ho!")  # played on one declared battle, before its die
LOGISTICS = ("Dig In", "Staff Planning")
GUNG_HO_KINDS = ("infantry", "raider", "para")  # "USMC infantry, raider or airborne"
MARGIN = 10  # Operation KE and USMC Relief: the Allies 10 or more VP ahead
DECEMBER = 5  # 14th Corps: December 1942 or later
# 35.1 (optional): the markers played at their historical dates (turn 1 = August 1942)
HISTORICAL = {
    "Japanese": {"Ironbottom Sound": 1, "Tokyo Express": 2, "Operation KA-GO": 2, "Battle of Santa Cruz Islands": 3,
                 "The Bombardment": 3, "Night Bombing Tactics": 5, "Operation KE": 5},
    "Allied": {"Battle of Eastern Solomons": 2, "Destroyer Support": 3, "Naval Battle of Guadalcanal": 4,
               "Cactus Air Force": 4, "Fire Coordination": 5, "USMC Relief": 5, "14th Corps": 6},
}
WAIVED = ("Operation KE", "USMC Relief", "14th Corps")  # 35.1: on their date, whatever the VP or the month
EXTRA_VP = 2  # 27.2: two VP a marker


def after(side: str, name: str) -> str:
    """Where a marker goes once played: "pool", "removed", "in_effect", or "expiring"
    (held until the end of the turn, then back to the pool or out of the game)."""
    text = q.forces().markers[side][name].after
    if "end of turn" in text:
        return "expiring"
    return {"pool": "pool", "removed": "removed", "in effect": "in_effect"}[text]


def immediate(side: str, name: str) -> bool:
    return q.forces().markers[side][name].when == "immediately"


def end_of_turn_fate(side: str, name: str) -> str:
    return "removed" if "removed" in q.forces().markers[side][name].after else "pool"


def playable(state: PBState, side: str) -> list[tuple[str, str | None]]:
    """(marker, target) pairs ``side`` may play now outside a battle window: the targets
    are hexes (Recon, naval bombardment) or None."""
    out: list[tuple[str, str | None]] = []
    if sequence.side_of(state) != side or state.pending:
        return out  # only in one's own phases (the defender's window is battle_reactions)
    phase = state.phase
    step = sequence.step(phase)
    for name in sorted(set(state.hand[side])):
        if name in LOGISTICS and phase.startswith("logistics_"):
            if name == "Staff Planning" and not _hqs_to_activate(state, side):
                continue
            if name == "Dig In" and not [p for p in state.on_map(side) if p.hex not in state.fortified]:
                continue
            out.append((name, None))
        elif name == "Recon" and step == "movement":
            out.extend((name, h) for h in sorted((q.enemy_hexes(state, side) & set(q.board().terrain))
                                                 - state.examined[side]))
        elif name in NAVAL and step == "strike" and not state.struck:
            out.extend((name, h) for h in _naval_targets(state, side))
        elif (name == "Fire Coordination" and step == "strike") or (name == "MAGIC" and _japanese_track(state)):
            out.append((name, None))
        elif name in BATTLE and step == "combat" and not state.fought:
            out.extend((name, str(i)) for i, b in enumerate(state.battles) if _battle_marker_ok(state, side, name, b))
    return out


def battle_reactions(state: PBState, side: str) -> list[tuple[str, str]]:
    """The defender's window before the battles are fought (Recon: choose the CRT; Banzai!,
    Gung Ho! on a battle)."""
    out = []
    for name in sorted(set(state.hand[side])):
        for i, b in enumerate(state.battles):
            if b["done"] or any(m == name for _, m in b["markers"]):
                continue
            if name == "Recon" and b["chooser"] is None or name in BATTLE and _battle_marker_ok(state, side, name, b):
                out.append((name, str(i)))
    return out


def _battle_marker_ok(state: PBState, side: str, name: str, battle: dict) -> bool:
    if any(m == name for _, m in battle["markers"]):
        return False
    if name == "Gung Ho!":
        ids = battle["attackers"] + [p.id for h in battle["defenders"] for p in state.at(h)]
        return any(state.pieces[i].side == "Allied" and q.kind(state.pieces[i].unit) in GUNG_HO_KINDS
                   and (q.spec(state.pieces[i]).corps == "USMC") for i in ids if i in state.pieces)
    return True


def _naval_targets(state: PBState, side: str) -> list[str]:
    """17.2: one naval bombardment a hex; targets hold enemy ground units (16.8)."""
    naval = {s["hex"] for s in state.strikes if s["naval"]}
    return sorted(h for h in q.enemy_hexes(state, side) if h not in naval and h in q.board().terrain)


def _hqs_to_activate(state: PBState, side: str) -> list[str]:
    """The HQs not yet activated in this logistics phase (7.4 flips the others at its end)."""
    return sorted(p.id for p in state.on_map(side) if q.is_hq(p) and p.id not in state.activated_now
                  and not p.suppressed)


def _japanese_track(state: PBState) -> bool:
    """MAGIC has something to show: Japanese reinforcements due from now on."""
    return any(o.due >= state.turn for o in state.in_box("Japanese", "track"))


def condition(state: PBState, side: str, name: str, scheduled: bool = False) -> tuple[bool, str]:
    """Whether an immediate marker with a condition takes effect now, and why not
    (``scheduled``: played at its date under 35.1, which waives the VP and month)."""
    if scheduled and name in WAIVED:
        return True, ""
    lead = state.vp["Allied"] - state.vp["Japanese"]
    if name == "Operation KE" and lead < MARGIN:
        return False, f"the Allies are not {MARGIN} or more VP ahead ({state.vp['Allied']} to {state.vp['Japanese']})"
    if name == "USMC Relief" and lead < MARGIN:
        return False, f"the US is not {MARGIN} or more VP ahead ({state.vp['Allied']} to {state.vp['Japanese']})"
    if name == "14th Corps" and state.turn < DECEMBER:
        return False, "it is before December 1942"
    if name == "Cactus Air Force" and not combat_effective_engineer(q.forces(), state.pieces.values(),
                                                                     q.henderson_hex(), "Allied"):
        return False, "no combat effective US engineer is on Henderson Field"
    return True, ""


def play(em: Emitter, side: str, name: str, effect: str, to: str | None = None, **extra: object) -> None:
    em.emit("marker_played", side, side=side, marker=name, to=to or after(side, name), effect=effect, **extra)

