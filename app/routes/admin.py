"""Admin JSON endpoints: every game, its full log, verification and export."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query

from app import store
from app.deps import AdminDep, GameDep, ServiceDep, SessionDep, SettingsDep
from app.errors import responses
from app.json_route import StrictJSONRoute
from app.routes.api import export_response, seat_link
from app.schemas import (
    AuditEntry,
    AuditPage,
    GamePage,
    GameSummary,
    HistoryPage,
    LogPage,
    MailOut,
    MailPage,
    RewindIn,
    RulingIn,
    RulingOut,
    SeatLink,
    SideFiguresOut,
    VerifyOut,
)
from app.services import admin_rulings, game_list, referee
from app.services.clock import ClockError
from app.services.game_list import GameLine, GameQuery
from app.store import StaleSequence
from engine.core.errors import RuleError
from engine.games import get_rules

router = APIRouter(prefix="/api/admin", tags=["admin"], route_class=StrictJSONRoute,
                   responses=responses(401, 403, 422, 429))
GAME = responses(404)


def game_query(q: str = Query("", max_length=254), game: str = Query("", max_length=40),
               scenario: str = Query("", max_length=40), status: str = Query("", max_length=16),
               to_move: str = Query("", max_length=16), turn: str = Query("", max_length=6),
               phase: str = Query("", max_length=80), winner: str = Query("", max_length=16),
               sort: str = Query("last_move", max_length=16), desc: bool = True,
               offset: int = Query(0, ge=0, le=2**31 - 1), limit: int = Query(50, ge=1, le=500)) -> GameQuery:
    """The list's query from the address (the admin page's and the API's alike)."""
    return GameQuery(q=q, game=game, scenario=scenario, status=status, to_move=to_move, turn=turn, phase=phase,
                     winner=winner, sort=sort, desc=desc, offset=offset, limit=limit)


def history_query(kind: str = Query("", max_length=16), side: str = Query("", max_length=16),
                  turn: str = Query("", max_length=6), offset: int = Query(0, ge=0, le=2**31 - 1),
                  limit: int = Query(500, ge=1, le=5000)) -> referee.Query:
    """A search of one game's history from the address (``kind``: one of ``referee.KINDS``)."""
    return referee.Query(kind=kind, side=side, turn=turn, offset=offset, limit=limit)


def summary(line: GameLine) -> GameSummary:
    game = line.game
    return GameSummary(game_id=game.id, game=game.game, title=game.title, scenario=game.scenario, status=game.status,
                       seq=game.seq, result=game.result, created_at=game.created_at.isoformat(),
                       updated_at=game.updated_at.isoformat(), options=game.options or {}, state=line.status,
                       turn=game.turn_no, turn_name=game.turn_name, phase=game.phase,
                       to_move=[s for s in game.to_move.split(",") if s], last_move_at=game.updated_at.isoformat(),
                       clock=None if game.move_days is None else {
                           "days_per_decision": game.move_days, "deciding": game.decision_side,
                           "deadline": line.deadline.isoformat() if line.deadline else None},
                       seats=[{"side": s.side, "name": s.display_name, "email": s.email,
                               "joined": s.joined_at is not None} for s in game.seats])


@router.get("/games", response_model=GamePage)
def all_games(admin: AdminDep, session: SessionDep, service: ServiceDep,
              query: Annotated[GameQuery, Depends(game_query)]) -> Any:
    """Every game, the most recently changed first, a page at a time; sorted (``sort``, ``desc``) and
    filtered by each column, and searched (``q``) by game id, title, or a player's address or name."""
    total, lines = game_list.list_games(session, query, service.now())
    return GamePage(total=total, offset=query.offset, limit=query.limit, items=[summary(g) for g in lines])


@router.get("/games/{game_id}/log", response_model=LogPage, responses=GAME)
def full_log(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
             offset: int = Query(0, ge=0, le=2**31 - 1), limit: int = Query(500, ge=1, le=5000)) -> Any:
    return service.log(session, game, offset, limit, reveal=True)


@router.get("/games/{game_id}/history", response_model=HistoryPage, responses=GAME)
def history(admin: AdminDep, game: GameDep, session: SessionDep,
            query: Annotated[referee.Query, Depends(history_query)]) -> Any:
    """The game's history found by ``kind`` (command, dice, takeback, clock, chat, mail, admin), ``side``
    and ``turn``: each line with the moment it belongs to (``/admin/games/{id}/at/{moment}``)."""
    total, lines = referee.find(session, game, query)
    return {"total": total, "offset": query.offset, "limit": query.limit, "items": [line_out(x) for x in lines]}


def line_out(line: referee.Line) -> dict[str, Any]:
    return {"kind": line.kind, "kinds": sorted(line.kinds), "at": line.at.isoformat(), "moment": line.moment,
            "seq": line.seq, "type": line.type, "side": line.side, "actor": line.actor, "turn": line.turn,
            "text": line.text, "data": line.data, "struck_by": line.struck_by, "strikes": line.strikes,
            "rolls": [{"value": r.value, "event_no": r.event_no, "index": r.index} for r in line.rolls]}


