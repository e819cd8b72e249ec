"""Retreats, routs and pursuit (retreat.py): 15.3, 15.4, 13.8, 21.2."""

from __future__ import annotations

from engine.core.hexes import distance_between, neighbor_ids
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.forces import load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece
from engine.games.pacific_battles.retreat import ignores_retreat, options, pursuit_hexes, stack

B, F = load_board(), load_forces()


def open_ground(radius: int = 2) -> str:
    """A clear hex with land all round it for ``radius`` hexes."""
    for h, t in B.terrain.items():
        if t != "clear" or len(neighbor_ids(h)) < 6:
            continue
        ring = {n for n in B.terrain if distance_between(h, n) <= radius}
        if len(ring) == 1 + 3 * radius * (radius + 1) and all(B.terrain[n] not in ("mountain",) for n in ring):
            return h
    raise AssertionError("no open ground")


HOME = open_ground()


def test_15_33_6_a_retreat_ends_its_length_away_and_each_step_goes_farther() -> None:
    us = Piece("m", "1 Mar", "Allied", HOME)
    for o in options(B, F, [us], us, 2):
        assert o.fate == "safe" and len(o.path) == 2
        assert [distance_between(HOME, h) for h in o.path] == [1, 2]


def test_15_33_2_and_13_8_never_onto_the_enemy_and_eliminated_in_its_zoc() -> None:
    us = Piece("m", "1 Mar", "Allied", HOME)
    ring = neighbor_ids(HOME)
    jp = Piece("j", "124 Inf", "Japanese", ring[0])
    opts = options(B, F, [us, jp], us, 1)
    assert all(o.path[0] != ring[0] for o in opts)
    assert all(o.fate == "safe" for o in opts) and all(o.path[0] not in B.neighbours(ring[0]) for o in opts)
    # ringed: every way out is in the enemy ZOC, so each retreat ends there, eliminated
    around = [Piece(f"j{i}", "124 Inf", "Japanese", ring[i]) for i in (0, 3)]
    opts = options(B, F, [us, *around], us, 2)
    assert opts and all(o.fate == "zoc" and len(o.path) == 1 for o in opts)


def test_15_33_7_no_path_that_over_stacks_while_another_exists() -> None:
    us = Piece("m", "1 Mar", "Allied", HOME)
    ring = neighbor_ids(HOME)
    crowd = [Piece(f"c{i}", "5 Mar", "Allied", ring[1]) for i in range(2)]  # six battalions already
    assert stack(F, crowd, ring[1], "Allied") == 6
    opts = options(B, F, [us, *crowd], us, 1)
    assert opts and ring[1] not in [o.path[0] for o in opts]


def test_15_33_8_9_supply_and_immobile_units_are_eliminated_instead() -> None:
    assert options(B, F, [Piece("s", SUPPLY, "Allied", HOME)], Piece("s", SUPPLY, "Allied", HOME), 1) == []


def test_21_2_and_15_5_fortifications_and_banzai() -> None:
    assert ignores_retreat(1, rout=False, fortified=True, banzai_japanese=False) is None
    assert ignores_retreat(None, rout=True, fortified=True, banzai_japanese=False) == 1
    assert ignores_retreat(2, rout=False, fortified=True, banzai_japanese=False) == 2
    assert ignores_retreat(2, rout=False, fortified=False, banzai_japanese=True) is None


def test_15_4_pursuit_into_the_cleared_hex_ignoring_zoc() -> None:
    ring = neighbor_ids(HOME)
    jp = Piece("j", "124 Inf", "Japanese", ring[0])
    other = Piece("k", "4 Inf", "Japanese", ring[2])  # its ZOC covers HOME: ignored (15.44)
    assert pursuit_hexes(B, F, [jp, other], jp, {HOME}) == [HOME]
    assert pursuit_hexes(B, F, [jp, Piece("m", "1 Mar", "Allied", HOME)], jp, {HOME}) == []  # not cleared
