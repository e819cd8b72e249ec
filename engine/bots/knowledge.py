"""What a bot believes the state to be: the events its side may read, replayed, with
the dice secret replaced by the bot's own.

First Blood's opening event carries the game's dice secret (the state needs it to
roll); a bot must not foresee the game's dice, so the secret in that event is
replaced before replay.  A game with hidden parts gives a side only public stubs of
some events; its bot fills what is hidden by sampling (per game, in its own module).
"""

from __future__ import annotations

from typing import Any

from engine.core.dice import derive_secret
from engine.core.events import Event
from engine.core.game import GameRules


def own_secret(seed: str) -> str:
    return derive_secret(seed, "bot-dice")


def blind(event: Event, secret: str) -> Event:
    """The event with any dice secret in it replaced by ``secret``."""
    if "secret" in event.data:
        return Event(event.type, {**event.data, "secret": secret, "commitment": ""}, event.side)
    return event


class Believer:
    """Rebuilds the believed state, keeping the last one: a bot is asked again and again
    about one game whose readable log only grows, so only the new events are applied.
    The answer is the same as a replay from scratch (the cache is keyed by the events)."""

    def __init__(self, rules: GameRules[Any]) -> None:
        self.rules = rules
        self.events: tuple[Event, ...] = ()
        self.secret = ""
        self.state: Any = None

    def state_for(self, events: tuple[Event, ...], secret: str) -> Any:
        n = len(self.events)
        fresh = (self.state is None or secret != self.secret or len(events) < n
                 or (n and any(events[i] is not self.events[i] and events[i] != self.events[i] for i in (0, n - 1))))
        if fresh:
            self.state, self.events, self.secret, n = self.rules.blank(), (), secret, 0
        state = self.state
        for e in events[n:]:
            self.rules.apply(state, blind(e, secret))
        self.events = events
        return self.rules.clone(state)
