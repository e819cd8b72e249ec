"""Level ``greedy`` for Pacific Battles: one ply over the legal commands, each scored from
the side's own view (``picture.py``): the places its units would end in
(``evaluation.py``: victory points for Henderson Field and the objective hexes, exposure,
the battles to come), the exact distribution of each battle's results on both CRTs
(``odds.py``), the VP a loss gives the enemy.

The game state is hidden in part (the fog of war, 18.0; the enemy's hand, track and
sealed air allocation), so unlike First Blood's this bot rebuilds no state: it reads the
view and the legal commands, nothing else (an unexamined enemy stack is given a typical
strength).  A phase is built a command at a time: each call moves (or lands, or places)
the unit that gains most by it until none gains enough, then ends the phase.  The secret
air allocation is a mixed strategy drawn with the bot's own generator, so the opponent
cannot read it from the position.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import Any

from engine.bots.base import BotInput, Decision, choices, sub_seed
from engine.bots.loops import going_round, way_out
from engine.bots.pacific_battles import odds
from engine.bots.pacific_battles.airwar import mixed_split
from engine.bots.pacific_battles.evaluation import Scorer
from engine.bots.pacific_battles.picture import Picture, Unit, henderson, objectives, picture, spec_unit
from engine.bots.rng import Chooser
from engine.core.events import Command
from engine.core.hexes import distance_between
from engine.games.pacific_battles import air
from engine.games.pacific_battles.impulse import vp_for
from engine.games.pacific_battles.state import other

GAIN = 0.3  # a unit moves only for more than this
ATTACK_GAIN = 0.25  # an attack nobody is obliged to make is declared only for more than this
ADD_GAIN = 0.05
TAKEN_BACK = ("battle_withdrawn", "battle_cancelled")  # a battle taken back (loops.py)
NEVER = ("show", "hide", "buy", "buy_marker", "evacuate", "to_base", "breakdown", "combine", "sail", "carry",
         "assault", "cancel", "withdraw", "add_hex")
MARKERS_PLAYED = ("Banzai!", "Gung Ho!", "Ironbottom Sound", "The Bombardment", "Destroyer Support",
                  "Naval Battle of Guadalcanal", "Fire Coordination", "Dig In", "Staff Planning", "MAGIC")


class PacificBattlesGreedy:
    level = "greedy"

    def decide(self, inp: BotInput) -> Decision:
        legal = choices(inp.legal)
        if len(legal) == 1:
            return Decision(legal[0], forced=True)
        # its own draws, from its seed and what it sees (the turn's allocation differs each turn)
        rng = Chooser(sub_seed(inp.seed, "greedy", inp.view.get("turn"), inp.view.get("phase"), len(legal)))
        if going_round(inp, TAKEN_BACK):
            return Decision(way_out(inp, legal, "greedy-loop"), notes={"loop": True})
        cmd = best_command(inp.view, inp.side, legal, rng)
        if cmd not in legal and cmd.type != "allocate":
            cmd = _end(legal) or legal[0]
        return Decision(cmd)


def _end(legal: list[Command]) -> Command | None:
    return next((c for c in legal if c.type == "end_phase"), None)


def best_command(view: dict[str, Any], side: str, legal: list[Command], rng: Chooser) -> Command:
    pic = picture(view, side)
    kinds = {c.type for c in legal}
    decision = view.get("decision")
    prompt = (view.get("prompt") or {}).get("kind", "")
    if decision or prompt in ("react", "crt", "losses", "retreat", "pursue", "fire", "air_hits", "dig_in",
                              "staff", "magic", "interdict"):
        cmd = _pending(pic, legal, kinds, decision or {})
    elif "allocate" in kinds:
        cmd = allocate(pic, legal, rng)
    elif "place" in kinds:
        cmd = _best_placement(pic, legal, "place", "hex")
    elif "land" in kinds:
        cmd = _best_placement(pic, legal, "land", "hex")
    elif kinds & {"declare", "add", "close", "fight"} or pic.phase.endswith("_combat"):
        cmd = _combat(pic, legal)
    elif "strike" in kinds or pic.phase.endswith("_strike"):
        cmd = _strike(pic, legal)
    elif "move" in kinds or "recon" in kinds:
        cmd = _movement(pic, legal)
    elif pic.phase.startswith("logistics_"):
        cmd = _logistics(pic, legal)
    else:
        cmd = None
    return cmd or _default(legal)


def _default(legal: list[Command]) -> Command:
    end = _end(legal)
    if end is not None:
        return end
    for kind in ("pass", "stop", "close", "fight"):
        c = next((c for c in legal if c.type == kind), None)
        if c is not None:
            return c
    keep = [c for c in legal if c.type not in NEVER]
    return (keep or legal)[0]


# --- air allocation (16.3): a mixed strategy --------------------------------------------------

def allocate(pic: Picture, legal: list[Command], rng: Chooser) -> Command:
    """A split of the Reserve drawn from a distribution by the bot's own generator: mostly
    strikes (they suppress and kill, 16.8) and superiority (it guards them, 16.5), a recon
    point now and then (18.2), interdiction against the enemy's landings some turns (16.6)."""
    template = next(c for c in legal if c.type == "allocate")
    reserve = int(pic.view.get("sides", {}).get(pic.side, {}).get("air", {}).get("reserve", 0))
    alloc = mixed_split(reserve, template.data, rng)
    try:
        air.check_allocation(reserve, {k: v for k, v in alloc.items() if k in air.MISSIONS})
    except Exception:  # noqa: BLE001 - an allocation the rules would refuse: a listed one instead
        listed = [c for c in legal if c.type == "allocate"]
        return max(listed, key=lambda c: (c.data.get("strike", 0) > 0 and c.data.get("superiority", 0) > 0,
                                          sum(v or 0 for v in c.data.values())))
    return Command("allocate", alloc)


