"""First Blood movement (§6.1-§6.5): terrain costs, ZOC, air strips, stacking, off-map boxes.

Positions are built with ``engine.games.first_blood.testing.position``: only the
named units are in play. Worked examples of the rulebook (Figures 4 and 5, the
bridge of §6.1, the box examples of §6.5) have their own tests. The last part
checks the move generator against an independent search ("perft").
"""

from __future__ import annotations

import heapq

import pytest

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.undo import unmarked
from engine.games.first_blood.board import Board, load_board
from engine.games.first_blood.oob import load_oob
from engine.games.first_blood.phases import movement
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import FBState, is_map_hex
from engine.games.first_blood.testing import force_die, play, position
from engine.selfplay import play_one

# IJ infantry: 8 MF each.
KUMA, IJ_B, IJ_C, IJ_D, IJ_SPARE = "ij-kuma", "ij-124-1", "ij-124-3", "ij-4-2", "ij-4-3"
IJ_ART = "ij-mtn-2"  # IJ mountain artillery, 6 MF
US_INF, US_INF2, US_INF3, US_INF4 = "us-1-1", "us-1-2", "us-1-3", "us-5-1"  # marines, 6 MF
US_ART3 = "us-11-5"  # US 105 mm artillery, 3 MF
US_ART4 = "us-11-2"  # US pack howitzers, 4 MF
US_SPARE = "us-5-2"
FAR_IJ_HEX = "0020"  # a corner of the map far from everything used below
FAR_US_HEX = "1110"


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def mf(uid: str) -> int:
    return load_oob()[uid].mf


def ij_move(units: dict[str, str], **kw) -> FBState:
    """IJ movement phase; a spare IJ unit far away keeps the phase open after the
    unit under test has used up its movement."""
    return position({IJ_SPARE: FAR_IJ_HEX, **units}, phase="ij_movement", turn=6, **kw)


def us_move(units: dict[str, str], **kw) -> FBState:
    return position({US_SPARE: FAR_US_HEX, **units}, phase="us_movement", turn=6, **kw)


def put_in_box(state: FBState, uid: str, box: str, visited: list[str] | None = None) -> None:
    """A unit that has been in an off-map box since an earlier turn (it must move, §6.5)."""
    u = state.units[uid]
    u.loc = "box:" + box
    u.boxes = list(visited or [box])
    u.box_arrival = -1


def move_targets(state: FBState, uid: str) -> set[str]:
    return {c.data["to"] for c in RULES.legal_commands(state) if c.type == "move" and c.data["unit"] == uid}


def illegal(state: FBState, command: str = "move", **data) -> IllegalCommandError:
    before = state.to_json()
    with pytest.raises(IllegalCommandError) as excinfo:
        play(state, command, **data)
    assert state.to_json() == before  # a refused command changes nothing
    return excinfo.value


# --- §6 Figure 4 and Figure 5: worked examples ----------------------------------------

FIGURE_4 = {"0809": 4, "0709": 3, "0810": 2, "0711": 1, "0610": 1, "0609": 1}
FIGURE_5_IJ = {"0406": 1, "0508": 3, "0506": 3, "0407": 3, "0607": 2, "0606": 2}


def test_figure_4_single_step_costs(board):
    assert {to: board.move_cost("0710", to) for to in FIGURE_4} == FIGURE_4
    assert set(board.neighbors("0710")) == set(FIGURE_4)


def test_figure_4_reachable_costs_for_a_unit_in_0710():
    state = ij_move({KUMA: "0710"})
    reach = RULES.reachable(state, KUMA)
    for to, cost in FIGURE_4.items():
        assert reach[to]["cost"] == cost, to
        assert reach[to]["path"][-1] == to
        assert reach[to]["stops"] is False


def test_figure_4_a_4_mf_unit_just_reaches_0809():
    state = us_move({US_ART4: "0710"})
    assert mf(US_ART4) == 4
    assert RULES.reachable(state, US_ART4)["0809"]["cost"] == 4
    events = play(state, "move", unit=US_ART4, to="0809")
    assert [e.type for e in events][:1] == ["unit_moved"]
    assert events[0].data["cost"] == 4
    assert state.units[US_ART4].loc == "0809"
    assert state.units[US_ART4].mf_left == 0


def test_figure_4_a_3_mf_unit_cannot_reach_0809():
    state = us_move({US_ART3: "0710"})
    assert mf(US_ART3) == 3
    assert "0809" not in RULES.reachable(state, US_ART3)
    assert "0809" not in move_targets(state, US_ART3)
    assert illegal(state, unit=US_ART3, to="0809").rule == "§6.1"
    assert state.units[US_ART3].loc == "0710"


def test_figure_5_single_step_costs(board):
    assert {to: board.move_cost("0507", to) for to in FIGURE_5_IJ} == FIGURE_5_IJ
    assert board.move_cost("0306", "0307") == 2


def test_figure_5_ij_unit_on_bloody_ridge():
    state = ij_move({KUMA: "0507"})
    reach = RULES.reachable(state, KUMA)
    assert {to: reach[to]["cost"] for to in FIGURE_5_IJ} == FIGURE_5_IJ


