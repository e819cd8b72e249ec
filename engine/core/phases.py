"""The turn and phase machine shared by every game.

A game lists its set-up phases and the phases of one turn, each owned by a side
(or by nobody); the track says what comes next.  ``settle`` runs phases that
owe nobody a decision, so that after every command the game rests where some
side must act (a game's pending decisions count as owed input).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Phase:
    name: str
    side: str | None
    title: str


class TurnTrack:
    def __init__(self, setup: list[Phase], turn: list[Phase]) -> None:
        self.setup = setup
        self.turn = turn
        self.by_name = {p.name: p for p in setup + turn}

    def side(self, name: str) -> str | None:
        p = self.by_name.get(name)
        return p.side if p else None

    def title(self, name: str) -> str:
        p = self.by_name.get(name)
        return p.title if p else name.replace("_", " ")

    def next(self, name: str | None, turn: int) -> tuple[Phase, int]:
        """The phase after ``name`` (``None``: before the first) and its turn number."""
        order = [p.name for p in self.setup]
        if name is None:
            return (self.setup[0], turn) if self.setup else (self.turn[0], turn + 1)
        if name in order:
            i = order.index(name) + 1
            return (self.setup[i], turn) if i < len(self.setup) else (self.turn[0], turn + 1)
        names = [p.name for p in self.turn]
        i = names.index(name) + 1
        return (self.turn[i], turn) if i < len(self.turn) else (self.turn[0], turn + 1)


def settle(state_of: Callable[[], Any], needs_input: Callable[[Any], bool],
           end_phase: Callable[[], None], limit: int = 1000) -> None:
    """End phases until the state owes someone a decision or the game is over."""
    for _ in range(limit):
        state = state_of()
        if getattr(state, "result", None) is not None or getattr(state, "pending", None) or needs_input(state):
            return
        end_phase()
    raise RuntimeError("the turn sequence did not settle")  # a rules bug, never a player's error
