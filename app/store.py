"""Reading and appending the event log (no rules here)."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from hmac import compare_digest
from typing import Any, TypeVar

import orjson
from sqlalchemy import LargeBinary, TextClause, Update, and_, bindparam, exists, func, insert, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import instance_dict, set_committed_value
from sqlalchemy.orm.util import identity_key

from app.models import AdminAudit, EventRow, Game, Mail, RecordEntry, Seat, Snapshot, utcnow
from app.services import dice_keys, record
from app.text import dump_json
from engine.core import rulings
from engine.core.events import Command, Event
from engine.core.verify import LogEntry
from engine.games import get_rules

T = TypeVar("T")


class StaleSequence(Exception):
    def __init__(self, current: int) -> None:
        super().__init__(f"the game has moved on: its log now holds {current} events")
        self.current = current


@dataclass
class GameHead:
    """The columns of a game row a command needs: all the JSON command route reads."""
    id: str
    game: str
    seq: int


# The command path's statements, built once: building and keying a statement per
# request, and loading ORM objects, cost more than the database's own work.
_games, _seats, _events = Game.__table__, Seat.__table__, EventRow.__table__
_record_entries = RecordEntry.__table__
_HEAD_AND_SEAT = (
    select(_games.c.id, _games.c.game, _games.c.seq, _seats.c.side, _seats.c.joined_at, _games.c.record_version,
           _games.c.record_salt, _games.c.record_seq, _games.c.record_head, _games.c.dice_period,
           _games.c.dice_turn)
    .outerjoin(_seats, and_(_seats.c.game_id == _games.c.id, _seats.c.token_hash == bindparam("token_hash")))
    .where(_games.c.id == bindparam("game_id")))
_SEAT_HOLDS_SECRET = exists().where(_seats.c.game_id == bindparam("game_id"), _seats.c.side == bindparam("side"),
                                    _seats.c.token_hash == bindparam("token_hash"), _seats.c.joined_at.is_not(None))
_INSERT_EVENTS = insert(_events)
_GAME_AND_SEATS = (select(Game, Seat).outerjoin(Seat, Seat.game_id == Game.id)
                   .where(Game.id == bindparam("game_id")).order_by(Seat.side))


# where the game stands after an append (``Listed``): columns of the games table written
# with every append, which the admin's list of games reads (app/services/game_list.py)
LISTED = ("turn_no", "turn_name", "phase", "to_move", "winner")


@dataclass(frozen=True)
class Listed:
    turn_no: int = 0
    turn_name: str = ""
    phase: str = ""
    to_move: str = ""  # the sides deciding now, comma-separated ("" once the game is over)
    winner: str | None = None

    def params(self) -> dict[str, Any]:
        return {"turn_no": self.turn_no, "turn_name": self.turn_name[:60], "phase": self.phase[:80],
                "to_move": self.to_move[:40], "winner": self.winner}


@cache
def _advance(with_status: bool, guarded: bool) -> Update:
    """UPDATE games: the optimistic lock (and, ``guarded``, the seat check) of an append."""
    where = [_games.c.id == bindparam("game_id"), _games.c.seq == bindparam("expected"),
             _games.c.record_head.is_not_distinct_from(bindparam("prev_head"))]
    values = {"seq": bindparam("new_seq"), "result": bindparam("new_result"), "updated_at": bindparam("now"),
              **{name: bindparam(name) for name in LISTED},
              "record_seq": func.coalesce(bindparam("record_seq"), _games.c.record_seq),
              "record_head": bindparam("record_head"),
              "record_salt": func.coalesce(bindparam("record_salt"), _games.c.record_salt),
              "dice_period": func.coalesce(bindparam("dice_period"), _games.c.dice_period),
              "dice_turn": func.coalesce(bindparam("dice_turn"), _games.c.dice_turn)}
    if with_status:
        values["status"] = bindparam("new_status")
    return update(_games).where(*where, *([_SEAT_HOLDS_SECRET] if guarded else [])).values(**values)


# the PostgreSQL NOTIFY channel of live updates (app/live.py): "game_id:seq", "game_id:chat:id"
# or "game_id:seats:taken"
LIVE_CHANNEL = "game_moved"
NOTIFY = text("SELECT pg_notify(:channel, :payload)")  # heard once the transaction commits
AUTOCOMMIT = "AUTOCOMMIT"  # SQLAlchemy's isolation level of a connection without transactions

# PostgreSQL: the lock, the seat check and the events in one statement, one round trip
# (the batch travels as one JSON array, so the text is the same for any batch size).
_ADVANCE_PG = """
advanced AS (
    UPDATE games SET seq = :new_seq, result = CAST(:new_result AS jsonb), updated_at = :now,
                     status = COALESCE(CAST(:new_status AS varchar), status),
                     turn_no = :turn_no, turn_name = :turn_name, phase = :phase, to_move = :to_move,
                     winner = :winner, record_seq = COALESCE(CAST(:record_seq AS integer), record_seq),
                     record_head = CAST(:record_head AS varchar),
                     record_salt = COALESCE(CAST(:record_salt AS varchar), record_salt),
                     dice_period = COALESCE(CAST(:dice_period AS integer), dice_period),
                     dice_turn = COALESCE(CAST(:dice_turn AS integer), dice_turn){clock}
    WHERE id = :game_id AND seq = :expected
      -- the record's chain (app/services/record.py): its head is the one the hashes follow
      AND record_head IS NOT DISTINCT FROM CAST(:prev_head AS varchar)
      AND (CAST(:token_hash AS varchar) IS NULL OR EXISTS (
          SELECT 1 FROM seats WHERE seats.game_id = :game_id AND seats.side = CAST(:side AS varchar)
                                AND seats.token_hash = CAST(:token_hash AS varchar)
                                AND seats.joined_at IS NOT NULL)){quiet}
    -- live updates (app/live.py): every worker's LISTEN hears of it once this commits
    RETURNING {columns}, pg_notify(:channel, id || ':' || CAST(:new_seq AS text)))"""
_INSERT_PG = """
INSERT INTO events (game_id, seq, type, payload, side, actor, text, created_at, command,
                    record_seq, record_hash, command_hash, dice)
