"""A unit with no move says why (``why_idle``): over whole self-played games of both
games, at every decision in a phase where the acting side's units move, each of its units
on the map has a move in the legal list exactly when the rules give no reason, and the
reason names the rule the move list was made by (a unit that moved: that it moved)."""

from __future__ import annotations

import re

import pytest

from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games import get_rules
from engine.games.first_blood import queries as fb
from engine.games.pacific_battles import sequence as pb_seq
from engine.selfplay import MAX_DECISIONS, Chooser, choose

RULE = re.compile(r"^(§\d+(\.\d+)?|\d+\.\d+): \S")


def _movers(game: str, state: object, side: str) -> list[str]:
    """The side's units a movement phase is about: First Blood's ground units in play,
    Pacific Battles' pieces on the map."""
    if game == "first_blood":
        if state.phase != f"{side.lower()}_movement" or state.pending:  # type: ignore[attr-defined]
            return []
        return [u for u, unit in state.units.items()  # type: ignore[attr-defined]
                if fb.spec(u).side == side and fb.spec(u).kind == "ground" and fb.in_play(unit.loc)]
    if pb_seq.step(state.phase) != "movement" or state.pending:  # type: ignore[attr-defined]
        return []
    return [p.id for p in state.on_map(side)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_a_unit_without_a_move_is_told_why_and_one_with_a_move_is_not(game: str) -> None:
    rules = get_rules(game)
    rng = Chooser(f"{game}:idle")
    state = replay(rules, rules.create("campaign", {}, derive_secret(11, "idle")))
    idle: dict[str, int] = {}
    moved_told = 0
    for _ in range(MAX_DECISIONS):
        prompt = rules.prompt(state)
        if prompt.side is None:
            break
        side = prompt.acting[0]
        legal = rules.legal_commands(state, side)
        moving = {c.data["unit"] for c in legal if c.type == "move"}
        for unit in _movers(game, state, side):
            why = rules.why_idle(state, side, unit)
            assert (why is None) == (unit in moving), (state.phase, unit, why)
            if why is not None:
                assert RULE.match(why), why
                idle[why.split(":")[0]] = idle.get(why.split(":")[0], 0) + 1
                moved_told += "has moved this phase" in why or "has no MF left" in why
        # nobody else's units, and no unit outside a movement phase, is given a reason
        other = next(s for s in rules.sides if s != side)
        assert all(rules.why_idle(state, other, u) is None for u in _movers(game, state, side))
        chosen = choose(rng, state.phase, legal)
        state = rules.outcome(state, Command(chosen.type, chosen.data, side)).state
    assert moved_told > 0 and len(idle) >= 2, idle
