"""The Japanese set-up (25.4) and the reinforcement phases (6.0): air and supply
arrivals, landings on coastal hexes (25.6b, 25.7b) within the port limits (26.8),
the home bases (26.2), interdiction (16.6, 26.5, 26.6), voluntary delay (6.21), the
Lost Battalion (6.25), evacuation (23.0, 25.6c, 25.7c) and the conditional units (25.6d, 25.7d)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from engine.core import choices
from engine.core.errors import IllegalCommandError, Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.core.hexes import distance_between
from engine.games.pacific_battles import deception, planning, tables, tell, victory
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.forces import DECEPTION, Group
from engine.games.pacific_battles.logistics import PORT_FREE_LANDING, is_port
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.retreat import STACK_LIMIT
from engine.games.pacific_battles.state import PBState, other

# --- the Japanese set-up (25.4a, 12.8) -------------------------------------------------------

def setup_units(state: PBState) -> list[str]:
    return sorted(o.id for o in state.in_box("Japanese", "track") if o.due == 0)


def setup_hexes(state: PBState, unit: str) -> list[str]:
    if unit == DECEPTION:  # 34.1: on or next to the units already set up
        return sorted(deception.placement_hexes(state, "Japanese"))
    hf = q.henderson_hex()
    size = q.battalions(unit)
    return sorted(h for h in q.board().terrain if distance_between(h, hf) <= q.SETUP_RADIUS
                  and q.stack_of(state, h, "Japanese") + size <= STACK_LIMIT
                  and q.board().cost(h, h, q.unit_spec(unit).mechanised) is not None)


def gen_setup(state: PBState, side: str) -> Iterator[Command]:
    for pid in setup_units(state):
        for h in setup_hexes(state, state.off[pid].unit):
            yield Command("place", {"unit": pid, "hex": h})
    if not setup_units(state):
        yield Command("end_phase")


def do_place(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "piece_placed", side, {"side": side, "hex": data["hex"]}, actor=side,
                id=data["unit"], hex=data["hex"])


# --- arrivals at the start of the phase -------------------------------------------------------

def begin(em: Emitter, side: str) -> None:
    s: PBState = em.state
    f = q.forces()
    points = f.air["routine"][side]
    why = ["routine air"]
    if s.henderson == side and s.turn > 1:
        points += f.air["henderson"][side]
        why.append("Henderson Field (26.1)")
    due = s.air[side].due
    if due:
        why.append("campaign markers")
    em.emit("air_changed", None, side=side, boxes={"reserve": points + due, "due": -due},
            why=", ".join(why) + " (16.31: usable from the next turn's allocation)")
    planning.add_supply(em, side, f.air["supply"][side], safe=False)
    if deception.on(s) and s.turn >= deception.FROM_TURN:
        deception.add(em, side, deception.EACH_TURN[side], s.turn)


def due_units(state: PBState, side: str) -> list[str]:
    return list(state.cached(("due_units", side), lambda: tuple(sorted(
        o.id for o in state.in_box(side, "track") if 0 < o.due <= state.turn and o.id not in state.readied))))


def acted(state: PBState, side: str) -> bool:
    """Whether ``side`` has landed, readied or sent home a reinforcement in this phase
    (R-PB-6.0a: its phase then ends by its word, the last of those steps open to a take-back)."""
    return bool(state.landed or any(state.off[pid].side == side for pid in state.readied if pid in state.off)
                or any(o.due == state.turn for o in state.in_box(side, "base")))


def base_units(state: PBState, side: str) -> list[str]:
    """26.2: what waits in the home base since an earlier phase (its ``due``: the turn it came)."""
    return sorted(o.id for o in state.in_box(side, "base") if o.due < state.turn and o.id not in state.readied)


def landing_hexes(state: PBState, side: str, pid: str) -> list[str]:
    """25.6b, 25.7b: any coastal hex free of enemy units (6.21), within 26.8's limit of
    three battalion equivalents and one supply unit a hex unless it is an active port.
    Alike pieces land alike: found once a kind of piece and state (a landing phase's list,
    its check and its board all ask).  Read only."""
    fake, supply, size, mech = _landing_kind(state.off[pid].unit)
    key = ("landing_hexes", side, fake, supply, size, mech)
    return state.cached(key, lambda: _landing_hexes(state, side, fake, supply, size, mech))


def _landing_kind(unit: str) -> tuple[bool, bool, int, bool]:
    """What of a piece its landing hexes depend on: a deception marker, a supply point, its
    battalion equivalents, mechanised."""
    fake, supply = unit == DECEPTION, unit == SUPPLY
    plain = fake or supply
    return fake, supply, 0 if plain else q.battalions(unit), False if plain else q.unit_spec(unit).mechanised


def _over_limit(state: PBState, hex_id: str, size: int, supply: bool) -> bool:
    """26.8: whether a landing of ``size`` battalion equivalents (and ``supply``) would pass
    three battalion equivalents and one supply unit in ``hex_id`` this phase (a hex that is
    no active port)."""
    got = state.landed.get(hex_id, [0, 0])
    return got[0] + size > PORT_FREE_LANDING[0] or got[1] + supply > PORT_FREE_LANDING[1]


def _landing_hexes(state: PBState, side: str, fake: bool, supply: bool, size: int, mech: bool) -> list[str]:
    enemy = q.enemy_hexes(state, side)
    if fake:  # 34.1: with the turn's landings, or on or next to friendly units; no stacking
        return sorted((set(q.board().coastal) - enemy) | deception.placement_hexes(state, side))
    ports = _ports(state, side)
    out = []
    for h in _coast_enterable(mech):
        if h in enemy:
            continue
        if h not in ports and _over_limit(state, h, size, supply):
            continue
        out.append(h)
    return out


def _ports(state: PBState, side: str) -> set[str]:
    """26.8's active ports of ``side``: ``is_port``, asked of the few hexes its engineers hold."""
    pieces = list(state.pieces.values())
    held = {p.hex for p in pieces if p.side == side} & set(q.board().objectives)
    return {h for h in held if is_port(q.board(), q.forces(), pieces, h, side)}


