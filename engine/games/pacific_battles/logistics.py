"""Logistics (7.0), engineers (20.0), fortifications (21.0), ports (26.8) and Henderson
Field (26.1) as pure rules: what a supply unit reaches, what each expense buys, where
a landing fits."""

from __future__ import annotations

import math
from collections.abc import Iterable

from engine.core.hexes import distance_between
from engine.games.pacific_battles.board import Board
from engine.games.pacific_battles.forces import Forces
from engine.games.pacific_battles.movement import SUPPLY, Piece, spec_of

PORT_FREE_LANDING = (3, 1)  # 26.8: battalion equivalents and supply units into a coastal hex that is no port
AUGUST = 1


def in_supply_radius(supply_hex: str, hex_id: str) -> bool:
    """7.2: a supply unit serves its own and the adjacent hexes, terrain and ZOC regardless."""
    return distance_between(supply_hex, hex_id) <= 1


def activatable(forces: Forces, pieces: Iterable[Piece], supply: Piece) -> list[Piece]:
    """7.3: the friendly HQs one supply unit may activate (one of them per supply unit)."""
    return [p for p in pieces if p.side == supply.side and spec_of(forces, p) is not None
            and spec_of(forces, p).kind == "hq" and in_supply_radius(supply.hex, p.hex)]


def refit_cost(forces: Forces, units: Iterable[str]) -> int:
    """7.5: supply points to refit eliminated units: an HQ costs its support value; combat
    units cost one point per three battalion equivalents (or part of three)."""
    hq_points = 0
    battalions = 0
    for name in units:
        spec = forces.units.get(name) or forces.battalion[name]
        if spec.kind == "hq":
            hq_points += spec.support
        else:
            battalions += spec.battalions
    return hq_points + math.ceil(battalions / 3)


def repair_cost(air_points: int) -> int:
    """7.6: each supply point repairs up to three damaged air points."""
    return math.ceil(air_points / 3)


def combat_effective_engineer(forces: Forces, pieces: Iterable[Piece], hex_id: str, side: str) -> bool:
    return any(p.hex == hex_id and p.side == side and not p.suppressed and spec_of(forces, p) is not None
               and spec_of(forces, p).kind == "engineer" for p in pieces)


def henderson_active(board: Board, forces: Forces, pieces: Iterable[Piece], side: str, turn: int) -> bool:
    """26.1: a combat effective engineer of ``side`` on Henderson Field, and never in August."""
    return turn > AUGUST and combat_effective_engineer(forces, pieces, board.places["Henderson Field"], side)


def is_port(board: Board, forces: Forces, pieces: Iterable[Piece], hex_id: str, side: str) -> bool:
    """26.8: an objective hex on the coast with a friendly combat effective engineer."""
    return hex_id in board.objectives and combat_effective_engineer(forces, pieces, hex_id, side)


def landing_fits(board: Board, forces: Forces, pieces: Iterable[Piece], hex_id: str, side: str,
                 battalions: int, supply_units: int) -> bool:
    """26.8: into a coastal hex that is not an active port at most three battalion
    equivalents and one supply unit land in a phase; a port takes any number."""
    if hex_id not in board.coastal:
        return False
    if is_port(board, forces, list(pieces), hex_id, side):
        return True
    return battalions <= PORT_FREE_LANDING[0] and supply_units <= PORT_FREE_LANDING[1]


def fortification_hexes(board: Board, forces: Forces, pieces: list[Piece], engineer: Piece) -> set[str]:
    """20.3: a combat effective engineer with a supply unit in or next to its hex fortifies
    its own hex and the adjacent hexes holding friendly units (the supply unit is spent)."""
    spec = spec_of(forces, engineer)
    if spec is None or spec.kind != "engineer" or engineer.suppressed:
        return set()
    if not any(p.unit == SUPPLY and p.side == engineer.side and in_supply_radius(p.hex, engineer.hex)
               for p in pieces):
        return set()
    friends = {p.hex for p in pieces if p.side == engineer.side and p.unit != SUPPLY}
    return {engineer.hex} | {n for n in board.neighbours(engineer.hex) if n in friends}
