"""Admin pages (HTML): every game, its full log, verification and export."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from app import store
from app.deps import AdminDep, GameDep, ServiceDep, SessionDep, SettingsDep, same_origin
from app.routes.pages import page

router = APIRouter(prefix="/admin", include_in_schema=False, dependencies=[Depends(same_origin)])


@router.get("", response_class=HTMLResponse)
def games(request: Request, admin: AdminDep, session: SessionDep, settings: SettingsDep,
          offset: int = 0) -> HTMLResponse:
    offset, limit = min(max(0, offset), 2**31 - 1), settings.page_size
    total, rows = store.list_games(session, offset, limit)
    return page(request, "admin/games.html", games=rows, total=total, offset=offset, limit=limit)


@router.get("/games/{game_id}", response_class=HTMLResponse)
def game(request: Request, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
         offset: int = 0, limit: int = 500) -> HTMLResponse:
    offset, limit = min(max(0, offset), 2**31 - 1), min(max(1, limit), 5000)
    return page(request, "admin/game.html", game=game, page=service.log(session, game, offset, limit, reveal=True))


@router.post("/games/{game_id}/verify", response_class=HTMLResponse)
def verify(request: Request, admin: AdminDep, game: GameDep, session: SessionDep,
           service: ServiceDep) -> HTMLResponse:
    return page(request, "partials/verdict.html", v=service.verify(session, game))
