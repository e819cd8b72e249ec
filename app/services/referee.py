"""The referee's view of one game: its whole history (the log, and beside it the chat,
the mails and the admins' acts) found by kind, side and turn, each line with the moment
it belongs to; and the game's figures (the dice against a fair die, take-backs, time
per move).  Everything here is for admins: nothing is redacted."""

from __future__ import annotations

import statistics
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import store
from app.models import AdminAudit, ChatMessage, ClockAct, EventRow, Game, Mail
from app.services import dice_keys, fair_dice
from engine.core import rulings, undo
from engine.core.forfeit import TIME_FORFEIT
from engine.games import get_rules

# the kinds a line of the history may be found by (a log event may be of several)
KINDS = {"command": "commands", "dice": "dice and draws", "takeback": "take-backs and what they struck",
         "clock": "clock and vacation", "chat": "chat", "mail": "mails sent", "admin": "admin acts"}
BESIDE_THE_LOG = ("chat", "mail", "admin")  # kept in tables of their own, not in the log
CLOCK_MAILS = ("reminder", "overdue")  # the notices of the clock (app/services/clock.py)
CLOCK_ACTS = {"vacation": "took a vacation of", "grant": "granted the opponent"}


@dataclass
class Line:
    """One line of the history as the referee's log shows it."""
    kind: str  # "event", or one of BESIDE_THE_LOG
    at: datetime
    moment: int  # the moment it belongs to: the log's length once it was written
    side: str | None
    text: str
    seq: int | None = None  # a log event's number
    type: str = ""
    kinds: set[str] = field(default_factory=set)
    turn: int = 0
    actor: str | None = None
    data: Any = None
    struck_by: int | None = None  # the take-back that struck it
    strikes: list[int] = field(default_factory=list)  # a take-back's: the events it struck
    rolls: list[fair_dice.Roll] = field(default_factory=list)


@dataclass
class Query:
    kind: str = ""  # one of KINDS, "" for the whole log
    side: str = ""
    turn: str = ""
    offset: int = 0
    limit: int = 500

    def __post_init__(self) -> None:
        self.kind = self.kind if self.kind in KINDS else ""
        self.offset = min(max(0, self.offset), 2**31 - 1)
        self.limit = min(max(1, self.limit), 5000)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def event_lines(session: Session, game: Game) -> list[Line]:
    """Every event of the log as a line, with its kinds, its turn and its rolls."""
    rows = store.events_between(session, game.id, 0, game.seq)
    gone = store.retractions(session, game.id)
    struck: dict[int, list[int]] = {}
    for seq, by in gone.items():
        struck.setdefault(by, []).append(seq)
    lines, turn, turn_event = [], 0, get_rules(game.game).turn_event
    got = dice_keys.material(session, game.id) if game.record_version >= dice_keys.VERSION else None
    for r in rows:
        secret = dice_keys.row_secret(game, got, r.dice)
        if r.type == turn_event and isinstance(r.payload.get("turn"), int):
            turn = r.payload["turn"]
        line = Line("event", _aware(r.created_at), r.seq + 1, r.side or r.actor, r.text or "", r.seq, r.type,
                    turn=turn, actor=r.actor, data=r.payload, struck_by=gone.get(r.seq),
                    strikes=sorted(struck.get(r.seq, [])), rolls=fair_dice.rolls(secret, r.seq, r.payload))
        line.kinds = _kinds(line, r)
        lines.append(line)
    return lines


def _kinds(line: Line, row: EventRow) -> set[str]:
    kinds = set()
    if row.type == rulings.REWOUND:
        return {"admin", "takeback"}
    if row.type == rulings.RULING:  # the admin's, in the log: never a player's command
        return {"admin", "clock"} if row.payload.get("clock") else {"admin"}
    if row.command is not None:
        kinds.add("command")
    if line.rolls or "drawn" in row.type or "rolled" in row.type:
        kinds.add("dice")
    if row.type == undo.UNDONE or line.struck_by is not None:
        kinds.add("takeback")
    if (row.command or {}).get("type") == TIME_FORFEIT:
        kinds.add("clock")
    return kinds


