"""A battle's results played out on a copy of the side's picture, and the position after.

Greedy values a result by fixed amounts (``odds.result_value``: the VP of the losses, so
much for ground won); here a result is applied to the picture instead (losses taken
cheapest first, retreats walked away from the enemy, a vacated hex pursued into) and the
position after it scored whole: every counter's worth (its VP and use, ``odds.unit_value``)
and, near the battle, where the side's stacks stand (``Scorer.goal``), how exposed they
are to the enemy stacks left (``Scorer.exposure``) and the stakes the enemy still holds.
A result that frees a threatened stack or takes Henderson Field from the enemy is worth
what the position says, not a constant.

What is hidden stays hidden: an unexamined enemy stack is drawn, for each sample, from the
enemy's printed combat counters (public, the forces tables), and every die comes from the
bot's own generator.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache

from engine.bots.pacific_battles import odds
from engine.bots.pacific_battles.evaluation import EXPOSURE, Scorer
from engine.bots.pacific_battles.picture import Picture, Stack, Unit, spec_unit, terrain_of
from engine.bots.rng import Chooser
from engine.core.hexes import distance_between, neighbor_ids
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles import tables
from engine.games.pacific_battles.retreat import rout_length

RADIUS = 3  # stacks this near a battle are scored for where they stand (the rest is the same for every choice)


def with_units(pic: Picture, own: list[Unit], stacks: dict[str, Stack]) -> Picture:
    own_at: dict[str, list[Unit]] = {}
    for u in own:
        own_at.setdefault(u.hex, []).append(u)
    return replace(pic, own=own, own_at=own_at, stacks=stacks)


@cache
def _pool(side: str) -> tuple[str, ...]:
    """The side's printed combat counters (the forces tables are public)."""
    return tuple(sorted(s.name for s in q.forces().units.values()
                        if s.side == side and s.kind not in ("hq", "aa", "amphibious") and s.attack > 0))


def sample_hidden(pic: Picture, rng: Chooser) -> Picture:
    """Each unexamined enemy stack with a ZOC as one or two counters drawn from the
    enemy's printed combat counters (a stack told to have no ZOC keeps its HQ guess)."""
    pool = _pool(pic.enemy)
    stacks = dict(pic.stacks)
    for h, s in pic.stacks.items():
        if s.known or s.zoc is False or not pool:
            continue
        n = 1 + int(rng.unit() * 2)
        stacks[h] = replace(s, units=tuple(spec_unit(rng.pick(list(pool)), pic.enemy, h) for _ in range(n)))
    return with_units(pic, pic.own, stacks)


def hidden(pic: Picture) -> bool:
    return any(not s.known and s.zoc is not False for s in pic.stacks.values())


# --- losses (15.2) --------------------------------------------------------------------------------

def _factors(u: Unit) -> int:
    return u.attack + u.defence


def _lose_one(units: list[Unit]) -> list[Unit]:
    """15.22: one battalion equivalent, the cheapest; a regiment breaks down (loses a third)."""
    fighters = [u for u in units if u.kind != "supply"]
    if not fighters:
        return units
    u = min(fighters, key=lambda x: (odds.unit_value(x) / max(1, x.battalions), x.name or ""))
    out = [x for x in units if x is not u]
    if u.battalions > 1:
        keep = (u.battalions - 1) / u.battalions
        out.append(replace(u, attack=int(u.attack * keep), defence=max(1, int(u.defence * keep)),
                           battalions=u.battalions - 1))
    return out


def _lose_half(units: list[Unit]) -> list[Unit]:
    """15.23: half the combat factors, the cheapest counters first."""
    need = sum(_factors(u) for u in units if u.kind != "supply") / 2
    out = list(units)
    while need > 0 and any(u.kind != "supply" for u in out):
        before = sum(_factors(u) for u in out if u.kind != "supply")
        out = _lose_one(out)
        need -= before - sum(_factors(u) for u in out if u.kind != "supply")
    return out


def _lose(units: list[Unit], loss: str) -> list[Unit]:
    if loss == "all":
        return []
    if loss == "half":
        return _lose_half(units)
    if loss == "one":
        return _lose_one(units)
    return units


# --- the battle -----------------------------------------------------------------------------------

def _land(h: str) -> bool:
    return terrain_of(h) is not None


def _away(h: str, foes: Sequence[str], blocked: set[str], length: int) -> str | None:
    """A retreat of ``length`` hexes from ``h``, each step as far from ``foes`` as it goes
    (15.3); None: nowhere to go (the unit is eliminated)."""
    at = h
    for _ in range(length):
        steps = [n for n in neighbor_ids(at) if _land(n) and n not in blocked and n != h]
        if not steps:
            return None
        at = max(steps, key=lambda n: (min((distance_between(n, f) for f in foes), default=9), n))
    return at


