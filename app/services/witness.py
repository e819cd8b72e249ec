"""What a "your move" mail carries to make the player's mailbox a witness (issue 36): what
the opponent did since the player's last move, in the same lines as the player's log
(redacted for their side), and a picture of the map as their side sees it.  The mail's
stored body already holds the record's head after that move (app/services/notices.py).

Made as the mail is sent (the mail job, outside the request threads), from the game as it
stands then, which is the moment the mail is about: a mail about an older moment is not
sent (``app.mail.stale``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app import store
from app.games import board_for
from app.models import Mail
from app.render import picture
from app.services.games import GameService
from app.services.story import briefing
from engine.games import get_rules

log = logging.getLogger(__name__)
LINES = 60  # the newest lines a mail lists; the board has them all


@dataclass(frozen=True)
class Witness:
    text: str  # added to the mail's text, complete for a reader without pictures
    png: bytes | None  # the map as the player's side sees it


def witness(session: Session, mail: Mail, service: GameService) -> Witness | None:
    """The witness of a "your move" mail (None: not such a mail, or the game is gone)."""
    if mail.kind != "your_move" or mail.game_id is None or mail.side is None:
        return None
    game = store.game_with_seats(session, mail.game_id)
    if game is None:
        return None
    lines = [line for group in briefing(session, game, mail.side)  # the board's "since your last move"
             for line in ([group["title"]] if group["title"] else []) + [f"  {li['text']}" for li in group["lines"]]]
    if lines:
        shown = lines[-LINES:]
        more = f"  ... and {len(lines) - len(shown)} earlier lines on the board\n" if len(lines) > len(shown) else ""
        text = "Since your last move:\n" + more + "".join(f"  {line}\n" for line in shown)
    else:
        text = "Nothing has happened since your last move.\n"
    png = None
    try:
        view = get_rules(game.game).view(service.state(session, game), mail.side, [])
        layers = board_for(game.game).picture(view)
        png = picture.png(layers) if layers else None
    except (ValueError, OSError):  # a picture that cannot be drawn: the mail goes without it
        log.exception("the map of game %s could not be drawn for its mail", game.id)
    if png is not None:
        text += "\nThe map as your side sees it now is attached (map.png).\n"
    return Witness(text, png)
