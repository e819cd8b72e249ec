"""First Blood reinforcements (§5, §5.1-§5.3): arrival, entry points, boxes, stranding.

Worked examples: Figure 2 (entry point 0600 and the US beach 0701) and Figure 3
(228/1 and 228/3 coming on at the south-western entry point in Oct III).
"""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError
from engine.core.undo import unmarked
from engine.games.first_blood.board import load_board
from engine.games.first_blood.oob import load_oob, turn_number
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import FBState
from engine.games.first_blood.testing import by_name, play, position

OCT_II, OCT_III = turn_number("Oct II"), turn_number("Oct III")
I228_1, I228_3 = by_name("228/1", "IJ"), by_name("228/3", "IJ")
# the IJ ground units of Oct II (8 MF infantry)
OCT_II_INF = ["ij-29-3", "ij-16-1", "ij-16-2", "ij-230-1", "ij-230-3"]
US_INF, US_INF2, US_INF3 = "us-1-1", "us-1-2", "us-1-3"
KEEP_IJ_MOVING = "ij-kuma"
US_LATE = ["us-27-1", "us-27-3", "us-161-1", "us-6-1", "us-6-2"]  # five US ground units of Jan I
IJ_ENTRIES = {"entry:" + e.id for e in load_board().entries.values() if e.side == "IJ"}
US_ENTRIES = {"entry:" + e.id for e in load_board().entries.values() if e.side == "US"}


def targets(state: FBState, uid: str) -> set[str]:
    return {c.data["to"] for c in RULES.legal_commands(state) if c.type == "place" and c.data["unit"] == uid}


def illegal(state: FBState, command: str, **data) -> IllegalCommandError:
    before = state.to_json()
    with pytest.raises(IllegalCommandError) as excinfo:
        play(state, command, **data)
    assert state.to_json() == before
    return excinfo.value


def ij_reinforcements(units: dict[str, str], turn: int = OCT_III) -> FBState:
    """IJ reinforcement phase. An IJ unit already on the map (far away) keeps the
    movement phase that follows open: with nothing left to decide, a phase ends
    by itself and the game would run on."""
    return position({KEEP_IJ_MOVING: "0020", **units}, phase="ij_reinforcements", turn=turn)


def us_reinforcements(units: dict[str, str], turn: int = OCT_III) -> FBState:
    return position(units, phase="us_reinforcements", turn=turn)


# --- Figure 3 and Figure 2: worked examples ---------------------------------------------------

def test_228_1_and_228_3_arrive_in_oct_iii_with_8_mf():
    oob = load_oob()
    for uid in (I228_1, I228_3):
        assert (oob[uid].side, oob[uid].kind, oob[uid].arrives, oob[uid].mf) == ("IJ", "ground", OCT_III, 8)


def test_figure_3_228_1_and_228_3_enter_at_0220_with_4_mf_left():
    assert load_board().entries["ij-west-south"].hexes == ("0220",)
    state = ij_reinforcements({I228_1: "arriving", I228_3: "arriving"})
    assert RULES.prompt(state).kind == "ij_reinforcements"
    assert "entry:ij-west-south" in targets(state, I228_1)
    play(state, "place", unit=I228_1, to="entry:ij-west-south")
    events = play(state, "place", unit=I228_3, to="entry:ij-west-south")
    # everything placed: the phase ends by itself and IJ movement starts
    assert events[-1].type == "phase_started" and events[-1].data["phase"] == "ij_movement"
    assert state.phase == "ij_movement"
    for uid in (I228_1, I228_3):
        assert state.units[uid].loc == "entry:ij-west-south"
        assert state.units[uid].mf_left == 8
        reach = RULES.reachable(state, uid)
        assert reach["0220"] == {"cost": 4, "path": ["0220"], "stops": False}
    for uid in (I228_1, I228_3):
        events = play(state, "move", unit=uid, to="0220")
        assert events[0].type == "unit_moved"
        assert events[0].data["frm"] == "entry:ij-west-south"
        assert events[0].data["cost"] == 4
    for uid in (I228_1, I228_3):
        assert state.units[uid].loc == "0220"
        assert state.units[uid].mf_left == 4