def resolve(pic: Picture, attacker_ids: Iterable[str], hexes: Sequence[str], code: str, rng: Chooser) -> Picture:
    """The result ``code`` of the side's battle from its units ``attacker_ids`` on the enemy
    stacks in ``hexes``, applied to a copy of ``pic`` (rout dice from ``rng``)."""
    r = tables.RESULTS[code]
    ids = set(attacker_ids)
    attackers = [u for u in pic.own if u.id in ids]
    rest = [u for u in pic.own if u.id not in ids]
    stacks = dict(pic.stacks)
    attackers = _lose(attackers, r.attacker_loss)
    for h in hexes:
        s = stacks.get(h)
        if s is None:
            continue
        left = _lose(list(s.units), r.defender_loss)
        if left:
            stacks[h] = replace(s, units=tuple(left))
        else:
            del stacks[h]
    if r.suppress == "attacker":
        attackers = [replace(u, suppressed=True) for u in attackers]
    elif r.suppress == "defender":
        for h in hexes:
            if h in stacks:
                stacks[h] = replace(stacks[h], units=tuple(replace(u, suppressed=True) for u in stacks[h].units))
    if r.retreat.startswith("attacker"):
        attackers = _retreat_own(pic, attackers, rest, stacks)
    elif r.retreat.startswith("defender"):
        foes = [u.hex for u in attackers] or list(hexes)
        blocked = {u.hex for u in pic.own} | set(hexes)
        for h in hexes:
            s = stacks.pop(h, None)
            if s is None or s.fortified and r.retreat == "defender 1":  # 21.2: a fortification holds
                if s is not None:
                    stacks[h] = s
                continue
            for u in s.units:
                length = rout_length(1 + int(rng.unit() * 6)) if r.retreat == "defender rout" else int(r.retreat[-1])
                to = _away(h, foes, blocked, length)
                if to is not None:
                    old = stacks.get(to)
                    units = (*old.units, replace(u, hex=to)) if old else (replace(u, hex=to),)
                    stacks[to] = Stack(to, units, old.known if old else s.known, True, old.fortified if old else False)
    out = with_units(pic, rest + attackers, stacks)
    if r.pursuit and attackers:
        out = _pursue(out, attackers, [h for h in hexes if h not in stacks])
    return out


def _retreat_own(pic: Picture, attackers: list[Unit], rest: list[Unit], stacks: dict[str, Stack]) -> list[Unit]:
    """15.3: each attacker one hex back, to the place greedy would score best."""
    scorer = Scorer(with_units(pic, rest, stacks))
    out = []
    for u in attackers:
        steps = [n for n in neighbor_ids(u.hex) if _land(n) and n not in stacks]
        if not steps:
            continue  # nowhere to go: eliminated
        best = max(steps, key=lambda n: (scorer.place(replace(u, hex=n), n, [o for o in rest if o.hex == n],
                                                      attacking=False), n))
        out.append(replace(u, hex=best))
    return out


def _pursue(pic: Picture, attackers: list[Unit], vacated: list[str]) -> Picture:
    """15.4: the attacker that gains most by it moves into a vacated hex (if one gains)."""
    if not vacated:
        return pic
    scorer = Scorer(pic)
    best: tuple[float, str, str] | None = None
    for u in attackers:
        if not u.combat:
            continue
        stay = scorer.place(u, u.hex, [o for o in pic.own_at.get(u.hex, []) if o.id != u.id], attacking=False)
        for h in vacated:
            gain = scorer.place(replace(u, hex=h), h, pic.own_at.get(h, []), attacking=False) - stay
            if gain > 0 and (best is None or (gain, u.id or "", h) > best):
                best = (gain, u.id or "", h)
    if best is None:
        return pic
    own = [replace(u, hex=best[2]) if u.id == best[1] else u for u in pic.own]
    return with_units(pic, own, pic.stacks)


# --- the position ----------------------------------------------------------------------------------

def value(pic: Picture, around: Sequence[str]) -> float:
    """The position for the side: every counter's worth (the enemy's counted against it),
    and near ``around`` its stacks' places and exposure and the stakes the enemy holds."""
    material = sum(odds.unit_value(u) for u in pic.own)
    material -= sum(odds.unit_value(u) for s in pic.stacks.values() for u in s.units)
    scorer = Scorer(pic)

    def near(h: str) -> bool:
        return any(distance_between(h, a) <= RADIUS for a in around)

    place = 0.0
    for h, units in pic.own_at.items():
        if not near(h):
            continue
        for i, u in enumerate(units):
            place += scorer.goal(u, h, units[:i] + units[i + 1:])
        place -= EXPOSURE * scorer.exposure(h, units)
    for h in pic.stacks:
        if near(h):
            place -= odds.stake(pic, [h], pic.enemy)
    return material + place
