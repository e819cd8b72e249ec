"""Retreats, routs and pursuit after land combat (15.3, 15.4, 13.8, 21.2), as the options
the owning player chooses from.

A retreat of n hexes ends n hexes from the unit's combat hex (15.33.6), so every step
goes one hex farther out.  It may pass friendly units (15.33.5), never enters enemy units
or ground the unit may not enter (15.33.2, 15.33.4), and a unit that retreats into an
enemy ZOC is eliminated there (13.8, 15.33.3).  The owner may not choose a path that
eliminates or over-stacks the unit while another exists (15.33.7); with no path of the
full length the unit is eliminated in the last hex it reaches (15.33.6).  Supply units
and units with no movement factor are eliminated instead (15.33.8-9).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.hexes import distance_between, neighbor_ids
from engine.games.pacific_battles.board import Board
from engine.games.pacific_battles.forces import Forces
from engine.games.pacific_battles.movement import SUPPLY, Piece, spec_of, zoc_of

STACK_LIMIT = 6  # 12.1: two regiments, six battalion equivalents


@dataclass(frozen=True)
class Option:
    path: tuple[str, ...]  # the hexes entered, in order
    fate: str  # "safe", "overstacked" (12.5), "zoc" (eliminated there, 13.8), "short" (eliminated, 15.33.6)


def weight(forces: Forces, piece: Piece) -> int:
    """The battalion equivalents a piece counts for stacking: a supply unit none (12.2)."""
    return 0 if piece.unit == SUPPLY else spec_of(forces, piece).battalions  # type: ignore[union-attr]


def stack(forces: Forces, pieces: list[Piece], hex_id: str, side: str) -> int:
    """Battalion equivalents of ``side`` in a hex for stacking (12.2)."""
    return sum(weight(forces, p) for p in pieces if p.hex == hex_id and p.side == side)


def stacks(forces: Forces, pieces: list[Piece], side: str) -> dict[str, int]:
    """``stack`` of every hex ``side`` stands in, in one pass over the pieces."""
    totals: dict[str, int] = {}
    for p in pieces:
        if p.side == side:
            totals[p.hex] = totals.get(p.hex, 0) + weight(forces, p)
    return totals


def options(board: Board, forces: Forces, pieces: list[Piece], unit: Piece, length: int,
            zoc: frozenset[str] | None = None) -> list[Option]:
    """The retreats the owner may choose for ``unit`` (empty: it is eliminated instead);
    ``zoc``: the enemy ZOC as the owner may reckon it (18.4), when the caller has it."""
    spec = spec_of(forces, unit)
    if spec is None or spec.movement == 0 or length <= 0:
        return []
    enemy = "Japanese" if unit.side == "Allied" else "Allied"
    others = [p for p in pieces if p.id != unit.id]
    held = {p.hex for p in others if p.side == enemy}
    if zoc is None:
        zoc = zoc_of(board, forces, others, enemy)
    size = spec.battalions
    full: list[Option] = []
    longest: list[tuple[str, ...]] = []

    def walk(path: tuple[str, ...]) -> None:
        nonlocal longest
        here = path[-1] if path else unit.hex
        if path and here in zoc:  # 13.8: it goes no farther
            full.append(Option(path, "zoc"))
            return
        if len(path) == length:
            over = stack(forces, others, here, unit.side) + size > STACK_LIMIT
            full.append(Option(path, "overstacked" if over else "safe"))
            return
        steps = [n for n in neighbor_ids(here) if n in board.terrain and n not in held
                 and distance_between(unit.hex, n) == len(path) + 1
                 and board.cost(here, n, spec.mechanised) is not None]
        if not steps:
            if path and (not longest or len(path) > len(longest[0])):
                longest = [path]
            elif path and len(path) == len(longest[0]):
                longest.append(path)
            return
        for n in steps:
            walk((*path, n))

    walk(())
    safe = [o for o in full if o.fate == "safe"]
    if safe:
        return safe  # 15.33.7
    if full:
        return full
    return [Option(p, "short") for p in longest]


def rout_length(die: int) -> int:
    """15.32: a routed unit retreats the die's number of hexes."""
    return die


def ignores_retreat(length: int | None, rout: bool, fortified: bool, banzai_japanese: bool) -> int | None:
    """The retreat a unit actually makes: Banzai! Japanese ignore retreats and routs (15.5);
    a unit in a fortification ignores a one-hex retreat and turns a rout into one (21.2).
    None: no retreat."""
    if banzai_japanese:
        return None
    if fortified:
        return 1 if rout else (None if length == 1 else length)
    return length


def pursuit_hexes(board: Board, forces: Forces, pieces: list[Piece], pursuer: Piece,
                  cleared: set[str]) -> list[str]:
    """15.4 for a one-hex pursuit: the cleared defender hexes next to the pursuer that it
    could enter, enemy ZOC ignored (15.44); never with no movement factor (15.43)."""
    spec = spec_of(forces, pursuer)
    if spec is None or spec.movement == 0:
        return []
    held = {p.hex for p in pieces if p.side != pursuer.side}
    return sorted(h for h in cleared if h not in held and distance_between(pursuer.hex, h) == 1
                  and board.cost(pursuer.hex, h, spec.mechanised) is not None)
