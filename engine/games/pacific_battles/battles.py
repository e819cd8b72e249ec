"""The land combat phase (14.0, 15.0): examining adjacent stacks (18.1), declaring every
battle first (14.2), the defender's window for markers, then battle by battle the
choice of CRT (14.4), the roll, losses chosen by their owner (15.2), retreats and routs
(15.3), pursuit (15.4).  Every step that waits for a player is a decision owed; the
steps in between run by themselves (the ``advance_`` functions, decisions.py)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from engine.core.errors import Reason
from engine.core.events import Command
from engine.core.game import Emitter
from engine.games.pacific_battles import combat, markers, retreat, tables, tell
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.forces import DECEPTION
from engine.games.pacific_battles.impulse import examine, vp_for
from engine.games.pacific_battles.movement import SUPPLY, Piece
from engine.games.pacific_battles.state import PBState, other
from engine.games.pacific_battles.supplying import do_breakdown


def begin(em: Emitter, side: str) -> None:
    """18.1: the enemy stacks next to friendly units are examined at the phase's start.
    22.3: an assault whose hex the enemy has left lands there unopposed."""
    s: PBState = em.state
    for target in sorted(set(s.assaults.values())):
        ids = sorted(pid for pid, h in s.assaults.items() if h == target and s.pieces[pid].side == side)
        if ids and not any(p.side != side for p in s.at(target)):  # what lands is not told (no battle)
            sea = s.pieces[ids[0]].hex
            tell.secret(em, "pieces_moved", side, {"side": side, "from": sea, "to": target, "count": len(ids),
                                                   "landing": True}, actor=side, ids=ids, to=target, counts=False,
                        landing=True, **{"from": sea})
    near = {n for p in s.on_map(side) for n in q.board().neighbours(p.hex)}
    hexes = near & q.enemy_hexes(s, side)
    if hexes:
        examine(em, side, hexes, "adjacent at the start of the combat phase", "18.1")


# --- declaring (14.2) ----------------------------------------------------------------------

def defended(state: PBState) -> set[str]:
    out = {h for b in state.battles for h in b["defenders"]}
    if state.declaring:
        out |= set(state.declaring["defenders"])
    return out


def in_battle(state: PBState) -> set[str]:
    out = set(state.attacked)
    if state.declaring:
        out |= set(state.declaring["attackers"])
    return out


def obligations(state: PBState, side: str) -> tuple[set[str], set[str]]:
    """``combat.obligations`` of this state, once per state and side (read only): the
    prompt, the legal list and the end's refusal each ask."""
    return state.cached(("obligations", side),
                        lambda: combat.obligations(q.board(), q.forces(), list(state.pieces.values()), side))


def unmet(state: PBState, side: str) -> tuple[list[str], list[str]]:
    """(own units in an enemy ZOC not yet attacking, enemy hexes exerting ZOC on them not
    yet attacked): 14.11, 14.13."""
    must, targets = obligations(state, side)
    hexes = defended(state)
    at_sea = {pid: h for pid, h in state.assaults.items() if pid in state.pieces and state.pieces[pid].side == side}
    return (sorted((must | set(at_sea)) - state.attacked),  # 22.3: an assault from the sea attacks its hex
            sorted(({state.pieces[t].hex for t in targets} | set(at_sea.values())) - hexes))


def end_refusal(state: PBState, side: str) -> Reason | None:
    """Why the declarations may not end now (None: they may: the battles are fought, or the
    phase ends when none is declared)."""
    if state.declaring is not None:
        return "14.2", "close or cancel the battle being declared first"
    units, hexes = unmet(state, side)
    return owed_attacks(units, hexes) if units or hexes else None


def owed_attacks(units: list[str], hexes: list[str]) -> Reason:
    return "14.11", ("every unit in an enemy ZOC must attack and every enemy unit exerting that ZOC must be "
                     f"attacked: {', '.join(units + hexes)}")


def _can_attack(p: Piece) -> bool:
    return p.unit != SUPPLY  # 13.6: supply units never attack


