"""An admin's ruling, written into the game's log: a note, or time added to (or taken
from) the running decision's clock, or a rewind to an earlier moment, each with the
admin's name and reason.

A rewind strikes every event after the moment it goes back to (the log keeps them, shown
struck through, as a take-back's) and carries the state of that moment, hidden from the
players (it holds everything), so that replaying the log needs nothing else; verifying it
rebuilds that state from the log before it.

A ruling is the server's own command (no side: no player can send one) and its one
``ruling`` event; it changes nothing in the game but the count of its events, and like a
die roll it is a barrier to taking back (docs/undo.md): nobody takes back across it.
Every game has it: ``RulesBase`` routes the ruling to this module before the game's own
``apply``, ``describe`` and ``decide`` (so replay, the log and verification know it) and
the game's code never sees one.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from typing import Any

from engine.core import undo
from engine.core.errors import MalformedCommandError
from engine.core.events import Command, Event
from engine.core.visibility import hide

RULING = "ruling"  # the command and its event
REWIND, REWOUND = "rewind", "rewound"  # a rewind's command and its event
STRIKING = (undo.UNDONE, REWOUND)  # the events that strike earlier ones
MAX_TEXT = 1000
MAX_CLOCK_HOURS = 30 * 24


def command(admin: str, reason: str, note: str = "", clock: dict[str, Any] | None = None) -> Command:
    """The ruling as the server's command: ``clock`` {"side", "hours"} for time given (or,
    negative, taken) to that side's running decision."""
    data: dict[str, Any] = {"admin": admin, "reason": reason, "note": note}
    if clock is not None:
        data["clock"] = dict(clock)
    return Command(RULING, data, None)


def decide(cmd: Command) -> list[Event]:
    data = cmd.data
    if cmd.side is not None:
        raise MalformedCommandError("", "a ruling is the admin's, not a player's")
    for key in ("admin", "reason", "note"):
        if not isinstance(data.get(key), str) or len(data[key]) > MAX_TEXT:
            raise MalformedCommandError("", f"a ruling's {key} is text of at most {MAX_TEXT} characters")
    if not data["reason"].strip():
        raise MalformedCommandError("", "a ruling needs a reason")
    clock = data.get("clock")
    if clock is not None and not (isinstance(clock, dict) and isinstance(clock.get("side"), str)
                                  and isinstance(clock.get("hours"), int) and not isinstance(clock["hours"], bool)
                                  and 0 < abs(clock["hours"]) <= MAX_CLOCK_HOURS):
        raise MalformedCommandError("", f"a clock ruling gives a side 1 to {MAX_CLOCK_HOURS} hours, or takes them")
    if clock is None and not data["note"].strip():
        raise MalformedCommandError("", "a ruling is a note, a change of the clock, or both")
    return [Event(RULING, dict(data), None)]


def describe(data: dict[str, Any]) -> str:
    clock = data.get("clock")
    who = str(data["admin"]).strip()
    parts = ["Ruling by the admin:" if who.lower() in ("", "admin") else f"Ruling by the admin {who}:"]
    if data.get("note"):
        parts.append(data["note"].rstrip(".") + ".")
    if clock:
        hours = clock["hours"]
        parts.append(f"{clock['side']}'s clock {'gains' if hours > 0 else 'loses'} {abs(hours)} hour(s).")
    parts.append(f"Reason: {data['reason']}")
    return " ".join(parts)


def apply(state: Any, event: Event) -> None:
    trail = getattr(state, "undo", None)
    if getattr(trail, "side", None) is not None:  # a barrier: no take-back reaches before it
        state.undo = undo.Trail()
    state.seq += 1


# --- rewinds ----------------------------------------------------------------------------
def rewind_command(admin: str, reason: str, to: int) -> Command:
    """Back to the moment after the first ``to`` events (the server's command)."""
    return Command(REWIND, {"admin": admin, "reason": reason, "to": to}, None)


