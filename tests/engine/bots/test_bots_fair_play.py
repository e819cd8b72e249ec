"""Issue 32's no-cheating rules, tested: a bot decides only from what its side receives.

First Blood hides no units, but its opening event holds the dice secret: a bot that
read it could foresee every die.  Positions that differ only in that secret must give
the same decisions, and every decision must come back from its logged input and seed.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace

import bot_support
import pytest

from engine.bots import BotInput, make_bot
from engine.bots.knowledge import Believer
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.games import get_rules

RULES = get_rules("first_blood")


def recorded_inputs(decisions: int = 160) -> list[tuple[BotInput, Command]]:
    """The greedy US's inputs and commands over the opening of a game against random."""
    events = RULES.create("campaign", {}, derive_secret(7, "fair-play"))
    bots = {"US": make_bot("first_blood", "greedy"), "IJ": make_bot("first_blood", "random")}
    return bot_support.recorded_inputs(RULES, events, bots, "US", decisions, lambda inp: len(inp.legal) > 1)


@pytest.fixture(scope="module")
def inputs() -> list[tuple[BotInput, Command]]:
    got = recorded_inputs()
    assert len(got) > 20
    assert {i.view["phase"] for i, _ in got} >= {"us_setup", "us_movement"}
    return got


def test_changing_the_dice_secret_changes_no_decision(inputs):
    for inp, cmd in inputs[::8]:
        for secret in ("another secret", derive_secret(99, "x")):
            assert make_bot("first_blood", "greedy").decide(bot_support.with_secret(inp, secret)).command == cmd


def test_the_believed_state_holds_the_bots_own_secret_not_the_games():
    events = RULES.create("campaign", {}, "the game's secret")
    believed = Believer(RULES).state_for(tuple(events), "the bot's own")
    assert believed.secret == "the bot's own"
    assert "the game's secret" not in json.dumps(RULES.state_to_json(believed))


def test_every_decision_replays_from_its_logged_input(inputs):
    for inp, cmd in inputs[::5]:
        logged = json.loads(json.dumps(inp.to_json()))
        again = BotInput.from_json(logged)
        assert make_bot("first_blood", "greedy").decide(again).command == cmd


def test_the_random_level_is_a_function_of_its_input_and_seed(inputs):
    inp, _ = inputs[3]
    picks = {make_bot("first_blood", "random").decide(inp).command for _ in range(3)}
    assert len(picks) == 1
    seeds = {make_bot("first_blood", "random").decide(BotInput(inp.game, inp.side, inp.events, inp.view,
                                                               inp.legal, f"s{i}")).command for i in range(12)}
    assert len(seeds) > 1  # the seed is what varies it


@pytest.mark.parametrize(("game", "side", "level"), [("first_blood", "US", "random"), ("first_blood", "US", "greedy"),
                                                     ("first_blood", "US", "search"),
                                                     ("pacific_battles", "Allied", "random"),
                                                     ("pacific_battles", "Japanese", "greedy")])
def test_a_forced_decision_takes_no_search(game, side, level):
    only = Command("end_phase")
    # no events at all: a bot that looked at the game for a forced decision would fail here
    inp = BotInput(game, side, (), {}, (only, Command("undo")), "s")
    decision = make_bot(game, level).decide(inp)
    assert decision.command == only
    assert decision.forced


def searched(inputs: list[tuple[BotInput, Command]]) -> list[BotInput]:
    """Inputs where the search level weighs more than one command by look-ahead."""
    out = []
    for inp, _ in inputs:
        if inp.view["phase"] in ("us_movement", "us_combat") or inp.view.get("pending"):
            out.append(replace(inp, seconds=0.02))
    assert len(out) >= 3
    return out[::max(1, len(out) // 4)][:4]


def test_a_search_decision_replays_from_its_input_and_its_rounds(inputs):
    for inp in searched(inputs):
        first = make_bot("first_blood", "search").decide(inp)
        rounds = first.notes.get("rounds")
        if rounds is None:
            continue  # greedy's own choice: nothing was searched
        again = make_bot("first_blood", "search").decide(replace(inp, seconds=None, rounds=rounds))
        assert again.command == first.command
        assert again.notes["means"] == first.notes["means"]


def test_the_searchs_dice_are_its_own(inputs):
    for inp in searched(inputs):
        fixed = replace(inp, seconds=None, rounds=2)
        a = make_bot("first_blood", "search").decide(fixed)
        b = make_bot("first_blood", "search").decide(bot_support.with_secret(fixed, "another secret"))
        assert (a.command, a.notes.get("means")) == (b.command, b.notes.get("means"))


def test_a_search_keeps_near_its_time(inputs):
    for inp in searched(inputs):
        started = time.perf_counter()
        make_bot("first_blood", "search").decide(replace(inp, seconds=0.05))
        assert time.perf_counter() - started < 2.0  # one round at least, then it stops


def test_the_believed_state_grows_with_the_log_as_a_replay_from_scratch_would(inputs):
    events = inputs[-1][0].events
    believer = Believer(RULES)
    for cut in (5, len(events) // 2, len(events)):
        grown = believer.state_for(events[:cut], "own")
        fresh = Believer(RULES).state_for(events[:cut], "own")
        assert RULES.state_to_json(grown) == RULES.state_to_json(fresh)
    other = RULES.create("campaign", {}, "another game")
    assert RULES.state_to_json(believer.state_for(tuple(other), "own")) == \
        RULES.state_to_json(Believer(RULES).state_for(tuple(other), "own"))