@pytest.mark.parametrize("hex_id", ["0500", "0501", "0601"])
def test_figure_2_ij_unit_at_0600_enters_any_of_three_hexes_with_4_mf_left(hex_id):
    entry = load_board().entries["ij-east-koli"]
    assert entry.at == "0600"
    assert set(entry.hexes) == {"0500", "0501", "0601"}
    state = position({I228_1: "entry:ij-east-koli"}, phase="ij_movement", turn=OCT_III)
    assert RULES.reachable(state, I228_1)[hex_id]["cost"] == 4
    play(state, "move", unit=I228_1, to=hex_id)
    assert state.units[I228_1].loc == hex_id
    assert state.units[I228_1].mf_left == 4


def test_figure_2_us_unit_landing_on_0701_keeps_its_full_mf():
    state = position({US_INF: "entry:us-east-1"}, phase="us_movement", turn=OCT_III)
    full = load_oob()[US_INF].mf
    reach = RULES.reachable(state, US_INF)
    assert reach["0701"] == {"cost": 0, "path": ["0701"], "stops": False}
    # the US unit can only land on the hex its entry point shows
    assert [h for h, r in reach.items() if len(r["path"]) == 1] == ["0701"]
    play(state, "move", unit=US_INF, to="0701")
    assert state.units[US_INF].mf_left == full
    play(state, "move", unit=US_INF, to="0702")
    assert state.units[US_INF].mf_left == full - 1


def test_ij_6_mf_unit_spends_3_to_come_on_from_an_entry_point():
    # R-6.1b: half the MF (no counter has an odd MF, so rounding never matters)
    assert all(s.mf % 2 == 0 for s in load_oob().values() if s.side == "IJ" and s.kind == "ground")
    state = position({"ij-mtn-2": "entry:ij-east-koli"}, phase="ij_movement", turn=OCT_III)
    assert load_oob()["ij-mtn-2"].mf == 6
    for h in ("0500", "0501", "0601"):
        assert RULES.reachable(state, "ij-mtn-2")[h]["cost"] == 3
    play(state, "move", unit="ij-mtn-2", to="0501")
    assert state.units["ij-mtn-2"].mf_left == 3


def test_us_unit_may_land_and_move_on_in_one_move():
    state = position({US_INF: "entry:us-east-1"}, phase="us_movement", turn=OCT_III)
    full = load_oob()[US_INF].mf
    reach = RULES.reachable(state, US_INF)
    assert max(r["cost"] for r in reach.values()) <= full
    assert reach["0702"]["cost"] == 1


# --- §5 placing arrivals ------------------------------------------------------------------------

def test_arrivals_must_all_be_placed_before_the_phase_ends():
    state = ij_reinforcements({I228_1: "arriving", I228_3: "arriving"})
    assert "end_phase" not in [c.type for c in RULES.legal_commands(state)]
    err = illegal(state, "end_phase")
    assert err.rule == "§4"
    play(state, "place", unit=I228_1, to="box:A")
    assert state.phase == "ij_reinforcements"
    assert illegal(state, "end_phase").rule == "§4"
    play(state, "place", unit=I228_3, to="box:D")
    assert state.phase == "ij_movement"


def test_ij_ground_reinforcement_targets_are_own_entry_points_and_boxes_a_and_d():
    state = ij_reinforcements({I228_1: "arriving"})
    assert targets(state, I228_1) == IJ_ENTRIES | {"box:A", "box:D"}


@pytest.mark.parametrize("to", ["box:B", "box:C", "0220", "entry:us-east-1", "ijn_reserve", "usaf_reserve"])
def test_ij_ground_reinforcement_cannot_be_placed_elsewhere(to):
    state = ij_reinforcements({I228_1: "arriving"})
    assert illegal(state, "place", unit=I228_1, to=to).rule == "§5"
    assert state.units[I228_1].loc == "arriving"


