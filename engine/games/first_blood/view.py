"""What one side (or a spectator, ``side=None``) may see of a First Blood game.

First Blood has no hidden units, but the dice secret never leaves the engine:
only its commitment hash is shown until the game is over.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from engine.core import dice
from engine.core.events import Command
from engine.games.first_blood import queries as q
from engine.games.first_blood import tables
from engine.games.first_blood.board import load_board
from engine.games.first_blood.describe import place
from engine.games.first_blood.oob import TURNS, turn_name
from engine.games.first_blood.phases import combat
from engine.games.first_blood.sequence import PHASE_TITLES
from engine.games.first_blood.state import POOL, FBState

RECONSTRUCTION_NOTE = (
    "The map, the orders of battle and the die-roll-6 rows of both attack tables are "
    "reconstructions: the rulebook does not print them."
)


def unit_views(state: FBState) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The units as the board shows them: those in play, and those still to come (in the
    pool), each in the order of their ids.  Every mark belongs to the current turn (issue
    9: "moved" from last turn is not shown in this one), and MF left only in its own
    side's movement phase, where it means something."""
    turn, specs = state.turn, q.specs()
    mover = state.phase.partition("_")[0].upper() if state.phase.endswith("_movement") else None
    shown: list[dict[str, Any]] = []
    to_come: list[dict[str, Any]] = []
    for uid in sorted(state.units):
        u = state.units[uid]
        moved, fought_now = u.moved and u.moved_turn == turn, u.fought_turn == turn
        # the same entry for every state in which the unit looks the same: read only, as a
        # view is (the server keeps one per state and shows it to every request)
        (to_come if u.loc == POOL else shown).append(_unit_entry(
            uid, u.loc, u.face_down, u.mf_left if specs[uid].side == mover else None, u.stopped and moved, moved,
            u.fought and fought_now, u.defended and fought_now, u.support))
    return shown, to_come


@lru_cache(maxsize=8192)
def _unit_entry(uid: str, loc: str, face_down: bool, mf_left: int | None, stopped: bool, moved: bool,
                fought: bool, defended: bool, support: str | None) -> dict[str, Any]:
    """A view's unit entry, drawn once per look: most units look the same from one state
    to the next, and every answer lists them all."""
    s = q.spec(uid)
    return {
        "id": uid, "side": s.side, "name": s.name, "kind": s.kind, "type": s.type,
        "cf": s.cf, "mf": s.mf, "range": s.range, "arrives": turn_name(s.arrives) if s.arrives else "start",
        "loc": loc, "where": place(loc), "face_down": face_down, "mf_left": mf_left,
        "stopped": stopped, "moved": moved, "fought": fought, "defended": defended, "support": support,
    }


def combat_report(state: FBState) -> dict[str, Any] | None:
    """The latest combat of this phase as both players read it after the roll: who
    attacked whom, the odds, every die modifier with its rule, the die and the result."""
    d = state.last_combat
    if d is None:
        return None
    names = [q.label(u) for u in d["attackers"]]
    return {
        "seq": d["seq"], "side": d["side"], "targets": list(d["targets"]), "attackers": names,
        "artillery": [q.label(u) for u in d["artillery"]], "defenders": [q.label(u) for u in d["defenders"]],
        "attack": d["attack"], "defence": d["defence"], "odds": d["odds"], "modifiers": copy.deepcopy(d["modifiers"]),
        "modifier": d["modifier"], "die": d["die"], "total": d["total"], "result": d["result"],
        "result_words": tables.RESULT_WORDS.get(d["result"], d["result"]),
        "table": tables.TABLES[d["side"]].name,
    }


def build_view(rules: Any, state: FBState, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
    p = rules.prompt(state)
    c = state.combat
    owed = combat.obligations(state, p.side) if state.phase.endswith("_combat") and p.side else []
    shown, to_come = unit_views(state)
    view: dict[str, Any] = {
        "game": rules.id, "title": rules.title, "you": side,
        "turn": state.turn, "turn_name": turn_name(state.turn), "turns": list(TURNS),
        "phase": state.phase, "phase_title": PHASE_TITLES.get(state.phase, state.phase),
        "prompt": {"side": p.side, "kind": p.kind, "text": p.text, "waiting": p.waiting,
                   "rule": p.rule},
        "your_turn": side is not None and side == p.side,
        "units": shown,
        "to_come": to_come,
        "strips": {h: {"status": s.status, "built": s.built, "work": s.work}
                   for h, s in sorted(state.strips.items())},
        "combat": None if c is None else {
            "side": c.side, "targets": list(c.targets), "attackers": list(c.attackers),
            "artillery": list(c.artillery),
            "origin": c.origin, "assessment": combat.assess(state, c) if c.result is None else None,
        },
        "last_combat": combat_report(state),
        "pending": copy.deepcopy(state.pending[0]) if state.pending else None,
        "obligations": [{"unit": u, "hex": h} for u, h in owed],
        "overstacked": q.overstacked(state),  # §6.4, R-6.4a: to be relieved before the phase ends
        "supply_die": state.supply_die,
        "air_capacity": q.air_capacity(state),
        "result": None if state.result is None else dict(state.result),
        "options": dict(state.options),
        # a game whose dice come from seed chains has no one secret: its record commits to them
        "dice_commitment": dice.commitment(state.secret),
        "reconstruction_note": RECONSTRUCTION_NOTE,
        "map_note": load_board().note,
        "seq": state.seq,
        "legal": [],
    }
    if state.result is not None and state.secret is not None:
        view["dice_secret"] = state.secret  # revealed once the game is over
    if view["your_turn"]:
        listed = rules.legal_commands(state, side) if legal is None else legal
        view["legal"] = [cmd.to_json() for cmd in listed]
    return view