@cache
def _coast_enterable(mechanised: bool) -> tuple[str, ...]:
    """The coastal hexes a unit may stand in (the terrain's part of a landing: fixed)."""
    return tuple(h for h in sorted(q.board().coastal) if q.board().cost(h, h, mechanised) is not None)


def evacuable(state: PBState, side: str) -> list[str]:
    """23.0, 25.6c, 25.7c: after Operation KE (Japanese) or USMC Relief (US, USMC units
    only), units on a coastal objective hex."""
    if victory.EVACUATION_MARKER[side] not in state.in_effect[side]:
        return []
    out = []
    for p in state.on_map(side):
        if p.hex not in q.board().objectives or p.unit == SUPPLY:
            continue
        if side == "Allied" and q.spec(p).corps != "USMC":
            continue
        out.append(p.id)
    return sorted(out)


BUY_RULE = {"Japanese": "25.6d", "Allied": "25.7d"}


def conditional_group(side: str) -> Group:
    """25.6d, 25.7d: the side's conditional units, bought unit by unit for VP once its marker is in effect."""
    return next(g for g in q.forces().groups.values() if g.side == side and g.vp_each)


def buyable(state: PBState, side: str) -> list[str]:
    g = conditional_group(side)
    if g.marker not in state.in_effect[side] or state.vp[side] < g.vp_each:
        return []
    return sorted(u.name for u in q.forces().of_group(g.name) if u.name not in state.off and u.name not in state.pieces)


def gen_reinforcements(state: PBState, side: str, unit: str | None = None,
                       landings: bool = True) -> Iterator[Command]:
    """The phase's commands; ``unit``: only that piece's landings and its going to the home
    base (a command about it being judged: not every other piece's hexes first);
    ``landings=False``: all but the landings (another command being judged)."""
    if state.interdicted:  # 16.61: the rolls are over; the phase ends with them
        yield Command("end_phase")
        return
    for pid, hexes, to_base in _pieces(state, side, unit, landings):
        for h in hexes:
            yield Command("land", {"unit": pid, "hex": h})
        if to_base is not None:
            yield to_base
    if unit is None:
        yield from _after_the_pieces(state, side)


def _pieces(state: PBState, side: str, unit: str | None = None,
            landings: bool = True) -> Iterator[tuple[str, list[str], Command | None]]:
    """Each piece due or at the home base (``unit``: only it): where it may land (none
    looked for without ``landings``) and its going to the home base, if it may."""
    # (once a state: the list, the check of a command and the board each ask)
    waiting = state.cached(("waiting", side), lambda: (*due_units(state, side), *base_units(state, side)))
    for pid in waiting if unit is None else [unit] if unit in waiting else []:
        hexes = landing_hexes(state, side, pid) if landings else []
        yield pid, hexes, Command("to_base", {"unit": pid}) if state.off[pid].box == "track" else None


