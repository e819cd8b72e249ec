"""The bundled games by id: the one place that names them (the core names none)."""

from __future__ import annotations

from typing import Any

from engine.core.game import GameRules
from engine.games.first_blood.rules import RULES as FIRST_BLOOD
from engine.games.pacific_battles.rules import RULES as PACIFIC_BATTLES

GAMES: dict[str, GameRules[Any]] = {rules.id: rules for rules in (FIRST_BLOOD, PACIFIC_BATTLES)}
DEFAULT_GAME = FIRST_BLOOD.id  # what a request that names no game means (the API's first clients knew only it)


def register(rules: GameRules[Any]) -> None:
    """Add a game from elsewhere (a plug-in, a test's game) by its id."""
    GAMES[rules.id] = rules


def get_rules(game_id: str) -> GameRules[Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {sorted(GAMES)}") from None


def game_ids() -> list[str]:
    return sorted(GAMES)
