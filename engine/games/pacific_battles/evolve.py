"""Apply one event to a Pacific Battles state: one handler per event type, no rule checks
(every judgement, die and draw happened in ``decide`` and is in the event)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

from engine.core import sealed, undo
from engine.core.events import Event
from engine.core.visibility import PUBLIC, SEEN_BY
from engine.games.pacific_battles.movement import Piece
from engine.games.pacific_battles.state import Off, PBState, other

Handler = Callable[[PBState, dict[str, Any], str | None], None]
HANDLERS: dict[str, Handler] = {}


def on(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn
    return register


def apply(state: PBState, event: Event) -> None:
    undo.track(state, event, PBState.clone)
    data = event.data
    if SEEN_BY in data or PUBLIC in data:
        data = {k: v for k, v in data.items() if k not in (SEEN_BY, PUBLIC)}
    HANDLERS[event.type](state, data, event.side)
    state.seq += 1


@on(undo.UNDONE)
def _undone(s: PBState, d: dict[str, Any], side: str | None) -> None:
    restored = undo.rebuild(s, d["step"], apply, PBState.clone)
    for f in fields(PBState):
        setattr(s, f.name, getattr(restored, f.name))


# --- game, turn and phase ----------------------------------------------------------------

@on("game_created")
def _created(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.secret, s.scenario, s.options, s.last_turn = d["secret"], d["scenario"], dict(d["options"]), d["last_turn"]
    s.command = dict(d["command"])
    for sd, points in d["air"].items():
        s.air[sd].reserve = points


@on("forces_set")
def _forces(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sd = d["side"]
    s.pool[sd], s.hand[sd] = sorted(d["pool"]), sorted(d["hand"])
    s.reserved[sd] = sorted(d.get("reserved", []))


@on("turn_began")
def _turn(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.turn = d["turn"]
    s.bought = {}


@on("marker_scheduled")
def _scheduled(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.reserved[d["side"]].remove(d["marker"])
    s.hand[d["side"]] = sorted([*s.hand[d["side"]], d["marker"]])
    s.played[d["side"]].add(d["marker"])  # taken in the open: no secret that it is held


@on("phase_began")
def _phase(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.phase = d["phase"]
    s.moved, s.attacked, s.strikes, s.battles = set(), set(), [], []
    s.retreated, s.moving = set(), {}
    s.declaring, s.fought, s.struck = None, False, False
    s.eligible, s.bridging = set(), set()
    s.landed, s.readied, s.interdicted = {}, {}, False
    if d.get("clear_examined"):
        s.examined = {k: set() for k in s.examined}
    if d.get("logistics"):
        s.activated_now, s.refit_credit, s.repaired_on_field = set(), {}, False


@on("initiative_set")
def _initiative(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.first = d["first"]


@on("henderson_set")
def _henderson(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.henderson = d["side"]


@on("game_ended")
def _ended(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.result = {k: d[k] for k in ("winner", "reason", "level") if k in d}
    s.phase = "game_over"
    s.pending = []


# --- command markers (5.0) ------------------------------------------------------------------

@on("markers_to_draw")
def _to_draw(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.draws = d["count"]


@on("marker_drawn")
def _drawn(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sd = d["side"]
    s.pool[sd].remove(d["marker"])
    s.hand[sd] = sorted([*s.hand[sd], d["marker"]])
    s.draws = max(0, s.draws - 1)


@on("marker_played")
def _played(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sd, name, to = d["side"], d["marker"], d["to"]
    s.hand[sd].remove(name)
    s.played[sd].add(name)
    if to == "pool":
        s.pool[sd] = sorted([*s.pool[sd], name])
    elif to == "expiring":
        s.expiring[sd].append(name)
    elif to == "in_effect":
        s.in_effect[sd].append(name)
    else:
        s.removed[sd].append(name)


@on("markers_expired")
def _expired(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sd = d["side"]
    for name in d["to_pool"]:
        s.pool[sd] = sorted([*s.pool[sd], name])
    s.removed[sd].extend(d["removed"])
    for name in [*d["to_pool"], *d["removed"]]:
        if name in d.get("from_hand", ()):
            s.hand[sd].remove(name)
        else:
            s.expiring[sd].remove(name)


@on("command_raised")
def _command(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.command[d["side"]] += d["by"]


@on("bombardment_shift")
def _shift(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.shifts[d["side"]] += 1


# --- victory points --------------------------------------------------------------------------

@on("vp_scored")
def _vp(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.vp[d["side"]] += d["points"]
    if d.get("bought"):
        s.bought[d["side"]] = s.bought.get(d["side"], 0) + 1


# --- air (16.0) ------------------------------------------------------------------------------

@on("air_changed")
def _air(s: PBState, d: dict[str, Any], side: str | None) -> None:
    air = s.air[d["side"]]
    for name, delta in d.get("boxes", {}).items():
        setattr(air, name, getattr(air, name) + delta)
    for mission, delta in d.get("missions", {}).items():
        air.missions[mission] = air.missions.get(mission, 0) + delta
        if air.missions[mission] <= 0:
            del air.missions[mission]


@on("round_opened")
def _round(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.round = sealed.Round(d["kind"], tuple(d["sides"]))


@on(sealed.SEALED)
def _sealed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sealed.apply_sealed(s.round, Event(sealed.SEALED, d, side))


@on(sealed.REVEALED)
def _revealed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for sd, allocation in d["decisions"].items():
        air = s.air[sd]
        flying = {m: n for m, n in allocation.items() if n}
        air.reserve -= sum(flying.values())
        air.missions = flying
    s.round = sealed.Round()


@on("fire_chosen")
def _fire(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.fire[d["side"]] = d["at_others"]


@on("superiority_fired")
def _fired(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.fire = {}


# --- pieces ----------------------------------------------------------------------------------

@on("pieces_added")
def _added(s: PBState, d: dict[str, Any], side: str | None) -> None:
    sd = d["side"]
    for pid, unit, box, due, safe in d["pieces"]:
        s.off[pid] = Off(pid, unit, sd, box, due, safe)
    s.counter[sd] += d.get("new_ids", 0)


@on("landing_readied")
def _readied(s: PBState, d: dict[str, Any], side: str | None) -> None:
    """16.61: a landing waits for the interdiction rolls; it counts against 26.8's limits now."""
    s.readied[d["id"]] = d["hex"]
    got = s.landed.setdefault(d["hex"], [0, 0])
    got[0] += d["landed"][0]
    got[1] += d["landed"][1]