def rewound(state_to_json: Callable[[Any], dict[str, Any]], cmd: Command, events_now: int,
            state_then: Any) -> list[Event]:
    """A rewind's event, from the log's length now and the state after its first ``to``
    events (``state_then``).  RuleError: not a rewind that can be made."""
    data = cmd.data
    if cmd.side is not None:
        raise MalformedCommandError("", "a rewind is the admin's, not a player's")
    to = data.get("to")
    if not isinstance(to, int) or isinstance(to, bool) or not 0 < to < events_now:
        raise MalformedCommandError("", f"a rewind goes back to a moment from 1 to {events_now - 1}")
    for key in ("admin", "reason"):
        if not isinstance(data.get(key), str) or len(data[key]) > MAX_TEXT:
            raise MalformedCommandError("", f"a rewind's {key} is text of at most {MAX_TEXT} characters")
    if not data["reason"].strip():
        raise MalformedCommandError("", "a rewind needs a reason")
    public = {"admin": data["admin"], "reason": data["reason"], "to": to, "events": events_now - to}
    # as JSON gives it back (lists, not tuples): the stored event and a verification's must be equal
    then = json.loads(json.dumps(state_to_json(state_then)))
    return [Event(REWOUND, hide({**public, "state": then}, [], {**public, "text": describe_rewind(public)}), None)]


def describe_rewind(data: dict[str, Any]) -> str:
    return (f"Rewound by the admin {data['admin']} to moment {data['to']}: the {data['events']} event(s) after it "
            f"are struck. Reason: {data['reason']}")


def restore(rules: Any, state: Any, event: Event) -> None:
    """``state`` becomes the rewind's state, one event later than it was (every die to come
    keyed by a number of its own), with nothing to take back."""
    seq = state.seq
    # a copy: a game's state may keep the lists it is made from, and the event must stay as logged
    restored = rules.state_from_json(copy.deepcopy(event.data["state"]))
    state.__dict__.clear()
    state.__dict__.update(restored.__dict__)
    state.undo = undo.Trail()
    state.seq = seq + 1


def struck(numbered: Iterable[tuple[int, Event]]) -> dict[int, int]:
    """Event number -> the take-back or rewind that struck it (a struck rewind's own
    strikes stand: a later rewind reaching before it strikes it too)."""
    numbered = list(numbered)
    out = undo.retracted((n, e) for n, e in numbered if e.type == undo.UNDONE)
    for n, event in numbered:
        if event.type == REWOUND and isinstance(event.data.get("to"), int):
            out.update(dict.fromkeys(range(event.data["to"], n), n))
    return out


# --- how RulesBase puts rulings before a game's own methods ----------------------------
def applying(apply_: Callable[[Any, Any, Event], None]) -> Callable[[Any, Any, Event], None]:
    def wrapped(self: Any, state: Any, event: Event) -> None:
        if event.type == RULING:
            apply(state, event)
        elif event.type == REWOUND:
            restore(self, state, event)
        else:
            apply_(self, state, event)
    wrapped.__doc__, wrapped.__name__ = apply_.__doc__, apply_.__name__
    return wrapped


def describing(describe_: Callable[[Any, Any, Event], str | None]) -> Callable[[Any, Any, Event], str | None]:
    def wrapped(self: Any, state: Any, event: Event) -> str | None:
        if event.type == REWOUND:
            return describe_rewind(event.data)
        return describe(event.data) if event.type == RULING else describe_(self, state, event)
    wrapped.__doc__, wrapped.__name__ = describe_.__doc__, describe_.__name__
    return wrapped


def deciding(decide_: Callable[[Any, Any, Command], list[Event]]) -> Callable[[Any, Any, Command], list[Event]]:
    def wrapped(self: Any, state: Any, cmd: Command) -> list[Event]:
        if cmd.type == REWIND and cmd.side is None:  # decided with the log (verify.py, the server)
            raise MalformedCommandError("", "a rewind is decided from the log, not from the state")
        return decide(cmd) if cmd.type == RULING and cmd.side is None else decide_(self, state, cmd)
    wrapped.__doc__, wrapped.__name__ = decide_.__doc__, decide_.__name__
    return wrapped
