"""What one side may see of a Pacific Battles game (None: a spectator, who sees what both
sides may see; ``ADMIN``: everything).  Nothing hidden from ``side`` is put in: enemy
stacks show only that they are there, whether they have a ZOC (18.4) and whether they
are fortified (18.5) until examined (18.1, 18.2); the enemy's track, base, hand and
sealed allocation never (18.6, 5.4, 4.1 1c); after the game, everything."""

from __future__ import annotations

from typing import Any

from engine.core.events import Command
from engine.core.visibility import ADMIN
from engine.games.pacific_battles import battles, tables
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import sequence as seq
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.movement import Piece
from engine.games.pacific_battles.sequence import turn_name
from engine.games.pacific_battles.state import SIDES, PBState, other


def _unit(state: PBState, p: Piece) -> dict[str, Any]:
    spec = q.spec(p)
    out: dict[str, Any] = {"id": p.id, "unit": p.unit, "side": p.side, "hex": p.hex, "suppressed": p.suppressed,
                           "kind": "supply" if spec is None else spec.kind}
    if p.id in state.face_up[p.side]:
        out["face_up"] = True
    if spec is not None:
        out.update(factors=[spec.attack, spec.defence, spec.movement], size=spec.size, mechanised=spec.mechanised)
        if spec.kind == "hq":
            out.update(support=spec.support, radius=spec.radius, active=p.id in state.active)
    return out


def _off(state: PBState, side: str, box: str) -> list[dict[str, Any]]:
    """A box of one's own; a piece readied to land under interdiction names its hex (16.61)."""
    out = []
    for o in sorted(state.in_box(side, box), key=lambda o: o.id):
        entry: dict[str, Any] = {"id": o.id, "unit": o.unit, "due": o.due}
        if o.id in state.readied:
            entry["readied"] = state.readied[o.id]
        out.append(entry)
    return out


def _air(state: PBState, side: str, viewer: str | None) -> dict[str, Any]:
    a = state.air[side]
    out: dict[str, Any] = {"reserve": a.reserve, "damaged": a.damaged, "eliminated": a.eliminated,
                           "missions": dict(a.missions)}
    if viewer in (side, ADMIN):
        out["due"] = a.due
        sealed = state.round.for_side(side)
        if sealed is not None:
            out["allocated"] = dict(sealed)
    if state.round.sides:
        out["allocation"] = "allocated" if side not in state.round.waiting else "still allocating"
    return out