def declarable(state: PBState, side: str) -> list[str]:
    """14.2: the enemy hexes a new battle may open on, next to a unit of ``side`` that can
    attack and is in no battle yet, and in no battle as a defender yet."""
    busy = in_battle(state)
    near = {n for p in state.on_map(side) if _can_attack(p) and p.id not in busy
            for n in q.board().neighbours(p.hex)}
    return sorted((near & q.enemy_places(state, side)) - defended(state))


def gen_declare(state: PBState, side: str) -> Iterator[Command]:
    if state.fought:
        return  # the battles are being fought: each step is a decision owed
    if state.declaring is None:
        for h in declarable(state, side):
            yield Command("declare", {"hex": h})
        for i in range(len(state.battles)):  # a declared battle may be taken out again before the fight
            yield Command("withdraw", {"battle": i})
        yield from _air_support(state, side)
        if end_refusal(state, side) is None:
            yield Command("fight") if state.battles else Command("end_phase")
        return
    b, busy = state.declaring, in_battle(state)
    for p in state.on_map(side):
        if _can_attack(p) and p.id not in busy and all(q.adjacent(p.hex, h) for h in b["defenders"]):
            yield Command("add", {"unit": p.id})
    attackers = [state.pieces[i] for i in b["attackers"]]
    if attackers:
        for h in sorted(q.enemy_places(state, side) - defended(state)):
            if all(q.adjacent(a.hex, h) for a in attackers):
                yield Command("add_hex", {"hex": h})
        if close_refusal(state, side) is None:
            yield Command("close")
    yield Command("cancel")


def close_refusal(state: PBState, side: str) -> Reason | None:
    """Why the battle being declared may not be closed (None: it may): a unit that must
    attack (14.11) could join it and, once it is closed, would have no enemy hex left to
    attack, every one next to it being in a battle already (14.27)."""
    b = state.declaring
    if b is None:
        return None
    busy, taken = in_battle(state), defended(state)
    owed = [pid for pid in unmet(state, side)[0] if pid in state.pieces and pid not in busy]
    stranded = [pid for pid in owed
                if all(q.adjacent(state.pieces[pid].hex, h) for h in b["defenders"])
                and not any(q.adjacent(state.pieces[pid].hex, h) for h in q.enemy_places(state, side) - taken)]
    if not stranded:
        return None
    names = ", ".join(q.label(state, pid) for pid in stranded)
    return "14.11", (f"{names} must attack and can do so only in this battle: every other enemy hex next to "
                     f"{'it' if len(stranded) == 1 else 'them'} is attacked already (14.27): add "
                     f"{'it' if len(stranded) == 1 else 'them'} first")


# The declarations are the attacker's own until it fights them: then all are stated at
# once (14.2, 14.3 1), so every step before can be taken back without telling anything.

def do_declare(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "battle_opened", side, None, actor=side, hex=data["hex"])


def do_add(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "attacker_added", side, None, actor=side, id=data["unit"], unit=em.state.pieces[data["unit"]].unit)


def do_add_hex(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "battle_hex_added", side, None, actor=side, hex=data["hex"])


def do_close(em: Emitter, data: dict[str, Any], side: str) -> None:
    b = em.state.declaring
    tell.secret(em, "battle_declared", side, None, actor=side, attackers=b["attackers"], defenders=b["defenders"],
                units=[em.state.pieces[i].unit for i in b["attackers"]])


def do_cancel(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "battle_cancelled", side, None, actor=side)


CAS_LIMIT = 2  # 31.21: air units a battle; the scenario sets none (R-PB-31)


def _air_support(state: PBState, side: str) -> Iterator[Command]:
    """31.0-31.1: points on the Close Air Support mission added to declared battles."""
    left = state.air[side].missions.get("support", 0)
    for i, b in enumerate(state.battles):
        room = min(left, CAS_LIMIT - b.get("support", 0))
        for n in range(1, room + 1):
            yield Command("air_support", {"battle": i, "points": n})


def do_air_support(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "close_support_added", side, None, actor=side, side=side, battle=data["battle"],
                points=data["points"])


