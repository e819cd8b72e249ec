"""Time control: a number of days per decision, chosen when the game is created, and a
vacation allowance each player may spend at any time.

The clock of a decision starts when the log hands the decision to a side (the game row
keeps who and since when, written with the command that handed it over) and runs out
``move_days`` later, plus what the opponent granted and the vacation the deciding
player takes.  A periodic job (``tick``) reminds the deciding player at 80% of the time
and tells the opponent when it has run out; the opponent may then claim the game (the
engine's ``time_forfeit``, written to the log like any command) or grant more time.
Every function takes ``now``: the tests move the clock, not the wall.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import BigInteger, and_, bindparam, case, or_, select, text, update
from sqlalchemy.orm import Session

from app import store
from app.models import ClockAct, Game, Seat
from app.services import record
from app.services.notices import Notices

DAY = 86_400
DAYS_PER_MOVE = (1, 2, 3, 5, 7, 14)  # the choices at creation (none: no clock)
MAX_VACATION_DAYS = 30
REMIND_AT = 0.8  # of the time allowed
LOCK_KEY = 780_824_001  # PostgreSQL advisory lock: one worker ticks at a time


class ClockError(ValueError):
    """A clock action that is not possible now (answered 409 with this text)."""


def check_settings(move_days: int | None, vacation_days: int) -> None:
    if move_days is not None and move_days not in DAYS_PER_MOVE:
        raise ValueError(f"days per decision must be one of {list(DAYS_PER_MOVE)} (or none)")
    if not 0 <= vacation_days <= MAX_VACATION_DAYS:
        raise ValueError(f"vacation days must be 0 to {MAX_VACATION_DAYS}")
    if vacation_days and move_days is None:
        raise ValueError("vacation days need a time per decision")


def deadline(game: Game) -> datetime | None:
    """When the current decision's time runs out (None: no clock, or nobody to decide)."""
    if game.move_days is None or game.status != "active" or game.decision_side is None \
            or game.decision_since is None:
        return None
    return _aware(game.decision_since) + timedelta(seconds=game.move_days * DAY + game.decision_extra)


def reminder_due(game: Game) -> datetime | None:
    end = deadline(game)
    if end is None:
        return None
    since = _aware(game.decision_since)  # type: ignore[arg-type]
    return since + (end - since) * REMIND_AT


def view(game: Game, now: datetime) -> dict[str, Any] | None:
    """What the board and the API show of the clock (None for a game without one)."""
    if game.move_days is None:
        return None
    end = deadline(game)
    seats = {s.side: s for s in game.seats}
    deciding = deciding_sides(game) if end is not None else []
    return {
        "days_per_decision": game.move_days, "vacation_days": game.vacation_days,
        "deciding": game.decision_side if end is not None else None,
        "deciding_sides": deciding,
        # of those, the seats a person plays (none: the computer decides, in seconds; nobody
        # gives it more time or claims the game from it)
        "people_deciding": [side for side in deciding if not getattr(seats.get(side), "computer", None)],
        "since": game.decision_since.isoformat() if end is not None and game.decision_since else None,
        "deadline": end.isoformat() if end is not None else None,
        "overdue": end is not None and now >= end,
        "vacation": {side: {"days_left": round(s.vacation_left / DAY, 2),
                            "until": _aware(s.vacation_until).isoformat()
                            if s.vacation_until and _aware(s.vacation_until) > now else None}
                     for side, s in sorted(seats.items())},
    }


def deciding_sides(game: Game) -> list[str]:
    """Every side whose decision the clock waits for: both, in a decision they make at once
    (a secret air allocation: each decides against the same deadline), else the one."""
    sides = [s for s in (game.to_move or "").split(",") if s]
    if game.decision_side is not None and game.decision_side not in sides:
        sides = [game.decision_side]
    return sides


def words(left: int) -> str:
    """``2 d 3 h`` for a number of seconds."""
    d, rest = divmod(max(0, left), DAY)
    h, rest = divmod(rest, 3600)
    return f"{d} d {h} h" if d else f"{h} h {rest // 60} min"


