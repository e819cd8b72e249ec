"""Commands decided on the event loop and written without the request threads.

A command can be decided without reading anything when this worker has seen its secret
open the seat (``GameService.seats``) and holds the state after the command's expected
number of events.  Then it is decided here and written: on PostgreSQL by one statement
over an asyncio connection (app/async_appends.py), on SQLite by the thread path's
statements in one transaction in a writer thread of its own (app/sqlite_appends.py).
The write itself checks that the log is still that long and that the seat still holds
the secret, and (for a board's answer) gives the game row as written, so the request
reads nothing and never waits for a request thread.  (Drawing the answer while the write
travels gained nothing on the 2-core benchmark machine: the database and the drawing
then share the cores.)

A command that hands the decision over is written here too, with the next side's clock
(in the same statement; on SQLite, the same transaction), as long as that side's seat
wants no notice (no mail, no webhook): the write checks, and one that must queue a notice
writes nothing and goes to the thread path, with the engine's decision, as do that game's
later handovers on this worker.

A command that starts a new dice period is written here too, the period's published seed
(an entry of the game's record) with it.

Anything else (a command the engine refuses, the game's first command, which shows the
players' entropy, one that ends the game, a write that lost a race or failed) answers None *before*
anything was written or after nothing was, and the route's thread path then answers
exactly as it would have without this one.

A command whose events pass a snapshot's place (every ``snapshot_every`` events) is
written here too, and the snapshot after its answer (``write_snapshot``): a snapshot only
spares a replay, so the command need not wait for it, and one lost to a crash costs the
next load a longer replay, until the next is due."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool

from app import store
from app.models import Game
from app.services import record as game_record
from app.services.dice_keys import NeedsRead
from app.services.games import Decision, GameService, Submitted, listed_after
from engine.core.errors import RuleError
from engine.core.events import Command
from engine.games import get_rules

log = logging.getLogger(__name__)


class Appends(Protocol):
    """Where the event loop writes (app/async_appends.py on PostgreSQL, app/sqlite_appends.py)."""

    errors: tuple[type[Exception], ...]  # what a failed write raises

    def room(self) -> bool: ...

    def recover(self) -> None: ...

    async def append(self, batch: store.Batch, returning: bool) -> list[tuple[Any, ...]] | int: ...

    async def snapshot(self, params: dict[str, Any]) -> None: ...


@dataclass
class Landed:
    game: Game | store.GameHead  # with ``returning``: the game row as written, with its seats
    side: str
    done: Submitted
    snapshot: Any = None  # the state after the command, when a snapshot of it is due


async def submit_fast(service: GameService, appends: Appends, game_id: str, known: tuple[str, str],
                      token_hash: str, command: dict[str, Any], expected_seq: int, *,
                      returning: bool = False) -> Landed | Decision | None:
    """Decide and write ``command`` for the seat ``known`` names ((game kind, side)) on
    the cached state.  Else nothing is written, and the thread path answers: given the
    engine's decision if it was made and holds (a command that writes more than its
    events), None if not."""
    state = service.cache.get(game_id, expected_seq)
    if state is None or not appends.room():
        return None
    kind, side = known
    head = store.GameHead(game_id, kind, expected_seq)
    cmd = Command(str(command.get("type", "")), command.get("data") or {}, side)
    try:
        decision = service.decide(None, head, cmd, side, expected_seq, state)
    except (RuleError, NeedsRead):
        return None  # the thread path says why, with the board (or reads what keys the dice)
    if not decision.entries_in_statement:
        return decision  # it writes more than its events and entries: one transaction, in a thread
    handover = _handover(service, game_id, decision)
    if (decision.handover or decision.noticed) and handover is None:
        return decision  # (the statement of a handover checks that it is quiet: no notices)
    outcome = decision.outcome
    status = "finished" if outcome.state.result is not None else None
    batch = store.Batch(game_id, expected_seq, outcome.events, outcome.texts, side, cmd, status,
                        outcome.state.result, token_hash,
                        listed=listed_after(get_rules(kind), outcome.state, decision.after), keyed=decision.keyed,
                        handover=handover)
    known_chain = game_record.remembered(game_id, expected_seq)  # (the batch remembers the chain after it)
    try:
        answer = await appends.append(batch, returning)
    except appends.errors:  # (PostgreSQL: the pool's timeout too; SQLite: a lock not had in time)
        # The thread path tries again and says what it finds: should this write have
        # landed after all, the game has moved on by this very command.
        log.warning("a command's write from the event loop failed; the thread path answers", exc_info=True)
        appends.recover()
        return None
    game: Game | store.GameHead | None
    if returning:
        game = store.game_from_row(answer, len(outcome.events))  # type: ignore[arg-type]
    else:
        game = store.GameHead(game_id, kind, batch.new_seq) if answer == len(outcome.events) else None
    if game is None:
        if known_chain[0]:  # nothing was written: the chain is still the one before the batch
            game_record.remember(game_id, known_chain[1], expected_seq)
        if handover is not None:  # (or a seat that wants a notice, or a clock changed meanwhile)
            service.noticed_games.put(game_id, True)
            return decision
        return None  # a stale sequence or a replaced secret: the thread path says which
    snapshot = outcome.state if decision.snapshot_due else None
    return Landed(game, side, service.recorded(head, decision), snapshot)


def _handover(service: GameService, game_id: str, decision: Decision) -> store.Handover | None:
    """The clock to start with ``decision``'s events, if it is a handover the event loop
    may write: to a side (not the game's end), in a game whose handovers have not been
    found to want notices here."""
    if (not decision.handover or decision.after.side is None or decision.outcome.state.result is not None
            or service.noticed_games.get(game_id)):
        return None
    return store.Handover(decision.after.side, joint=decision.joint, notices=service.notices is not None,
                          now=service.now())


async def write_snapshot(appends: Appends, kind: str, game_id: str, state: Any) -> None:
    """After a command's answer: the snapshot of the state after it (drawn in a thread, a
    state's JSON being some milliseconds of work the event loop need not wait for)."""
    try:
        params = await run_in_threadpool(lambda: store.snapshot_params(game_id, state.seq,
                                                                       get_rules(kind).state_to_json(state)))
        await appends.snapshot(params)
    except Exception:  # noqa: BLE001 - a snapshot is only a shortcut: the next one is due soon
        log.warning("a snapshot after a command was not stored", exc_info=True)
        appends.recover()
