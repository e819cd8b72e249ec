"""Level ``search`` for Pacific Battles: greedy, with a time-bounded look-ahead where the
dice and the hidden enemy decide the worth of a choice.

Searched (``SEARCHED``): the CRT the side chooses for its own battle (14.4) and where a
retreating or pursuing unit goes (15.3, 15.4).  The battle being built (an attacker nobody
obliges to join, or closing it, 14.2) and whether to declare an attack nobody owes (14.11)
can be searched the same way; they are left to greedy, the level having scored no better
with them in the arena (docs/bots.md).  For each, greedy's choice and a few others are
played on copies of the side's picture (``lookahead.py``): per sample, the unexamined
enemy stacks drawn from the enemy's printed counters and the die from the bot's own
generator, the same for every candidate (the differences are paired); the result applied
and the position after it scored whole.
Samples go round until the time is up; greedy's choice is kept unless another beats it by
more than ``MARGIN`` and ``Z`` standard errors (a few samples never overrule greedy).
The number of rounds is the decision's note: given back in the input
(``BotInput.rounds``) it replays the decision exactly, however fast the machine.

The turn's secret air allocation is weighed by a model of the turn's air war alone
(``allocation``, ``airwar.py``), exactly over the dice, against the splits the enemy may
make.

The bot reads what greedy reads (its events, view and legal commands, its seed): never the
game's state or dice secret.  Everything else (movement, landings, strikes) is greedy's:
movement and the enemy's reply are not searched yet (docs/bots.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.bots.base import BotInput, Decision, choices, sub_seed
from engine.bots.pacific_battles import airwar, lookahead, odds
from engine.bots.pacific_battles.evaluation import Scorer
from engine.bots.pacific_battles.greedy import PacificBattlesGreedy, _busy, _obliged, _zoc_hexes
from engine.bots.pacific_battles.picture import Picture, Unit, picture, spec_unit
from engine.bots.rng import Chooser
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.core.hexes import distance_between
from engine.games.pacific_battles import air, tables

DEFAULT_SECONDS = 0.3
CANDIDATES = 4
MAX_ROUNDS = 400  # enough to tell apart what can be told apart; no need to spend the rest
MARGIN = 0.3  # in VP-like units: a US battalion lost is worth about 3.5, a Japanese one about 2.5
Z = 2.0
AIR_TOLERANCE = 0.3  # VP: the air allocation is drawn among the splits this near the best
SEARCHED = ("crt", "retreat", "pursue")  # of these: "crt", "retreat", "pursue", "build", "declare"

# a candidate's outcome in one sample: (the sampled picture, the die, a generator for further dice) -> picture
Outcome = Callable[[Picture, int, Chooser], Picture]


class PacificBattlesSearch(PacificBattlesGreedy):
    level = "search"

    def decide(self, inp: BotInput) -> Decision:
        legal = choices(inp.legal)
        if len(legal) == 1:
            return Decision(legal[0], forced=True)
        started = time.perf_counter()
        decision = super().decide(inp)
        if decision.notes.get("loop"):
            return decision
        if decision.command.type == "allocate":
            return allocation(inp, decision.command)
        pic = picture(inp.view, inp.side)
        plans = plans_for(pic, legal, decision.command)
        if len(plans) < 2:
            return decision
        cands = [c for c, _ in plans]
        around = sorted({h for _, (hexes, _) in plans for h in hexes})
        budget = DEFAULT_SECONDS if inp.seconds is None else inp.seconds
        deadline = started + budget
        values: list[list[float]] = [[] for _ in plans]
        random = lookahead.hidden(pic) or any(c.type in ("crt", "add", "close", "declare", "fight", "end_phase")
                                               for c in cands)
        rounds = 0
        while rounds == 0 or (random and rounds < MAX_ROUNDS and (
                time.perf_counter() < deadline if inp.rounds is None else rounds < inp.rounds)):
            seed = sub_seed(inp.seed, "pb-search", len(inp.events), rounds)
            world = lookahead.sample_hidden(pic, Chooser(seed + "/hidden"))
            die = 1 + int(Chooser(seed + "/die").unit() * 6)
            for i, (_, (_, outcome)) in enumerate(plans):  # a round is whole: its count replays the decision
                after = outcome(world, die, Chooser(seed + "/more"))
                values[i].append(lookahead.value(after, around))
            rounds += 1
        best = confident(values)
        means = [round(sum(v) / len(v), 3) for v in values]
        return Decision(cands[best], notes={"rounds": rounds, "means": means})


def allocation(inp: BotInput, chosen: Command) -> Decision:
    """16.3, the turn's secret air allocation: greedy's draw of recon and interdiction kept,
    the rest split between superiority and strikes as the air war's model
    (``airwar.py``) values it against the enemy's splits, which it cannot see; a split
    drawn among those within ``AIR_TOLERANCE`` of the best, so that the enemy cannot read it."""
    drawn = chosen.data
    if not all(isinstance(v, int) for v in drawn.values()):
        return Decision(chosen)  # (greedy fell back on a listed allocation)
    pic = picture(inp.view, inp.side)
    reserves = {s: int(d.get("air", {}).get("reserve", 0)) for s, d in inp.view.get("sides", {}).items()}
    rng = Chooser(sub_seed(inp.seed, "pb-allocation", len(inp.events)))
    worth = airwar.worths(inp.side, pic.enemy, drawn, reserves.get(pic.enemy, 0), (len(pic.stacks), len(pic.own_at)),
                          rng)
    near = [i for i, w in enumerate(worth) if w >= max(worth) - AIR_TOLERANCE]
    split = airwar.splits(drawn)[near[min(len(near) - 1, int(rng.unit() * len(near)))]]
    try:
        air.check_allocation(reserves.get(inp.side, 0), {k: v for k, v in split.items() if k in air.MISSIONS})
    except RuleError:
        return Decision(chosen)
    return Decision(Command("allocate", split), notes={"worth": [round(w, 2) for w in worth]})


def confident(values: list[list[float]]) -> int:
    """Greedy's choice (the first) unless another beats it with confidence: its paired
    differences (the same sample for every candidate) average more than ``MARGIN`` and
    more than ``Z`` standard errors."""
    best, best_gain = 0, 0.0
    base = values[0]
    for i in range(1, len(values)):
        diffs = [a - b for a, b in zip(values[i], base, strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        stderr = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) if n > 1 else 0.0
        if mean > MARGIN and mean > Z * stderr and mean > best_gain:
            best, best_gain = i, mean
    return best


# --- the candidates and how each plays out -----------------------------------------------------------

Plan = tuple[Command, tuple[list[str], Outcome]]  # the command; the hexes it touches and its outcome


def plans_for(pic: Picture, legal: list[Command], chosen: Command) -> list[Plan]:
    """Greedy's ``chosen`` first, then a few others of the same decision, each with its
    outcome in a sample; fewer than two: nothing to search."""
    kinds = {c.type for c in legal}
    if "crt" in kinds:
        return _crt_plans(pic, legal, chosen) if "crt" in SEARCHED else []
    for kind in ("retreat", "pursue"):
        if kind in kinds:
            return _move_plans(pic, legal, chosen, kind) if kind in SEARCHED else []
    if not pic.phase.endswith("_combat") or pic.view.get("decision"):
        return []
    declaring = next((b for b in pic.view.get("battles", []) if b.get("declaring")), None)
    if declaring is not None:
        return _building_plans(pic, legal, chosen, declaring) if "build" in SEARCHED else []
    return _declare_plans(pic, legal, chosen) if "declare" in SEARCHED else []


def _unchanged(world: Picture, die: int, rng: Chooser) -> Picture:
    return world


def _battle(attacker_ids: list[str], hexes: list[str], codes: list[str] | None = None) -> Outcome:
    """A battle of the side's units on ``hexes``: the result on ``codes`` (the preview's
    table) or else on the better CRT at the column the sampled picture gives."""
    def outcome(world: Picture, die: int, rng: Chooser) -> Picture:
        if codes is not None:
            code = codes[die - 1]
        else:
            attackers = [u for u in world.own if u.id in attacker_ids]
            code = _code(world, attackers, hexes, die)
            if code is None:
                return world
        return lookahead.resolve(world, attacker_ids, hexes, code, rng)
    return outcome


def _code(world: Picture, attackers: list[Unit], hexes: list[str], die: int) -> str | None:
    fighters = [a for a in attackers if a.kind != "supply"]
    defenders = [u for h in hexes if h in world.stacks for u in world.stacks[h].units]
    if not fighters or not defenders:
        return None
    fortified = any(world.stacks[h].fortified for h in hexes if h in world.stacks)
    hqs = world.own_hq()
    _, table = odds.battle(world, world.side, fighters, defenders, hexes, fortified, hqs)
    net = odds.shifts(world, world.side, fighters, defenders, hexes, fortified, hqs)
    column = tables.combat_column(sum(a.attack for a in fighters),
                                  max(1, sum(d.defence for d in defenders if d.kind != "supply")), net)
    return tables.CRTS[table].lookup(column, die)


def _crt_plans(pic: Picture, legal: list[Command], chosen: Command) -> list[Plan]:
    """14.4, the side's own battle: both tables, each result as the preview gives it."""
    pv: dict[str, Any] = pic.view.get("battle_preview") or {}
    if pv.get("attacker") != pic.side or pv.get("chooser", pic.side) != pic.side or chosen.type != "crt":
        return []
    ids = [a[0] for a in pv["attackers"]]
    hexes = list(pv["hexes"])
    cmds = [chosen] + [c for c in legal if c.type == "crt" and c != chosen]
    touched = hexes + [u.hex for u in pic.own if u.id in ids]
    return [(c, (touched, _preview_battle(pv, ids, hexes, pv["tables"][c.data["table"]]))) for c in cmds]


