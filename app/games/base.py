"""The contract between the server and each game's board (``app/games/<game>/``).

The server's routes and services never name a game: they look its board up by the
game's id (``app.games.board_for``) and ask it these things.  What every game has in
common (turns, phases, the prompt, take-backs, the log) comes from its rules
(``engine.core.game.RulesBase``); what differs (the map, the panels, what a click on
the map means) is the board's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy.orm import Session

from app import store
from app.models import Game, Seat
from app.services.games import GameService
from app.visible import readable, viewer_of
from engine.core import rulings
from engine.core.events import Command


@dataclass
class BoardRequest:
    """What the page or answer is drawn for."""

    select: str = ""
    error: str | None = None
    error_for: Command | None = None
    inspect: str = ""  # a hex whose stack the panel opens
    since: int | None = None  # only the parts that change, and the log lines from this event on (None: a page)
    welcome: bool = False
    # the rows a command of this request just appended, in order: its answer's log lines
    # come from them rather than from another read of the log
    fresh: list[Any] = field(default_factory=list)
    shown: list[str] | None = None  # the digests of the map layers' parts the page shows (None: not known)
    full: bool = False  # the whole page (else the board, or only its changed parts)
    invite_url: str | None = None  # shown to the creator until the opponent joins
    private_url: str | None = None  # the player's own private link (full pages only)


@dataclass(frozen=True)
class MapClick:
    """A click on the map: a hex, or a counter (by its unit), with the current selection."""

    seq: int
    hex: str = ""
    unit: str = ""
    select: str = ""
    shown: list[str] | None = None


@dataclass
class Click:
    """What a click stands for: the one legal command to submit (``keep``: the selection
    after it), or the board drawn again as ``redraw`` says (a new selection, a choice
    between several commands, the engine's reason why nothing happens there)."""

    command: Command | None = None
    keep: str = ""
    redraw: BoardRequest | None = None


class GameBoard(Protocol):
    """One game's board: its page, its answers, its clicks and its replay's map."""

    id: str  # the game's id in engine.games
    board_template: str  # the board (full, or its changed parts swapped in by id)
    after_board: str | None  # what stays under a board that is swapped whole (None: the board holds it)
    moment_template: str  # a past moment's map and displays
    new_game_template: str  # the landing page's form for a new game of it
    footer: str  # what the game's pages say of its reconstructed parts (HTML)
    # whether the answer to a command can be drawn from the written game row alone, with
    # no database read (the event loop's write path, app/fast_commands.py)
    answers_from_row: bool

    def warm(self) -> None:
        """Draw what is drawn once per process (before the first request)."""

    def context(self, session: Session | None, service: GameService, game: Game, seat: Seat | None,
                req: BoardRequest) -> Any:
        """What the board's templates draw (``b``); it has ``your_turn``, ``page_title``,
        ``oob`` (only the changed parts) and ``briefing``."""

    def click(self, session: Session, service: GameService, game: Game, seat: Seat | None,
              click: MapClick) -> Click:
        """What a click on the map stands for."""

    def kept(self, command_type: str, select: str) -> str:
        """The selection after a command of this type (kept while, e.g., set-up goes on)."""

    def moment(self, game: Game, seat: Seat | None, state: Any, view: dict[str, Any], seq: int,
               last: Any) -> dict[str, Any]:
        """What ``moment_template`` draws of a past moment (``last``: its last event's
        row, if its viewer may read it)."""

    def picture(self, view: dict[str, Any]) -> list[str]:
        """The map as ``view`` shows it, as SVG layers sharing one viewBox (drawn in order):
        the picture a "your move" mail carries (app/render/picture.py).  None: no map."""


_DIGEST = re.compile(r"[0-9a-f]{16}")


def shown_parts(raw: str) -> list[str] | None:
    """The digests of the map's parts a page shows (``data-d`` of each part a board draws
    in parts, joined by dots), or None for anything else: an answer then sends only the
    parts the page lacks."""
    items = raw.split(".") if raw else []
    return items if 0 < len(items) <= 64 and all(_DIGEST.fullmatch(d) for d in items) else None


def page_title(game: Game, rules: Any, state: Any) -> str:
    """The tab's title: the game's own title or the game's name, the turn and the phase
    (each answer brings it again: the tab is never a step behind)."""
    head = rules.headline(state)
    return " \u00b7 ".join(t for t in (game.title or rules.title, head.turn_name, head.phase) if t)


def log_window(session: Session | None, game: Game, side: str | None, since: int | None, fresh: list[Any],
               lines: int) -> tuple[list[Any], bool]:
    """The board's log rows as ``side`` may read them, and whether they replace the
    page's whole log.  A page (``since`` None): the last ``lines`` events.  An answer
    (the page holds the log up to ``since``): the newer ones only, from ``fresh`` (the
    rows its command just wrote) when they are all of them, so that it reads nothing;
    all ``lines`` again when lines shown were struck (a take-back, an admin's rewind), or
    when the game ended since: every side may read then what the page showed as stubs."""
    first = max(0, game.seq - lines) if since is None else max(0, min(since, game.seq), game.seq - lines)
    if fresh and fresh[0].seq <= first and fresh[-1].seq == game.seq - 1:
        rows = [r for r in fresh if r.seq >= first]
    elif game.seq > first:
        assert session is not None  # (an answer drawn without a session has its rows)
        rows = store.events_between(session, game.id, first, game.seq)
    else:
        rows = []
    relog = since is not None and (any(r.type in rulings.STRIKING for r in rows)
                                   or (game.status == "finished" and since < game.seq))
    if relog:
        assert session is not None
        rows = store.events_between(session, game.id, max(0, game.seq - lines), game.seq)
    return readable(rows, game, viewer_of(game, side)), relog
