"""What one viewer may read of a game's log (engine/core/visibility.py).

Every log the server sends goes through ``readable``: the API's log and a command's
answer, the log page, the board's log, "since your last move", a replay's moment.
A hidden event is sent whole to those who may read it, as its public stub (with the
stub's own line of text) to the others, or not at all.  The admin reads everything,
and so does everybody once the game is over.  First Blood hides nothing, so its logs
pass through untouched.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from engine.core import rulings
from engine.core.events import Event
from engine.core.visibility import ADMIN, SEEN_BY, for_viewer
from engine.games import get_rules


@dataclass(frozen=True)
class Row:
    """An event row as one viewer reads it (the attributes of ``models.EventRow`` that
    the pages and the API use)."""

    seq: int
    type: str
    side: str | None
    actor: str | None
    text: str | None
    payload: dict[str, Any]
    created_at: datetime
    # on a command's first row: who sent it, as the row's command records it ({"by": None}: the
    # seat's player; None: not a command's first row).  Only this of the command: its data may be secret.
    command: dict[str, Any] | None = None


def viewer_of(game: Any, side: str | None, admin: bool = False) -> str | None:
    """Who reads: the admin, anybody once the game is over, else a side or a spectator (None)."""
    return ADMIN if admin or game.status == "finished" else side


def readable(rows: Sequence[Any], game: Any, viewer: str | None) -> list[Any]:
    """``rows`` (event rows, in order) as ``viewer`` may read them."""
    if viewer == ADMIN or not any(SEEN_BY in r.payload for r in rows):
        return list(rows)
    sides = get_rules(game.game).sides
    out: list[Any] = []
    for r in rows:
        event = Event(r.type, r.payload, r.side)
        seen = for_viewer(event, viewer, sides)
        if seen is event:
            out.append(r)
        elif seen is not None:
            out.append(Row(r.seq, r.type, r.side, r.actor, seen.data.get("text"), seen.data, r.created_at,
                           sender(r)))
    return out


def sender(row: Any) -> dict[str, Any] | None:
    """Who sent the command a row is the first of, as ``Row.command`` keeps it; None for a
    command's later rows (and the game's creation)."""
    command = getattr(row, "command", None)
    return None if command is None else {"by": command.get("by")}


def by_computer(rows: Iterable[Any]) -> set[int]:
    """The numbers of the rows, in order, that the computer did: of a command it sent
    ("computer:greedy"), the rows of the side that sent it.  Each row belongs to the
    command of the last first row before it (a window that begins within a command marks
    its rows from the next command on); what a command set going for the other side or
    for nobody (the other side's automatic steps: a marker drawn, one played at its date;
    a new turn begun) is not the computer's doing."""
    out: set[int] = set()
    by = None
    for r in rows:
        first = sender(r)
        if first is not None:
            by = first["by"]
        if isinstance(by, str) and by.startswith("computer") and r.side == r.actor:
            out.add(r.seq)
    return out


def readable_events(numbered: Iterable[tuple[int, Event, str | None]], kind: str,
                    viewer: str | None) -> list[tuple[int, Event, str | None]]:
    """A command's answer (number, event, log line) for a game of ``kind``, as
    ``viewer`` may read it."""
    sides = get_rules(kind).sides
    out = []
    for n, event, text in numbered:
        seen = for_viewer(event, viewer, sides)
        if seen is event:
            out.append((n, event, text))
        elif seen is not None:
            out.append((n, seen, seen.data.get("text")))
    return out


def retracted_lines(rows: Iterable[Any]) -> dict[int, int]:
    """Log row number -> the number of the take-back or rewind that struck it (rows with their payloads)."""
    return rulings.struck((r.seq, Event(r.type, r.payload)) for r in rows if r.type in rulings.STRIKING)
