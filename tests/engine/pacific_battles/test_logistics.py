"""Logistics, engineers, fortifications, ports and Henderson Field (logistics.py)."""

from __future__ import annotations

from engine.games.pacific_battles import logistics as lg
from engine.games.pacific_battles.board import load_board
from engine.games.pacific_battles.forces import load_forces
from engine.games.pacific_battles.movement import SUPPLY, Piece

B, F = load_board(), load_forces()
HF = B.places["Henderson Field"]
KUKUM, LUNGA = B.places["Kukum"], B.places["Lunga Point"]


def test_7_2_and_7_3_a_supply_unit_activates_an_hq_in_or_next_to_its_hex() -> None:
    supply = Piece("s", SUPPLY, "Allied", HF)
    near = Piece("h", "1 Mar Div HQ", "Allied", B.neighbours(HF)[0])
    far = Piece("g", "Americal HQ", "Allied", KUKUM)
    assert lg.activatable(F, [supply, near, far], supply) == [near]


def test_7_5_refit_costs() -> None:
    assert lg.refit_cost(F, ["1 Mar Div HQ"]) == 2  # an HQ: its support value
    assert lg.refit_cost(F, ["1 Mar"]) == 1  # three battalion equivalents for one point
    assert lg.refit_cost(F, ["1 Mar", "USMC Bn"]) == 2  # four
    assert lg.refit_cost(F, ["USMC Bn", "USMC Bn", "1 Raider"]) == 1


def test_7_6_one_supply_point_repairs_up_to_three_air_points() -> None:
    assert [lg.repair_cost(n) for n in (1, 3, 4, 6)] == [1, 1, 2, 2]  # "four to six ... two supply points"


def test_26_1_henderson_field_needs_a_combat_effective_engineer_and_not_in_august() -> None:
    eng = Piece("e", "1 Eng", "Allied", HF)
    assert not lg.henderson_active(B, F, [eng], "Allied", turn=1)
    assert lg.henderson_active(B, F, [eng], "Allied", turn=2)
    assert not lg.henderson_active(B, F, [Piece("e", "1 Eng", "Allied", HF, suppressed=True)], "Allied", turn=2)
    assert not lg.henderson_active(B, F, [Piece("m", "1 Mar", "Allied", HF)], "Allied", turn=2)


def test_26_8_three_battalions_and_a_supply_unit_land_where_there_is_no_port() -> None:
    assert lg.landing_fits(B, F, [], LUNGA, "Allied", battalions=3, supply_units=1)
    assert not lg.landing_fits(B, F, [], LUNGA, "Allied", battalions=4, supply_units=0)
    port = [Piece("e", "1 Eng", "Allied", LUNGA)]
    assert lg.is_port(B, F, port, LUNGA, "Allied")
    assert lg.landing_fits(B, F, port, LUNGA, "Allied", battalions=9, supply_units=3)
    assert not lg.is_port(B, F, [Piece("e", "1 Eng", "Allied", KUKUM)], KUKUM, "Allied")  # no objective hex
    assert not lg.landing_fits(B, F, [], HF, "Allied", 1, 0)  # inland


def test_20_3_an_engineer_with_supply_fortifies_its_hex_and_friendly_neighbours() -> None:
    eng = Piece("e", "39 Eng", "Japanese", HF)
    friend = Piece("f", "124 Inf", "Japanese", B.neighbours(HF)[0])
    supply = Piece("s", SUPPLY, "Japanese", B.neighbours(HF)[1])
    assert lg.fortification_hexes(B, F, [eng, friend, supply], eng) == {HF, friend.hex}  # not the supply alone
    assert lg.fortification_hexes(B, F, [eng, friend], eng) == set()  # no supply to spend
