"""§7 Combat: declaring an attack hex by hex and unit by unit, odds, the roll.

A declaration is built with small commands (target a hex, add a unit) so that
the legal-command list stays enumerable and the UI can highlight each step;
``resolve`` rolls the die.  What follows the roll lives in ``results``.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from engine.core.crt import clamp_die
from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.game import Emitter
from engine.core.hexes import distance_between
from engine.games.first_blood import queries as q
from engine.games.first_blood import tables
from engine.games.first_blood.phases import mandatory, movement
from engine.games.first_blood.state import BOX_PREFIX, ENTRY_PREFIX, Combat, FBState, is_map_hex

OFF_MAP = (BOX_PREFIX, ENTRY_PREFIX)  # in play, but off the map: at an entry point or in a box
COMMANDS = ("attack", "add", "resolve", "cancel_attack")  # what gen_combat lists

# --- who may attack whom ------------------------------------------------------

def blocked_entries(state: FBState, side: str) -> list[str]:
    """§5.3, judged when the combat phase starts: the US coasts ("us:east", "us:west")
    whose every entry hex the IJ holds, and the boxes ("box:A") whose every entry hex
    the US holds.  Only from these may ``side`` attack upon entry (R-5.1c)."""
    b = q.board()
    owner = q.hex_owner(state)
    if side == "US":
        return [f"us:{group}" for group in sorted({e.group for e in b.entries.values() if e.side == "US"})
                if q.all_held_by_enemy(owner, q.coast_hexes("US", group), side)]
    return [f"box:{bid}" for bid, box in b.boxes.items() if q.all_held_by_enemy(owner, box.hexes, side)]


def entry_attack_targets(state: FBState, uid: str) -> list[str]:
    """§5.1/§5.3 attack upon entry: the enemy-held hexes this off-map unit may attack."""
    u, s = state.units[uid], q.spec(uid)
    if u.fought or s.kind != "ground":
        return []
    b = q.board()
    owner = q.hex_owner(state)
    enemy = q.other(s.side)
    entry, box = q.in_entry(u.loc), q.in_box(u.loc)
    hexes: tuple[str, ...] = ()
    if s.side == "US" and entry is not None and not s.is_artillery:  # §5.3: artillery may not attack
        if f"us:{b.entries[entry].group}" in state.blocked:
            hexes = b.entries[entry].hexes
    elif s.side == "IJ" and box is not None and u.box_arrival != state.turn and not u.moved:
        no_other_box = all(nb in u.boxes for nb in movement.box_neighbours(box))
        if u.loc in state.blocked and no_other_box:
            hexes = b.boxes[box].hexes  # §5.3: attack "from below"
    return [h for h in hexes if owner.get(h) == enemy]


def landing_artillery(state: FBState, c: Combat) -> list[str]:
    """R-5.1a: US artillery on the entry point of a US attack upon entry adds nothing
    but shares the landing party's fate (§5.3: "can be taken as casualties")."""
    if c.origin is None or c.side != "US":
        return []
    return [u for u in q.units_at(state, c.origin) if u not in c.attackers and q.spec(u).is_artillery]


def plan(state: FBState, side: str) -> mandatory.Plan:
    """The side's mandatory-combat obligations (§7, R-7a), with who may attack upon entry."""
    targets = {uid: entry_attack_targets(state, uid) for uid in _offmap_units(state, side)}
    return mandatory.Plan(state, side, {u: t for u, t in targets.items() if t})


def obligations(state: FBState, side: str) -> list[tuple[str, str]]:
    """§7: (own unit, enemy hex) pairs still owed a combat.  Every own unit in enemy
    ZOC must attack and every adjacent enemy must be attacked; a pair stops being
    owed once either has been through a combat, and ``plan`` keeps each attack within
    a plan that meets as many of them as any can (R-7a)."""
    b = q.board()
    targets = mandatory.undefended_enemy_hexes(state, side)
    out = []
    for uid in mandatory.free_attackers(state, side):
        for n in b.neighbors(state.units[uid].loc):
            if n in targets:
                out.append((uid, n))
    return out


