"""§7.11 USAF refuelling and §11 mission allocation, the US air phase:
"to_reserve" {unit}, "land" {unit, hex}, "allocate" {unit, box}, "end_phase"."""

from __future__ import annotations

import pytest
from fb_support import advance

from engine.core.errors import IllegalCommandError
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import play, position

FIGHTERS = ["us-vmf-223a", "us-vmf-223b", "us-vmf-224", "us-67fs", "us-vf-5", "us-vmf-121",
            "us-vmf-212", "us-vmf-112"]
BOMBERS = ["us-vmsb-232", "us-vmsb-231", "us-flight-300", "us-vt-8", "us-vmsb-141", "us-vs-71",
           "us-vmsb-141b", "us-vmsb-132"]
FIGHTER_BOMBER = "us-67fs-p39"
F1, F2, B1, B2 = FIGHTERS[0], FIGHTERS[1], BOMBERS[0], BOMBERS[1]
RES_F, RES_B = FIGHTERS[7], BOMBERS[7]  # kept for the Reserve in the tests below
# 17 units, all arrived by turn 7; the first 15 never include RES_F, RES_B or FIGHTER_BOMBER
ALL_USAF = FIGHTERS[:7] + BOMBERS[:7] + [FIGHTER_BOMBER, RES_F, RES_B]
# IJ ground units far away, so that the game goes on (§12).
IJ_FAR = {"ij-124-1": "0220", "ij-124-3": "0219", "ij-4-2": "0218", "ij-kuma": "0217"}
TURN = 7


def air_phase(units: dict[str, str], strips: dict | None = None, face_down: tuple[str, ...] = (),
              phase: str = "us_air"):
    state = position({**IJ_FAR, **units}, phase=phase, turn=TURN, strips=strips, others=ELIMINATED)
    for uid in face_down:
        state.unit(uid).face_down = True
    return state


def on_strip(units: list[str], hex_id: str = "0709") -> dict[str, str]:
    return {u: f"strip:{hex_id}" for u in units}


def legal(state) -> set[tuple[str, tuple]]:
    return {(c.type, tuple(sorted(c.data.items()))) for c in RULES.legal_commands(state)}


def cmd(kind: str, **data) -> tuple[str, tuple]:
    return kind, tuple(sorted(data.items()))


def where(state, uid: str) -> tuple[str, bool]:
    return state.units[uid].loc, state.units[uid].face_down


# --- capacity (§11, §6.4) ----------------------------------------------------------------

CAPACITY_CASES = [
    ({}, 12),  # Henderson's two hexes at start
    ({"0708": {"status": "dam"}}, 6),
    ({"0708": {"status": "dest"}}, 6),
    ({"0708": {"status": "dam"}, "0605": {"status": "oper", "built": True}}, 12),
]


@pytest.mark.parametrize(("strips", "capacity"), CAPACITY_CASES)
def test_capacity_is_six_per_operational_strip_hex(strips, capacity):
    at_capacity = air_phase(on_strip(ALL_USAF[:capacity]), strips)
    assert cmd("end_phase") in legal(at_capacity)
    assert not [c for c in RULES.legal_commands(at_capacity) if c.type == "to_reserve"]

    over = air_phase(on_strip(ALL_USAF[:capacity + 1]), strips)
    with pytest.raises(IllegalCommandError) as err:
        play(over, "end_phase")
    assert err.value.rule == "§11"
    # the US decides which active unit goes to the Reserve
    assert {c.data["unit"] for c in RULES.legal_commands(over)} == set(ALL_USAF[:capacity + 1])
    play(over, "to_reserve", unit=ALL_USAF[0])
    assert where(over, ALL_USAF[0]) == ("usaf_reserve", False)
    assert cmd("end_phase") in legal(over)