def beside_lines(session: Session, game: Game, kind: str, events: list[Line]) -> list[Line]:
    """The chat, the mails or the admins' acts of the game, each at the moment it came."""
    times = [e.at for e in events]

    def moment(at: datetime) -> int:
        return bisect_right(times, _aware(at))

    turns = [e.turn for e in events]

    def turn_at(at: datetime) -> int:
        n = moment(at)
        return turns[n - 1] if n else 0

    if kind == "chat":
        rows = session.scalars(select(ChatMessage).where(ChatMessage.game_id == game.id).order_by(ChatMessage.id))
        return [Line("chat", _aware(m.created_at), moment(m.created_at), m.side, m.text, turn=turn_at(m.created_at),
                     kinds={"chat"}) for m in rows]
    if kind == "mail":
        mails = session.scalars(select(Mail).where(Mail.game_id == game.id).order_by(Mail.id))
        return [Line("mail", _aware(m.created_at), moment(m.created_at), m.side,
                     f"{m.status}: to {m.to_addr}: {m.subject}", type=m.kind, turn=turn_at(m.created_at),
                     kinds={"mail"}, data={"body": m.body, "last_error": m.last_error}) for m in mails]
    if kind == "clock":
        clock_acts = session.scalars(select(ClockAct).where(ClockAct.game_id == game.id).order_by(ClockAct.id))
        return [Line("clock", _aware(c.at), c.seq, c.side, f"{c.side} {CLOCK_ACTS.get(c.action, c.action)} "
                     f"{c.days} day(s)", type=c.action, turn=turns[c.seq - 1] if c.seq else 0, kinds={"clock"})
                for c in clock_acts]
    acts = session.scalars(select(AdminAudit).where(AdminAudit.game_id == game.id).order_by(AdminAudit.id))
    return [Line("admin", _aware(a.at), moment(a.at), a.detail.get("side"), f"{a.admin}: {a.action}", type=a.action,
                 turn=turn_at(a.at), kinds={"admin"}, data=a.detail) for a in acts]


def find(session: Session, game: Game, query: Query) -> tuple[int, list[Line]]:
    """The lines of the game's history ``query`` asks for, in order, and how many match."""
    events = event_lines(session, game)
    lines = beside_lines(session, game, query.kind, events) if query.kind in BESIDE_THE_LOG else events
    if query.kind and query.kind not in BESIDE_THE_LOG:
        lines = [line for line in lines if query.kind in line.kinds]
    if query.kind == "clock":  # and the players' vacations and grants, and the clock's notices
        lines = sorted(lines + beside_lines(session, game, "clock", events)
                       + [m for m in beside_lines(session, game, "mail", events) if m.type in CLOCK_MAILS],
                       key=lambda line: (line.at, line.seq or 0))
    if query.kind == "admin":  # the acts of the audit, and the rulings in the log (not twice)
        lines = sorted([e for e in events if "admin" in e.kinds]
                       + [a for a in lines if a.type not in (rulings.RULING, rulings.REWIND)],
                       key=lambda line: (line.at, line.seq or 0))
    if query.side:
        lines = [line for line in lines if (line.actor or line.side) == query.side]  # whose act it was
    if query.turn.strip().isdigit():
        lines = [line for line in lines if line.turn == int(query.turn)]
    return len(lines), lines[query.offset:query.offset + query.limit]


@dataclass
class SideFigures:
    side: str
    dice: fair_dice.Fit
    takebacks: int  # take-backs it made
    struck: int  # events they struck
    moves: int  # commands it gave
    median_s: float | None  # seconds from the event before each command to the command
    longest_s: float | None


def figures(session: Session, game: Game, sides: tuple[str, ...]) -> list[SideFigures]:
    """Per side: its rolls against a fair die's, its take-backs, its time per move.  A roll
    is a side's when its event names the side (as the acting side or in the event's data)."""
    events = event_lines(session, game)
    out = []
    for side in sides:
        mine = [e for e in events if _side_of(e) == side]
        values = [r.value for e in mine for r in e.rolls if e.struck_by is None]
        undos = [e for e in events if e.type == undo.UNDONE and e.actor == side]
        waits = [(e.at - events[i - 1].at).total_seconds() for i, e in enumerate(events)
                 if i > 0 and "command" in e.kinds and e.actor == side]
        out.append(SideFigures(side, fair_dice.fit(values), len(undos), sum(len(e.strikes) for e in undos),
                               len(waits), statistics.median(waits) if waits else None, max(waits, default=None)))
    return out


def _side_of(line: Line) -> str | None:
    data = line.data if isinstance(line.data, dict) else {}
    named = data.get("side") if isinstance(data.get("side"), str) else data.get("attacker")
    return line.side or line.actor or (named if isinstance(named, str) else None)
