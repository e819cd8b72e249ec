"""The Pacific Battles tables: combat results (Raid and Assault), air superiority,
bombardment / air strike, interdiction, terrain effects, and the scenario's numbers.

RECONSTRUCTION.  The rulebook refers to these printed charts but the source does not
reproduce them ("Source Gaps": the Raid and Assault CRT, the Terrain Effects Chart, the
Air Superiority, Air Strike / Bombardment and Interdiction tables).  Every value below
marked as reconstructed is designed to agree with each fact the text states (the tests
in tests/engine/pacific_battles/test_tables.py check them one by one) and otherwise to
follow the system's intent: a Raid probes at little risk (18.1's Old Hand's Note), an
Assault decides.  docs/rulings-pacific-battles.md records each ruling with its section.
The printed values (stated in the text) are marked "rulebook".
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.crt import CombatTable, clamp_die, percentage_column

RECONSTRUCTED = True  # the UI says so wherever these tables are shown

# --- land combat (14.3): percentage columns, shifts right for the attacker ------------------

PERCENT_BOUNDS = [(0, "24%-"), (25, "25-49%"), (50, "50-74%"), (75, "75-99%"), (100, "100-149%"),
                  (150, "150-199%"), (200, "200-299%"), (300, "300-399%"), (400, "400%+")]
COLUMNS = tuple(label for _, label in PERCENT_BOUNDS)  # "24%-" and "25-49%" are the rulebook's (14.12)


@dataclass(frozen=True)
class Result:
    code: str
    words: str
    attacker_loss: str = ""  # "all", "half" (15.23), "one" (a battalion equivalent, 15.22), ""
    defender_loss: str = ""
    retreat: str = ""  # who retreats and how far: "attacker 1", "defender 1", "defender 2", "defender rout"
    suppress: str = ""  # "attacker" or "defender" (8.0)
    pursuit: int = 0  # hexes the attackers may pursue (15.42: only where the result says so)


RESULTS = {r.code: r for r in (
    Result("AE", "attackers eliminated", attacker_loss="all"),
    Result("AL", "attacker attrition: the attackers lose one battalion equivalent and retreat 1 hex",
           attacker_loss="one", retreat="attacker 1"),
    Result("AR", "the attackers retreat 1 hex", retreat="attacker 1"),
    Result("AS", "the attackers are suppressed", suppress="attacker"),
    Result("C", "contact: no effect"),
    Result("BB", "bloodbath: each side loses half its combat factors (15.23)", attacker_loss="half",
           defender_loss="half"),
    Result("DS", "the defenders are suppressed", suppress="defender"),
    Result("DL", "defender attrition: the defenders lose one battalion equivalent; no pursuit",
           defender_loss="one"),
    Result("DR1", "the defenders retreat 1 hex; the attackers may pursue 1 hex", retreat="defender 1", pursuit=1),
    Result("DR2", "the defenders retreat 2 hexes; the attackers may pursue 1 hex", retreat="defender 2", pursuit=1),
    Result("DRT", "the defenders rout (a die for each unit, 15.32); the attackers may pursue 1 hex",
           retreat="defender rout", pursuit=1),
    Result("DE", "defenders eliminated; the attackers may pursue 1 hex", defender_loss="all", pursuit=1),
)}

RAID = CombatTable(  # RECONSTRUCTED: small losses, never a whole force, never a bloodbath
    name="Raid CRT",
    columns=COLUMNS,
    rows={
        1: ("AR", "AR", "AS", "AS", "C", "C", "C", "DS", "DS"),
        2: ("AR", "AS", "AS", "C", "C", "C", "DS", "DS", "DL"),
        3: ("AS", "AS", "C", "C", "C", "DS", "DS", "DL", "DL"),
        4: ("AS", "C", "C", "C", "DS", "DS", "DL", "DL", "DR1"),
        5: ("C", "C", "C", "DS", "DS", "DL", "DL", "DR1", "DR1"),
        6: ("C", "C", "DS", "DS", "DL", "DL", "DR1", "DR1", "DR2"),
    },
    reconstructed_rows=frozenset(range(1, 7)),
)

ASSAULT = CombatTable(  # RECONSTRUCTED: decisive and bloody
    name="Assault CRT",
    columns=COLUMNS,
    rows={
        1: ("AE", "AE", "AL", "AL", "BB", "BB", "DL", "DR1", "DR2"),
        2: ("AE", "AL", "AL", "BB", "BB", "DL", "DR1", "DR2", "DRT"),
        3: ("AL", "AL", "BB", "BB", "DL", "DR1", "DR2", "DRT", "DE"),
        4: ("AL", "BB", "BB", "C", "DR1", "DR2", "DRT", "DE", "DE"),
        5: ("BB", "BB", "C", "DL", "DR2", "DRT", "DE", "DE", "DE"),
        6: ("BB", "C", "DL", "DR1", "DRT", "DE", "DE", "DE", "DE"),
    },
    reconstructed_rows=frozenset(range(1, 7)),
)
CRTS = {"raid": RAID, "assault": ASSAULT}


def combat_column(attack: int, defence: int, shifts: int = 0) -> str:
    """14.3: the percentage column of attack / defence x 100%, then the net shift (right
    for the attacker), the extreme columns being the base line (14.31)."""
    return RAID.shift(percentage_column(attack, defence, PERCENT_BOUNDS), shifts)


def banzai(code: str, japanese_attacking: bool) -> str:
    """15.5 and the Banzai! marker: Bloodbath and Contact become AE when the Japanese
    attack, DE when they defend (retreats and routs the Japanese ignore elsewhere)."""
    if code in ("BB", "C"):
        return "AE" if japanese_attacking else "DE"
    return code


FORTIFICATION_SHIFT = {"Japanese": 2, "Allied": 1}  # rulebook 21.1
BANZAI_SHIFT = 1  # rulebook, Banzai! marker 1
SUPPRESSED_SHIFT = 1  # rulebook 8.2: one left if any attacker is suppressed, one right if any defender is

# --- air superiority (16.51): (eliminations, damages) by air points ---------------------------

AIR_SUPERIORITY_MAX = 8  # 30.0 (optional): points above eight fire as a separate combat
AIR_SUPERIORITY = {  # RECONSTRUCTED, but for the two results 16.52's examples print
    # die: one (eliminations, damages) for 1 .. 8 air points
    1: ((0, 0), (0, 0), (0, 0), (0, 1), (0, 1), (1, 0), (1, 1), (1, 1)),
    2: ((0, 0), (0, 0), (0, 1), (0, 1), (1, 0), (1, 1), (1, 1), (1, 2)),
    3: ((0, 0), (0, 1), (0, 1), (1, 0), (1, 1), (1, 1), (1, 2), (2, 1)),
    4: ((0, 1), (0, 1), (1, 0), (1, 1), (1, 1), (2, 1), (2, 1), (2, 2)),
    5: ((0, 1), (1, 1), (1, 1), (1, 1), (2, 1), (2, 2), (2, 2), (3, 2)),  # 2 points, a 5: 16.52
    6: ((1, 0), (1, 1), (1, 1), (2, 1), (2, 2), (3, 3), (3, 3), (4, 3)),  # 6 points, a 6: 16.52
}


def air_superiority(points: int, die: int) -> tuple[int, int]:
    """(eliminations, damages) that ``points`` air superiority points inflict with ``die``."""
    if points <= 0:
        return (0, 0)
    return AIR_SUPERIORITY[clamp_die(die)][min(points, AIR_SUPERIORITY_MAX) - 1]


# --- bombardment / air strike (16.8, 17.0, 29.0): columns by points, terrain shifts left ----------

STRIKE_COLUMNS = ("0", "1", "2", "3", "4", "5", "6", "7-8", "9+")
STRIKE_TOPS = (0, 1, 2, 3, 4, 5, 6, 8, 10**9)  # the most points each column takes
STRIKE_WORDS = {  # RECONSTRUCTED; "S" as 16.83's example applies it
    "-": "no effect",
    "AA": "anti-aircraft fire: one attacking air unit damaged, after the bombardment (16.84)",
    "S": "every combat unit in the hex suppressed and one supply point eliminated (16.83)",
    "E": "one battalion equivalent eliminated (the owner chooses), the rest suppressed, "
         "and one supply point eliminated",
}
STRIKE = {  # RECONSTRUCTED
    1: ("-", "-", "-", "AA", "AA", "-", "S", "S", "S"),
    2: ("-", "-", "AA", "-", "-", "S", "S", "S", "E"),
    3: ("-", "AA", "-", "-", "S", "S", "S", "E", "E"),
    4: ("-", "-", "-", "S", "S", "S", "E", "E", "E"),
    5: ("-", "-", "S", "S", "S", "E", "E", "E", "E"),
    6: ("-", "S", "S", "S", "E", "E", "E", "E", "E"),
}
AIR_STRIKE_LIMIT = 5  # rulebook 26.4: air strike points per hex, each side


def strike_column(points: int, terrain_shift: int = 0, extra_shift: int = 0) -> str:
    """16.81: the column of the points, shifted left by the terrain's bonus (never below
    zero) and right by markers (Night Bombing Tactics, Fire Coordination)."""
    base = next(i for i, top in enumerate(STRIKE_TOPS) if points <= top)
    i = min(max(base - terrain_shift + extra_shift, 0), len(STRIKE_COLUMNS) - 1)
    return STRIKE_COLUMNS[i]


def strike(column: str, die: int) -> str:
    return STRIKE[clamp_die(die)][STRIKE_COLUMNS.index(column)]


# --- interdiction (16.6, 26.5) ---------------------------------------------------------------------

INTERDICTION_POINTS = (2, 4, 6)  # rulebook 26.5
INTERDICTION_WORDS = {  # RECONSTRUCTED
    "-": "no effect",
    "D1": "delayed one turn (16.62)",
    "D2": "delayed two turns (16.62)",
    "E": "eliminated: a unit that can break down loses one battalion and the rest are delayed two "
         "turns; supply and deception go back to the counter mix (16.62)",
    "AA": "anti-aircraft fire: one interdicting air unit damaged (16.62)",
}
INTERDICTION = {  # RECONSTRUCTED: die -> result for 2, 4, 6 points
    1: ("AA", "AA", "-"),
    2: ("-", "-", "D1"),
    3: ("-", "D1", "D1"),
    4: ("D1", "D1", "D2"),
    5: ("D1", "D2", "E"),
    6: ("D2", "E", "E"),
}


def interdiction_column(points: int) -> int | None:
    """The column for the air and naval points interdicting (17.3: each naval point counts
    as one): rounded down to 2, 4 or 6; None below 2 (no interdiction)."""
    usable = [p for p in INTERDICTION_POINTS if p <= points]
    return usable[-1] if usable else None


def interdiction(points: int, die: int) -> str:
    col = interdiction_column(points)
    if col is None:
        return "-"
    return INTERDICTION[clamp_die(die)][INTERDICTION_POINTS.index(col)]


# --- close air support (31.2), victory (24.2) ---------------------------------------------------

def close_support_damaged(die: int, near_aa: bool) -> bool:
    """Rulebook 31.2: a close air support unit is damaged on a 6, or 5-6 near enemy AA."""
    return die >= (5 if near_aa else 6)


VICTORY_LEVELS = ((0, "Draw"), (16, "Marginal Victory"), (31, "Major Victory"), (46, "Decisive Victory"))


def victory_level(margin: int) -> str:
    """24.2 by the VP margin; 45 reads as Major (the ranges "31-45" and "45 or more" overlap:
    the bounded range wins, see R-PB-24.2)."""
    level = VICTORY_LEVELS[0][1]
    for low, name in VICTORY_LEVELS:
        if abs(margin) >= low:
            level = name
    return level
