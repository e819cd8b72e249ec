"""engine.core.hexes: RRCC ids <-> axial hexes, neighbours, distances (first-blood-facts.md)."""

from __future__ import annotations

import itertools

import pytest

from engine.core.hexes import (
    HEX_DIRECTIONS,
    Hex,
    are_adjacent,
    distance_between,
    format_hex_id,
    hex_distance,
    hex_from_id,
    hex_neighbor,
    hex_neighbors,
    hexside,
    id_from_hex,
    neighbor_ids,
    parse_hex_id,
)

# (RRCC id, (q, r)) with q = c - (r + 1) // 2 and r = row, worked out by hand.
CONVERSIONS = [
    ("0000", (0, 0)),
    ("0001", (1, 0)),
    ("0100", (-1, 1)),
    ("0101", (0, 1)),
    ("0200", (-1, 2)),
    ("0201", (0, 2)),
    ("0202", (1, 2)),
    ("0215", (14, 2)),
    ("0220", (19, 2)),
    ("0301", (-1, 3)),
    ("0311", (9, 3)),
    ("0306", (4, 3)),
    ("0307", (5, 3)),
    ("0406", (4, 4)),
    ("0407", (5, 4)),
    ("0500", (-3, 5)),
    ("0501", (-2, 5)),
    ("0507", (4, 5)),
    ("0600", (-3, 6)),
    ("0606", (3, 6)),
    ("0607", (4, 6)),
    ("0605", (2, 6)),
    ("0701", (-3, 7)),
    ("0708", (4, 7)),
    ("0709", (5, 7)),
    ("0710", (6, 7)),
    ("0809", (5, 8)),
    ("0810", (6, 8)),
    ("0909", (4, 9)),
    ("0910", (5, 9)),
    ("1008", (3, 10)),
    ("1101", (-5, 11)),
    ("1220", (14, 12)),
    ("9999", (49, 99)),
]


@pytest.mark.parametrize(("hex_id", "qr"), CONVERSIONS)
def test_hex_from_id_table(hex_id: str, qr: tuple[int, int]) -> None:
    assert hex_from_id(hex_id) == Hex(*qr)


@pytest.mark.parametrize(("hex_id", "qr"), CONVERSIONS)
def test_id_from_hex_table(hex_id: str, qr: tuple[int, int]) -> None:
    assert id_from_hex(Hex(*qr)) == hex_id


def test_round_trip_every_id_on_a_big_grid() -> None:
    for row, col in itertools.product(range(30), range(30)):
        hex_id = format_hex_id(row, col)
        assert parse_hex_id(hex_id) == (row, col)
        h = hex_from_id(hex_id)
        assert h.r == row
        assert id_from_hex(h) == hex_id


def test_round_trip_from_axial() -> None:
    for r in range(0, 25):
        for q in range(-15, 25):
            col = q + (r + 1) // 2
            if not 0 <= col <= 99:
                continue
            h = Hex(q, r)
            assert hex_from_id(id_from_hex(h)) == h


@pytest.mark.parametrize(
    ("row", "col", "text"), [(0, 0, "0000"), (7, 9, "0709"), (12, 20, "1220"), (3, 11, "0311"), (99, 99, "9999")]
)
def test_format_and_parse(row: int, col: int, text: str) -> None:
    assert format_hex_id(row, col) == text
    assert parse_hex_id(text) == (row, col)