def test_figure_5_us_unit_climbs_bloody_ridge():
    state = us_move({US_INF: "0306"})
    assert RULES.reachable(state, US_INF)["0307"]["cost"] == 2
    play(state, "move", unit=US_INF, to="0307")
    assert state.units[US_INF].loc == "0307"
    assert state.units[US_INF].mf_left == mf(US_INF) - 2


# --- §6.1 hexside costs --------------------------------------------------------------

def test_jungle_hexside_costs_only_when_entering_the_jungle_side(board):
    assert board.move_cost("0710", "0810") == 2  # 0810 has jungle on the side facing 0710
    assert board.move_cost("0810", "0710") == 1  # 0710 has none facing 0810


def test_ridge_costs_both_up_and_down(board):
    assert board.move_cost("0507", "0607") == 2  # down
    assert board.move_cost("0607", "0507") == 2  # up


def test_river_costs_two_extra_from_either_bank(board):
    assert board.move_cost("0710", "0709") == 3
    assert board.move_cost("0709", "0710") == 3


def test_table_6_examples(board):
    assert board.move_cost("0200", "0301") == 1
    assert board.move_cost("0200", "0201") == 2
    assert board.move_cost("0400", "0500") == 3
    assert board.move_cost("0400", "0501") == 3


def test_bridge_0909_0910_costs_one_both_ways(board):
    assert board.move_cost("0909", "0910") == 1
    assert board.move_cost("0910", "0909") == 1
    # the same river, next hexside along, is not bridged
    assert board.move_cost("0910", "0809") == 4  # river + jungle
    assert board.move_cost("0809", "0910") == 3  # river


def test_crossing_the_bridge_spends_one_mf():
    state = ij_move({KUMA: "0910"})
    assert RULES.reachable(state, KUMA)["0909"]["cost"] == 1
    play(state, "move", unit=KUMA, to="0909")
    assert state.units[KUMA].mf_left == 7
    play(state, "move", unit=KUMA, to="0910")
    assert state.units[KUMA].mf_left == 6


def test_mf_is_spent_move_by_move_and_cannot_be_exceeded():
    state = ij_move({KUMA: "0710"})
    play(state, "move", unit=KUMA, to="0809")  # 4
    assert state.units[KUMA].mf_left == 4
    play(state, "move", unit=KUMA, to="0710")  # river back: 3
    assert state.units[KUMA].mf_left == 1
    assert "0709" not in RULES.reachable(state, KUMA)  # would cost 3
    err = illegal(state, unit=KUMA, to="0709")
    assert err.rule == "§6.1"
    play(state, "move", unit=KUMA, to="0711")  # 1
    assert state.units[KUMA].mf_left == 0
    assert RULES.reachable(state, KUMA) == {}
    assert move_targets(state, KUMA) == set()


# --- §6.2 Zone of control ----------------------------------------------------------------

def test_entering_enemy_zoc_stops_the_unit():
    # US in 0306: its ZOC covers 0406 (Bloody Ridge)
    state = ij_move({KUMA: "0507", US_INF: "0306"})
    reach = RULES.reachable(state, KUMA)
    assert reach["0406"]["stops"] is True
    events = play(state, "move", unit=KUMA, to="0406")
    assert events[0].type == "unit_moved"
    assert events[0].data["stops"] is True
    u = state.units[KUMA]
    assert (u.loc, u.stopped, u.mf_left) == ("0406", True, 7)
    assert RULES.reachable(state, KUMA) == {}
    assert move_targets(state, KUMA) == set()
    err = illegal(state, unit=KUMA, to="0507")
    assert err.rule == "§6.2"


def test_zoc_hexes_are_ends_of_paths_not_waypoints():
    # 0406 is in US ZOC: no path may go on through it
    state = ij_move({KUMA: "0507", US_INF: "0306"})
    for to, r in RULES.reachable(state, KUMA).items():
        assert "0406" not in r["path"][:-1], to


def test_zoc_extends_across_rivers():
    # US in 0710; 0709 is across the Lunga from it
    state = ij_move({KUMA: "0608", US_INF: "0710"})
    play(state, "move", unit=KUMA, to="0709")
    assert state.units[KUMA].stopped is True


def test_unit_starting_in_enemy_zoc_may_not_step_to_another_zoc_hex():
    # US 3 MF artillery in 0406, IJ in 0306: 0307 and 0406 are both in IJ ZOC
    state = us_move({US_ART3: "0406", KUMA: "0306"})
    assert "0307" not in RULES.reachable(state, US_ART3)
    err = illegal(state, unit=US_ART3, to="0307")
    assert err.rule == "§6.2"
    assert state.units[US_ART3].loc == "0406"


def test_unit_starting_in_enemy_zoc_may_leave_to_a_free_hex():
    state = us_move({US_ART3: "0406", KUMA: "0306"})
    events = play(state, "move", unit=US_ART3, to="0507")
    assert events[0].data["stops"] is False
    u = state.units[US_ART3]
    assert (u.loc, u.stopped, u.mf_left) == ("0507", False, 2)


