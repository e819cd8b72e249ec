"""The logistics phase (7.0, 9.0, 20.3, 21.3, 26.3, 26.7, Dig In, Staff Planning) and a
land impulse's movement and strike phases (10.2, 11.2, 16.7, 16.8, 17.2, 22.0, 26.4),
played through the engine's commands on positions built with ``testing.position``."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalCommandError
from engine.core.events import Event
from engine.core.hexes import distance_between, neighbor_ids
from engine.core.visibility import for_viewer
from engine.games.pacific_battles import tables
from engine.games.pacific_battles.movement import Piece
from engine.games.pacific_battles.queries import board
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import SIDES, Off, PBState
from engine.games.pacific_battles.testing import force_dice, legal, play, position

B = board()
HF = B.places["Henderson Field"]
N = B.neighbours(HF)
LUNGA, KOLI = B.places["Lunga Point"], B.places["Koli Point"]


def at_distance(origin: str, d: int, avoid: tuple[str, ...] = ()) -> str:
    return next(h for h in sorted(B.terrain) if distance_between(h, origin) == d
                and all(distance_between(h, a) > 1 for a in avoid))


def datas(state: PBState, side: str, kind: str) -> list[dict]:
    return [c.data for c in legal(state, side, kind)]


def supply_at(state: PBState, hex_id: str) -> list[str]:
    return sorted(p.id for p in state.at(hex_id) if p.unit == "Supply")


def box(state: PBState, *items: tuple[str, str, str, str]) -> None:
    """Off-map pieces: (id, unit, side, box)."""
    for pid, unit, side, where in items:
        state.off[pid] = Off(pid, unit, side, where)


def stub(event: Event, viewer: str) -> dict | None:
    seen = for_viewer(event, viewer, SIDES)
    return None if seen is None else seen.data


# --- 7.9 / 4.1 1f: suppression ends at the start of the phase ------------------------------------

def test_4_1_1f_suppression_markers_come_off_at_the_start_of_the_own_logistics_phase() -> None:
    s = position({"1 Mar": ("1 Mar", HF), "124 Inf": ("124 Inf", at_distance(HF, 6))},
                 phase="reinforcements_second", first="Allied", suppressed=("1 Mar", "124 Inf"))
    events = play(s, "end_phase", "Japanese")
    assert s.phase == "logistics_first"
    assert not s.pieces["1 Mar"].suppressed
    assert s.pieces["124 Inf"].suppressed  # the Japanese remove theirs in their own logistics phase
    removed = next(e for e in events if e.type == "suppression_removed")
    assert removed.data["ids"] == ["1 Mar"]
    seen = stub(removed, "Japanese")
    assert seen["side"] == "Allied" and "ids" not in seen  # which units were suppressed stays Allied


# --- 7.2, 7.3, 7.4: HQ activation -------------------------------------------------------------------

def test_7_2_7_3_a_supply_point_activates_an_hq_in_or_next_to_its_hex() -> None:
    far = at_distance(HF, 2)
    s = position({"s1": ("Supply", HF, "Allied"), "1 Mar Div HQ": ("1 Mar Div HQ", N[0]),
                  "Americal HQ": ("Americal HQ", far)}, phase="logistics_first")
    assert datas(s, "Allied", "activate") == [{"supply": "s1", "hq": "1 Mar Div HQ"}]
    with pytest.raises(IllegalCommandError) as err:
        play(s, "activate", "Allied", supply="s1", hq="Americal HQ")
    assert err.value.rule == "7.3"
    play(s, "activate", "Allied", supply="s1", hq="1 Mar Div HQ")
    assert "1 Mar Div HQ" in s.active
    assert "s1" not in s.pieces  # the supply point is expended (7.1)


def test_7_3_enemy_zoc_does_not_stop_an_activation() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "1 Mar Div HQ": ("1 Mar Div HQ", HF),
                  "124 Inf": ("124 Inf", N[0])}, phase="logistics_first")
    assert {"supply": "s1", "hq": "1 Mar Div HQ"} in datas(s, "Allied", "activate")


def test_7_4_an_hq_not_activated_this_phase_flips_to_its_inactive_side() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "1 Mar Div HQ": ("1 Mar Div HQ", HF),
                  "Americal HQ": ("Americal HQ", at_distance(HF, 4)), "1 Mar": ("1 Mar", N[0])},
                 phase="logistics_first", active=("1 Mar Div HQ", "Americal HQ"))
    play(s, "activate", "Allied", supply="s1", hq="1 Mar Div HQ")
    events = play(s, "end_phase", "Allied")
    assert s.active == {"1 Mar Div HQ"}
    flipped = next(e for e in events if e.type == "hqs_deactivated")
    assert flipped.data["ids"] == ["Americal HQ"] and "7.4" in flipped.data["why"]


# --- 7.5, 7.51: refit --------------------------------------------------------------------------------

def test_7_5_a_regiment_refits_for_one_point_in_the_supply_hex() -> None:
    s = position({"s1": ("Supply", N[0], "Allied"), "s2": ("Supply", N[0], "Allied"), "1 Eng": ("1 Eng", HF)},
                 phase="logistics_first")
    box(s, ("1 Mar", "1 Mar", "Allied", "replace"))
    play(s, "refit", "Allied", unit="1 Mar", supply="s1")
    assert s.pieces["1 Mar"].hex == N[0]  # 7.51: where the supply point was expended
    assert "1 Mar" not in s.off
    assert supply_at(s, N[0]) == ["s2"]  # one point for three battalion equivalents


def test_7_5_one_point_refits_three_battalions_in_one_hex() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "s2": ("Supply", HF, "Allied"),
                  "s3": ("Supply", LUNGA, "Allied"), "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, *[(f"b{i}", "USMC Bn", "Allied", "replace") for i in range(5)])
    play(s, "refit", "Allied", unit="b0", supply="s1")
    assert supply_at(s, HF) == ["s2"] and s.refit_credit[HF] == 2
    play(s, "refit", "Allied", unit="b1", supply="s2")  # paid by s1
    play(s, "refit", "Allied", unit="b2", supply="s2")
    assert supply_at(s, HF) == ["s2"]  # three battalions, one point
    assert [s.pieces[f"b{i}"].hex for i in range(3)] == [HF, HF, HF]
    play(s, "refit", "Allied", unit="b3", supply="s3")  # the credit is s1's hex's, not Lunga Point's
    assert supply_at(s, LUNGA) == [] and s.pieces["b3"].hex == LUNGA
    play(s, "refit", "Allied", unit="b4", supply="s2")  # the fourth battalion at HF: a second point
    assert supply_at(s, HF) == []


def test_7_5_the_last_point_in_a_hex_still_refits_three_battalions() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, *[(f"b{i}", "USMC Bn", "Allied", "replace") for i in range(3)])
    play(s, "refit", "Allied", unit="b0", supply="s1")
    assert s.phase == "logistics_first"
    assert sorted(c["unit"] for c in datas(s, "Allied", "refit")) == ["b1", "b2"]


def test_7_5_battalions_first_then_a_regiment_five_equivalents_for_two_points() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "s2": ("Supply", HF, "Allied"), "s3": ("Supply", HF, "Allied"),
                  "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, ("b0", "USMC Bn", "Allied", "replace"), ("b1", "USMC Bn", "Allied", "replace"),
        ("1 Mar", "1 Mar", "Allied", "replace"))
    for unit, supply in (("b0", "s1"), ("b1", "s2"), ("1 Mar", "s2")):
        play(s, "refit", "Allied", unit=unit, supply=supply)
    assert {"b0", "b1", "1 Mar"} <= set(s.pieces) and supply_at(s, HF) == ["s3"]


def test_7_5_five_battalion_equivalents_in_one_hex_cost_two_points_in_any_order() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "s2": ("Supply", HF, "Allied"), "s3": ("Supply", HF, "Allied"),
                  "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, ("b0", "USMC Bn", "Allied", "replace"), ("b1", "USMC Bn", "Allied", "replace"),
        ("1 Mar", "1 Mar", "Allied", "replace"))
    play(s, "refit", "Allied", unit="b0", supply="s1")
    play(s, "refit", "Allied", unit="1 Mar", supply="s2")
    play(s, "refit", "Allied", unit="b1", supply="s3")
    assert {"b0", "b1", "1 Mar"} <= set(s.pieces)
    assert supply_at(s, HF) == ["s3"]  # ceil(5 / 3) = 2 points, as b0, b1, then 1 Mar would cost


def test_7_5_an_hq_refit_costs_its_support_value() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "s2": ("Supply", LUNGA, "Allied"),
                  "s3": ("Supply", LUNGA, "Allied"), "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, ("1 Mar Div HQ", "1 Mar Div HQ", "Allied", "replace"))  # support 2
    assert [c["supply"] for c in datas(s, "Allied", "refit")] == ["s2"]  # not the lone point at HF
    with pytest.raises(IllegalCommandError) as err:
        play(s, "refit", "Allied", unit="1 Mar Div HQ", supply="s1")
    assert err.value.rule == "7.5"
    play(s, "refit", "Allied", unit="1 Mar Div HQ", supply="s2")
    assert supply_at(s, LUNGA) == [] and s.pieces["1 Mar Div HQ"].hex == LUNGA
    assert supply_at(s, HF) == ["s1"]


def test_7_5_only_the_replaceable_units_box_refits() -> None:
    s = position({"s1": ("Supply", HF, "Allied"), "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    box(s, ("1 Mar", "1 Mar", "Allied", "dead"), ("5 Mar", "5 Mar", "Allied", "replace"))
    assert [c["unit"] for c in datas(s, "Allied", "refit")] == ["5 Mar"]  # 15.21, 7.5


# --- 7.6, 26.3: air repair ------------------------------------------------------------------------------

def test_7_6_26_3_a_point_in_the_home_base_repairs_three_damaged_air_units() -> None:
    s = position({"1 Eng": ("1 Eng", N[0]), "s9": ("Supply", LUNGA, "Allied")}, phase="logistics_first",
                 air={"Allied": {"damaged": 5, "reserve": 1}})
    box(s, ("sb1", "Supply", "Allied", "base"), ("sb2", "Supply", "Allied", "base"))
    assert datas(s, "Allied", "repair") == [{"supply": "sb1"}]  # 7.61: not a point elsewhere on the map
    play(s, "repair", "Allied", supply="sb1")
    assert (s.air["Allied"].damaged, s.air["Allied"].reserve) == (2, 4)
    assert "sb1" not in s.off and "sb2" in s.off
    play(s, "repair", "Allied", supply="sb2")
    assert (s.air["Allied"].damaged, s.air["Allied"].reserve) == (0, 6)


def test_26_3_at_most_one_point_on_henderson_field_repairs_aircraft() -> None:
    s = position({"1 Eng": ("1 Eng", HF), "s1": ("Supply", HF, "Allied"), "s2": ("Supply", HF, "Allied")},
                 phase="logistics_first", air={"Allied": {"damaged": 6}})
    box(s, ("sb1", "Supply", "Allied", "base"))
    assert {"supply": "s1"} in datas(s, "Allied", "repair")
    play(s, "repair", "Allied", supply="s1")
    assert s.air["Allied"].damaged == 3
    assert datas(s, "Allied", "repair") == [{"supply": "sb1"}]  # no second point on the field
    with pytest.raises(IllegalCommandError):
        play(s, "repair", "Allied", supply="s2")
    play(s, "repair", "Allied", supply="sb1")
    assert s.air["Allied"].damaged == 0


# --- 20.3, 21.3: fortifications ---------------------------------------------------------------------

def test_20_3_an_engineer_fortifies_its_hex_and_adjacent_friendly_hexes() -> None:
    two = at_distance(HF, 2)
    s = position({"1 Eng": ("1 Eng", HF), "s1": ("Supply", HF, "Allied"), "1 Mar": ("1 Mar", N[1]),
                  "1 Raider": ("1 Raider", two), "124 Inf": ("124 Inf", N[3])}, phase="logistics_first")
    assert datas(s, "Allied", "fortify") == [{"engineer": "1 Eng", "supply": "s1"}]
    play(s, "fortify", "Allied", engineer="1 Eng", supply="s1")
    assert s.fortified == {HF, N[1]}  # not the raiders two hexes off, not the enemy's hex
    assert "s1" not in s.pieces


def test_20_3_a_suppressed_engineer_or_one_without_supply_cannot_fortify() -> None:
    s = position({"1 Eng": ("1 Eng", HF), "s1": ("Supply", HF, "Allied"), "6 CB": ("6 CB", LUNGA),
                  "s2": ("Supply", at_distance(LUNGA, 2), "Allied"), "1 Mar": ("1 Mar", N[0])},
                 phase="logistics_first", suppressed=("1 Eng",))
    assert datas(s, "Allied", "fortify") == []
    with pytest.raises(IllegalCommandError) as err:
        play(s, "fortify", "Allied", engineer="1 Eng", supply="s1")
    assert err.value.rule == "20.3"


def test_21_3_a_fortification_goes_when_its_hex_is_emptied() -> None:
    s = position({"1 Mar": ("1 Mar", "1531"), "5 Mar": ("5 Mar", "1531"), "1 Raider": ("1 Raider", HF)},
                 phase="initial_first_movement", fortified=("1531", HF))
    play(s, "move", "Allied", unit="1 Mar", to="1631")
    assert s.fortified == {"1531", HF}  # 5 Mar is still in it
    play(s, "move", "Allied", unit="5 Mar", to="1631")
    assert s.fortified == {HF}
    play(s, "move", "Allied", unit="1 Raider", to="1632")
    assert s.fortified == set()


# --- 9.0, 26.7: breakdown and combine ----------------------------------------------------------------

def test_26_7_a_usmc_regiment_breaks_into_three_battalions_and_combines_back() -> None:
    s = position({"1 Mar": ("1 Mar", HF), "1 Eng": ("1 Eng", N[0])}, phase="logistics_first")
    assert {"unit": "1 Mar"} in datas(s, "Allied", "breakdown")
    assert {"unit": "1 Eng"} not in datas(s, "Allied", "breakdown")
    play(s, "breakdown", "Allied", unit="1 Mar")
    bns = sorted(p.id for p in s.at(HF))
    assert "1 Mar" not in s.pieces and len(bns) == 3
    assert {s.pieces[b].unit for b in bns} == {"USMC Bn"}
    assert {tuple(u["factors"]) for u in RULES.view(s, "Allied")["units"] if u["id"] in bns} == {(1, 2, 8)}
    assert datas(s, "Allied", "combine") == [{"into": "1 Mar", "units": bns}]
    play(s, "combine", "Allied", into="1 Mar", units=bns)
    assert [p.id for p in s.at(HF)] == ["1 Mar"] and not any(b in s.pieces for b in bns)


def test_9_42_suppressed_battalions_may_not_combine() -> None:
    s = position({"a": ("USMC Bn", HF), "b": ("USMC Bn", HF), "c": ("USMC Bn", HF),
                  "d": ("USMC Bn", N[0]), "e": ("USMC Bn", N[0]), "f": ("USMC Bn", N[0])},
                 phase="logistics_first", suppressed=("c",))
    s.mix = ["1 Mar"]
    assert datas(s, "Allied", "combine") == [{"into": "1 Mar", "units": ["d", "e", "f"]}]
    with pytest.raises(IllegalCommandError) as err:
        play(s, "combine", "Allied", into="1 Mar", units=["a", "b", "c"])
    assert err.value.rule == "9.2"


def test_26_7_9_2_army_battalions_never_make_a_usmc_regiment_and_must_share_a_hex() -> None:
    s = position({"a": ("Army Bn", HF), "b": ("Army Bn", HF), "c": ("Army Bn", HF),
                  "d": ("USMC Bn", HF), "e": ("USMC Bn", N[0]), "f": ("USMC Bn", N[0])},
                 phase="logistics_first")
    s.mix = ["1 Mar", "164 Inf"]
    assert datas(s, "Allied", "combine") == [{"into": "164 Inf", "units": ["a", "b", "c"]}]


# --- Dig In and Staff Planning --------------------------------------------------------------------

def test_dig_in_places_up_to_three_fortifications_free() -> None:
    hexes = ["1420", "1422", "1424", "1520"]
    s = position({f"j{i}": ("Jp Bn", h) for i, h in enumerate(hexes)} | {"s1": ("Supply", hexes[0], "Japanese")},
                 phase="logistics_first", first="Japanese")
    s.hand["Japanese"] = ["Dig In"]
    in_pool = s.pool["Japanese"].count("Dig In")
    assert {"marker": "Dig In", "target": None} in datas(s, "Japanese", "play")
    play(s, "play", "Japanese", marker="Dig In", target=None)
    assert s.pending[0]["kind"] == "dig_in"
    assert sorted(c["hex"] for c in datas(s, "Japanese", "dig")) == sorted(hexes)  # Japanese units only
    for h in hexes[:3]:
        play(s, "dig", "Japanese", hex=h)
    assert s.fortified == set(hexes[:3]) and not s.pending  # three at most
    assert supply_at(s, hexes[0]) == ["s1"]  # no supply, no engineer
    assert s.pool["Japanese"].count("Dig In") == in_pool + 1 and s.hand["Japanese"] == []  # back to the pool


def test_staff_planning_activates_one_hq_without_supply() -> None:
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", HF), "Americal HQ": ("Americal HQ", LUNGA),
                  "1 Mar": ("1 Mar", N[0])}, phase="logistics_first")
    s.hand["Allied"] = ["Staff Planning"]
    play(s, "play", "Allied", marker="Staff Planning", target=None)
    assert sorted(c["hq"] for c in datas(s, "Allied", "activate_free")) == ["1 Mar Div HQ", "Americal HQ"]
    play(s, "activate_free", "Allied", hq="Americal HQ")
    assert not s.pending and s.active == {"Americal HQ"}
    play(s, "end_phase", "Allied")
    assert s.active == {"Americal HQ"}  # activated this phase: 7.4 leaves it on its active side


def test_staff_planning_keeps_an_hq_active_from_the_last_turn_active() -> None:
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", HF), "1 Mar": ("1 Mar", N[0])}, phase="logistics_first",
                 active=("1 Mar Div HQ",))
    s.hand["Allied"] = ["Staff Planning"]
    assert {"marker": "Staff Planning", "target": None} in datas(s, "Allied", "play")


# --- 11.2, 10.2: movement ------------------------------------------------------------------------------

def test_11_2_a_unit_moves_once_a_phase() -> None:
    s = position({"1 Mar": ("1 Mar", HF), "5 Mar": ("5 Mar", HF)}, phase="initial_first_movement")
    play(s, "move", "Allied", unit="1 Mar", to="1531")
    assert s.pieces["1 Mar"].hex == "1531"
    movers = {c["unit"] for c in datas(s, "Allied", "move")}
    assert movers == {"5 Mar"}
    with pytest.raises(IllegalCommandError) as err:
        play(s, "move", "Allied", unit="1 Mar", to=HF)
    assert err.value.rule == "11.2"


def test_10_2_follow_on_movement_only_for_units_that_started_in_an_activated_hq_radius() -> None:
    outside = at_distance(HF, 4)
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", HF), "1 Raider": ("1 Raider", N[0]),
                  "1 Para": ("1 Para", outside)},
                 phase="initial_second_combat", first="Allied", active=("1 Mar Div HQ",))
    play(s, "end_phase", "Japanese")
    assert s.phase == "follow_first_movement"
    assert s.eligible == {"1 Mar Div HQ", "1 Raider"}  # radius 3: 1 Para is four hexes off
    assert {c["unit"] for c in datas(s, "Allied", "move")} == {"1 Mar Div HQ", "1 Raider"}
    with pytest.raises(IllegalCommandError) as err:
        play(s, "move", "Allied", unit="1 Para", to=at_distance(outside, 1))
    assert err.value.rule == "10.2"
    closer = next(h for h in B.neighbours(HF) if distance_between(h, outside) == 3)
    play(s, "move", "Allied", unit="1 Mar Div HQ", to=closer)  # now 1 Para is in its radius ...
    assert "1 Para" not in {c["unit"] for c in datas(s, "Allied", "move")}  # ... but it did not start there


def test_10_2_an_inactive_hq_gives_no_follow_on_movement() -> None:
    far = at_distance(HF, 8)
    s = position({"1 Mar Div HQ": ("1 Mar Div HQ", HF), "1 Raider": ("1 Raider", N[0]),
                  "35 HQ": ("35 HQ", far), "Kuma Bn": ("Kuma Bn", far)},
                 phase="initial_second_combat", first="Allied", active=("35 HQ",))
    events = play(s, "end_phase", "Japanese")
    allied = next(e for e in events if e.type == "follow_on_set" and e.data["public"]["side"] == "Allied")
    assert allied.data["ids"] == []  # nobody may move: the Allied follow-on movement passes by itself
    assert s.phase == "follow_first_strike"  # its strike phase waits for the word (R-PB-5.4)
    play(s, "end_phase", "Allied")
    assert s.phase == "follow_second_movement"
    assert s.pieces["1 Raider"].hex == N[0]
    assert {c["unit"] for c in datas(s, "Japanese", "move")} == {"35 HQ", "Kuma Bn"}


# --- 22.0: amphibious movement -----------------------------------------------------------------------

def amphibious_position() -> PBState:
    return position({"1 LVT": ("1 LVT", LUNGA), "1 Mar": ("1 Mar", LUNGA), "1 Raider": ("1 Raider", LUNGA),
                     "5 Mar": ("5 Mar", HF), **{f"s{i}": ("Supply", LUNGA, "Allied") for i in range(4)}},
                    phase="initial_first_movement")


def test_22_2_an_amphibious_unit_carries_one_stack_of_combat_units() -> None:
    s = amphibious_position()
    sails = datas(s, "Allied", "sail")
    assert {"carrier": "1 LVT", "to": KOLI, "cargo": "units"} in sails
    assert all(c["to"] in B.coastal for c in sails)  # 22.1: coastal to coastal
    events = play(s, "sail", "Allied", carrier="1 LVT", to=KOLI, cargo="units")
    assert {p.id for p in s.at(KOLI)} == {"1 LVT", "1 Mar", "1 Raider"}
    assert supply_at(s, LUNGA) == ["s0", "s1", "s2", "s3"]  # never both
    assert {"1 LVT", "1 Mar", "1 Raider"} <= s.moved  # 22.1: the whole move
    assert {c["unit"] for c in datas(s, "Allied", "move")} == {"5 Mar"}
    moved = next(e for e in events if e.type == "pieces_moved")
    assert stub(moved, "Japanese")["amphibious"] and "ids" not in stub(moved, "Japanese")


def test_22_2_or_three_supply_points() -> None:
    s = amphibious_position()
    play(s, "sail", "Allied", carrier="1 LVT", to=KOLI, cargo="supply")
    assert {p.id for p in s.at(KOLI)} == {"1 LVT", "s0", "s1", "s2"}
    assert supply_at(s, LUNGA) == ["s3"]
    assert {c["unit"] for c in datas(s, "Allied", "move")} == {"1 Mar", "1 Raider", "5 Mar"}


def test_22_3_no_amphibious_landing_on_the_enemy_and_a_suppressed_carrier_stays() -> None:
    s = amphibious_position()
    s.pieces["Kuma Bn"] = Piece("Kuma Bn", "Kuma Bn", "Japanese", KOLI)
    assert KOLI not in {c["to"] for c in datas(s, "Allied", "sail")}
    s = position({"1 LVT": ("1 LVT", LUNGA), "1 Mar": ("1 Mar", LUNGA)}, phase="initial_first_movement",
                 suppressed=("1 LVT",))
    assert datas(s, "Allied", "sail") == []  # 22.0: a combat effective amphibious unit


# --- 16.7, 18.2: air recon ----------------------------------------------------------------------------

def test_16_7_air_recon_shows_the_hex_and_its_neighbours_to_the_recon_side_only() -> None:
    far = next(h for h in sorted(B.terrain) if distance_between(h, HF) >= 5)
    s = position({"124 Inf": ("124 Inf", HF), "35 HQ": ("35 HQ", N[1]), "16 Inf": ("16 Inf", far),
                  "1 Mar": ("1 Mar", at_distance(LUNGA, 1, avoid=(HF,)))},
                 phase="initial_first_movement", air={"Allied": {"missions": {"recon": 1}}})
    before = RULES.view(s, "Allied")
    assert all(st["units"] is None for st in before["stacks"])
    assert {"hex": HF} in datas(s, "Allied", "recon")
    events = play(s, "recon", "Allied", hex=HF)
    assert "recon" not in s.air["Allied"].missions  # one air point spent
    view = RULES.view(s, "Allied")
    stacks = {st["hex"]: st for st in view["stacks"]}
    assert [u["unit"] for u in stacks[HF]["units"]] == ["124 Inf"]
    assert [u["unit"] for u in stacks[N[1]]["units"]] == ["35 HQ"]
    assert stacks[far]["units"] is None
    assert "16 Inf" not in json.dumps(view)
    jp = RULES.view(s, "Japanese")
    assert [st["units"] for st in jp["stacks"]] == [None]  # the Japanese learn nothing of the Allies
    examined = next(e for e in events if e.type == "examined")
    assert stub(examined, "Allied")["units"][HF] == [["124 Inf", "124 Inf"]]
    for viewer in ("Japanese", None):
        seen = stub(examined, viewer)
        assert {k: seen[k] for k in ("side", "rule", "stacks")} == {"side": "Allied", "rule": "16.7", "stacks": 2}
        assert "units" not in seen and "124 Inf" not in json.dumps(seen) and "35 HQ" not in json.dumps(seen)


def test_16_7_air_recon_may_fly_over_an_empty_hex_and_examines_the_stacks_next_to_it() -> None:
    """16.7 "Place air unit(s) in any hex(es) on the map": one flight over the empty hex
    between two enemy stacks examines both (R-PB-16.7: a flight that would examine nothing is
    not offered, and refused with the rule)."""
    between = next(h for h in sorted(B.terrain) if h not in (HF,) and distance_between(h, HF) == 1
                   and any(distance_between(n, h) == 1 and distance_between(n, HF) == 2 and n in B.terrain
                           for n in B.neighbours(h)))
    other_stack = next(n for n in sorted(B.neighbours(between)) if distance_between(n, HF) == 2 and n in B.terrain)
    far = next(h for h in sorted(B.terrain) if distance_between(h, HF) >= 8)
    s = position({"124 Inf": ("124 Inf", HF), "4 Inf": ("4 Inf", other_stack), "1 Mar": ("1 Mar", far)},
                 phase="initial_first_movement", air={"Allied": {"missions": {"recon": 1}}})
    targets = {c["hex"] for c in datas(s, "Allied", "recon")}
    assert between in targets and far not in targets
    with pytest.raises(IllegalCommandError) as err:
        play(s, "recon", "Allied", hex=far)
    assert err.value.rule == "16.7" and "examines an enemy stack" in str(err.value)
    play(s, "recon", "Allied", hex=between)
    stacks = {st["hex"]: st["units"] for st in RULES.view(s, "Allied")["stacks"]}
    assert [u["unit"] for u in stacks[HF]] == ["124 Inf"] and [u["unit"] for u in stacks[other_stack]] == ["4 Inf"]


def test_16_7_air_recon_may_fly_over_the_sea_next_to_a_stack_on_the_coast() -> None:
    """16.7 "any hex(es) on the map": an all-sea hex next to a stack on the beach is one."""
    beach = next(h for h in sorted(B.coastal) if distance_between(h, LUNGA) >= 3)
    sea = sorted(n for n in neighbor_ids(beach) if n in B.sea)
    s = position({"4 Inf": ("4 Inf", beach), "1 Mar": ("1 Mar", LUNGA)},
                 phase="initial_first_movement", air={"Allied": {"missions": {"recon": 1}}})
    targets = {c["hex"] for c in datas(s, "Allied", "recon")}
    assert sea and set(sea) <= targets
    play(s, "recon", "Allied", hex=sea[0])
    stacks = {st["hex"]: st["units"] for st in RULES.view(s, "Allied")["stacks"]}
    assert [u["unit"] for u in stacks[beach]] == ["4 Inf"]


def test_16_7_no_recon_without_a_point_on_the_recon_mission() -> None:
    s = position({"124 Inf": ("124 Inf", HF), "1 Mar": ("1 Mar", LUNGA)}, phase="initial_first_movement")
    assert datas(s, "Allied", "recon") == []
    with pytest.raises(IllegalCommandError) as err:
        play(s, "recon", "Allied", hex=HF)
    assert err.value.rule == "16.7"


# --- 16.8, 26.4, 17.2: strikes and naval bombardment ------------------------------------------------

CLEAR_TARGET = "1531"  # clear: no bombardment shift (16.81)


def strike_position(**air: int) -> PBState:
    s = position({"124 Inf": ("124 Inf", CLEAR_TARGET), "j1": ("Supply", CLEAR_TARGET, "Japanese"),
                  "j2": ("Supply", CLEAR_TARGET, "Japanese"), "Kuma Bn": ("Kuma Bn", LUNGA),
                  "1 Mar": ("1 Mar", KOLI)},
                 phase="initial_first_strike", air={"Allied": {"missions": {"strike": 7, **air}}})
    return s


def test_26_4_at_most_five_air_strike_points_a_hex() -> None:
    s = strike_position()
    assert sorted(c["points"] for c in datas(s, "Allied", "strike") if c["hex"] == CLEAR_TARGET) == [1, 2, 3, 4, 5]
    play(s, "strike", "Allied", hex=CLEAR_TARGET, points=3)
    assert sorted(c["points"] for c in datas(s, "Allied", "strike") if c["hex"] == CLEAR_TARGET) == [1, 2]
    with pytest.raises(IllegalCommandError) as err:
        play(s, "strike", "Allied", hex=CLEAR_TARGET, points=3)
    assert err.value.rule == "26.4"
    assert sorted(c["points"] for c in datas(s, "Allied", "strike") if c["hex"] == LUNGA) == [1, 2, 3, 4]  # 4 left
    assert tables.AIR_STRIKE_LIMIT == 5


def test_16_8_strikes_go_only_against_hexes_with_enemy_units() -> None:
    s = strike_position()
    assert {c["hex"] for c in datas(s, "Allied", "strike")} == {CLEAR_TARGET, LUNGA}
    with pytest.raises(IllegalCommandError) as err:
        play(s, "strike", "Allied", hex=HF, points=1)
    assert err.value.rule == "16.8"


def test_17_2_one_naval_bombardment_a_hex() -> None:
    s = strike_position()
    s.hand["Allied"] = ["Destroyer Support", "Naval Battle of Guadalcanal"]
    play(s, "play", "Allied", marker="Destroyer Support", target=CLEAR_TARGET)
    naval = {c["target"] for c in datas(s, "Allied", "play") if c["marker"] == "Naval Battle of Guadalcanal"}
    assert naval == {LUNGA}
    with pytest.raises(IllegalCommandError):
        play(s, "play", "Allied", marker="Naval Battle of Guadalcanal", target=CLEAR_TARGET)
    assert any(c["hex"] == CLEAR_TARGET for c in datas(s, "Allied", "strike"))  # naval and air combine (17.2)
    assert s.strikes == [{"hex": CLEAR_TARGET, "air": 0, "naval": "Destroyer Support", "value": 2, "artillery": None}]


def test_16_83_an_s_result_suppresses_the_combat_units_and_eliminates_one_supply_point() -> None:
    s = strike_position()
    play(s, "strike", "Allied", hex=CLEAR_TARGET, points=3)
    force_dice(s, {(1, 0): 4})  # "3" column, a 4: S
    events = play(s, "end_phase", "Allied")
    result = next(e for e in events if e.type == "strike_result")
    assert (result.data["column"], result.data["die"], result.data["result"]) == ("3", 4, "S")
    assert s.pieces["124 Inf"].suppressed
    assert len(supply_at(s, CLEAR_TARGET)) == 1  # one of the two supply points
    assert not s.pieces["Kuma Bn"].suppressed  # only the struck hex
    # 16.85: the Allies learn the result, not the units
    hidden = [e for e in events if e.type in ("suppressed", "pieces_removed")]
    assert sorted(e.type for e in hidden) == ["pieces_removed", "suppressed"]
    for e in hidden:
        assert "ids" not in stub(e, "Allied") and stub(e, "Japanese")["ids"]
    assert all(st["units"] is None for st in RULES.view(s, "Allied")["stacks"])


def test_16_84_aa_damages_one_air_unit_after_the_bombardment() -> None:
    s = strike_position()
    play(s, "strike", "Allied", hex=CLEAR_TARGET, points=3)
    force_dice(s, {(1, 0): 1})  # "3" column, a 1: AA
    events = play(s, "end_phase", "Allied")
    assert next(e for e in events if e.type == "strike_result").data["result"] == "AA"
    assert s.air["Allied"].damaged == 1  # one air unit, not the three
    assert s.air["Allied"].missions.get("struck") == 2
    assert not s.pieces["124 Inf"].suppressed and len(supply_at(s, CLEAR_TARGET)) == 2


def test_20_4_an_engineer_carries_one_supply_point_and_drops_it_at_the_end_of_its_move() -> None:
    s = position({"1 Eng": ("1 Eng", HF), "s1": ("Supply", HF, "Allied"), "s2": ("Supply", HF, "Allied")},
                 phase="initial_first_movement")
    carries = [c.data for c in legal(s, "Allied", "carry")]
    moves = [c.data for c in legal(s, "Allied", "move") if c.data["unit"] == "1 Eng"]
    assert carries and {c["to"] for c in carries} == {m["to"] for m in moves}  # the engineer's own movement
    to = carries[0]["to"]
    play(s, "carry", "Allied", unit="1 Eng", to=to)
    assert s.pieces["1 Eng"].hex == to and s.pieces["s1"].hex == to and s.pieces["s2"].hex == HF  # one point only
    assert legal(s, "Allied", "carry") == []  # it has moved: nothing more to carry
    s = position({"1 Eng": ("1 Eng", HF), "s1": ("Supply", HF, "Allied")}, phase="initial_first_movement",
                 suppressed=("1 Eng",))
    assert legal(s, "Allied", "carry") == []  # only a combat effective engineer (20.0)
