"""A guard against a bot going round a loop: an attack built, cancelled and built again the
same way, for ever (a dead end the bot cannot see out of; the rules offer the way back).

Counted from the side's own readable log: the attacks it took back since the phase began.
After ``LOOPS`` the bot picks as the random level does, drawn anew at each step (a draw
fixed by the position would go round the same loop)."""

from __future__ import annotations

from engine.bots.base import BotInput, sub_seed
from engine.bots.rng import Chooser
from engine.core.events import Command
from engine.games import get_rules

LOOPS = 8  # attacks taken back in one phase before the bot stops weighing
LOOK = 400  # events looked back at most


def going_round(inp: BotInput, taken_back: tuple[str, ...]) -> bool:
    """Whether ``inp``'s side took back ``LOOPS`` attacks (events ``taken_back``) in this phase."""
    rules = get_rules(inp.game)
    starts = (rules.phase_event, rules.turn_event)
    n = 0
    for e in reversed(inp.events[-LOOK:]):
        if e.type in starts:
            break
        if e.type in taken_back:
            n += 1
    return n >= LOOPS and bool(inp.view.get("phase"))


def way_out(inp: BotInput, legal: list[Command], tag: str) -> Command:
    """The random level's choice among ``legal``, drawn from the bot's seed, ``tag`` and the
    log's length."""
    from engine.selfplay import choose  # (self-play imports the bots)

    return choose(Chooser(sub_seed(inp.seed, tag, len(inp.events))), str(inp.view.get("phase", "")), legal)