def test_unit_may_disengage_and_reengage_in_one_move():
    # 0406 -> 0307 directly is ZOC to ZOC; round through the free 0407 it is allowed
    state = ij_move({KUMA: "0406", US_INF: "0306"})
    r = RULES.reachable(state, KUMA)["0307"]
    assert r["cost"] == 5
    assert r["path"][-2:] == ["0407", "0307"]
    assert r["stops"] is True
    play(state, "move", unit=KUMA, to="0307")
    assert state.units[KUMA].mf_left == 3
    assert state.units[KUMA].stopped is True


def test_friendly_units_do_not_negate_enemy_zoc():
    state = ij_move({KUMA: "0507", IJ_B: "0406", US_INF: "0306"})
    events = play(state, "move", unit=KUMA, to="0406")
    assert events[0].data["stops"] is True
    assert state.units[KUMA].stopped is True


def test_never_into_an_enemy_occupied_hex():
    state = ij_move({KUMA: "0507", US_INF: "0406"})
    assert "0406" not in RULES.reachable(state, KUMA)
    err = illegal(state, unit=KUMA, to="0406")
    assert err.rule == "§6.4"


def test_never_through_an_enemy_occupied_hex():
    # a US unit in 0909 (the bridge's east end) is not a way across the Lunga
    state = ij_move({KUMA: "0910", US_INF: "0909"})
    for to, r in RULES.reachable(state, KUMA).items():
        assert "0909" not in r["path"], to


def test_zoc_does_not_extend_into_an_entry_point():
    # US in 0400 has 0500 and 0501 in its ZOC. An IJ unit on the east entry point is
    # not in that ZOC, so it may still enter them (and stops there).
    state = ij_move({KUMA: "entry:ij-east-koli", US_INF: "0400"})
    reach = RULES.reachable(state, KUMA)
    assert state.units[KUMA].stopped is False
    assert (reach["0500"]["cost"], reach["0500"]["stops"]) == (4, True)
    assert (reach["0501"]["cost"], reach["0501"]["stops"]) == (4, True)
    assert (reach["0601"]["cost"], reach["0601"]["stops"]) == (4, False)
    play(state, "move", unit=KUMA, to="0501")
    assert state.units[KUMA].stopped is True
    assert state.units[KUMA].mf_left == 4


def test_zoc_does_not_extend_into_an_off_map_box():
    state = ij_move({US_INF: "0101"})  # its ZOC covers 0000 and 0001 (box D's hexes)
    put_in_box(state, KUMA, "D")
    reach = RULES.reachable(state, KUMA)
    assert reach["0000"]["stops"] is True
    assert reach["0001"]["stops"] is True
    assert reach["0002"]["stops"] is False
    assert "box:C" in reach


def test_units_on_entry_points_and_in_boxes_exert_no_zoc():
    state = ij_move({KUMA: "0601", US_INF: "entry:us-east-1"})
    events = play(state, "move", unit=KUMA, to="0701")  # the hex the US entry point lands on
    assert events[0].data["stops"] is False
    state = us_move({US_INF: "0101", KUMA: "box:D"})
    events = play(state, "move", unit=US_INF, to="0000")
    assert events[0].data["stops"] is False


def test_us_unit_landing_in_enemy_zoc_stops_on_the_beach():
    state = us_move({US_INF: "entry:us-east-1", KUMA: "0601"})
    events = play(state, "move", unit=US_INF, to="0701")
    assert events[0].data["stops"] is True
    u = state.units[US_INF]
    assert (u.loc, u.mf_left, u.stopped) == ("0701", mf(US_INF), True)


# --- §6.3 Air strips ------------------------------------------------------------------------

def test_ij_unit_moving_through_and_into_henderson_destroys_both_strips():
    state = ij_move(
        {KUMA: "0707", "us-vmsb-232": "strip:0708", "us-vmf-223a": "strip:0709", "us-vmf-224": "cap"})
    assert state.strips["0708"].status == state.strips["0709"].status == "oper"
    assert RULES.reachable(state, KUMA)["0709"]["path"][-2:] == ["0708", "0709"]
    events = play(state, "move", unit=KUMA, to="0709")
    assert [e.type for e in events] == ["unit_moved", "strip_overrun", "strip_overrun"]
    assert unmarked(events[1].data) == {"hex": "0708", "usaf": ["us-vmsb-232"], "work_lost": 0}
    assert unmarked(events[2].data) == {"hex": "0709", "usaf": ["us-vmf-223a"], "work_lost": 0}
    assert all(e.side == "IJ" for e in events)
    assert state.strips["0708"].status == "dest"
    assert state.strips["0709"].status == "dest"
    assert state.strips["0708"].built and state.strips["0709"].built  # still count for §1
    assert state.units["us-vmsb-232"].loc == "eliminated"
    assert state.units["us-vmf-223a"].loc == "eliminated"
    assert state.units["us-vmf-224"].loc == "cap"  # USAF elsewhere is untouched


def test_ij_unit_entering_a_strip_under_construction_disrupts_the_work():
    state = ij_move({KUMA: "0704"}, strips={"0705": {"work": 1}})
    events = play(state, "move", unit=KUMA, to="0705")
    overruns = [e for e in events if e.type == "strip_overrun"]
    assert [unmarked(e.data) for e in overruns] == [{"hex": "0705", "usaf": [], "work_lost": 1}]
    assert state.strips["0705"].work == 0
    assert state.strips["0705"].status == "dest"


