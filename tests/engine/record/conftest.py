"""Records of real games, played once per test session, and what a forger would do to one."""

from __future__ import annotations

from typing import Any

import pytest

from engine.record.play import play

GAMES = ("first_blood", "pacific_battles")


@pytest.fixture(scope="session")
def finished() -> dict[str, Any]:
    """game -> (recorder, last state) of a whole game."""
    return {game: play(game, 1) for game in GAMES}


@pytest.fixture(scope="session")
def unfinished() -> dict[str, Any]:
    """game -> (recorder, last state) of a game stopped in its middle (nothing published at the end)."""
    return {game: play(game, 2, stop_after=400) for game in GAMES}
