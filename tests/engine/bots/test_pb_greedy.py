"""Pacific Battles' greedy level (issue 32): it beats random, and it decides only from what
its side receives (its view, its legal commands, its seed): never the state, never the
dice secret, never the enemy's sealed air allocation."""

from __future__ import annotations

import io
import json
import time
from dataclasses import replace

import bot_support
import pytest

from engine.arena import run
from engine.bots import BotInput, levels_for, make_bot
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.games import get_rules
from engine.games.pacific_battles import air

RULES = get_rules("pacific_battles")
GAME = "pacific_battles"


def recorded_inputs(greedy: str, decisions: int = 900) -> list[tuple[BotInput, Command]]:
    """The greedy side's inputs and commands (more than one legal) over a game against random."""
    events = RULES.create("campaign", {}, derive_secret(11, "pb-fair-play"))
    bots = {s: make_bot(GAME, "greedy" if s == greedy else "random") for s in RULES.sides}
    return bot_support.recorded_inputs(RULES, events, bots, greedy, decisions,
                                       lambda inp: len([c for c in inp.legal if c.type != "undo"]) > 1)


@pytest.fixture(scope="module")
def inputs() -> dict[str, list[tuple[BotInput, Command]]]:
    got = {side: recorded_inputs(side) for side in RULES.sides}
    for side, pairs in got.items():
        assert len(pairs) > 40, side
        kinds = {c.type for _, c in pairs}
        assert {"allocate", "move", "land"} <= kinds, (side, kinds)
    return got


def sample(pairs: list[tuple[BotInput, Command]], n: int = 30) -> list[tuple[BotInput, Command]]:
    """A spread of the recorded decisions, every kind of command among them."""
    step = max(1, len(pairs) // n)
    picked = pairs[::step]
    for kind in sorted({c.type for _, c in pairs}):
        picked.append(next(p for p in pairs if p[1].type == kind))
    return picked


def test_greedy_and_search_are_levels_of_pacific_battles():
    assert levels_for(GAME) == ("random", "greedy", "search")
    assert make_bot(GAME, "greedy").level == "greedy"
    assert make_bot(GAME, "search").level == "search"
    with pytest.raises(ValueError):
        make_bot(GAME, "oracle")


def test_greedy_beats_random_with_sides_swapped():
    out = io.StringIO()
    games = run(GAME, "greedy", "random", pairs=3, seed=1, jobs=1, out=out)
    assert all(g.error is None for g in games), out.getvalue()
    score = sum(1.0 if g.winner == g.a_side else 0.5 if g.winner is None else 0.0 for g in games) / len(games)
    assert score >= 0.8, out.getvalue()
    assert {g.a_side for g in games if g.winner == g.a_side} == set(RULES.sides)  # it wins on either side


@pytest.mark.parametrize("side", ["Allied", "Japanese"])
def test_changing_the_dice_secret_changes_no_decision(inputs, side):
    for inp, cmd in sample(inputs[side]):
        for secret in ("another secret", derive_secret(99, "x")):
            assert make_bot(GAME, "greedy").decide(bot_support.with_secret(inp, secret)).command == cmd


@pytest.mark.parametrize("side", ["Allied", "Japanese"])
def test_every_decision_replays_from_its_logged_input(inputs, side):
    for inp, cmd in sample(inputs[side], 20):
        again = BotInput.from_json(json.loads(json.dumps(inp.to_json())))
        assert make_bot(GAME, "greedy").decide(again).command == cmd


@pytest.mark.parametrize("side", ["Allied", "Japanese"])
def test_its_view_and_legal_commands_are_all_it_reads(inputs, side):
    """The log (which holds the dice secret) stripped: the same decisions."""
    for inp, cmd in sample(inputs[side]):
        assert make_bot(GAME, "greedy").decide(replace(inp, events=())).command == cmd


def test_the_air_allocation_is_a_mixed_strategy_of_its_own_seed(inputs):
    inp = next(i for i, c in inputs["Allied"] if c.type == "allocate")
    reserve = inp.view["sides"]["Allied"]["air"]["reserve"]
    picks = set()
    for n in range(16):
        cmd = make_bot(GAME, "greedy").decide(replace(inp, seed=f"s{n}")).command
        assert cmd.type == "allocate"
        air.check_allocation(reserve, cmd.data)  # any allocation it makes is one the rules take
        assert sum(cmd.data.values()) == reserve  # nothing left idle in the Reserve
        picks.add(json.dumps(cmd.data, sort_keys=True))
    assert len(picks) > 2  # drawn from a distribution: the position alone does not tell it
    same = {json.dumps(make_bot(GAME, "greedy").decide(inp).command.data, sort_keys=True) for _ in range(3)}
    assert len(same) == 1  # and a function of its seed


def test_a_forced_decision_takes_no_search():
    only = Command("end_phase")
    # no view, no events: a bot that looked at the game for a forced decision would fail here
    inp = BotInput(GAME, "Allied", (), {}, (only, Command("undo")), "s")
    decision = make_bot(GAME, "greedy").decide(inp)
    assert decision.command == only
    assert decision.forced


def test_decisions_are_quick(inputs):
    times = []
    for side in RULES.sides:
        for inp, _ in sample(inputs[side], 40):
            started = time.perf_counter()
            make_bot(GAME, "greedy").decide(inp)
            times.append(time.perf_counter() - started)
    times.sort()
    assert times[len(times) // 2] < 0.2 and times[-1] < 2.0