def test_ij_unit_entering_a_damaged_strip_destroys_it():
    state = ij_move({KUMA: "0710"}, strips={"0709": {"status": "dam"}})
    play(state, "move", unit=KUMA, to="0709")
    assert state.strips["0709"].status == "dest"


def test_ij_unit_stopped_by_zoc_on_a_strip_still_destroys_it():
    state = ij_move({KUMA: "0607", US_INF: "0807", "us-vmf-223a": "strip:0708"})
    events = play(state, "move", unit=KUMA, to="0708")
    assert events[0].data["stops"] is True
    assert "strip_overrun" in [e.type for e in events]
    assert state.strips["0708"].status == "dest"
    assert state.units["us-vmf-223a"].loc == "eliminated"


def test_ij_unit_retreating_onto_a_strip_overruns_it():
    # R-6.3a: a retreat is movement. US 1/1 (5) attacks IJ Kuma (4): 1:1, a 5 is DR.
    state = position({US_INF: "0707", KUMA: "0706"}, phase="us_combat", turn=6, strips={"0705": {"work": 1}})
    play(state, "attack", hex="0706")
    play(state, "add", unit=US_INF)
    force_die(state, 5)
    events = play(state, "resolve")
    (resolved,) = [e.data for e in events if e.type == "combat_resolved"]
    assert (resolved["odds"], resolved["result"]) == ("1:1", "DR")
    prompt = RULES.prompt(state)
    assert (prompt.side, prompt.kind) == ("IJ", "retreat")
    events = play(state, "retreat", unit=KUMA, to="0705")
    overruns = [unmarked(e.data) for e in events if e.type == "strip_overrun"]
    assert overruns == [{"hex": "0705", "usaf": [], "work_lost": 1}]
    assert state.strips["0705"].work == 0
    assert state.strips["0705"].status == "dest"


def test_us_unit_entering_a_strip_changes_nothing():
    state = us_move({US_INF: "0707", "us-vmf-223a": "strip:0709"})
    events = play(state, "move", unit=US_INF, to="0709")
    assert "strip_overrun" not in [e.type for e in events]
    assert state.strips["0709"].status == "oper"
    assert state.units["us-vmf-223a"].loc == "strip:0709"


# --- §6.4 Stacking --------------------------------------------------------------------------

def _spent(state: FBState, *units: str) -> None:
    for uid in units:
        state.unit(uid).mf_left = 0  # they have moved already: none can leave again


def test_move_may_pass_through_a_full_friendly_hex():
    state = ij_move({KUMA: "0710", IJ_B: "0711", IJ_C: "0711", IJ_D: "0711"})
    _spent(state, IJ_B, IJ_C, IJ_D)
    reach = RULES.reachable(state, KUMA)
    assert "0711" not in reach
    assert reach["0712"]["cost"] == 2
    assert reach["0712"]["path"][-2:] == ["0711", "0712"]
    play(state, "move", unit=KUMA, to="0712")
    assert state.units[KUMA].loc == "0712"
    assert state.units[KUMA].mf_left == 6


def test_move_cannot_end_in_a_full_hex_none_of_whose_units_can_leave():
    state = ij_move({KUMA: "0710", IJ_B: "0711", IJ_C: "0711", IJ_D: "0711"})
    _spent(state, IJ_B, IJ_C, IJ_D)
    assert "0711" not in move_targets(state, KUMA)
    err = illegal(state, unit=KUMA, to="0711")
    assert err.rule == "§6.4" and "none of them could move on" in err.message


def test_6_4_two_full_stacks_may_swap_a_unit():
    """§6.4: "This only applies at the end of the movement phase."  Kuma leaves the full
    0710 for the full 0711, which then holds four; until one of its units has moved out,
    only they may move and the phase may not end; IJ 124/1 goes to 0710 and all is well."""
    state = ij_move({KUMA: "0710", IJ_SPARE: "0710", IJ_ART: "0710",
                     IJ_B: "0711", IJ_C: "0711", IJ_D: "0711"})
    assert "0711" in move_targets(state, KUMA)
    play(state, "move", unit=KUMA, to="0711")
    assert len([u for u, x in state.units.items() if x.loc == "0711"]) == 4
    err = illegal(state, "end_phase")
    assert err.rule == "§6.4" and "0711" in err.message
    assert "0711" in RULES.prompt(state).text
    assert RULES.view(state, "IJ")["overstacked"] == ["0711"]  # the map marks it
    movers = {c.data["unit"] for c in RULES.legal_commands(state) if c.type == "move"}
    assert movers == {KUMA, IJ_B, IJ_C, IJ_D}
    assert illegal(state, unit=IJ_SPARE, to="0610").rule == "§6.4"
    play(state, "move", unit=IJ_B, to="0710")
    assert sorted(u for u, x in state.units.items() if x.loc == "0710") == sorted([IJ_ART, IJ_B, IJ_SPARE])
    assert any(c.type == "end_phase" for c in RULES.legal_commands(state))
    assert RULES.view(state, "IJ")["overstacked"] == []