def in_range(uid: str, src: str, target: str) -> bool:
    """§7.5: range counts the firing hex and the target hex."""
    return distance_between(src, target) <= q.spec(uid).range - 1


def _fires_at(state: FBState, gun: str, hex_id: str) -> bool:
    """§7.5: remote fire from ``gun`` reaches ``hex_id``: in its range and not next to it."""
    loc = state.units[gun].loc
    return hex_id not in q.board().neighbors(loc) and in_range(gun, loc, hex_id)


def _can_direct(state: FBState, c: Combat, uid: str) -> bool:
    u = state.units[uid]
    if uid in c.attackers or u.fought or q.spec(uid).side != c.side:
        return False
    if is_map_hex(u.loc):
        if c.origin is not None:
            return False
        b = q.board()
        return all(t in b.neighbors(u.loc) for t in c.targets)
    allowed = entry_attack_targets(state, uid)
    if not allowed or len(c.targets) != 1 or c.targets[0] not in allowed:
        return False
    if c.origin is not None:
        return u.loc == c.origin
    # an attack upon entry is made from one place; only the US has artillery support in it
    return not c.attackers and (not c.artillery or c.side == "US")


def _can_remote(state: FBState, c: Combat, uid: str) -> bool:
    u, s = state.units[uid], q.spec(uid)
    if not s.is_artillery or uid in c.artillery or u.fought or s.side != c.side:
        return False
    if not is_map_hex(u.loc) or (c.origin is not None and c.side == "IJ"):
        return False  # R-5.1b: §5.3 denies artillery support only to IJ attacks from boxes
    if u.loc in q.zoc_of(state, q.other(s.side)):
        return False  # R-7.5a: a unit in enemy ZOC must attack what it touches
    return all(_fires_at(state, uid, t) for t in c.targets)


def _can_add_target(state: FBState, c: Combat, hex_id: str, undefended: dict[str, list[str]]) -> bool:
    if hex_id not in undefended or hex_id in c.targets:
        return False
    b = q.board()
    if not c.targets:
        # a new combat needs someone able to attack the hex
        if any(hex_id in b.neighbors(state.units[u].loc) for u in mandatory.free_attackers(state, c.side)):
            return True
        return any(hex_id in entry_attack_targets(state, uid) for uid in _offmap_units(state, c.side))
    if c.origin is not None or len(c.targets) >= 3:
        return False
    if not all(t in b.neighbors(hex_id) for t in c.targets):
        return False  # §7: the defenders must be adjacent to each other
    if not all(hex_id in b.neighbors(state.units[a].loc) for a in c.attackers):
        return False  # §7: every attacker must touch every defender
    return all(_fires_at(state, a, hex_id) for a in c.artillery)


def _reach(state: FBState, artillery: list[str], undefended: Collection[str]) -> set[str] | None:
    """The enemy hexes an attack with remote fire from ``artillery`` may still take in:
    each in every gun's range and next to none of them (§7.5); None: no artillery, any.
    Without it, a gun added before the attack's second hex could leave the attack owing
    a hex it may no longer take in, and nothing to do but be cancelled."""
    if not artillery:
        return None
    return {h for h in undefended if all(_fires_at(state, a, h) for a in artillery)}


def _offmap_units(state: FBState, side: str) -> list[str]:
    """The side's units in play off the map (entry points, boxes), read only."""
    return state.cached(("offmap", side), lambda: [
        uid for uid, u in state.units.items()
        if u.loc.startswith(OFF_MAP) and q.spec(uid).side == side])


# --- legal commands -----------------------------------------------------------