def test_us_ground_reinforcement_targets_are_own_entry_points_only():
    state = us_reinforcements({US_INF: "arriving"})
    assert targets(state, US_INF) == US_ENTRIES
    for to in ("entry:ij-east-koli", "box:A", "0701", "usaf_reserve"):
        assert illegal(state, "place", unit=US_INF, to=to).rule == "§5"


def test_at_most_four_ij_units_on_an_entry_point():
    state = ij_reinforcements({u: "arriving" for u in OCT_II_INF}, turn=OCT_II)
    for uid in OCT_II_INF[:4]:
        play(state, "place", unit=uid, to="entry:ij-east-koli")
    fifth = OCT_II_INF[4]
    assert "entry:ij-east-koli" not in targets(state, fifth)
    assert targets(state, fifth) == (IJ_ENTRIES - {"entry:ij-east-koli"}) | {"box:A", "box:D"}
    err = illegal(state, "place", unit=fifth, to="entry:ij-east-koli")
    assert err.rule == "§5"
    play(state, "place", unit=fifth, to="entry:ij-west-south")
    assert state.units[fifth].loc == "entry:ij-west-south"


def test_at_most_four_us_units_on_an_entry_point():
    state = us_reinforcements({u: "arriving" for u in US_LATE}, turn=turn_number("Jan I"))
    for uid in US_LATE[:4]:
        play(state, "place", unit=uid, to="entry:us-east-1")
    err = illegal(state, "place", unit=US_LATE[4], to="entry:us-east-1")
    assert err.rule == "§5"
    assert targets(state, US_LATE[4]) == US_ENTRIES - {"entry:us-east-1"}


def test_ij_boxes_have_no_stacking_limit():
    state = ij_reinforcements({u: "arriving" for u in OCT_II_INF}, turn=OCT_II)
    for uid in OCT_II_INF:
        play(state, "place", unit=uid, to="box:A")
    assert all(state.units[u].loc == "box:A" for u in OCT_II_INF)


def test_us_air_reinforcements_go_straight_to_the_usaf_reserve():
    sep_ii = turn_number("Sep II")
    arriving = [u for u, s in load_oob().items() if s.side == "US" and s.arrives == sep_ii]
    ground = sorted(u for u in arriving if load_oob()[u].kind == "ground")
    air = sorted(u for u in arriving if load_oob()[u].kind != "ground")
    assert air == ["us-vf-5", "us-vt-8"]
    # from the end of the IJ combat phase of Sep II on, to the US reinforcement phase
    state = position({u: "pool" for u in arriving}, phase="ij_combat", turn=sep_ii)
    play(state, "end_phase")
    assert state.phase == "ij_strategic"  # the IJ's last phase: the IJ hands over
    events = play(state, "end_phase")
    assert state.phase == "us_reinforcements"
    placed = [e.data for e in events if e.type == "unit_placed"]
    assert placed == [{"unit": u, "to": "usaf_reserve"} for u in air]
    assert all(e.side == "US" for e in events if e.type == "unit_placed")
    for uid in air:
        assert state.units[uid].loc == "usaf_reserve"
        assert targets(state, uid) == set()
    for uid in ground:
        assert state.units[uid].loc == "arriving"
    prompt = RULES.prompt(state)
    assert (prompt.side, prompt.kind) == ("US", "us_reinforcements")
    assert {c.data["unit"] for c in RULES.legal_commands(state)} == set(ground)


def test_ij_destroyers_go_to_the_ijn_reserve_or_attack_box():
    dd1, dd2 = "ij-dd-yudachi", "ij-dd-murakumo"
    state = ij_reinforcements({dd1: "arriving", dd2: "arriving", I228_1: "arriving"}, turn=1)
    assert targets(state, dd1) == {"ijn_reserve", "ijn_attack"}
    for to in ("ijaaf_reserve", "ijaaf_attack", "entry:ij-east-koli", "box:A"):
        assert illegal(state, "place", unit=dd1, to=to).rule == "§5"
    play(state, "place", unit=dd1, to="ijn_reserve")
    play(state, "place", unit=dd2, to="ijn_attack")
    assert state.units[dd1].loc == "ijn_reserve"
    assert state.units[dd2].loc == "ijn_attack"