def close_support_aa(em: Emitter, b: dict[str, Any], attacker: str) -> None:
    """31.1-31.2: after the battle a die for each close support air unit: damaged on a 6, on
    a 5-6 when an enemy AA unit was in or next to a defending hex; the rest go to Reserve."""
    n = b.get("support", 0)
    if not n:
        return
    s: PBState = em.state
    near = {h for x in b["defenders"] for h in (x, *q.board().neighbours(x))}
    aa = any(p.side != attacker and q.kind(p.unit) == "aa" and p.hex in near for p in s.pieces.values())
    dice = [em.roll(i) for i in range(n)]
    damaged = sum(1 for die in dice if tables.close_support_damaged(die, aa))
    em.emit("air_changed", None, side=attacker, boxes={"damaged": damaged, "reserve": n - damaged},
            missions={"cas": -n}, why=f"close air support AA: dice {dice}{' near enemy AA' if aa else ''} (31.2)",
            dice=dice)


def do_withdraw(em: Emitter, data: dict[str, Any], side: str) -> None:
    tell.secret(em, "battle_withdrawn", side, None, actor=side, battle=data["battle"])


def do_fight(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    em.emit("battles_fought", side, count=len(s.battles),
            battles=[{"attackers": [[i, s.pieces[i].unit] for i in b["attackers"]], "defenders": b["defenders"],
                      "support": b.get("support", 0)} for b in s.battles])
    # The defender is always asked (whether it holds a marker or not: asking only when it
    # does would tell the attacker that it does).
    tell.owe(em, {"side": other(side), "kind": "react"})


def gen_react(state: PBState, side: str) -> Iterator[Command]:
    for name, target in markers.battle_reactions(state, side):
        yield Command("play", {"marker": name, "target": target})
    yield Command("pass")


def do_battle_marker(em: Emitter, side: str, name: str, battle: int) -> None:
    markers.play(em, side, name, f"on the battle for {', '.join(em.state.battles[battle]['defenders'])}",
                 target=str(battle))
    em.emit("battle_marker", side, side=side, marker=name, battle=battle)


def do_pass(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("decision_made", side)


# --- resolving -------------------------------------------------------------------------------

def next_battle(em: Emitter) -> None:
    s: PBState = em.state
    for i, b in enumerate(s.battles):
        if not b["done"]:
            attacker = s.pieces[b["attackers"][0]].side if b["attackers"][0] in s.pieces else None
            if attacker is None or not _alive(s, b):
                em.emit("battle_resolved", None, battle=i, result="-", words="no battle: a side is gone")
                continue
            chooser = b["chooser"] or attacker
            tell.owe(em, {"side": chooser, "kind": "crt", "battle": i})
            return


def _alive(s: PBState, b: dict[str, Any]) -> bool:
    attackers = [i for i in b["attackers"] if i in s.pieces]
    if not attackers:
        return False
    side = s.pieces[attackers[0]].side
    return any(p.side != side for h in b["defenders"] for p in s.at(h))


def gen_crt(state: PBState, side: str) -> Iterator[Command]:
    yield Command("crt", {"table": "raid"})
    yield Command("crt", {"table": "assault"})


def _across(state: PBState, attackers: list[Piece], defenders: list[str]) -> str | None:
    """The hexside every attacker crosses (14.33: a river counts when all attack across one)."""
    sides = [q.board().rivers.get(frozenset((a.hex, h))) for a in attackers for h in defenders]
    return "river" if sides and all(sides) else None


def counted(state: PBState, pieces: list[Piece]) -> list[Piece]:
    """12.5.3: in an overstacked hex only units up to the stacking limit count, the
    strongest first; the rest still take the results.  15.35: units that retreated into
    the hex this phase and over-stack it count not at all."""
    size_of = {p.id: 0 if p.unit == SUPPLY else q.battalions(p.unit) for p in pieces}
    total: dict[str, int] = {}
    for p in pieces:
        total[p.hex] = total.get(p.hex, 0) + size_of[p.id]
    pieces = [p for p in pieces if not (p.id in state.retreated and total[p.hex] > retreat.STACK_LIMIT)]
    out: list[Piece] = []
    by_hex: dict[str, int] = {}
    for p in sorted(pieces, key=lambda p: (-(q.spec(p).attack + q.spec(p).defence) if q.spec(p) else 0, p.id)):
        size = size_of[p.id]
        if by_hex.get(p.hex, 0) + size <= retreat.STACK_LIMIT:
            by_hex[p.hex] = by_hex.get(p.hex, 0) + size
            out.append(p)
    return out


def assess(state: PBState, b: dict[str, Any]) -> tuple[combat.Assessment, list[Piece], list[Piece]]:
    attackers = [state.pieces[i] for i in b["attackers"] if i in state.pieces]
    side = attackers[0].side
    defenders = [p for h in b["defenders"] for p in state.at(h) if p.side != side]
    names = [m for _, m in b["markers"]]
    a = combat.assess(q.board(), q.forces(), counted(state, attackers), counted(state, defenders),
                      attacker_hqs=q.active_hqs(state, side), defender_hqs=q.active_hqs(state, other(side)),
                      fortified=any(h in state.fortified for h in b["defenders"]),
                      banzai="Banzai!" in names, gung_ho="Gung Ho!" in names, close_support=b.get("support", 0),
                      across=_across(state, attackers, b["defenders"]))
    return a, attackers, defenders


def do_crt(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    i = s.pending[0]["battle"]
    b = s.battles[i]
    em.emit("decision_made", side)
    a, attackers, defenders = assess(s, b)
    attacker = attackers[0].side
    die = em.roll()
    code = applied_result(b, attacker, data["table"], a.column, die)
    banzai = any(m == "Banzai!" for _, m in b["markers"])
    everyone = attackers + defenders
    pieces = list(s.pieces.values())
    dead = sorted(p.id for p in everyone if combat.surrounded(q.board(), q.forces(), pieces, p))
    result = tables.RESULTS[code]
    em.emit("battle_resolved", side, battle=i, table=data["table"], chooser=side, attacker=attacker,
            attackers=[[p.id, p.unit] for p in attackers], defenders=[[p.id, p.unit] for p in defenders],
            hexes=b["defenders"], attack=a.attack, defence=a.defence, base=a.base, column=a.column,
            shifts=[[sh.value, sh.why, sh.rule] for sh in a.shifts], die=die, result=code, words=result.words,
            surrounded=dead, banzai=banzai)
    defender = other(attacker)
    att_ids = [p.id for p in attackers]
    def_ids = [p.id for p in defenders]
    for who, ids, loss in ((attacker, att_ids, result.attacker_loss), (defender, def_ids, result.defender_loss)):
        enemy = other(who)
        if loss == "all":
            if who == defender and s.options.get("capture_supply"):  # 32.0: the supply waits for the victor
                ids = [x for x in ids if s.pieces[x].unit != SUPPLY]
            eliminate(em, ids, enemy, dead, f"the battle for {', '.join(b['defenders'])}")
        elif loss == "half":
            attacking = who == attacker
            total = sum((q.spec(s.pieces[x]).attack if attacking else q.spec(s.pieces[x]).defence)
                        for x in ids if q.spec(s.pieces[x]) is not None)
            zero = [x for x in ids if attacking and q.spec(s.pieces[x]) is not None and q.spec(s.pieces[x]).attack == 0]
            if zero:  # 15.23: zero-attack attackers go in addition
                eliminate(em, zero, enemy, dead, "a bloodbath (15.23)")
            rest = [x for x in ids if x not in zero and x in em.state.pieces]
            _owe(em, who, math.ceil(total / 2), "attack" if attacking else "defence", rest, i, enemy, dead, "15.23",
                 total=total)
        elif loss == "one":
            _owe(em, who, 1, "battalions", ids, i, enemy, dead, "15.22")
    if result.suppress:
        who_ids = att_ids if result.suppress == "attacker" else def_ids
        alive = [x for x in who_ids if x in em.state.pieces and em.state.pieces[x].unit != SUPPLY]
        if alive:
            em.emit("suppressed", None, ids=alive, why=result.words)
    sea = [x for x in att_ids if x in s.assaults]
    if result.retreat:
        role, length = result.retreat.split()
        who = attacker if role == "attacker" else defender
        ids = [x for x in att_ids if x not in sea] if role == "attacker" else def_ids  # the sea has no retreat
        tell.owe(em, {
            "side": who, "kind": "retreat", "battle": i, "role": role, "length": length,
            "ids": ids, "done": [], "dead": dead, "banzai": banzai, "routs": {}})
    if result.pursuit:
        tell.owe(em, {"side": attacker, "kind": "pursue", "battle": i,
                                                    "ids": att_ids, "hexes": b["defenders"], "moved": []})
    close_support_aa(em, b, attacker)
    if sea:  # 22.3: they land only where the result lets the attackers pursue into a cleared hex
        tell.owe(em, {"side": attacker, "kind": "landing", "battle": i, "ids": sea, "pursuit": bool(result.pursuit),
                      "dead": dead})


def _owe(em: Emitter, who: str, need: int, measure: str, ids: list[str], battle: int, enemy: str,
         dead: list[str], rule: str, total: int | None = None) -> None:
    """``total``: for a half loss, the factors it is half of (15.24: worked out again from
    the battalions when a unit breaks down to take it)."""
    among = [x for x in ids if x in em.state.pieces]
    if need > 0 and among:
        tell.owe(em, {
            "side": who, "kind": "losses", "need": need, "measure": measure, "among": sorted(among),
            "reason": "combat losses", "rule": rule, "battle": battle, "vp_to": enemy, "dead": dead,
            "total": total})


def eliminate(em: Emitter, ids: list[str], by: str | None, dead: list[str], why: str, public: bool = True) -> None:
    """Pieces eliminated: supply back to the mix (7.8.6), the surrounded to Permanently
    Eliminated (15.21), the others to the Replacement box; ``by`` scores (24.4)."""
    s: PBState = em.state
    for pid in ids:
        p = s.pieces.get(pid) or s.off.get(pid)
        if p is None:
            continue
        box = "mix" if p.unit in (SUPPLY, DECEPTION) else ("dead" if pid in dead else "replace")
        data = {"ids": [pid], "box": box, "owner": p.side, "unit": p.unit, "why": why}
        if public:
            em.emit("pieces_removed", None, **data)
        else:
            tell.secret(em, "pieces_removed", p.side, {"owner": p.side, "why": why}, **data)
        if by is not None:
            points, kind = vp_for(by, p.unit)
            if points:  # a hidden loss is scored without its name (16.85)
                what = p.unit if public else {"hq": "an HQ", "battalion": "a unit"}.get(kind, kind)
                em.emit("vp_scored", None, side=by, points=points, why=f"{what} eliminated ({why})")


# --- losses (15.2) ----------------------------------------------------------------------------

def loss_value(state: PBState, pid: str, measure: str) -> int:
    p = state.pieces.get(pid) or state.off.get(pid)
    spec = q.unit_spec(p.unit)
    if measure == "attack":
        return spec.attack if spec else 0
    if measure == "defence":
        return spec.defence if spec else 0
    if measure == "supply":
        return 1 if p.unit == SUPPLY else 0
    return q.battalions(p.unit)


def _among(state: PBState) -> list[str]:
    d = state.pending[0]
    return [x for x in d["among"] if x in state.pieces or (x in state.off and d["measure"] == "supply")]


def gen_losses(state: PBState, side: str) -> Iterator[Command]:
    """The cheapest first, in the victory points the enemy scores: breaking a regiment down
    (15.22: one battalion goes, not three) before losing any counter whole."""
    d = state.pending[0]
    scorer = d.get("vp_to") or other(side)
    choices: list[tuple[int, int, Command]] = []
    for n, pid in enumerate(_among(state)):
        if d["measure"] == "supply" and loss_value(state, pid, "supply") == 0:
            continue
        p = state.pieces.get(pid)
        unit = p.unit if p is not None else state.off[pid].unit if pid in state.off else None
        cost = vp_for(scorer, unit)[0] if unit is not None else 0
        choices.append((cost, n, Command("lose", {"unit": pid})))
        if p is not None and q.spec(p) is not None and q.spec(p).breaks is not None:
            battalion = q.spec(p).breaks[0]
            choices.append((vp_for(scorer, battalion)[0], n, Command("break", {"unit": pid})))
    for _, _, command in sorted(choices, key=lambda c: (c[0], c[1], c[2].type != "break")):
        yield command


def do_lose(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    d = s.pending[0]
    value = loss_value(s, data["unit"], d["measure"])
    eliminate(em, [data["unit"]], d["vp_to"], d["dead"], d["reason"], public=d["battle"] is not None)
    need = d["need"] - max(value, 1)
    among = [x for x in d["among"] if x != data["unit"]]
    _progress(em, side, need, among)


def do_break(em: Emitter, data: dict[str, Any], side: str) -> None:
    """15.22, 15.24: a regiment breaks down to fulfil a loss; its battalions take its place."""
    s: PBState = em.state
    d = s.pending[0]
    public = d["battle"] is not None
    before = set(s.pieces)
    old = loss_value(s, data["unit"], d["measure"])
    do_breakdown(em, {"unit": data["unit"]}, side, public=public)
    new = sorted(set(em.state.pieces) - before)
    among = sorted([x for x in d["among"] if x != data["unit"]] + new)
    changes: dict[str, Any] = {"among": among}
    if data["unit"] in d["dead"]:  # 15.21: its battalions are as surrounded as it was
        changes["dead"] = sorted([*d["dead"], *new])
    if d.get("total") is not None:  # 15.24: half of the battalions' total instead
        parts = sum(loss_value(em.state, x, d["measure"]) for x in new)
        total = d["total"] - old + parts
        lost = math.ceil(d["total"] / 2) - d["need"]
        changes.update(total=total, need=max(0, math.ceil(total / 2) - lost))
    if d["battle"] is not None:
        b = em.state.battles[d["battle"]]
        role = "attackers" if data["unit"] in b["attackers"] else None
        if role:
            em.emit("battle_units_changed", None, battle=d["battle"], role=role,
                    ids=sorted([x for x in b[role] if x != data["unit"]] + new))
    tell.progress(em, side, changes)
    _swap_ids(em, data["unit"], new)


def _swap_ids(em: Emitter, old: str, new: list[str]) -> None:
    """The retreat and pursuit decisions queued behind this one name the broken unit: its
    battalions take its place there too."""
    s: PBState = em.state
    for i, d in enumerate(s.pending[1:], start=1):
        if old in d.get("ids", []):
            em.emit("decision_rewritten", None, index=i, ids=sorted([x for x in d["ids"] if x != old] + new))


def _progress(em: Emitter, side: str, need: int, among: list[str]) -> None:
    s: PBState = em.state
    d = s.pending[0]
    left = [x for x in among if x in s.pieces or x in s.off]
    if d["measure"] == "supply":
        left = [x for x in left if loss_value(s, x, "supply")]
    if need > 0 and left:
        tell.progress(em, side, changes={"need": need, "among": left})
    else:
        em.emit("decision_made", side)


# --- retreats (15.3) and pursuit (15.4) --------------------------------------------------------

def applied_result(b: dict[str, Any], attacker: str, table: str, column: str, die: int) -> str:
    """The result a battle gets for a die on a table: the printed one, converted by the
    Banzai! marker on the battle (R-PB-15.5).  The preview shows the same (view.py)."""
    code = tables.CRTS[table].lookup(column, die)
    if any(m == "Banzai!" for _, m in b["markers"]):
        code = tables.banzai(code, attacker == "Japanese")
    return code


def _retreat_length(s: PBState, d: dict[str, Any], pid: str) -> int | None:
    if pid in d.get("left", {}):  # going on after a ZOC that was not there (18.4)
        return d["left"][pid]
    p = s.pieces[pid]
    rout = d["length"] == "rout"
    length = d["routs"].get(pid) if rout else int(d["length"])
    fortified = p.hex in s.fortified
    return retreat.ignores_retreat(length, rout, fortified, d["banzai"] and p.side == "Japanese")


def options(s: PBState, pid: str, length: int) -> dict[str, retreat.Option]:
    """Reckoned with the ZOCs the owner has been told (R-PB-18.4): a stack it has not been
    told of counts as having one."""
    p = s.pieces[pid]
    zoc = q.zoc_known_to(s, p.side)
    out: dict[str, retreat.Option] = {}
    for o in retreat.options(q.board(), q.forces(), list(s.pieces.values()), p, length, zoc):
        out.setdefault(o.path[-1], o)
    return out


def current_retreater(s: PBState) -> str | None:
    d = s.pending[0]
    for pid in d["ids"]:
        if pid in s.pieces and pid not in d["done"]:
            return pid
    return None


def gen_retreat(state: PBState, side: str) -> Iterator[Command]:
    pid = current_retreater(state)
    if pid is None:
        return
    length = _retreat_length(state, state.pending[0], pid)
    for h in sorted(options(state, pid, length or 0)):
        yield Command("retreat", {"unit": pid, "to": h})


def do_retreat(em: Emitter, data: dict[str, Any], side: str) -> None:
    s: PBState = em.state
    d = s.pending[0]
    pid = data["unit"]
    length = _retreat_length(s, d, pid)
    opt = options(s, pid, length or 0)[data["to"]]
    p = s.pieces[pid]
    em.emit("pieces_moved", side, ids=[pid], to=opt.path[-1], counts=False, retreat=True, unit=p.unit,
            **{"from": p.hex})
    fate = opt.fate
    if fate == "zoc" and opt.path[-1] not in q.enemy_zoc(s, side):  # 18.4: told on arrival that it has none
        left = (length or 0) - len(opt.path)
        if left > 0:  # it goes on retreating
            tell.progress(em, side, changes={"left": {**d.get("left", {}), pid: left}})
            return
        fate = "safe"  # its whole length retreated
    if fate in ("zoc", "short"):
        _retreat_elimination(em, pid, d, "retreated into an enemy ZOC (13.8)" if fate == "zoc"
                             else "could not retreat its full length (15.33.6)")
    tell.progress(em, side, changes={"done": [*d["done"], pid]})


def _retreat_elimination(em: Emitter, pid: str, d: dict[str, Any], why: str) -> None:
    """15.33.3: a unit that can break down does, and one battalion is eliminated instead."""
    s: PBState = em.state
    p = s.pieces[pid]
    spec = q.spec(p)
    enemy = other(p.side)
    if why.startswith("retreated into") and spec is not None and spec.breaks is not None:
        before = set(s.pieces)
        do_breakdown(em, {"unit": pid}, p.side, public=True)
        new = sorted(set(em.state.pieces) - before)
        dead = [*d["dead"], *new] if pid in d["dead"] else d["dead"]  # 15.21 holds for its battalions
        eliminate(em, new[:1], enemy, dead, why)
        return
    eliminate(em, [pid], enemy, d["dead"], why)


def _capturable(state: PBState, side: str, p: Piece) -> bool:
    """32.0 (optional): enemy supply left alone in a cleared hex waits to be captured."""
    return bool(state.options.get("capture_supply")) and p.side != side and p.unit == SUPPLY


def gen_pursue(state: PBState, side: str) -> Iterator[Command]:
    d = state.pending[0]
    cleared = {h for h in d["hexes"] if not any(p.side != side and not _capturable(state, side, p)
                                                for p in state.at(h))}
    pieces = [p for p in state.pieces.values() if not _capturable(state, side, p)]
    for pid in d["ids"]:
        if pid not in state.pieces or pid in d["moved"]:
            continue
        for h in retreat.pursuit_hexes(q.board(), q.forces(), pieces, state.pieces[pid], cleared):
            yield Command("pursue", {"unit": pid, "to": h})
    yield Command("stop")


def do_pursue(em: Emitter, data: dict[str, Any], side: str) -> None:
    p = em.state.pieces[data["unit"]]
    em.emit("pieces_moved", side, ids=[p.id], to=data["to"], counts=False, pursuit=True, unit=p.unit,
            **{"from": p.hex})
    d = em.state.pending[0]
    tell.progress(em, side, changes={"moved": [*d["moved"], p.id]})
    capture(em, side, data["to"])


def capture(em: Emitter, side: str, hex_id: str) -> None:
    """32.1: a die for each enemy supply point in the hex entered: 1-3 it becomes ours, 4-6
    it is eliminated."""
    s: PBState = em.state
    points = sorted(p.id for p in s.at(hex_id) if _capturable(s, side, p))
    for i, pid in enumerate(points):
        die = em.roll(i)
        captured = die <= 3
        em.emit("pieces_removed", None, ids=[pid], box="mix", owner=other(side), unit=SUPPLY,
                why=f"{'captured' if captured else 'destroyed'} on a {die} (32.1)", die=die)
        if captured:
            new = q.new_ids(em.state, side, 1)[0]
            # its id is the capturer's own, as every new piece's (the capture itself is public, above)
            tell.secret(em, "piece_placed", side, {"side": side, "hex": hex_id}, id=new, unit=SUPPLY, side=side,
                        hex=hex_id, new_ids=1, why="captured supply (32.1)")


def do_stop(em: Emitter, data: dict[str, Any], side: str) -> None:
    em.emit("decision_made", side)


# --- the steps that run by themselves ---------------------------------------------------------

def advance_losses(em: Emitter, d: dict[str, Any]) -> bool:
    """The losses decision's automatic step (decisions.py): over once nothing is left to lose."""
    s: PBState = em.state
    if d["need"] <= 0 or not _among(s) or not list(gen_losses(s, d["side"])):
        em.emit("decision_made", None)
        return True
    return False


def advance_retreat(em: Emitter, d: dict[str, Any]) -> bool:
    """The retreat's automatic steps: a rout's die, a unit that stays or cannot retreat."""
    s: PBState = em.state
    pid = current_retreater(s)
    if pid is None:
        em.emit("decision_made", None)
        return True
    p = s.pieces[pid]
    if d["length"] == "rout" and pid not in d["routs"]:
        die = em.roll()
        tell.progress(em, None, changes={"routs": {**d["routs"], pid: die}}, rout=die, unit=pid)
        return True
    length = _retreat_length(s, d, pid)
    spec = q.spec(p)
    if not length:
        tell.progress(em, None, changes={"done": [*d["done"], pid]}, stays=pid,
                      why="ignores the retreat (15.5 Banzai!, 21.2 fortification)")
        return True
    if p.unit == SUPPLY or spec is None or spec.movement == 0 or not options(s, pid, length):
        why = ("supply units are eliminated if forced to retreat (15.33.9)" if p.unit == SUPPLY else
               "no movement factor (15.33.8)" if spec is None or spec.movement == 0 else
               "no hex to retreat to (15.33)")
        eliminate(em, [pid], other(p.side), d["dead"], why)
        tell.progress(em, None, changes={"done": [*d["done"], pid]})
        return True
    return False


def advance_pursue(em: Emitter, d: dict[str, Any]) -> bool:
    """Pursuit is over by itself once no unit can pursue."""
    if not [c for c in gen_pursue(em.state, d["side"]) if c.type == "pursue"]:
        em.emit("decision_made", None)
        return True
    return False


def advance_landing(em: Emitter, d: dict[str, Any]) -> bool:
    """22.3: the assault from the sea lands or not, with nobody to ask."""
    _land_or_drown(em, d)
    em.emit("decision_made", None)
    return True


def _land_or_drown(em: Emitter, d: dict[str, Any]) -> None:
    """22.3: the assault force still at sea lands in its hex if the result allowed pursuit and
    the hex is cleared; otherwise it is eliminated."""
    s: PBState = em.state
    side = d["side"]
    for target in sorted({s.assaults[x] for x in d["ids"] if x in s.assaults}):
        ids = sorted(x for x in d["ids"] if s.assaults.get(x) == target)
        clear = not any(p.side != side and not _capturable(s, side, p) for p in s.at(target))
        if d["pursuit"] and clear:
            em.emit("pieces_moved", side, ids=ids, to=target, counts=False, landing=True,
                    **{"from": s.pieces[ids[0]].hex})
            capture(em, side, target)
        else:
            eliminate(em, ids, other(side), d["dead"], "the assault from the sea failed (22.3)")
