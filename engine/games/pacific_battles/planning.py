"""The planning impulse (4.1 1): initiative, command markers, the secret air allocation
and air superiority."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import dice, sealed
from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import air, deception, markers, tables, tell, victory
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.logistics import combat_effective_engineer
from engine.games.pacific_battles.movement import SUPPLY
from engine.games.pacific_battles.state import MISSIONS, SIDES, PBState, other

AIR_ROUND = "air_missions"


# --- initiative (4.1 1a, 25.2) and Henderson Field (26.1) ------------------------------------

def begin_turn(em: Emitter) -> None:
    s: PBState = em.state
    if s.turn > 1:
        holder = next((side for side in SIDES if combat_effective_engineer(
            q.forces(), s.pieces.values(), q.henderson_hex(), side)), None)
        if holder != s.henderson:
            em.emit("henderson_set", None, side=holder)
    die = em.roll() if s.turn > 1 and s.vp["Allied"] == s.vp["Japanese"] else None
    first, why = victory.initiative(s.turn, s.vp, die)
    em.emit("initiative_set", None, first=first, die=die, why=why)


# --- command markers (5.0) ---------------------------------------------------------------

def draw_markers(em: Emitter, side: str) -> None:
    """5.1: draw the command control level's number, one at a time, each applied at once;
    with 35.1 the markers of this month come first, in the open."""
    s: PBState = em.state
    for name, turn in sorted(markers.HISTORICAL[side].items()):
        if turn == s.turn and name in em.state.reserved[side]:
            em.emit("marker_scheduled", side, side=side, marker=name, why="its historical date (35.1)")
            if markers.immediate(side, name):
                take_effect(em, side, name, scheduled=True)
    em.emit("markers_to_draw", side, side=side, count=s.command[side])
    while em.state.draws > 0 and em.state.pool[side]:
        draw_one(em, side)


def draw_one(em: Emitter, side: str) -> None:
    pool = sorted(em.state.pool[side])
    name = dice.draw(em.state.secret, em.state.seq, pool)
    em.rolled = True
    tell.secret(em, "marker_drawn", side, {"side": side}, side=side, marker=name)
    if markers.immediate(side, name):
        take_effect(em, side, name)


def can_buy(state: PBState, side: str) -> bool:
    """27.1-27.2 (optional): two VP for one more marker, up to the normal allotment a turn."""
    return (bool(state.options.get("buy_markers")) and state.phase.startswith("markers_")
            and state.vp[side] >= markers.EXTRA_VP and state.bought.get(side, 0) < state.command[side]
            and bool(state.pool[side]))


def gen_buy(state: PBState, side: str) -> Iterator[Command]:
    if can_buy(state, side):
        yield Command("buy_marker")
    if state.options.get("buy_markers"):
        yield Command("end_phase")


def do_buy_marker(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("vp_scored", side, side=side, points=-markers.EXTRA_VP, why="one more command marker (27.2)",
            bought=True)
    draw_one(em, side)


def take_effect(em: Emitter, side: str, name: str, scheduled: bool = False) -> None:
    """The markers played the instant they are drawn."""
    s: PBState = em.state
    ok, why = markers.condition(s, side, name, scheduled)
    if not ok:
        markers.play(em, side, name, f"no effect: {why}; back to the pool", to="pool")
        return
    if name in ("Battle of Santa Cruz Islands", "Battle of Eastern Solomons", "Cactus Air Force"):
        die = em.roll()
        markers.play(em, side, name, f"{die} air strike(s) arrive in the reinforcement phase", die=die)
        em.emit("air_changed", None, side=side, boxes={"due": die}, why=name)
    elif name == "Disease":
        die = em.roll()
        markers.play(em, side, name, f"{die} battalion equivalent(s) or supply point(s) lost on Guadalcanal",
                     die=die)
        owe_losses(em, side, die, "battalions", [p.id for p in s.on_map(side)], "Disease", "Campaign markers")
    elif name == "New Guinea Diversion":
        n = min(3, s.air[side].reserve)
        markers.play(em, side, name, f"{n} air strike(s) leave the Reserve")
        if n:
            em.emit("air_changed", None, side=side, boxes={"reserve": -n, "eliminated": n}, why=name)
    elif name == "Night Bombing Tactics":
        markers.play(em, side, name, "Japanese air strikes shift one column right for the rest of the game")
        em.emit("bombardment_shift", None, side=side)
    elif name in ("Operation KA-GO", "Operation KE", "14th Corps", "USMC Relief"):
        markers.play(em, side, name, _group_effect(name))
        if name != "USMC Relief":
            em.emit("command_raised", None, side=side, by=1)
        add_group(em, side, name)
        if deception.on(em.state):
            deception.add(em, side, deception.WITH_MARKER.get(name, 0), em.state.turn)
    elif name == "Tokyo Express":
        die = em.roll()
        markers.play(em, side, name, f"{die} supply point(s) arrive, not subject to interdiction", die=die)
        add_supply(em, side, die, safe=True)
    elif name == "Weather":
        markers.play(em, side, name, "each side puts one air unit in Damaged and loses one supply point")
        for sd in (side, other(side)):
            if em.state.air[sd].reserve:
                em.emit("air_changed", None, side=sd, boxes={"reserve": -1, "damaged": 1}, why=name)
        for sd in (side, other(side)):
            supply = [p.id for p in em.state.on_map(sd) if p.unit == SUPPLY] + [
                o.id for o in em.state.in_box(sd, "base") if o.unit == SUPPLY]
            owe_losses(em, sd, 1, "supply", supply, "Weather", "Campaign markers")
    else:  # pragma: no cover - every immediate marker is above
        raise AssertionError(name)


def _group_effect(name: str) -> str:
    return {"Operation KA-GO": "Japanese command control +1; the Operation KA-GO group arrives this turn",
            "Operation KE": "Japanese command control +1; the Operation KE group arrives this turn; the Japanese "
                            "may evacuate and buy the optional units (25.6c, d)",
            "14th Corps": "US command control +1; the 14th Corps group arrives this turn",
            "USMC Relief": "the USMC Relief group arrives this turn; the US may evacuate USMC units and buy the "
                           "conditional units (25.7c, d)"}[name]


def add_group(em: Emitter, side: str, group: str, turn: int | None = None) -> None:
    """A reinforcement group onto its side's track (hidden from the other side, 18.6)."""
    s: PBState = em.state
    g = q.forces().groups[group]
    due = s.turn if turn is None else turn
    units = [u.name for u in q.forces().of_group(group) if u.name not in s.off and u.name not in s.pieces]
    if g.air:  # with the routine air in this turn's reinforcement phase (16.31)
        em.emit("air_changed", None, side=side, boxes={"due": g.air}, why=f"the {group} group")
    if units:
        tell.secret(em, "pieces_added", side, {"side": side, "track": len(units)}, side=side,
                    pieces=[[u, u, "track", due, not g.interdiction] for u in units])