def gen_combat(state: FBState, side: str) -> list[Command]:
    c = state.combat
    undefended = mandatory.undefended_enemy_hexes(state, side)
    owed = plan(state, side)
    if c is None:
        probe = Combat(side)
        return [Command("attack", {"hex": h}) for h in sorted(undefended)
                if _can_add_target(state, probe, h, undefended) and owed.allows([h], [], exact=False)]
    reach = _reach(state, c.artillery, undefended)
    out = [Command("attack", {"hex": h}) for h in sorted(undefended)
           if _can_add_target(state, c, h, undefended)
           and owed.allows(c.targets + [h], c.attackers, exact=False, remote=bool(c.artillery), reach=reach)]
    for uid in q.ground_on_map(state, side) + _offmap_units(state, side):
        if (_can_direct(state, c, uid) and owed.allows(c.targets, c.attackers + [uid], exact=False,
                                                       remote=bool(c.artillery), reach=reach)) \
                or (_can_remote(state, c, uid) and owed.allows(c.targets, c.attackers, exact=False, remote=True,
                                                               reach=_reach(state, [*c.artillery, uid], undefended))):
            out.append(Command("add", {"unit": uid}))
    if c.attackers and owed.allows(c.targets, c.attackers, exact=True):
        out.append(Command("resolve"))
    out.append(Command("cancel_attack"))
    return out


def _plan_refusal(owed: mandatory.Plan, targets: list[str], attackers: list[str],
                  exact: bool, note: str = "") -> IllegalCommandError:
    """R-7a: why a step of a declaration breaks every plan that meets the most obligations."""
    total = len(owed.owed_units) + len(owed.owed_hexes)
    best = owed.best()
    what = ("every unit in enemy ZOC attacks and every enemy hex touching one is attacked"
            if best == total else f"{best} of the {total} combat obligations are met (no plan meets all)")
    lost: list[str] = []
    if exact:
        units, hexes = owed.left_behind(targets, attackers)
        if units:
            lost.append(", ".join(q.label(u) for u in units) + " could then attack nothing")
        if hexes:
            lost.append(", ".join(hexes) + " could then not be attacked")
    step = "resolving this attack now" if exact else "this attack"
    return IllegalCommandError("§7", f"{step} fits no plan of attacks in which {what}"
                               + (f": {'; '.join(lost)}" if lost else "") + (f" ({note})" if note else ""))


def _range_note(artillery: list[str]) -> str:
    if not artillery:
        return ""
    guns = ", ".join(q.label(a) for a in artillery)
    return (f"with the remote fire of {guns} it may take in only hexes in range of each gun and "
            "next to none, §7.5")


def why_combat_illegal(state: FBState, side: str, cmd: Command) -> IllegalCommandError:
    c = state.combat
    if cmd.type == "resolve":
        if c is None:
            return IllegalCommandError("§7.6", "declare an attack first: pick a defending hex")
        if c.attackers:
            return _plan_refusal(plan(state, side), c.targets, c.attackers, exact=True)
        return IllegalCommandError("§7.5", "an attack needs at least one unit attacking from an "
                                           "adjacent hex; artillery cannot attack alone")
    if cmd.type == "cancel_attack":
        return IllegalCommandError("§7", "there is no attack being declared")
    if cmd.type == "attack":
        h = cmd.data.get("hex")
        occ = q.occupancy(state)
        if h not in occ or q.spec(occ[h][0]).side == side:
            return IllegalCommandError("§7", f"{h} holds no enemy ground units")
        if all(state.units[u].defended for u in occ[h]):
            return IllegalCommandError("§7", f"the units in {h} have already been attacked this phase")
        if _can_add_target(state, c or Combat(side), h, mandatory.undefended_enemy_hexes(state, side)):
            return _plan_refusal(plan(state, side), (c.targets if c else []) + [h],
                                 c.attackers if c else [], exact=False, note=_range_note(c.artillery if c else []))
        if c is not None and c.origin is not None:
            return IllegalCommandError("§5.1", "an attack upon entry is made against one hex")
        if c is not None:
            return IllegalCommandError("§7", "in a multi-hex attack the defending hexes must be "
                                             "adjacent to each other and every attacker adjacent to "
                                             "every defender")
        return IllegalCommandError("§7", f"none of your units that may still fight can attack {h}")
    uid = cmd.data.get("unit")
    if uid not in state.units or q.spec(uid).side != side:
        return IllegalCommandError("§7", f"{uid!r} is not one of your units")
    if c is None:
        return IllegalCommandError("§7", "pick the defending hex first")
    if state.units[uid].fought:
        return IllegalCommandError("§7", f"{q.label(uid)} has already taken part in a combat this phase")
    if _can_direct(state, c, uid):
        return _plan_refusal(plan(state, side), c.targets, c.attackers + [uid], exact=False,
                             note=_range_note(c.artillery))
    if _can_remote(state, c, uid):
        return _plan_refusal(plan(state, side), c.targets, c.attackers, exact=False,
                             note=_range_note([*c.artillery, uid]))
    s, loc = q.spec(uid), state.units[uid].loc
    if s.is_artillery and is_map_hex(loc) and any(t in q.board().neighbors(loc) for t in c.targets):
        return IllegalCommandError("§7", f"{q.label(uid)} must be adjacent to every defending hex to "
                                         "fire directly")
    if s.is_artillery and is_map_hex(loc):
        return IllegalCommandError("§7.5", f"{q.label(uid)} must have every defending hex in range "
                                           f"({s.range}, counting both hexes) and must not be in enemy "
                                           "ZOC; an IJ attack from a box has no artillery support (§5.3)")
    if not is_map_hex(loc):
        return IllegalCommandError("§5.1", f"{q.label(uid)} may attack upon entry only when every "
                                           "entry hex is held by the enemy")
    return IllegalCommandError("§7", f"{q.label(uid)} is not adjacent to every defending hex")


