"""What a bot is given and what it answers: exactly what a player of its side receives.

A bot never sees the game's state or its dice secret.  Its input is the side it plays,
the events that side may read (``engine.core.visibility.for_viewer``), the side's view
and legal commands, and a seed of its own.  From these alone it rebuilds what it
believes the state to be (``knowledge.py``), with a dice secret of its own, so any die
it simulates comes from its own generator and can foresee none of the game's.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.events import Command, Event
from engine.core.undo import UNDO


@dataclass(frozen=True)
class BotInput:
    """One decision's input, everything of it loggable: with the same input and seed,
    a bot gives the same command."""

    game: str
    side: str
    events: tuple[Event, ...]  # as ``side`` may read them, oldest first
    view: dict[str, Any]
    legal: tuple[Command, ...]
    seed: str  # the bot's own: its choices and simulated dice derive from it
    seconds: float | None = None  # a search's budget (None: the level's default)
    # a search's number of rounds instead of a time (a logged decision's own, to replay it
    # exactly whatever the machine's speed: ``Decision.notes["rounds"]``)
    rounds: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "side": self.side, "events": [e.to_json() for e in self.events],
                "view": self.view, "legal": [c.to_json() for c in self.legal], "seed": self.seed,
                "seconds": self.seconds, "rounds": self.rounds}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> BotInput:
        return cls(obj["game"], obj["side"], tuple(Event.from_json(e) for e in obj["events"]),
                   obj["view"], tuple(Command.from_json(c) for c in obj["legal"]), obj["seed"],
                   obj.get("seconds"), obj.get("rounds"))


@dataclass
class Decision:
    command: Command
    forced: bool = False  # only one command was possible: nothing was weighed
    notes: dict[str, Any] = field(default_factory=dict)


class Bot(Protocol):
    level: str

    def decide(self, inp: BotInput) -> Decision: ...


def choices(legal: tuple[Command, ...] | list[Command]) -> list[Command]:
    """The commands a bot weighs: all legal ones but taking back (a bot stands by its steps)."""
    return [c for c in legal if c.type != UNDO]


def sub_seed(seed: str, *parts: Any) -> str:
    """A seed derived from another, for one purpose (stable across runs and machines)."""
    text = json.dumps([seed, *parts], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]