SELECT advanced.id, r.seq, r.type, r.payload, r.side, CAST(:actor AS varchar), r.text, :now, r.command,
       r.record_seq, r.record_hash, r.command_hash, r.dice
FROM advanced, jsonb_to_recordset(CAST(:rows AS jsonb))
    AS r(seq integer, type varchar, payload jsonb, side varchar, text text, command jsonb,
         record_seq integer, record_hash varchar, command_hash varchar, dice jsonb)
ORDER BY r.seq"""
# A command that hands the decision over (app/fast_commands.py) also starts the next side's
# clock, as app/services/clock.py ``handed_over`` does: extended by what is left of that
# player's vacation; a decision it already shared (``joint``, a sealed allocation) runs on
# from when it began.  It is written only while that seat wants no notice (mail or webhook,
# app/services/notices.py) and the game's row is the version the statement's snapshot
# read: the statement checks, and a command that must queue a notice, or met a change of
# the clock, finds no row and goes to the thread path, which writes it in a transaction.
_HANDOVER_PG = """,
                     decision_side = CAST(:to_decide AS varchar), decision_extra = vacation.extra, clock_noted = '',
                     decision_since = CASE WHEN CAST(:joint AS boolean) THEN decision_since
                                           ELSE CAST(:clock_now AS timestamptz) END,
                     deadline_ts = CASE WHEN CAST(:joint AS boolean) THEN deadline_ts - decision_extra + vacation.extra
                                        ELSE CAST(:clock_start AS bigint) + move_days * 86400 + vacation.extra END
    FROM (SELECT COALESCE(max(floor(extract(epoch FROM v.vacation_until - CAST(:clock_now AS timestamptz)))), 0)
                 ::integer AS extra
          FROM seats v WHERE v.game_id = :game_id AND v.side = CAST(:to_decide AS varchar)
                         AND v.vacation_until > CAST(:clock_now AS timestamptz)) AS vacation"""
_QUIET_PG = """
      -- the row as this statement's snapshot had it: a clock's change that came in between
      -- (a vacation locks the row first, then sets the seat's, unseen by the snapshot) was
      -- made on a newer version; the thread path then reads the seat after the row's lock
      AND xmin = (SELECT g.xmin FROM games g WHERE g.id = :game_id)
      AND (NOT CAST(:notices AS boolean) OR NOT EXISTS (
          SELECT 1 FROM seats n WHERE n.game_id = :game_id AND n.side = CAST(:to_decide AS varchar)
                                  AND n.joined_at IS NOT NULL
                                  AND (n.webhook_url IS NOT NULL OR (n.email IS NOT NULL AND n.notify))))"""
# the same condition for SQLite's writer thread, which checks it before it sets the clock
_WANTS_NOTICE = select(_seats.c.id).where(
    _seats.c.game_id == bindparam("game_id"), _seats.c.side == bindparam("side"), _seats.c.joined_at.is_not(None),
    or_(_seats.c.webhook_url.is_not(None), and_(_seats.c.email.is_not(None), _seats.c.notify)))


def wants_notice(conn: Connection, game_id: str, side: str) -> bool:
    """Whether ``side``'s joined seat wants a notice of its turn (a webhook, or mail it has
    not unsubscribed from): ``_QUIET_PG``'s condition."""
    return conn.execute(_WANTS_NOTICE, {"game_id": game_id, "side": side}).first() is not None


