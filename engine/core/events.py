"""Commands (what a player asks) and events (what happened), as plain data.

Both are a type name plus a JSON-able payload, so the log, the HTTP API and the
tests all speak the same format.  A game decides commands into events and
evolves its state with one handler per event type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return ("{}", tuple(sorted((k, _freeze(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Command:
    """``type`` is a verb (``"move"``); ``data`` its arguments; ``side`` who sends it."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    side: str | None = None

    def key(self) -> tuple:
        """Identity for legality checks: same verb, same arguments (side aside)."""
        return (self.type, _freeze(self.data))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "side": self.side}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Command:
        data = obj.get("data") or {}
        if not isinstance(data, dict):
            raise ValueError("a command's data must be an object")
        return cls(type=obj["type"], data=dict(data), side=obj.get("side"))

    def __hash__(self) -> int:
        return hash(self.key())

    def __eq__(self, other: object) -> bool:
        # the verb first and equal data at once: a legality check compares a command with
        # hundreds of listed ones (every landing hex), most of another verb or plainly other
        if not isinstance(other, Command) or self.type != other.type:
            return False
        return self.data == other.data or self.key() == other.key()

    def matches(self, key: tuple) -> bool:
        """Whether this command has ``key`` (another's ``key()``, worked out once for many)."""
        return self.type == key[0] and self.key() == key


def among(command: Command, commands: Iterable[Command]) -> bool:
    """Whether ``commands`` (a legal list, or a generator of one: read only as far as the
    match) holds ``command``, its side aside.  Flat data (no list or object inside) is the
    same key exactly when it is equal, so no listed command's key is worked out for it."""
    if all(v is None or isinstance(v, (str, int, float)) for v in command.data.values()):
        return any(c.type == command.type and c.data == command.data for c in commands)
    want = command.key()
    return any(c.matches(want) for c in commands)


@dataclass(frozen=True)
class Event:
    """``type`` is past tense (``"unit_moved"``); ``data`` holds every outcome, dice included."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    side: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "side": self.side}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        return cls(type=obj["type"], data=dict(obj.get("data") or {}), side=obj.get("side"))


def dumps_events(events: list[Event]) -> str:
    return json.dumps([e.to_json() for e in events], sort_keys=True)


def loads_events(text: str) -> list[Event]:
    return [Event.from_json(o) for o in json.loads(text)]