def build_view(rules: Any, state: PBState, side: str | None, legal: list[Command] | None = None) -> dict[str, Any]:
    everything = side == ADMIN or state.result is not None
    own: list[dict[str, Any]] = []
    stacks: dict[str, dict[str, Any]] = {}
    # 18.4: whether a stack has a ZOC is told to a side whose unit is next to it (R-PB-18.4):
    # to this side, or for a spectator to the stack's enemy (None: not told)
    told = {sd: q.around_units(state, other(sd)) for sd in SIDES}  # a stack's side -> where its enemy was told
    for p in sorted(state.pieces.values(), key=lambda p: p.id):
        if everything or p.side == side:
            own.append(_unit(state, p))
            continue
        knows = p.hex in told[p.side]
        st = stacks.setdefault(p.hex, {"hex": p.hex, "side": p.side, "zoc": False if knows else None,
                                       "fortified": p.hex in state.fortified, "units": None})
        if knows:
            st["zoc"] = st["zoc"] or q.has_zoc_piece(p)
        examined = side is not None and p.hex in state.examined[side] and p.id in state.revealed[side]
        if examined or p.id in state.face_up[p.side]:  # as examined (not what came after), or face up (34.0)
            st["units"] = [*(st["units"] or []), _unit(state, p)]
    prompt = rules.prompt(state)
    sides: dict[str, Any] = {}
    for sd in SIDES:
        mine = everything or sd == side
        entry: dict[str, Any] = {
            "vp": state.vp[sd], "command": state.command.get(sd, 0),
            "air": _air(state, sd, ADMIN if everything else side),
            "in_effect": list(state.in_effect[sd]),
            # out of the game: all of one's own; of the enemy's only those it played in the open (a naval
            # marker held unplayed leaves in secret at the end of the turn, 5.4)
            "removed_markers": [m for m in state.removed[sd] if mine or m in state.played[sd]],
            "hand_count": len(state.hand[sd]),
            "replaceable": len(state.in_box(sd, "replace")), "eliminated": len(state.in_box(sd, "dead")),
            "evacuated": len(state.in_box(sd, "evacuated")),
        }
        if mine:
            entry.update(hand=list(state.hand[sd]), pool=list(state.pool[sd]), expiring=list(state.expiring[sd]),
                         track=_off(state, sd, "track"), base=_off(state, sd, "base"),
                         replace=_off(state, sd, "replace"), dead=_off(state, sd, "dead"),
                         evacuated_units=_off(state, sd, "evacuated"))
        sides[sd] = entry
    acting = side is not None and side in prompt.acting
    view: dict[str, Any] = {
        "game": rules.id, "side": side, "options": dict(state.options), "turn": state.turn,
        "month": turn_name(state.turn) if state.turn else "set-up",
        "last_turn": state.last_turn, "phase": state.phase, "phase_title": seq.title(state) if state.phase else "",
        "first": state.first, "henderson": state.henderson,
        "prompt": {"side": prompt.side, "sides": list(prompt.acting), "kind": prompt.kind,
                   "text": prompt.text if acting else prompt.waiting, "rule": prompt.rule},
        "units": own, "stacks": sorted(stacks.values(), key=lambda s: s["hex"]),
        "fortified": sorted(state.fortified), "sides": sides,
        "battles": _battles(state, side, everything), "last_battle": state.last_battle,
        "result": state.result, "reconstructed": load_board().note,
    }
    view["battle_preview"] = _preview(state)
    if acting and state.pending and state.pending[0]["side"] == side:
        view["decision"] = {k: v for k, v in state.pending[0].items() if k != "dead"}
    if legal is None and acting:
        legal = rules.legal_commands(state, side)
    if acting:
        view["legal"] = [{"type": c.type, "data": c.data, "label": rules.label(state, c)} for c in legal or []]
    return view


def _preview(state: PBState) -> dict[str, Any] | None:
    """The battle whose CRT is being chosen (14.3, 14.4): strengths, every shift with its
    section, the column, and both tables' results on it, for everybody (the battle's units
    are known to both sides once it is fought, R-PB-18.0)."""
    if not state.pending or state.pending[0]["kind"] != "crt":
        return None
    i = state.pending[0]["battle"]
    b = state.battles[i]
    a, attackers, defenders = battles.assess(state, b)
    return {"battle": i, "hexes": b["defenders"], "attacker": attackers[0].side, "chooser": state.pending[0]["side"],
            # [id, name] pairs, as in "battles" and the log: one name for a unit everywhere
            "attackers": [[p.id, p.unit] for p in attackers], "defenders": [[p.id, p.unit] for p in defenders],
            "attack": a.attack, "defence": a.defence, "base": a.base, "column": a.column,
            "shifts": [[s.value, s.why, s.rule] for s in a.shifts], "markers": [m for _, m in b["markers"]],
            # as resolution applies them, markers included (R-PB-15.5)
            "tables": {name: [battles.applied_result(b, attackers[0].side, name, a.column, die) for die in range(1, 7)]
                       for name in tables.CRTS},
            "words": {code: r.words for code, r in tables.RESULTS.items()}}


def _battles(state: PBState, side: str | None, everything: bool) -> list[dict[str, Any]]:
    """The declared battles: attackers are the phasing side's units (the defender sees
    them as they are committed, 14.3 1), defenders by hex."""
    phasing = seq.side_of(state)
    if not (everything or side == phasing or state.fought):
        return []  # the declarations are the attacker's until it fights them (14.2)
    out = []
    for b in state.battles:
        out.append({"attackers": [[i, state.pieces[i].unit] for i in b["attackers"] if i in state.pieces],
                    "defenders": b["defenders"], "done": b["done"], "result": b.get("result"),
                    "markers": [m for _, m in b["markers"]], "support": b.get("support", 0)})
    if state.declaring is not None:
        d = state.declaring
        out.append({"attackers": [[i, state.pieces[i].unit] for i in d["attackers"] if i in state.pieces],
                    "defenders": d["defenders"], "done": False, "declaring": True, "markers": []})
    return out