_G = [c.name for c in _games.c]
_S = [c.name for c in _seats.c]


# The record's entries written with a command (app/services/record.py ``chain_batch``: a
# new dice period's published seed, the game's last seeds and salt), in the same statement.
_ENTRIES_PG = """,
entered AS (
    INSERT INTO record_entries (game_id, record_seq, entry, record_hash)
    SELECT advanced.id, e.record_seq, e.entry, e.record_hash
    FROM advanced, jsonb_to_recordset(CAST(:entries AS jsonb)) AS e(record_seq integer, entry jsonb,
                                                                     record_hash varchar))"""


@cache
def append_pg(returning: bool = False, handover: bool = False, entries: bool = False) -> TextClause:
    """The append in one statement: its row count, the events appended (none: refused), or
    (``returning``) the game row as written with its seats, a row per seat (none: refused),
    for an answer drawn without another read (app/fast_commands.py); ``handover``: with the
    next side's clock (``_HANDOVER_PG``); ``entries``: with the record's entries (``_ENTRIES_PG``)."""
    advance = _ADVANCE_PG.format(columns="games.*" if returning else "games.id",
                                 clock=_HANDOVER_PG if handover else "", quiet=_QUIET_PG if handover else "")
    advance += _ENTRIES_PG if entries else ""
    if not returning:
        return text(f"WITH {advance}{_INSERT_PG}")
    return text(f"WITH {advance}, appended AS ({_INSERT_PG} RETURNING seq)\n"
                f"SELECT (SELECT count(*) FROM appended) AS appended, "
                + ", ".join(f"advanced.{c} AS g_{c}" for c in _G) + ", " + ", ".join(f"seats.{c} AS s_{c}" for c in _S)
                + "\nFROM advanced LEFT JOIN seats ON seats.game_id = advanced.id ORDER BY seats.side")


def game_from_row(rows: list[tuple[Any, ...]], events: int) -> Game | None:
    """The game (with its seats) that ``append_pg(returning=True)`` answered (its rows as
    tuples, in its columns' order), or None if it appended nothing: ``events`` were to
    be appended.  The objects belong to no session: what a board is drawn from, never
    written back."""
    if not rows or rows[0][0] != events:
        return None
    game = _loaded(Game, dict(zip(_G, rows[0][1:1 + len(_G)], strict=True)))
    instance_dict(game)["seats"] = [_loaded(Seat, dict(zip(_S, r[1 + len(_G):], strict=True)))
                                    for r in rows if r[1 + len(_G)] is not None]  # (a seat's id)
    return game


def _loaded(cls: type[T], values: dict[str, Any]) -> T:
    """An instance with these column values as its loaded state, made as the ORM's own
    loading makes one (no constructor, no change events: a tenth of the cost)."""
    obj = cls.__mapper__.class_manager.new_instance()  # type: ignore[attr-defined]
    instance_dict(obj).update(values)
    return obj


def head_and_seat(session: Session, game_id: str, token_hash: str) -> tuple[GameHead | None, str | None]:
    """The game's head, and the side of the joined seat this secret hash opens (None:
    no such seat, or an invitation not used yet), in one query."""
    row = session.connection().execute(_HEAD_AND_SEAT, {"game_id": game_id, "token_hash": token_hash}).first()
    if row is None:
        return None, None
    record.noted(row)  # the chain the write will follow
    return GameHead(row.id, row.game, row.seq), (row.side if row.joined_at is not None else None)


def get_game(session: Session, game_id: str) -> Game | None:
    game = session.get(Game, game_id)
    return None if game is None else record.noted(game)


def game_and_seat(session: Session, game_id: str, token_hash: str) -> tuple[Game | None, Seat | None]:
    """The game with both its seats (every board shows them, and a command's answer reads
    them after its commit, which would cost another transaction), and the seat that
    ``token_hash`` opens, in one query."""
    game = game_with_seats(session, game_id)
    if game is None:
        return None, None
    return game, next((s for s in game.seats if s.token_hash and compare_digest(s.token_hash, token_hash)), None)


def game_with_seats(session: Session, game_id: str) -> Game | None:
    """The game with its seats, in one query."""
    rows = session.execute(_GAME_AND_SEATS, {"game_id": game_id}).all()
    if not rows:
        return None
    game = rows[0][0]
    # the seats as the relationship's own loaded value: a joined eager load built the same
    # objects at half again the cost
    set_committed_value(game, "seats", [seat for _, seat in rows if seat is not None])
    return record.noted(game)


def game_name(game: Game) -> str:
    """How mails and notices name a game: its title, else which game it is."""
    return f"{game.title} ({game.id})" if game.title else f"{get_rules(game.game).title} game {game.id}"


