"""Browser pages: Jinja2 templates with HTMX, the map as server-rendered SVG.

Every action is a legal command from the engine: clicking the map or a button
posts that command; the server re-renders the board.  Nothing here decides a
rule; clicks are only translated into the engine's own legal commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from app.deps import GameDep, OptionalSeatDep, ServiceDep, SessionDep, SettingsDep, same_origin
from app.models import Game, Seat
from app.routes.api import set_seat_cookie
from app.security import cookie_name, unsign
from app.services.board import BoardRequest, board_context
from app.store import StaleSequence
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.core.game import get_rules

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).resolve().parents[2] / "templates"))
router = APIRouter(include_in_schema=False)
# every form post of these pages must come from these pages
posts = APIRouter(include_in_schema=False, dependencies=[Depends(same_origin)])


def page(request: Request, name: str, **context: Any) -> HTMLResponse:
    return TEMPLATES.TemplateResponse(request, name, context)


@router.get("/", response_class=HTMLResponse)
def index(request: Request, session: SessionDep, service: ServiceDep, settings: SettingsDep) -> HTMLResponse:
    mine = []
    for key, raw in request.cookies.items():
        if not key.startswith("seat_"):
            continue
        gid, token = key[5:], unsign(raw, settings.secret_key)
        seat = service.seat_for(session, gid, token) if token else None
        if seat is None:
            continue
        game = seat.game
        prompt = get_rules(game.game).prompt(service.state(session, game))
        mine.append({"game": game, "seat": seat, "your_move": prompt.side == seat.side,
                     "waiting": prompt.waiting if prompt.side != seat.side else prompt.text})
    mine.sort(key=lambda m: m["game"].updated_at, reverse=True)  # newest first,
    mine.sort(key=lambda m: not m["your_move"])  # and the games waiting for you before the others
    rules = get_rules("first_blood")
    return page(request, "index.html", games=mine, options=rules.options, sides=rules.sides)


@posts.post("/new")
def new_game(response: Response, session: SessionDep, service: ServiceDep, settings: SettingsDep,
             side: str = Form(...), name: str = Form(""), title: str = Form(""),
             two_units_as_engineer: bool = Form(False)) -> Response:
    options = {"two_units_as_engineer": True} if two_units_as_engineer else {}
    try:
        created = service.create(session, "first_blood", "campaign", side, options, name[:80], title[:120])
    except RuleError as exc:
        raise HTTPException(422, str(exc)) from None
    redirect = RedirectResponse(f"/games/{created.game.id}", status_code=303)
    set_seat_cookie(redirect, created.game.id, created.tokens[side], settings)
    other = next(s for s in created.tokens if s != side)
    # the invitation is shown once, on the game page, through a short-lived cookie
    redirect.set_cookie(f"invite_{created.game.id}", created.tokens[other], httponly=True, samesite="lax",
                        max_age=60 * 60 * 24 * 30, secure=settings.secure_cookies)
    return redirect


@router.get("/join/{game_id}", response_class=HTMLResponse)
def join_page(request: Request, game: GameDep, token: str = "") -> HTMLResponse:
    return page(request, "join.html", game=game, token=token)


@posts.post("/join/{game_id}")
def join(game: GameDep, session: SessionDep, service: ServiceDep, settings: SettingsDep,
         token: str = Form(...), name: str = Form("")) -> Response:
    try:
        _seat, token = service.join(session, game, token, name[:80])
    except PermissionError as exc:
        raise HTTPException(403, str(exc)) from None
    redirect = RedirectResponse(f"/games/{game.id}", status_code=303)
    set_seat_cookie(redirect, game.id, token, settings)
    return redirect


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game_page(request: Request, game: GameDep, session: SessionDep, service: ServiceDep,
              settings: SettingsDep, token: str = "", select: str = "") -> Response:
    if token:  # a private link: keep the secret in the cookie, not in the address bar
        seat = service.seat_for(session, game.id, token)
        if seat is None:
            raise HTTPException(403, "that private link is not valid for this game")
        held = _seat_from_cookie(request, game, session, service, settings)
        if held is not None and held.side != seat.side:
            raise HTTPException(409, f"this browser already holds the {held.side} seat of this game; open the "
                                     f"{seat.side} link in another browser or a private window")
        redirect = RedirectResponse(f"/games/{game.id}", status_code=303)
        set_seat_cookie(redirect, game.id, token, settings)
        return redirect
    seat = _seat_from_cookie(request, game, session, service, settings)
    return render_board(request, session, service, game, seat, BoardRequest(select=select), "game.html")


@router.get("/games/{game_id}/board", response_class=HTMLResponse)
def board(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
          select: str = "") -> HTMLResponse:
    return render_board(request, session, service, game, seat, BoardRequest(select=select))


@router.get("/games/{game_id}/poll")
def poll(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
         seq: int = 0, select: str = "") -> Response:
    """Asked every few seconds: 204 while nothing happened, else the new board."""
    if game.seq == seq:
        return Response(status_code=204)
    return board(request, game, seat, session, service, select)


@posts.post("/games/{game_id}/command", response_class=HTMLResponse)
def command(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
            type: str = Form(...), data: str = Form("{}"), seq: int = Form(...),  # noqa: A002
            select: str = Form("")) -> HTMLResponse:
    try:
        payload = json.loads(data) if len(data) <= 4096 else None
    except (ValueError, RecursionError):
        payload = None
    return _submit(request, game, seat, session, service, type, payload, seq, select)


@posts.post("/games/{game_id}/click", response_class=HTMLResponse)
def click(request: Request, game: GameDep, seat: OptionalSeatDep, session: SessionDep, service: ServiceDep,
          seq: int = Form(...), hex: str = Form(""), unit: str = Form(""),  # noqa: A002
          select: str = Form("")) -> HTMLResponse:
    """A click on the map: the legal command it stands for, or a new selection."""
    ctx = board_context(session, service, game, seat, BoardRequest(select=select))
    cmd = ctx.command_for_click(hex_id=hex or None, unit=unit or None)
    if cmd is None:
        pick = ctx.selection_for_click(hex_id=hex or None, unit=unit or None)
        stacked = any(u["loc"] == hex for u in ctx.view["units"]) if hex else False
        error = None if (pick is not None or stacked or not ctx.your_turn) else ctx.nothing_here(hex or unit)
        return render_board(request, session, service, game, seat,
                            BoardRequest(select=pick or "", error=error, inspect=hex))
    keep = select if cmd.type in ("attack", "add") else ""
    return _submit(request, game, seat, session, service, cmd.type, cmd.data, seq, keep)


def _submit(request: Request, game: Game, seat: Seat | None, session: SessionDep, service: ServiceDep,
            ctype: str, data: Any, seq: int, select: str) -> HTMLResponse:
    error = None
    if seat is None:
        error = "Only the two players can act in this game (open your private link)."
    elif not isinstance(data, dict):
        error = "That command was not understood."
    else:
        try:
            service.submit(session, game, seat.side, {"type": ctype, "data": data}, seq)
            select = select if ctype in ("attack", "add", "place") else ""
        except StaleSequence:
            error = "The game moved on while you were deciding; here is the new situation."
        except RuleError as exc:
            error = str(exc)
        session.refresh(game)
    return render_board(request, session, service, game, seat,
                        BoardRequest(select=select, error=error, error_for=Command(ctype, data or {})))


def render_board(request: Request, session: SessionDep, service: ServiceDep, game: Game, seat: Seat | None,
                 req: BoardRequest, template: str = "partials/board.html") -> HTMLResponse:
    settings = request.app.state.settings
    invite = request.cookies.get(f"invite_{game.id}") if seat else None
    invite_url = f"{settings.base_url}/join/{game.id}?token={invite}" if invite else None
    return page(request, template, b=board_context(session, service, game, seat, req, invite_url))


def _seat_from_cookie(request: Request, game: Game, session: SessionDep, service: ServiceDep,
                      settings: SettingsDep) -> Seat | None:
    raw = request.cookies.get(cookie_name(game.id))
    token = unsign(raw, settings.secret_key) if raw else None
    return service.seat_for(session, game.id, token) if token else None


@router.get("/join-link")
def join_link(link: str = "") -> Response:
    """Open a pasted invitation link (only links to this server's join pages)."""
    from urllib.parse import urlsplit

    parts = urlsplit(link.strip())
    if not parts.path.startswith("/join/") or "token=" not in parts.query:
        raise HTTPException(422, "that is not an invitation link (it looks like .../join/GAME?token=...)")
    return RedirectResponse(f"{parts.path}?{parts.query}", status_code=303)


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
def log_page(request: Request, game: GameDep, session: SessionDep, service: ServiceDep,
             offset: int = 0, limit: int = 200) -> HTMLResponse:
    offset, limit = min(max(0, offset), 2**31 - 1), min(max(1, limit), 1000)
    return page(request, "log.html", game=game, page=service.log(session, game, offset, limit, reveal=False),
                extra="")
