"""The exact distribution of an attack's results (§7.6, Tables 9-10), and what each
result costs both sides in units, judged as the losing side would choose (§7.7)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.core.crt import clamp_die
from engine.games.first_blood import queries as q
from engine.games.first_blood import tables


@cache
def distribution(side: str, column: str | None, modifier: int) -> tuple[tuple[str, float], ...]:
    """(result, probability) of an attack by ``side`` at an odds column with a die modifier;
    column None: worse than 1:2, the attackers die without a roll."""
    if column is None:
        return (("AE", 1.0),)
    counts: dict[str, int] = {}
    for die in range(1, 7):
        r = tables.TABLES[side].lookup(column, clamp_die(die + modifier))
        counts[r] = counts.get(r, 0) + 1
    return tuple((r, n / 6) for r, n in sorted(counts.items()))


SCARCITY = {"IJ": 4.0, "US": 1.0}  # 21 IJ battalions against 45 US ones; each IJ one on the map can win (§1)


def unit_value(uid: str) -> float:
    """What a ground unit is worth: its CF, and more for being a unit at all (it holds a
    hex, exerts ZOC and, for the IJ, may win the game on its own, §1)."""
    s = q.spec(uid)
    return s.cf + SCARCITY[s.side]


def _cheapest(units: Iterable[str], n: int) -> float:
    values = sorted(unit_value(u) for u in units)
    return sum(values[:n])


def result_cost(result: str, attackers: list[str], defenders: list[str],
                defender_trapped: bool, attacker_trapped: bool) -> tuple[float, float]:
    """(attacker's loss, defender's loss) in unit values for one result.  A unit that
    must retreat and has nowhere to go is eliminated (§7.9)."""
    att_all, def_all = _cheapest(attackers, len(attackers)), _cheapest(defenders, len(defenders))
    if result == "AE":
        return att_all, 0.0
    if result in ("A1", "A2"):
        n = int(result[1])
        return (att_all if attacker_trapped else _cheapest(attackers, n)), 0.0
    if result == "EX":
        return _cheapest(attackers, 1), def_all if defender_trapped else _cheapest(defenders, 1)
    if result == "DR":
        return 0.0, def_all if defender_trapped else 0.5  # pushed back: a little ground won
    if result == "D1":
        return 0.0, def_all if defender_trapped else _cheapest(defenders, 1) + 0.5
    return 0.0, def_all  # DE


def expected(side: str, column: str | None, modifier: int, attackers: list[str], defenders: list[str],
             defender_trapped: bool = False, attacker_trapped: bool = False) -> tuple[float, float, float]:
    """(attacker's expected loss, defender's expected loss, chance the defenders' hex is
    emptied) of one attack."""
    att = dfn = cleared = 0.0
    for result, p in distribution(side, column, modifier):
        a, d = result_cost(result, attackers, defenders, defender_trapped, attacker_trapped)
        att += p * a
        dfn += p * d
        if result in ("EX", "DR", "D1", "DE"):  # the survivors retreat: the hex is emptied
            cleared += p
    return att, dfn, cleared
