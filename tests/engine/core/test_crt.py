"""engine.core.crt: odds columns rounded in the defender's favour, table lookups, shifts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.core.crt import CombatTable, RatioColumn, clamp_die, percentage_column, ratio_column
from engine.games.first_blood import tables
from engine.games.first_blood.tables import COLUMNS, odds

# §7.6 with attack 12 (first-blood-facts.md): expected column label per defence.
EXPECTED_12 = {d: None for d in range(25, 40)}
EXPECTED_12 |= {d: "1:2" for d in range(13, 25)}
EXPECTED_12 |= {d: "1:1" for d in range(7, 13)}
EXPECTED_12 |= {d: "2:1" for d in (5, 6)}
EXPECTED_12 |= {d: "3:1" for d in range(1, 5)}


@pytest.mark.parametrize(("defence", "label"), sorted(EXPECTED_12.items()))
def test_ratio_column_attack_12(defence: int, label: str | None) -> None:
    col = ratio_column(12, defence, COLUMNS)
    assert (None if col is None else col.label) == label


@pytest.mark.parametrize(("defence", "label"), sorted(EXPECTED_12.items()))
def test_odds_attack_12(defence: int, label: str | None) -> None:
    column, high = odds(12, defence)
    assert column == label
    assert high is (defence <= 3)  # "4:1 or better" (Table 8): D 3 or less with A = 12


def test_odds_four_to_one_boundary() -> None:
    assert odds(12, 3) == ("3:1", True)
    assert odds(12, 4) == ("3:1", False)
    assert odds(12, 25) == (None, False)
    assert odds(12, 24) == ("1:2", False)


def test_odds_general_rule() -> None:
    # D > 2A auto AE; A < D 1:2; D <= A < 2D 1:1; 2D <= A < 3D 2:1; 3D <= A 3:1; A >= 4D adds +1.
    for a in range(1, 30):
        for d in range(1, 40):
            if d > 2 * a:
                want = None
            elif a < d:
                want = "1:2"
            elif a < 2 * d:
                want = "1:1"
            elif a < 3 * d:
                want = "2:1"
            else:
                want = "3:1"
            assert odds(a, d) == (want, want is not None and a >= 4 * d), (a, d)


def test_figure_7_examples() -> None:
    assert odds(8, 10) == ("1:2", False)  # left: 4 + 4 against 5 doubled
    assert odds(15, 12) == ("1:1", False)  # right: 5+5+5 against 4 + 4x2
    assert odds(5, 4) == ("1:1", False)  # split: 5 vs 0506
    assert odds(10, 8) == ("1:1", False)  # split: 10 vs 0507 (doubled)


def test_ratio_column_with_no_defence_is_the_best_column() -> None:
    assert ratio_column(5, 0, COLUMNS) == COLUMNS[-1]


def test_ratio_column_general_columns() -> None:
    cols = [RatioColumn(1, 3), RatioColumn(1, 2), RatioColumn(1, 1), RatioColumn(3, 2), RatioColumn(2, 1)]
    label = lambda a, d: getattr(ratio_column(a, d, cols), "label", None)  # noqa: E731
    assert label(1, 4) is None
    assert label(1, 3) == "1:3"
    assert label(2, 5) == "1:3"  # 0.4 rounds down
    assert label(5, 10) == "1:2"
    assert label(14, 10) == "1:1"  # 1.4 is not yet 3:2
    assert label(15, 10) == "3:2"
    assert label(19, 10) == "3:2"
    assert label(20, 10) == "2:1"
    assert label(100, 1) == "2:1"


def test_ratio_column_value_and_label() -> None:
    assert RatioColumn(1, 2).label == "1:2"
    assert RatioColumn(3, 1).label == "3:1"
    assert RatioColumn(1, 2).value == Fraction(1, 2)
    assert RatioColumn(3, 2).value == Fraction(3, 2)
    assert tables.COLUMN_LABELS == ("1:2", "1:1", "2:1", "3:1")


TABLE = CombatTable(
    name="test",
    columns=("1:2", "1:1", "2:1", "3:1"),
    rows={
        1: ("a1", "b1", "c1", "d1"),
        2: ("a2", "b2", "c2", "d2"),
        3: ("a3", "b3", "c3", "d3"),
        4: ("a4", "b4", "c4", "d4"),
        5: ("a5", "b5", "c5", "d5"),
        6: ("a6", "b6", "c6", "d6"),
    },
)


def test_lookup_every_cell() -> None:
    for die in range(1, 7):
        for col, letter in zip(TABLE.columns, "abcd", strict=True):
            assert TABLE.lookup(col, die) == f"{letter}{die}"


def test_lookup_first_blood_tables() -> None:
    assert tables.IJ_ATTACK_TABLE.lookup("1:2", 1) == "AE"
    assert tables.IJ_ATTACK_TABLE.lookup("3:1", 5) == "D1"
    assert tables.US_ATTACK_TABLE.lookup("1:1", 5) == "DR"
    assert tables.US_ATTACK_TABLE.lookup("2:1", 2) == "EX"
    for t in (tables.IJ_ATTACK_TABLE, tables.US_ATTACK_TABLE):
        assert sorted(t.rows) == [1, 2, 3, 4, 5, 6]
        assert all(len(row) == len(t.columns) for row in t.rows.values())
        assert t.reconstructed_rows == frozenset({6})


def test_lookup_unknown_column_raises() -> None:
    with pytest.raises(ValueError):
        TABLE.lookup("4:1", 3)


@pytest.mark.parametrize(("die", "row"), [(0, 1), (-3, 1), (7, 6), (9, 6)])
def test_lookup_clamps_the_die(die: int, row: int) -> None:
    assert TABLE.lookup("2:1", die) == TABLE.lookup("2:1", row)


@pytest.mark.parametrize(
    ("column", "shifts", "expected"),
    [
        ("1:2", 0, "1:2"),
        ("1:2", 1, "1:1"),
        ("1:2", 3, "3:1"),
        ("1:2", 4, "3:1"),  # clamped at the best column
        ("1:2", 99, "3:1"),
        ("1:2", -1, "1:2"),  # clamped at the worst column
        ("2:1", -1, "1:1"),
        ("2:1", -2, "1:2"),
        ("2:1", -5, "1:2"),
        ("2:1", 1, "3:1"),
        ("3:1", 1, "3:1"),
        ("3:1", -3, "1:2"),
    ],
)
def test_shift_clamps(column: str, shifts: int, expected: str) -> None:
    assert TABLE.shift(column, shifts) == expected


def test_shift_unknown_column_raises() -> None:
    with pytest.raises(ValueError):
        TABLE.shift("5:1", 0)


BOUNDS = [(0, "0%"), (50, "50%"), (100, "100%"), (150, "150%"), (200, "200%")]


@pytest.mark.parametrize(
    ("attack", "defence", "label"),
    [
        (0, 10, "0%"),
        (4, 10, "0%"),
        (49, 100, "0%"),
        (5, 10, "50%"),
        (1, 2, "50%"),
        (2, 3, "50%"),  # 66%
        (99, 100, "50%"),  # rounded down, the defender's favour
        (10, 10, "100%"),
        (149, 100, "100%"),
        (3, 2, "150%"),
        (199, 100, "150%"),
        (2, 1, "200%"),
        (50, 1, "200%"),
        (5, 0, "200%"),  # no defence: the best column
    ],
)
def test_percentage_column(attack: int, defence: int, label: str) -> None:
    assert percentage_column(attack, defence, BOUNDS) == label


def test_percentage_column_below_the_lowest_bound_is_the_first_column() -> None:
    bounds = [(25, "25%"), (50, "50%")]
    assert percentage_column(1, 10, bounds) == "25%"
    assert percentage_column(5, 10, bounds) == "50%"


@pytest.mark.parametrize(
    ("value", "expected"), [(-5, 1), (0, 1), (1, 1), (3, 3), (6, 6), (7, 6), (12, 6)]
)
def test_clamp_die(value: int, expected: int) -> None:
    assert clamp_die(value) == expected


def test_clamp_die_custom_bounds() -> None:
    assert clamp_die(0, 2, 12) == 2
    assert clamp_die(13, 2, 12) == 12
    assert clamp_die(7, 2, 12) == 7