def _after_the_pieces(state: PBState, side: str) -> list[Command]:
    """The phase's commands that name no piece due: evacuations, purchases, its end."""
    return [*(Command("evacuate", {"unit": pid}) for pid in evacuable(state, side)),
            *(Command("buy", {"unit": unit}) for unit in buyable(state, side)), Command("end_phase")]


def reinforcement_choices(state: PBState, side: str) -> list[dict[str, Any]] | None:
    """``gen_reinforcements``' commands as ``choices.group`` tells them, built from the
    landing hexes of each kind of piece (found once a kind) rather than from the
    phase's 1,500-3,000 landings one by one (the list a command's answer carries next,
    issue 35).  None where grouping would not go unit by unit (more pieces due than
    hexes to land in): group the list then."""
    if state.interdicted:
        return None
    order: list[str] = []  # the commands' types as the list first names them
    lands: list[tuple[str, list[str]]] = []
    rest: list[Command] = []
    for pid, hexes, to_base in _pieces(state, side):
        if hexes:
            order += [] if "land" in order else ["land"]
            lands.append((pid, hexes))
        if to_base is not None:
            order += [] if "to_base" in order else ["to_base"]
            rest.append(to_base)
    rest += _after_the_pieces(state, side)
    order += [kind for kind in dict.fromkeys(c.type for c in rest) if kind not in order]
    land = choices.by_key("land", "unit", "hex", lands)
    if land is None:
        return None
    others: dict[str, list[dict[str, Any]]] = {}
    for ch in choices.group(rest):
        others.setdefault(ch["type"], []).append(ch)
    return [ch for kind in order for ch in (land if kind == "land" else others[kind])]


def interdiction_points(state: PBState, side: str) -> int:
    """The enemy's air points on interdiction (17.3: naval markers are not flown at it here, R-PB-17.3)."""
    return state.air[other(side)].missions.get("interdiction", 0)


def interdicting(state: PBState, side: str) -> bool:
    """16.61: the enemy flies enough air points on Interdiction for the table."""
    return tables.interdiction_column(interdiction_points(state, side)) is not None


def _what(unit: str) -> str:
    return "a supply point" if unit == SUPPLY else "a unit"  # a deception marker reads as a unit


def _landed(unit: str) -> list[int]:
    return [0, 1] if unit == SUPPLY else [0, 0] if unit == DECEPTION else [q.battalions(unit), 0]


def do_land(em: Emitter, data: dict[str, Any], side: str) -> None:
    """16.61, 16.62: under interdiction a landing is readied (where, for its side only) and
    waits: as the phase ends the interdicting player rolls against each readied unit and
    supply point in the order he chooses.  Otherwise it lands at once."""
    s: PBState = em.state
    pid, hex_id = data["unit"], data["hex"]
    o = s.off[pid]
    if not o.safe and interdicting(s, side):
        tell.secret(em, "landing_readied", side, {"side": side, "what": _what(o.unit)}, actor=side, id=pid, hex=hex_id,
                    landed=_landed(o.unit))
        return
    tell.secret(em, "piece_placed", side, {"side": side, "hex": hex_id}, actor=side, id=pid, hex=hex_id,
                landed=_landed(o.unit))


def readied_kinds(state: PBState, side: str) -> list[str]:
    """What of ``side``'s readied landings is left to roll against, as the interdictor sees it."""
    return sorted({"supply" if state.off[pid].unit == SUPPLY else "unit" for pid in state.readied
                   if state.off[pid].side == side})


def owe_interdiction(em: Emitter, side: str) -> bool:
    """As ``side``'s reinforcement phase ends: roll against its readied landings (16.61).
    The interdictor chooses the order where there is a choice (units or supply points
    next); True while the phase waits for him."""
    s: PBState = em.state
    if s.interdicted or not any(s.off[pid].side == side for pid in s.readied):
        return False
    _roll_alike(em, side)
    if any(s.off[pid].side == side for pid in s.readied):
        tell.owe(em, {"side": other(side), "kind": "interdict", "rule": "16.61", "landing": side})
        return True
    em.emit("interdiction_over", None, side=side)
    return False