# --- odds ---------------------------------------------------------------------

def assess(state: FBState, c: Combat) -> dict[str, Any]:
    """Everything that goes into the odds and the die modifier, with the reasons."""
    b = q.board()
    lines: list[str] = []
    direct = sum(q.spec(a).cf for a in c.attackers)
    artillery = sum(q.spec(a).cf for a in c.artillery)
    art_used = min(artillery, 2 * direct)  # §7.5: at most two thirds of the total
    if c.artillery:
        capped = " (capped at twice the other attackers, §7.5)" if art_used < artillery else ""
        lines.append(f"artillery remote fire {artillery}{capped} -> {art_used}")
    attack = direct + art_used
    defence = 0
    occ = q.occupancy(state)
    for h in c.targets:
        units = occ.get(h, [])
        cf = sum(q.spec(u).cf for u in units)
        if c.origin is not None:
            doubled, why = True, "attack upon entry (§5.1)"
        else:
            srcs = [state.units[a].loc for a in c.attackers]
            river = bool(srcs) and all(b.is_river(s, h) for s in srcs)
            # R-7.1b: the ridge helps the defender on the higher ground only (§2.1, Table 8, Figure 7)
            ridge = bool(srcs) and b.hexes[h].high and all(b.is_ridge(s, h) for s in srcs)
            doubled = river or ridge
            why = ("all attackers across a river (§7.1)" if river
                   else "on the high ground, all attackers below the ridge (§7.1)")
        defence += cf * (2 if doubled else 1)
        lines.append(f"{h}: {cf} CF" + (f" x2, {why}" if doubled else ""))
    column, high = tables.odds(attack, defence)
    mods: list[dict[str, Any]] = []
    if any(b.is_jungle_hex(h) for h in c.targets):
        mods.append({"value": tables.JUNGLE_DRM, "why": "defender in a jungle hex", "rule": "§7.1"})
    supports = [u for u, unit in state.units.items() if unit.support in c.targets
                and q.spec(u).side == c.side]
    for u in supports:
        if q.spec(u).kind == "destroyer":
            mods.append({"value": tables.SHORE_BOMBARDMENT_DRM, "why": f"shore bombardment by {q.label(u)}",
                         "rule": "§7.3"})
        else:
            mods.append({"value": tables.AIR_SUPPORT_DRM, "why": f"air support by {q.label(u)}",
                         "rule": "§7.4"})
    if high:
        mods.append({"value": tables.HIGH_ODDS_DRM, "why": "odds 4:1 or better", "rule": "§7.6"})
    return {
        "attack": attack, "defence": defence, "column": column,
        "odds": column or "worse than 1:2",
        "modifier": sum(m["value"] for m in mods), "modifiers": mods,
        "automatic_elimination": column is None, "lines": lines, "supports": supports,
    }