# --- set-up (25.4) and landings (6.0) ------------------------------------------------------------

def _unit_of(pic: Picture, uid: str) -> Unit:
    for u in pic.own:
        if u.id == uid:
            return u
    for box in ("track", "base", "replace"):
        for o in pic.view.get("sides", {}).get(pic.side, {}).get(box, []) or []:
            if o.get("id") == uid:
                return spec_unit(o["unit"], pic.side)
    return spec_unit(uid, pic.side) if uid else Unit(uid, uid, pic.side, "", "supply", 0, 0, 1)


def _best_placement(pic: Picture, legal: list[Command], kind: str, where: str) -> Command | None:
    """The (unit, hex) that does most: the most valuable unit first (an engineer, then
    the strongest), in its best hex (evaluation.Scorer.place)."""
    by_unit: dict[str, list[str]] = defaultdict(list)
    for c in legal:
        if c.type == kind:
            by_unit[c.data["unit"]].append(c.data[where])
    if not by_unit:
        return None
    scorer = Scorer(pic)
    best: tuple[float, str, str] | None = None
    for uid, hexes in by_unit.items():
        u = _unit_of(pic, uid)
        weight = odds.unit_value(u)
        for h in hexes:
            value = scorer.place(replace(u, hex=h), h, pic.own_at.get(h, []), attacking=kind != "place") \
                + 0.01 * weight
            key = (value, uid, h)
            if best is None or key > best:
                best = key
    assert best is not None
    return Command(kind, {"unit": best[1], where: best[2]})


# --- movement (11.0) ----------------------------------------------------------------------------------

def _movement(pic: Picture, legal: list[Command]) -> Command | None:
    by_unit: dict[str, list[str]] = defaultdict(list)
    for c in legal:
        if c.type == "move":
            by_unit[c.data["unit"]].append(c.data["to"])
    scorer = Scorer(pic)
    best: tuple[float, str, str] | None = None
    units = {u.id: u for u in pic.own}
    for uid, dests in by_unit.items():
        u = units.get(uid)
        if u is None:
            continue
        here = [o for o in pic.own_at.get(u.hex, []) if o.id != uid]
        stay = scorer.place(u, u.hex, here)
        for h in dests:
            gain = scorer.place(replace(u, hex=h), h, pic.own_at.get(h, [])) - stay
            key = (gain, uid, h)
            if gain > GAIN and (best is None or key > best):
                best = key
    if best is not None:
        return Command("move", {"unit": best[1], "to": best[2]})
    recon = _recon(pic, legal)
    if recon is not None:
        return recon
    return _end(legal)


