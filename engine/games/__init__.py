"""The bundled games by id: the one place that names them (the core names none)."""

from __future__ import annotations

from typing import Any

from engine.core.game import GameRules
from engine.games.first_blood.rules import RULES as FIRST_BLOOD
from engine.games.pacific_battles.rules import RULES as PACIFIC_BATTLES

GAMES: dict[str, GameRules[Any]] = {rules.id: rules for rules in (FIRST_BLOOD, PACIFIC_BATTLES)}


def get_rules(game_id: str) -> GameRules[Any]:
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {sorted(GAMES)}") from None


def game_ids() -> list[str]:
    return sorted(GAMES)
