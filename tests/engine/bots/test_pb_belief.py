"""What a Pacific Battles bot believes the state to be (engine/bots/pacific_battles/belief.py):
its side's own game whole, the enemy where its view shows enemy stacks, a state the rules
run on as they run on the game, made of its input alone."""

from __future__ import annotations

from typing import Any

import bot_support
import pytest

from engine.bots import make_bot
from engine.bots.base import BotInput
from engine.bots.pacific_battles.belief import believe
from engine.bots.pacific_battles.rollout import play_out
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.games import get_rules
from engine.games.pacific_battles.state import PBState, other

RULES = get_rules("pacific_battles")


@pytest.fixture(scope="module")
def positions() -> list[tuple[PBState, BotInput, PBState]]:
    """Every fifth decision of a game of greedy against greedy: the state, the acting side's
    input and its belief."""
    events = RULES.create("campaign", {}, derive_secret(3, "pb-belief"))
    bots = {s: make_bot("pacific_battles", "greedy") for s in RULES.sides}
    count = iter(range(10**6))
    got = bot_support.recorded_positions(RULES, events, bots, 900, lambda inp: next(count) % 5 == 0)
    assert len(got) > 120
    return [(state, inp, believe(inp.events, inp.view, inp.side, "belief", "own dice")) for state, inp, _ in got]


def _own(state: PBState, side: str) -> dict[str, Any]:
    return {"pieces": sorted((p.id, p.unit, p.hex, p.suppressed) for p in state.pieces.values() if p.side == side),
            "off": sorted((o.id, o.unit, o.box, o.due) for o in state.off.values() if o.side == side),
            "hand": state.hand[side], "pool": state.pool[side], "air": state.air[side].to_json(),
            "active": sorted(h for h in state.active if h in state.pieces and state.pieces[h].side == side),
            "pending": [d for d in state.pending if d.get("side") == side]}


def test_the_belief_holds_the_sides_own_game_whole(positions):
    for state, inp, belief in positions:
        assert _own(belief, inp.side) == _own(state, inp.side)
        for name in ("turn", "phase", "first", "vp", "fortified", "henderson", "command"):
            assert getattr(belief, name) == getattr(state, name), name
        assert len(belief.hand[other(inp.side)]) == len(state.hand[other(inp.side)])  # how many it holds is public


def test_the_enemy_stands_where_the_view_shows_it(positions):
    for _, inp, belief in positions:
        enemy = other(inp.side)
        stacks = [s for s in inp.view["stacks"] if s["side"] == enemy]
        assert {p.hex for p in belief.pieces.values() if p.side == enemy} == {s["hex"] for s in stacks}
        for s in stacks:
            for u in s["units"] or []:
                assert belief.pieces[u["id"]].hex == s["hex"]
                assert belief.pieces[u["id"]].unit == u["unit"]


def test_the_rules_list_the_sides_commands_as_in_the_game_in_most_positions(positions):
    """What differs is only where the guess of an unseen enemy stack has a ZOC the real one
    lacks (or the other way round)."""
    same = 0
    for _, inp, belief in positions:
        listed = sorted(str(c) for c in RULES.legal_commands(belief, inp.side) if c.type != "undo")
        same += listed == sorted(str(c) for c in inp.legal if c.type != "undo")
    assert same >= 0.85 * len(positions)


def test_the_belief_is_made_of_the_input_alone(positions):
    for _, inp, belief in positions[::10]:
        again = believe(inp.events, inp.view, inp.side, "belief", "own dice")
        assert RULES.state_to_json(again) == RULES.state_to_json(belief)
        other_dice = bot_support.with_secret(inp, "the game's other secret")
        assert RULES.state_to_json(believe(other_dice.events, other_dice.view, inp.side, "belief", "own dice")) \
            == RULES.state_to_json(belief)
        assert belief.secret == "own dice"


def test_a_rollout_plays_on_to_the_end_of_the_turn_and_leaves_the_belief_as_it_was():
    events = RULES.create("campaign", {}, derive_secret(4, "pb-belief"))
    bots = {s: make_bot("pacific_battles", "greedy") for s in RULES.sides}
    allocations = bot_support.recorded_inputs(RULES, events, bots, "Allied", 400,
                                              lambda inp: any(c.type == "allocate" for c in inp.legal))
    inp, cmd = allocations[0]
    belief = believe(inp.events, inp.view, "Allied", "b", "d")
    before = RULES.state_to_json(belief)
    value = play_out(RULES, belief, "Allied", cmd, "r")
    assert value is not None and value == play_out(RULES, belief, "Allied", cmd, "r")
    assert RULES.state_to_json(belief) == before
    assert play_out(RULES, belief, "Allied", Command("allocate", {"superiority": 999}), "r") is None  # refused