def name_and_seats(session: Session, game_id: str) -> tuple[str, list[Seat]]:
    """The game's name (``game_name``) and its seats by side, in one query (a handover's
    clock and notices read them; four queries before)."""
    game = game_with_seats(session, game_id)
    return (f"game {game_id}", []) if game is None else (game_name(game), list(game.seats))


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


def dice_rows(session: Session, game_id: str) -> list[EventRow]:
    """The events of a game of seed chains that hold rolls, in order (the dice page)."""
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq))
    return [r for r in rows if r.dice]  # (a JSON null and an SQL NULL alike)


def since_last_command(session: Session, game_id: str, side: str, limit: int = 300) -> list[EventRow]:
    """The events of ``side``'s last command and all after it (the whole log if it has
    given none), at most the newest ``limit``: what the command itself rolled and began
    belongs to the story too, for a player who sent it and closed the tab."""
    mine = session.execute(select(EventRow.seq, EventRow.command).where(
        EventRow.game_id == game_id, EventRow.actor == side).order_by(EventRow.seq.desc()).limit(64)).all()
    # a batch's first event holds its command (the others a JSON null): a batch longer than
    # the look begins the window at the look's oldest event
    first = next((seq for seq, command in mine if command is not None), mine[-1].seq if mine else 0)
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq >= first)
                           .order_by(EventRow.seq.desc()).limit(limit)).all()
    return list(reversed(rows))


def newest_of(session: Session, game_id: str, types: tuple[str, ...], upto: int) -> list[EventRow]:
    """The newest row of each of ``types`` numbered ``upto`` or less, in order (what
    turn and phase a window of the log begins in)."""
    found = [session.scalars(select(EventRow).where(EventRow.game_id == game_id, EventRow.type == kind,
                                                    EventRow.seq <= upto).order_by(EventRow.seq.desc()).limit(1)
                             ).first() for kind in types]
    return sorted((r for r in found if r is not None), key=lambda r: r.seq)


def retractions(session: Session, game_id: str) -> dict[int, int]:
    """Event number -> the ``undone`` event that took it back (engine/core/undo.py), or the
    admin's rewind that struck it (engine/core/rulings.py)."""
    rows = session.execute(select(EventRow.seq, EventRow.type, EventRow.payload).where(
        EventRow.game_id == game_id, EventRow.type.in_(rulings.STRIKING)).order_by(EventRow.seq)).all()
    return rulings.struck((seq, Event(kind, payload)) for seq, kind, payload in rows)


def events_between(session: Session, game_id: str, first: int, end: int) -> list[EventRow]:
    """The rows numbered ``first`` to ``end - 1``, in order (one read by the primary key)."""
    return list(session.scalars(select(EventRow).where(EventRow.game_id == game_id, EventRow.seq >= first,
                                                       EventRow.seq < end).order_by(EventRow.seq)))


def page_events(session: Session, game_id: str, offset: int, limit: int) -> tuple[int, list[EventRow]]:
    total = session.scalar(select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id)) or 0
    rows = session.scalars(select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                           .offset(offset).limit(limit))
    return total, list(rows)


def append(session: Session, game: Game | GameHead, expected_seq: int, events: list[Event], texts: list[str | None],
           actor: str | None, command: Command | None, status: str | None,
           result: dict[str, Any] | None, token_hash: str | None = None, listed: Listed | None = None,
           by: str | None = None, keyed: Any = None) -> int:
    """Append a batch after ``expected_seq`` events, or raise ``StaleSequence``.

    The conditional UPDATE is the optimistic lock: of several writers based on
    the same sequence number exactly one changes the row; the (game_id, seq)
    primary key guards the log itself.  With ``token_hash`` the write also
    requires that ``actor``'s seat still holds that secret (else ``StaleSequence``
    too: the caller then finds out which it was)."""
    batch = Batch(game.id, expected_seq, events, texts, actor, command, status, result, token_hash,
                  listed=listed or Listed(), by=by, keyed=keyed)
    _chain_for(session, batch, game)
    written = _write(session, batch)
    if not written and batch.chained is not None and not _entropy_moved(session, batch):
        # a head this worker remembered wrong (another worker wrote the game): read it, once
        fresh = session.execute(select(_games.c.seq, _games.c.record_head).where(_games.c.id == game.id)).first()
        if fresh is not None and fresh.seq == expected_seq and fresh.record_head != batch.chained[0]:
            record.forget(game.id)
            _chain_for(session, batch, store_head(session, game.id, game.game, expected_seq))
            written = _write(session, batch)
    if not written:
        session.rollback()
        raise StaleSequence(current_seq(session, game.id))
    _, _, after = batch.chained  # type: ignore[misc]
    record.remember(game.id, after, batch.new_seq)
    if isinstance(game, Game):  # the row as written, without reading it back
        written = {"seq": batch.new_seq, "result": result, "updated_at": batch.now, "status": status,
                   **batch.listed.params()}
        if after is not None:
            written.update(record_seq=after.seq, record_head=after.head, record_salt=after.salt,
                           dice_period=after.period, dice_turn=after.turn)
        for key, value in written.items():
            if key != "status" or status is not None:
                set_committed_value(game, key, value)
    else:
        game.seq = batch.new_seq
    return batch.new_seq