def test_ij_air_units_go_to_either_ijaaf_box():
    # R-5b: §5.2 names the Reserve box, §9's note lets the IJ choose the Attack box
    plane, plane2 = "ij-tainan-1", "ij-2ku-1"
    state = ij_reinforcements({plane: "arriving", plane2: "arriving"}, turn=1)
    assert targets(state, plane) == {"ijaaf_reserve", "ijaaf_attack"}
    for to in ("ijn_reserve", "ijn_attack", "entry:ij-east-koli", "box:A", "usaf_reserve"):
        assert illegal(state, "place", unit=plane, to=to).rule == "§5"
    play(state, "place", unit=plane, to="ijaaf_reserve")
    play(state, "place", unit=plane2, to="ijaaf_attack")
    assert state.units[plane].loc == "ijaaf_reserve"
    assert state.units[plane2].loc == "ijaaf_attack"


# --- §5 / §5.3 entry points held by the enemy ----------------------------------------------------

def test_ij_entry_point_with_every_hex_held_by_the_us_is_not_offered():
    state = ij_reinforcements({I228_1: "arriving", US_INF: "0500", US_INF2: "0501", US_INF3: "0601"})
    assert targets(state, I228_1) == (IJ_ENTRIES - {"entry:ij-east-koli"}) | {"box:A", "box:D"}
    assert illegal(state, "place", unit=I228_1, to="entry:ij-east-koli").rule == "§5"


def test_ij_entry_point_with_one_hex_free_is_still_offered():
    state = ij_reinforcements({I228_1: "arriving", US_INF: "0500", US_INF2: "0501"})
    assert "entry:ij-east-koli" in targets(state, I228_1)
    play(state, "place", unit=I228_1, to="entry:ij-east-koli")
    # §5.1: it may only come on into the free hex
    reach = RULES.reachable(state, I228_1)
    assert "0500" not in reach and "0501" not in reach
    assert reach["0601"]["cost"] == 4
    assert reach["0601"]["stops"] is True  # next to the US in 0501


def test_units_cannot_enter_into_an_enemy_occupied_entry_hex():
    state = position({I228_1: "entry:ij-east-koli", US_INF: "0500"}, phase="ij_movement", turn=OCT_III)
    assert "0500" not in RULES.reachable(state, I228_1)
    assert illegal(state, "move", unit=I228_1, to="0500").rule == "§6.4"


def test_5_3_us_entry_point_held_by_the_ij_is_refused_while_the_coast_is_free():
    """R-5c: with the IJ in 0701 and 0702 free, a landing on 0701's entry point could
    neither come on (enemy hex) nor attack upon entry (§5.3: "all entry hexes"): refused."""
    state = us_reinforcements({US_INF: "arriving", I228_1: "0701"})
    assert "entry:us-east-1" not in targets(state, US_INF)
    assert "entry:us-east-2" in targets(state, US_INF)
    err = illegal(state, "place", unit=US_INF, to="entry:us-east-1")
    assert err.rule == "§5" and "whole coast" in err.message


def test_5_3_us_entry_points_stay_open_when_the_whole_coast_is_held():
    # §5.3: the US may then attack on entry, so both east entry points are offered
    state = us_reinforcements({US_INF: "arriving", I228_1: "0701", I228_3: "0702"})
    assert {"entry:us-east-1", "entry:us-east-2"} <= targets(state, US_INF)


# --- §5.2 reinforcements in boxes A and D ------------------------------------------------------

