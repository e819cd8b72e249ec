"""Air and naval support: §6.6-§6.8 (assignments in the movement phases), §7.3 and
§7.4 (their die modifiers), Table 7 (IJ air-to-air missions) and the worked
scenario at the end of §7.10."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError
from engine.core.events import Command
from engine.core.undo import unmarked
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import force_die, play, position

# USAF (all at start)
US_FIGHTER, US_FIGHTER_2 = "us-vmf-223a", "us-vmf-224"
US_BOMBER, US_BOMBER_2, US_BOMBER_3 = "us-vmsb-232", "us-vmsb-231", "us-flight-300"
# IJAAF (Sep I and Sep II arrivals)
IJ_FIGHTER_1, IJ_FIGHTER_2 = "ij-tainan-1", "ij-2ku-1"
IJ_BOMBER_1, IJ_BOMBER_2 = "ij-kisarazu-1", "ij-misawa-1"
# IJN
DD_1, DD_2, DD_3 = "ij-dd-yudachi", "ij-dd-murakumo", "ij-dd-sendai"


def legal(state) -> list[tuple[str, dict]]:
    return [(c.type, c.data) for c in RULES.legal_commands(state)]


def of_type(events, kind: str) -> list[dict]:
    return [unmarked(e.data) for e in events if e.type == kind]


def loc(state, uid: str) -> str:
    return state.units[uid].loc


# --- §7.10: the worked scenario --------------------------------------------------------

def scenario(strip_units: dict[str, str], phase: str = "ij_movement"):
    """One USAF fighter in CAP and one bomber in Ground Attack; two IJAAF fighters in
    the Attack box and one bomber in the Reserve box (§7.10, last paragraph)."""
    return position({
        US_FIGHTER: "cap", US_BOMBER: "ga", **strip_units,
        IJ_FIGHTER_1: "ijaaf_attack", IJ_FIGHTER_2: "ijaaf_attack", IJ_BOMBER_1: "ijaaf_reserve",
    }, phase=phase, turn=2)


def test_worked_scenario_air_supremacy_then_bombing_of_henderson():
    strips = {"us-vmf-223b": "strip:0708", US_BOMBER_2: "strip:0709"}  # one unit in each hex
    state = scenario(strips)

    # While the CAP box holds a fighter, the Ground Attack bomber cannot be engaged ...
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_attack", units=[IJ_FIGHTER_2], target=US_BOMBER)
    assert err.value.rule == "§6.7"
    assert not any(t == "air_attack" and d["target"] == US_BOMBER for t, d in legal(state))
    # ... and the bomber could not bomb the strips (in the combat phase) either.
    probe = scenario(strips, phase="ij_combat")
    with pytest.raises(IllegalCommandError) as err:
        play(probe, "bombard", unit=IJ_BOMBER_1, hex="0708", target="us-vmf-223b")
    assert err.value.rule == "§7.10"

    # Fighter 1 downs the CAP fighter: both are gone.
    events = play(state, "air_attack", units=[IJ_FIGHTER_1], target=US_FIGHTER)
    assert of_type(events, "air_combat") == [{"attackers": [IJ_FIGHTER_1], "target": US_FIGHTER}]
    assert loc(state, IJ_FIGHTER_1) == ELIMINATED and loc(state, US_FIGHTER) == ELIMINATED
    assert state.phase == "ij_movement"

    # CAP is empty: now fighter 2 may engage the Ground Attack bomber.
    assert ("air_attack", {"units": [IJ_FIGHTER_2], "target": US_BOMBER}) in legal(state)
    play(state, "air_attack", units=[IJ_FIGHTER_2], target=US_BOMBER)
    assert loc(state, IJ_FIGHTER_2) == ELIMINATED and loc(state, US_BOMBER) == ELIMINATED

    # Nothing else to do in the movement phase: on to the combat phase, where the
    # bomber (still in the Reserve box) may hit either strip unit.
    assert state.phase == "ij_combat"
    bombs = {(d["hex"], d["target"]) for t, d in legal(state) if t == "bombard" and d["unit"] == IJ_BOMBER_1}
    assert bombs == {("0708", "us-vmf-223b"), ("0709", US_BOMBER_2)}
    events = play(state, "bombard", unit=IJ_BOMBER_1, hex="0709", target=US_BOMBER_2)
    [hit] = of_type(events, "bombarded")
    assert hit["effect"] == "usaf_eliminated"
    assert loc(state, US_BOMBER_2) == ELIMINATED
    assert loc(state, "us-vmf-223b") == "strip:0708"  # the other unit survives
    assert loc(state, IJ_BOMBER_1) == ELIMINATED  # the bomber is spent
    assert state.strips["0708"].status == state.strips["0709"].status == "oper"


def test_worked_scenario_variant_both_units_in_one_hex_lets_the_bomber_destroy_the_other():
    strips = {"us-vmf-223b": "strip:0708", US_BOMBER_2: "strip:0708"}
    state = scenario(strips)
    play(state, "air_attack", units=[IJ_FIGHTER_1], target=US_FIGHTER)
    play(state, "air_attack", units=[IJ_FIGHTER_2], target=US_BOMBER)
    assert state.phase == "ij_combat"
    bombs = {(d["hex"], d["target"]) for t, d in legal(state) if t == "bombard" and d["unit"] == IJ_BOMBER_1}
    # the choice of §7.10: a USAF unit in 0708, or the open strip hex 0709
    assert bombs == {("0708", "us-vmf-223b"), ("0708", US_BOMBER_2), ("0709", None)}
    events = play(state, "bombard", unit=IJ_BOMBER_1, hex="0709", target=None)
    assert of_type(events, "bombarded")[0]["effect"] == "destroyed"
    assert state.strips["0709"].status == "dest"
    assert state.strips["0708"].status == "oper"
    assert loc(state, "us-vmf-223b") == loc(state, US_BOMBER_2) == "strip:0708"
    assert loc(state, IJ_BOMBER_1) == ELIMINATED


# --- Table 7: IJAAF missions ------------------------------------------------------------

def air_state(units: dict[str, str]):
    return position(units, phase="ij_movement", turn=2)


def test_two_ijaaf_bombers_down_one_cap_fighter_and_both_are_lost():
    state = air_state({US_FIGHTER: "cap", US_FIGHTER_2: "cap",
                       IJ_BOMBER_1: "ijaaf_reserve", IJ_BOMBER_2: "ijaaf_attack"})
    events = play(state, "air_attack", units=[IJ_BOMBER_1, IJ_BOMBER_2], target=US_FIGHTER)
    assert of_type(events, "air_combat") == [{"attackers": [IJ_BOMBER_1, IJ_BOMBER_2], "target": US_FIGHTER}]
    assert {loc(state, u) for u in (IJ_BOMBER_1, IJ_BOMBER_2, US_FIGHTER)} == {ELIMINATED}
    assert loc(state, US_FIGHTER_2) == "cap"


def test_two_bomber_mission_is_legal_whatever_order_the_bombers_are_listed_in():
    state = air_state({US_FIGHTER: "cap", IJ_BOMBER_1: "ijaaf_reserve", IJ_BOMBER_2: "ijaaf_attack"})
    play(state, "air_attack", units=[IJ_BOMBER_2, IJ_BOMBER_1], target=US_FIGHTER)
    assert loc(state, US_FIGHTER) == ELIMINATED


def test_a_single_ijaaf_bomber_cannot_attack_the_cap():
    state = air_state({US_FIGHTER: "cap", IJ_BOMBER_1: "ijaaf_reserve", IJ_BOMBER_2: "ijaaf_attack"})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_attack", units=[IJ_BOMBER_1], target=US_FIGHTER)
    assert err.value.rule == "§6.7"
    assert loc(state, US_FIGHTER) == "cap"


@pytest.mark.parametrize("units", [[IJ_BOMBER_1], [IJ_BOMBER_1, IJ_BOMBER_2]])
def test_ijaaf_bombers_cannot_attack_the_ground_attack_box(units):
    state = air_state({US_BOMBER: "ga", IJ_BOMBER_1: "ijaaf_reserve", IJ_BOMBER_2: "ijaaf_attack"})
    assert not [d for t, d in legal(state) if t == "air_attack"]
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_attack", units=units, target=US_BOMBER)
    assert err.value.rule == "§6.7"
    assert loc(state, US_BOMBER) == "ga"


def test_a_fighter_from_the_reserve_box_may_also_fight_and_is_lost():
    state = air_state({US_FIGHTER: "cap", IJ_FIGHTER_1: "ijaaf_reserve"})
    play(state, "air_attack", units=[IJ_FIGHTER_1], target=US_FIGHTER)
    assert loc(state, IJ_FIGHTER_1) == ELIMINATED and loc(state, US_FIGHTER) == ELIMINATED


def test_air_to_air_combat_happens_only_in_the_ij_movement_phase():
    state = position({US_FIGHTER: "cap", IJ_FIGHTER_1: "ijaaf_attack"}, phase="ij_combat", turn=2)
    with pytest.raises(IllegalCommandError):
        play(state, "air_attack", units=[IJ_FIGHTER_1], target=US_FIGHTER)
    assert loc(state, US_FIGHTER) == "cap"


# --- §6.6 / §7.3: IJN shore bombardment -----------------------------------------------

# A clear-terrain front far from the air fields: no river, ridge or jungle modifiers.
US_HEX, IJ_HEX, FAR_US_HEX = "1108", "1109", "0905"
US_DEF, IJ_ATT, US_FAR = "us-para-1", "ij-124-1", "us-1-1"  # 4 CF vs 4 CF: odds 1:1


def naval_state(ships: dict[str, str]):
    return position({US_DEF: US_HEX, IJ_ATT: IJ_HEX, US_FAR: FAR_US_HEX, **ships},
                    phase="ij_movement", turn=2)


def test_only_destroyers_in_the_ijn_attack_box_may_support():
    state = naval_state({DD_1: "ijn_attack", DD_3: "ijn_reserve"})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "naval_support", unit=DD_3, hex=US_HEX)
    assert err.value.rule == "§6.6"
    assert state.units[DD_3].support is None
    play(state, "naval_support", unit=DD_1, hex=US_HEX)
    assert state.units[DD_1].support == US_HEX


def test_shore_bombardment_needs_a_hex_with_us_ground_units():
    state = naval_state({DD_1: "ijn_attack"})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "naval_support", unit=DD_1, hex="1110")
    assert err.value.rule == "§6.6"


def test_each_destroyer_adds_two_to_the_die_and_is_eliminated_after_the_combat():
    state = naval_state({DD_1: "ijn_attack", DD_2: "ijn_attack"})
    play(state, "naval_support", unit=DD_1, hex=US_HEX)
    play(state, "naval_support", unit=DD_2, hex=US_HEX)
    play(state, "end_phase")
    assert state.phase == "ij_combat"
    play(state, "attack", hex=US_HEX)
    play(state, "add", unit=IJ_ATT)
    force_die(state, 1)
    events = play(state, "resolve")
    [res] = of_type(events, "combat_resolved")
    assert res["odds"] == "1:1"
    assert res["die"] == 1
    assert res["modifier"] == 4
    assert sorted(m["value"] for m in res["modifiers"]) == [2, 2]
    assert {m["rule"] for m in res["modifiers"]} == {"§7.3"}
    assert res["total"] == 5 and res["result"] == "EX"  # Table 9, 1:1, row 5
    assert loc(state, DD_1) == ELIMINATED and loc(state, DD_2) == ELIMINATED


def test_an_unused_shore_bombardment_returns_at_the_end_of_the_combat_phase():
    state = naval_state({DD_1: "ijn_attack", DD_2: "ijn_attack"})
    play(state, "naval_support", unit=DD_1, hex=US_HEX)
    play(state, "naval_support", unit=DD_2, hex=FAR_US_HEX)  # nobody attacks 0905
    play(state, "end_phase")
    play(state, "attack", hex=US_HEX)
    play(state, "add", unit=IJ_ATT)
    force_die(state, 1)
    events = play(state, "resolve")
    [res] = of_type(events, "combat_resolved")
    assert res["modifier"] == 2 and res["supports"] == [DD_1]
    assert [d["unit"] for d in of_type(events, "support_spent")] == [DD_1]
    # The combat phase then ends by itself: the unused destroyer comes back unspent,
    # and (being in the Attack box) leaves play in the strategic phase (§9).
    assert [d["unit"] for d in of_type(events, "support_returned")] == [DD_2]
    types = [e.type for e in events]
    assert types.index("support_returned") < types.index("strategic_shift")
    [shift] = of_type(events, "strategic_shift")
    assert DD_2 in shift["removed"]


# --- §6.8 / §7.4: USAF ground support ---------------------------------------------------

def us_support_state(units: dict[str, str] | None = None):
    return position({US_DEF: US_HEX, IJ_ATT: IJ_HEX, "ij-124-3": "0220", **(units or {})},
                    phase="us_movement", turn=2)


def test_each_us_bomber_adds_one_and_returns_to_the_ground_attack_box():
    state = us_support_state({US_BOMBER: "ga", US_BOMBER_2: "ga"})
    play(state, "air_support", unit=US_BOMBER, hex=IJ_HEX)
    play(state, "air_support", unit=US_BOMBER_2, hex=IJ_HEX)
    play(state, "end_phase")
    assert state.phase == "us_combat"
    play(state, "attack", hex=IJ_HEX)
    play(state, "add", unit=US_DEF)
    force_die(state, 2)
    events = play(state, "resolve")
    [res] = of_type(events, "combat_resolved")
    assert res["odds"] == "1:1" and res["die"] == 2
    assert res["modifier"] == 2
    assert [m["value"] for m in res["modifiers"]] == [1, 1]
    assert {m["rule"] for m in res["modifiers"]} == {"§7.4"}
    assert res["total"] == 4 and res["result"] == "EX"  # Table 10, 1:1, row 4
    # The bombers are not lost: back in Ground Attack (they land in the air phase).
    assert state.phase == "us_air"
    for b in (US_BOMBER, US_BOMBER_2):
        assert loc(state, b) == "ga"
        assert state.units[b].support is None


def test_unused_us_air_support_returns_at_the_end_of_the_combat_phase():
    state = us_support_state({US_BOMBER: "ga", US_BOMBER_2: "ga"})
    play(state, "air_support", unit=US_BOMBER, hex=IJ_HEX)
    play(state, "air_support", unit=US_BOMBER_2, hex="0220")  # no US unit can attack there
    play(state, "end_phase")
    play(state, "attack", hex=IJ_HEX)
    play(state, "add", unit=US_DEF)
    force_die(state, 2)
    events = play(state, "resolve")
    assert [d["unit"] for d in of_type(events, "support_spent")] == [US_BOMBER]
    assert [d["unit"] for d in of_type(events, "support_returned")] == [US_BOMBER_2]
    assert loc(state, US_BOMBER_2) == "ga" and state.units[US_BOMBER_2].support is None


@pytest.mark.parametrize("where", ["usaf_reserve", "strip:0708", "cap"])
def test_only_bombers_in_the_ground_attack_box_may_support(where):
    unit = US_FIGHTER if where == "cap" else US_BOMBER
    state = us_support_state({unit: where})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_support", unit=unit, hex=IJ_HEX)
    assert err.value.rule == "§6.8"


def test_air_support_needs_a_hex_with_ij_ground_units():
    state = us_support_state({US_BOMBER: "ga"})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_support", unit=US_BOMBER, hex="1110")
    assert err.value.rule == "§6.8"


def test_6_7_a_refused_air_mission_says_what_table_7_or_6_6_allows():
    state = position({IJ_BOMBER_1: "ijaaf_reserve", IJ_FIGHTER_1: "ijaaf_reserve", US_FIGHTER: "cap",
                      US_BOMBER: "ga", DD_1: "ijn_attack", "us-1-1": "0707"}, phase="ij_movement")
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_attack", units=[IJ_BOMBER_1], target=US_FIGHTER)
    assert (err.value.rule, "two IJAAF bombers" in err.value.message) == ("§6.7", True)
    with pytest.raises(IllegalCommandError) as err:
        play(state, "air_attack", units=[IJ_FIGHTER_1], target=US_BOMBER)
    assert "CAP box must be emptied" in err.value.message
    with pytest.raises(IllegalCommandError) as err:
        play(state, "naval_support", unit=DD_1, hex="0706")
    assert (err.value.rule, err.value.message) == ("§6.6", "support goes on a hex with US ground units; "
                                                           "0706 has none")


def test_6_7_the_log_and_the_button_say_the_attackers_are_lost_too():
    """§6.7: the IJAAF unit (or both bombers) is removed with the USAF unit it shoots down;
    the button says so before, the log after, in the right number."""
    from engine.games.first_blood.describe import LINES
    state = scenario({})
    one = RULES.label(state, Command("air_attack", {"units": [IJ_FIGHTER_1], "target": US_FIGHTER}))
    two = RULES.label(state, Command("air_attack", {"units": [IJ_BOMBER_1, IJ_BOMBER_2], "target": US_FIGHTER}))
    assert one.endswith(": it is lost, and so is the attacker (§6.7)") and " attacks " in one
    assert two.endswith(": it is lost, and so are the attackers (§6.7)") and " attack " in two
    line = LINES["air_combat"](state, {"attackers": [IJ_FIGHTER_1], "target": US_FIGHTER}, "IJ")
    assert " shoots down " in line and line.endswith("; both are lost (§6.7)")