def test_third_unit_may_join_a_stack_of_two():
    state = ij_move({KUMA: "0710", IJ_B: "0711", IJ_C: "0711"})
    play(state, "move", unit=KUMA, to="0711")
    assert {u for u, x in state.units.items() if x.loc == "0711"} == {KUMA, IJ_B, IJ_C}


def test_landing_may_pass_through_a_full_beach_hex():
    state = us_move({US_INF: "entry:us-east-1", US_INF2: "0701", US_INF3: "0701", US_INF4: "0701"})
    _spent(state, US_INF2, US_INF3, US_INF4)
    reach = RULES.reachable(state, US_INF)
    assert "0701" not in reach
    assert reach["0702"] == {"cost": 1, "path": ["0701", "0702"], "stops": False}


def test_us_and_ij_never_share_a_hex():
    state = us_move({US_INF: "0710", KUMA: "0711"})
    assert "0711" not in RULES.reachable(state, US_INF)
    assert illegal(state, unit=US_INF, to="0711").rule == "§6.4"


def test_usaf_units_do_not_count_for_stacking():
    state = us_move({US_INF: "0707", US_INF2: "0708", US_INF3: "0708",
                     "us-vmf-223a": "strip:0708", "us-vmf-223b": "strip:0708"})
    play(state, "move", unit=US_INF, to="0708")
    assert state.units[US_INF].loc == "0708"


def test_cannot_move_onto_an_entry_point():
    state = us_move({US_INF: "0702"})
    assert not any(t.startswith("entry:") for t in move_targets(state, US_INF))
    with pytest.raises(IllegalCommandError):
        play(state, "move", unit=US_INF, to="entry:us-east-1")


def test_moving_onto_an_entry_point_cites_6_4():
    state = us_move({US_INF: "0702"})
    assert illegal(state, unit=US_INF, to="entry:us-east-1").rule == "§6.4"


# --- §6.5 IJ off-map movement ------------------------------------------------------------------

def test_box_to_box_costs_half_mf_per_box_a_b_c_uses_all_8():
    state = ij_move({})
    put_in_box(state, KUMA, "A")
    reach = RULES.reachable(state, KUMA)
    assert reach["box:B"] == {"cost": 4, "path": [], "stops": False}
    assert "box:C" not in reach  # one box at a time
    play(state, "move", unit=KUMA, to="box:B")
    assert (state.units[KUMA].loc, state.units[KUMA].mf_left) == ("box:B", 4)
    assert state.units[KUMA].boxes == ["A", "B"]
    play(state, "move", unit=KUMA, to="box:C")
    assert (state.units[KUMA].loc, state.units[KUMA].mf_left) == ("box:C", 0)
    assert state.units[KUMA].boxes == ["A", "B", "C"]
    assert RULES.reachable(state, KUMA) == {}
    with pytest.raises(IllegalCommandError):
        play(state, "move", unit=KUMA, to="box:D")


def test_box_to_box_for_a_6_mf_unit_costs_3():
    state = ij_move({})
    put_in_box(state, IJ_ART, "A")
    assert RULES.reachable(state, IJ_ART)["box:B"]["cost"] == 3
    play(state, "move", unit=IJ_ART, to="box:B")
    assert state.units[IJ_ART].mf_left == 3


def test_never_reenter_a_box_already_visited():
    state = ij_move({})
    put_in_box(state, KUMA, "A")
    play(state, "move", unit=KUMA, to="box:B")
    assert "box:A" not in RULES.reachable(state, KUMA)
    assert "box:C" in RULES.reachable(state, KUMA)
    assert illegal(state, unit=KUMA, to="box:A").rule == "§6.5"


def test_direction_is_kept_across_turns():
    # came from D into C last turn: may go on to B only
    state = ij_move({})
    put_in_box(state, KUMA, "C", visited=["D", "C"])
    boxes = {k for k in RULES.reachable(state, KUMA) if k.startswith("box:")}
    assert boxes == {"box:B"}
    assert illegal(state, unit=KUMA, to="box:D").rule == "§6.5"


@pytest.mark.parametrize("box, hexes", [(b.id, b.hexes) for b in load_board().boxes.values()])
def test_entering_the_map_from_a_box_costs_half_mf_whatever_the_terrain(box, hexes):
    state = ij_move({})
    put_in_box(state, KUMA, box)
    put_in_box(state, IJ_ART, box)
    reach_inf, reach_art = RULES.reachable(state, KUMA), RULES.reachable(state, IJ_ART)
    for h in hexes:
        assert reach_inf[h] == {"cost": 4, "path": [h], "stops": False}
        assert reach_art[h]["cost"] == 3
    play(state, "move", unit=KUMA, to=hexes[0])
    assert state.units[KUMA].mf_left == 4


def test_entering_the_map_after_a_box_move():
    state = ij_move({})
    put_in_box(state, KUMA, "A")
    play(state, "move", unit=KUMA, to="box:B")
    play(state, "move", unit=KUMA, to="0012")
    assert (state.units[KUMA].loc, state.units[KUMA].mf_left) == ("0012", 0)


