"""Deciding a Pacific Battles command changes only the scratch state it builds on, never the
state it decides from: so the dice-keyed copy a server decides on (``with_secret``) may
share that state's parts, and a state's legal list, once made, may judge the next command.

On the states of random games (every optional rule, and none), each side's listed commands
and some bent ones are decided on keyed copies; the state is as it was after each, and each
is judged the same whether the state's legal list was made before (``_is_legal`` looks it
up) or not (it generates, narrowed to the command)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.core.dice import derive_secret
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.core.game import replay
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState
from engine.selfplay import Chooser, choose


def _frozen(state: PBState) -> str:
    return json.dumps(RULES.state_to_json(state), sort_keys=True)


def _bent(c: Command) -> Command:
    data = {k: ("0101" if k in ("to", "hex") else v + "x") if isinstance(v, str) else v for k, v in c.data.items()}
    return Command(c.type, data, c.side)


def _verdict(state: PBState, command: Command) -> str:
    """What deciding ``command`` on a keyed copy of ``state`` gives: its events, or the refusal."""
    try:
        return json.dumps([e.to_json() for e in RULES.decide(RULES.with_secret(state, "k" * 64), command)],
                          sort_keys=True)
    except RuleError as exc:
        return f"refused: {exc.rule} {exc.message}"


def _random_game(seed: int, options: dict[str, Any]) -> tuple[int, int]:
    """(commands decided, of them refused) over a random game."""
    rng = Chooser(f"purity:{seed}")
    state = replay(RULES, RULES.create("short", options, derive_secret(seed, "purity")))
    decided = refused = 0
    for n in range(3000):
        prompt = RULES.prompt(state)
        if prompt.side is None:
            break
        if n % 2 == 0:
            for side in prompt.acting:
                fresh = replay(RULES, [], state)  # the same position, its legal list not made yet
                listed = RULES.legal_commands(state, side)
                tried = [Command(c.type, c.data, side) for c in [*listed[:8], *(c for c in listed if c.type == "undo")]]
                tried += [_bent(c) for c in tried[:4]]
                before = _frozen(state)
                for c in tried:
                    made = _verdict(state, c)
                    assert made == _verdict(fresh, c), (state.phase, c)
                    refused += made.startswith("refused")
                    decided += 1
                assert _frozen(state) == before, f"deciding changed the state at event {state.seq}"
        cmd = choose(rng, state.phase, RULES.legal_commands(state))
        for e in RULES.decide(RULES.with_secret(state, state.secret), Command(cmd.type, cmd.data, prompt.side)):
            RULES.apply(state, e)
    return decided, refused


@pytest.mark.parametrize("seed", [5, 6])
def test_deciding_leaves_the_state_it_decides_from_as_it_was(seed: int) -> None:
    options = dict.fromkeys(RULES.options, True) if seed % 2 else {}
    decided, refused = _random_game(seed, options)
    assert decided > 500 and refused > 100, (decided, refused)


def test_a_keyed_copy_shares_the_answers_and_keeps_its_own_dice() -> None:
    state = replay(RULES, RULES.create("short", {}, derive_secret(1, "purity")))
    side = RULES.prompt(state).side
    listed = RULES.legal_commands(state, side)
    keyed = RULES.with_secret(state, "k" * 64)
    assert keyed.known(("legal_commands", side)) == tuple(listed)  # worked out once, for both
    assert keyed.secret == "k" * 64 and state.secret != keyed.secret
