"""Land combat's assessment (14.3): strengths, the percentage column and every shift with
its section, before the roll; the mandatory battles (14.11); surrounded units (15.21).

Pure functions of the board, the forces and the pieces; the game's decide will call
them, and the board shows their ``why`` lines before the roll.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.core.hexes import distance_between, neighbor_ids
from engine.games.pacific_battles import tables
from engine.games.pacific_battles.board import Board
from engine.games.pacific_battles.forces import Forces
from engine.games.pacific_battles.movement import Piece, has_zoc, spec_of, zoc_of
from engine.games.pacific_battles.terrain import defence_shift


@dataclass(frozen=True)
class Shift:
    value: int  # columns: right (+) for the attacker, left (-) for the defender
    why: str
    rule: str


@dataclass(frozen=True)
class Assessment:
    attack: int
    defence: int
    base: str  # the column before shifts
    column: str  # after the net shift (14.31)
    shifts: tuple[Shift, ...] = field(default=())

    @property
    def net(self) -> int:
        return sum(s.value for s in self.shifts)


def _strength(forces: Forces, pieces: Iterable[Piece], attacking: bool) -> int:
    total = 0
    for p in pieces:
        spec = spec_of(forces, p)
        if spec is not None:
            total += spec.attack if attacking else spec.defence
    return total


def best_hq(board: Board, forces: Forces, hqs: Iterable[Piece], units: Iterable[Piece]) -> Piece | None:
    """14.32, 10.31, 10.32: the single best activated HQ with at least one unit of the
    battle within its support radius (radius traced through anything, 10.4)."""
    units = list(units)
    best: tuple[int, str] | None = None
    chosen = None
    for hq in hqs:
        spec = spec_of(forces, hq)
        if spec is None or spec.kind != "hq" or hq.suppressed:  # 19.3: a suppressed HQ is not activated
            continue
        if any(distance_between(hq.hex, u.hex) <= spec.radius for u in units):
            key = (spec.support, hq.id)
            if best is None or key > best:
                best, chosen = key, hq
    return chosen


def assess(board: Board, forces: Forces, attackers: list[Piece], defenders: list[Piece], *,
           attacker_hqs: Iterable[Piece] = (), defender_hqs: Iterable[Piece] = (),
           fortified: bool = False, banzai: bool = False, gung_ho: bool = False, close_support: int = 0,
           across: str | None = None) -> Assessment:
    """A battle's column and every shift, before the roll.  ``attacker_hqs`` and
    ``defender_hqs``: each side's activated HQs; ``fortified``: a defender is in a
    fortification; ``across``: the hexside every attacker crosses (a river), if any."""
    attack, defence = _strength(forces, attackers, True), _strength(forces, defenders, False)
    base = tables.combat_column(attack, defence)
    shifts: list[Shift] = []
    side = attackers[0].side if attackers else ""
    hq = best_hq(board, forces, attacker_hqs, attackers)
    if hq is not None:
        shifts.append(Shift(spec_of(forces, hq).support, "support of the attackers' HQ", "10.3"))
    hq = best_hq(board, forces, defender_hqs, defenders)
    if hq is not None:
        shifts.append(Shift(-spec_of(forces, hq).support, "support of the defenders' HQ", "10.3"))
    if any(p.suppressed for p in attackers):
        shifts.append(Shift(-tables.SUPPRESSED_SHIFT, "an attacking unit is suppressed", "8.2"))
    if any(p.suppressed for p in defenders):
        shifts.append(Shift(tables.SUPPRESSED_SHIFT, "a defending unit is suppressed", "8.2"))
    hexes = {p.hex for p in defenders}
    terrain = max((defence_shift(board.terrain[h], across) for h in hexes), default=0)
    if terrain:
        shifts.append(Shift(-terrain, "the defenders' terrain (the single best)", "14.33"))
    if fortified:
        defending = defenders[0].side if defenders else ""
        shifts.append(Shift(-tables.FORTIFICATION_SHIFT[defending], "a defender is fortified", "21.1"))
    if banzai:
        shifts.append(Shift(tables.BANZAI_SHIFT if side == "Japanese" else -tables.BANZAI_SHIFT,
                            "Banzai!", "15.5"))
    if gung_ho:
        shifts.append(Shift(1 if side == "Allied" else -1, "Gung Ho!", "Allied markers"))
    if close_support:
        shifts.append(Shift(close_support, f"close air support by {close_support} air unit(s)", "31.1"))
    net = sum(s.value for s in shifts)
    return Assessment(attack, defence, base, tables.RAID.shift(base, net), tuple(shifts))


def obligations(board: Board, forces: Forces, pieces: list[Piece], side: str) -> tuple[set[str], set[str]]:
    """14.11, 13.6: (the ids of ``side``'s units that must attack: those in an enemy ZOC,
    supply units aside; the ids of the enemy units that must be attacked: those whose ZOC
    an attacker occupies).  HQs, supply and suppressed units exert no ZOC: nobody has to
    attack them, though an HQ in an enemy ZOC must attack (14.12)."""
    enemy = "Japanese" if side == "Allied" else "Allied"
    zoc = zoc_of(board, forces, pieces, enemy)
    must_attack = {p.id for p in pieces if p.side == side and p.hex in zoc and spec_of(forces, p) is not None}
    beside = {n for p in pieces if p.id in must_attack for n in neighbor_ids(p.hex)}
    must_be_attacked = {e.id for e in pieces if e.side == enemy and e.hex in beside and has_zoc(forces, e)}
    return must_attack, must_be_attacked


def surrounded(board: Board, forces: Forces, pieces: list[Piece], unit: Piece) -> bool:
    """15.21: every neighbour holds enemy units, lies in an enemy ZOC or cannot be entered
    (the sea, or terrain the unit's class may not enter)."""
    enemy = "Japanese" if unit.side == "Allied" else "Allied"
    zoc = zoc_of(board, forces, pieces, enemy)
    held = {p.hex for p in pieces if p.side == enemy}
    spec = spec_of(forces, unit)
    mech = spec.mechanised if spec is not None else False
    for n in neighbor_ids(unit.hex):
        if n in held or n in zoc:
            continue
        if n in board.terrain and board.cost(unit.hex, n, mech) is not None:
            return False
    return True