def test_units_in_a_box_must_move_before_the_phase_ends():
    state = ij_move({})
    put_in_box(state, KUMA, "A")
    put_in_box(state, IJ_B, "D")
    assert "end_phase" not in [c.type for c in RULES.legal_commands(state)]
    err = illegal(state, "end_phase")
    assert err.rule == "§6.5"
    play(state, "move", unit=KUMA, to="box:B")  # a box move counts
    assert illegal(state, "end_phase").rule == "§6.5"  # IJ_B still owes its move
    play(state, "move", unit=IJ_B, to="0000")  # so does entering the map
    assert "end_phase" in [c.type for c in RULES.legal_commands(state)]
    events = play(state, "end_phase")
    assert events[0].type == "phase_started"
    assert events[0].data["phase"] == "ij_combat"


def test_box_unit_with_no_legal_move_does_not_hold_up_the_phase():
    # R-6.5a: came from B into A, so no box is left to go to; US units hold every hex of box A
    box_a = load_board().boxes["A"].hexes
    us = ["us-1-1", "us-1-2", "us-1-3", "us-5-1", "us-5-2", "us-5-3", "us-raider-1"]
    state = ij_move(dict(zip(us, box_a, strict=False)))
    assert all(any(state.units[u].loc == h for u in us) for h in box_a)
    put_in_box(state, KUMA, "A", visited=["B", "A"])
    assert RULES.reachable(state, KUMA) == {}
    assert "end_phase" in [c.type for c in RULES.legal_commands(state)]
    play(state, "end_phase")
    assert state.units[KUMA].loc == "box:A"


def test_ij_unit_on_the_map_may_never_move_into_a_box():
    state = ij_move({KUMA: "0000"})
    assert not any(t.startswith("box:") for t in RULES.reachable(state, KUMA))
    assert illegal(state, unit=KUMA, to="box:D").rule == "§6.5"


def test_unit_that_entered_the_map_from_a_box_cannot_go_back():
    state = ij_move({})
    put_in_box(state, IJ_ART, "D")
    play(state, "move", unit=IJ_ART, to="0000")
    assert state.units[IJ_ART].mf_left == 3
    assert illegal(state, unit=IJ_ART, to="box:D").rule == "§6.5"


def test_entering_the_map_from_a_box_into_us_zoc_stops():
    state = ij_move({US_INF: "0101"})
    put_in_box(state, KUMA, "D")
    play(state, "move", unit=KUMA, to="0001")
    assert state.units[KUMA].stopped is True
    assert state.units[KUMA].mf_left == 4


def test_cannot_enter_the_map_from_a_box_into_an_enemy_hex():
    state = ij_move({US_INF: "0000"})
    put_in_box(state, KUMA, "D")
    assert "0000" not in RULES.reachable(state, KUMA)
    assert illegal(state, unit=KUMA, to="0000").rule == "§6.4"


# --- reachability "perft": the generator against an independent search -----------------------

def oracle(state: FBState, uid: str, board: Board) -> dict[str, int]:
    """Cheapest cost to every place ``uid`` may end a move, searched independently from
    ``board.move_cost`` and the §6 rules (ZOC, enemy hexes, stacking, entry/box costs).
    R-6.4a: a full hex is a destination if a unit in it could leave for a hex with room."""
    out = _oracle_raw(state, uid, board)
    side = load_oob()[uid].side
    stacks: dict[str, list[str]] = {}
    for x, u in state.units.items():
        if is_map_hex(u.loc) and load_oob()[x].kind == "ground" and load_oob()[x].side == side:
            stacks.setdefault(u.loc, []).append(x)
    full = {h for h, xs in stacks.items() if len(xs) >= 3}
    origin = state.units[uid].loc

    def relieved(h: str) -> bool:
        return any(h2 != h and (h2 not in full or h2 == origin) and not h2.startswith("box:")
                   for x in stacks[h] for h2 in _oracle_raw(state, x, board))

    return {h: c for h, c in out.items() if h not in full or relieved(h)}


def _oracle_raw(state: FBState, uid: str, board: Board) -> dict[str, int]:
    spec = load_oob()[uid]
    u = state.units[uid]
    side, enemy = spec.side, ("IJ" if spec.side == "US" else "US")
    ground = {x: load_oob()[x] for x in state.units if load_oob()[x].kind == "ground"}
    occupied: dict[str, list[str]] = {}
    for x, s in ground.items():
        if is_map_hex(state.units[x].loc):
            occupied.setdefault(state.units[x].loc, []).append(s.side)
    enemy_hexes = {h for h, sides in occupied.items() if enemy in sides}
    zoc = {n for h in enemy_hexes for n in board.neighbors(h)}
    half = 0 if side == "US" else (spec.mf + 1) // 2
    out: dict[str, int] = {}
    if is_map_hex(u.loc):
        starts = [(0, u.loc)]
    elif u.loc.startswith("entry:"):
        starts = [(half, h) for h in board.entries[u.loc[6:]].hexes]
    else:
        box = u.loc[4:]
        starts = [(half, h) for h in board.boxes[box].hexes]
        order = "ABCD"
        for i in (order.index(box) - 1, order.index(box) + 1):
            if 0 <= i < 4 and order[i] not in u.boxes and half <= u.mf_left:
                out["box:" + order[i]] = half
    best: dict[str, int] = {}
    heap = [(c, h) for c, h in starts if c <= u.mf_left and h not in enemy_hexes]
    for c, h in heap:
        best[h] = min(best.get(h, c), c)
    heapq.heapify(heap)
    while heap:
        c, h = heapq.heappop(heap)
        if c > best[h]:
            continue
        if h != u.loc and h in zoc:
            continue
        for n in board.neighbors(h):
            if n in enemy_hexes or (h == u.loc and h in zoc and n in zoc):
                continue
            nc = c + board.move_cost(h, n)
            if nc <= u.mf_left and nc < best.get(n, 1 << 30):
                best[n] = nc
                heapq.heappush(heap, (nc, n))
    if u.stopped or u.mf_left <= 0 or (u.loc.startswith("box:") and u.box_arrival == state.turn):
        return {}
    out.update({h: c for h, c in best.items() if h != u.loc})
    return out