def add_supply(em: Emitter, side: str, points: int, safe: bool, due: int | None = None) -> None:
    s: PBState = em.state
    ids = q.new_ids(s, side, points)
    tell.secret(em, "pieces_added", side, {"side": side, "supply": points}, side=side,
                pieces=[[i, SUPPLY, "track", s.turn if due is None else due, safe] for i in ids], new_ids=points)


def owe_losses(em: Emitter, side: str, need: int, measure: str, among: list[str], reason: str, rule: str,
               battle: int | None = None, vp_to: str | None = None, dead: list[str] | None = None) -> None:
    """A loss its owner chooses (15.2): ``need`` battalion equivalents, supply points or
    combat factors (``measure``) from the pieces ``among``; ``vp_to``: the enemy scoring
    for them (24.4); ``dead``: those surrounded at the instant of combat (15.21)."""
    if need <= 0 or not among:
        return
    decision = {"side": side, "kind": "losses", "need": need, "measure": measure, "among": sorted(among),
                "reason": reason, "rule": rule, "battle": battle, "vp_to": vp_to, "dead": sorted(dead or [])}
    tell.owe(em, decision)


# --- the secret air allocation (4.1 1c, 16.3) -----------------------------------------------

def open_allocation(em: Emitter) -> None:
    s: PBState = em.state
    for side in SIDES:  # 4.1 1c i: the mission boxes go back to the Reserve
        back = sum(s.air[side].missions.values())
        if back:
            em.emit("air_changed", None, side=side, boxes={"reserve": back},
                    missions={m: -n for m, n in s.air[side].missions.items()}, why="back to the Reserve")
    em.emit("round_opened", None, kind=AIR_ROUND, sides=list(SIDES))


