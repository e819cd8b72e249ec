"""The forces of Pacific Battles: Guadalcanal: counters, reinforcement groups, command
markers and the scenario's numbers, from ``data/forces.toml`` (a reconstruction where
the rulebook is silent; every entry says which), validated on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data" / "forces.toml"
SIDES = ("Allied", "Japanese")
KINDS = ("infantry", "snlf", "raider", "para", "engineer", "armor", "aa", "amphibious", "recon", "hq", "deception")
# Battalion equivalents of a size (15.23, 24.0 VP, 7.5 refit): a regiment is three.
BATTALIONS = {"I": 1, "II": 1, "III": 3, "X": 1, "XX": 1, "XXX": 1, "XXXX": 1, "-": 0}



@dataclass(frozen=True)
class UnitSpec:
    name: str
    side: str
    kind: str
    size: str
    attack: int
    defence: int
    movement: int
    group: str
    mechanised: bool = False
    support: int = 0  # HQ support value (10.1)
    radius: int = 0  # HQ support radius (10.4)
    breaks: tuple[str, int] | None = None  # (battalion counter, how many) (26.7)
    corps: str = ""  # USMC, Army, Navy: breakdowns do not mix them (26.7)

    @property
    def infiltrates(self) -> bool:
        """13.5: all Japanese infantry, and Allied commando and raider units."""
        return (self.side == "Japanese" and self.kind in ("infantry", "snlf")) or self.kind == "raider"

    @property
    def battalions(self) -> int:
        if self.breaks is not None:
            return self.breaks[1]
        return BATTALIONS[self.size]


DECEPTION = "Deception"  # optional 34.1-34.4 and 35.2: a marker that moves like a unit and is nothing


@cache
def deception_spec(side: str) -> UnitSpec:
    """34.3: "Deception markers have a movement factor": [designed] their side's battalions'
    (10 Japanese, 8 US, 26.7), non-mechanised; no factors, no stacking, no ZOC."""
    return UnitSpec(DECEPTION, side, "deception", "-", 0, 0, 10 if side == "Japanese" else 8, "deception")


@dataclass(frozen=True)
class Group:
    name: str
    side: str
    turn: int  # 0: only when its marker is played
    interdiction: bool  # 26.6: may be interdicted
    source: str
    marker: str = ""
    vp_each: int = 0  # 25.6d, 25.7d: VP paid for each unit
    air: int = 0  # air strikes that come with the group


@dataclass(frozen=True)
class Marker:
    name: str
    side: str
    count: int
    when: str
    after: str
    held: int = 0  # in the player's hand at the start (25.4d)


@dataclass(frozen=True, eq=False)
class Forces:
    units: dict[str, UnitSpec]
    battalion: dict[str, UnitSpec]  # the breakdown counters (26.7)
    groups: dict[str, Group]
    markers: dict[str, dict[str, Marker]]  # side -> name -> marker
    scenarios: dict[str, dict[str, Any]]
    command: dict[str, int]
    air: dict[str, dict[str, int]]

    def of_group(self, group: str) -> list[UnitSpec]:
        return [u for u in self.units.values() if u.group == group]

    def pool(self, side: str) -> list[str]:
        """The command markers that start in ``side``'s pool (5.1), one name per marker."""
        return [m.name for m in self.markers[side].values() for _ in range(m.count - m.held)]

    def hand(self, side: str) -> list[str]:
        return [m.name for m in self.markers[side].values() for _ in range(m.held)]


def _unit(name: str, d: dict[str, Any]) -> UnitSpec:
    a, df, mv = d["factors"]
    breaks = (d["breaks"][0], int(d["breaks"][1])) if "breaks" in d else None
    return UnitSpec(name, d["side"], d["kind"], d["size"], a, df, mv, d["group"], d.get("mechanised", False),
                    d.get("support", 0), d.get("radius", 0), breaks, d.get("corps", ""))


def _build(spec: dict[str, Any]) -> Forces:
    units = {n: _unit(n, d) for n, d in spec["units"].items()}
    battalion = {n: UnitSpec(n, d["side"], "infantry", "II", *d["factors"], group="breakdown",
                             corps=d.get("corps", "")) for n, d in spec["breakdown"].items()}
    groups = {n: Group(n, d["side"], d["turn"], d["interdiction"], d["source"], d.get("marker", ""),
                       d.get("vp_each", 0), d.get("air", 0)) for n, d in spec["groups"].items()}
    markers = {side: {n: Marker(n, side, d["count"], d["when"], d["after"], d.get("held", 0))
                      for n, d in spec["markers"][side].items()} for side in SIDES}
    forces = Forces(units, battalion, groups, markers, spec["scenarios"], dict(spec["command"]),
                    {k: dict(v) for k, v in spec["air"].items()})
    _validate(forces)
    return forces


def _validate(f: Forces) -> None:
    for u in f.units.values():
        assert u.side in SIDES and u.kind in KINDS and u.size in BATTALIONS, u
        assert u.group in f.groups and f.groups[u.group].side == u.side, u
        assert (u.kind == "hq") == (u.support > 0 and u.radius > 0), f"{u.name}: only HQs support"
        if u.breaks is not None:
            bn = f.battalion[u.breaks[0]]
            assert bn.side == u.side and (not bn.corps or bn.corps == u.corps), f"{u.name} breaks into {bn.name}"
    for g in f.groups.values():
        assert g.turn > 0 or g.marker or g.name == "start", g
        assert not g.marker or g.marker in f.markers[g.side], g


@cache
def load_forces() -> Forces:
    with DATA.open("rb") as fh:
        return _build(tomllib.load(fh))
