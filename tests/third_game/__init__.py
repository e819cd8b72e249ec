"""A third game, small, that lives here and nowhere else: "Sealed Bids".  It is
registered with the server through the same contract as the bundled games (its rules
with ``engine.games.register``, its board with ``app.games.register``), which shows
that a new game touches no shared file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def registered() -> Iterator[None]:
    """The third game registered for the block (the other tests know two games)."""
    import app.games
    import engine.games

    register()
    try:
        yield
    finally:
        engine.games.GAMES.pop("sealed_bids", None)
        app.games.BOARDS.pop("sealed_bids", None)


def register() -> None:
    import app.games
    import engine.games
    from third_game.board import BOARD
    from third_game.rules import RULES

    engine.games.register(RULES)
    app.games.register(BOARD)
