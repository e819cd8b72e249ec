"""Map facts the reconstructed First Blood map (data/map.toml) must satisfy.

The printed map is not in the rulebook, so the map is a reconstruction. These
tests pin every part of it that the rulebook does fix: the worked movement
examples (Figures 4 and 5, Table 6), the hexes named in the text (§1-§3, §5,
§7), the entry points and off-map boxes, plus a few sanity checks (one
connected island, rivers as continuous lines). Rulings (our reading where the
rulebook is silent or self-contradictory) are marked as such.
"""

from __future__ import annotations

import tomllib
from collections import deque
from itertools import pairwise

import pytest

from engine.core.hexes import (
    distance_between,
    hex_from_id,
    hex_neighbors,
    id_from_hex,
    parse_hex_id,
)
from engine.games.first_blood.board import DATA, Board, load_board

MAP_FILE = DATA / "map.toml"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def costs(board: Board, frm: str, targets: list[str]) -> dict[str, int]:
    return {to: board.move_cost(frm, to) for to in targets}


def col(hex_id: str) -> int:
    return parse_hex_id(hex_id)[1]


def row(hex_id: str) -> int:
    return parse_hex_id(hex_id)[0]


def north_neighbours(hex_id: str) -> list[str]:
    """The two neighbours in the row above (they may be sea, i.e. not on the map)."""
    return [id_from_hex(n) for n in hex_neighbors(hex_from_id(hex_id)) if n.r == row(hex_id) + 1]


# --- the file says what it is ----------------------------------------------

def test_map_file_says_it_is_a_reconstruction(board):
    text = MAP_FILE.read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("#")
    assert "RECONSTRUCTION" in text.split("[meta]")[0]
    raw = tomllib.loads(text)
    assert raw["meta"]["reconstruction"] is True
    assert raw["meta"]["sources"]
    assert "reconstruct" in board.note.lower()


# --- Figure 4: movement from 0710 (§6) ----------------------------------------

def test_figure4_movement_costs_from_0710(board):
    assert costs(board, "0710", ["0809", "0709", "0810", "0711", "0610", "0609"]) == {
        "0809": 4,  # jungle (+1) and river (+2)
        "0709": 3,  # river (+2)
        "0810": 2,  # jungle (+1)
        "0711": 1, "0610": 1, "0609": 1,
    }
    assert set(board.neighbors("0710")) == {"0809", "0709", "0810", "0711", "0610", "0609"}


def test_figure4_terrain_behind_the_costs(board):
    assert board.is_river("0710", "0809") and board.is_jungle_edge("0710", "0809")
    assert board.is_river("0710", "0709") and not board.is_jungle_edge("0710", "0709")
    assert board.is_jungle_edge("0710", "0810") and not board.is_river("0710", "0810")
    for to in ("0711", "0610", "0609"):
        assert not board.is_river("0710", to)
        assert not board.is_ridge("0710", to)
        assert not board.is_jungle_edge("0710", to)


# --- Figure 5: Bloody Ridge (§6) ---------------------------------------------

def test_figure5_bloody_ridge_is_high_ground(board):
    for h in ("0507", "0406", "0307"):
        assert board.hexes[h].high, h
    for h in ("0508", "0506", "0407", "0607", "0606", "0306"):
        assert not board.hexes[h].high, h


def test_figure5_movement_costs_from_0507(board):
    assert costs(board, "0507", ["0406", "0508", "0506", "0407", "0607", "0606"]) == {
        "0406": 1,  # along the ridge top
        "0508": 3, "0506": 3, "0407": 3,  # jungle (+1) and ridge (+1)
        "0607": 2, "0606": 2,  # ridge (+1)
    }
    for to in ("0508", "0506", "0407"):
        assert board.is_ridge("0507", to) and board.is_jungle_edge("0507", to)
    for to in ("0607", "0606"):
        assert board.is_ridge("0507", to) and not board.is_jungle_edge("0507", to)
    assert not board.is_ridge("0507", "0406")


def test_figure5_us_unit_climbs_from_0306_to_0307(board):
    assert board.move_cost("0306", "0307") == 2
    assert board.is_ridge("0306", "0307")
    assert not board.is_jungle_edge("0306", "0307")


# --- Table 6 (§6.1) ----------------------------------------------------------

def test_table6_0200_0301_clear_both_ways(board):
    assert board.move_cost("0200", "0301") == 1
    assert board.move_cost("0301", "0200") == 1


def test_table6_0200_to_0201_jungle(board):
    assert board.move_cost("0200", "0201") == 2
    assert board.is_jungle_edge("0200", "0201")
    # ruling: 0200 is open ground, so the jungle side is paid one way only (§6.1)
    assert board.move_cost("0201", "0200") == 1
    assert not board.is_river("0200", "0201") and not board.is_ridge("0200", "0201")


def test_table6_0400_river_to_0500_and_0501(board):
    for other in ("0500", "0501"):
        assert board.is_river("0400", other)
        assert board.move_cost("0400", other) == 3
        assert board.move_cost(other, "0400") == 3


