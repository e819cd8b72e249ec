"""A moment of a game's history (the state after its first ``seq`` events) as one viewer
saw it: the map, the displays, the steps back and forward, the turn and phase bookmarks
and the log up to there.  The players' replay page and the admin's share it: the admin
sees everything (``ADMIN``) or exactly what one side's own replay page shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from app import store
from app.games import board_for
from app.models import Game, Seat
from app.services.games import GameService
from app.visible import readable, viewer_of
from engine.core.visibility import ADMIN
from engine.games import get_rules

LOG_LINES = 80  # the log up to the moment: its newest lines


def moment_context(session: Session, service: GameService, game: Game, seq: int, side: str | None,
                   seat: Seat | None = None, href: Callable[[int], str] | None = None,
                   every_event: bool = False) -> dict[str, Any]:
    """What ``moment.html`` draws: the moment as ``side`` saw it (None: a spectator;
    ``ADMIN``: everything).  ``href``: the address of moment n; ``every_event``: step one
    event at a time (else from one told moment, a log line, to the next)."""
    every = store.events_between(session, game.id, 0, game.seq)
    rules = get_rules(game.game)
    state = service.state_at(session, game, seq)
    rows = readable(every, game, ADMIN if side == ADMIN else viewer_of(game, side))
    view = rules.view(state, side, [])  # a moment is looked at, never played
    told = list(range(game.seq + 1)) if every_event else [r.seq + 1 for r in rows if r.text]
    turns = _turns(rows, rules)
    turn_start = max((n for n, _ in turns if n <= seq), default=0)
    turn_end = min((n for n, _ in turns if n > seq), default=game.seq + 1)
    phases = [(r.seq + 1, rules.phase_title(r.payload)) for r in rows
              if r.type == rules.phase_event and turn_start <= r.seq + 1 < turn_end]
    steps = {"first": told[0] if told else 0, "back": max((n for n in told if n < seq), default=None),
             "forward": min((n for n in told if n > seq), default=None), "last": game.seq,
             "turn_back": max((n for n, _ in turns if n < seq), default=None),
             "turn_forward": min((n for n, _ in turns if n > seq), default=None)}
    log = [{"seq": r.seq + 1, "text": r.text, "turn": r.type == rules.turn_event}
           for r in reversed(rows) if r.seq < seq and r.text][:LOG_LINES]
    last = next((r for r in reversed(rows) if r.seq == seq - 1), None)  # None too when it is not to be read
    prompt = rules.prompt(state)  # who acts and what the game waits for, in every game's words
    context = {"game": game, "seq": seq, "view": view, "side": side, "steps": steps, "turns": turns,
               "acting": list(prompt.acting), "over": state.result is not None, "waiting": prompt.waiting,
               "phases": phases, "log": log, "at": every[seq - 1].created_at if seq > 0 else game.created_at,
               "href": href or (lambda n: f"/games/{game.id}/at/{n}"), "event": last}
    board = board_for(game.game)
    context |= {"game_name": rules.title, "turn_name": rules.headline(state).turn_name,
                "moment_template": board.moment_template}
    return context | board.moment(game, seat, state, view, seq, last)


def _turns(rows: list[Any], rules: Any) -> list[tuple[int, str]]:
    """Each turn's moment and heading: the moment its first phase has begun (the moment of
    the turn's own event still shows the last turn's last phase under the new turn's name)."""
    out: list[tuple[int, str]] = []
    opened: Any = None  # a turn's event whose first phase has not begun yet
    for r in rows:
        if r.type == rules.turn_event:
            if opened is not None:
                out.append((opened.seq + 1, opened.text or ""))
            opened = r
        elif r.type == rules.phase_event and opened is not None:
            out.append((r.seq + 1, opened.text or ""))
            opened = None
    if opened is not None:
        out.append((opened.seq + 1, opened.text or ""))
    return out
