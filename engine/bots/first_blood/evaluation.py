"""Scores of First Blood positions, unit by unit, from one side's point of view.

A unit's worth in a place is what the place does for the side's objective (§1: the IJ
wants a completed air strip hex at the end of a turn, or any unit on the map at the end
of Jan III; the US holds the strips and hunts every IJ unit on the map), plus what its
next combat is expected to give (the exact distribution of the attack table's results),
minus its stack's exposure to the enemy's next attacks (who could reach it, the odds,
whether its retreat is cut by ZOC and rivers, §7.9).  Unit values are in ``odds.unit_value``.
"""

from __future__ import annotations

from engine.bots.first_blood import odds
from engine.bots.first_blood.picture import FAR, Picture, entry_hexes, picture
from engine.core.hexes import distance_between
from engine.games.first_blood import queries as q
from engine.games.first_blood import tables
from engine.games.first_blood.oob import LAST_TURN
from engine.games.first_blood.phases import movement
from engine.games.first_blood.state import ELIMINATED, FBState, is_map_hex

NO_PLACE = -1e6  # a place the unit may not end in (a full hex, §6.4)
STRANDED = -20.0  # left on an entry point: eliminated at the end of its combat phase (§5)
IJ_STEP = 0.6  # worth of one MF nearer to a victory strip, for the IJ
IJ_ON_STRIP = 25.0  # an IJ unit on a completed strip wins if it is still there at the turn's end (§1)
IJ_SURVIVES = 8.0  # an IJ unit on the map at the end of Jan III wins (§1)
IJ_HIDE = 0.4  # per hex between an IJ unit and the nearest US unit, while every strip is held
US_GARRISON = (14.0, 7.0, 3.0)  # the 1st, 2nd, 3rd US unit on a strip hex: no IJ may enter it
US_HUNT = 0.5  # per hex nearer to the nearest IJ unit on the map
JOINERS = 6  # at most two full stacks attack one hex
EXPOSURE = 0.8  # how much of a threatened stack's expected net loss counts
PLACE_WEIGHT = 0.5  # a unit's place against its material worth, in a whole position


def trapped(pic: Picture, defender: str, hex_id: str, extra_zoc: tuple[str, ...] = ()) -> bool:
    """§7.9: would a stack of ``defender`` in ``hex_id`` have nowhere to retreat?"""
    b = q.board()
    enemy = q.other(defender)
    zoc = pic.zoc[enemy]
    for n in b.neighbors(hex_id):
        if pic.owner.get(n, defender) != defender or n in zoc or n in extra_zoc or b.is_river(hex_id, n):
            continue
        return False
    return True


def attack_outcome(pic: Picture, side: str, attackers: list[tuple[str, str]], targets: list[str],
                   artillery: tuple[str, ...] = (), extra_drm: int = 0,
                   defenders: dict[str, list[str]] | None = None) -> tuple[float, float, float]:
    """(attacker's expected loss, defender's expected loss, chance the targets are emptied)
    of ``side`` attacking ``targets`` with direct-fire units ``(uid, hex)`` (§7.1, §7.5, §7.6)."""
    b = q.board()
    occ = pic.occ if defenders is None else defenders
    direct = sum(q.spec(u).cf for u, _ in attackers)
    art = sum(q.spec(u).cf for u in artillery)
    attack = direct + min(art, 2 * direct)
    defence = 0
    dead: list[str] = []
    for h in targets:
        units = occ.get(h, [])
        dead += units
        cf = sum(q.spec(u).cf for u in units)
        srcs = [src for _, src in attackers]
        doubled = bool(srcs) and (all(b.is_river(s, h) for s in srcs)
                                  or (b.hexes[h].high and all(b.is_ridge(s, h) for s in srcs)))
        defence += cf * (2 if doubled else 1)
    if not dead or not attackers:
        return 0.0, 0.0, 0.0
    column, high = tables.odds(attack, defence)
    drm = extra_drm + (tables.HIGH_ODDS_DRM if high else 0)
    if any(b.is_jungle_hex(h) for h in targets):
        drm += tables.JUNGLE_DRM
    for uid, u in pic.state.units.items():
        if u.support in targets and q.spec(uid).side == side:
            drm += tables.SHORE_BOMBARDMENT_DRM if q.spec(uid).kind == "destroyer" else tables.AIR_SUPPORT_DRM
    att_hexes = tuple(h for _, h in attackers)
    shut = all(trapped(pic, q.other(side), h, att_hexes) for h in targets)
    return odds.expected(side, column, drm, [u for u, _ in attackers], dead, shut)


