"""The exact distribution of a Pacific Battles battle's results (14.3, the Raid and the
Assault CRT, tables.py) and what each result is worth to the attacker, in victory points
(24.0, the Victory Point Tables) and a little for the counters' future use.

A battle's column is reckoned as the engine does (combat.assess) from what the attacker
may know: its own units and HQs whole, the defenders as seen (an unexamined stack at a
typical strength, picture.UNKNOWN), the terrain, fortifications and suppression.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from engine.bots.pacific_battles.picture import Picture, Unit, henderson, objectives, terrain_of
from engine.core.hexes import distance_between
from engine.games.pacific_battles import tables, victory
from engine.games.pacific_battles.state import other
from engine.games.pacific_battles.terrain import defence_shift

FUTURE = 0.25  # worth of a combat factor kept, besides the VP a loss gives the enemy
ENGINEER = 3.0  # an engineer can activate Henderson Field (26.1) and fortify (20.3)
SUPPLY = 0.6
GROUND = 0.8  # a defender pushed back: ground won
ROUT = 1.5
SUPPRESS = 0.5  # a suppressed unit exerts no ZOC, shifts the next battle (8.0)


def loss_vp(u: Unit) -> float:
    """The VP the enemy scores for eliminating ``u`` (the Victory Point Tables)."""
    scorer = other(u.side)
    if u.kind == "supply":
        return 0.0
    if u.kind == "hq":
        return float(victory.ELIMINATED[scorer]["hq"])
    return float(victory.ELIMINATED[scorer]["battalion"] * u.battalions)


def unit_value(u: Unit) -> float:
    """What losing ``u`` costs its side: the enemy's VP and what it could still do."""
    if u.kind == "supply":
        return SUPPLY
    value = loss_vp(u) + FUTURE * (u.attack + u.defence)
    if u.kind == "engineer":
        value += ENGINEER
    return value


def one_battalion(units: Sequence[Unit]) -> float:
    """The cheapest battalion equivalent of ``units`` (15.22: a regiment breaks down)."""
    best = None
    for u in units:
        if u.kind == "supply":
            continue
        per = unit_value(u) / max(1, u.battalions) if u.battalions > 1 else unit_value(u)
        best = per if best is None else min(best, per)
    return best or 0.0


def stake(pic: Picture, hexes: Iterable[str], holder: str) -> float:
    """What taking ``hexes`` from ``holder`` is worth: Henderson Field held with an engineer
    scores five VP a check (26.1), a Japanese objective one (R-PB-24.6)."""
    value = 0.0
    for h in hexes:
        if h == henderson():
            value += 2.0 + (5.0 * pic.checks_left if pic.henderson == holder else 1.0 * pic.checks_left)
        if h in objectives() and holder == "Japanese":
            value += 1.0 * pic.checks_left
    return value


def shifts(pic: Picture, side: str, attackers: Sequence[Unit], defenders: Sequence[Unit], hexes: Sequence[str],
           fortified: bool, hqs: Sequence[Unit]) -> int:
    """The net column shift (14.3): the best HQ in range, suppression, terrain, fortification."""
    net = 0
    support = [h.support for h in hqs if any(distance_between(h.hex, a.hex) <= h.radius for a in attackers)]
    if support:
        net += max(support)
    if any(a.suppressed for a in attackers):
        net -= tables.SUPPRESSED_SHIFT
    if any(d.suppressed for d in defenders):
        net += tables.SUPPRESSED_SHIFT
    net -= max((defence_shift(terrain_of(h)) for h in hexes if terrain_of(h)), default=0)
    if fortified:
        net -= tables.FORTIFICATION_SHIFT[other(side)]
    return net


@cache
def _column(attack: int, defence: int, net: int) -> str:
    return tables.combat_column(attack, max(1, defence), net)


def result_value(code: str, attackers: Sequence[Unit], defenders: Sequence[Unit], capture: float) -> float:
    """One result's worth to the attacker (positive: good for it)."""
    r = tables.RESULTS[code]
    value = 0.0
    for loss, units, sign in ((r.attacker_loss, attackers, -1.0), (r.defender_loss, defenders, 1.0)):
        if loss == "all":
            value += sign * sum(unit_value(u) for u in units)
        elif loss == "half":
            value += sign * 0.5 * sum(unit_value(u) for u in units if u.kind != "supply")
        elif loss == "one":
            value += sign * one_battalion(units)
    if r.retreat:
        role, length = r.retreat.split()
        if role == "attacker":
            value -= GROUND
        else:
            value += (ROUT if length == "rout" else GROUND) + capture
    elif r.defender_loss == "all":
        value += capture
    if r.suppress == "attacker":
        value -= SUPPRESS
    elif r.suppress == "defender":
        value += SUPPRESS
    return value


def table_values(column: str, attackers: Sequence[Unit], defenders: Sequence[Unit],
                 capture: float) -> dict[str, float]:
    """The expected worth to the attacker of each CRT at ``column`` (each die 1/6)."""
    return {name: sum(result_value(crt.lookup(column, die), attackers, defenders, capture) for die in range(1, 7)) / 6
            for name, crt in tables.CRTS.items()}


def battle(pic: Picture, side: str, attackers: Sequence[Unit], defenders: Sequence[Unit], hexes: Sequence[str],
           fortified: bool = False, hqs: Sequence[Unit] = ()) -> tuple[float, str]:
    """(the expected worth to ``side`` attacking, the better CRT): the attacker chooses (14.4)."""
    fighters = [a for a in attackers if a.kind != "supply"]
    if not fighters or not defenders:
        return 0.0, "raid"
    attack = sum(a.attack for a in fighters)
    defence = sum(d.defence for d in defenders if d.kind != "supply")
    column = _column(attack, defence, shifts(pic, side, fighters, defenders, hexes, fortified, hqs))
    capture = stake(pic, hexes, other(side))
    values = table_values(column, fighters, defenders, capture)
    best = max(values, key=lambda k: (values[k], k == "raid"))
    return values[best], best
