"""Tables 8-10: odds columns, die modifiers and the two attack tables.

The die-roll-6 rows are missing from the rulebook text; the rows below marked
``RECONSTRUCTED`` continue each column's trend (see docs/rulings.md, R-7.6a).
"""

from __future__ import annotations

from engine.core.crt import CombatTable, RatioColumn, ratio_column

COLUMNS = [RatioColumn(1, 2), RatioColumn(1, 1), RatioColumn(2, 1), RatioColumn(3, 1)]
COLUMN_LABELS = tuple(c.label for c in COLUMNS)

IJ_ATTACK_TABLE = CombatTable(  # Table 9
    name="IJ Attack Table (Table 9)",
    columns=COLUMN_LABELS,
    rows={
        1: ("AE", "AE", "A1", "EX"),
        2: ("AE", "A2", "A1", "EX"),
        3: ("A2", "A1", "EX", "EX"),
        4: ("A1", "A1", "EX", "EX"),
        5: ("A1", "EX", "D1", "D1"),
        6: ("EX", "D1", "D1", "DE"),  # RECONSTRUCTED
    },
    reconstructed_rows=frozenset({6}),
)

US_ATTACK_TABLE = CombatTable(  # Table 10
    name="US Attack Table (Table 10)",
    columns=COLUMN_LABELS,
    rows={
        1: ("AE", "AE", "A1", "EX"),
        2: ("A1", "A1", "EX", "EX"),
        3: ("A1", "EX", "EX", "D1"),
        4: ("EX", "EX", "D1", "D1"),
        5: ("EX", "DR", "D1", "DE"),
        6: ("EX", "D1", "DE", "DE"),  # RECONSTRUCTED
    },
    reconstructed_rows=frozenset({6}),
)

TABLES = {"IJ": IJ_ATTACK_TABLE, "US": US_ATTACK_TABLE}
RESULT_WORDS = {  # §7.7
    "AE": "attackers eliminated", "A2": "two attackers eliminated, the rest retreat",
    "A1": "one attacker eliminated, the rest retreat",
    "EX": "exchange: one attacker and one defender eliminated, the other defenders retreat",
    "DR": "the defenders retreat", "D1": "one defender eliminated, the rest retreat",
    "DE": "defenders eliminated; the attackers may advance",
}

JUNGLE_DRM = -1  # §7.1
SHORE_BOMBARDMENT_DRM = 2  # §7.3, per destroyer
AIR_SUPPORT_DRM = 1  # §7.4, per bomber
HIGH_ODDS_DRM = 1  # §7.6, odds 4:1 or better


def odds(attack: int, defence: int) -> tuple[str | None, bool]:
    """(column, 4:1-or-better) for §7.6; column ``None`` means worse than 1:2 (D > 2A):
    the attackers are eliminated before any roll.  Rounded in the defender's favour;
    see R-7.6b for the "4:1" reading."""
    col = ratio_column(attack, defence, COLUMNS)
    if col is None:
        return None, False
    return col.label, attack >= 4 * defence
