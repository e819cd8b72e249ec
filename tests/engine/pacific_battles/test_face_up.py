"""34.0: a player turns its own units face up at any moment of its own phases (the enemy
then sees them wherever they go) and face down again only in its own logistics phase."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import RuleError
from engine.core.events import Command
from engine.games.pacific_battles import leaks
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.testing import legal, play, position

PIECES = {"m": ("1 Mar", "1230"), "s": ("Supply", "1231", "Allied"), "j": ("81 Inf", "1640")}


def stack_units(state, viewer: str, hex_id: str) -> list[str] | None:
    st = next(s for s in RULES.view(state, viewer)["stacks"] if s["hex"] == hex_id)
    return None if st["units"] is None else [u["unit"] for u in st["units"]]


def test_a_unit_turned_face_up_is_seen_by_the_enemy_wherever_it_goes() -> None:
    state = position(PIECES, phase="initial_first_movement")
    assert stack_units(state, "Japanese", "1230") is None  # face down: a stack, nothing more (18.4)
    assert "1 Mar" in leaks.hidden_things(state, "Japanese")
    shows = legal(state, "Allied", "show")
    assert [c.data["unit"] for c in shows] == ["m"]  # a combat unit; a supply point is not turned (34.0)
    events = play(state, "show", "Allied", unit="m")
    assert [e.type for e in events] == ["turned_face_up"] and events[0].side is None  # in the open
    assert stack_units(state, "Japanese", "1230") == ["1 Mar"]
    assert "1 Mar" not in leaks.hidden_things(state, "Japanese")
    assert RULES.view(state, None)["stacks"][0]["units"] is not None  # a spectator sees it too
    assert legal(state, "Allied", "undo") == []  # shown is shown: it cannot be taken back
    move = next(c for c in legal(state, "Allied", "move") if c.data["unit"] == "m")
    play(state, "move", "Allied", **move.data)
    assert stack_units(state, "Japanese", move.data["to"]) == ["1 Mar"]
    assert legal(state, "Allied", "hide") == []  # face down again only in one's logistics phase


def test_face_down_again_in_ones_own_logistics_phase_only() -> None:
    state = position(PIECES, phase="logistics_first")
    play(state, "show", "Allied", unit="m")
    assert [c.data for c in legal(state, "Allied", "hide")] == [{"unit": "m"}]
    play(state, "hide", "Allied", unit="m")
    assert stack_units(state, "Japanese", "1230") is None
    with pytest.raises(RuleError, match="34.0"):
        RULES.decide(state, Command("hide", {"unit": "m"}, "Allied"))  # face down already
    with pytest.raises(RuleError, match="34.0"):  # never the enemy's units
        RULES.decide(state, Command("show", {"unit": "j"}, "Allied"))


def test_turning_units_over_never_keeps_a_phase_waiting_and_survives_a_replay() -> None:
    """A phase that would end by itself still does (R-PB-5.4): the offer to turn a unit
    face up is not a reason to wait.  The face-up set is part of the state's JSON."""
    state = position(PIECES, phase="initial_first_movement")
    play(state, "show", "Allied", unit="m")
    again = RULES.state_from_json(json.loads(json.dumps(RULES.state_to_json(state))))
    assert again.face_up == {"Allied": {"m"}, "Japanese": set()}
    quiet = position(PIECES, phase="initial_first_combat")  # no enemy next to any Allied unit
    assert [c.type for c in legal(quiet, "Allied")] == ["end_phase", "show"]
    assert not RULES._needs_input(quiet)


def test_each_refusal_names_what_is_wrong() -> None:
    state = position(PIECES, phase="initial_first_movement")
    play(state, "show", "Allied", unit="m")
    with pytest.raises(RuleError, match="face up already"):
        RULES.decide(state, Command("show", {"unit": "m"}, "Allied"))
    with pytest.raises(RuleError, match="in its own logistics phase"):
        RULES.decide(state, Command("hide", {"unit": "m"}, "Allied"))
    face_down = position(PIECES, phase="logistics_first")
    with pytest.raises(RuleError, match="face down already"):
        RULES.decide(face_down, Command("hide", {"unit": "m"}, "Allied"))