def _preview_battle(pv: dict[str, Any], ids: list[str], hexes: list[str], codes: list[str]) -> Outcome:
    """The preview names the defenders: a one-hex battle is fought against them, not a guess."""
    play = _battle(ids, hexes, codes)
    if len(hexes) != 1:
        return play

    def outcome(world: Picture, die: int, rng: Chooser) -> Picture:
        h = hexes[0]
        s = world.stacks.get(h)
        if s is not None and not s.known:
            units = tuple(spec_unit(name, world.enemy, h) for _, name in pv["defenders"])
            world = lookahead.with_units(world, world.own, {**world.stacks, h: replace(s, units=units)})
        return play(world, die, rng)
    return outcome


def _building_plans(pic: Picture, legal: list[Command], chosen: Command, declaring: dict[str, Any]) -> list[Plan]:
    """14.2: a unit nobody obliges to attack, added or not, and closing the battle now."""
    units = {u.id: u for u in pic.own}
    if chosen.type not in ("add", "close"):
        return []
    if chosen.type == "add" and (chosen.data["unit"] not in units or _obliged(pic, units[chosen.data["unit"]])):
        return []
    ids = [i for i, _ in declaring["attackers"]]
    hexes = list(declaring["defenders"])
    cmds = [chosen]
    close = next((c for c in legal if c.type == "close"), None)
    if close is not None and close != chosen and ids:
        cmds.append(close)
    others = [c for c in legal if c.type == "add" and c != chosen and c.data["unit"] in units
              and units[c.data["unit"]].combat and not _obliged(pic, units[c.data["unit"]])]
    cmds += others[:CANDIDATES - len(cmds)]
    plans: list[Plan] = []
    for c in cmds:
        joined = ids + ([c.data["unit"]] if c.type == "add" else [])
        touched = hexes + [units[i].hex for i in joined if i in units]
        plans.append((c, (touched, _battle(joined, hexes))))
    return plans


