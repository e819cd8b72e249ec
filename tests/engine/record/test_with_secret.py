"""A command is decided on a copy of the state keyed with the period's dice secret
(``rules.with_secret``): the copy shares what was worked out about the position, and
nothing of it leaks back into the state it was copied from."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.record.keyed import outcome_keyed
from engine.selfplay import Chooser, choose


def played(game: str, commands: int) -> Any:
    rules = get_rules(game)
    state = replay(rules, rules.create(rules.scenarios and next(iter(rules.scenarios)) or "campaign", {}, "s" * 64))
    rng = Chooser(f"with-secret:{game}")
    for _ in range(commands):
        side = rules.prompt(state).side
        cmd = choose(rng, getattr(state, "phase", ""), rules.legal_commands(state, side))
        for e in rules.decide(state, Command(cmd.type, cmd.data, side)):
            rules.apply(state, e)
    return state


def position(game: str, commands: int) -> tuple[Any, Any, str, list[Command]]:
    """The rules, a state some commands into a game, the side to move and its legal commands."""
    rules = get_rules(game)
    state = played(game, commands)
    side = rules.prompt(state).side
    return rules, state, side, rules.legal_commands(state, side)


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_the_keyed_copy_shares_the_answers_and_keeps_its_own_secret(game: str) -> None:
    rules, state, side, listed = position(game, 40)
    asked: list[int] = []
    state.cached("probe", lambda: asked.append(1) or "answer")
    copy = rules.with_secret(state, "k" * 64)
    assert copy.secret == "k" * 64 and state.secret == "s" * 64
    assert copy.cached("probe", lambda: asked.append(2) or "other") == "answer" and asked == [1]
    assert rules.prompt(copy) == rules.prompt(state)
    assert rules.legal_commands(copy, side) == listed


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_deciding_on_the_copy_leaves_the_state_and_its_answers_as_they_were(game: str) -> None:
    rules, state, side, listed = position(game, 60)
    before = rules.state_to_json(state)
    prompt = rules.prompt(state)
    cmd = choose(Chooser("decide"), getattr(state, "phase", ""), listed)
    out, _rolls, _chain = outcome_keyed(rules, state, Command(cmd.type, cmd.data, side), lambda chain: "k" * 64)
    assert out.state.seq > state.seq
    assert rules.state_to_json(state) == before
    assert rules.prompt(state) == prompt and rules.legal_commands(state, side) == listed
    # the state after is the decision's own: a replay of its events gives the same
    again = replay(rules, [], state)
    again.secret = "k" * 64
    for e in out.events:
        rules.apply(again, e)
    again.secret = state.secret
    assert rules.state_to_json(again) == rules.state_to_json(out.state)
