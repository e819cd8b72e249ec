"""What a Pacific Battles bot reads from its side's view: its own units whole, the enemy's
stacks as the fog of war leaves them (18.0: where they are, whether they have a ZOC and
are fortified, their units only once examined or face up), the turn, the VP and
Henderson Field.  Nothing else: the map and the counters' printed factors are public
(the board and the forces tables); an unexamined enemy stack is given a typical
strength (``UNKNOWN``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.core.hexes import distance_between
from engine.games.pacific_battles import queries as q
from engine.games.pacific_battles.state import other


@dataclass(frozen=True)
class Unit:
    """One counter as a bot reckons with it (its own, or an enemy one it has seen)."""

    id: str | None
    name: str | None
    side: str
    hex: str
    kind: str  # "infantry", "engineer", "hq", "supply", ...
    attack: int
    defence: int
    battalions: int
    suppressed: bool = False
    support: int = 0  # an HQ's (10.3)
    radius: int = 0
    active: bool = False

    @property
    def combat(self) -> bool:
        return self.kind not in ("hq", "supply") and self.name != "Deception"


# an enemy stack nobody has examined: about a battalion or two of infantry
UNKNOWN = {"attack": 3, "defence": 3, "battalions": 2}
NO_ZOC = {"attack": 0, "defence": 1, "battalions": 1}  # told it has no ZOC: an HQ or supply


def unit_from(d: dict[str, Any], side: str) -> Unit:
    """A unit of the view (own units, or an examined enemy stack's)."""
    name = d.get("unit")
    kind = d.get("kind", "infantry")
    if kind == "supply" or name == "Supply":
        return Unit(d.get("id"), name, side, d.get("hex", ""), "supply", 0, 0, 1, bool(d.get("suppressed")))
    factors = d.get("factors") or [0, 1, 0]
    return Unit(d.get("id"), name, side, d.get("hex", ""), kind, int(factors[0]), int(factors[1]),
                battalions_of(name), bool(d.get("suppressed")), int(d.get("support", 0) or 0),
                int(d.get("radius", 0) or 0), bool(d.get("active", False)))


@cache
def battalions_of(name: str | None) -> int:
    if not name:
        return 1
    try:
        return q.battalions(name)
    except KeyError:
        return 1


@cache
def spec_unit(name: str, side: str, hex_id: str = "") -> Unit:
    """A counter known by name only (a battle's preview names its units)."""
    spec = q.unit_spec(name)
    if spec is None:
        return Unit(None, name, side, hex_id, "supply", 0, 0, 1)
    return Unit(None, name, side, hex_id, spec.kind, spec.attack, spec.defence, battalions_of(name),
                support=spec.support, radius=spec.radius)


@dataclass(frozen=True)
class Stack:
    hex: str
    units: tuple[Unit, ...]
    known: bool  # examined or face up: the units are the real ones
    zoc: bool | None
    fortified: bool

    @property
    def attack(self) -> int:
        return sum(u.attack for u in self.units if u.kind != "supply")

    @property
    def defence(self) -> int:
        return sum(u.defence for u in self.units if u.kind != "supply")


@dataclass
class Picture:
    side: str
    enemy: str
    turn: int
    last_turn: int
    phase: str
    henderson: str | None  # the side with the activated airfield (26.1)
    vp: dict[str, int]
    own: list[Unit]
    own_at: dict[str, list[Unit]]
    stacks: dict[str, Stack]  # enemy hex -> stack
    fortified: set[str]
    view: dict[str, Any] = field(default_factory=dict)

    @property
    def checks_left(self) -> int:
        """Victory checks still to come, this turn's included (4.1 6a)."""
        return max(0, self.last_turn - max(self.turn, 1) + 1)

    def own_hq(self) -> list[Unit]:
        return [u for u in self.own if u.kind == "hq" and u.active and not u.suppressed]

    def enemy_near(self, hex_id: str, radius: int) -> list[Stack]:
        return [s for h, s in self.stacks.items() if distance_between(h, hex_id) <= radius]


def picture(view: dict[str, Any], side: str) -> Picture:
    enemy = other(side)
    own = [unit_from(d, side) for d in view.get("units", []) if d.get("side") == side]
    own_at: dict[str, list[Unit]] = {}
    for u in own:
        own_at.setdefault(u.hex, []).append(u)
    stacks: dict[str, Stack] = {}
    for s in view.get("stacks", []):
        if s.get("side") == side:
            continue
        h = s["hex"]
        if s.get("units"):
            units = tuple(unit_from({**d, "hex": h}, enemy) for d in s["units"])
            known = True
        else:
            guess = NO_ZOC if s.get("zoc") is False else UNKNOWN
            units = (Unit(None, None, enemy, h, "infantry" if guess is UNKNOWN else "hq", guess["attack"],
                          guess["defence"], guess["battalions"]),)
            known = False
        stacks[h] = Stack(h, units, known, s.get("zoc"), bool(s.get("fortified")))
    return Picture(side, enemy, int(view.get("turn") or 0), int(view.get("last_turn") or 7), view.get("phase", ""),
                   view.get("henderson"), dict((k, v.get("vp", 0)) for k, v in view.get("sides", {}).items()),
                   own, own_at, stacks, set(view.get("fortified", [])), view)


@cache
def henderson() -> str:
    return q.henderson_hex()


@cache
def objectives() -> tuple[str, ...]:
    return q.board().objectives


@cache
def terrain_of(hex_id: str) -> str | None:
    return q.board().terrain.get(hex_id)
