"""Sealed Bids' board: no map, a purse, the lots, and a button per bid."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app import store
from app.games.base import BoardRequest, Click, MapClick, page_title
from app.models import Game, Seat
from app.services import clock
from app.services.games import GameService
from app.services.story import briefing
from app.visible import readable, viewer_of
from engine.games import get_rules


@dataclass
class BidBoard:
    game: Game
    seat: Seat | None
    view: dict[str, Any]
    state: Any
    bids: list[dict[str, Any]]
    log: list[str]
    error: str | None = None
    oob: bool = False
    invite_url: str | None = None
    private_url: str | None = None
    welcome: bool = False
    clock: dict[str, Any] | None = None
    briefing: list[dict[str, Any]] = field(default_factory=list)

    @property
    def side(self) -> str | None:
        return self.seat.side if self.seat else None

    @property
    def your_turn(self) -> bool:
        return bool(self.view["your_turn"])

    @property
    def seq(self) -> int:
        return self.game.seq

    @property
    def page_title(self) -> str:
        return page_title(self.game, get_rules(self.game.game), self.state)


class SealedBidsBoard:
    id = "sealed_bids"
    template_dir = Path(__file__).parent / "templates"
    board_template = "sealed_bids/board.html"
    after_board = None
    moment_template = "sealed_bids/moment.html"
    new_game_template = "sealed_bids/new_game.html"
    footer = "Sealed Bids is a game for tests."
    answers_from_row = False

    def warm(self) -> None:
        pass

    def context(self, session: Session | None, service: GameService, game: Game, seat: Seat | None,
                req: BoardRequest) -> BidBoard:
        assert session is not None
        state = service.state(session, game)
        side = seat.side if seat else None
        view = service.view(session, game, side, listed=False)
        legal = service.legal(game, state, side) if view["your_turn"] else []
        rows = readable(store.events_between(session, game.id, 0, game.seq), game, viewer_of(game, side))
        return BidBoard(game, seat, view, state,
                        [{"data": json.dumps(c.data), "amount": c.data["amount"]} for c in legal],
                        [r.text for r in reversed(rows) if r.text], req.error, not req.full, req.invite_url,
                        req.private_url if req.full else None, req.welcome, clock.view(game, service.now()),
                        briefing(session, game, side) if side and req.full else [])

    def click(self, session: Session, service: GameService, game: Game, seat: Seat | None,
              click: MapClick) -> Click:
        return Click(redraw=BoardRequest(error="Sealed Bids has no map: bid with the buttons."))

    def kept(self, command_type: str, select: str) -> str:
        return ""

    def moment(self, game: Game, seat: Seat | None, state: Any, view: dict[str, Any], seq: int,
               last: Any) -> dict[str, Any]:
        return {}

    def picture(self, view: dict[str, Any]) -> list[str]:
        return []  # no map: its mails carry no picture


BOARD = SealedBidsBoard()