@pytest.mark.parametrize("box", ["A", "D"])
def test_reinforcements_placed_in_a_box_cannot_move_that_turn(box):
    state = ij_reinforcements({I228_1: "arriving"})
    events = play(state, "place", unit=I228_1, to="box:" + box)
    assert unmarked(events[0].data) == {"unit": I228_1, "to": "box:" + box}
    assert state.phase == "ij_movement"
    u = state.units[I228_1]
    assert (u.loc, u.boxes, u.box_arrival) == ("box:" + box, [box], OCT_III)
    assert RULES.reachable(state, I228_1) == {}
    assert not [c for c in RULES.legal_commands(state) if c.type == "move" and c.data["unit"] == I228_1]
    hexes = load_board().boxes[box].hexes
    for to in (hexes[0], "box:B" if box == "A" else "box:C"):
        assert illegal(state, "move", unit=I228_1, to=to).rule == "§5.2"
    # ... and they do not owe the §6.5 move either
    assert "end_phase" in [c.type for c in RULES.legal_commands(state)]
    play(state, "end_phase")
    assert state.units[I228_1].loc == "box:" + box  # not stranded: boxes are not entry points


# --- §5 units left on entry points are eliminated at the end of their combat phase -----------

def test_ij_unit_left_on_an_entry_point_survives_movement_and_dies_after_combat():
    # an IJ gun in range of Henderson keeps the IJ combat phase open (it may bombard)
    state = position({I228_1: "entry:ij-west-south", "ij-mtn-2": "0606"}, phase="ij_movement", turn=OCT_III)
    events = play(state, "end_phase")
    assert state.phase == "ij_combat"
    assert "unit_eliminated" not in [e.type for e in events]
    assert state.units[I228_1].loc == "entry:ij-west-south"
    events = play(state, "end_phase")
    assert events[0].type == "unit_eliminated"
    assert events[0].data == {"unit": I228_1, "reason": "did not enter the map (§5)"}
    assert events[0].side == "IJ"
    assert events[1].type == "phase_started" and events[1].data["phase"] == "ij_supply"
    assert state.units[I228_1].loc == "eliminated"


def test_us_unit_left_on_an_entry_point_is_eliminated_at_the_end_of_us_combat():
    state = position({US_INF: "entry:us-east-1", US_INF2: "0701", I228_1: "0020"},
                     phase="us_movement", turn=OCT_III)
    events = play(state, "end_phase")
    types = [(e.type, e.data.get("phase") or e.data.get("unit")) for e in events]
    i = types.index(("unit_eliminated", US_INF))
    assert types[i - 1] == ("phase_started", "us_combat")
    assert types[i + 1] == ("phase_started", "us_engineering")
    assert events[i].data["reason"] == "did not enter the map (§5)"
    assert state.units[US_INF].loc == "eliminated"
    assert state.units[US_INF2].loc == "0701"


def test_unit_that_entered_the_map_is_not_eliminated():
    state = position({I228_1: "entry:ij-west-south", I228_3: "entry:ij-west-south", "ij-mtn-2": "0606"},
                     phase="ij_movement", turn=OCT_III)
    play(state, "move", unit=I228_1, to="0220")
    play(state, "end_phase")
    events = play(state, "end_phase")
    gone = [e.data["unit"] for e in events if e.type == "unit_eliminated" and "§5" in e.data["reason"]]
    assert gone == [I228_3]
    assert state.units[I228_1].loc == "0220"


def test_5_ending_movement_warns_of_units_left_on_entry_points():
    """Issue 9: "a reinforcement left on its entry point is eliminated at the end of the
    combat phase; the only warning ... was '17 unit(s) could still move'"."""
    state = position({US_INF: "entry:us-east-1", "us-1-2": "0707"}, phase="us_movement", turn=OCT_III)
    (note,) = RULES.end_phase_notes(state)
    assert note == "US 1/1 is still on an entry point and will be eliminated at the end of your combat phase (§5)"
    state.unit(US_INF).loc = "0701"
    assert RULES.end_phase_notes(state) == []