def what_if(state: FBState, side: str, targets: list[str], units: list[str],
            positions: dict[str, str]) -> dict[str, Any]:
    """The odds and modifiers ``units`` would get against ``targets`` from where they stand,
    or from the hexes ``positions`` names (a move being planned): the terrain, rivers and
    ridges they would attack across, as ``assess`` reckons them for a declared attack.  Air
    and naval support, assigned later, is not counted.  Refused where no attack could be."""
    b = q.board()
    occ = q.occupancy(state)
    if not targets:
        raise IllegalCommandError("§7", "name the hex or hexes to attack")
    for h in targets:
        if not b.on_map(h) or not any(q.spec(u).side != side for u in occ.get(h, [])):
            raise IllegalCommandError("§7", f"{h} holds no enemy ground unit")
    scratch = state.clone()
    for u in units:
        if u not in state.units or q.spec(u).side != side or q.spec(u).kind != "ground":
            raise IllegalCommandError("§7", f"{u} is not one of your ground units")
        at = positions.get(u, state.units[u].loc)
        if not b.on_map(at) or at in targets or any(q.spec(x).side != side for x in occ.get(at, [])):
            raise IllegalCommandError("§7", f"{u} cannot attack from {at}")
        if not all(h in b.neighbors(at) for h in targets):
            raise IllegalCommandError("§7", f"{u} at {at} is not next to every hex attacked (attackers must be "
                                            "adjacent to all defending units)")
        scratch.unit(u).loc = at
    extra = set(positions) - set(units)
    if extra:
        raise IllegalCommandError("§7", f"positions for units not in the attack: {', '.join(sorted(extra))}")
    out = assess(scratch, Combat(side, list(targets), list(units)))
    return {**out, "what_if": True, "supports": [],
            "note": "before the combat phase: air and naval support is not counted"}


# --- handlers -------------------------------------------------------------------

def do_attack(em: Emitter, data: dict[str, Any], side: str) -> None:
    if em.state.combat is None:
        em.emit("combat_declared", side, hex=data["hex"])
    else:
        em.emit("combat_target_added", side, hex=data["hex"])


def do_add(em: Emitter, data: dict[str, Any], side: str) -> None:
    c = em.state.combat
    uid = data["unit"]
    role = "direct" if _can_direct(em.state, c, uid) else "remote"
    em.emit("combat_unit_added", side, unit=uid, role=role)


def do_cancel(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("combat_cancelled", side)


def do_resolve(em: Emitter, data: dict[str, Any], side: str) -> None:
    from engine.games.first_blood.phases import results

    state: FBState = em.state
    c = state.combat
    a = assess(state, c)
    occ = q.occupancy(state)
    defenders = [u for h in c.targets for u in occ.get(h, [])]
    payload: dict[str, Any] = {
        "targets": list(c.targets), "attackers": list(c.attackers), "artillery": list(c.artillery),
        "defenders": defenders, "attack": a["attack"], "defence": a["defence"], "odds": a["odds"],
        "modifiers": a["modifiers"], "modifier": a["modifier"], "supports": a["supports"],
        "origin": c.origin, "landing": landing_artillery(state, c),
    }
    if a["automatic_elimination"]:
        payload.update(die=None, total=None, result="AE")
    else:
        die = em.roll()
        total = clamp_die(die + a["modifier"])
        payload.update(die=die, total=total, result=tables.TABLES[side].lookup(a["column"], total))
    em.emit("combat_resolved", side, **payload)
    for u in a["supports"]:
        em.emit("support_spent", side, unit=u)
    strips = [h for h in c.targets if h in state.strips and em.state.strips[h].work]
    if side == "IJ":
        for h in strips:
            em.emit("work_disrupted", "IJ", hex=h, reason="the air strip was attacked (§7.2)")
    results.start(em)
