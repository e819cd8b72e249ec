"""Deciding a command with a period's dice key, and which key a decision must use.

The games roll with ``engine.core.dice.roll(state.secret, event number, index)``; a
record keys each decision instead with its period's key (``seeds.turn_key``), set as
the secret of the state the decision is made from.  Which key is fixed by the rules,
never chosen by the server (a choice of keys would be a choice of dice):

* the *period* is 1 for the game's creation and the first decision, and one more each
  time a decision starts in another turn than the decision before it (the turn is the
  game's ``headline``), so that a rewound turn rolls with a fresh seed, never a published one;
* the *chain* is the open one, unless the decision, made with the open key, rolls and
  writes an event some side may not read: then it is made again with the hidden key.

``captured()`` collects the rolls of a decision ([event number, index, sides, value]),
the inputs a record entry lists so that a player can check each die with a published
seed (``engine.core.dice.recording``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from engine.core import dice, seeds
from engine.core.events import Command, Event
from engine.core.visibility import may_read


def captured() -> contextlib.AbstractContextManager[list[list[int]]]:
    """The rolls of the decisions made in this block (``engine.core.dice.recording``)."""
    return dice.recording()


def hides_a_roll(events: list[Event], rolls: list[list[int]], sides: tuple[str, ...]) -> bool:
    """Whether a decision that rolled ``rolls`` wrote an event some side may not read."""
    return bool(rolls) and any(not may_read(e, s, sides) for e in events for s in sides)


def decide_with(rules: Any, state: Any, command: Command, secret: str) -> tuple[list[Event], list[list[int]]]:
    """The decision's events and rolls with ``secret`` as the dice key (``state`` untouched)."""
    keyed = rules.with_secret(state, secret)
    with captured() as rolls:
        events = rules.decide(keyed, command)
    return events, rolls


def decide_keyed(rules: Any, state: Any, command: Command, key: Callable[[str], str]
                 ) -> tuple[list[Event], list[list[int]], str]:
    """The decision's events, its rolls and the chain it used; ``key(chain)`` gives this
    period's key on ``chain``."""
    sides = tuple(rules.sides)
    events, rolls = decide_with(rules, state, command, key(seeds.OPEN))
    if not hides_a_roll(events, rolls, sides):
        return events, rolls, seeds.OPEN
    events, rolls = decide_with(rules, state, command, key(seeds.HIDDEN))
    return events, rolls, seeds.HIDDEN


def outcome_keyed(rules: Any, state: Any, command: Command, key: Callable[[str], str]
                  ) -> tuple[Any, list[list[int]], str]:
    """``decide_keyed`` for an append path that wants ``rules.outcome`` (the events, their log
    lines and the state after them).  The state after is the decision's own (with what it
    worked out on the way, e.g. the next legal commands), given back the secret of
    ``state``, as is the base of an undo trail the decision began: so that it equals the
    state a replay of the log gives, and holds no key."""
    sides = tuple(rules.sides)
    chain = seeds.OPEN
    out, rolls = _outcome_with(rules, state, command, key(chain))
    if hides_a_roll(out.events, rolls, sides):
        chain = seeds.HIDDEN
        out, rolls = _outcome_with(rules, state, command, key(chain))
    out.state.secret = state.secret
    base = getattr(getattr(out.state, "undo", None), "base", None)
    if base is not None and base is not getattr(getattr(state, "undo", None), "base", None):
        base.secret = state.secret  # a trail this decision began: its base is the keyed state's clone
    return out, rolls, chain


def _outcome_with(rules: Any, state: Any, command: Command, secret: str) -> tuple[Any, list[list[int]]]:
    keyed = rules.with_secret(state, secret)
    with captured() as rolls:
        out = rules.outcome(keyed, command)
    return out, rolls


def next_period(period: int, last_turn: int | None, turn: int) -> int:
    """The period of a decision that starts in ``turn``, after one of ``period`` that started in
    ``last_turn`` (None: this is the first decision, of period ``period``)."""
    return period + 1 if last_turn is not None and turn != last_turn else period


class Periods:
    """The period of each decision, from the turns the decisions start in (a server keeps
    ``period`` and ``turn`` with the game, or builds this again from its log)."""

    def __init__(self, period: int = 1, turn: int | None = None) -> None:
        self.period, self.turn = period, turn

    def at(self, rules: Any, state: Any) -> int:
        turn = rules.headline(state).turn
        self.period = next_period(self.period, self.turn, turn)
        self.turn = turn
        return self.period


def rolls_by_event(rolls: list[list[int]], first: int, count: int) -> dict[int, list[list[int]]]:
    """A decision's rolls by the event they belong to: the one that was next when it was
    rolled (the last of the decision's ``count`` events from ``first`` when none was)."""
    out: dict[int, list[list[int]]] = {}
    for r in rolls:
        n = r[0] if first <= r[0] < first + count else first + count - 1
        out.setdefault(n, []).append(r)
    return out