def _entropy_moved(session: Session, batch: Batch) -> bool:
    """Whether a batch that shows the players' entropy (the game's first command) was decided
    on entropy that has changed since (given, or shown, meanwhile): then it is decided again."""
    if batch.keyed is None or not batch.keyed.shows_entropy:
        return False
    given = {side for side, text in session.execute(select(_seats.c.side, _seats.c.entropy)
                                                    .where(_seats.c.game_id == batch.game_id)) if text is not None}
    return bool(given & set(batch.keyed.filled)) or dice_keys.revealed(session, batch.game_id)


def _write(session: Session, batch: Batch) -> bool:
    """The append's statements; whether they wrote the batch."""
    conn = session.connection()
    if conn.dialect.name != "postgresql":
        return write_sqlite(conn, batch)
    if conn.execute(batch.pg_statement(False), batch.pg_params()).rowcount != len(batch.events):
        return False
    _fill_entropy(conn, batch)
    return True


def write_sqlite(conn: Connection, batch: Batch) -> bool:
    """The append's statements on SQLite, in the caller's transaction; whether they wrote
    the batch (the thread path's, and the event loop's: app/sqlite_appends.py)."""
    done = conn.execute(_advance(batch.status is not None, batch.token_hash is not None),
                        {**batch.params(), "new_result": batch.result})
    if done.rowcount != 1:
        return False
    # Core, not the unit of work: these rows are never read back in this session
    conn.execute(_INSERT_EVENTS, [{**r, "game_id": batch.game_id, "actor": batch.actor, "created_at": batch.now}
                                  for r in batch.rows()])
    if batch.extra:  # (on PostgreSQL in the append's statement)
        conn.execute(insert(_record_entries), [{**e, "game_id": batch.game_id} for e in batch.extra])
    _fill_entropy(conn, batch)
    return True


_WRITTEN_ROW = (select(*_games.c, *_seats.c).outerjoin(_seats, _seats.c.game_id == _games.c.id)
                .where(_games.c.id == bindparam("game_id")).order_by(_seats.c.side))


def written_row(conn: Connection, batch: Batch) -> list[tuple[Any, ...]]:
    """The game row ``batch`` wrote, with its seats, read in the write's transaction, in the
    form of ``append_pg(returning=True)``'s answer (for ``game_from_row``)."""
    n = len(batch.events)
    return [(n, *row) for row in conn.execute(_WRITTEN_ROW, {"game_id": batch.game_id})]


def _fill_entropy(conn: Any, batch: Batch) -> None:
    """Record version 2: the entropy the server made for seats that gave none (a decision
    with it is written in a transaction, never by the single statement alone)."""
    if batch.keyed is not None:
        for side, text in batch.keyed.filled.items():
            conn.execute(update(_seats).where(_seats.c.game_id == batch.game_id, _seats.c.side == side,
                                              _seats.c.entropy.is_(None))
                         .values(entropy=text, entropy_by=dice_keys.SERVER))


@dataclass
class _StoredHead:
    """The record's columns of a game row, read."""
    id: str
    game: str
    seq: int
    record_version: int
    record_salt: str | None
    record_seq: int
    record_head: str | None
    dice_period: int = 1
    dice_turn: int | None = None


def store_head(session: Session, game_id: str, kind: str, seq: int) -> _StoredHead:
    row = session.execute(select(_games.c.record_version, _games.c.record_salt, _games.c.record_seq,
                                 _games.c.record_head, _games.c.dice_period, _games.c.dice_turn)
                          .where(_games.c.id == game_id)).first()
    if row is None:
        return _StoredHead(game_id, kind, seq, 0, None, 0, None)
    return _StoredHead(game_id, kind, seq, row.record_version, row.record_salt, row.record_seq, row.record_head,
                       row.dice_period, row.dice_turn)