def gen_allocate(state: PBState, side: str) -> Iterator[Command]:
    """Too many to list: an allocation is any split of the Reserve (``check_allocation``
    decides); the list holds the all-in-Reserve one and a few whole splits for a start."""
    if side not in state.round.waiting:
        return
    reserve = state.air[side].reserve
    missions = allocation_missions(state)
    none = dict.fromkeys(missions, 0)
    yield Command("allocate", none)
    for m in missions:
        for n in range(1, reserve + 1):
            if m == "interdiction" and n not in tables.INTERDICTION_POINTS:
                continue
            yield Command("allocate", {**none, m: n})
    if reserve >= 2:  # a mixed one: half to superiority, the rest to strikes
        half = reserve // 2
        yield Command("allocate", {**none, "superiority": half, "strike": reserve - half})


ALLOCATION = (*MISSIONS, "support")  # "support": close air support, optional 31.0


def describe_allocate(state: PBState, side: str) -> list[dict[str, Any]]:
    """The allocation as a parameterised command (``gen_allocate`` lists only a few):
    its fields and the constraint that ``check_allocate`` applies."""
    if state.phase != "air_allocation" or side not in state.round.waiting:
        return []
    missions = allocation_missions(state)
    return [{"type": "allocate", "rule": "16.31",
             "text": f"Allocate your {state.air[side].reserve} Reserve air points to the missions, in secret "
                     "(4.1 1c): any split, interdiction 0, 2, 4 or 6 (26.5); what is not allocated stays in Reserve",
             "schema": air.allocation_space(state.air[side].reserve, missions, optional=("support",))}]


def allocation_missions(state: PBState) -> tuple[str, ...]:
    return ALLOCATION if state.options.get("close_air_support") else MISSIONS


def check_allocate(state: PBState, side: str, data: dict[str, Any]) -> None:
    if state.phase != "air_allocation" or side not in state.round.waiting:
        raise IllegalCommandError("4.1", "air missions are allocated in the planning impulse, once a turn")
    if data.get("support") and not state.options.get("close_air_support"):
        raise IllegalCommandError("31.0", "close air support is an optional rule this game does not use")
    air.check_allocation(state.air[side].reserve, {m: data[m] for m in ALLOCATION})


def do_allocate(em: Emitter, data: dict[str, Any], side: str) -> None:
    allocation = {m: data[m] for m in allocation_missions(em.state)}
    event = sealed.sealed_event(AIR_ROUND, side, allocation)
    em.emit(event.type, side, **event.data)
    if not em.state.round.open:
        rnd = em.state.round
        event = sealed.revealed_event(rnd)
        em.emit(event.type, None, **event.data)


# --- air superiority (16.5) -----------------------------------------------------------------

def superiority(state: PBState, side: str) -> int:
    return state.air[side].missions.get("superiority", 0)


def others(state: PBState, side: str) -> dict[str, int]:
    return {m: n for m, n in state.air[side].missions.items() if m not in ("superiority", "struck") and n > 0}


def begin_superiority(em: Emitter) -> None:
    s: PBState = em.state
    for side in SIDES:
        excess = superiority(s, side) - superiority(s, other(side))
        if excess > 0 and others(s, other(side)):
            decision = {"side": side, "kind": "fire", "excess": excess}
            tell.owe(em, decision)
            return
    fire(em)