PERFT_START = ["0507", "0710", "0910", "0000", "0220", "1209"]


@pytest.mark.parametrize("start", PERFT_START)
def test_perft_lone_ij_unit_on_an_empty_map(start, board):
    state = position({KUMA: start}, phase="ij_movement", turn=6)
    reach = RULES.reachable(state, KUMA)
    moves = [c for c in RULES.legal_commands(state) if c.type == "move"]
    assert len(moves) == len(reach)
    assert {c.data["to"] for c in moves} == set(reach)
    assert all(c.data["unit"] == KUMA for c in moves)
    assert {h: r["cost"] for h, r in reach.items()} == oracle(state, KUMA, board)
    for h, r in reach.items():
        path = [p for p in r["path"] if p != start]
        assert path[-1] == h
        assert sum(board.move_cost(a, b) for a, b in zip([start] + path, path, strict=False)) == r["cost"]


@pytest.mark.parametrize("units, uid, phase", [
    ({KUMA: "0507", US_INF: "0306", US_INF2: "0608"}, KUMA, "ij_movement"),
    ({KUMA: "0406", US_INF: "0306", IJ_B: "0507", IJ_C: "0507", IJ_D: "0507"}, KUMA, "ij_movement"),
    ({KUMA: "entry:ij-east-koli", US_INF: "0400", US_INF2: "0601"}, KUMA, "ij_movement"),
    ({KUMA: "entry:ij-west-kokumbona", US_INF: "0519"}, KUMA, "ij_movement"),
    ({US_INF: "entry:us-east-1", KUMA: "0603", IJ_B: "0702"}, US_INF, "us_movement"),
    ({US_INF: "0709", KUMA: "0607", IJ_B: "0911"}, US_INF, "us_movement"),
    ({US_ART3: "0406", KUMA: "0306"}, US_ART3, "us_movement"),
])
def test_perft_with_enemy_units(units, uid, phase, board):
    state = position(units, phase=phase, turn=6)
    reach = RULES.reachable(state, uid)
    moves = [c for c in RULES.legal_commands(state) if c.type == "move" and c.data["unit"] == uid]
    assert {c.data["to"] for c in moves} == set(reach)
    assert len(moves) == len(reach)
    assert {h: r["cost"] for h, r in reach.items()} == oracle(state, uid, board)


def test_perft_unit_in_a_box(board):
    state = ij_move({US_INF: "0003"})
    put_in_box(state, KUMA, "C", visited=["B", "C"])
    reach = RULES.reachable(state, KUMA)
    assert {h: r["cost"] for h, r in reach.items()} == oracle(state, KUMA, board)
    assert len(move_targets(state, KUMA)) == len(reach)


def test_reachable_path_lists_only_the_hexes_entered():
    state = ij_move({KUMA: "0710"})
    assert RULES.reachable(state, KUMA)["0711"]["path"] == ["0711"]


# --- why a move is refused: from the search that lists the moves ------------------------------

def test_6_1_a_hex_just_out_of_reach_says_what_it_would_cost():
    state = ij_move({KUMA: "0710"})
    reach = RULES.reachable(state, KUMA)
    edge = sorted(n for h in reach for n in load_board().neighbors(h)
                  if n not in reach and n != "0710" and load_board().on_map(n))
    err = illegal(state, unit=KUMA, to=edge[0])
    assert err.rule == "§6.1"
    assert "IJ Kuma cannot reach" in err.message and "with 8 MF (the cheapest way costs" in err.message


def test_6_2_a_hex_behind_enemy_zoc_says_movement_halts_there():
    """US 1/1 in 0811 and 1/2 in 0611 put 0711 and every way round to 0712 in their
    ZOC: the refusal names the hex where movement would halt; the US hex itself is
    refused as holding enemy units."""
    state = ij_move({KUMA: "0710", US_INF: "0811", US_INF2: "0611"})
    err = illegal(state, unit=KUMA, to="0712")
    assert (err.rule, err.message) == ("§6.2", "the way to 0712 leads through enemy ZOC (0711), "
                                               "where movement halts")
    assert (illegal(state, unit=KUMA, to="0811").rule, illegal(state, unit=KUMA, to="0811").message) == (
        "§6.4", "0811 holds enemy units")