def _chain_for(session: Session, batch: Batch, game: Game | GameHead | _StoredHead) -> None:
    """Set the chain ``batch`` follows: the game row's, as read (a ``Game``), else as this
    worker remembers it, else as read now."""
    if isinstance(game, GameHead):
        known, chain = record.remembered(game.id, batch.expected_seq)
        if known:
            batch.chain_from(chain.head if chain is not None else None, chain)
            return
        game = store_head(session, game.id, game.game, batch.expected_seq)
    if not game.record_version:
        batch.chain_from(game.record_head, None)
    elif game.record_salt is None or game.record_head is None:  # the game's first batch: its record starts
        batch.chain_from(game.record_head, record.start(game.game, game.record_salt or record.new_salt()))
    else:
        batch.chain_from(game.record_head, record.Chain(game.game, game.record_salt, batch.expected_seq,
                                                        game.record_seq, game.record_head, game.record_version,
                                                        game.dice_period, game.dice_turn))


@dataclass
class Batch:
    """A command's events to append after ``expected_seq`` events, and the columns of the
    game row that change with them (``status`` None: left as it is)."""
    game_id: str
    expected_seq: int
    events: list[Event]
    texts: list[str | None]
    actor: str | None
    command: Command | None
    status: str | None
    result: dict[str, Any] | None
    token_hash: str | None = None
    now: datetime = field(default_factory=utcnow)
    listed: Listed = field(default_factory=Listed)
    by: str | None = None  # who sent the command when not the seat's player ("computer:greedy")
    keyed: Any = None  # record version 2: the decision's dice (app/services/dice_keys.py, ``Keyed``)
    extra: list[dict[str, Any]] = field(default_factory=list)  # record_entries rows written with it
    # the record's chain (app/services/record.py): (the head the write requires, each row's
    # record columns, the chain after the batch); None until known
    chained: tuple[str | None, list[dict[str, Any]], record.Chain | None] | None = None
    handover: Handover | None = None  # the event loop's append of a command that hands over

    def chain_from(self, prev_head: str | None, chain: record.Chain | None) -> None:
        """Follow ``chain`` (None: the game has none), whose head in the game row is ``prev_head``."""
        if chain is None:
            self.chained = (prev_head, [{}] * len(self.events), None)
            return
        batched = record.chain_batch(chain, self.events, self.command_json(), self.keyed)
        self.extra = batched.entries
        self.chained = (prev_head, batched.columns, batched.after)

    def _chained(self) -> tuple[str | None, list[dict[str, Any]], record.Chain | None]:
        """The chain as set, else as this worker remembers the game at ``expected_seq`` (the
        event loop's write, which reads nothing first), else a head no game has: the write
        then finds no row and the thread path writes the batch."""
        if self.chained is None:
            known, chain = record.remembered(self.game_id, self.expected_seq)
            if not known:
                return record.MISSING_HEAD, [{}] * len(self.events), None
            self.chain_from(chain.head if chain is not None else None, chain)
            record.remember(self.game_id, self.chained[2], self.new_seq)  # type: ignore[index]
        return self.chained  # type: ignore[return-value]

    def command_json(self) -> dict[str, Any] | None:
        return None if self.command is None else {**self.command.to_json(), **({"by": self.by} if self.by else {})}

    @property
    def new_seq(self) -> int:
        return self.expected_seq + len(self.events)

    def rows(self) -> list[dict[str, Any]]:
        command = self.command_json()
        columns = self._chained()[1]
        return [{"seq": self.expected_seq + i, "type": event.type, "payload": event.data, "side": event.side,
                 "text": text, "command": command if i == 0 else None, "record_seq": None, "record_hash": None,
                 "command_hash": None, "dice": None, **columns[i]}
                for i, (event, text) in enumerate(zip(self.events, self.texts, strict=True))]

    def params(self) -> dict[str, Any]:
        prev_head, _, after = self._chained()
        return {"game_id": self.game_id, "expected": self.expected_seq, "new_seq": self.new_seq, "now": self.now,
                "new_status": self.status, "side": self.actor, "token_hash": self.token_hash,
                **self.listed.params(), "prev_head": prev_head,
                "record_seq": None if after is None else after.seq,
                "record_head": prev_head if after is None else after.head,
                "record_salt": None if after is None else after.salt,
                "dice_period": after.period if after is not None and after.version >= 2 else None,
                "dice_turn": after.turn if after is not None and after.version >= 2 else None}

    def pg_params(self) -> dict[str, Any]:
        """The parameters of the batch's ``append_pg`` statement (``pg_statement``)."""
        params = {**self.params(), "actor": self.actor, "rows": dump_json(self.rows()).decode(),
                  "channel": LIVE_CHANNEL,
                  "new_result": None if self.result is None else dump_json(self.result).decode()}
        if self.handover is not None:
            params.update(self.handover.params())
        if self.extra:
            params["entries"] = dump_json(self.extra).decode()
        return params

    def pg_statement(self, returning: bool) -> TextClause:
        """Which of the one-statement appends writes this batch (the record's entries it
        writes are known once its chain is: ``_chained``)."""
        self._chained()
        return append_pg(returning, self.handover is not None, bool(self.extra))


