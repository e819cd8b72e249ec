"""Combat results tables indexed by an odds column and a die result.

Columns are ordered worst-for-the-attacker first, so a column shift is an index
shift clamped to the table (Pacific Battles' percentage columns and First
Blood's ratio columns both fit).  Ratios are always rounded in the defender's
favour.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class RatioColumn:
    """Attack:defence ``a:d`` column, e.g. ``RatioColumn(1, 2)`` is 1:2."""

    attack: int
    defence: int

    @property
    def label(self) -> str:
        return f"{self.attack}:{self.defence}"

    @property
    def value(self) -> Fraction:
        return Fraction(self.attack, self.defence)


@dataclass(frozen=True)
class CombatTable:
    name: str
    columns: tuple[str, ...]
    rows: dict[int, tuple[str, ...]]  # die result -> one result per column
    reconstructed_rows: frozenset[int] = frozenset()

    def lookup(self, column: str, die: int) -> str:
        """The result for a die total, clamped to the table's rows."""
        die = clamp_die(die, min(self.rows), max(self.rows))
        return self.rows[die][self.columns.index(column)]

    def shift(self, column: str, shifts: int) -> str:
        i = min(max(self.columns.index(column) + shifts, 0), len(self.columns) - 1)
        return self.columns[i]


def ratio_column(attack: int, defence: int, columns: list[RatioColumn]) -> RatioColumn | None:
    """The best column whose ratio the attack reaches (defender's favour);
    ``None`` if it falls below the lowest column."""
    if defence <= 0:
        return columns[-1]
    ratio = Fraction(attack, defence)
    best = None
    for col in columns:
        if ratio >= col.value:
            best = col
    return best


def percentage_column(attack: int, defence: int, bounds: list[tuple[int, str]]) -> str:
    """Percentage columns: ``bounds`` lists (lowest percentage, label) ascending."""
    pct = 10**9 if defence <= 0 else attack * 100 // defence
    label = bounds[0][1]
    for low, name in bounds:
        if pct >= low:
            label = name
    return label


def clamp_die(value: int, low: int = 1, high: int = 6) -> int:
    return min(max(value, low), high)
