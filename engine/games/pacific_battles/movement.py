"""Land movement (11.0) and zones of control (13.0) on the Guadalcanal map.

Pure functions of the board, the forces and where the pieces stand: where a unit may
go in a movement phase and at what cost.  The rules: movement points by terrain and
class (11.3, the TEC), roads and trails (11.71), river hexsides and bridges (11.72);
never into a hex holding enemy units (11.5, 12.6) or prohibited terrain; a unit stops
when it enters an enemy ZOC (11.6, 13.3); leaving one, the first hex entered must be
free of enemy ZOC (13.4), except an infiltrator (13.5: Japanese infantry, Allied
raiders) that started the phase in an enemy ZOC and moves one hex into another; and a
unit may always move one hex (11.4) unless into prohibited terrain, onto the enemy, or
directly from one enemy ZOC to another.  Suppressed units move at half their factor,
the half kept (8.2: "remainders are retained": 5 becomes 2.5).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from engine.games.pacific_battles.board import Board
from engine.games.pacific_battles.forces import DECEPTION, Forces, UnitSpec, deception_spec

SUPPLY = "Supply"  # supply units: no ZOC, no stacking (7.8); not in the counter list


@dataclass(frozen=True)
class Piece:
    id: str  # this counter's id in the game
    unit: str  # its kind of counter: a forces.units name, a breakdown battalion, or SUPPLY
    side: str
    hex: str
    suppressed: bool = False


def spec_of(forces: Forces, piece: Piece) -> UnitSpec | None:
    if piece.unit == SUPPLY:
        return None
    if piece.unit == DECEPTION:
        return deception_spec(piece.side)
    return forces.units.get(piece.unit) or forces.battalion[piece.unit]


def has_zoc(forces: Forces, piece: Piece) -> bool:
    """13.0: every combat effective ground combat unit; not HQs, supply or suppressed units."""
    spec = spec_of(forces, piece)
    return spec is not None and spec.kind not in ("hq", "deception") and not piece.suppressed


def zoc_of(board: Board, forces: Forces, pieces: Iterable[Piece], side: str) -> frozenset[str]:
    """The land hexes in the ZOC of ``side``'s units: their own and every neighbour (13.1;
    nothing on Guadalcanal blocks a ZOC, R-PB-TEC; units do not block it either, 13.2)."""
    out: set[str] = set()
    for p in pieces:
        if p.side == side and has_zoc(forces, p) and p.hex in board.terrain:  # no ZOC from the sea (22.3)
            out.add(p.hex)
            out.update(board.neighbours(p.hex))
    return frozenset(out)


def movement_points(forces: Forces, piece: Piece) -> Fraction:
    spec = spec_of(forces, piece)
    mf = Fraction(spec.movement if spec is not None else 0)
    return mf / 2 if piece.suppressed else mf


_STEPS: dict[tuple[int, bool], dict[str, tuple[tuple[str, int, int], ...]]] = {}


def _steps(board: Board, mechanised: bool) -> dict[str, tuple[tuple[str, int, int], ...]]:
    """Each land hex's enterable neighbours, the cost to step there and the cost when an
    engineer bridges the hexside (20.2), in half movement points (a suppressed unit's half
    factor stays whole), worked out once per board."""
    key = (id(board), mechanised)
    if key not in _STEPS:
        table = {}
        for h in board.terrain:
            out = []
            for n in board.neighbours(h):
                cost = board.cost(h, n, mechanised)
                if cost is not None:
                    out.append((n, 2 * cost, 2 * (board.cost(h, n, mechanised, bridged=True) or cost)))
            table[h] = tuple(out)
        _STEPS[key] = table
    return _STEPS[key]


def bridged_sides(board: Board, hexes: Iterable[str]) -> frozenset[frozenset[str]]:
    """20.2: the river hexsides of the hexes where friendly engineers started the phase."""
    return frozenset(frozenset((h, n)) for h in hexes for n in board.neighbours(h)
                     if frozenset((h, n)) in board.rivers)


def reachable(board: Board, forces: Forces, pieces: list[Piece], mover: Piece,
              enemy_zoc: frozenset[str] | None = None, enemy_hexes: set[str] | None = None,
              bridged: frozenset[frozenset[str]] = frozenset(), spent: int = 0,
              unlimited: bool = False) -> dict[str, Fraction]:
    """Every hex ``mover`` may end its move in this phase, with the movement points it costs
    (``enemy_zoc``, ``enemy_hexes``: the enemy's ZOC and hexes, when the caller has them;
    ``bridged``: river hexsides friendly engineers bridge, 20.2; ``spent``: half movement
    points the mover has already spent this phase, going on after a ZOC that was not, 18.4;
    ``unlimited``: as if its movement points had no end, to tell why a hex is out of reach)."""
    spec = spec_of(forces, mover)
    if spec is None or spec.movement == 0:
        return {}
    enemy = "Japanese" if mover.side == "Allied" else "Allied"
    occupied = enemy_hexes if enemy_hexes is not None else {p.hex for p in pieces if p.side == enemy}
    zoc = enemy_zoc if enemy_zoc is not None else zoc_of(board, forces, pieces, enemy)
    budget = 1 << 30 if unlimited else int(movement_points(forces, mover) * 2) - spent
    steps = _steps(board, spec.mechanised)
    start = mover.hex
    in_zoc = start in zoc
    infiltrates = spec.infiltrates
    best: dict[str, int] = {start: 0}
    queue: list[tuple[int, str]] = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if spent > best.get(here, spent):
            continue
        if here != start and here in zoc:  # 11.6: stop on entering an enemy ZOC
            continue
        first = here == start
        for there, cost, over_bridge in steps.get(here, ()):
            if bridged and over_bridge != cost and frozenset((here, there)) in bridged:
                cost = over_bridge
            if there in occupied:
                continue  # 11.5, 12.6
            if first and in_zoc and there in zoc and not infiltrates:
                continue  # 13.4: leaving, the first hex must be free of enemy ZOC (13.5: infiltrators may)
            total = spent + cost
            if total > budget:
                if not first or spent:  # going on, the minimum move is had already
                    continue
                total = budget  # 11.4: the minimum move of one hex
            if total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(queue, (total, there))
    return {h: _half(cost) for h, cost in best.items() if h != start}


_HALVES = tuple(Fraction(n, 2) for n in range(64))  # immutable: shared by every answer


def _half(n: int) -> Fraction:
    return _HALVES[n] if 0 <= n < len(_HALVES) else Fraction(n, 2)