def _recon(pic: Picture, legal: list[Command]) -> Command | None:
    """16.7: over the unexamined enemy stacks nearest the side's units."""
    recons = [c for c in legal if c.type == "recon"]
    if not recons:
        return None
    unknown = [h for h, s in pic.stacks.items() if not s.known]
    if not unknown:
        return None

    def worth(c: Command) -> tuple[float, str]:
        h = c.data["hex"]
        seen = [e for e in unknown if distance_between(h, e) <= 1]
        close = sum(1 for e in seen for u in pic.own if distance_between(u.hex, e) <= 3)
        return len(seen) + 0.1 * close, h

    best = max(recons, key=worth)
    return best if worth(best)[0] > 0 else None


# --- strikes and bombardment (16.8, 17.0) -----------------------------------------------------------

def _target_worth(pic: Picture, h: str) -> float:
    s = pic.stacks.get(h)
    if s is None:
        return 0.0
    value = sum(odds.unit_value(u) for u in s.units) * 0.3
    value += odds.stake(pic, [h], pic.enemy) * 0.5
    if any(distance_between(h, u.hex) == 1 for u in pic.own if u.combat):
        value += 2.0  # suppressed before our battle (8.2)
    return value


def _strike(pic: Picture, legal: list[Command]) -> Command | None:
    plays = [c for c in legal if c.type == "play" and c.data.get("marker") in MARKERS_PLAYED
             and (c.data.get("target") in pic.stacks or c.data.get("target") is None)]
    if plays:
        return max(plays, key=lambda c: (_target_worth(pic, c.data.get("target") or ""), c.data["marker"]))
    strikes = [c for c in legal if c.type == "strike"]
    if strikes:
        return max(strikes, key=lambda c: (_target_worth(pic, c.data["hex"]), c.data["points"], c.data["hex"]))
    return _end(legal)


# --- logistics (7.0) ------------------------------------------------------------------------------------

def _logistics(pic: Picture, legal: list[Command]) -> Command | None:
    units = {u.id: u for u in pic.own}
    plays = [c for c in legal if c.type == "play" and c.data.get("marker") in ("Dig In", "Staff Planning")]
    if plays:
        return plays[0]
    acts = [c for c in legal if c.type == "activate"]
    if acts:  # an HQ with combat units in its radius (10.3)
        def support(c: Command) -> tuple[int, str, str]:
            hq = units.get(c.data["hq"])
            n = 0 if hq is None else sum(1 for u in pic.own
                                         if u.combat and distance_between(u.hex, hq.hex) <= hq.radius)
            return n, c.data["hq"], c.data["supply"]
        best = max(acts, key=support)
        if support(best)[0] > 0:
            return best
    for kind in ("refit", "repair"):
        c = next((c for c in legal if c.type == kind), None)
        if c is not None:
            return c
    forts = [c for c in legal if c.type == "fortify"]
    for c in forts:
        eng = units.get(c.data["engineer"])
        if eng is not None and (eng.hex == henderson() or eng.hex in objectives()
                                or any(distance_between(eng.hex, e) <= 2 for e in pic.stacks)):
            return c
    return _end(legal)


# --- combat (14.0) ----------------------------------------------------------------------------------------

def _busy(pic: Picture) -> set[str]:
    return {a[0] for b in pic.view.get("battles", []) for a in b.get("attackers", [])}


def _obliged(pic: Picture, u: Unit) -> bool:
    """14.11: in the ZOC of an enemy stack (a stack told to have none is not counted)."""
    return any(s.zoc is not False and distance_between(u.hex, h) == 1 for h, s in pic.stacks.items())


def _zoc_hexes(pic: Picture) -> set[str]:
    return {h for h, s in pic.stacks.items() if s.zoc is not False}


