"""Seating bots at a game: what each side receives, kept as a server would keep it.

``Seats`` holds every side's readable log (each event as ``for_viewer`` gives it to that
side) and builds a bot's input from it, the side's view and its legal commands; the
arena and self-play use it, and a server can do the same with what it already sends.
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import BotInput
from engine.core.events import Event
from engine.core.game import GameRules
from engine.core.visibility import for_viewer


class Seats:
    def __init__(self, rules: GameRules[Any], events: list[Event] | None = None) -> None:
        self.rules = rules
        self.logs: dict[str, list[Event]] = {s: [] for s in rules.sides}
        self.hand_out(events or [])

    def hand_out(self, events: list[Event]) -> None:
        """Give each side the new events as it may read them."""
        sides = self.rules.sides
        for e in events:
            for s in sides:
                seen = for_viewer(e, s, sides)
                if seen is not None:
                    self.logs[s].append(seen)

    def input_for(self, state: Any, side: str, seed: str, seconds: float | None = None) -> BotInput:
        """What a player of ``side`` receives now, as a bot's input."""
        legal = self.rules.legal_commands(state, side)
        return BotInput(self.rules.id, side, tuple(self.logs[side]), self.rules.view(state, side, legal),
                        tuple(legal), seed, seconds)
