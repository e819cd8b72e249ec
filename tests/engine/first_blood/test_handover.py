"""R-HANDOVER (issue 9, item 2): the game passes to the opponent only by the acting
player's word; within one's own turn, phases with nothing to choose flow on."""

from __future__ import annotations

from engine.core.events import Command
from engine.core.game import replay
from engine.games.first_blood.oob import LAST_TURN
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import by_name, play, position

KUMA = by_name("Kuma", "IJ")
US_1_1 = by_name("1/1", "US")


def test_the_ij_turn_flows_to_its_last_phase_and_waits_for_the_ij_to_hand_over():
    s = position({KUMA: "0304", US_1_1: "1210"}, phase="ij_movement")
    events = play(s, "end_phase")
    # combat (nobody to attack), supply (its die) and strategic ran by themselves ...
    assert [e.data["phase"] for e in events if e.type == "phase_started"] == ["ij_combat", "ij_supply", "ij_strategic"]
    # ... and the game rests with the IJ, whose only choice is to hand over
    assert RULES.prompt(s).side == "IJ" and s.phase == "ij_strategic"
    assert [c.type for c in RULES.legal_commands(s)] == ["end_phase"]  # the supply die: no undo
    assert RULES.label(s, Command("end_phase")) == "End IJ strategic and hand over to US"
    assert any("the game passes to US" in n for n in RULES.end_phase_notes(s))
    play(s, "end_phase")
    assert RULES.prompt(s).side == "US" and s.phase == "us_movement"  # nothing to place: on to movement


def test_the_us_set_up_is_ended_by_the_us_not_by_its_last_placement():
    s = replay(RULES, RULES.create("campaign", {}, "handover"))
    while any(c.type == "place" for c in RULES.legal_commands(s)):
        c = next(c for c in RULES.legal_commands(s) if c.type == "place")
        play(s, "place", **c.data)
    assert RULES.prompt(s).side == "US" and s.phase == "us_setup"
    assert {c.type for c in RULES.legal_commands(s)} == {"end_phase", "undo"}
    play(s, "end_phase")
    assert RULES.prompt(s).side == "IJ" and s.phase == "ij_setup"


def test_a_phase_with_no_choice_at_all_still_ends_by_itself():
    """The US air phase with units that must land and no strip to land on: no command
    is possible, so the rules end it (the units are lost, §11) rather than wait forever."""
    s = position({US_1_1: "1210"}, phase="us_engineering")
    assert "end_phase" in [c.type for c in RULES.legal_commands(s)]
    play(s, "end_phase")
    assert s.phase == "us_air" and RULES.prompt(s).side == "US"  # nothing flew: the US hands over
    assert RULES.end_phase_notes(s) == [
        "This ends your part of the turn: the game passes to IJ, and nothing before it can be taken back"]


def test_the_last_end_of_the_us_air_phase_says_that_it_ends_the_game():
    s = position({US_1_1: "1210"}, phase="us_air", turn=LAST_TURN)
    assert RULES.label(s, Command("end_phase")) == "End US air and the game (§12: the victory check)"
    play(s, "end_phase")
    assert s.result is not None and RULES.prompt(s).side is None