@pytest.mark.parametrize("units, uid", [
    ({KUMA: "0507", US_INF: "0306", US_INF2: "0608"}, KUMA),
    ({KUMA: "0406", US_INF: "0306", IJ_B: "0507", IJ_C: "0507", IJ_D: "0507"}, KUMA),
    ({KUMA: "entry:ij-east-koli", US_INF: "0400", US_INF2: "0601"}, KUMA),
])
def test_every_refused_destination_has_a_reason_from_the_search(units, uid, board):
    """For every land hex, box and entry point: offered exactly when the search finds it,
    and every other one refused with a §5/§6 reason (never the search's "legal")."""
    state = position(units, phase="ij_movement", turn=6)
    offered = {c.data["to"] for c in RULES.legal_commands(state) if c.type == "move" and c.data["unit"] == uid}
    places = [h for h in board.hexes if board.on_map(h)] + [f"box:{x}" for x in "ABCD"] + \
        [f"entry:{e}" for e in board.entries]
    for place in places:
        if place in offered:
            continue
        err = illegal(state, unit=uid, to=place)
        assert err.rule.startswith(("§5", "§6")), (place, err)
        assert "the move is legal" not in err.message


def test_the_board_shows_only_this_turns_marks():
    """Issue 9: "moved; stopped; MF left 5" from one turn must not be drawn in the next.
    A unit that moved in turn 5 shows nothing of it in turn 6; MF left only in its own
    side's movement phase."""
    state = us_move({US_INF: "0707"})
    play(state, "move", unit=US_INF, to="0708")
    seen = next(u for u in RULES.view(state, "US")["units"] if u["id"] == US_INF)
    assert seen["moved"] and seen["mf_left"] == state.units[US_INF].mf_left
    state.turn += 1  # the same flags, a turn later (the US has not moved again yet)
    state.phase = "ij_movement"
    seen = next(u for u in RULES.view(state, "US")["units"] if u["id"] == US_INF)
    assert (seen["moved"], seen["stopped"], seen["fought"], seen["mf_left"]) == (False, False, False, None)


def test_the_view_says_where_a_unit_is_in_plain_words():
    """Issue 9: no raw ids ("box:D", "entry:ij-east-koli", "ijn_attack", "arriving")."""
    state = ij_move({KUMA: "box:D", IJ_B: "entry:ij-east-koli", "ij-dd-yudachi": "ijn_attack",
                     "us-vmf-223a": "cap", IJ_C: "0711"})
    where = {u["id"]: u["where"] for u in RULES.view(state, "IJ")["units"]}
    assert where[KUMA] == "off-map box D" and where["ij-dd-yudachi"] == "the IJN Attack box"
    assert where[IJ_B].startswith("entry point ") and "ij-east-koli" not in where[IJ_B]
    assert where["us-vmf-223a"] == "the USAF CAP box" and where[IJ_C] == "0711"


def test_the_end_phase_button_says_when_it_hands_the_game_over():
    """Issue 9, item 2 (in part): the player sees that ending this phase passes the game
    to the opponent, from the turn track (trying it would tell the dice ahead)."""
    state = ij_move({KUMA: "0710"})
    assert RULES.label(state, Command("end_phase")) == \
        "End IJ movement; then IJ combat, IJ supply, IJ strategic; then you hand over to US"
    state = position({KUMA: "0710", IJ_SPARE: FAR_IJ_HEX}, phase="ij_strategic", turn=6)
    assert RULES.label(state, Command("end_phase")) == "End IJ strategic and hand over to US"
    state.phase = "us_air"  # the end of the turn: the IJ opens the next one
    assert RULES.label(state, Command("end_phase")) == "End US air and hand over to IJ"


def test_searches_through_a_whole_game_find_the_oracles_costs_by_valid_paths(board):
    """The search (a bucket per MF spent) against the plain heap search above, for every
    unit that may move at every movement step of a random game: the same places at the
    same costs, and each way a chain of neighbours whose costs add up to the place's."""
    # the search takes each cost's places once all are known: no step may cost nothing
    assert min(cost for steps in board.steps.values() for _, cost in steps) >= 1
    record = play_one("first_blood", seed=3, index=0, check_leaks=False)
    state, checked = RULES.blank(), 0
    for event in record.events:
        RULES.apply(state, event)
        side = RULES.prompt(state).side
        if state.phase != f"{(side or '').lower()}_movement":
            continue
        for uid in movement.movable_units(state, side):
            reach = RULES.reachable(state, uid)
            assert {h: r["cost"] for h, r in reach.items()} == oracle(state, uid, board), (state.seq, uid)
            start = state.units[uid].loc
            for h, r in reach.items():
                if not is_map_hex(h):
                    continue
                way = ([start] if is_map_hex(start) else []) + r["path"]
                steps = list(zip(way, way[1:], strict=False))
                assert way[-1] == h and all(b in board.neighbors(a) for a, b in steps)
                entry = 0 if is_map_hex(start) else movement.entry_cost(uid)
                assert entry + sum(board.move_cost(a, b) for a, b in steps) == r["cost"]
            checked += 1
    assert checked > 1500
