"""The admin's list of every game: sorted, filtered and searched by the columns of the
games table (``Listed`` keeps them with every append, the clock its deadline), a page
at a time.  Nothing here replays a game."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from sqlalchemy import ColumnElement, Select, and_, func, or_, select
from sqlalchemy.orm import Session, selectinload

from app.models import Game, Seat
from engine.games import GAMES

# what the list calls a game's status, as a condition on its columns (``now``: seconds since the epoch)
STATUSES = ("playing", "waiting", "claimable", "finished")
STATUS_WORDS = {"playing": "playing", "waiting": "waiting for a join", "claimable": "claimable (time is up)",
                "finished": "finished"}  # each, as the admin's pages say it
SORTS: dict[str, Any] = {
    "last_move": Game.updated_at, "created": Game.created_at, "id": Game.id, "title": Game.title,
    "game": Game.game, "scenario": Game.scenario, "turn": Game.turn_no, "phase": Game.phase,
    "to_move": Game.to_move, "clock": Game.deadline_ts, "status": Game.status, "winner": Game.winner,
}
MAX_LIMIT = 500


@dataclass
class GameQuery:
    """What the admin asks of the list: each filter "" for any."""
    q: str = ""  # a game id, or part of a player's address or name, or of the title
    game: str = ""
    scenario: str = ""
    status: str = ""  # one of STATUSES
    to_move: str = ""  # a side that decides now
    turn: str = ""  # a turn number
    phase: str = ""
    winner: str = ""
    sort: str = "last_move"
    desc: bool = True
    offset: int = 0
    limit: int = 50
    limit_asked: bool = True  # False: the page's own size, left out of its links

    def __post_init__(self) -> None:
        self.q = self.q.strip()[:254]
        self.offset = min(max(0, self.offset), 2**31 - 1)
        self.limit = min(max(1, self.limit), MAX_LIMIT)
        if self.sort not in SORTS:
            self.sort = "last_move"

    def link(self, **changed: Any) -> str:
        """This query's address with ``changed`` (for the page's sort and page links)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "limit_asked"} | changed
        default = GameQuery()
        kept = {k: (int(v) if isinstance(v, bool) else v) for k, v in values.items()
                if v != getattr(default, k) and (k != "limit" or self.limit_asked)}
        return "?" + urlencode(kept)


@dataclass
class GameLine:
    """One game as the list shows it."""
    game: Game
    status: str  # one of STATUSES
    deadline: datetime | None

    @property
    def players(self) -> list[Seat]:
        return list(self.game.seats)


def status_of(game: Game, now: datetime) -> str:
    if game.status == "finished":
        return "finished"
    if game.status == "waiting":
        return "waiting"
    return "claimable" if game.deadline_ts is not None and game.deadline_ts <= now.timestamp() else "playing"


def _status_is(status: str, now: int) -> ColumnElement[bool]:
    overdue = and_(Game.deadline_ts.is_not(None), Game.deadline_ts <= now)
    return {"playing": and_(Game.status == "active", ~overdue), "waiting": Game.status == "waiting",
            "claimable": and_(Game.status == "active", overdue),
            "finished": Game.status == "finished"}[status]


def _like(text: str) -> str:
    escaped = text.lower().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _filtered(query: GameQuery, now: datetime) -> Select[Any]:
    stmt = select(Game)
    exact = {"game": Game.game, "scenario": Game.scenario, "phase": Game.phase, "winner": Game.winner}
    for name, column in exact.items():
        if getattr(query, name):
            stmt = stmt.where(column == getattr(query, name))
    if query.to_move:  # one side of "A" or "A,B"
        stmt = stmt.where(or_(Game.to_move == query.to_move, Game.to_move.like(f"{query.to_move},%"),
                              Game.to_move.like(f"%,{query.to_move}")))
    if query.turn.strip().isdigit():
        stmt = stmt.where(Game.turn_no == int(query.turn))
    if query.status in STATUSES:
        stmt = stmt.where(_status_is(query.status, int(now.timestamp())))
    if query.q:
        pattern = _like(query.q)
        player = select(Seat.id).where(Seat.game_id == Game.id, or_(
            func.lower(Seat.email).like(pattern, escape="\\"),
            func.lower(Seat.display_name).like(pattern, escape="\\"))).exists()
        stmt = stmt.where(or_(Game.id == query.q, func.lower(Game.title).like(pattern, escape="\\"), player))
    return stmt


def list_games(session: Session, query: GameQuery, now: datetime | None = None) -> tuple[int, list[GameLine]]:
    """How many games match, and the page of them ``query`` asks for, with their seats."""
    now = now or datetime.now(UTC)
    stmt = _filtered(query, now)
    total = session.scalar(select(func.count()).select_from(stmt.subquery())) or 0
    column = SORTS[query.sort]
    order = column.desc() if query.desc else column.asc()
    # nulls last either way (games without a clock, unfinished games without a winner), then by id
    rows = session.scalars(stmt.options(selectinload(Game.seats))
                           .order_by(column.is_(None), order, Game.id).offset(query.offset).limit(query.limit))
    return total, [GameLine(g, status_of(g, now), deadline_of(g)) for g in rows]


def deadline_of(game: Game) -> datetime | None:
    if game.status != "active" or game.deadline_ts is None:
        return None
    return datetime.fromtimestamp(game.deadline_ts, UTC)


def choices(session: Session) -> dict[str, list[str]]:
    """The values the list's filters offer: those the games hold, and every game's sides."""
    out = {"to_move": sorted({side for rules in GAMES.values() for side in rules.sides}),
           "status": list(STATUSES)}
    for name, column in {"game": Game.game, "scenario": Game.scenario, "phase": Game.phase}.items():
        out[name] = [v for v in session.scalars(select(column).distinct().order_by(column)) if v]
    return out
