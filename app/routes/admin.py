"""Admin JSON endpoints: every game, its full log, verification and export."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app import store
from app.deps import AdminDep, GameDep, ServiceDep, SessionDep
from app.errors import responses
from app.json_route import StrictJSONRoute
from app.routes.api import export_response
from app.schemas import GamePage, GameSummary, LogPage, VerifyOut

router = APIRouter(prefix="/api/admin", tags=["admin"], route_class=StrictJSONRoute,
                   responses=responses(401, 403, 422, 429))
GAME = responses(404)


def summary(game: Any) -> GameSummary:
    return GameSummary(game_id=game.id, game=game.game, title=game.title, scenario=game.scenario, status=game.status,
                       seq=game.seq, result=game.result, created_at=game.created_at.isoformat(),
                       updated_at=game.updated_at.isoformat(),
                       seats=[{"side": s.side, "name": s.display_name, "joined": s.joined_at is not None}
                              for s in game.seats])


@router.get("/games", response_model=GamePage)
def all_games(admin: AdminDep, session: SessionDep, offset: int = Query(0, ge=0, le=2**31 - 1),
              limit: int = Query(50, ge=1, le=500)) -> Any:
    """Every game, the most recently changed first, a page at a time."""
    total, games = store.list_games(session, offset, limit)
    return GamePage(total=total, offset=offset, limit=limit, items=[summary(g) for g in games])


@router.get("/games/{game_id}/log", response_model=LogPage, responses=GAME)
def full_log(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
             offset: int = Query(0, ge=0, le=2**31 - 1), limit: int = Query(500, ge=1, le=5000)) -> Any:
    return service.log(session, game, offset, limit, reveal=True)


@router.post("/games/{game_id}/verify", response_model=VerifyOut, responses=GAME)
def verify(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    """Replay the game from scratch, re-deciding every command; name the first event the engine rejects."""
    v = service.verify(session, game)
    return VerifyOut(ok=v.ok, events=v.events, bad_seq=v.bad_seq, message=v.message)


@router.get("/games/{game_id}/export", responses={**GAME, 200: {"description": "the export file (JSON)"}})
def export(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    return export_response(service.export(session, game), game.id)
