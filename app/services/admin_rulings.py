"""An admin rules without rewriting history: a note, or time given to (or taken from) the
running decision, or a rewind to an earlier moment (the events after it struck, never
deleted), each with a reason, appended to the game's log as an event with the admin's name
(both players read it in their logs), and recorded in the admin audit."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from app import store
from app.models import Game
from app.services import clock, dice_keys
from app.services import record as game_record
from app.services.clock import ClockError, deadline
from app.services.games import GameService
from engine.core import rulings
from engine.core.errors import RuleError
from engine.core.events import Event
from engine.games import get_rules

HOUR = 3600


def rule(session: Session, service: GameService, game: Game, admin: str, reason: str, note: str = "",
         clock_hours: int = 0) -> int:
    """Append the ruling; the log's new length.  ``RuleError``: not a ruling (no reason, nothing
    ruled); ``ClockError``: a change of the clock without a running clock; ``StaleSequence``:
    the game moved while the ruling was written (nothing written)."""
    clock = None
    if clock_hours:
        if deadline(game) is None:
            raise ClockError("no clock is running: a clock ruling needs a decision under way")
        clock = {"side": game.decision_side, "hours": clock_hours}
    cmd = rulings.command(admin, reason.strip(), note.strip(), clock)
    rules = get_rules(game.game)
    state = service.state(session, game)
    # RuleError: refused, nothing written
    outcome, keyed = service.keyed_outcome(session, game, game.seq, rules, state, cmd, ruling=True)
    expected = game.seq
    store.begin_write(session, single=False)
    new_state, _texts = service.append_ruling(session, game, expected, outcome.events, cmd, state, keyed)
    if clock is not None:  # only the decision the admin saw: one that passed on meanwhile is left alone
        seconds = clock_hours * HOUR
        moved = session.execute(
            update(Game).where(Game.id == game.id, Game.decision_side == game.decision_side,
                               Game.decision_since == game.decision_since)
            .values(decision_extra=Game.decision_extra + seconds, deadline_ts=Game.deadline_ts + seconds,
                    clock_noted="").execution_options(synchronize_session=False))
        if moved.rowcount != 1:
            session.rollback()
            raise ClockError("the decision has just passed to the other side: look again")
    store.add_audit(session, admin, rulings.RULING, game.id,
                    {"seq": expected, "reason": reason.strip(), **({"clock_hours": clock_hours} if clock else {})})
    session.commit()
    service.ruled(game, new_state)
    return new_state.seq


def learned_since(session: Session, service: GameService, game: Game, to: int) -> dict[str, list[str]]:
    """What each side has read since moment ``to`` (the events after it, as it read them,
    taken back or not) that names something the board at ``to`` hides from it: a rewind
    there leaves it knowing all that."""
    rules = get_rules(game.game)
    then = service.state_at(session, game, to)
    events = [Event(r.type, r.payload, r.side) for r in store.events_between(session, game.id, to, game.seq)]
    seen = {side: rules.shown(then, events, side) for side in rules.sides}
    return {side: things for side, things in seen.items() if things}


def rewind(session: Session, service: GameService, game: Game, admin: str, reason: str, to: int,
           agreed: bool = False) -> int:
    """Go back to the moment after the first ``to`` events, which must be the moment before a
    command, and stand (not struck, nor showing struck events); the log's new length.  The
    decision then is its side's anew (its clock starts now), and a game over is played on.
    A rewind across a reveal (a side has seen since what the board then hides) needs
    ``agreed``: the admin's word that both players agreed.  RuleError, StaleSequence: as ``rule``."""
    rows = store.events_between(session, game.id, to, to + 1) if 0 < to < game.seq else []  # (an int4 column)
    if not rows or rows[0].command is None:
        raise RuleError("", "a rewind goes back to the moment before a command: the moment of a command's "
                            "first event in the log")
    struck = store.retractions(session, game.id)
    # a moment stands when it is not struck and nothing before it is struck by something after it
    if to in struck or any(n < to <= by for n, by in struck.items()):
        raise RuleError("", f"moment {to} was struck, or shows events struck after it: go back to one that stands")
    learned = learned_since(session, service, game, to)
    if learned and not agreed:
        raise RuleError("", "since that moment " + "; ".join(f"{side} has seen {len(things)} thing(s) the board "
                                                             "then hides" for side, things in learned.items())
                        + ": rewind only with both players' agreement (say so)")
    keyed = None
    if game.record_version >= dice_keys.VERSION:  # it rolls nothing: its key is the period's it is in
        if game.status == "finished":
            raise RuleError("", "this game is over and its seeds are published: after a rewind anybody could "
                                "foresee the dice to come, so a finished game of seed chains is not rewound")
        keyed = dice_keys.unrolled(game_record.chain_of(game))
    rules = get_rules(game.game)
    cmd = rulings.rewind_command(admin, reason.strip(), to)
    events = rulings.rewound(rules.state_to_json, cmd, game.seq, service.state_at(session, game, to))
    state = service.state(session, game)
    store.begin_write(session, single=False)
    new_state, _texts = service.append_ruling(session, game, game.seq, events, cmd, state, keyed)
    if new_state.result is None and game.status == "finished":
        session.execute(update(Game).where(Game.id == game.id).values(status="active")
                        .execution_options(synchronize_session=False))
    clock.handed_over(session, game.id, rules.prompt(new_state).side, service.now())
    store.add_audit(session, admin, rulings.REWIND, game.id, {"seq": game.seq - 1, "to": to, "reason": reason.strip(),
                                                             **({"agreed": True} if learned else {})})
    session.commit()
    service.ruled(game, new_state)
    return new_state.seq


__all__ = ["ClockError", "RuleError", "learned_since", "rewind", "rule"]
