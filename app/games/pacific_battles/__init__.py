"""Pacific Battles' board: the reconstructed map with its pieces (map_svg.py,
pieces_svg.py), the commands grouped by kind with marks on the map, the displays
(board.py), and what a click on the map stands for."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.games.base import BoardRequest, Click, MapClick
from app.games.maps import map_file
from app.games.pacific_battles.board import NEXT, PBBoard, pb_context, pb_moment
from app.games.pacific_battles.pieces_svg import render_board_svg
from app.models import Game, Seat
from app.services.games import GameService
from app.services.story import briefing

# never given by a bare click on the map: a held campaign marker is spent once, so a click
# that stands for playing one lists it in the hex's card, to be played by its own button
BY_BUTTON_ONLY = ("play",)
ONE_BY_ONE = ("place", "land", "to_base")  # placing pieces one after another


class PacificBattlesBoard:
    id = "pacific_battles"
    board_template = "games/pacific_battles/board.html"
    after_board = "games/pacific_battles/seat.html"
    moment_template = "games/pacific_battles/moment.html"
    new_game_template = "games/pacific_battles/new_game.html"
    footer = ("The map of Guadalcanal, the Terrain Effects Chart, the Raid and Assault tables, the air tables, "
              "the US reinforcement chart and the counters' factors are <strong>reconstructions</strong>: the "
              "Pacific Battles rulebook refers to printed charts its source does not hold.")
    answers_from_row = True

    def warm(self) -> None:
        map_file("pacific_battles")

    def context(self, session: Session | None, service: GameService, game: Game, seat: Seat | None,
                req: BoardRequest) -> PBBoard:
        ctx = pb_context(session, service, game, seat, req.error, oob=not req.full, private_url=req.private_url,
                         invite_url=req.invite_url, select=req.select, inspect=req.inspect, welcome=req.welcome,
                         since=req.since, fresh=req.fresh, shown=req.shown)
        if req.error and req.error_for is not None and req.error_for.type == "allocate" and ctx.allocate:
            ctx.allocation_sent = dict(req.error_for.data)  # refused: the form keeps what was typed
        if req.full and seat is not None and session is not None:
            ctx.briefing = briefing(session, game, seat.side)
        return ctx

    def kept(self, command_type: str, select: str) -> str:
        # a set-up placement or a landing moves the selection on to the next piece still
        # to be placed or landed: a dozen landings were a dozen trips down to its button
        return f"{NEXT}{select}" if command_type in ONE_BY_ONE and select else ""

    def click(self, session: Session, service: GameService, game: Game, seat: Seat | None,
              click: MapClick) -> Click:
        """One legal command there is given; several are listed to choose from; else the
        click selects one's own piece there (a stack's hex spreads the stack out,
        pieces_svg.py ``_fanned``), or the engine says why nothing happens (the move, landing or
        battle the click most likely meant)."""
        ctx = pb_context(session, service, game, seat, select=click.select)
        cmds = ctx.command_for_click(click.hex or None, click.unit or None)
        if len(cmds) == 1 and cmds[0].type not in BY_BUTTON_ONLY:
            return Click(cmds[0])
        where = click.hex or next((u["hex"] for u in ctx.view["units"] if u["id"] == click.unit), None) or ""
        if cmds:
            return Click(redraw=BoardRequest(select=click.select, inspect=where, shown=click.shown))
        pick = ctx.selection_for_click(click.hex or None, click.unit or None)
        error = None
        if pick is None and ctx.side and ctx.your_turn and where:
            probe = ctx.probe_for_click(where)
            why = service.why_not(game, ctx.state, ctx.side, probe) if probe is not None else None
            error, pick = why or ctx.nothing_here(where), ctx.select
        # a piece picked where it stands (out of a fanned stack, or by its button: the page
        # sends its hex with it) leaves its stack folded, so that the hexes a fan would lie
        # over, where the piece may go, can be clicked; a click on a stack spreads it out
        fold = bool(click.unit and click.hex)
        return Click(redraw=BoardRequest(select=pick or "", error=error, inspect="" if fold else where,
                                         shown=click.shown))

    def moment(self, game: Game, seat: Seat | None, state: Any, view: dict[str, Any], seq: int,
               last: Any) -> dict[str, Any]:
        # its own map and displays, read-only
        return {"pb": pb_moment(game, seat, state, view, seq), "layout_class": " pb-board"}

    def picture(self, view: dict[str, Any]) -> list[str]:
        return [render_board_svg(view)]


BOARD = PacificBattlesBoard()
