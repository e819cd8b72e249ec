"""Chat between the two players of a game: written, read, counted as unread, and shown
to spectators only while both players allow it.  Every line is stored as typed and
escaped wherever it is shown (Jinja2 autoescaping; JSON answers carry it as data)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from app.models import ChatMessage, Game, Seat, utcnow
from app.services import record
from app.services.notices import Notices
from app.store import LIVE_CHANNEL, NOTIFY, chain_entry, set_seat
from app.text import BadText, check_message

MAX_CHARS = 1000  # one message
PAGE = 200  # the newest messages shown


@dataclass
class Line:
    id: int
    side: str
    name: str
    text: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "name": self.name, "text": self.text, "at": self.at.isoformat()}


class Chat:
    def __init__(self, notices: Notices | None = None) -> None:
        self.notices = notices  # mails a message to an opponent who does not read it in time
        self.on_chat: Callable[[str, int], None] | None = None  # told after each message is written

    @staticmethod
    def check(text_: str) -> str:
        """The message as it will be stored, or BadText saying what is wrong with it."""
        message = check_message(text_).strip()
        if not message:
            raise BadText("the message is empty")
        if len(message) > MAX_CHARS:
            raise BadText(f"a message holds at most {MAX_CHARS} characters")
        return message

    def post(self, session: Session, game: Game, seat: Seat, text_: str) -> Line:
        """Write a message from ``seat``; it counts as read by its writer."""
        message = self.check(text_)
        now = utcnow()
        place, hash_ = chain_entry(session, game.id, lambda seq, chain: record.chat_entry(
            seat.side, message, now, seq, chain.sides))  # the record's next entry (app/services/record.py)
        row = ChatMessage(game_id=game.id, side=seat.side, text=message, created_at=now, record_seq=place,
                          record_hash=hash_)
        session.add(row)
        session.flush()
        # read by its writer: the mark only moves forward (a later message may be read already)
        session.execute(update(Seat).where(Seat.id == seat.id, Seat.chat_read < row.id).values(chat_read=row.id)
                        .execution_options(synchronize_session=False))
        set_committed_value(seat, "chat_read", max(seat.chat_read, row.id))
        name = _names(game).get(seat.side, "")
        if self.notices is not None:  # in the same transaction
            self.notices.after_chat(session, game.id, seat.side, name, row.id, message)
        if session.get_bind().dialect.name == "postgresql":  # every worker's streams hear of it on commit
            session.execute(NOTIFY, {"channel": LIVE_CHANNEL, "payload": f"{game.id}:chat:{row.id}"})
        session.commit()
        if self.on_chat is not None:
            self.on_chat(game.id, row.id)
        return Line(row.id, row.side, name, row.text, row.created_at)

    @staticmethod
    def may_read(game: Game, seat: Seat | None) -> bool:
        """Players always; spectators only while every seated player allows it."""
        if seat is not None:
            return True
        seated = [s for s in game.seats if s.joined_at is not None]
        return bool(seated) and all(s.chat_public for s in seated)

    def lines(self, session: Session, game: Game) -> list[Line]:
        """The newest messages, oldest first."""
        rows = session.scalars(select(ChatMessage).where(ChatMessage.game_id == game.id)
                               .order_by(ChatMessage.id.desc()).limit(PAGE)).all()
        names = _names(game)
        return [Line(r.id, r.side, names.get(r.side, ""), r.text, r.created_at) for r in reversed(rows)]

    @staticmethod
    def newest(session: Session, game_id: str) -> int:
        return session.scalar(select(func.max(ChatMessage.id)).where(ChatMessage.game_id == game_id)) or 0

    @staticmethod
    def unread(session: Session, seat: Seat) -> int:
        """Messages from the other side that ``seat`` has not read."""
        return session.scalar(select(func.count()).select_from(ChatMessage).where(
            ChatMessage.game_id == seat.game_id, ChatMessage.side != seat.side,
            ChatMessage.id > seat.chat_read)) or 0

    def mark_read(self, session: Session, seat: Seat) -> None:
        newest = self.newest(session, seat.game_id)
        if newest > seat.chat_read:
            session.execute(update(Seat).where(Seat.id == seat.id, Seat.chat_read < newest).values(chat_read=newest))
            seat.chat_read = newest
            session.commit()

    @staticmethod
    def set_public(session: Session, seat: Seat, allow: bool) -> None:
        set_seat(session, seat, chat_public=allow)
        session.commit()


def _names(game: Game) -> dict[str, str]:
    return {s.side: s.display_name or s.side for s in game.seats}