def test_table6_ruling_0503_0603_is_a_river_costing_3(board):
    # Ruling: the printed row (river +2, total 1) is self-contradictory; the
    # river is kept and the total of 1 is taken as a misprint.
    assert board.is_river("0503", "0603")
    assert board.move_cost("0503", "0603") == 3
    assert board.move_cost("0603", "0503") == 3


def test_table6_ruling_0400_0401_jungle_one_way(board):
    # Ruling (the printed row is cut off): 0401 is jungle, 0400 open ground, so
    # the jungle side is paid only when entering 0401 (§6.1 "one direction").
    assert not board.is_river("0400", "0401")
    assert board.move_cost("0400", "0401") == 2
    assert board.move_cost("0401", "0400") == 1


# --- bridge, jungle hexes, air strips (§2.1, §7.1, §7.9) ---------------------

def test_bridge_0909_0910_crosses_the_lunga_at_clear_cost(board):
    assert frozenset(("0909", "0910")) in board.rivers
    assert frozenset(("0909", "0910")) in board.bridges
    assert not board.is_river("0909", "0910")
    assert board.move_cost("0909", "0910") == 1
    assert board.move_cost("0910", "0909") == 1
    assert board.bridges == frozenset({frozenset(("0909", "0910"))})


def test_jungle_hexes_for_combat(board):
    for h in ("0506", "0619", "0620"):
        assert board.is_jungle_hex(h), h
    for h in ("0908", "1008", "0618"):
        assert not board.is_jungle_hex(h), h
    # §2.1 names them because they carry jungle on some sides
    for h in ("0908", "1008", "0618"):
        assert board.hexes[h].jungle_edges, h


def test_air_strips(board):
    assert board.henderson == ("0708", "0709")
    assert board.fighter_strip == ("0605", "0705")
    for h in board.airstrips:
        assert board.hexes[h].centre == "clear", h
        assert not board.is_jungle_hex(h)


# --- combat figures (§7) --------------------------------------------------------

def test_figure6_hexes(board):
    for h in ("0705", "0604", "0605", "0606"):
        assert board.on_map(h), h
    assert {"0604", "0605"} <= set(board.neighbors("0705"))


def test_figure7_right_terrain(board):
    # 0606 attacks 0506 (jungle hex, same level) and 0507 (behind a ridge)
    assert {"0506", "0507"} <= set(board.neighbors("0606"))
    assert board.is_jungle_hex("0506") and not board.is_jungle_hex("0507")
    assert board.is_ridge("0606", "0507") and not board.is_ridge("0606", "0506")
    assert not board.is_river("0606", "0506") and not board.is_river("0606", "0507")


def test_figure8_artillery_range_geometry(board):
    for h in ("0311", "0709", "0708"):
        assert board.on_map(h), h
    assert distance_between("0311", "0709") == 4
    assert distance_between("0311", "0708") == 5


# --- set-up area (§3) ----------------------------------------------------------

def test_us_setup_area(board):
    assert board.setup_rows == (2, 12)
    assert board.setup_cols == (2, 15)
    inside = [h for h in board.hexes if board.in_setup_area(h)]
    assert len(inside) >= 100
    for h in ("0202", "0708", "0709", "0605", "0705", "0507", "0406", "0307",
              "0710", "0909", "0910", "1209"):
        assert board.in_setup_area(h), h
    assert not board.in_setup_area("0201")  # column 01 is outside
    assert not board.in_setup_area("0216")  # column 16 is outside
    assert not board.in_setup_area("0109")  # row 01 is outside


# --- entry points (§5, Figures 2 and 3) ----------------------------------------

def test_us_entry_points(board):
    us = {e.id: e for e in board.entries.values() if e.side == "US"}
    assert sorted((e.group, e.hexes) for e in us.values()) == [
        ("east", ("0701",)), ("east", ("0702",)), ("west", ("0618",)), ("west", ("0619",)),
    ]
    for e in us.values():
        (h,) = e.hexes
        assert not board.on_map(e.at)
        assert distance_between(e.at, h) == 1
        # a landing beach on the north coast: sea on its northern side
        assert any(not board.on_map(n) for n in north_neighbours(h)), h
    assert board.hexes["0701"].centre == "beach"
    assert board.hexes["0702"].centre == "beach"
    assert board.hexes["0618"].centre == "beach"
    assert board.hexes["0619"].centre == "jungle"  # §2.1: jungle for combat


def test_ij_entry_point_0600_figure2(board):
    assert not board.on_map("0600")
    (e,) = [e for e in board.entries.values() if e.at == "0600"]
    assert e.side == "IJ" and e.group == "east"
    assert sorted(e.hexes) == ["0500", "0501", "0601"]
    for h in e.hexes:
        assert distance_between("0600", h) == 1


def test_ij_entry_point_south_west_figure3(board):
    west = [e for e in board.entries.values() if e.side == "IJ" and e.group == "west"]
    assert any(e.hexes == ("0220",) for e in west)