def gen_fire(state: PBState, side: str) -> Iterator[Command]:
    d = state.pending[0]
    for n in range(d["excess"] + 1):
        yield Command("fire", {"at_others": n})


def do_fire(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    air.check_targets(superiority(s, side), superiority(s, other(side)), data["at_others"])
    em.emit("fire_chosen", side, side=side, at_others=data["at_others"])
    em.emit("decision_made", side)
    fire(em)


def _combats(state: PBState, points: int) -> list[int]:
    """The air points of each separate superiority combat: one, or with optional 30.0 the
    first eight and the rest (without it more than eight fire on the eight column)."""
    if points <= 0:
        return []
    if state.options.get("more_superiority") and points > tables.AIR_SUPERIORITY_MAX:
        return [tables.AIR_SUPERIORITY_MAX, points - tables.AIR_SUPERIORITY_MAX]
    return [points]


def fire(em: Emitter) -> None:
    """16.51: every superiority force fires at once; losses are taken together."""
    s: PBState = em.state
    report: dict[str, Any] = {}
    index = 0
    for side in SIDES:
        mine = superiority(s, side)
        if mine <= 0:
            continue
        at_others = s.fire.get(side, 0)
        shots = []
        for target, points in (("superiority", mine - at_others), ("others", at_others)):
            for part in _combats(s, points):  # 30.0: the points above eight fire apart, with a die of their own
                die = em.roll(index)
                index += 1
                e, d = tables.air_superiority(part, die)
                shots.append({"at": target, "points": part, "die": die, "eliminated": e, "damaged": d})
        report[side] = shots
    if not report:
        return
    em.emit("superiority_fired", None, fires=report)
    for side, shots in report.items():
        enemy = other(side)
        for shot in shots:
            if shot["at"] == "superiority":
                losses = air.take(shot["eliminated"], shot["damaged"], superiority(s, enemy))
                lose_air(em, enemy, "superiority", losses.eliminated, losses.damaged, side)
            else:
                targets = others(em.state, enemy)
                e, d = shot["eliminated"], shot["damaged"]
                if len(targets) == 1:
                    m, n = next(iter(targets.items()))
                    losses = air.take(e, d, n)
                    lose_air(em, enemy, m, losses.eliminated, losses.damaged, side)
                elif targets and e + d:
                    tell.owe(em, {"side": side, "kind": "air_hits", "enemy": enemy, "eliminations": e, "damages": d})


def lose_air(em: Emitter, side: str, mission: str, eliminated: int, damaged: int, by: str) -> None:
    if not eliminated and not damaged:
        return
    em.emit("air_changed", None, side=side, boxes={"eliminated": eliminated, "damaged": damaged},
            missions={mission: -(eliminated + damaged)}, why=f"{by} air superiority")
    if eliminated:
        em.emit("vp_scored", None, side=by, points=victory.for_loss(by, "air", eliminated),
                why=f"{eliminated} {side} air unit(s) eliminated")


def gen_hits(state: PBState, side: str) -> Iterator[Command]:
    d = state.pending[0]
    for m in sorted(others(state, d["enemy"])):
        if d["eliminations"]:
            yield Command("hit", {"mission": m, "kind": "E"})
        elif d["damages"]:
            yield Command("hit", {"mission": m, "kind": "D"})


def do_hit(em: Emitter, data: dict[str, Any], side: str) -> None:
    d = em.state.pending[0]
    e, dmg = (1, 0) if data["kind"] == "E" else (0, 1)
    lose_air(em, d["enemy"], data["mission"], e, dmg, side)
    left = {"eliminations": d["eliminations"] - e, "damages": d["damages"] - dmg}
    if (left["eliminations"] or left["damages"]) and others(em.state, d["enemy"]):
        tell.progress(em, side, changes=left)
    else:
        em.emit("decision_made", side)