def net(outcome: tuple[float, float, float]) -> float:
    """An attack's worth to the attacker: what the defender loses less what it loses."""
    return outcome[1] - outcome[0]


def exposure(pic: Picture, side: str, hex_id: str, stack: list[str]) -> float:
    """The expected net loss (>= 0) of ``side``'s stack in ``hex_id`` if every enemy unit
    that could reach it next turn attacked it there."""
    if not stack:
        return 0.0
    enemy = q.other(side)
    foes = [u for u in pic.threats.get(hex_id, []) if q.spec(u).side == enemy]
    if not foes:
        return 0.0
    b = q.board()
    attack = sum(q.spec(u).cf for u in foes)
    defence = sum(q.spec(u).cf for u in stack) * (1.5 if b.hexes[hex_id].high else 1.0)
    column, high = tables.odds(attack, int(defence))
    drm = (tables.HIGH_ODDS_DRM if high else 0) + (tables.JUNGLE_DRM if b.is_jungle_hex(hex_id) else 0)
    their_loss, our_loss, _ = odds.expected(enemy, column, drm, sorted(foes, key=odds.unit_value)[:6], stack,
                                            trapped(pic, side, hex_id))
    return max(0.0, our_loss - their_loss)


def objective(pic: Picture, uid: str, loc: str, stack: list[str], placing: bool = False) -> float:
    """What ``loc`` does for the side's victory conditions (§1), ``stack``: the own units
    already there.  ``placing``: a reinforcement being placed (an entry point is a start)."""
    side = q.spec(uid).side
    state = pic.state
    if q.in_entry(loc) is not None or q.in_box(loc) is not None:
        if not placing and q.in_entry(loc) is not None:
            return STRANDED
        hexes = entry_hexes(loc)
        best = max(objective(pic, uid, h, pic.occ.get(h, []) if pic.owner.get(h) == side else [])
                   for h in hexes) if hexes else STRANDED
        delay = 3.0 + (2.0 if placing else 0.0) if q.in_box(loc) is not None else 0.0
        late = IJ_SURVIVES if side == "IJ" and state.turn >= LAST_TURN else 0.0
        return best - IJ_STEP * movement.entry_cost(uid) - delay - late
    if not is_map_hex(loc):
        return 0.0  # an air unit's place, or a box of its own: no ground objective
    if side == "IJ":
        if pic.open_cost:  # a strip no US unit holds: go for it
            score = -IJ_STEP * min(pic.open_cost.get(loc, FAR), 30)
        else:  # every strip held: live on to the end of Jan III, out of the hunters' way
            score = IJ_HIDE * min(_nearest(pic, loc, "US"), 8) - 10.0
        if loc in pic.strips:
            score += IJ_ON_STRIP if not stack else 6.0
        if state.turn >= LAST_TURN - 1:
            score += IJ_SURVIVES
        return score
    score = 0.0
    if loc in pic.strips and len(stack) < 3:
        score += US_GARRISON[len(stack)]
    b = q.board()
    if any(n in pic.strips for n in b.neighbors(loc)):
        score += 1.0 / (1 + len(stack))
    foes = pic.enemy_units_on_map() if side == pic.side else [u for u, h in pic.pos.items()
                                                             if q.spec(u).side != side]
    if foes:
        score -= US_HUNT * min(min(distance_between(loc, pic.pos[f]) for f in foes), 12)
    else:
        score -= 0.3 * min(pic.strip_cost.get(loc, FAR), 12)
    return score


def _nearest(pic: Picture, loc: str, side: str) -> int:
    """Hexes from ``loc`` to the nearest ground unit of ``side`` on the map (99: none)."""
    return min((distance_between(loc, h) for u, h in pic.pos.items() if q.spec(u).side == side), default=99)


