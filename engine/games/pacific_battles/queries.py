"""Questions about a Pacific Battles state that several phases ask."""

from __future__ import annotations

from functools import cache
from typing import Any

from engine.core.hexes import distance_between
from engine.games.pacific_battles import terrain
from engine.games.pacific_battles.board import Board, load_board
from engine.games.pacific_battles.forces import DECEPTION, Forces, UnitSpec, deception_spec, load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece, has_zoc, spec_of, zoc_of
from engine.games.pacific_battles.retreat import STACK_LIMIT, stack, stacks
from engine.games.pacific_battles.state import PBState, other

HENDERSON = "Henderson Field"
SETUP_RADIUS = 3  # 25.4a: on or within three hexes of Henderson Field
PREFIX = {"Allied": "A", "Japanese": "J"}


@cache
def board() -> Board:
    return load_board()


@cache
def forces() -> Forces:
    return load_forces()


def spec(state_or_piece: Any) -> UnitSpec | None:
    return spec_of(forces(), state_or_piece)


def unit_spec(unit: str) -> UnitSpec | None:
    if unit == SUPPLY:
        return None
    if unit == DECEPTION:
        return deception_spec("Allied")  # kind, size and class are the same for both sides
    return forces().units.get(unit) or forces().battalion[unit]


def kind(unit: str) -> str:
    s = unit_spec(unit)
    return "supply" if s is None else s.kind


def is_supply(p: Piece) -> bool:
    return p.unit == SUPPLY


def is_hq(p: Piece) -> bool:
    return kind(p.unit) == "hq"


def is_combat(p: Piece) -> bool:
    """2.36: every land unit other than HQ and supply units (a deception marker is none)."""
    return not is_supply(p) and not is_hq(p) and p.unit != DECEPTION


def battalions(unit: str) -> int:
    """Battalion equivalents of a counter (a supply point counts as one, 7.8.4)."""
    s = unit_spec(unit)
    return 1 if s is None else s.battalions


def henderson_hex() -> str:
    return board().places[HENDERSON]


@cache
def _place_at() -> dict[str, str]:
    return {h: name for name, h in sorted(board().places.items())}


def hex_name(hex_id: str) -> str:
    """A hex as a player names it: "1430, Lunga Point" where a place is, else "1430"."""
    place = _place_at().get(hex_id) if isinstance(hex_id, str) else None  # (a label of any command's data)
    return f"{hex_id}, {place}" if place else str(hex_id)


def battle_name(state: PBState, index: int | str) -> str:
    """A declared battle as a player names it: "the battle at 1430, Lunga Point"."""
    i = int(index)
    hexes = state.battles[i]["defenders"] if 0 <= i < len(state.battles) else []
    return f"the battle at {' and '.join(hex_name(h) for h in hexes)}" if hexes else f"battle {i + 1}"


def marker_name(name: str) -> str:
    """"the Recon marker", "The Bombardment marker" (its name has its own article)."""
    return f"{name} marker" if name.startswith("The ") else f"the {name} marker"


def enemy_zoc(state: PBState, side: str) -> frozenset[str]:
    return zoc_of(board(), forces(), state.pieces.values(), other(side))


def zoc_known_to(state: PBState, side: str) -> frozenset[str]:
    """The enemy ZOC as ``side`` may reckon it (18.4, R-PB-18.4): a stack next to one of its
    units has told whether it has a ZOC; every other enemy stack on land counts as having
    one until a unit moves next to it.  What ``side`` may move where is worked out from this,
    never from what it has not been told.  (Once per state and side.)"""
    return state.cached(("zoc_known_to", side), lambda: _zoc_known_to(state, side))


def _zoc_known_to(state: PBState, side: str) -> frozenset[str]:
    told = around_units(state, side)
    enemy = [p for p in state.pieces.values() if p.side != side]
    out = set(zoc_of(board(), forces(), [p for p in enemy if p.hex in told], other(side)))
    land = board().terrain
    for h in {p.hex for p in enemy if p.hex not in told and p.hex in land}:
        out.add(h)
        out.update(board().neighbours(h))
    return frozenset(out)


def untold_zocs(state: PBState, side: str) -> list[str]:
    """The hexes of the enemy stacks on land whose ZOC ``side`` has not been told (18.4)."""
    told = around_units(state, side)
    return sorted({p.hex for p in state.pieces.values()
                   if p.side != side and p.hex not in told and p.hex in board().terrain})


def zoc_hexes(state: PBState, side: str) -> frozenset[str]:
    return zoc_of(board(), forces(), state.pieces.values(), side)


def stack_of(state: PBState, hex_id: str, side: str) -> int:
    return stack(forces(), list(state.pieces.values()), hex_id, side)


def overstacked(state: PBState, side: str) -> list[str]:
    """The hexes where ``side`` stands over the stacking limit (12.2)."""
    return sorted(h for h, n in stacks(forces(), list(state.pieces.values()), side).items() if n > STACK_LIMIT)


def new_ids(state: PBState, side: str, n: int) -> list[str]:
    start = state.counter[side]
    return [f"{PREFIX[side]}{start + i + 1}" for i in range(n)]


def enemy_hexes(state: PBState, side: str) -> set[str]:
    return {p.hex for p in state.pieces.values() if p.side != side}


def enemy_places(state: PBState, side: str) -> frozenset[str]:
    """``enemy_hexes``, frozen, once per state and side (read only)."""
    return state.cached(("enemy_places", side), lambda: frozenset(enemy_hexes(state, side)))


def around_units(state: PBState, side: str) -> frozenset[str]:
    """The hexes of ``side``'s units on the map and the hexes next to them (a deception
    marker is no unit: 34.1, 34.3, 18.4).  Once per state and side: each view asks it of
    both sides, and what a side was told of the enemy's ZOC asks it again (read only)."""
    def around() -> frozenset[str]:
        b = board()
        own = {p.hex for p in state.on_map(side) if p.unit != DECEPTION}
        return frozenset(own | {n for h in own for n in b.neighbours(h)})
    return state.cached(("around_units", side), around)


def adjacent(a: str, b: str) -> bool:
    return distance_between(a, b) == 1


def in_radius(state: PBState, hq: Piece, hex_id: str) -> bool:
    s = spec(hq)
    radius = s.radius if s is not None else 0
    if state.options.get("high_ground") and board().terrain.get(hq.hex) in terrain.HIGH_GROUND and not hq.suppressed:
        radius += 2  # 28.0 (optional)
    return distance_between(hq.hex, hex_id) <= radius


def active_hqs(state: PBState, side: str) -> list[Piece]:
    return [p for p in state.pieces.values() if p.side == side and p.id in state.active and not p.suppressed]


def label(state: PBState, pid: str) -> str:
    p = state.pieces.get(pid)
    unit = p.unit if p is not None else state.off[pid].unit if pid in state.off else pid
    if unit == SUPPLY:
        return f"supply point {pid}"
    return unit if unit == pid else f"{unit} ({pid})"


def has_zoc_piece(p: Piece) -> bool:
    return has_zoc(forces(), p)
