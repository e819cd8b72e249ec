"""Admin pages (HTML): every game, its full log, verification and export."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import store
from app.deps import AdminDep, GameDep, ServiceDep, SessionDep, SettingsDep, same_origin
from app.routes.admin import game_query, history_query
from app.routes.api import seat_link
from app.routes.pages import page
from app.services import admin_rulings, game_list, referee
from app.services.admin_moments import admin_moment
from app.services.clock import ClockError
from app.services.game_list import GameQuery
from app.store import StaleSequence
from engine.core.errors import RuleError
from engine.core.rulings import MAX_CLOCK_HOURS
from engine.games import game_ids, get_rules

ACTIONS = {"new_seat_link": "issued a new seat link", "ruling": "ruled (written into the game's log)",
           "rewind": "rewound (written into the game's log)"}

router = APIRouter(prefix="/admin", include_in_schema=False, dependencies=[Depends(same_origin)])


@router.get("", response_class=HTMLResponse)
def games(request: Request, admin: AdminDep, session: SessionDep, service: ServiceDep,
          settings: SettingsDep, query: Annotated[GameQuery, Depends(game_query)]) -> HTMLResponse:
    if "limit" not in request.query_params:
        query.limit, query.limit_asked = settings.page_size, False
    total, lines = game_list.list_games(session, query, service.now())
    return page(request, "admin/games.html", lines=lines, total=total, query=query, labels=game_list.STATUS_WORDS,
                choices=game_list.choices(session), titles={g: get_rules(g).title for g in game_ids()})


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game(request: Request, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
         query: Annotated[referee.Query, Depends(history_query)]) -> HTMLResponse:
    """The game, its history found by kind, side and turn (each line a link to its moment), its figures."""
    total, lines = referee.find(session, game, query)
    sides = get_rules(game.game).sides
    computer_only = {s.side for s in game.seats if store.computer_from_start(s)}  # no link to replace
    return page(request, "admin/game.html", game=game, lines=lines, total=total, query=query, sides=sides,
                computer_only=computer_only, kinds=referee.KINDS, figures=referee.figures(session, game, sides),
                status=game_list.STATUS_WORDS[game_list.status_of(game, service.now())])


@router.get("/games/{game_id}/at/{seq}", response_class=HTMLResponse)
def moment(request: Request, seq: int, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
           as_side: str = Query("", alias="as", max_length=16)) -> HTMLResponse:
    """The game after its first ``seq`` events with everything shown, or (``?as=<side>``) exactly
    as that side's own replay page shows it."""
    sides = get_rules(game.game).sides
    if as_side and as_side not in sides:
        raise HTTPException(404, f"no side {as_side} in this game")
    if not 0 <= seq <= game.seq:
        raise HTTPException(404, f"this game has {game.seq} events: moments 0 to {game.seq}")
    return page(request, "moment.html", **admin_moment(session, service, game, seq, as_side or None))


@router.post("/games/{game_id}/verify", response_class=HTMLResponse)
def verify(request: Request, admin: AdminDep, game: GameDep, session: SessionDep,
           service: ServiceDep) -> HTMLResponse:
    return page(request, "partials/verdict.html", v=service.verify(session, game))


@router.post("/games/{game_id}/rulings")
def rule(request: Request, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
         reason: str = Form("", max_length=1000), note: str = Form("", max_length=1000),
         clock_hours: int = Form(0, ge=-MAX_CLOCK_HOURS, le=MAX_CLOCK_HOURS)) -> Response:
    """A ruling (a note, a change of the running clock) written into the game's log."""
    try:
        admin_rulings.rule(session, service, game, admin, reason, note, clock_hours)
    except (RuleError, ClockError) as exc:
        raise HTTPException(422 if isinstance(exc, RuleError) else 409, str(exc)) from None
    except StaleSequence:
        raise HTTPException(409, "the game has just moved on: look again before ruling") from None
    return RedirectResponse(f"/admin/games/{game.id}#rulings", status_code=303)


@router.post("/games/{game_id}/rewind")
def rewind(request: Request, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
           to: int = Form(..., ge=0, le=2**31 - 1), reason: str = Form("", max_length=1000),
           agreed: bool = Form(False)) -> Response:
    """Back to moment ``to``: the events after it struck (never deleted), with a reason, in the log."""
    try:
        admin_rulings.rewind(session, service, game, admin, reason, to, agreed)
    except RuleError as exc:
        raise HTTPException(422, str(exc)) from None
    except StaleSequence:
        raise HTTPException(409, "the game has just moved on: look again before rewinding") from None
    return RedirectResponse(f"/admin/games/{game.id}#rulings", status_code=303)


@router.post("/games/{game_id}/seats/{side}/new-link", response_class=HTMLResponse)
def new_seat_link(request: Request, side: str, admin: AdminDep, game: GameDep, session: SessionDep,
                  service: ServiceDep, settings: SettingsDep, confirm: str = Form("")) -> HTMLResponse:
    if side not in get_rules(game.game).sides:
        raise HTTPException(404, f"no side {side} in this game")
    if confirm != "yes":
        raise HTTPException(422, "tick the box to confirm: the player's old link stops working at once")
    try:
        token = service.new_seat_link(session, game, side, admin=admin)
    except PermissionError as exc:
        raise HTTPException(409, str(exc)) from None
    return page(request, "admin/new_link.html", game=game, side=side, url=seat_link(settings.base_url, game.id, token))


@router.get("/audit", response_class=HTMLResponse)
def audit(request: Request, admin: AdminDep, session: SessionDep, settings: SettingsDep,
          offset: int = 0) -> HTMLResponse:
    offset, limit = min(max(0, offset), 2**31 - 1), settings.page_size
    total, rows = store.list_audit(session, offset, limit)
    return page(request, "admin/audit.html", rows=rows, total=total, offset=offset, limit=limit, ACTIONS=ACTIONS)


@router.get("/outbox", response_class=HTMLResponse)
def outbox(request: Request, admin: AdminDep, session: SessionDep, settings: SettingsDep,
           offset: int = 0) -> HTMLResponse:
    offset, limit = min(max(0, offset), 2**31 - 1), settings.page_size
    total, rows = store.list_mail(session, offset, limit)
    return page(request, "admin/outbox.html", rows=rows, total=total, offset=offset, limit=limit,
                smtp=bool(settings.smtp_url))
