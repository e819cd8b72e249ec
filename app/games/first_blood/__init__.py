"""First Blood's board: the map drawn in layers (svg.py), the legal commands grouped by
unit (board.py), and what a click on the map stands for."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.games.base import BoardRequest, Click, MapClick
from app.games.first_blood.board import BoardContext, board_context
from app.games.first_blood.svg import render_base, render_layers
from app.models import Game, Seat
from app.services.games import GameService
from engine.core.events import Command
from engine.games.first_blood.board import load_board

KEPT = ("attack", "add", "place")  # the selection stays while an attack is built or set-up goes on


class FirstBloodBoard:
    id = "first_blood"
    board_template = "games/first_blood/board.html"
    after_board = None
    moment_template = "games/first_blood/moment.html"
    new_game_template = "games/first_blood/new_game.html"
    footer = ("The map, the orders of battle and the die-roll-6 rows of the attack tables are "
              "<strong>reconstructions</strong>: the First Blood rulebook does not print them.")
    answers_from_row = True

    def warm(self) -> None:
        render_base()

    def context(self, session: Session | None, service: GameService, game: Game, seat: Seat | None,
                req: BoardRequest) -> BoardContext:
        return board_context(session, service, game, seat, req)

    def kept(self, command_type: str, select: str) -> str:
        return select if command_type in KEPT else ""

    def click(self, session: Session, service: GameService, game: Game, seat: Seat | None,
              click: MapClick) -> Click:
        if not click.unit and click.hex.isdigit() and click.hex not in load_board().hexes:
            # the sea or the paper around the map (read from the grid): nothing there
            return Click(redraw=BoardRequest(select=click.select, shown=click.shown))
        ctx = board_context(session, service, game, seat, BoardRequest(select=click.select))
        cmd = ctx.command_for_click(hex_id=click.hex or None, unit=click.unit or None)
        if cmd is not None:
            return Click(cmd, click.select if cmd.type in ("attack", "add") else "")
        pick = ctx.selection_for_click(hex_id=click.hex or None, unit=click.unit or None)
        stacked = any(u["loc"] == click.hex for u in ctx.view["units"]) if click.hex else False
        error = None
        if pick is None and ctx.your_turn and (not stacked or ctx.selected or ctx.view["phase"].endswith("_combat")):
            # an empty hex, an enemy hex with a unit selected or in combat: say why
            # nothing happens, and keep the selection
            error, pick = _refused(ctx, service, click.hex or click.unit), ctx.selected
        return Click(redraw=BoardRequest(select=pick or "", error=error, inspect=click.hex, shown=click.shown))

    def moment(self, game: Game, seat: Seat | None, state: Any, view: dict[str, Any], seq: int,
               last: Any) -> dict[str, Any]:
        trail = _trail(last.type, last.payload) if last is not None else []
        fought = list(last.payload["targets"]) if last is not None and last.type == "combat_resolved" else []
        return {"layers": render_layers(view, trail=trail, targets=fought), "base": render_base()}

    def picture(self, view: dict[str, Any]) -> list[str]:
        return [render_base(), render_layers(view)]


def _refused(ctx: BoardContext, service: GameService, where: str) -> str:
    """Why a click stands for no legal command: the engine's own reason when the click
    plainly meant one (a move of the selected unit, an attack), else what to do now."""
    probe: Command | None = ctx.probe_for_click(where) if ctx.side else None
    why = service.why_not(ctx.game, ctx.state, ctx.side, probe) if probe is not None else None
    return why or ctx.nothing_here(where)


def _trail(kind: str, data: dict[str, Any]) -> list[str]:
    """The hexes a unit went through in a move, retreat or advance (for the map)."""
    if kind not in ("unit_moved", "unit_retreated", "unit_advanced"):
        return []
    start = [data["frm"]] if isinstance(data.get("frm"), str) else []
    return start + [h for h in data.get("path") or [data.get("to")] if isinstance(h, str)]


BOARD = FirstBloodBoard()
