"""Checking a stored log by deciding it again from scratch.

A log is a list of events; the first event of every batch that a command
produced carries that command.  Verification re-creates the game from the
first event's scenario, options and secret, then re-decides every command and
compares the events it gives with the stored ones: the first stored event that
differs (or whose command the engine now refuses) is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core import rulings
from engine.core.errors import RuleError
from engine.core.events import Command, Event
from engine.core.game import GameRules


@dataclass(frozen=True)
class LogEntry:
    event: Event
    command: Command | None = None  # set on the first event of each command's batch


@dataclass(frozen=True)
class Verdict:
    ok: bool
    events: int
    bad_seq: int | None = None
    message: str = ""
    state: Any = None


def rewind_from_log(rules: GameRules[Any], events: list[Event], command: Command, at: int) -> list[Event]:
    """The events of the admin's rewind ``command`` written at event ``at``, from the log's
    ``events`` before it (``RuleError``: not a rewind this log allows)."""
    to = command.data.get("to")
    back = to if isinstance(to, int) and not isinstance(to, bool) and 0 < to < at else 0
    then = rules.blank()
    for event in events[:back]:
        rules.apply(then, event)
    return rulings.rewound(rules.state_to_json, command, at, then)


def verify_log(rules: GameRules[Any], entries: list[LogEntry]) -> Verdict:
    if not entries or entries[0].event.type != "game_created":
        return Verdict(False, 0, 0, "the log must start with the game's creation")
    created = entries[0].event.data
    try:
        opening = rules.create(created.get("scenario", ""), created.get("options", {}), created.get("secret", ""))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # RuleError is a ValueError
        return Verdict(False, 0, 0, f"the creation event is not valid: {exc}")
    batches: list[tuple[Command | None, list[tuple[int, Event]]]] = [(None, [])]
    for seq, entry in enumerate(entries):
        if entry.command is not None:
            batches.append((entry.command, []))
        batches[-1][1].append((seq, entry.event))
    state = rules.blank()
    for command, stored in batches:
        if command is None:
            expected = opening
        elif command.type == rulings.REWIND and command.side is None:  # the state it goes back to, from the log
            try:
                expected = rewind_from_log(rules, [e.event for e in entries[:stored[0][0]]], command, stored[0][0])
            except RuleError as exc:
                return Verdict(False, len(entries), stored[0][0], f"the engine refuses this rewind: {exc}")
        else:
            try:
                expected = rules.decide(state, command)
            except (RuleError, KeyError, TypeError, AttributeError) as exc:
                return Verdict(False, len(entries), stored[0][0], f"the engine refuses this command: {exc}")
        for i, (seq, event) in enumerate(stored):
            if i >= len(expected) or expected[i].to_json() != event.to_json():
                want = expected[i].to_json() if i < len(expected) else "nothing"
                return Verdict(False, len(entries), seq,
                               f"event {seq} ({event.type}) is not what the rules produce: expected {want}")
            rules.apply(state, event)
        if len(expected) > len(stored):
            seq = stored[-1][0] + 1 if stored else 0
            return Verdict(False, len(entries), seq, f"the log is missing events after event {seq - 1}")
    return Verdict(True, len(entries), None, "the whole log replays exactly", state)
