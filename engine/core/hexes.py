"""Hex grid maths after Red Blob Games, plus the ``RRCC`` offset ids wargames print.

Axial ``Hex(q, r)`` is what the maths uses; ``RRCC`` strings are a display and
data format converted once, at the edge.  In ``RRCC`` the row ``RR`` grows to the
north and the column ``CC`` grows to the west; rows are horizontal lines of
pointy-top hexes and an odd row is shifted half a hex east of the even rows
around it.  (First Blood's map; other games may pass their own converter.)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Hex:
    """Axial coordinates; ``s`` is derived so that ``q + r + s == 0``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)


HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1),
)


def hex_neighbor(h: Hex, direction: int) -> Hex:
    return h + HEX_DIRECTIONS[direction]


def hex_neighbors(h: Hex) -> list[Hex]:
    return [h + d for d in HEX_DIRECTIONS]


def hex_distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --- RRCC offset ids -------------------------------------------------------

def parse_hex_id(hex_id: str) -> tuple[int, int]:
    """``"0709"`` -> ``(7, 9)`` (row, column); raises ``ValueError`` if malformed."""
    if not isinstance(hex_id, str) or len(hex_id) != 4 or not (hex_id.isascii() and hex_id.isdigit()):
        raise ValueError(f"not a hex id: {hex_id!r} (expected four digits RRCC)")
    return int(hex_id[:2]), int(hex_id[2:])


def format_hex_id(row: int, col: int) -> str:
    return f"{row:02d}{col:02d}"


@cache
def hex_from_id(hex_id: str) -> Hex:
    row, col = parse_hex_id(hex_id)
    return Hex(col - (row + 1) // 2, row)


@cache
def id_from_hex(h: Hex) -> str:
    row = h.r
    return format_hex_id(row, h.q + (row + 1) // 2)


@cache
def neighbor_ids(hex_id: str) -> tuple[str, ...]:
    """All six neighbour ids (some may be off the map; callers filter)."""
    out = []
    for n in hex_neighbors(hex_from_id(hex_id)):
        if n.r >= 0 and n.q + (n.r + 1) // 2 >= 0:
            out.append(id_from_hex(n))
    return tuple(out)


def distance_between(a: str, b: str) -> int:
    return hex_distance(hex_from_id(a), hex_from_id(b))


def are_adjacent(a: str, b: str) -> bool:
    return distance_between(a, b) == 1


def hexside(a: str, b: str) -> frozenset[str]:
    """The hexside between two adjacent hexes, as an unordered pair of ids."""
    return frozenset((a, b))