def _roll_alike(em: Emitter, side: str) -> None:
    """Rolls that leave no choice of order: while one kind is left, or no more rolls."""
    s: PBState = em.state
    while readied_kinds(s, side) and (len(readied_kinds(s, side)) == 1 or not interdicting(s, side)):
        _interdict_next(em, side, readied_kinds(s, side)[0])


def _interdict_next(em: Emitter, side: str, kind: str) -> None:
    """The next readied landing of ``kind`` (in the order readied): a die unless AA fire has
    ended the interdiction (16.62 3), then it lands or not."""
    s: PBState = em.state
    pid = next(p for p in s.readied if ("supply" if s.off[p].unit == SUPPLY else "unit") == kind)
    hex_id = s.readied[pid]
    points = interdiction_points(s, side)
    if interdicting(s, side):
        die = em.roll()
        result = tables.interdiction(points, die)
        # where it was to land is told only if it lands (4.1 1e: interdiction comes before placing)
        em.emit("interdicted", None, side=side, die=die, points=points, result=result, what=_what(s.off[pid].unit))
        if result == "AA":
            em.emit("air_changed", None, side=other(side), boxes={"damaged": 1}, missions={"interdiction": -1},
                    why="anti-aircraft fire at interdiction (16.62)")
        elif result in ("D1", "D2"):
            turns = int(result[1])
            tell.secret(em, "off_moved", side, {"side": side, "delayed": turns}, ids=[pid], box="track",
                        due=s.turn + turns, safe=True)
            return
        elif result == "E":
            _interdiction_loss(em, side, pid)
            return
    tell.secret(em, "piece_placed", side, {"side": side, "hex": hex_id}, actor=side, id=pid, hex=hex_id)


def gen_interdict(state: PBState, side: str) -> Iterator[Command]:
    for kind in readied_kinds(state, state.pending[0]["landing"]):
        yield Command("interdict", {"next": kind})