def _combat(pic: Picture, legal: list[Command]) -> Command | None:
    """14.1-14.2: every unit in an enemy ZOC attacks and every enemy stack whose ZOC holds
    one is attacked (the rules offer the fight only then).  The most constrained enemy
    hex is declared first (fewest units free to attack it); a unit the only one able to
    attack another such hex is kept for it, or that hex is added to the battle; other
    attacks only for the worth of their results."""
    kinds = {c.type for c in legal}
    units = {u.id: u for u in pic.own}
    hqs = pic.own_hq()
    zoc = _zoc_hexes(pic)
    busy = _busy(pic)
    declaring = next((b for b in pic.view.get("battles", []) if b.get("declaring")), None)
    taken = {h for b in pic.view.get("battles", []) for h in b.get("defenders", [])}
    free = [u for u in pic.own if u.kind != "supply" and u.id not in busy]
    if declaring is not None:
        ids = {i for i, _ in declaring["attackers"]}
        free = [u for u in free if u.id not in ids]
        attackers = [units[i] for i in ids if i in units]
        hexes = declaring["defenders"]
        defenders = [u for h in hexes if h in pic.stacks for u in pic.stacks[h].units]
        fortified = any(pic.stacks[h].fortified for h in hexes if h in pic.stacks)
        base = odds.battle(pic, pic.side, attackers, defenders, hexes, fortified, hqs)[0] if attackers else 0.0
        owed = zoc - taken

        def critical(u: Unit) -> bool:
            """The only free unit next to another owed hex."""
            return any(distance_between(u.hex, h) == 1 and not any(
                distance_between(o.hex, h) == 1 for o in free if o.id != u.id) for h in owed - set(hexes))

        best: tuple[float, str] | None = None
        for c in legal:
            if c.type != "add" or c.data["unit"] not in units:
                continue
            u = units[c.data["unit"]]
            gain = odds.battle(pic, pic.side, [*attackers, u], defenders, hexes, fortified, hqs)[0] - base
            if _obliged(pic, u):
                if critical(u) and attackers:
                    continue
                gain += 5.0 if u.combat else 0.5
            elif not u.combat:
                gain -= 5.0
            if not attackers:
                gain += 10.0  # a declared battle needs an attacker
            if gain > ADD_GAIN and (best is None or (gain, u.id) > best):
                best = (gain, u.id)
        if best is not None:
            return Command("add", {"unit": best[1]})
        for c in legal:  # an owed hex nobody else can attack goes into this battle
            if c.type == "add_hex" and c.data["hex"] in owed and not any(
                    distance_between(o.hex, c.data["hex"]) == 1 for o in free):
                return c
        if "close" in kinds:
            return next(c for c in legal if c.type == "close")
        return next((c for c in legal if c.type == "cancel"), None)
    must_fight = not kinds & {"fight", "end_phase"}
    owed: list[tuple[int, float, str]] = []
    optional: list[tuple[float, str]] = []
    for c in legal:
        if c.type != "declare":
            continue
        h = c.data["hex"]
        s = pic.stacks.get(h)
        if s is None:
            continue
        near = [u for u in free if distance_between(u.hex, h) == 1]
        fighters = [u for u in near if u.combat] or near
        value = odds.battle(pic, pic.side, fighters, s.units, [h], s.fortified, hqs)[0]
        if h in zoc and any(_obliged(pic, u) for u in near):
            owed.append((len(near), -value, h))
        else:
            optional.append((value, h))
    if owed and must_fight:
        return Command("declare", {"hex": min(owed)[2]})
    if optional:
        value, h = max(optional)
        if value > ATTACK_GAIN:
            return Command("declare", {"hex": h})
    if owed:
        return Command("declare", {"hex": min(owed)[2]})
    plays = [c for c in legal if c.type == "play" and c.data.get("marker") in ("Banzai!", "Gung Ho!")]
    if plays:
        return plays[0]
    for kind in ("fight", "end_phase"):
        c = next((c for c in legal if c.type == kind), None)
        if c is not None:
            return c
    withdraws = [c for c in legal if c.type == "withdraw"]
    return withdraws[-1] if withdraws else None


# --- decisions owed: the CRT, losses, retreats, pursuit, air hits (14-16) -------------------------------

def _pending(pic: Picture, legal: list[Command], kinds: set[str], d: dict[str, Any]) -> Command | None:
    if "crt" in kinds:
        return _crt(pic, legal)
    if kinds & {"lose", "break"}:
        return _losses(pic, legal, d)
    if "retreat" in kinds:
        return _retreat(pic, legal)
    if "pursue" in kinds:
        return _pursue(pic, legal)
    if "fire" in kinds:  # 16.52: the excess at the missions that hurt the ground (strikes, interdiction)
        return max((c for c in legal if c.type == "fire"), key=lambda c: c.data["at_others"])
    if "hit" in kinds:
        order = {"strike": 0, "interdiction": 1, "recon": 2}
        return min((c for c in legal if c.type == "hit"), key=lambda c: (order.get(c.data["mission"], 3),
                                                                          c.data["mission"]))
    if "dig" in kinds:
        digs = [c for c in legal if c.type == "dig"]
        return min(digs, key=lambda c: (c.data["hex"] != henderson(), c.data["hex"] not in objectives(),
                                        min((distance_between(c.data["hex"], e) for e in pic.stacks), default=99),
                                        c.data["hex"]))
    if "interdict" in kinds:
        ints = [c for c in legal if c.type == "interdict"]
        return min(ints, key=lambda c: (c.data["next"] == "supply", c.data["next"]))
    if "delay_turn" in kinds:
        return next(c for c in legal if c.type == "delay_turn")
    if "activate_free" in kinds:
        return next(c for c in legal if c.type == "activate_free")
    if "play" in kinds and "pass" in kinds:
        return next(c for c in legal if c.type == "pass")
    return None


