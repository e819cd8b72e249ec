"""A moment of a game for the admin: with everything shown (every side's pieces and
markers, sealed choices, the event that led there with its dice and their inputs), or
exactly as one side's own replay page shows it, one click apart."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from sqlalchemy.orm import Session

from app.models import Game
from app.services import admin_rulings, dice_keys, fair_dice
from app.services.games import GameService
from app.services.moments import moment_context
from engine.core import dice
from engine.core.events import Event
from engine.core.visibility import ADMIN
from engine.games import get_rules


def admin_moment(session: Session, service: GameService, game: Game, seq: int, as_side: str | None) -> dict[str, Any]:
    """``moment.html``'s context for the admin (``as_side``: as that side saw it)."""
    def href(n: int, side: str | None = as_side) -> str:
        return f"/admin/games/{game.id}/at/{n}" + (f"?as={quote(side)}" if side else "")

    if as_side is None:
        context = moment_context(session, service, game, seq, ADMIN, href=href, every_event=True)
    else:  # the players' page of that seat, only its links kept on the admin's side
        seat = next((s for s in game.seats if s.side == as_side), None)
        context = moment_context(session, service, game, seq, as_side, seat, href=href)
    views = [("Everything", href(seq, None), as_side is None)] + \
        [(f"As {side} saw it", href(seq, side), as_side == side) for side in get_rules(game.game).sides]
    event = context["event"] if as_side is None else None  # the full event: never on a side's page
    learned = admin_rulings.learned_since(session, service, game, seq) if as_side is None and seq < game.seq else {}
    drawn = None
    got = dice_keys.material(session, game.id) if game.record_version >= dice_keys.VERSION else None
    secret = dice_keys.row_secret(game, got, getattr(event, "dice", None)) if event is not None else ""
    if event is not None:  # a draw's inputs: the pool as it stood before the event, and the check
        rules = get_rules(game.game)
        drawn = rules.draw_inputs(service.state_at(session, game, event.seq),
                                  Event(event.type, event.payload, event.side))
        if drawn is not None:
            drawn = {**drawn, "event_no": event.seq, "fair": bool(drawn["pool"]) and bool(secret) and dice.draw(
                secret, event.seq, drawn["pool"], drawn["index"]) == drawn["drawn"]}
    desk = {"views": views, "event": event, "commitment": dice_keys.desk_commitment(game), "learned": learned,
            "drawn": drawn, "rolls": fair_dice.rolls(secret, event.seq, event.payload) if event is not None else []}
    return context | {"desk": desk, "back": f"/admin/games/{game.id}"}