def test_ij_entry_points_on_east_and_west_edges(board):
    ij = [e for e in board.entries.values() if e.side == "IJ"]
    us_hexes = {h for e in board.entries.values() if e.side == "US" for h in e.hexes}
    assert {e.group for e in ij} == {"east", "west"}
    assert len([e for e in ij if e.group == "west"]) >= 2
    for e in ij:
        assert 1 <= len(e.hexes) <= 3
        assert not board.on_map(e.at)
        assert not set(e.hexes) & us_hexes, e.id
        for h in e.hexes:
            assert distance_between(e.at, h) == 1, (e.id, h)
            if e.group == "east":
                assert col(h) <= 1, (e.id, h)
            else:
                assert col(h) == 20, (e.id, h)


# --- off-map boxes (§2.1, §6.5) -------------------------------------------------

def test_off_map_boxes_along_the_south_edge(board):
    assert list(board.boxes) == ["A", "B", "C", "D"]
    south_edge = {h for h in board.hexes if row(h) == 0}
    seen: list[str] = []
    for box in board.boxes.values():
        assert len(box.hexes) >= 3, box.id
        assert all(row(h) == 0 for h in box.hexes), box.id
        seen.extend(box.hexes)
    assert len(seen) == len(set(seen))  # no hex in two boxes
    assert set(seen) == south_edge  # together they cover the south edge
    # A westernmost .. D easternmost: columns fall from box to box
    ordered = [board.boxes[b].hexes for b in "ABCD"]
    for west, east in pairwise(ordered):
        assert min(col(h) for h in west) > max(col(h) for h in east)


# --- the island as a whole ------------------------------------------------------

def test_map_is_connected(board):
    start = next(iter(board.hexes))
    seen = {start}
    todo = deque([start])
    while todo:
        for n in board.neighbors(todo.popleft()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(board.hexes)


def test_column_00_east_edge(board):
    for r in range(6):
        assert board.on_map(f"{r:02d}00"), r
    assert not board.on_map("0600")


def test_map_size_and_coast(board):
    assert 180 <= len(board.hexes) <= 260
    # the north-east corner is sea: the coast runs from Lunga Point to 0701
    assert not [h for h in board.hexes if row(h) >= 8 and col(h) <= 2]
    assert 1 <= len([h for h in board.hexes if row(h) == 12]) <= 4
    assert board.on_map("1209") and board.on_map("1210")
    # the far west beyond the coast from Lunga Point to 0619/0620 is sea
    assert not [h for h in board.hexes if row(h) >= 7 and col(h) >= 18]


def _vertices(a: str, b: str) -> list[frozenset]:
    ha, hb = hex_from_id(a), hex_from_id(b)
    common = set(hex_neighbors(ha)) & set(hex_neighbors(hb))
    return [frozenset((ha, hb, c)) for c in common]


def _river_systems(board: Board) -> list[set[frozenset[str]]]:
    """Group river hexsides into lines: two sides join if they share a corner."""
    sides = list(board.rivers)
    corners = {s: set(_vertices(*sorted(s))) for s in sides}
    systems: list[set[frozenset[str]]] = []
    left = set(sides)
    while left:
        first = left.pop()
        group = {first}
        todo = [first]
        while todo:
            s = todo.pop()
            for t in list(left):
                if corners[s] & corners[t]:
                    left.remove(t)
                    group.add(t)
                    todo.append(t)
        systems.append(group)
    return systems


def test_rivers_are_continuous_lines(board):
    systems = _river_systems(board)
    assert len(systems) == 2  # the Lunga, and the Ilu with its tributary
    lunga = next(s for s in systems if frozenset(("0709", "0710")) in s)
    ilu = next(s for s in systems if frozenset(("0503", "0603")) in s)
    for side in (("0710", "0809"), ("0909", "0910"), ("1209", "1210")):
        assert frozenset(side) in lunga, side
    for side in (("0400", "0500"), ("0400", "0501"), ("0702", "0703")):
        assert frozenset(side) in ilu, side
    # both rivers come in from the south edge
    assert any(row(h) == 0 for s in lunga for h in s)
    assert any(row(h) == 0 for s in ilu for h in s)


def test_rivers_reach_the_sea(board):
    # the last side of each river has a corner touching a sea hex
    for a, b in (("1209", "1210"), ("0702", "0703")):
        corners = _vertices(a, b)
        assert any(not board.on_map(id_from_hex(h)) for v in corners for h in v), (a, b)


def test_lunga_runs_west_of_henderson_and_just_west_of_bloody_ridge(board):
    lunga = next(s for s in _river_systems(board) if frozenset(("0709", "0710")) in s)
    assert frozenset(("0609", "0709")) in lunga  # round the south-west of Henderson
    ridge = [h for h in ("0207", "0307", "0406", "0507") if board.hexes[h].high]
    assert len(ridge) == 4
    for h in ridge:
        in_row = [side for side in lunga if all(row(x) == row(h) for x in side)]
        assert in_row, h
        for side in in_row:  # the river is west of the ridge, 1-2 hexes away
            assert all(col(x) > col(h) for x in side), (h, side)
            assert min(distance_between(h, x) for x in side) <= 2, (h, side)
