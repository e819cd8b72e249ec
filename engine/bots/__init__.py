"""Computer opponents (issue 32): bots that decide from what their side may know.

``make_bot(game, level)`` gives a bot; ``bot.decide(BotInput(...))`` answers one
command.  Levels: ``random`` (self-play's chooser), ``greedy`` (one ply scored by an
evaluation of the position) and ``search`` (a time-bounded search on top of greedy).
Levels differ in time and randomness only, never in what they may know: every level
gets the same ``BotInput`` (base.py).
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import Bot, BotInput, Decision, choices

LEVELS = ("random", "greedy", "search")
DEFAULT_LEVEL = "greedy"

__all__ = ["LEVELS", "DEFAULT_LEVEL", "Bot", "BotInput", "Decision", "choices", "make_bot", "levels_for"]


def levels_for(game: str) -> tuple[str, ...]:
    """The levels offered for ``game`` (every game has ``random``): the server offers these."""
    return LEVELS if game in ("first_blood", "pacific_battles") else ("random",)


def make_bot(game: str, level: str, book: dict[str, Any] | None = None) -> Bot:
    """A new bot for one game (a bot keeps what it rebuilt of that game between calls);
    ``book``: First Blood's set-ups by side in place of its set-up book's (first_blood/book.py)."""
    if level not in levels_for(game):
        raise ValueError(f"{game} has no {level!r} bot; it has {', '.join(levels_for(game))}")
    if level == "random":
        from engine.bots.random_bot import RandomBot

        return RandomBot()
    if level == "greedy" and game == "pacific_battles":
        from engine.bots.pacific_battles.greedy import PacificBattlesGreedy

        return PacificBattlesGreedy()
    if level == "greedy":
        from engine.bots.first_blood.greedy import FirstBloodGreedy

        return FirstBloodGreedy(book)
    if game == "pacific_battles":
        from engine.bots.pacific_battles.search import PacificBattlesSearch

        return PacificBattlesSearch()
    from engine.bots.first_blood.search import FirstBloodSearch

    return FirstBloodSearch(book)
