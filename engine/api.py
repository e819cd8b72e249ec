"""The small API the server uses; every function names the game by id.

>>> from engine import api
>>> events = api.create_game("first_blood", "campaign", {}, secret="doc")
>>> state = api.replay("first_blood", events)
>>> api.prompt("first_blood", state).side
'US'
"""

from __future__ import annotations

from typing import Any

from engine.core.events import Command, Event
from engine.core.game import Prompt
from engine.core.game import replay as _replay
from engine.games import get_rules


def create_game(game: str, scenario: str, options: dict[str, Any], secret: str) -> list[Event]:
    return get_rules(game).create(scenario, options, secret)


def replay(game: str, events: list[Event], snapshot: Any = None) -> Any:
    return _replay(get_rules(game), events, snapshot)


def apply(game: str, state: Any, event: Event) -> None:
    get_rules(game).apply(state, event)


def prompt(game: str, state: Any) -> Prompt:
    return get_rules(game).prompt(state)


def legal_commands(game: str, state: Any, side: str | None = None) -> list[Command]:
    return get_rules(game).legal_commands(state, side)


def decide(game: str, state: Any, command: Command) -> list[Event]:
    return get_rules(game).decide(state, command)


def describe(game: str, state: Any, event: Event) -> str | None:
    return get_rules(game).describe(state, event)


def view(game: str, state: Any, side: str | None) -> dict[str, Any]:
    return get_rules(game).view(state, side)


def reachable(game: str, state: Any, unit: str) -> dict[str, Any]:
    return get_rules(game).reachable(state, unit)


def log_lines(game: str, events: list[Event]) -> list[tuple[int, str | None]]:
    """(event number, English line or None) for each event, replaying as it goes."""
    rules = get_rules(game)
    state = rules.blank()
    out = []
    for i, e in enumerate(events):
        out.append((i, rules.describe(state, e)))
        rules.apply(state, e)
    return out
