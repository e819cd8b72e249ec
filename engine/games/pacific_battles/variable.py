"""35.3-35.4 (optional): each side's start force by a secret die, from the reconstructed
table in ``data/variable_forces.toml``."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.core.events import Command
from engine.games.pacific_battles import tell
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


OWED = "start_force"  # the decision each side owes before play starts (35.4)
ROLL = "roll_start_force"  # the command that answers it


def owe(em: Any) -> None:
    """35.4 "Prior to start of play, each player rolls one die": each side's first decision.
    (A die is rolled by a decision, never as the game is made: a game record keys every die
    with both players' entropy, which comes after the creation, engine/core/seeds.py.)"""
    for side in SIDES:
        tell.owe(em, {"side": side, "kind": OWED})


def gen_roll(state: Any, side: str) -> Iterator[Command]:
    yield Command(ROLL)


def do_roll(em: Any, data: dict[str, Any], side: str) -> None:
    """The side's die, and the start force it gives, in secret (35.4: "This is done in secret")."""
    die = em.roll()
    row = table()[side][die]
    tell.secret(em, "start_force", side, {"side": side}, side=side, die=die, note=row.note,
                changes=[list(c) for c in row.changes])
    em.emit("decision_made", side)
