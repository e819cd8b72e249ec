"""What a click on the map stands for (app/services/board.py): always one of the
engine's legal commands, or nothing."""

from __future__ import annotations

from app.games.first_blood.board import BoardContext, _end_confirmation
from engine.core.events import Command
from engine.games.first_blood.rules import RULES
from engine.games.first_blood.testing import position


class FakeSeat:
    side = "IJ"


def ctx(legal: list[Command], selected: str | None = None) -> BoardContext:
    view = {"units": [{"id": "ij-a", "side": "IJ", "loc": "0502"}, {"id": "us-b", "side": "US", "loc": "0503"},
                      {"id": "us-c", "side": "US", "loc": "0910"}],
            "prompt": {"text": "Declare and resolve your attacks"}, "your_turn": True}
    return BoardContext(game=None, seat=FakeSeat(), view=view, legal=legal, selected=selected, layers="")  # type: ignore[arg-type]


def test_clicking_an_enemy_counter_attacks_its_hex() -> None:
    c = ctx([Command("attack", {"hex": "0503"})])
    assert c.command_for_click(hex_id=None, unit="us-b") == Command("attack", {"hex": "0503"})


def test_clicking_an_own_counter_adds_it_or_selects_it() -> None:
    assert ctx([Command("add", {"unit": "ij-a"})]).command_for_click(None, "ij-a") == Command("add", {"unit": "ij-a"})
    assert ctx([Command("attack", {"hex": "0503"})]).command_for_click(None, "ij-a") is None


def test_a_counter_in_the_destination_does_not_swallow_the_click() -> None:
    move = Command("move", {"unit": "ij-a", "to": "0910"})
    assert ctx([move], selected="ij-a").command_for_click(None, "us-c") == move


def test_boxes_and_entry_points_are_places_too() -> None:
    cap = Command("allocate", {"unit": "ij-a", "box": "cap"})
    place = Command("place", {"unit": "ij-a", "to": "entry:ij-east"})
    c = ctx([cap, place], selected="ij-a")
    assert c.command_for_click("cap", None) == cap
    assert c.command_for_click("entry:ij-east", None) == place
    assert c.command_for_click("0101", None) is None


def test_ending_the_phase_asks_with_what_it_costs() -> None:
    """The "End phase" button's confirmation names units left on entry points (§5)."""
    state = position({"us-1-1": "entry:us-east-1", "us-1-2": "0707"}, phase="us_movement", turn=5)
    legal = RULES.legal_commands(state)
    question = _end_confirmation(RULES, state, legal)
    assert question.startswith("US 1/1 is still on an entry point and will be eliminated")
    assert question.endswith("could still move. End the movement phase?")
