"""An admin's ruling in any game's log (engine/core/rulings.py): the game's own code never
sees it, replay and verification know it, no take-back reaches past it, no player sends one."""

from __future__ import annotations

import pytest

from engine.core import rulings, undo
from engine.core.errors import RuleError
from engine.core.events import Command, Event
from engine.core.verify import LogEntry, verify_log
from engine.games import game_ids, get_rules


@pytest.mark.parametrize("game", game_ids())
def test_a_ruling_replays_verifies_and_bars_a_take_back(game: str) -> None:
    rules = get_rules(game)
    entries = [LogEntry(e) for e in rules.create(next(iter(rules.scenarios)), {}, "secret")]
    state = rules.blank()
    for entry in entries:
        rules.apply(state, entry.event)
    side = rules.prompt(state).side
    step = next(c for c in rules.legal_commands(state, side) if c.type in ("place", "end_phase"))
    could_take_back = []
    for cmd in (Command(step.type, step.data, side), rulings.command("Ann", "a dispute", "0709 is clear")):
        could_take_back.append(any(c.type == undo.UNDO for c in rules.legal_commands(state, side)))
        events = rules.decide(state, cmd)
        entries += [LogEntry(e, cmd if i == 0 else None) for i, e in enumerate(events)]
        for e in events:
            rules.apply(state, e)
    assert could_take_back == [False, True]  # the step could be taken back until the ruling
    assert entries[-1].event.type == rulings.RULING and state.seq == len(entries)
    assert rules.describe(state, entries[-1].event) == "Ruling by the admin Ann: 0709 is clear. Reason: a dispute"
    assert not any(c.type == undo.UNDO for c in rules.legal_commands(state, side))  # barred by the ruling
    assert verify_log(rules, entries).ok
    with pytest.raises(RuleError):  # a player's "ruling" is no ruling: the game refuses it
        rules.outcome(state, Command(rulings.RULING, {"admin": "me", "reason": "r", "note": "I win"}, side))
    with pytest.raises(RuleError):
        rules.decide(state, rulings.command("Ann", "  ", "no reason"))


@pytest.mark.parametrize("game", game_ids())
def test_a_rewind_goes_back_replays_and_verifies(game: str) -> None:
    rules = get_rules(game)
    entries = [LogEntry(e) for e in rules.create(next(iter(rules.scenarios)), {}, "secret")]
    state = rules.blank()
    for entry in entries:
        rules.apply(state, entry.event)
    back_to, then = len(entries), rules.state_to_json(state)
    for _ in range(3):  # three of the acting side's commands
        side = rules.prompt(state).side
        legal = [c for c in rules.legal_commands(state, side) if c.type != undo.UNDO]
        cmd = Command(legal[0].type, legal[0].data, side)
        events = rules.decide(state, cmd)
        entries += [LogEntry(e, cmd if i == 0 else None) for i, e in enumerate(events)]
        for e in events:
            rules.apply(state, e)
    replayed = rules.blank()
    for entry in entries[:back_to]:
        rules.apply(replayed, entry.event)
    cmd = rulings.rewind_command("Ann", "a wrong click, agreed by both", back_to)
    (event,) = rulings.rewound(rules.state_to_json, cmd, len(entries), replayed)
    rules.apply(state, event)
    entries.append(LogEntry(event, cmd))
    assert state.seq == len(entries) and rules.prompt(state).side == rules.prompt(replayed).side
    now = rules.state_to_json(state)
    assert {k: v for k, v in now.items() if k not in ("seq", "undo")} == \
        {k: v for k, v in then.items() if k not in ("seq", "undo")}
    assert event.data["seen_by"] == [] and "state" not in event.data["public"]  # the state is the admin's
    assert verify_log(rules, entries).ok
    struck = rulings.struck((n, e.event) for n, e in enumerate(entries))
    assert sorted(struck) == list(range(back_to, len(entries) - 1))
    forged = LogEntry(Event(event.type, {**event.data, "to": back_to + 1}), cmd)
    assert not verify_log(rules, [*entries[:-1], forged]).ok
    with pytest.raises(RuleError):
        rules.decide(state, cmd)  # only from the log


def test_a_ruling_by_the_admin_account_names_no_one_twice():
    """The admin account's own name is "admin": its ruling reads "Ruling by the admin:",
    not "Ruling by the admin admin:"."""
    assert rulings.describe({"admin": "admin", "reason": "a dispute", "note": "0709 is clear"}) == (
        "Ruling by the admin: 0709 is clear. Reason: a dispute")
    assert rulings.describe({"admin": "Ann", "reason": "r", "note": "n"}).startswith("Ruling by the admin Ann: ")
