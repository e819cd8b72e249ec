"""A bot never goes round a loop for ever (engine/bots/loops.py): after eight attacks taken
back in one phase, both games' bots pick as the random level does, drawn anew at each step.
(First Blood's search level once built an attack, found nothing to do but cancel it, and
built it again the same way until the arena's cap: a dead end of the rules, since closed,
test_combat_declaration.py; the guard stays for any other.)"""

from __future__ import annotations

import pytest

from engine.bots import BotInput, make_bot
from engine.bots.loops import LOOPS, going_round
from engine.bots.pacific_battles.search import PacificBattlesSearch
from engine.core.events import Command, Event

FB = ("first_blood", "US", "us_combat", "phase_started", "combat_cancelled",
      (Command("attack", {"hex": "0114"}), Command("attack", {"hex": "0115"}), Command("end_phase")))
PB = ("pacific_battles", "Allied", "initial_first_combat", "phase_began", "battle_withdrawn",
      (Command("declare", {"hex": "1627"}), Command("declare", {"hex": "1631"}), Command("fight")))


def looped(game: tuple, n: int, before: int = 0) -> BotInput:
    name, side, phase, began, taken_back, legal = game
    events = ((Event(taken_back, {}, side),) * before + (Event(began, {"phase": phase}),)
              + (Event(taken_back, {}, side),) * n)
    return BotInput(name, side, events, {"phase": phase}, (*legal, Command("undo", {"step": 1})), "seed-1")


@pytest.mark.parametrize("game", [FB, PB], ids=["first_blood", "pacific_battles"])
def test_attacks_taken_back_are_counted_in_this_phase_only(game):
    assert not going_round(looped(game, LOOPS - 1), (game[4],))
    assert going_round(looped(game, LOOPS), (game[4],))
    assert not going_round(looped(game, LOOPS - 1, before=5), (game[4],))  # an earlier phase's do not count


@pytest.mark.parametrize("game,bot", [(FB, lambda: make_bot("first_blood", "greedy")),
                                      (FB, lambda: make_bot("first_blood", "search")),
                                      (PB, lambda: make_bot("pacific_battles", "greedy")),
                                      (PB, PacificBattlesSearch)],
                         ids=["fb-greedy", "fb-search", "pb-greedy", "pb-search"])
def test_a_bot_gone_round_picks_as_random_does_and_never_takes_back(game, bot):
    inp = looped(game, LOOPS)
    decision = bot().decide(inp)  # (the input holds no game to believe: only the guard can answer)
    assert decision.notes.get("loop") is True
    assert decision.command in inp.legal and decision.command.type != "undo"
    assert bot().decide(inp) == decision  # replayable: drawn from its seed and the log's length
    draws = {repr(bot().decide(looped(game, LOOPS + k)).command) for k in range(12)}
    assert len(draws) > 1  # drawn anew at each step, not fixed by the position
