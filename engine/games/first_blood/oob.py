"""Orders of battle: every counter, its factors and its arrival turn.

Loaded from ``data/oob.toml`` (a reconstruction: the OOB sheets are not in the
rulebook) and validated on load.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"

# §4: fifteen turns, each a third of a month.
TURNS = (
    "Sep I", "Sep II", "Sep III", "Oct I", "Oct II", "Oct III", "Nov I", "Nov II",
    "Nov III", "Dec I", "Dec II", "Dec III", "Jan I", "Jan II", "Jan III",
)
LAST_TURN = len(TURNS)

# Table 3 (NATO frames); "artillery"-like types may carry a range (§7.5).
GROUND_TYPES = (
    "infantry", "machine_gun", "raiders", "airborne", "defence", "marines", "artillery",
    "mountain_artillery", "motorised_artillery", "armoured", "reconnaissance",
    "amphibious", "anti_air", "anti_tank", "engineer", "police", "labour",
)
ARTILLERY_TYPES = ("artillery", "mountain_artillery", "motorised_artillery")
KINDS = {
    "US": ("ground", "fighter", "bomber", "fighter_bomber"),  # Table 2: USAF fighter, bomber, both
    "IJ": ("ground", "fighter", "bomber", "destroyer"),  # IJAAF fighter/bomber, IJN destroyer
}


def turn_name(turn: int) -> str:
    return "set-up" if turn == 0 else TURNS[turn - 1]


def turn_number(name: str) -> int:
    if name == "start":
        return 0
    try:
        return TURNS.index(name) + 1
    except ValueError:
        raise ValueError(f"unknown turn {name!r}; expected 'start' or one of {TURNS}") from None


@dataclass(frozen=True)
class UnitSpec:
    id: str
    side: str
    name: str
    kind: str  # ground | fighter | bomber | fighter_bomber | destroyer
    type: str  # Table 3 type for ground units, else the kind
    cf: int
    mf: int
    range: int  # artillery remote-fire range, counting both hexes (§7.5); 0 = none
    arrives: int  # 0 = at start, else turn number
    note: str = ""

    @property
    def is_ground(self) -> bool:
        return self.kind == "ground"

    @property
    def is_artillery(self) -> bool:
        return self.range > 0


def parse_oob(raw: dict) -> dict[str, UnitSpec]:
    units: dict[str, UnitSpec] = {}
    for u in raw["unit"]:
        uid, side, kind = u["id"], u["side"], u["kind"]
        if uid in units:
            raise ValueError(f"oob: duplicate unit id {uid}")
        if side not in KINDS or kind not in KINDS[side]:
            raise ValueError(f"oob: {uid}: side {side!r} cannot have kind {kind!r}")
        utype = u.get("type", kind)
        cf, mf, rng = int(u.get("cf", 0)), int(u.get("mf", 0)), int(u.get("range", 0))
        if kind == "ground":
            if utype not in GROUND_TYPES:
                raise ValueError(f"oob: {uid}: unknown ground type {utype!r}")
            if cf <= 0 or mf <= 0:
                raise ValueError(f"oob: {uid}: a ground unit needs CF and MF above 0")
            if rng and utype not in ARTILLERY_TYPES:
                raise ValueError(f"oob: {uid}: only artillery has a range")
            if rng == 1:
                raise ValueError(f"oob: {uid}: range 1 would be the firing hex only")
        elif cf or mf or rng:
            raise ValueError(f"oob: {uid}: air and naval units have no CF, MF or range")
        arrives = turn_number(u["arrives"])
        if side == "IJ" and kind != "ground" and arrives == 0:
            raise ValueError(f"oob: {uid}: the IJ has no naval or air units at start")
        units[uid] = UnitSpec(uid, side, u["name"], kind, utype, cf, mf, rng, arrives,
                              u.get("note", ""))
    return units


@cache
def load_oob(path: Path = DATA / "oob.toml") -> dict[str, UnitSpec]:
    with open(path, "rb") as fh:
        return parse_oob(tomllib.load(fh))
