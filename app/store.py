"""Reading and appending the event log (no rules here)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.models import EventRow, Game, Seat, Snapshot, utcnow
from engine.core.events import Command, Event
from engine.core.verify import LogEntry


class StaleSequence(Exception):
    def __init__(self, current: int) -> None:
        super().__init__(f"the game has moved on: its log now holds {current} events")
        self.current = current


def get_game(session: Session, game_id: str) -> Game | None:
    return session.get(Game, game_id)


def game_and_seat(session: Session, game_id: str, token_hash: str) -> tuple[Game | None, Seat | None]:
    row = session.execute(select(Game, Seat).outerjoin(Seat, and_(Seat.game_id == Game.id,
                                                                  Seat.token_hash == token_hash))
                          .where(Game.id == game_id)).first()
    return (None, None) if row is None else (row[0], row[1])


def seat_by_token_hash(session: Session, game_id: str, token_hash: str) -> Seat | None:
    return session.scalar(select(Seat).where(Seat.game_id == game_id, Seat.token_hash == token_hash))


def load_events(session: Session, game_id: str, after: int = -1) -> list[Event]:
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq > after)
                           .order_by(EventRow.seq))
    return [Event(r.type, r.payload, r.side) for r in rows]


def load_entries(session: Session, game_id: str) -> list[LogEntry]:
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq))
    return [LogEntry(Event(r.type, r.payload, r.side), None if r.command is None else Command.from_json(r.command))
            for r in rows]


def page_events(session: Session, game_id: str, offset: int, limit: int) -> tuple[int, list[EventRow]]:
    total = session.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id)) or 0
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                           .offset(offset).limit(limit))
    return total, list(rows)


def append(session: Session, game: Game, expected_seq: int, events: list[Event], texts: list[str | None],
           actor: str | None, command: Command | None, status: str | None,
           result: dict[str, Any] | None) -> int:
    """Append a batch after ``expected_seq`` events, or raise ``StaleSequence``.

    The conditional UPDATE is the optimistic lock: of several writers based on
    the same sequence number exactly one changes the row; the (game_id, seq)
    primary key guards the log itself."""
    new_seq = expected_seq + len(events)
    now = utcnow()
    values: dict[str, Any] = {"seq": new_seq, "result": result, "updated_at": now}
    if status is not None:
        values["status"] = status
    done = session.execute(
        update(Game).where(Game.id == game.id, Game.seq == expected_seq)
        .values(**values).execution_options(synchronize_session=False))
    if done.rowcount != 1:
        session.rollback()
        raise StaleSequence(current_seq(session, game.id))
    for key, value in values.items():  # the row as written, without reading it back
        set_committed_value(game, key, value)
    # one multi-row INSERT (no unit of work: these rows are never read back in this session)
    session.execute(insert(EventRow), [
        {"game_id": game.id, "seq": expected_seq + i, "type": event.type, "payload": event.data,
         "side": event.side, "actor": actor, "text": text, "created_at": now,
         "command": command.to_json() if (command is not None and i == 0) else None}
        for i, (event, text) in enumerate(zip(events, texts, strict=True))])
    return new_seq


def current_seq(session: Session, game_id: str) -> int:
    seq = session.scalar(select(Game.seq).where(Game.id == game_id))
    return -1 if seq is None else seq


def load_snapshot(session: Session, game_id: str) -> Snapshot | None:
    return session.get(Snapshot, game_id)


def save_snapshot(session: Session, game_id: str, seq: int, state: dict[str, Any]) -> None:
    snap = session.get(Snapshot, game_id)
    if snap is None:
        session.add(Snapshot(game_id=game_id, seq=seq, state=state, updated_at=utcnow()))
    else:
        snap.seq, snap.state, snap.updated_at = seq, state, utcnow()


def list_games(session: Session, offset: int = 0, limit: int = 50) -> tuple[int, list[Game]]:
    """A page of games, the most recently changed first, and how many there are."""
    total = session.scalar(select(func.count()).select_from(Game)) or 0
    rows = session.scalars(select(Game).order_by(Game.updated_at.desc(), Game.id).offset(offset).limit(limit))
    return total, list(rows)


def mark_joined(seat: Seat, name: str) -> None:
    seat.display_name = name or seat.display_name
    seat.joined_at = utcnow()


def claim_seat(session: Session, seat: Seat, invite_hash: str, secret_hash: str, name: str) -> bool:
    """Take a seat with its invitation, once: of several joins racing with the same
    invitation exactly one changes the row (the others find it taken)."""
    values: dict[str, Any] = {"token_hash": secret_hash, "joined_at": utcnow()}
    if name:
        values["display_name"] = name
    done = session.execute(update(Seat).where(Seat.id == seat.id, Seat.token_hash == invite_hash,
                                              Seat.joined_at.is_(None)).values(**values))
    return done.rowcount == 1