@on("interdiction_over")
def _interdiction_over(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.interdicted = True


@on("piece_placed")
def _placed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    """A piece from off the map (the set-up, the track, the base, a refit) onto a hex."""
    pid = d["id"]
    s.readied.pop(pid, None)
    if pid in s.off:
        o = s.off.pop(pid)
        s.pieces[pid] = Piece(pid, o.unit, o.side, d["hex"])
    else:  # a new piece straight onto the map (the set-up, captured supply)
        s.pieces[pid] = Piece(pid, d["unit"], d["side"], d["hex"])
        s.counter[d["side"]] += d.get("new_ids", 0)
    if "landed" in d:
        got = s.landed.setdefault(d["hex"], [0, 0])
        got[0] += d["landed"][0]
        got[1] += d["landed"][1]


@on("off_moved")
def _off(s: PBState, d: dict[str, Any], side: str | None) -> None:
    """Off-map bookkeeping: a piece to another box (delay, home base, replacement)."""
    for pid in d["ids"]:
        s.readied.pop(pid, None)
        if pid in s.pieces:
            p = s.pieces.pop(pid)
            s.off[pid] = Off(pid, p.unit, p.side, d["box"], d.get("due", 0), d.get("safe", False))
        else:
            s.off[pid] = replace(s.off[pid], box=d["box"], due=d.get("due", s.off[pid].due),
                                 safe=d.get("safe", s.off[pid].safe))
    _unfortify(s)


@on("pieces_moved")
def _moved(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for pid in d["ids"]:
        s.pieces[pid] = replace(s.pieces[pid], hex=d["to"])
        if d.get("spent") is not None:  # 18.4: stopped by a ZOC that was not there; it may go on
            s.moving[pid] = d["spent"]
        elif d.get("counts", True):
            s.moved.add(pid)
            s.moving.pop(pid, None)
        if d.get("retreat"):
            s.retreated.add(pid)
        if d.get("assault"):
            s.assaults[pid] = d["assault"]
        else:
            s.assaults.pop(pid, None)
    _unfortify(s)


@on("pieces_removed")
def _removed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    """Eliminated or evacuated: to a box (replace, dead, evacuated), or back to the counter
    mix ("mix": supply points, 7.8.6; a broken-down regiment's counter, 9.1)."""
    for pid in d["ids"]:
        p = s.pieces.pop(pid, None)
        o = s.off.pop(pid, None)
        s.readied.pop(pid, None)
        s.assaults.pop(pid, None)
        unit, sd = (p.unit, p.side) if p is not None else (o.unit, o.side)
        s.active.discard(pid)
        if d["box"] != "mix":
            s.off[pid] = Off(pid, unit, sd, d["box"])
        elif pid == unit:  # a named counter back in the mix
            s.mix = sorted({*s.mix, pid})
    _unfortify(s)


@on("broken_down")
def _broken(s: PBState, d: dict[str, Any], side: str | None) -> None:
    p = s.pieces.pop(d["id"])
    s.active.discard(p.id)
    for pid, unit in d["into"]:
        s.pieces[pid] = Piece(pid, unit, p.side, p.hex, p.suppressed)
    s.counter[p.side] += len(d["into"])
    s.mix = sorted({*s.mix, p.id})
    for seen in s.revealed.values():
        if p.id in seen:  # broken down in the open (a battle's losses): its battalions are seen too
            seen.update(pid for pid, _ in d["into"])


@on("combined")
def _combined(s: PBState, d: dict[str, Any], side: str | None) -> None:
    first = s.pieces[d["ids"][0]]
    for pid in d["ids"]:
        del s.pieces[pid]
    s.pieces[d["into"]] = Piece(d["into"], d["into"], first.side, first.hex)
    s.mix.remove(d["into"])


@on("suppressed")
def _suppressed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for pid in d["ids"]:
        s.pieces[pid] = replace(s.pieces[pid], suppressed=True)
        s.active.discard(pid)  # 19.3


@on("suppression_removed")
def _unsuppressed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for pid in d["ids"]:
        s.pieces[pid] = replace(s.pieces[pid], suppressed=False)


# --- logistics (7.0) -------------------------------------------------------------------------

@on("supply_spent")
def _spent(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for pid in d["ids"]:
        s.pieces.pop(pid, None)
        s.off.pop(pid, None)
    if "credit" in d:
        s.refit_credit[d["where"]] = d["credit"]
    if d.get("on_field"):
        s.repaired_on_field = True


@on("refit_credit_used")
def _credit(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.refit_credit[d["where"]] = d["credit"]


@on("hq_activated")
def _activated(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.active.add(d["hq"])
    s.activated_now.add(d["hq"])


@on("hqs_deactivated")
def _deactivated(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.active -= set(d["ids"])


@on("fortified")
def _fortified(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.fortified |= set(d["hexes"])


def _unfortify(s: PBState) -> None:
    """21.3: a fortification lasts while a friendly unit is in it."""
    held = {p.hex for p in s.pieces.values()}
    s.fortified &= held


# --- fog of war (18.0) -----------------------------------------------------------------------

@on("turned_face_up")
def _face_up(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.face_up[d["side"]].add(d["unit"])
    s.revealed[other(d["side"])].add(d["unit"])


@on("turned_face_down")
def _face_down(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.face_up[d["side"]].discard(d["unit"])


@on("examined")
def _examined(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.examined[d["side"]] |= set(d["hexes"])
    s.revealed[d["side"]] |= {pid for units in d["units"].values() for pid, _ in units}


# --- strikes (16.8) and battles (14.0) -------------------------------------------------------

@on("strike_placed")
def _strike(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.strikes.append({"hex": d["hex"], "air": d["air"], "naval": d.get("naval"), "value": d.get("value", 0),
                      "artillery": d.get("artillery")})
    if d["air"]:
        s.air[d["side"]].missions["strike"] -= d["air"]
        s.air[d["side"]].missions["struck"] = s.air[d["side"]].missions.get("struck", 0) + d["air"]
        if s.air[d["side"]].missions["strike"] <= 0:
            del s.air[d["side"]].missions["strike"]


@on("strikes_resolved")
def _struck(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.strikes, s.struck = [], True


@on("strike_result")
def _strike_result(s: PBState, d: dict[str, Any], side: str | None) -> None:
    pass  # its effects follow as their own events


@on("battle_opened")
def _opened(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.declaring = {"defenders": [d["hex"]], "attackers": []}


@on("battle_hex_added")
def _hex_added(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.declaring["defenders"] = sorted([*s.declaring["defenders"], d["hex"]])


@on("attacker_added")
def _attacker(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.declaring["attackers"] = sorted([*s.declaring["attackers"], d["id"]])


@on("battle_declared")
def _declared(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.battles.append({"attackers": list(d["attackers"]), "defenders": list(d["defenders"]), "done": False,
                      "markers": [], "chooser": None})
    s.attacked |= set(d["attackers"])
    s.declaring = None


@on("battle_cancelled")
def _cancelled(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.declaring = None


@on("battles_fought")
def _fight(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.fought = True
    if side is not None:  # 14.3 1: the attacker states which units attack which hexes
        s.revealed[other(side)] |= {pid for b in s.battles for pid in b["attackers"]}


@on("battle_marker")
def _battle_marker(s: PBState, d: dict[str, Any], side: str | None) -> None:
    b = s.battles[d["battle"]]
    b["markers"].append([d["side"], d["marker"]])
    if d["marker"] == "Recon":
        b["chooser"] = d["side"]


@on("battle_resolved")
def _resolved(s: PBState, d: dict[str, Any], side: str | None) -> None:
    b = s.battles[d["battle"]]
    b["done"] = True
    b["result"] = d["result"]
    if "attacker" in d:  # every unit of the battle, for both sides
        s.revealed[other(d["attacker"])] |= {pid for pid, _ in d["attackers"]}
        s.revealed[d["attacker"]] |= {pid for pid, _ in d["defenders"]}
    s.last_battle = {k: v for k, v in d.items() if k != "battle"}


@on("battle_units_changed")
def _battle_units(s: PBState, d: dict[str, Any], side: str | None) -> None:
    b = s.battles[d["battle"]]
    b[d["role"]] = list(d["ids"])


# --- decisions owed --------------------------------------------------------------------------

@on("decision_owed")
def _owed(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.pending.append(dict(d["decision"]))


@on("decision_progress")
def _progress(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.pending[0].update(d["changes"])


@on("decision_made")
def _made(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.pending.pop(0)


@on("decision_rewritten")
def _rewritten(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.pending[d["index"]]["ids"] = list(d["ids"])


@on("follow_on_set")
def _follow(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.eligible = set(d["ids"])


@on("interdicted")
def _interdicted(s: PBState, d: dict[str, Any], side: str | None) -> None:
    pass  # the die and the result; what they do follows as their own events


@on("track_examined")
def _track_examined(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.revealed[d["side"]] |= {pid for pid, _, _ in d["units"]}  # what MAGIC showed, for the US only


@on("bridges_set")
def _bridges(s: PBState, d: dict[str, Any], side: str | None) -> None:
    s.bridging = set(d["hexes"])


@on("battle_withdrawn")
def _withdrawn(s: PBState, d: dict[str, Any], side: str | None) -> None:
    b = s.battles.pop(d["battle"])
    s.attacked -= set(b["attackers"])
    if b.get("support") and side is not None:  # its close air support goes back to the mission
        air = s.air[side]
        air.missions["support"] = air.missions.get("support", 0) + b["support"]
        air.missions["cas"] -= b["support"]
        if air.missions["cas"] <= 0:
            del air.missions["cas"]


@on("start_force")
def _start_force(s: PBState, d: dict[str, Any], side: str | None) -> None:
    for unit, due in d["changes"]:
        s.off[unit] = replace(s.off[unit], due=due)


@on("close_support_added")
def _close_support(s: PBState, d: dict[str, Any], side: str | None) -> None:
    b = s.battles[d["battle"]]
    b["support"] = b.get("support", 0) + d["points"]
    air = s.air[d["side"]]
    air.missions["support"] -= d["points"]
    air.missions["cas"] = air.missions.get("cas", 0) + d["points"]
    if air.missions["support"] <= 0:
        del air.missions["support"]