def handed_over(session: Session, game_id: str, side: str | None, now: datetime, joint: bool = False,
                seats: list[Seat] | None = None) -> None:
    """The log just handed the decision to ``side`` (None: the game is over): its clock
    starts now (``joint``: it keeps running from when ``side`` began deciding together
    with the side that just decided), extended by what is left of that player's vacation
    (``seats``: the game's seats, read already)."""
    extra = 0
    if side is not None:
        until = (next((s.vacation_until for s in seats if s.side == side), None) if seats is not None else
                 session.scalar(select(Seat.vacation_until).where(Seat.game_id == game_id, Seat.side == side)))
        if until is not None and _aware(until) > now:
            extra = int((_aware(until) - now).total_seconds())
    if side is None:
        session.execute(_HANDOVER["over"], {"gid": game_id})
    else:
        session.execute(_HANDOVER["joint" if joint else "new"],
                        {"gid": game_id, "to_decide": side, "extra": extra, "now": now, "start": int(now.timestamp())})


# what a handover sets: all of it shown only in a game with a clock (``move_days``, ``view``)
STARTED = ("decision_side", "decision_extra", "clock_noted", "decision_since", "deadline_ts")


def _handovers() -> dict[str, Any]:
    """The UPDATEs of a handover, built once (an ORM update built per call cost more than
    the database's own work on it): the game over; the side deciding together with the
    one that just did (a sealed allocation, whose clock runs on from when the joint
    decision began); a new decision.  The deadline is a number (the admin's list finds
    claimable games by it) reckoned from the row as the UPDATE finds it: null without a
    clock (``move_days``) or a side to decide."""
    g = Game.__table__
    where = g.c.id == bindparam("gid")
    side, extra = bindparam("to_decide", type_=g.c.decision_side.type), bindparam("extra", type_=BigInteger())
    return {
        "over": update(g).where(where).values(decision_side=None, decision_extra=0, clock_noted="",
                                              decision_since=None, deadline_ts=None),
        "joint": update(g).where(where).values(decision_side=side, decision_extra=extra, clock_noted="",
                                               deadline_ts=g.c.deadline_ts - g.c.decision_extra + extra),
        "new": update(g).where(where).values(
            decision_side=side, decision_extra=extra, clock_noted="",
            decision_since=bindparam("now", type_=g.c.decision_since.type),
            deadline_ts=bindparam("start", type_=BigInteger()) + g.c.move_days * DAY + extra),
    }


_HANDOVER = _handovers()


def take_vacation(session: Session, game: Game, seat: Seat, days: int, now: datetime) -> None:
    """Days from the seat's allowance, from now on; the seat's running clock stands still
    for them.  Atomic: the allowance is spent by one conditional UPDATE (two at once: one
    wins, the other is refused), and the game's row is updated first, so that a handover
    writing at the same moment either comes before it (and the days go to the decision it
    hands over) or after it (and reads the vacation: ``handed_over``)."""
    if game.move_days is None:
        raise ClockError("this game has no time control")
    if days < 1:
        raise ClockError("take at least one day")
    added = days * DAY
    runs = and_(Game.status == "active", Game.move_days.is_not(None), Game.decision_since.is_not(None),
                Game.decision_side == seat.side)  # as the UPDATE finds the row, not as it was read
    session.execute(update(Game).where(Game.id == game.id)
                    .values(decision_extra=case((runs, Game.decision_extra + added), else_=Game.decision_extra),
                            deadline_ts=case((runs, Game.deadline_ts + added), else_=Game.deadline_ts),
                            clock_noted=case((runs, ""), else_=Game.clock_noted))  # reminded anew
                    .execution_options(synchronize_session=False))
    taken = session.execute(
        update(Seat).where(Seat.id == seat.id, Seat.vacation_left >= added,
                           or_(Seat.vacation_until.is_(None), Seat.vacation_until <= now))
        .values(vacation_left=Seat.vacation_left - added, vacation_until=now + timedelta(days=days))
        .execution_options(synchronize_session=False))
    if taken.rowcount != 1:
        session.rollback()
        session.refresh(seat)
        if seat.vacation_until is not None and _aware(seat.vacation_until) > now:
            raise ClockError(f"you are on vacation until {_aware(seat.vacation_until):%d %b %H:%M} UTC")
        raise ClockError(f"you have {seat.vacation_left / DAY:g} vacation day(s) left")
    _note_act(session, game, seat, "vacation", days, now)
    session.commit()
    session.refresh(game)
    session.refresh(seat)