def _declare_plans(pic: Picture, legal: list[Command], chosen: Command) -> list[Plan]:
    """14.11: an attack nobody owes, declared or not (once every owed one is declared)."""
    zoc = _zoc_hexes(pic)
    busy = _busy(pic)
    free = [u for u in pic.own if u.kind != "supply" and u.id not in busy]
    stop = next((c for c in legal if c.type in ("fight", "end_phase")), None)
    if stop is None:
        return []
    optional: list[tuple[float, Command, list[Unit]]] = []
    for c in legal:
        if c.type != "declare" or c.data["hex"] not in pic.stacks:
            continue
        h = c.data["hex"]
        near = [u for u in free if distance_between(u.hex, h) == 1]
        if h in zoc and any(_obliged(pic, u) for u in near):
            return []  # an owed battle is left: greedy's order decides
        fighters = [u for u in near if u.combat]
        if fighters:
            s = pic.stacks[h]
            value = odds.battle(pic, pic.side, fighters, s.units, [h], s.fortified, pic.own_hq())[0]
            optional.append((value, c, fighters))
    if not optional or chosen.type not in ("declare", "fight", "end_phase"):
        return []
    optional.sort(key=lambda x: (-x[0], x[1].data["hex"]))
    first = [x for x in optional if x[1] == chosen]
    rest = [x for x in optional if x[1] != chosen][:CANDIDATES - 2]
    plans: list[Plan] = []
    touched_all: list[str] = []
    for _, c, fighters in first + rest:
        touched = [c.data["hex"]] + [u.hex for u in fighters]
        touched_all += touched
        plans.append((c, (touched, _battle([u.id for u in fighters if u.id], [c.data["hex"]]))))
    stop_plan: Plan = (stop, (touched_all, _unchanged))
    return [stop_plan, *plans] if chosen == stop else [*plans, stop_plan]


