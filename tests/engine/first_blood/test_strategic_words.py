"""The IJ strategic phase's log line agrees in number with the units it names (§9)."""

from __future__ import annotations

from engine.core.events import Event
from engine.games import get_rules
from engine.games.first_blood.testing import by_name, position


def test_one_unit_moves_to_the_attack_boxes_and_two_move() -> None:
    rules = get_rules("first_blood")
    units = [by_name("124/1", "IJ"), by_name("124/3", "IJ")]
    state = position({u: "0709" for u in units}, phase="ij_strategic")
    one = rules.describe(state, Event("strategic_shift", {"removed": [], "advanced": units[:1]}, "IJ"))
    two = rules.describe(state, Event("strategic_shift", {"removed": [], "advanced": units}, "IJ"))
    assert one.endswith(" moves to the Attack boxes") and two.endswith(" move to the Attack boxes")
