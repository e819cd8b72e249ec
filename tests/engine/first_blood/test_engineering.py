"""§10 US engineering: repairing and building air strips ("work" {hex, units} in the
US engineering phase; work markers 1 and 2)."""

from __future__ import annotations

import pytest
from fb_support import advance

from engine.core.errors import IllegalCommandError
from engine.core.undo import unmarked
from engine.games.first_blood.phases.engineering import OPTION_TWO_UNITS
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import force_die, play, position

ENGINEER, ENGINEER_2, PIONEER = "us-engineer-1", "us-seabee-6", "us-pioneer-1"
MARINE, MARINE_2 = "us-1-1", "us-1-2"
# IJ ground units far away: the game goes on (§12), supply losses are a choice.
IJ_FAR = {"ij-124-1": "0220", "ij-124-3": "0219", "ij-4-2": "0218", "ij-kuma": "0217"}
# An engineer on the unbuilt strip 0705 who never works there: he keeps every
# engineering phase open (a phase with nothing to decide passes by itself).
KEEPER = {PIONEER: "0705"}
TURN = 7


def engineering(units: dict[str, str], strips: dict | None = None, options: dict | None = None,
                phase: str = "us_engineering"):
    return position({**IJ_FAR, **KEEPER, **units}, phase=phase, turn=TURN, strips=strips,
                    options=options, others=ELIMINATED)


def work_options(state) -> set[tuple[str, tuple[str, ...]]]:
    return {(c.data["hex"], tuple(c.data["units"])) for c in RULES.legal_commands(state) if c.type == "work"}


def strip(state, hex_id: str) -> tuple[str, int]:
    s = state.strips[hex_id]
    return s.status, s.work


# --- timing -------------------------------------------------------------------------

def test_a_damaged_strip_is_repaired_at_the_next_engineering_phase():
    state = engineering({ENGINEER: "0708"}, strips={"0708": {"status": "dam"}})
    events = play(state, "work", hex="0708", units=[ENGINEER])
    assert [unmarked(e.data) for e in events if e.type == "work_done"] == [
        {"hex": "0708", "units": [ENGINEER], "marker": 1}]
    assert strip(state, "0708") == ("dam", 1)
    play(state, "end_phase")
    assert state.phase == "us_air"  # nothing to fly, but the US hands the turn over itself
    play(state, "end_phase")
    assert (state.phase, state.turn) == ("ij_movement", TURN + 1)
    assert strip(state, "0708") == ("dam", 1)  # still Damaged until the next engineering phase
    advance(state, "us_movement", TURN + 1)
    assert strip(state, "0708") == ("dam", 1)
    advance(state, "us_engineering", TURN + 1)
    assert strip(state, "0708") == ("oper", 0)
    assert ("0708", (ENGINEER,)) not in work_options(state)


def test_a_destroyed_henderson_hex_needs_two_consecutive_turns_of_work():
    state = engineering({ENGINEER: "0708"}, strips={"0708": {"status": "dest"}})
    play(state, "work", hex="0708", units=[ENGINEER])
    assert strip(state, "0708") == ("dest", 1)
    advance(state, "us_engineering", TURN + 1)
    assert strip(state, "0708") == ("dest", 1)  # no intermediate 'Damaged' state
    events = play(state, "work", hex="0708", units=[ENGINEER])
    assert [e.data["marker"] for e in events if e.type == "work_done"] == [2]
    assert strip(state, "0708") == ("dest", 2)
    play(state, "end_phase")
    assert strip(state, "0708") == ("dest", 2)  # not usable in this turn's air phase
    advance(state, "us_engineering", TURN + 2)
    assert strip(state, "0708") == ("oper", 0)


def test_the_fighter_strip_is_built_in_two_turns_and_is_operational_at_the_third():
    state = engineering({ENGINEER: "0605"})
    assert state.strips["0605"].built is False
    play(state, "work", hex="0605", units=[ENGINEER])
    advance(state, "us_engineering", TURN + 1)
    assert strip(state, "0605") == ("dest", 1)
    play(state, "work", hex="0605", units=[ENGINEER])
    assert strip(state, "0605") == ("dest", 2) and state.strips["0605"].built is False
    advance(state, "us_engineering", TURN + 2)
    assert strip(state, "0605") == ("oper", 0)
    assert state.strips["0605"].built is True
    assert state.strips["0705"].built is False  # each hex of the air field on its own


def test_skipping_the_second_turn_loses_the_work():
    state = engineering({ENGINEER: "0605"})
    play(state, "work", hex="0605", units=[ENGINEER])
    advance(state, "us_engineering", TURN + 1)
    assert ("0605", (ENGINEER,)) in work_options(state)
    events = play(state, "end_phase")  # no second turn of work
    assert [e.data["hex"] for e in events if e.type == "work_disrupted"] == ["0605"]
    assert strip(state, "0605") == ("dest", 0)
    advance(state, "us_engineering", TURN + 2)
    assert strip(state, "0605") == ("dest", 0)
    # the work starts over with marker 1
    events = play(state, "work", hex="0605", units=[ENGINEER])
    assert [e.data["marker"] for e in events if e.type == "work_done"] == [1]


def test_an_operational_strip_needs_no_work():
    state = engineering({ENGINEER: "0708"})
    assert work_options(state) == {("0705", (PIONEER,))}
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"