def do_interdict(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    landing = s.pending[0]["landing"]
    _interdict_next(em, landing, data["next"])
    _roll_alike(em, landing)
    if not any(s.off[pid].side == landing for pid in s.readied):
        em.emit("decision_made", side)
        em.emit("interdiction_over", None, side=landing)


def _interdiction_loss(em: Emitter, side: str, pid: str) -> None:
    """16.62: a unit that can break down loses one battalion (to the Replacement box, 7.5)
    and the rest are delayed two turns; any other is eliminated (to the Replacement box;
    supply back to the mix)."""
    s: PBState = em.state
    o = s.off[pid]
    spec = q.unit_spec(o.unit)
    if o.unit in (SUPPLY, DECEPTION):  # back to the counter mix (16.62)
        tell.secret(em, "pieces_removed", side, {"side": side, "what": "a counter"}, ids=[pid], box="mix")
        return
    if spec.breaks is not None:
        bn, n = spec.breaks
        *delayed, lost = q.new_ids(s, side, n)
        tell.secret(em, "pieces_removed", side, {"side": side, "what": "a battalion"}, ids=[pid], box="mix")
        # the battalion lost goes to the Replacement box, where it may be refitted (7.5), as any unit lost
        pieces = [[i, bn, "track", s.turn + 2, True] for i in delayed] + [[lost, bn, "replace", s.turn, True]]
        tell.secret(em, "pieces_added", side, {"side": side, "delayed": n - 1}, side=side, pieces=pieces, new_ids=n)
        em.emit("vp_scored", None, side=other(side), points=victory.for_loss(other(side), "battalion"),
                why="a battalion lost to interdiction")
        return
    tell.secret(em, "pieces_removed", side, {"side": side, "what": "a unit"}, ids=[pid], box="replace")
    vp_kind = "hq" if spec.kind == "hq" else "battalion"
    em.emit("vp_scored", None, side=other(side), points=victory.for_loss(other(side), vp_kind, spec.battalions
                                                                         if vp_kind == "battalion" else 1),
            why="a unit eliminated by interdiction")


def do_to_base(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "off_moved", side, {"side": side, "to_base": 1}, ids=[data["unit"]], box="base",
                due=em.state.turn)


def do_evacuate(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    p = s.pieces[data["unit"]]
    kind = "hq" if q.is_hq(p) else "battalion"
    what = "an HQ" if kind == "hq" else f"{q.battalions(p.unit)} battalion equivalent(s)"
    tell.secret(em, "pieces_removed", side, {"owner": side, "hex": p.hex, "what": what, "evacuated": True}, actor=side,
                ids=[p.id], box="evacuated", owner=side, hex=p.hex, unit=p.unit)
    points = victory.for_evacuation(side, kind, s.in_effect[side]) * (1 if kind == "hq" else q.battalions(p.unit))
    if points:  # what left is not told, only what it scores
        em.emit("vp_scored", None, side=side, points=points, why=f"{what} evacuated (24.5)")


def do_buy(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    em.emit("vp_scored", None, side=side, points=-conditional_group(side).vp_each,
            why=f"a conditional unit bought ({BUY_RULE[side]})")
    tell.secret(em, "pieces_added", side, {"side": side, "track": 1}, side=side,
                pieces=[[data["unit"], data["unit"], "track", s.turn, False]])


def end(em: Emitter, side: str) -> None:
    """6.21: what is not placed waits for a later turn; 6.25: after the last, never."""
    s: PBState = em.state
    late = due_units(s, side)
    if late:
        tell.secret(em, "off_moved", side, {"side": side, "delayed": len(late)}, ids=late, box="track",
                    due=s.turn + 1)


def refusal(state: PBState, side: str, cmd: Command) -> Reason | None:
    """Why a reinforcement command ("land", "to_base", "evacuate", "buy") is refused, None if
    the lists ``gen_reinforcements`` draws from hold it: the same functions decide."""
    t, unit, hex_id = cmd.type, cmd.data.get("unit"), cmd.data.get("hex")
    if t == "land":
        if hex_id in q.enemy_hexes(state, side):
            return "6.21", "reinforcements may not be placed in an enemy occupied hex"
        if unit not in state.off or state.off[unit].side != side or unit not in due_units(state, side) + base_units(
                state, side):
            return "6.1", f"{unit} is not one of your reinforcements due this turn"
        if hex_id not in landing_hexes(state, side, unit):
            return _landing_refusal(state, side, unit, hex_id) or _rule(side, cmd)
        return None
    elif t == "evacuate":
        listed = unit in evacuable(state, side)
    elif t == "buy":
        listed = unit in buyable(state, side)
    else:
        listed = unit in due_units(state, side)  # the track's, sent to the base instead (26.2)
    return None if listed else _rule(side, cmd)


def _landing_refusal(state: PBState, side: str, pid: str, hex_id: Any) -> Reason | None:
    """Which of ``landing_hexes``' conditions a unit's landing in ``hex_id`` fails (a
    deception marker's, 34.1, are told whole by ``_rule``)."""
    fake, supply, size, mech = _landing_kind(state.off[pid].unit)
    if fake:
        return None
    if hex_id not in q.board().coastal:
        return LAND_RULE[side], f"{hex_id} is not a coastal hex: reinforcements land on the coast"
    if hex_id not in _coast_enterable(mech):
        return "11.0", f"{q.label(state, pid)} cannot enter {hex_id}'s terrain"
    got = state.landed.get(hex_id, [0, 0])
    if _over_limit(state, hex_id, size, supply) and hex_id not in _ports(state, side):
        return "26.8", (f"{hex_id} has taken {got[0]} battalion equivalent(s) and {got[1]} supply unit(s) this "
                        f"phase, and {q.label(state, pid)} would make more than {PORT_FREE_LANDING[0]} and "
                        f"{PORT_FREE_LANDING[1]}: the limit of a hex that is no active port")
    return None


LAND_RULE = {"Japanese": "25.6b", "Allied": "25.7b"}


def _rule(side: str, cmd: Command) -> Reason:
    """What a refused reinforcement command is told when nothing more particular is wrong."""
    if cmd.type == "land":
        return "26.8", (f"{cmd.data.get('hex')} is not a coastal hex you may land in now: free of enemy units, and "
                        "within three battalion equivalents and one supply unit a phase unless it is an active port")
    if cmd.type == "evacuate":
        return "23.0", ("only units on a coastal objective hex may be evacuated, and only after Operation KE "
                        "(Japanese) or USMC Relief (USMC units)")
    if cmd.type == "buy":
        g = conditional_group(side)
        return BUY_RULE[side], (f"the conditional units are bought for {g.vp_each} VP each, one at a time, once "
                                f"{g.marker} is in effect")
    return "6.2", f"{cmd.data.get('unit')} cannot go to the home base now"


def why_not(state: PBState, side: str, cmd: Command) -> IllegalCommandError:
    return IllegalCommandError(*(refusal(state, side, cmd) or _rule(side, cmd)))
