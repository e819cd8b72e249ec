"""The computer opponent: a seat the computer plays decides as a person's would.

Its input is exactly what a player of that side receives (``engine.bots``): the events its
side may read, its view and its legal commands, never the state or the dice secret; its
own choices and simulated dice come from a seed of its own for the game and the side
(``bot_seed``: no player can work it out, so nobody can replay its mixed choices, such as
Pacific Battles' sealed air allocation, from what the game shows).  Its command
goes through the same service as a person's, and the log keeps it with the command
("by": "computer:<level>").  A periodic job in each worker plays every decision a computer
seat owes (one worker at a time on PostgreSQL: an advisory lock), so the computer answers
within seconds of the handover, outside the request threads.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import literal, select, text
from sqlalchemy.orm import Session

from app import store
from app.db import peek
from app.models import Game, Seat
from app.services import clock
from app.services.games import GameService
from app.services.notices import Notices
from engine.bots import levels_for, make_bot
from engine.bots.base import BotInput
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.core.visibility import for_viewer
from engine.games import get_rules

log = logging.getLogger(__name__)

LOCK_KEY = 780_824_002  # PostgreSQL advisory lock: one worker plays the computer's moves at a time
MOVES_PER_TURN = 500  # decisions one game's computer may make in one look at it (a whole set-up)
PASSES = 20  # looks in one run of the job, while its moves leave it more to play (the rest: its next run)
# the computer seats whose side decides now (``to_move``, written with every append: "A,B")
_OWED = (select(Seat.game_id, Seat.side, Seat.computer).join(Game)
         .where(Game.status == "active", Seat.computer.is_not(None),
                (literal(",") + Game.to_move + literal(",")).contains(literal(",") + Seat.side + literal(","))))
_ANY_OWED = _OWED.limit(1)


_running = threading.Event()  # the job is playing (in this worker)
_asked = threading.Event()  # a decision came up for the computer since the job last looked


def wake(start: Callable[[], None]) -> None:
    """A command in this worker left the computer a decision: the job now (``start``), or,
    if it is running, once more when it is done."""
    _asked.set()
    if not _running.is_set():
        start()


def play_due(sessions: Callable[[], Session], service: GameService, key: str) -> int:
    """Play every decision the computer owes, in every game; returns how many it made
    (``key``: the server's secret key, which its seeds are made with)."""
    _running.set()
    try:
        made = 0
        for _ in range(PASSES):
            _asked.clear()
            now = _play_due(sessions, service, key)
            made += now
            # again if a person moved meanwhile, or if its moves left the computer a decision
            # in a seat it did not owe one in when it looked (it plays both seats of a game)
            if not now and not _asked.is_set():
                break
        return made
    finally:
        _running.clear()


def _play_due(sessions: Callable[[], Session], service: GameService, key: str) -> int:
    if peek(sessions, _ANY_OWED) is None:
        return 0  # (every two seconds in every worker: most times the computer owes nothing)
    with sessions() as session:
        bind = session.get_bind()
        if bind.dialect.name != "postgresql":
            return _play_all(session, service, key)
        # the lock on a connection of its own: the moves commit one by one, and a session gives
        # its connection back to the pool at each commit
        with bind.connect() as lock:
            if not lock.scalar(text("SELECT pg_try_advisory_lock(:k)"), {"k": LOCK_KEY}):
                return 0
            try:
                return _play_all(session, service, key)
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": LOCK_KEY})
                lock.commit()


def _play_all(session: Session, service: GameService, key: str) -> int:
    seats = session.execute(_OWED).all()
    session.commit()
    return sum(_play_game(session, service, key, game_id, side, level) for game_id, side, level in seats)


def _play_game(session: Session, service: GameService, key: str, game_id: str, side: str, level: str) -> int:
    """The computer's decisions in one game while it owes one (a person's move then waits)."""
    service.computer_plays(game_id, [side])  # (a person's move that hands it back wakes the job)
    made = 0
    for _ in range(MOVES_PER_TURN):
        session.expire_all()  # the game as it is now: another worker's request may have moved it
        game = store.get_game(session, game_id)
        if game is None or game.status != "active":
            break
        rules = get_rules(game.game)
        state = service.state(session, game)
        if side not in rules.prompt(state).acting:
            break
        decision = make_bot(game.game, level).decide(bot_input(session, game, state, side, key))
        command = {"type": decision.command.type, "data": decision.command.data}
        try:
            service.submit(session, game, side, command, game.seq, by=f"computer:{level}")
        except store.StaleSequence:
            session.rollback()
            continue  # the other side moved meanwhile (a decision made at once): look again
        except RuleError:  # the bot offered what the rules refuse: a bug, never a move
            session.rollback()
            log.exception("the computer's command was refused in game %s", game_id)
            break
        made += 1
    return made


LEVEL_WORDS = {"greedy": "greedy (looks one move ahead, quick)", "search": "searching (weighs the dice ahead, slower)",
               "random": "random (a beginner's practice)"}


def levels_offered(game: str) -> list[tuple[str, str]]:
    """The computer's levels for ``game``, the default first, each with a few words."""
    first = list(LEVEL_WORDS)  # the default (greedy) first
    levels = sorted(levels_for(game), key=lambda lv: first.index(lv) if lv in first else len(first))
    return [(level, LEVEL_WORDS.get(level, level)) for level in levels]


def hand_over(session: Session, notices: Notices | None, game: Game, seat: Seat, level: str | None,
              service: GameService | None = None) -> None:
    """The seat's player lets the computer play for them at ``level`` while away (None: takes
    the seat back); the opponent is told.  A person's own command is still theirs to make.
    ``service``: this worker's, whose computer's job is woken if the seat decides now."""
    if level is not None and level not in levels_for(game.game):
        raise ValueError(f"the computer plays {get_rules(game.game).title} at {', '.join(levels_for(game.game))}")
    store.set_seat(session, seat, computer=level)
    if notices is not None:
        news = (f"{seat.side} has handed their seat to the computer ({level}) for now" if level is not None
                else f"{seat.side} has taken their seat back from the computer")
        for other in game.seats:
            if other.side != seat.side and other.joined_at is not None and other.computer is None:
                notices.tell(session, other, "seat", f"{game.id}:computer:{seat.side}:{game.seq}:{level}",
                             f"{news} in {store.game_name(game)}")
    session.commit()
    if service is not None:
        service.computer_plays(game.id, [s.side for s in game.seats if s.computer is not None],
                               tuple(clock.deciding_sides(game)))


def stand_in(session: Session, notices: Notices | None, game: Game, seat: Seat, now: datetime,
             level: str | None = None, service: GameService | None = None) -> str:
    """The opponent of a player whose time has run out lets the computer play that player's
    seat instead of claiming the game (the same conditions as a claim, clock.may_claim); the
    player takes it back on their return.  The side the computer now plays."""
    clock.may_claim(game, seat, now)
    late = next(s for s in game.seats if s.side == game.decision_side)
    hand_over(session, None, game, late, level or levels_offered(game.game)[0][0], service)
    if notices is not None and late.joined_at is not None:
        notices.tell(session, late, "seat", f"{game.id}:stand-in:{game.seq}",
                     f"Your time ran out in {store.game_name(game)}: the computer plays your seat until you take "
                     "it back")
        session.commit()
    return late.side


def bot_seed(key: str, game_id: str, side: str) -> str:
    """The computer's seed for ``side`` of a game: the same for each of its decisions in the
    game (the bots vary their draws by the moment themselves, and First Blood's draws its
    set-up from the book once a game), made with the server's secret ``key``, so that no
    player can make it: a seed of public things would let a player run the bot's code and
    read its secret choices."""
    return hmac.new(key.encode(), f"computer:{game_id}:{side}".encode(), hashlib.sha256).hexdigest()[:32]


def bot_input(session: Session, game: Game, state: object, side: str, key: str) -> BotInput:
    """What a player of ``side`` receives now: the log as it may read it, its view, its
    legal commands; and the computer's own seed for the side (``bot_seed``)."""
    rules = get_rules(game.game)
    rows = store.events_between(session, game.id, 0, game.seq)
    events = [seen for r in rows if (seen := for_viewer(Event(r.type, r.payload, r.side), side, rules.sides))]
    legal = rules.legal_commands(state, side)
    return BotInput(game.game, side, tuple(events), rules.view(state, side, legal), tuple(legal),
                    bot_seed(key, game.id, side))