def test_only_one_work_per_strip_hex_per_phase():
    state = engineering({ENGINEER: "0708", ENGINEER_2: "0708"}, strips={"0708": {"status": "dest"}})
    assert {("0708", (ENGINEER,)), ("0708", (ENGINEER_2,))} <= work_options(state)
    play(state, "work", hex="0708", units=[ENGINEER])
    assert state.phase == "us_engineering"
    assert not [h for h, _ in work_options(state) if h == "0708"]
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER_2])
    assert err.value.rule == "§10"
    assert strip(state, "0708") == ("dest", 1)  # a second engineer does not speed it up


def test_the_engineer_must_be_in_the_strip_hex():
    state = engineering({ENGINEER: "0608"}, strips={"0708": {"status": "dam"}})
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"
    assert err.value.message.endswith("is not in 0708")


# --- who may work -------------------------------------------------------------------

def test_an_engineer_that_moved_this_turn_cannot_work_even_back_in_the_hex():
    state = engineering({ENGINEER: "0708", ENGINEER_2: "0709"},
                        strips={"0708": {"status": "dam"}, "0709": {"status": "dam"}}, phase="us_movement")
    play(state, "move", unit=ENGINEER, to="0608")
    play(state, "move", unit=ENGINEER, to="0708")
    play(state, "end_phase")
    assert state.phase == "us_engineering"
    assert work_options(state) == {("0709", (ENGINEER_2,)), ("0705", (PIONEER,))}
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"
    assert "moved or retreated this turn" in err.value.message  # the reason, from the same check


def test_an_engineer_that_did_not_start_the_turn_in_the_hex_cannot_work():
    state = engineering({ENGINEER: "0608"}, strips={"0708": {"status": "dam"}}, phase="us_movement")
    play(state, "move", unit=ENGINEER, to="0708")
    play(state, "end_phase")
    assert state.phase == "us_engineering"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"


def test_an_engineer_that_fought_this_turn_cannot_work():
    state = engineering({ENGINEER: "0708", MARINE: "0708", "ij-29-1": "0707"},
                        strips={"0708": {"status": "dam"}}, phase="us_combat")
    play(state, "attack", hex="0707")
    play(state, "add", unit=ENGINEER)
    play(state, "add", unit=MARINE)  # 3 + 5 vs 4: odds 2:1
    force_die(state, 4)  # D1: the lone defender is eliminated
    play(state, "resolve")
    assert state.units["ij-29-1"].loc == ELIMINATED
    assert state.phase == "us_engineering"
    assert state.units[ENGINEER].loc == "0708"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"


def test_an_engineer_whose_hex_was_bombarded_this_turn_cannot_work():
    state = position({**IJ_FAR, **KEEPER, ENGINEER: "0708", "ij-dd-kagero": "ijn_reserve"},
                     phase="ij_combat", turn=TURN, others=ELIMINATED, strips={"0708": {"status": "dest"}})
    play(state, "bombard", unit="ij-dd-kagero", hex="0708", target=None)  # Dest: no further effect
    advance(state, "us_engineering", TURN)
    assert state.units[ENGINEER].loc == "0708"
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[ENGINEER])
    assert err.value.rule == "§10"
    # next turn he may start
    play(state, "end_phase")
    advance(state, "us_engineering", TURN + 1)
    play(state, "work", hex="0708", units=[ENGINEER])
    assert strip(state, "0708") == ("dest", 1)


def test_bombardment_of_a_strip_under_repair_undoes_the_work():
    # an IJ mountain gun in range of 0709 (Figure 8)
    state = engineering({ENGINEER: "0709", "ij-mtn-2": "0311"}, strips={"0709": {"status": "dam"}})
    play(state, "work", hex="0709", units=[ENGINEER])
    advance(state, "ij_combat", TURN + 1)
    play(state, "bombard", unit="ij-mtn-2", hex="0709", target=None)
    assert strip(state, "0709") == ("dam", 0)
    advance(state, "us_engineering", TURN + 1)
    assert strip(state, "0709") == ("dam", 0)  # not repaired: the work must start over


# --- optional rule: two units as one engineer -----------------------------------------------

def test_two_non_engineers_cannot_work_without_the_optional_rule():
    state = engineering({MARINE: "0708", MARINE_2: "0708"}, strips={"0708": {"status": "dam"}})
    assert not [h for h, _ in work_options(state) if h == "0708"]
    with pytest.raises(IllegalCommandError) as err:
        play(state, "work", hex="0708", units=[MARINE, MARINE_2])
    assert err.value.rule == "§10"
    with pytest.raises(IllegalCommandError):
        play(state, "work", hex="0708", units=[MARINE])


def test_two_non_engineers_work_as_one_engineer_with_the_optional_rule():
    state = engineering({MARINE: "0708", MARINE_2: "0708"}, strips={"0708": {"status": "dam"}},
                        options={OPTION_TWO_UNITS: True})
    assert ("0708", (MARINE, MARINE_2)) in work_options(state)
    with pytest.raises(IllegalCommandError):
        play(state, "work", hex="0708", units=[MARINE])  # one of them alone is no engineer
    play(state, "work", hex="0708", units=[MARINE, MARINE_2])
    assert strip(state, "0708") == ("dam", 1)
    advance(state, "us_engineering", TURN + 1)
    assert strip(state, "0708") == ("oper", 0)


def test_a_two_unit_crew_may_be_listed_in_any_order():
    state = engineering({MARINE: "0708", MARINE_2: "0708"}, strips={"0708": {"status": "dam"}},
                        options={OPTION_TWO_UNITS: True})
    play(state, "work", hex="0708", units=[MARINE_2, MARINE])
    assert strip(state, "0708") == ("dam", 1)