def prospects(pic: Picture, uid: str, hex_id: str, own: dict[str, list[str]]) -> float:
    """What ``uid`` may expect of the side's coming attacks from ``hex_id`` (its combat
    follows its movement, and §7 makes them mandatory): its share of the attack by the
    units next to each enemy hex it touches and those that could still join them (a
    phase is built unit by unit: the first to go counts on the others), shared between
    the enemy hexes it touches."""
    b = q.board()
    side = q.spec(uid).side
    enemy_hexes = [n for n in b.neighbors(hex_id) if pic.owner.get(n) == q.other(side)]
    if not enemy_hexes:
        return 0.0
    total = 0.0
    for e in enemy_hexes:
        group = [(v, oh) for oh in b.neighbors(e) for v in own.get(oh, ())]
        if len(group) >= JOINERS:  # enough there already: only what it adds
            before = net(attack_outcome(pic, side, group, [e]))
            total += net(attack_outcome(pic, side, group + [(uid, hex_id)], [e])) - before
            continue
        there = {v for v, _ in group} | {uid}
        group.append((uid, hex_id))
        group += sorted((v, d) for v, d in pic.joiners.get(e, {}).items() if v not in there)
        group = group[:JOINERS]
        total += net(attack_outcome(pic, side, group, [e])) / len(group)
    return total / len(enemy_hexes)


def place_value(pic: Picture, uid: str, loc: str, own: dict[str, list[str]], placing: bool = False,
                attacking_next: bool = True) -> float:
    """The worth of ``uid`` ending in ``loc``; ``own``: the side's stacks without ``uid``."""
    stack = own.get(loc, [])
    if is_map_hex(loc):
        if len(stack) >= q.STACK_LIMIT:
            return NO_PLACE
        side = q.spec(uid).side
        value = objective(pic, uid, loc, stack, placing)
        value -= EXPOSURE * (exposure(pic, side, loc, stack + [uid]) - exposure(pic, side, loc, stack))
        if attacking_next:
            value += prospects(pic, uid, loc, own)
        return value
    return objective(pic, uid, loc, stack, placing)


WIN = 1000.0


def position_value(state: FBState, side: str) -> float:
    """The whole position for ``side``: the game's result if it is over, else material
    (every ground unit not eliminated, at its value) and each side's units' places
    (objective less exposure), own less the enemy's."""
    if state.result is not None:
        winner = state.result.get("winner")
        return WIN if winner == side else -WIN if winner else 0.0
    pictures = {s: picture(state, s) for s in q.SIDES}
    total = 0.0
    for s, pic in pictures.items():
        sign = 1.0 if s == side else -1.0
        own: dict[str, list[str]] = {}
        for u, h in pic.pos.items():
            if q.spec(u).side == s:
                own.setdefault(h, []).append(u)
        value = 0.0
        for uid, u in state.units.items():
            spec = q.spec(uid)
            if spec.side != s or spec.kind != "ground" or u.loc == ELIMINATED:
                continue
            value += odds.unit_value(uid)
            if q.in_play(u.loc):
                stack = [v for v in own.get(u.loc, []) if v != uid] if is_map_hex(u.loc) else []
                value += PLACE_WEIGHT * objective(pic, uid, u.loc, stack, placing=u.loc.startswith("box:"))
        for h, stack in own.items():
            value -= EXPOSURE * exposure(pic, s, h, stack)
        if state.phase == f"{s.lower()}_movement":
            value += coming_attacks(pic, s, own)
        total += sign * value
    return total


def coming_attacks(pic: Picture, side: str, own: dict[str, list[str]]) -> float:
    """What ``side``'s attacks in its coming combat phase are expected to give: each enemy
    hex its units touch attacked by them all (a unit touching several shares itself)."""
    b = q.board()
    total = 0.0
    for h, owner in pic.owner.items():
        if owner == side:
            continue
        group = [(v, oh) for oh in b.neighbors(h) for v in own.get(oh, ())]
        if group:
            total += net(attack_outcome(pic, side, group, [h]))
    return total