def grant(session: Session, game: Game, seat: Seat, days: int, now: datetime) -> None:
    """The opponent of the deciding player gives them more time.  Atomic: one UPDATE adds
    to what the row holds when it runs (two grants at once both count), and only to the
    decision the granter saw (a grant racing a handover is refused, not given to the next)."""
    end = deadline(game)
    if end is None:
        raise ClockError("no clock is running")
    if seat.side in deciding_sides(game):
        raise ClockError("only your opponent can give you more time")
    if not 1 <= days <= 14:
        raise ClockError("grant 1 to 14 days")
    added = days * DAY
    # still running after the grant: now < since + move_days + extra + added
    needed = int((now - _aware(game.decision_since)).total_seconds()) - game.move_days * DAY  # type: ignore[arg-type,operator]
    given = session.execute(
        update(Game).where(Game.id == game.id, Game.status == "active", Game.decision_side == game.decision_side,
                           Game.decision_since == game.decision_since)
        .values(decision_extra=Game.decision_extra + added, deadline_ts=Game.deadline_ts + added,
                # a decision running again is owed a new reminder and a new notice
                clock_noted=case((Game.decision_extra + added > needed, ""), else_=Game.clock_noted))
        .execution_options(synchronize_session=False))
    if given.rowcount != 1:
        session.rollback()
        raise ClockError("the decision has just passed to the other side: look again")
    _note_act(session, game, seat, "grant", days, now)
    session.commit()
    session.refresh(game)


def _note_act(session: Session, game: Game, seat: Seat, action: str, days: int, now: datetime) -> None:
    """The act for the admins' history, and as the game record's next entry (issue 36)."""
    place, hash_ = store.chain_entry(session, game.id,
                                     lambda seq, _chain: record.clock_entry(seat.side, action, days, now, seq))
    session.add(ClockAct(game_id=game.id, side=seat.side, action=action, days=days, seq=game.seq, at=now,
                         record_seq=place, record_hash=hash_))


def may_claim(game: Game, seat: Seat, now: datetime, owes: bool = False) -> None:
    """``owes``: the claimer has a decision to make too (both decide at once)."""
    end = deadline(game)
    if end is None:
        raise ClockError("no clock is running")
    if seat.side == game.decision_side:
        raise ClockError("it is your own decision that is waiting")
    if owes:
        raise ClockError("you both decide at once and yours is still waiting: make it first")
    if now < end:
        raise ClockError(f"{game.decision_side} still has {words(int((end - now).total_seconds()))}")


def tick(sessions: Callable[[], Session], notices: Notices, now: datetime) -> int:
    """Reminders at 80% of the time and notices when it has run out; returns how many
    games it noted.  On PostgreSQL one worker at a time (an advisory lock); every note
    is also claimed by a conditional UPDATE, so none is sent twice."""
    noted = 0
    with sessions() as session:
        if session.get_bind().dialect.name == "postgresql" and not session.scalar(
                text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": LOCK_KEY}):
            return 0
        games = session.scalars(select(Game).where(Game.status == "active", Game.move_days.is_not(None),
                                                   Game.decision_side.is_not(None))).all()
        for game in games:
            end, remind = deadline(game), reminder_due(game)
            if end is None or remind is None:
                continue
            if now >= end and game.clock_noted != "overdue":
                noted += _note(session, notices, game, "overdue", end)
            elif remind <= now < end and game.clock_noted == "":
                noted += _note(session, notices, game, "reminded", end)
        session.commit()
    return noted


def _note(session: Session, notices: Notices, game: Game, what: str, end: datetime) -> int:
    # claimed only as read: not after a handover (a joint one keeps the start), a grant or a
    # vacation moved this deadline
    claimed = session.execute(update(Game).where(Game.id == game.id, Game.clock_noted == game.clock_noted,
                                                 Game.status == "active", Game.decision_side == game.decision_side,
                                                 Game.decision_since == game.decision_since,
                                                 Game.decision_extra == game.decision_extra)
                              .values(clock_noted=what).execution_options(synchronize_session=False))
    if claimed.rowcount != 1:
        return 0
    late = deciding_sides(game)  # both, in a decision they make at once
    name = store.game_name(game)
    about = f"{game.id}:clock:{int(end.timestamp())}"  # one of each per deadline and seat
    for seat in game.seats:
        if what == "reminded" and seat.side in late:
            notices.tell(session, seat, "reminder", f"{about}:remind:{seat.side}",
                         f"Reminder: your decision in {name} is due by {end:%d %b %H:%M} UTC")
        elif what == "overdue" and seat.side not in late:
            notices.tell(session, seat, "overdue", f"{about}:overdue:{seat.side}",
                         f"{' and '.join(late)} has run out of time in {name}: claim the game or give them more time")
    return 1


def _aware(moment: datetime) -> datetime:
    """SQLite gives times back without their zone; they are all UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