@pytest.mark.parametrize("bad", ["709", "07a9", "", "07090", " 709", "-709", "+709", "07 9", "0x09", "07.9"])
def test_parse_hex_id_rejects_malformed(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_hex_id(bad)


@pytest.mark.parametrize("bad", ["709", "07a9", ""])
def test_hex_from_id_rejects_malformed(bad: str) -> None:
    with pytest.raises(ValueError):
        hex_from_id(bad)


@pytest.mark.parametrize("bad", ["\uff10\uff17\uff10\uff19", "\u0660\u0667\u0660\u0669"])
def test_parse_hex_id_rejects_non_ascii_digits(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_hex_id(bad)


# --- geometry ------------------------------------------------------------------

def test_neighbours_of_0710_figure_4() -> None:
    assert set(neighbor_ids("0710")) == {"0809", "0709", "0810", "0711", "0610", "0609"}
    assert len(neighbor_ids("0710")) == 6


def test_neighbours_of_0507_figure_5() -> None:
    assert set(neighbor_ids("0507")) == {"0406", "0508", "0506", "0407", "0607", "0606"}
    assert len(neighbor_ids("0507")) == 6


def _offset_neighbours(row: int, col: int) -> set[tuple[int, int]]:
    """The rule written in first-blood-facts.md, independently of the engine."""
    out = {(row, col - 1), (row, col + 1)}
    cols = (col, col + 1) if row % 2 == 0 else (col - 1, col)
    for r in (row - 1, row + 1):
        out |= {(r, c) for c in cols}
    return {(r, c) for r, c in out if r >= 0 and c >= 0}


def test_neighbours_match_the_offset_rule_everywhere() -> None:
    for row, col in itertools.product(range(14), range(22)):
        got = {parse_hex_id(n) for n in neighbor_ids(format_hex_id(row, col))}
        assert got == _offset_neighbours(row, col), format_hex_id(row, col)


def test_neighbours_off_the_map_are_dropped() -> None:
    assert set(neighbor_ids("0000")) == {"0001", "0100", "0101"}
    assert set(neighbor_ids("0100")) == {"0101", "0000", "0200"}
    assert set(neighbor_ids("0200")) == {"0201", "0100", "0101", "0300", "0301"}


def test_neighbour_ids_have_no_duplicates_and_are_symmetric() -> None:
    for row, col in itertools.product(range(14), range(22)):
        a = format_hex_id(row, col)
        ns = neighbor_ids(a)
        assert len(ns) == len(set(ns))
        assert a not in ns
        for b in ns:
            assert a in neighbor_ids(b)


def test_even_row_is_half_a_hex_west() -> None:
    # Row 02 (even) touches rows 01 and 03 at columns c and c+1 (further west);
    # row 03 (odd) touches rows 02 and 04 at columns c-1 and c.
    assert {"0105", "0106", "0305", "0306"} <= set(neighbor_ids("0205"))
    assert {"0204", "0205", "0404", "0405"} <= set(neighbor_ids("0305"))


def test_hex_s_coordinate() -> None:
    for q, r in itertools.product(range(-10, 11), repeat=2):
        h = Hex(q, r)
        assert h.q + h.r + h.s == 0
        assert h.s == -q - r


def test_hex_is_a_frozen_value() -> None:
    assert Hex(1, 2) == Hex(1, 2)
    assert hash(Hex(1, 2)) == hash(Hex(1, 2))
    assert Hex(1, 2) != Hex(2, 1)
    with pytest.raises(AttributeError):
        Hex(1, 2).q = 5  # type: ignore[misc]


def test_hex_addition() -> None:
    assert Hex(1, -2) + Hex(3, 4) == Hex(4, 2)


def test_directions_are_the_six_unit_vectors_in_red_blob_order() -> None:
    assert (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)) == HEX_DIRECTIONS
    for i, d in enumerate(HEX_DIRECTIONS):
        assert hex_distance(Hex(0, 0), d) == 1
        assert d + HEX_DIRECTIONS[(i + 3) % 6] == Hex(0, 0)  # opposite directions cancel


def test_hex_neighbor_and_neighbors() -> None:
    h = Hex(3, -1)
    assert [hex_neighbor(h, i) for i in range(6)] == hex_neighbors(h)
    assert hex_neighbor(h, 0) == Hex(4, -1)
    assert hex_neighbor(h, 3) == Hex(2, -1)
    assert len(set(hex_neighbors(h))) == 6
    assert all(hex_distance(h, n) == 1 for n in hex_neighbors(h))


# --- distance --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        ("0311", "0709", 4),  # Figure 8: range 5 reaches it
        ("0311", "0708", 5),  # Figure 8: range 5 does not
        ("0710", "0710", 0),
        ("0710", "0809", 1),
        ("0710", "0609", 1),
        ("0710", "0712", 2),
        ("0710", "0910", 2),
        ("0710", "0909", 2),
        ("0710", "0911", 2),
        ("0710", "0908", 3),
        ("0000", "0500", 5),
        ("0000", "0005", 5),
        ("0200", "1220", 25),
        ("0202", "0215", 13),
    ],
)
def test_distance_between(a: str, b: str, d: int) -> None:
    assert distance_between(a, b) == d
    assert distance_between(b, a) == d
    assert hex_distance(hex_from_id(a), hex_from_id(b)) == d


def test_distance_axial_formula() -> None:
    assert hex_distance(Hex(0, 0), Hex(3, -3)) == 3
    assert hex_distance(Hex(0, 0), Hex(3, 3)) == 6
    assert hex_distance(Hex(-2, 5), Hex(1, 1)) == 4


GRID = [format_hex_id(r, c) for r in range(0, 13, 2) for c in range(0, 21, 3)] + ["0311", "0709", "0708", "0710"]


def test_distance_is_symmetric_and_zero_only_on_itself() -> None:
    for a, b in itertools.product(GRID, repeat=2):
        d = distance_between(a, b)
        assert d == distance_between(b, a)
        assert (d == 0) == (a == b)
        assert d >= 0


def test_triangle_inequality() -> None:
    for a, b, c in itertools.product(GRID, repeat=3):
        assert distance_between(a, c) <= distance_between(a, b) + distance_between(b, c)


def test_distance_is_the_length_of_a_shortest_neighbour_path() -> None:
    # Breadth-first search over neighbor_ids from 0710 must agree with distance_between.
    start = "0710"
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in neighbor_ids(h):
                r, c = parse_hex_id(n)
                if n not in dist and r <= 14 and c <= 22:
                    dist[n] = dist[h] + 1
                    nxt.append(n)
        frontier = nxt
    for h, d in dist.items():
        assert distance_between(start, h) == d, h


def test_are_adjacent() -> None:
    for n in ["0809", "0709", "0810", "0711", "0610", "0609"]:
        assert are_adjacent("0710", n)
        assert are_adjacent(n, "0710")
    for far in ["0710", "0712", "0808", "0811", "0608", "0611", "0910", "0510"]:
        assert not are_adjacent("0710", far), far
    # adjacency == membership in neighbor_ids over a grid
    for row, col in itertools.product(range(1, 12), range(1, 19)):
        a = format_hex_id(row, col)
        ns = set(neighbor_ids(a))
        for dr, dc in itertools.product((-1, 0, 1), (-1, 0, 1)):
            b = format_hex_id(row + dr, col + dc)
            assert are_adjacent(a, b) == (b in ns)


def test_hexside_is_unordered() -> None:
    assert hexside("0909", "0910") == hexside("0910", "0909") == frozenset({"0909", "0910"})
    assert hexside("0710", "0709") != hexside("0710", "0809")