def test_no_operational_strip_means_no_active_usaf_unit():
    state = air_phase({F1: "cap", B1: "ga"}, {"0708": {"status": "dam"}, "0709": {"status": "dest"}})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "land", unit=F1, hex="0708")
    assert err.value.rule == "§11"
    play(state, "to_reserve", unit=F1)
    play(state, "to_reserve", unit=B1)
    assert where(state, F1) == where(state, B1) == ("usaf_reserve", False)


def test_excess_units_go_to_the_reserve_before_anything_else():
    # 0708 damaged: capacity 6; one fighter flew CAP and six units are on 0709
    state = air_phase({F1: "cap", **on_strip(ALL_USAF[2:8])}, {"0708": {"status": "dam"}})
    for kind, data in (("land", {"unit": F1, "hex": "0709"}), ("allocate", {"unit": ALL_USAF[2], "box": "cap"}),
                       ("end_phase", {})):
        with pytest.raises(IllegalCommandError) as err:
            play(state, kind, **data)
        assert err.value.rule == "§11"
    # the unit that flew may itself be the one sent to the Reserve
    assert cmd("to_reserve", unit=F1) in legal(state)
    play(state, "to_reserve", unit=ALL_USAF[7])
    play(state, "land", unit=F1, hex="0709")
    assert where(state, F1) == ("strip:0709", True)


# --- landing and refuelling (§7.11, §11) --------------------------------------------------

def test_units_that_flew_land_face_down_on_an_operational_strip():
    # F2 (face-up on the strip) keeps the phase open: it could still be allocated
    state = air_phase({F1: "cap", B1: "ga", B2: "ga", F2: "strip:0709"}, {"0708": {"status": "dam"}})
    assert {c.data["hex"] for c in RULES.legal_commands(state) if c.type == "land"} == {"0709"}
    with pytest.raises(IllegalCommandError) as err:
        play(state, "end_phase")  # every unit in CAP and Ground Attack must land first
    assert err.value.rule == "§11"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "land", unit=F1, hex="0708")  # damaged
    assert err.value.rule == "§11"
    for u in (F1, B1, B2):  # bombers land whether they flew a sortie or not
        play(state, "land", unit=u, hex="0709")
        assert where(state, u) == ("strip:0709", True)
    assert state.phase == "us_air"
    assert cmd("end_phase") in legal(state)


def test_face_down_units_are_refuelled_at_the_next_air_phase():
    state = air_phase({F1: "strip:0708", F2: "strip:0709", B1: "strip:0709"}, face_down=(F1, B1),
                      phase="us_engineering")
    events = play(state, "end_phase")
    assert state.phase == "us_air"
    assert [e.data["units"] for e in events if e.type == "usaf_refuelled"] == [[F1, B1]]
    assert where(state, F1) == ("strip:0708", False)
    assert where(state, B1) == ("strip:0709", False)


def test_a_unit_that_flew_sits_out_one_turn_then_is_ready_again():
    state = air_phase({F1: "cap", B1: "ga"})
    play(state, "land", unit=F1, hex="0708")
    play(state, "land", unit=B1, hex="0709")
    # refuelling, nothing left to allocate: the US hands the turn over by its word
    assert state.phase == "us_air" and [c.type for c in RULES.legal_commands(state)] == ["end_phase", "undo"]
    play(state, "end_phase")
    assert (state.phase, state.turn) == ("ij_movement", TURN + 1)
    assert where(state, F1) == ("strip:0708", True)  # face-down units stay on the strip
    assert where(state, B1) == ("strip:0709", True)
    advance(state, "us_air", TURN + 1)
    assert where(state, F1) == ("strip:0708", False)
    assert where(state, B1) == ("strip:0709", False)
    assert cmd("allocate", unit=F1, box="cap") in legal(state)
    assert cmd("allocate", unit=B1, box="ga") in legal(state)


# --- allocation (§11) ----------------------------------------------------------------------

def test_face_down_units_cannot_be_allocated():
    state = air_phase(on_strip([F1, B1]), face_down=(F1, B1))
    for u, box in ((F1, "cap"), (B1, "ga")):
        with pytest.raises(IllegalCommandError) as err:
            play(state, "allocate", unit=u, box=box)
        assert err.value.rule == "§11"


