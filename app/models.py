"""Tables (SQLAlchemy 2).  Alembic migrations in ``migrations/`` are the only
source of the schema; a test checks that they and these models agree."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

JsonType = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "games"
    # the admin's list of games (app/services/game_list.py): its default order and its filters
    __table_args__ = (Index("ix_games_updated_at", "updated_at"),
                      Index("ix_games_status_updated_at", "status", "updated_at"),
                      Index("ix_games_game_scenario", "game", "scenario"),
                      Index("ix_games_to_move", "to_move"),
                      Index("ix_games_deadline_ts", "deadline_ts"))

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))  # engine game id, e.g. "first_blood"
    scenario: Mapped[str] = mapped_column(String(40))
    title: Mapped[str] = mapped_column(String(120), default="", server_default="")  # the creator's note
    options: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    status: Mapped[str] = mapped_column(String(16), default="waiting")  # waiting | active | finished
    seq: Mapped[int] = mapped_column(Integer, default=0)  # events in the log; the concurrency check
    dice_secret: Mapped[str] = mapped_column(String(128))
    result: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # time control (app/services/clock.py): none when move_days is null
    move_days: Mapped[int | None] = mapped_column(Integer, nullable=True)  # days per decision
    vacation_days: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # per player, per game
    decision_side: Mapped[str | None] = mapped_column(String(16), nullable=True)  # whose decision it is
    decision_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # handed over
    decision_extra: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # seconds granted
    clock_noted: Mapped[str] = mapped_column(String(16), default="", server_default="")  # "", reminded, overdue
    # when the running decision's time is up, in seconds since the epoch (null: no clock
    # running): kept with the clock's columns, so that the admin's list finds claimable games
    deadline_ts: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    # where the game stands, written with every append (the admin's list reads, never replays)
    turn_no: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    turn_name: Mapped[str] = mapped_column(String(60), default="", server_default="")
    phase: Mapped[str] = mapped_column(String(80), default="", server_default="")
    to_move: Mapped[str] = mapped_column(String(40), default="", server_default="")  # sides deciding, "A,B"
    winner: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # the game's record as a hash chain (app/services/record.py): 0 for a game made before it
    # (no chain), else the version a new game gets; its salt (secret until the game is over),
    # how many entries it holds and the last one's hash (the optimistic lock checks it too)
    record_version: Mapped[int] = mapped_column(Integer, default=1, server_default="0")
    record_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    record_seq: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    record_head: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # record version 2's dice (app/services/dice_keys.py): the top seeds of the open and hidden
    # chains (the server's secret until published), the period of the last decision and the
    # turn it started in
    dice_tops: Mapped[str | None] = mapped_column(String(128), nullable=True)
    dice_period: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    dice_turn: Mapped[int | None] = mapped_column(Integer, nullable=True)

    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.side")


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "side", name="uq_seats_game_side"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the seat secret
    display_name: Mapped[str] = mapped_column(String(80), default="")
    joined_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, index=True)  # mails; signing in
    notify: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())  # off: unsubscribed
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    chat_read: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # newest chat id read
    chat_public: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # spectators may read
    webhook_url: Mapped[str | None] = mapped_column(String(254), nullable=True)  # notices POSTed as JSON
    vacation_left: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # seconds still to take
    vacation_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    computer: Mapped[str | None] = mapped_column(String(20), nullable=True)  # the computer's level; None: a person
    # its part of the dice (record version 2): hidden from the other side until both are in;
    # entropy_by "player", or "server" when the seat gave none before the first command
    entropy: Mapped[str | None] = mapped_column(String(200), nullable=True)
    entropy_by: Mapped[str | None] = mapped_column(String(16), nullable=True)

    game: Mapped[Game] = relationship(back_populates="seats")


class ChatMessage(Base):
    """A chat line between the two players (app/services/chat.py)."""
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    side: Mapped[str] = mapped_column(String(16))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    record_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its place in the game's record
    record_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # its entry's hash there


class ClockAct(Base):
    """A player's act on the clock, for the admins' history of a game (the log holds a claim
    on time; vacations and time granted change only the game's clock columns)."""
    __tablename__ = "clock_acts"
    __table_args__ = (Index("ix_clock_acts_game_id_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    side: Mapped[str] = mapped_column(String(16))  # who acted
    action: Mapped[str] = mapped_column(String(16))  # vacation | grant
    days: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)  # the log's length then: the moment it belongs to
    record_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its place in the game's record
    record_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)  # its entry's hash there


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)  # unique with game_id: no gap, no fork
    type: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JsonType)
    side: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the side the event concerns
    actor: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the seat whose command caused it
    command: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)  # on a batch's first event
    text: Mapped[str | None] = mapped_column(Text, nullable=True)  # the log line
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # its entry in the game's record (null in a game of record version 0): its place and hash,
    # and on a batch's first event the hash of its command's entry (the place before it)
    record_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    command_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # record version 2: its decision's dice key ([chain, period]), the turn the decision started
    # in, and the rolls made while this event was next ([event, index, sides, value])
    dice: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)


class RecordEntry(Base):
    """An entry of a game's record that has no row of its own elsewhere: an entropy
    commitment or reveal, a published seed, the record's salt (app/services/record.py)."""

    __tablename__ = "record_entries"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    record_seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JsonType)
    record_hash: Mapped[str] = mapped_column(String(64))


class Snapshot(Base):
    """A disposable cache of a game's state after ``seq`` events: the engine's JSON of
    it, compressed (``app.store.snapshot_state`` reads it)."""

    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    state: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RateHit(Base):
    """One counted request of a rate limit's moving window (app/rate_store.py): shared by
    every worker and host; rows older than the longest window are purged."""

    __tablename__ = "rate_hits"
    __table_args__ = (Index("ix_rate_hits_key_at", "key", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(255))  # the limit and what it counts (an address, an e-mail)
    at: Mapped[float] = mapped_column(Float)  # seconds since the epoch


class AdminAudit(Base):
    """One thing an admin did to a game or a seat (never a secret: the new link itself is not kept)."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    admin: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(40))  # e.g. "new_seat_link"
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    detail: Mapped[dict[str, Any]] = mapped_column(JsonType, default=dict)
    # its entry in the game's record (app/services/record.py), if the game has one: place and hash
    record_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    record_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class Mail(Base):
    """One mail, written in the transaction that caused it and sent from here (or, with
    no SMTP server configured, kept here for the admins: never dropped)."""

    __tablename__ = "mail_outbox"
    __table_args__ = (UniqueConstraint("dedupe", name="uq_mail_outbox_dedupe"),
                      Index("ix_mail_outbox_due", "status", "not_before"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    not_before: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    kind: Mapped[str] = mapped_column(String(24))  # your_move | game_over | chat | signin; "hook:..." a webhook
    dedupe: Mapped[str] = mapped_column(String(120))  # one mail per handover, never one per event
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    side: Mapped[str | None] = mapped_column(String(16), nullable=True)
    game_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the log's length when it was written
    to_addr: Mapped[str] = mapped_column(String(254))  # an e-mail address, or a webhook's URL
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default="queued")  # queued|sending|sent|held|skipped|failed
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SigninLink(Base):
    """A one-time sign-in link sent by e-mail (its secret kept only as a hash)."""

    __tablename__ = "signin_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PlayerSession(Base):
    """A browser signed in as the player with this address: it may act in every seat
    that has the address (its secret, in a signed cookie, kept only as a hash)."""

    __tablename__ = "player_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
