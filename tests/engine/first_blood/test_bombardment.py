"""§7.10 Airfield bombardment by IJ artillery, IJN destroyers and IJAAF bombers
("bombard" {unit, hex, target} in the IJ combat phase)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError
from engine.games.first_blood.phases.engineering import crews
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import force_die, play, position

MOUNTAIN_GUN = "ij-mtn-2"  # range 5 (counting both hexes)
HEAVY_GUN = "ij-hvy-4"  # range 8
DESTROYER, DESTROYER_2 = "ij-dd-kagero", "ij-dd-oyashio"
BOMBER = "ij-705-1"
US_FIGHTER, US_FIGHTER_2 = "us-vmf-223a", "us-vmf-223b"
ENGINEER, PIONEER = "us-engineer-1", "us-pioneer-1"
# IJ ground units far from everything, so that the game does not end (§12) and a
# supply loss is a choice rather than automatic.
IJ_FAR = {"ij-124-1": "0220", "ij-124-3": "0219", "ij-4-2": "0218", "ij-kuma": "0217"}
TURN = 7


def combat_state(units: dict[str, str], strips: dict | None = None):
    return position({**IJ_FAR, **units}, phase="ij_combat", turn=TURN, strips=strips,
                    others=ELIMINATED)


def bombards(state, unit: str) -> set[tuple[str, str | None]]:
    return {(c.data["hex"], c.data["target"]) for c in RULES.legal_commands(state)
            if c.type == "bombard" and c.data["unit"] == unit}


def bombard(state, unit: str, hex_id: str, target: str | None = None) -> dict:
    events = play(state, "bombard", unit=unit, hex=hex_id, target=target)
    [hit] = [e.data for e in events if e.type == "bombarded"]
    return hit


def advance(state, phase: str, turn: int, keep: tuple[str, ...] = ()) -> None:
    """End phases (and give up a supply loss not in ``keep``) until ``phase`` of ``turn``."""
    for _ in range(300):
        if state.phase == phase and state.turn == turn:
            return
        assert state.result is None and state.turn <= turn, (state.phase, state.turn, state.result)
        if state.pending:
            play(state, "eliminate", unit=[u for u in state.pending[0]["candidates"] if u not in keep][-1])
        else:
            play(state, "end_phase")
    raise AssertionError("never reached the phase")


# --- artillery ------------------------------------------------------------------------

def test_artillery_range_counts_both_hexes_figure_8():
    # Figure 8: range 5 from 0311 reaches the western Henderson hex 0709, not 0708.
    state = combat_state({MOUNTAIN_GUN: "0311"})
    assert bombards(state, MOUNTAIN_GUN) == {("0709", None)}
    with pytest.raises(IllegalCommandError) as err:
        play(state, "bombard", unit=MOUNTAIN_GUN, hex="0708", target=None)
    assert err.value.rule == "§7.10"


def test_artillery_eliminates_one_usaf_unit_on_the_strip_first():
    state = combat_state({MOUNTAIN_GUN: "0311", US_FIGHTER: "strip:0709", US_FIGHTER_2: "strip:0709"})
    state.unit(US_FIGHTER).face_down = True
    # the strip itself cannot be hit while USAF units are on it
    with pytest.raises(IllegalCommandError) as err:
        play(state, "bombard", unit=MOUNTAIN_GUN, hex="0709", target=None)
    assert err.value.rule == "§7.10"
    assert bombards(state, MOUNTAIN_GUN) == {("0709", US_FIGHTER), ("0709", US_FIGHTER_2)}
    hit = bombard(state, MOUNTAIN_GUN, "0709", US_FIGHTER)
    assert hit["effect"] == "usaf_eliminated"
    assert state.units[US_FIGHTER].loc == ELIMINATED
    assert state.units[US_FIGHTER_2].loc == "strip:0709"
    assert state.strips["0709"].status == "oper"
    assert state.units[MOUNTAIN_GUN].loc == "0311"  # artillery is not spent


def test_artillery_damages_an_empty_operational_strip():
    state = combat_state({MOUNTAIN_GUN: "0311"})
    hit = bombard(state, MOUNTAIN_GUN, "0709")
    assert hit["effect"] == "damaged"
    assert state.strips["0709"].status == "dam"
    assert state.units[MOUNTAIN_GUN].loc == "0311"


def test_artillery_on_a_damaged_strip_only_stops_the_work():
    state = combat_state({MOUNTAIN_GUN: "0311"},
                         strips={"0709": {"status": "dam", "work": 1, "worked_turn": TURN - 1}})
    hit = bombard(state, MOUNTAIN_GUN, "0709")
    assert hit["effect"] == "none" and hit["work_lost"] == 1
    assert state.strips["0709"].status == "dam"
    assert state.strips["0709"].work == 0


def test_artillery_cannot_destroy_an_air_strip():
    state = combat_state({MOUNTAIN_GUN: "0311"},
                         strips={"0709": {"status": "dest", "work": 1, "worked_turn": TURN - 1}})
    hit = bombard(state, MOUNTAIN_GUN, "0709")
    assert hit["effect"] == "none"
    assert state.strips["0709"].status == "dest" and state.strips["0709"].work == 0


def test_artillery_cannot_bombard_the_unbuilt_fighter_strip():
    state = combat_state({MOUNTAIN_GUN: "0407"})  # 0605 is within range
    assert not {h for h, _ in bombards(state, MOUNTAIN_GUN)} & {"0605", "0705"}
    with pytest.raises(IllegalCommandError):
        play(state, "bombard", unit=MOUNTAIN_GUN, hex="0605", target=None)


def test_artillery_cannot_bombard_the_fighter_strip_under_construction():
    state = combat_state({MOUNTAIN_GUN: "0407", ENGINEER: "0605"},
                         strips={"0605": {"work": 1, "worked_turn": TURN - 1}})
    assert "0605" not in {h for h, _ in bombards(state, MOUNTAIN_GUN)}


def test_artillery_bombards_once_and_then_cannot_support_a_combat():
    state = combat_state({HEAVY_GUN: "0407", "us-para-1": "1108", "ij-29-1": "1109"})
    bombard(state, HEAVY_GUN, "0709")
    assert bombards(state, HEAVY_GUN) == set()
    play(state, "attack", hex="1108")
    play(state, "add", unit="ij-29-1")
    with pytest.raises(IllegalCommandError) as err:
        play(state, "add", unit=HEAVY_GUN)
    assert err.value.rule.startswith("§7")


def test_artillery_that_supported_a_combat_cannot_bombard():
    state = combat_state({HEAVY_GUN: "0407", "us-para-1": "1108", "ij-29-1": "1109",
                          DESTROYER: "ijn_reserve"})  # keeps the combat phase open
    play(state, "attack", hex="1108")
    play(state, "add", unit="ij-29-1")
    play(state, "add", unit=HEAVY_GUN)  # remote fire: 4 + 3 vs 4, odds 1:1
    force_die(state, 5)  # EX: both sides lose their only unit, nothing to choose
    play(state, "resolve")
    assert state.phase == "ij_combat" and state.combat is None
    with pytest.raises(IllegalCommandError) as err:
        play(state, "bombard", unit=HEAVY_GUN, hex="0709", target=None)
    assert err.value.rule == "§7.10"


def test_us_ground_units_in_the_bombarded_hex_are_unaffected_but_cannot_work_that_turn():
    state = combat_state({MOUNTAIN_GUN: "0311", ENGINEER: "0709", "us-1-1": "0709", PIONEER: "0708"},
                         strips={"0709": {"status": "dam"}, "0708": {"status": "dam"}})
    hit = bombard(state, MOUNTAIN_GUN, "0709")
    assert hit["effect"] == "none"
    assert state.units[ENGINEER].loc == "0709" and state.units["us-1-1"].loc == "0709"
    advance(state, "us_engineering", TURN)
    assert state.units[ENGINEER].loc == "0709"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0709", units=[ENGINEER])
    assert err.value.rule == "§10"
    play(state, "work", hex="0708", units=[PIONEER])  # the other hex was not bombarded
    assert state.strips["0708"].work == 1


# --- destroyers ----------------------------------------------------------------------------

@pytest.mark.parametrize("box", ["ijn_reserve", "ijn_attack"])
def test_a_destroyer_from_either_ijn_box_eliminates_a_usaf_unit_and_is_spent(box):
    state = combat_state({DESTROYER: box, US_FIGHTER: "strip:0708"})
    assert bombards(state, DESTROYER) == {("0708", US_FIGHTER), ("0709", None)}
    with pytest.raises(IllegalCommandError):
        play(state, "bombard", unit=DESTROYER, hex="0708", target=None)
    hit = bombard(state, DESTROYER, "0708", US_FIGHTER)
    assert hit["effect"] == "usaf_eliminated"
    assert state.units[US_FIGHTER].loc == ELIMINATED
    assert state.strips["0708"].status == "oper"
    assert state.units[DESTROYER].loc == ELIMINATED


def test_a_destroyer_destroys_an_empty_strip_and_us_ground_units_there_are_unaffected():
    state = combat_state({DESTROYER: "ijn_reserve", "us-1-1": "0708"})
    hit = bombard(state, DESTROYER, "0708")
    assert hit["effect"] == "destroyed"
    assert state.strips["0708"].status == "dest"
    assert state.units["us-1-1"].loc == "0708"
    assert state.units[DESTROYER].loc == ELIMINATED


def test_a_destroyer_bombardment_removes_the_engineering_markers():
    state = combat_state({DESTROYER: "ijn_reserve"},
                         strips={"0708": {"status": "dam", "work": 1, "worked_turn": TURN - 1}})
    hit = bombard(state, DESTROYER, "0708")
    assert hit["effect"] == "destroyed" and hit["work_lost"] == 1
    assert state.strips["0708"].status == "dest" and state.strips["0708"].work == 0


def test_a_destroyer_assigned_to_shore_bombardment_cannot_bombard_a_strip():
    state = position({**IJ_FAR, DESTROYER: "ijn_attack", DESTROYER_2: "ijn_reserve",
                      "us-para-1": "1108", "ij-29-1": "1109"},
                     phase="ij_movement", turn=TURN, others=ELIMINATED)
    play(state, "naval_support", unit=DESTROYER, hex="1108")
    play(state, "end_phase")
    assert state.phase == "ij_combat"
    assert bombards(state, DESTROYER) == set()
    with pytest.raises(IllegalCommandError) as err:
        play(state, "bombard", unit=DESTROYER, hex="0709", target=None)
    assert err.value.rule == "§7.10"
    # and once it has supported the combat it is gone (§6.6)
    play(state, "attack", hex="1108")
    play(state, "add", unit="ij-29-1")
    force_die(state, 1)
    play(state, "resolve")
    assert state.units[DESTROYER].loc == ELIMINATED
    assert bombards(state, DESTROYER) == set()


# --- bombers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("box", ["ijaaf_reserve", "ijaaf_attack"])
def test_a_bomber_eliminates_a_usaf_unit_when_cap_is_empty_and_is_spent(box):
    state = combat_state({BOMBER: box, US_FIGHTER: "strip:0708", "us-vmsb-232": "ga"})
    hit = bombard(state, BOMBER, "0708", US_FIGHTER)
    assert hit["effect"] == "usaf_eliminated"
    assert state.units[US_FIGHTER].loc == ELIMINATED
    assert state.units[BOMBER].loc == ELIMINATED


def test_a_bomber_destroys_an_empty_strip():
    state = combat_state({BOMBER: "ijaaf_reserve", US_FIGHTER: "strip:0708"})
    hit = bombard(state, BOMBER, "0709")
    assert hit["effect"] == "destroyed"
    assert state.strips["0709"].status == "dest"
    assert state.units[BOMBER].loc == ELIMINATED


def test_no_bombing_run_while_a_usaf_fighter_patrols_the_cap():
    state = combat_state({BOMBER: "ijaaf_reserve", US_FIGHTER: "cap", US_FIGHTER_2: "strip:0708"})
    assert bombards(state, BOMBER) == set()
    for target_hex, target in (("0708", US_FIGHTER_2), ("0709", None)):
        with pytest.raises(IllegalCommandError) as err:
            play(state, "bombard", unit=BOMBER, hex=target_hex, target=target)
        assert err.value.rule == "§7.10"
    assert state.units[BOMBER].loc == "ijaaf_reserve"


def test_7_10_a_refused_bombardment_names_what_forbids_it():
    """The reason comes from the checks that list the bombardments: range, an unbuilt
    strip, a strip where nothing would change, the USAF unit to hit."""
    state = combat_state({MOUNTAIN_GUN: "0311", US_FIGHTER: "strip:0709"})
    err = illegal_bombard(state, MOUNTAIN_GUN, "0708")
    assert "0708 is out of IJ" in err.message and "range (5" in err.message
    err = illegal_bombard(combat_state({HEAVY_GUN: "0407"}), HEAVY_GUN, "0605")
    assert "has not been built" in err.message
    err = illegal_bombard(state, MOUNTAIN_GUN, "0709")  # no target named: a USAF unit is there
    assert "name the USAF unit at 0709" in err.message and "US VMF-223" in err.message


def illegal_bombard(state, unit: str, hex_id: str, target: str | None = None) -> IllegalCommandError:
    with pytest.raises(IllegalCommandError) as err:
        play(state, "bombard", unit=unit, hex=hex_id, target=target)
    assert err.value.rule == "§7.10"
    return err.value


def test_r_7_10_a_no_bombardment_is_offered_where_it_changes_nothing():
    """A destroyed strip with no USAF unit, no work and only riflemen in its hex: a destroyer
    or bomber would be spent for nothing (the riflemen are not hit, §7.10), so none is
    offered.  An engineer there who could start work on it this turn is a reason (§10)."""
    quiet = combat_state({DESTROYER: "ijn_reserve", "us-1-1": "0708"}, strips={"0708": {"status": "dest"}})
    assert ("0708", None) not in bombards(quiet, DESTROYER)
    err = illegal_bombard(quiet, DESTROYER, "0708")
    assert "would change nothing" in err.message and "no engineer there" in err.message
    with_engineer = combat_state({DESTROYER: "ijn_reserve", ENGINEER: "0708"}, strips={"0708": {"status": "dest"}})
    assert ("0708", None) in bombards(with_engineer, DESTROYER)
    assert crews(with_engineer, "0708") == [[ENGINEER]]
    hit = bombard(with_engineer, DESTROYER, "0708")
    assert hit["effect"] == "none" and crews(with_engineer, "0708") == []  # kept from working this turn


def test_7_6_a_die_total_beyond_the_table_is_worded_as_read():
    """§7.6: a result above 6 is treated as 6, below 1 as 1; the log says so rather than
    "die 4 +3 = 6", which read as wrong arithmetic."""
    from engine.games.first_blood.describe import LINES
    line = LINES["combat_resolved"]
    attack = {"targets": ["0709"], "odds": "3:1", "attack": 12, "defence": 3, "result": "DE"}
    assert line(None, {**attack, "die": 4, "modifier": 3, "total": 6}, "IJ").endswith("die 4 +3 = 7, read as 6: DE")
    assert line(None, {**attack, "die": 1, "modifier": -2, "total": 1}, "IJ").endswith("die 1 -2 = -1, read as 1: DE")
    assert line(None, {**attack, "die": 2, "modifier": 3, "total": 5}, "IJ").endswith("die 2 +3 = 5: DE")
