"""Admin JSON endpoints: every game, its full log, verification and export."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from app import store
from app.deps import AdminDep, GameDep, ServiceDep, SessionDep
from app.routes.api import export_response
from app.schemas import GameSummary, LogPage, VerifyOut

router = APIRouter(prefix="/api/admin", tags=["admin"])


def summary(game: Any) -> GameSummary:
    return GameSummary(game_id=game.id, game=game.game, title=game.title, scenario=game.scenario, status=game.status,
                       seq=game.seq, result=game.result, created_at=game.created_at.isoformat(),
                       updated_at=game.updated_at.isoformat(),
                       seats=[{"side": s.side, "name": s.display_name, "joined": s.joined_at is not None}
                              for s in game.seats])


@router.get("/games", response_model=list[GameSummary])
def all_games(admin: AdminDep, session: SessionDep) -> Any:
    return [summary(g) for g in store.list_games(session)]


@router.get("/games/{game_id}/log", response_model=LogPage)
def full_log(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
             offset: int = Query(0, ge=0, le=2**31 - 1), limit: int = Query(500, ge=1, le=5000)) -> Any:
    return service.log(session, game, offset, limit, reveal=True)


@router.post("/games/{game_id}/verify", response_model=VerifyOut)
def verify(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    """Replay the game from scratch, re-deciding every command; name the first event the engine rejects."""
    v = service.verify(session, game)
    return VerifyOut(ok=v.ok, events=v.events, bad_seq=v.bad_seq, message=v.message)


@router.get("/games/{game_id}/export")
def export(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    return export_response(service.export(session, game), game.id)