def test_fighters_go_to_cap_and_bombers_to_ground_attack():
    state = air_phase(on_strip([F1, B1, FIGHTER_BOMBER]))
    options = {(c.data["unit"], c.data["box"]) for c in RULES.legal_commands(state) if c.type == "allocate"}
    assert options == {(F1, "cap"), (B1, "ga"), (FIGHTER_BOMBER, "cap"), (FIGHTER_BOMBER, "ga")}
    with pytest.raises(IllegalCommandError) as err:
        play(state, "allocate", unit=F1, box="ga")
    assert err.value.rule == "§11"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "allocate", unit=B1, box="cap")
    assert err.value.rule == "§11"
    play(state, "allocate", unit=F1, box="cap")
    assert where(state, F1) == ("cap", False)


def test_unallocated_face_up_units_go_to_the_reserve_at_the_end_of_the_phase():
    state = air_phase({**on_strip([F1, B1], "0708"), F2: "strip:0709", "us-vmf-224": "usaf_reserve"},
                      face_down=(F2,))
    play(state, "end_phase")
    assert where(state, F1) == ("usaf_reserve", False)
    assert where(state, B1) == ("usaf_reserve", False)
    assert where(state, F2) == ("strip:0709", True)  # still refuelling
    assert where(state, "us-vmf-224") == ("usaf_reserve", False)


def test_reserve_units_can_be_activated_only_within_capacity():
    reserve = {RES_F: "usaf_reserve", RES_B: "usaf_reserve"}
    room_for_one = air_phase({**on_strip(ALL_USAF[:11]), **reserve}, face_down=tuple(ALL_USAF[:11]))
    assert cmd("allocate", unit=RES_F, box="cap") in legal(room_for_one)
    assert cmd("allocate", unit=RES_B, box="ga") in legal(room_for_one)
    play(room_for_one, "allocate", unit=RES_F, box="cap")
    assert where(room_for_one, RES_F) == ("cap", False)

    full = air_phase({**on_strip(ALL_USAF[:12]), RES_F: "usaf_reserve"}, face_down=tuple(ALL_USAF[:12]))
    with pytest.raises(IllegalCommandError) as err:
        play(full, "allocate", unit=RES_F, box="cap")
    assert err.value.rule == "§11"
    # one operational hex less: no room even with fewer units
    small = air_phase({**on_strip(ALL_USAF[:6]), RES_F: "usaf_reserve"}, {"0708": {"status": "dam"}},
                      face_down=tuple(ALL_USAF[:6]))
    with pytest.raises(IllegalCommandError) as err:
        play(small, "allocate", unit=RES_F, box="cap")
    assert err.value.rule == "§11"


ALLOCATION_BUG = ("engine bug: usaf.step() says 'land' whenever CAP or Ground Attack holds a unit, "
                  "so a unit just allocated for next turn must be landed face-down again and "
                  "end_phase is refused: no allocation can ever be kept")


def test_allocated_units_stay_in_cap_and_ground_attack_for_the_next_turn():
    state = air_phase({F1: "cap", **on_strip([F2, B2]), B1: "ga"})
    play(state, "land", unit=F1, hex="0708")
    play(state, "land", unit=B1, hex="0708")
    play(state, "allocate", unit=F2, box="cap")
    play(state, "allocate", unit=B2, box="ga")
    play(state, "end_phase")
    assert state.turn == TURN + 1
    assert where(state, F2) == ("cap", False)
    assert where(state, B2) == ("ga", False)
    assert where(state, F1) == ("strip:0708", True)
    assert where(state, B1) == ("strip:0708", True)


def test_a_reserve_unit_activated_within_capacity_flies_next_turn():
    state = air_phase({F2: "usaf_reserve"})
    play(state, "allocate", unit=F2, box="cap")
    play(state, "end_phase")
    assert state.turn == TURN + 1
    assert where(state, F2) == ("cap", False)