@dataclass(frozen=True)
class Handover:
    """The clock a command starts as it hands the decision to ``to_decide`` (``_HANDOVER_PG``):
    ``joint``: that side was deciding already, with the one that just decided; ``notices``:
    the server sends notices, so the statement writes only if that seat wants none."""
    to_decide: str
    joint: bool
    notices: bool
    now: datetime

    def params(self) -> dict[str, Any]:
        return {"to_decide": self.to_decide, "joint": self.joint, "notices": self.notices, "clock_now": self.now,
                "clock_start": int(self.now.timestamp())}


def begin_write(session: Session, single: bool) -> None:
    """Before a command's writes.  ``single``: they are one statement (the append on
    PostgreSQL), atomic by itself, so it runs without a transaction around it (no BEGIN
    and no COMMIT round trips) if the session has not begun one.  Otherwise what follows
    is one transaction, also on a session that has read in autocommit so far (a board post
    reads the game first: app/routes/pages.py)."""
    bind = session.get_bind()
    autocommit = bind.get_execution_options().get("isolation_level") == AUTOCOMMIT
    if single and bind.dialect.name == "postgresql":
        if not autocommit and not session.in_transaction():
            session.connection(execution_options={"isolation_level": AUTOCOMMIT})
        return
    if autocommit:
        session.commit()  # ends the reads (nothing to send) and hands their connection back
        session.connection(execution_options={"isolation_level": bind.dialect.default_isolation_level})


def current_seq(session: Session, game_id: str) -> int:
    seq = session.scalar(select(Game.seq).where(Game.id == game_id))
    return -1 if seq is None else seq


def load_snapshot(session: Session, game_id: str) -> tuple[int, dict[str, Any]] | None:
    """The game's snapshot: (its seq, the engine's JSON of the state then), if any."""
    snap = session.get(Snapshot, game_id)
    return None if snap is None else (snap.seq, snapshot_state(snap))


def snapshot_state(snap: Snapshot) -> dict[str, Any]:
    return orjson.loads(zlib.decompress(snap.state))


# One statement, which neither reads the old snapshot nor loads it into the session.  The
# state is compressed JSON bytes: as jsonb, PostgreSQL's parsing and storing of some 80 KB
# cost four times the rest of a command (migration 0009).
# A snapshot written after its command's answer (app/fast_commands.py) may arrive after a
# later one: the newer stays.
SAVE_SNAPSHOT = text("""
INSERT INTO snapshots (game_id, seq, state, updated_at) VALUES (:game_id, :seq, :state, :now)
ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, state = excluded.state, updated_at = excluded.updated_at
WHERE snapshots.seq < excluded.seq
""").bindparams(bindparam("state", type_=LargeBinary()), bindparam("now", type_=Snapshot.__table__.c.updated_at.type))


