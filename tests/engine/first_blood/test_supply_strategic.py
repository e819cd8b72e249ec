"""§8 IJ supply (a die roll at the start of the supply phase) and §9 the IJ
strategic phase (Attack boxes leave play, Reserve boxes move to Attack)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalCommandError, NotYourTurnError
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.state import ELIMINATED
from engine.games.first_blood.testing import play, position

MAP_UNIT, MAP_UNIT_2, BOX_UNIT = "ij-124-1", "ij-124-3", "ij-4-2"
RESERVE_DD, ATTACK_DD = "ij-dd-kagero", "ij-dd-oyashio"
IJ_FIGHTER, IJ_BOMBER = "ij-582-1", "ij-705-1"
US_KEEPER = {"us-1-1": "1108"}  # a US unit that may move stops the turn at the US movement phase
TURN = 7


def combat_phase(units: dict[str, str]):
    return position({**US_KEEPER, **units}, phase="ij_combat", turn=TURN, others=ELIMINATED)


def end_combat_with_supply_die(state, value: int):
    """End the IJ combat phase with a dice secret that makes the supply roll ``value``
    (returns the new state and the events)."""
    for n in range(2000):
        trial = state.clone()
        trial.secret = f"supply-{value}-{n}"
        events = play(trial, "end_phase")
        rolls = [e.data["die"] for e in events if e.type == "supply_rolled"]
        if rolls == [value]:
            return trial, events
    raise AssertionError("no secret gives that roll")


def eliminated(events) -> list[str]:
    return [e.data["unit"] for e in events if e.type == "unit_eliminated"]


FULL = {MAP_UNIT: "0220", MAP_UNIT_2: "0219", BOX_UNIT: "box:A",
        RESERVE_DD: "ijn_reserve", ATTACK_DD: "ijn_attack",
        IJ_FIGHTER: "ijaaf_reserve", IJ_BOMBER: "ijaaf_attack"}


# --- §8 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("die", [1, 2, 3])
def test_a_supply_roll_of_1_to_3_costs_nothing(die):
    state, events = end_combat_with_supply_die(combat_phase(FULL), die)
    [roll] = [e.data for e in events if e.type == "supply_rolled"]
    assert roll == {"die": die, "loss": False}
    assert eliminated(events) == []
    assert not state.pending
    assert state.phase == "ij_strategic"  # the turn went on by itself, up to the IJ's handover
    for uid in (MAP_UNIT, MAP_UNIT_2, BOX_UNIT):
        assert state.units[uid].loc == FULL[uid]
    # what the handover is for, not only the phase's name (a player read "IJ strategic (§9)" and no more)
    assert RULES.prompt(state).text.endswith("(§9): end the phase to hand the turn to the US")


@pytest.mark.parametrize("die", [4, 5, 6])
def test_a_supply_roll_of_4_to_6_makes_the_ij_choose_a_loss(die):
    state, events = end_combat_with_supply_die(combat_phase(FULL), die)
    [roll] = [e.data for e in events if e.type == "supply_rolled"]
    assert roll == {"die": die, "loss": True}
    assert state.phase == "ij_supply"
    [decision] = state.pending
    assert decision["kind"] == "supply_loss"
    # ground units on the map or in the off-map boxes, or a destroyer in the IJN Reserve
    assert set(decision["candidates"]) == {MAP_UNIT, MAP_UNIT_2, BOX_UNIT, RESERVE_DD}
    prompt = RULES.prompt(state)
    assert prompt.side == "IJ" and prompt.kind == "supply_loss"
    assert RULES.legal_commands(state, "US") == []


@pytest.mark.parametrize("choice", [MAP_UNIT, BOX_UNIT, RESERVE_DD])
def test_the_ij_gives_up_the_unit_it_chooses(choice):
    state, _ = end_combat_with_supply_die(combat_phase(FULL), 5)
    events = play(state, "eliminate", unit=choice)
    assert eliminated(events)[0] == choice
    assert state.units[choice].loc == ELIMINATED
    assert not state.pending
    for uid in {MAP_UNIT, MAP_UNIT_2, BOX_UNIT} - {choice}:
        assert state.units[uid].loc == FULL[uid]
    assert state.phase == "ij_strategic"


@pytest.mark.parametrize("not_allowed", [ATTACK_DD, IJ_FIGHTER, IJ_BOMBER, "us-1-1"])
def test_supply_loss_cannot_be_taken_from_the_ijn_attack_box_or_the_air(not_allowed):
    state, _ = end_combat_with_supply_die(combat_phase(FULL), 6)
    with pytest.raises(IllegalCommandError) as err:
        play(state, "eliminate", unit=not_allowed)
    assert err.value.rule == "§8"
    assert state.units[not_allowed].loc == {**FULL, **US_KEEPER}[not_allowed]
    assert state.pending


def test_the_us_cannot_answer_the_supply_decision():
    state, _ = end_combat_with_supply_die(combat_phase(FULL), 4)
    with pytest.raises(NotYourTurnError):
        play(state, "eliminate", side="US", unit=MAP_UNIT)
    assert state.units[MAP_UNIT].loc == "0220"


def test_with_a_single_candidate_the_loss_is_taken_at_once():
    state, events = end_combat_with_supply_die(combat_phase({MAP_UNIT: "0220", ATTACK_DD: "ijn_attack"}), 4)
    assert eliminated(events) == [MAP_UNIT]
    assert state.units[MAP_UNIT].loc == ELIMINATED
    assert state.units[ATTACK_DD].loc == ELIMINATED  # by the strategic phase, not by supply


# --- §9 ----------------------------------------------------------------------------------

def test_strategic_phase_removes_the_attack_boxes_and_advances_the_reserves():
    units = {**FULL, "ij-dd-hiei": "ijn_reserve", "ij-204-1": "ijaaf_attack"}
    state, events = end_combat_with_supply_die(combat_phase(units), 1)
    [shift] = [e.data for e in events if e.type == "strategic_shift"]
    assert sorted(shift["removed"]) == sorted([ATTACK_DD, IJ_BOMBER, "ij-204-1"])
    assert sorted(shift["advanced"]) == sorted([RESERVE_DD, IJ_FIGHTER, "ij-dd-hiei"])
    for uid in (ATTACK_DD, IJ_BOMBER, "ij-204-1"):
        assert state.units[uid].loc == ELIMINATED
    assert state.units[RESERVE_DD].loc == "ijn_attack"
    assert state.units["ij-dd-hiei"].loc == "ijn_attack"
    assert state.units[IJ_FIGHTER].loc == "ijaaf_attack"
    # ground units are not concerned
    for uid in (MAP_UNIT, MAP_UNIT_2, BOX_UNIT):
        assert state.units[uid].loc == FULL[uid]
    assert state.phase == "ij_strategic"


def test_an_ij_air_or_naval_unit_is_on_the_board_for_at_most_two_turns():
    state, _ = end_combat_with_supply_die(combat_phase({MAP_UNIT: "0220", MAP_UNIT_2: "0219",
                                                        RESERVE_DD: "ijn_reserve"}), 1)
    assert state.units[RESERVE_DD].loc == "ijn_attack"
    # play on to the next IJ combat phase, then through the next strategic phase
    for _ in range(50):
        if state.phase == "ij_combat" and state.turn == TURN + 1:
            break
        play(state, "end_phase")
    assert state.units[RESERVE_DD].loc == "ijn_attack"
    state, events = end_combat_with_supply_die(state, 2)
    assert state.units[RESERVE_DD].loc == ELIMINATED
    [shift] = [e.data for e in events if e.type == "strategic_shift"]
    assert shift["removed"] == [RESERVE_DD]
