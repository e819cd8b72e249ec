"""An admin rules without rewriting history: a note, or time given to (or taken from) the
running decision, with a reason, appended to the game's log as a ``ruling`` event with the
admin's name (both players read it in their logs), and recorded in the admin audit."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from app import store
from app.models import Game
from app.services.clock import ClockError, deadline
from app.services.games import GameService
from engine.core import rulings
from engine.core.errors import RuleError
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
    events = rules.decide(state, cmd)  # RuleError: refused, nothing written
    expected = game.seq
    store.begin_write(session, single=False)
    new_state, _texts = service.append_ruling(session, game, expected, events, cmd, state)
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


__all__ = ["ClockError", "RuleError", "rule"]
