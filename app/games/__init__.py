"""Each game's board, by the game's id, as ``engine.games`` holds each game's rules.

The bundled boards are the packages here (each one's ``BOARD``); a game from elsewhere
registers its own (``register``): nothing shared names a game."""

from __future__ import annotations

import importlib
import pkgutil

from app.games.base import BoardRequest, Click, GameBoard, MapClick
from app.templating import add_templates

BOARDS: dict[str, GameBoard] = {}
_found = False


def register(board: GameBoard) -> None:
    """Add a board; one from outside the project brings its templates (``template_dir``),
    which its board names ``<game id>/<name>``."""
    folder = getattr(board, "template_dir", None)
    if folder is not None:
        add_templates(board.id, folder)
    BOARDS[board.id] = board


def board_for(game_id: str) -> GameBoard:
    _find()
    try:
        return BOARDS[game_id]
    except KeyError:
        raise KeyError(f"no board for the game {game_id!r}; known: {sorted(BOARDS)}") from None


def boards() -> list[GameBoard]:
    _find()
    return list(BOARDS.values())


def _find() -> None:
    """Import the bundled boards (once, on first use: they import the services, which
    import nothing of theirs)."""
    global _found
    if _found:
        return
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            register(importlib.import_module(f"{__name__}.{info.name}").BOARD)
    _found = True


__all__ = ["BoardRequest", "Click", "GameBoard", "MapClick", "board_for", "boards", "register"]