def _crt(pic: Picture, legal: list[Command]) -> Command | None:
    """14.4: the table whose results (as the preview applies them, markers included) are
    worth most to the chooser, each die one in six."""
    pv = pic.view.get("battle_preview")
    if not pv:
        return None
    attacker = pv["attacker"]
    defender = other(attacker)
    attackers = [spec_unit(name, attacker) for _, name in pv["attackers"]]
    defenders = [spec_unit(name, defender) for _, name in pv["defenders"]]
    capture = odds.stake(pic, pv["hexes"], defender)
    sign = 1.0 if pic.side == attacker else -1.0
    best: tuple[float, str] | None = None
    for c in legal:
        if c.type != "crt":
            continue
        name = c.data["table"]
        codes = pv["tables"][name]
        value = sign * sum(odds.result_value(code, attackers, defenders, capture) for code in codes) / len(codes)
        if best is None or (value, name == "raid") > (best[0], best[1] == "raid"):
            best = (value, name)
    return None if best is None else Command("crt", {"table": best[1]})


def _losses(pic: Picture, legal: list[Command], d: dict[str, Any]) -> Command:
    """The cheapest loss in VP given (the rules list them cheapest first); an engineer on
    Henderson Field, an HQ, last."""
    units = {u.id: u for u in pic.own}
    scorer = d.get("vp_to") or pic.enemy

    def cost(n_c: tuple[int, Command]) -> tuple[float, int]:
        n, c = n_c
        u = units.get(c.data["unit"])
        if u is None:
            return 0.0, n
        value = float(vp_for(scorer, u.name)[0]) if u.name else 0.0
        if c.type == "break":
            value = 1.0 + 0.1 * u.attack
        else:
            value += 0.1 * (u.attack + u.defence)
            if u.kind == "engineer":
                value += 3.0 + (10.0 if u.hex == henderson() else 0.0)
        return value, n

    return min(enumerate(c for c in legal if c.type in ("lose", "break")), key=cost)[1]


def _retreat(pic: Picture, legal: list[Command]) -> Command:
    scorer = Scorer(pic)
    units = {u.id: u for u in pic.own}
    best: tuple[float, str] | None = None
    out = None
    for c in legal:
        if c.type != "retreat":
            continue
        u = units.get(c.data["unit"])
        to = c.data.get("to")
        if u is None or to is None:
            value = -100.0
        else:
            others = [o for o in pic.own_at.get(to, []) if o.id != u.id]
            value = scorer.place(replace(u, hex=to), to, others, attacking=False)
        if best is None or (value, to or "") > best:
            best, out = (value, to or ""), c
    return out or legal[0]


def _pursue(pic: Picture, legal: list[Command]) -> Command:
    scorer = Scorer(pic)
    units = {u.id: u for u in pic.own}
    stop = next((c for c in legal if c.type == "stop"), None)
    best: tuple[float, str, str] | None = None
    for c in legal:
        if c.type != "pursue":
            continue
        u = units.get(c.data["unit"])
        if u is None:
            continue
        here = scorer.place(u, u.hex, [o for o in pic.own_at.get(u.hex, []) if o.id != u.id], attacking=False)
        to = c.data["to"]
        there = scorer.place(replace(u, hex=to), to, pic.own_at.get(to, []), attacking=False)
        gain = there - here
        if gain > GAIN and (best is None or (gain, u.id, c.data["to"]) > best):
            best = (gain, u.id, c.data["to"])
    if best is not None:
        return Command("pursue", {"unit": best[1], "to": best[2]})
    return stop or legal[0]


__all__ = ["PacificBattlesGreedy", "best_command", "allocate"]
