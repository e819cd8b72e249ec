"""Pacific Battles' search level (issue 32): a forced decision takes no search, every
searched decision replays from its logged input and rounds, and the game's dice secret
changes none of its decisions (its dice are its own)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import bot_support
import pytest

from engine.bots import BotInput, Decision
from engine.bots.pacific_battles.search import MARGIN, PacificBattlesSearch, confident
from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.games import get_rules

RULES = get_rules("pacific_battles")
GAME = "pacific_battles"
SECONDS = 0.05  # the tests need the search to run, not to be good


class Recording:
    """A search bot that keeps each decision it made (its notes hold the rounds)."""

    level = "search"

    def __init__(self) -> None:
        self.bot = PacificBattlesSearch()
        self.made: list[tuple[BotInput, Decision]] = []

    def decide(self, inp: BotInput) -> Decision:
        inp = replace(inp, seconds=SECONDS)
        decision = self.bot.decide(inp)
        self.made.append((inp, decision))
        return decision


@pytest.fixture(scope="module")
def searched() -> list[tuple[BotInput, Decision]]:
    """The Allied search bot's searched decisions in the first turns of a game against greedy."""
    from engine.bots import make_bot

    events = RULES.create("campaign", {}, derive_secret(7, "pb-search"))
    rec = Recording()
    bots: dict[str, Any] = {"Allied": rec, "Japanese": make_bot(GAME, "greedy")}
    bot_support.recorded_inputs(RULES, events, bots, "Allied", 700, lambda inp: False)
    got = [(i, d) for i, d in rec.made if "rounds" in d.notes]
    assert len(got) >= 10
    assert any(d.command.type == "crt" for _, d in got)
    assert any(d.notes["rounds"] > 1 for _, d in got)  # dice were sampled
    return got


def test_a_forced_decision_takes_no_search():
    only = Command("end_phase")
    # no view, no events: a bot that looked at the game for a forced decision would fail here
    inp = BotInput(GAME, "Japanese", (), {}, (only, Command("undo")), "s", seconds=5.0)
    decision = PacificBattlesSearch().decide(inp)
    assert decision.command == only and decision.forced
    assert "rounds" not in decision.notes


def test_every_searched_decision_replays_from_its_logged_input_and_rounds(searched):
    for inp, decision in searched[:25]:
        logged = replace(inp, rounds=decision.notes["rounds"], seconds=0.0)  # no time at all: the rounds decide
        again = PacificBattlesSearch().decide(BotInput.from_json(json.loads(json.dumps(logged.to_json()))))
        assert again.command == decision.command
        assert again.notes == decision.notes


def test_a_different_dice_secret_changes_none_of_its_decisions(searched):
    for inp, decision in searched[:25]:
        logged = replace(inp, rounds=decision.notes["rounds"])
        for secret in ("another secret", derive_secret(99, "x")):
            again = PacificBattlesSearch().decide(bot_support.with_secret(logged, secret))
            assert again.command == decision.command
            assert again.notes == decision.notes


def test_greedys_choice_stands_unless_another_is_surely_better():
    greedy = [1.0, 2.0, 3.0, 4.0]
    assert confident([greedy, [v + 2 * MARGIN for v in greedy]]) == 1  # better by more than the margin, every sample
    assert confident([greedy, [v + MARGIN / 2 for v in greedy]]) == 0  # better, but by too little
    noisy = [greedy[i] + (9.0 if i % 2 else -8.0) for i in range(4)]  # better on average, by chance
    assert confident([greedy, noisy]) == 0
    assert confident([greedy, [v + 1 for v in greedy], [v + 3 for v in greedy]]) == 2  # the best of the sure ones
