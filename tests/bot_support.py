"""Bots' inputs for the no-cheating tests (importable because pytest puts tests/ on the path)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.bots import BotInput
from engine.bots.seat import Seats
from engine.core.dice import commitment
from engine.core.events import Command, Event
from engine.core.game import replay


def recorded_inputs(rules: Any, events: list[Event], bots: dict[str, Any], side: str, decisions: int,
                    kept: Callable[[BotInput], bool]) -> list[tuple[BotInput, Command]]:
    """A game played from ``events`` by ``bots`` (one per side), and ``side``'s inputs with the
    command its bot gave for each, those that ``kept`` keeps (a real choice, say)."""
    return [(inp, cmd) for _, inp, cmd in recorded_positions(rules, events, bots, decisions, kept)
            if inp.side == side]


def recorded_positions(rules: Any, events: list[Event], bots: dict[str, Any], decisions: int,
                       kept: Callable[[BotInput], bool]) -> list[tuple[Any, BotInput, Command]]:
    """A game played from ``events`` by ``bots`` (one per side): for each decision that ``kept``
    keeps, a copy of the state, the acting side's input and the command its bot gave."""
    state = replay(rules, events)
    seats = Seats(rules, events)
    out = []
    for _ in range(decisions):
        acting = rules.prompt(state).side
        if acting is None:
            break
        inp = seats.input_for(state, acting, f"seed-{acting}")
        cmd = bots[acting].decide(inp).command
        if kept(inp):
            out.append((rules.clone(state), inp, cmd))
        new = rules.decide(state, Command(cmd.type, cmd.data, acting))
        for e in new:
            rules.apply(state, e)
        seats.hand_out(new)
    return out


def with_secret(inp: BotInput, secret: str) -> BotInput:
    """The same input in a game whose dice secret is ``secret`` (all else equal)."""
    events = tuple(Event(e.type, {**e.data, "secret": secret, "commitment": commitment(secret)}, e.side)
                   if "secret" in e.data else e for e in inp.events)
    assert events != inp.events
    view = {**inp.view, "dice_commitment": commitment(secret)} if "dice_commitment" in inp.view else inp.view
    return replace(inp, events=events, view=view)
