"""Deterministic replay through a snapshot: a state read back from its JSON (the server's
snapshot) decides every command exactly as the state replayed from the log does, in both
games, over whole random games (a Pacific Battles state read back once listed a battle's
defenders in another order, and its game no longer verified)."""

from __future__ import annotations

import pytest

from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import Chooser, choose

DECISIONS = 1500


@pytest.mark.parametrize(("game", "scenario"), [("first_blood", "campaign"), ("pacific_battles", "historical")])
@pytest.mark.parametrize("seed", [1, 2])
def test_a_state_read_back_from_json_decides_as_the_replayed_one(game: str, scenario: str, seed: int) -> None:
    rules = get_rules(game)
    state = replay(rules, rules.create(scenario, {}, f"snapshot-{seed}"))
    rng = Chooser(f"{game}:{seed}")
    for n in range(DECISIONS):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        read_back = rules.state_from_json(rules.state_to_json(state))
        legal = rules.legal_commands(state)
        assert [c.key() for c in rules.legal_commands(read_back)] == [c.key() for c in legal], f"decision {n}"
        cmd = choose(rng, getattr(state, "phase", ""), legal)
        mine = Command(cmd.type, cmd.data, cmd.side or prompt.side)
        events = rules.decide(state, mine)
        assert rules.decide(read_back, mine) == events, f"decision {n}: {cmd}"
        for e in events:
            rules.apply(state, e)