@router.get("/games/{game_id}/figures", response_model=list[SideFiguresOut], responses=GAME)
def figures(admin: AdminDep, game: GameDep, session: SessionDep) -> Any:
    """Per side: its rolls by face against a fair die's (chi-square and its p-value), its take-backs and
    the events they struck, and the time it took per move (seconds)."""
    return [{"side": f.side, "rolls": f.dice.total, "counts": f.dice.counts, "expected": f.dice.expected,
             "chi2": f.dice.chi2, "p_value": f.dice.p_value, "takebacks": f.takebacks, "struck": f.struck,
             "moves": f.moves, "median_seconds_per_move": f.median_s, "longest_seconds": f.longest_s}
            for f in referee.figures(session, game, get_rules(game.game).sides)]


@router.post("/games/{game_id}/rulings", response_model=RulingOut, responses=responses(404, 409))
def rule(body: RulingIn, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    """Rule without rewriting history: a note, or hours given to (negative: taken from) the running
    decision's clock, with a reason; appended to the log as a ``ruling`` event with the admin's name (both
    players read it), and recorded in the admin audit.  409: no clock running, or the game moved meanwhile."""
    try:
        seq = admin_rulings.rule(session, service, game, admin, body.reason, body.note, body.clock_hours)
    except RuleError as exc:
        raise HTTPException(422, str(exc)) from None
    except (ClockError, StaleSequence) as exc:
        raise HTTPException(409, str(exc)) from None
    return RulingOut(game_id=game.id, seq=seq)


@router.post("/games/{game_id}/rewind", response_model=RulingOut, responses=responses(404, 409))
def rewind(body: RewindIn, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    """Rule without rewriting history: back to moment ``to`` (the moment before a command), every event
    after it struck, never deleted, with a reason; appended to the log as a ``rewound`` event with the
    admin's name (both players read it), and recorded in the admin audit.  409: the game moved meanwhile."""
    try:
        seq = admin_rulings.rewind(session, service, game, admin, body.reason, body.to, body.agreed)
    except RuleError as exc:
        raise HTTPException(422, str(exc)) from None
    except StaleSequence as exc:
        raise HTTPException(409, str(exc)) from None
    return RulingOut(game_id=game.id, seq=seq)


@router.post("/games/{game_id}/verify", response_model=VerifyOut, responses=GAME)
def verify(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    """Replay the game from scratch, re-deciding every command; name the first event the engine rejects."""
    v = service.verify(session, game)
    return VerifyOut(ok=v.ok, events=v.events, bad_seq=v.bad_seq, message=v.message)


@router.get("/games/{game_id}/export", responses={**GAME, 200: {"description": "the export file (JSON)"}})
def export(admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep) -> Any:
    return export_response(service.export(session, game), game.id)


@router.post("/games/{game_id}/seats/{side}/new-link", response_model=SeatLink, responses=responses(404, 409))
def new_seat_link(side: str, admin: AdminDep, game: GameDep, session: SessionDep, service: ServiceDep,
                  settings: SettingsDep) -> Any:
    """Issue a new private link for a player who lost theirs (the old one stops working).
    Recorded in the admin audit; send the link to the player yourself."""
    if side not in get_rules(game.game).sides:
        raise HTTPException(404, f"no side {side} in this game")
    try:
        token = service.new_seat_link(session, game, side, admin=admin)
    except PermissionError as exc:
        raise HTTPException(409, str(exc)) from None
    return SeatLink(game_id=game.id, side=side, token=token, play_url=seat_link(settings.base_url, game.id, token))


@router.get("/audit", response_model=AuditPage)
def audit(admin: AdminDep, session: SessionDep, offset: int = Query(0, ge=0, le=2**31 - 1),
          limit: int = Query(50, ge=1, le=500)) -> Any:
    """What admins did to games and seats, the newest first."""
    total, rows = store.list_audit(session, offset, limit)
    return AuditPage(total=total, offset=offset, limit=limit, items=[audit_entry(r) for r in rows])


def audit_entry(row: Any) -> AuditEntry:
    return AuditEntry(id=row.id, at=row.at.isoformat(), admin=row.admin, action=row.action, game_id=row.game_id,
                      detail=row.detail)


@router.get("/outbox", response_model=MailPage)
def outbox(admin: AdminDep, session: SessionDep, offset: int = Query(0, ge=0, le=2**31 - 1),
           limit: int = Query(50, ge=1, le=500)) -> Any:
    """Every mail the server wrote, the newest first: sent, waiting, or held (no SMTP server)."""
    total, rows = store.list_mail(session, offset, limit)
    return MailPage(total=total, offset=offset, limit=limit, items=[mail_out(m) for m in rows])


def mail_out(m: Any) -> MailOut:
    return MailOut(id=m.id, created_at=m.created_at.isoformat(), not_before=m.not_before.isoformat(), kind=m.kind,
                   game_id=m.game_id, side=m.side, to=m.to_addr, subject=m.subject, body=m.body, status=m.status,
                   attempts=m.attempts, last_error=m.last_error)