def _move_plans(pic: Picture, legal: list[Command], chosen: Command, kind: str) -> list[Plan]:
    """15.3-15.4: the unit greedy moves (or would stop) to its few best places."""
    units = {u.id: u for u in pic.own}
    if chosen.type == kind:
        uid = chosen.data["unit"]
        cmds = [c for c in legal if c.type == kind and c.data["unit"] == uid and c.data.get("to")]
    else:
        cmds = [c for c in legal if c.type == kind and c.data.get("to")]
    cmds = [c for c in cmds if c.data["unit"] in units]
    if not cmds:
        return []
    scorer = Scorer(pic)

    def greedy_worth(c: Command) -> float:
        u = units[c.data["unit"]]
        to = c.data["to"]
        return scorer.place(replace(u, hex=to), to, [o for o in pic.own_at.get(to, []) if o.id != u.id],
                            attacking=False)

    ranked = sorted((c for c in cmds if c != chosen), key=lambda c: (-greedy_worth(c), c.data["to"]))
    picks = [chosen, *ranked[:CANDIDATES - 1]]
    if chosen.type == kind:
        stop = next((c for c in legal if c.type == "stop"), None)
        if stop is not None:
            picks = [chosen, stop, *ranked[:CANDIDATES - 2]]
    touched = sorted({units[c.data["unit"]].hex for c in cmds} | {c.data["to"] for c in cmds})
    return [(c, (touched, _moved(c))) for c in picks]


def _moved(c: Command) -> Outcome:
    def outcome(world: Picture, die: int, rng: Chooser) -> Picture:
        if c.type not in ("retreat", "pursue"):
            return world
        own = [replace(u, hex=c.data["to"]) if u.id == c.data["unit"] else u for u in world.own]
        return lookahead.with_units(world, own, world.stacks)
    return outcome


__all__ = ["PacificBattlesSearch", "confident", "plans_for"]