def snapshot_params(game_id: str, seq: int, state: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``SAVE_SNAPSHOT`` for the engine's JSON of the state after ``seq`` events."""
    return {"game_id": game_id, "seq": seq, "now": utcnow(), "state": zlib.compress(dump_json(state), 1)}


def save_snapshot(session: Session, game_id: str, seq: int, state: dict[str, Any]) -> None:
    """Store the game's snapshot (one row per game, replaced in place by a newer one)."""
    session.connection().execute(SAVE_SNAPSHOT, snapshot_params(game_id, seq, state))


def computer_name(level: str) -> str:
    """The name of a seat the computer takes when the game is made."""
    return f"Computer ({level})"


def computer_from_start(seat: Seat) -> bool:
    """Whether the computer has played ``seat`` since the game was made: nobody ever held
    its secret (it sat down with its own name, no address, and no page ever opened it),
    unlike a person's seat handed to the computer for a while."""
    return (seat.computer is not None and seat.display_name == computer_name(seat.computer)
            and seat.email is None and seat.last_seen_at is None)


def mark_joined(seat: Seat, name: str) -> None:
    seat.display_name = name or seat.display_name
    seat.joined_at = utcnow()


def claim_seat(session: Session, seat: Seat, invite_hash: str, secret_hash: str, name: str, email: str = "") -> bool:
    """Take a seat with its invitation, once: of several joins racing with the same
    invitation exactly one changes the row (the others find it taken)."""
    values: dict[str, Any] = {"token_hash": secret_hash, "joined_at": utcnow()}
    if name:
        values["display_name"] = name
    if email:
        values["email"] = email
    done = session.execute(update(Seat).where(Seat.id == seat.id, Seat.token_hash == invite_hash,
                                              Seat.joined_at.is_(None)).values(**values))
    return done.rowcount == 1


def replace_seat_secret(session: Session, seat_id: int, old_hash: str, secret_hash: str) -> bool:
    """Give a joined seat a new secret (the old one stops opening it at once), only if it
    still holds the one it held when read: of two replacements racing, one wins."""
    done = session.execute(update(Seat).where(Seat.id == seat_id, Seat.token_hash == old_hash,
                                              Seat.joined_at.is_not(None)).values(token_hash=secret_hash))
    return done.rowcount == 1


def set_seat(session: Session, seat: Seat, **values: Any) -> None:
    """Write a player's own settings of ``seat`` whatever it held when read (the ORM would
    skip a value equal to the one it read, though another request changed it since), and
    show them on ``seat``.  Part of the caller's transaction."""
    session.execute(update(Seat).where(Seat.id == seat.id).values(**values)
                    .execution_options(synchronize_session=False))
    for name, value in values.items():
        set_committed_value(seat, name, value)


def add_audit(session: Session, admin: str, action: str, game_id: str | None, detail: dict[str, Any]) -> None:
    """Note an admin's act; on a game with a record, as its next entry (part of the caller's
    transaction: the game row's head moves with it, as an append's does)."""
    place, hash_ = (chain_entry(session, game_id, lambda seq, _chain: record.admin_entry(admin, action, detail, seq))
                    if game_id is not None else (None, None))
    session.add(AdminAudit(admin=admin, action=action, game_id=game_id, detail=detail, at=utcnow(),
                           record_seq=place, record_hash=hash_))


def chain_entry(session: Session, game_id: str, entry_at: Callable[[int, record.Chain], dict[str, Any]]
                ) -> tuple[int | None, str | None]:
    """Chain an entry that is not an event (an admin's act, a chat line, a clock act) as the
    game's next, in the caller's transaction: ``entry_at(place, chain)`` makes it for its
    place; its (place, hash), which its row keeps ((None, None): a game without a chain)."""
    for _ in range(5):  # an append that lands meanwhile moves the head: chain from the new one
        row = session.execute(select(_games.c.game, _games.c.seq, _games.c.record_version, _games.c.record_salt,
                                     _games.c.record_seq, _games.c.record_head, _games.c.dice_period,
                                     _games.c.dice_turn)
                              .where(_games.c.id == game_id)).first()
        chain = None if row is None else record.chain_of(row)
        if chain is None:
            return None, None
        hash_, after = record.chain_entry(chain, entry_at(chain.seq, chain))
        moved = session.execute(update(_games).where(_games.c.id == game_id, _games.c.seq == row.seq,
                                                     _games.c.record_head == row.record_head)
                                .values(record_seq=after.seq, record_head=after.head)
                                .execution_options(synchronize_session=False))
        if moved.rowcount == 1:
            record.remember(game_id, after, row.seq)
            game = session.identity_map.get(identity_key(Game, game_id))
            if game is not None:
                set_committed_value(game, "record_seq", after.seq)
                set_committed_value(game, "record_head", after.head)
            return chain.seq, hash_
    raise StaleSequence(current_seq(session, game_id))


def add_record_entry(session: Session, game_id: str, entry: dict[str, Any]) -> tuple[int | None, str | None]:
    """Chain ``entry`` (an entropy's commitment or reveal) as the game's next and keep it in
    ``record_entries``, in the caller's transaction."""
    place, hash_ = chain_entry(session, game_id, lambda seq, _chain: {**entry, "seq": seq})
    if place is not None:
        session.execute(insert(_record_entries).values(game_id=game_id, record_seq=place,
                                                       entry={**entry, "seq": place}, record_hash=hash_))
    return place, hash_


def list_audit(session: Session, offset: int = 0, limit: int = 50) -> tuple[int, list[AdminAudit]]:
    """A page of the admin audit, the newest first, and how many entries there are."""
    total = session.scalar(select(func.count()).select_from(AdminAudit)) or 0
    rows = session.scalars(select(AdminAudit).order_by(AdminAudit.id.desc()).offset(offset).limit(limit))
    return total, list(rows)


def touch_seat(session: Session, game_id: str, token_hash: str | None = None, email: str | None = None) -> None:
    """Note that the player of the seat with this secret hash (or, signed in, this
    address) is looking at the game now."""
    who = Seat.token_hash == token_hash if token_hash is not None else Seat.email == email
    session.execute(update(Seat).where(Seat.game_id == game_id, who, Seat.joined_at.is_not(None))
                    .values(last_seen_at=utcnow()))


def list_mail(session: Session, offset: int = 0, limit: int = 50) -> tuple[int, list[Mail]]:
    """A page of the outbox, the newest first, and how many mails there are."""
    total = session.scalar(select(func.count()).select_from(Mail)) or 0
    return total, list(session.scalars(select(Mail).order_by(Mail.id.desc()).offset(offset).limit(limit)))
