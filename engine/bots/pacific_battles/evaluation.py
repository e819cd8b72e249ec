"""Scores of places for a Pacific Battles side's units, from its own view.

A unit's worth in a hex is what the hex does for the side's victory points (24.0, 25.3,
the Victory Point Tables: five VP a check for an activated airfield on Henderson Field,
which takes a combat effective engineer there, 26.1; one VP a check for each objective
hex the Japanese occupy, which an Allied unit there denies), plus what its coming
battles are expected to give (the exact distribution of both CRTs' results, odds.py),
less its stack's exposure to the enemy stacks that could reach it (the enemy choosing
its better CRT against it).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.pacific_battles import odds
from engine.bots.pacific_battles.picture import Picture, Unit, henderson, objectives
from engine.core.hexes import distance_between

EXPOSURE = 0.6  # how much of a threatened stack's expected loss counts
REACH = 2  # enemy stacks this near may attack the hex next (10 MP, the terrain, ZOC)
FAR = 30
HQ_FRONT = {0: 8.0, 1: 8.0, 2: 3.0}  # an HQ lost gives the enemy four or five VP


class Scorer:
    """Place values for one decision (the exposure of a stack is reckoned once per hex)."""

    def __init__(self, pic: Picture) -> None:
        self.pic = pic
        self._exposure: dict[tuple[str, tuple[Unit, ...]], float] = {}
        self.enemy_hexes = list(pic.stacks)
        self.japanese_objectives = set(objectives())
        self.flipped = _flipped(pic)

    # --- the parts ------------------------------------------------------------------------
    def goal(self, u: Unit, h: str, others: Sequence[Unit]) -> float:
        pic = self.pic
        hf = henderson()
        d = distance_between(h, hf)
        checks = pic.checks_left
        garrison = sum(o.battalions for o in others if o.combat)
        if u.kind == "engineer":
            if h == hf:
                return 5.0 * checks + 6.0 if not any(o.kind == "engineer" for o in others) else 1.0
            return -1.0 * min(d, FAR)
        if u.kind == "hq":  # in support range of the units (10.3), out of the enemy's reach
            near = min((distance_between(h, o.hex) for o in pic.own if o.combat), default=d)
            foe = min((distance_between(h, e) for e in self.enemy_hexes), default=FAR)
            return -0.4 * max(0, near - 2) - 0.1 * min(d, FAR) - HQ_FRONT.get(foe, 0.0)
        if u.kind == "supply":
            return -0.2 * min(d, FAR)
        value = 0.0
        objective_here = h in self.japanese_objectives and not any(o.combat for o in others)
        if pic.side == "Japanese":
            open_goals = [t for t in self.japanese_objectives if not any(o.combat for o in pic.own_at.get(t, ()))
                          and t not in pic.stacks]
            value -= 0.3 * min([d, *(distance_between(h, t) for t in open_goals)])
            if objective_here:
                value += 1.0 * checks + 1.0
        else:
            near = min((distance_between(h, e) for e in self.enemy_hexes), default=FAR)
            value -= 0.25 * min(near, 15) + 0.15 * min(d, FAR)
            if objective_here:
                value += 1.0 * checks + 0.5  # a Japanese objective denied
        if h == hf:
            value += 4.0 if garrison < 3 else 1.0
        return value

    def prospects(self, u: Unit, h: str, others: Sequence[Unit]) -> float:
        """What ``u`` adds to the attacks from ``h`` on the enemy stacks next to it (14.11:
        a unit in an enemy ZOC attacks; shared between the stacks it touches)."""
        pic = self.pic
        near = [pic.stacks[e] for e in self.enemy_hexes if distance_between(h, e) == 1]
        if not near:
            return 0.0
        if not u.combat or u.attack == 0:
            return -2.0 if u.kind != "supply" else -1.0  # an HQ or engineer dragged into a battle
        hqs = pic.own_hq()
        group = [o for o in others if o.combat]
        total = 0.0
        for s in near:
            before = odds.battle(pic, pic.side, group, s.units, [s.hex], s.fortified, hqs)[0] if group else 0.0
            after = odds.battle(pic, pic.side, [*group, u], s.units, [s.hex], s.fortified, hqs)[0]
            total += after - before
        return total / len(near)

    def exposure(self, h: str, stack: Sequence[Unit]) -> float:
        """The expected loss (>= 0) of ``stack`` in ``h`` if the enemy stacks near it attacked."""
        defenders = tuple(sorted((u for u in stack if u.kind != "supply"), key=lambda u: (u.kind, u.name or "")))
        if not defenders:
            return 0.0
        key = (h, defenders)
        if key not in self._exposure:
            pic = self.pic
            foes = [u for e in self.enemy_hexes if distance_between(h, e) <= REACH for u in pic.stacks[e].units]
            if not foes:
                self._exposure[key] = 0.0
            else:
                value, _ = odds.battle(self.flipped, pic.enemy, foes, defenders, [h], h in pic.fortified)
                self._exposure[key] = max(0.0, value)
        return self._exposure[key]

    # --- the whole --------------------------------------------------------------------------
    def place(self, u: Unit, h: str, others: Sequence[Unit], attacking: bool = True) -> float:
        """The worth of ``u`` ending in ``h`` with ``others`` of its side there."""
        value = self.goal(u, h, others)
        value -= EXPOSURE * (self.exposure(h, [*others, u]) - self.exposure(h, others))
        if attacking:
            value += self.prospects(u, h, others)
        return value


def _flipped(pic: Picture) -> Picture:
    """The picture as the enemy's attack sees it (the stake of a hex is the holder's)."""
    from dataclasses import replace

    return replace(pic, side=pic.enemy, enemy=pic.side)
