"""Losing on time: the server's clock, not a player, ends a game whose side did not decide
in the time allowed (app/services/clock.py).  The rulebooks have no clocks; the win goes
to the other side, which claimed it.  Every game accepts the same command."""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.errors import IllegalCommandError, MalformedCommandError
from engine.core.events import Command

TIME_FORFEIT = "time_forfeit"


def judge(command: Command, sides: Sequence[str], over: bool) -> tuple[str, str, str]:
    """(winner, loser, the reason) of a ``time_forfeit`` command, or the error refusing it
    (a command with a side is a player's: players' commands always carry theirs)."""
    if command.side is not None:
        raise IllegalCommandError("", "only the server's clock can end a game on time")
    if over:
        raise IllegalCommandError("", "the game is over")
    loser = command.data.get("loser") if isinstance(command.data, dict) else None
    if loser not in sides or set(command.data) != {"loser"}:
        raise MalformedCommandError("", f"{TIME_FORFEIT} takes {{'loser': one of {list(sides)}}}")
    winner = next(s for s in sides if s != loser)
    return winner, loser, f"{loser} did not decide within the time allowed; {winner} claimed the game on time"
