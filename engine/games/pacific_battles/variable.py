"""35.3-35.4 (optional): each side's start force by a secret die, from the reconstructed
table in ``data/variable_forces.toml``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from engine.games.pacific_battles.forces import SIDES, load_forces

DATA = Path(__file__).parent / "data" / "variable_forces.toml"


@dataclass(frozen=True)
class Row:
    note: str
    changes: tuple[tuple[str, int], ...]  # (unit, the turn it now arrives; 0: in the start force)


@cache
def table() -> dict[str, dict[int, Row]]:
    with DATA.open("rb") as fh:
        spec = tomllib.load(fh)
    out = {side: {int(die): Row(r["note"], tuple((u, int(t)) for u, t in r["changes"]))
                  for die, r in spec[side].items()} for side in SIDES}
    units = load_forces().units
    for side, rows in out.items():
        assert sorted(rows) == [1, 2, 3, 4, 5, 6], side
        for row in rows.values():
            for unit, _ in row.changes:
                assert units[unit].side == side, unit
    return out
