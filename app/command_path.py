"""The one way a player's command goes to the log, for the JSON API and the board alike.

A secret this worker has seen open a seat is counted against the seat's rate limit at
once; then, where the database allows (PostgreSQL) and the answer can be drawn without
reading (``Answer.fast``), the command is decided and written from the event loop
(app/fast_commands.py).  Everything else goes to one trip to a thread, where the answer
reads what it needs and hands the command to ``GameService.submit`` (the engine's
decision, the append, the clock and the mails in one transaction).  Either way the
route makes this one call; what differs is only what its answer needs and says."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi import Request, Response
from fastapi.concurrency import run_in_threadpool
from starlette.background import BackgroundTask, BackgroundTasks

from app.deps import presented_token
from app.fast_commands import Landed, submit_fast, write_snapshot
from app.security import GAME_ID, hash_token
from app.services.games import Decision

log = logging.getLogger(__name__)

Known = tuple[str, tuple[str, str]]  # the secret presented, and (game kind, side) of its seat


@dataclass(frozen=True)
class Sending:
    """A command on its way: the route's game, the command, the log length it was decided
    on, and what is known already (the seat its secret opened on this worker; whether the
    command was counted against the seat's limit; the engine's decision, if it was made)."""

    game_id: str
    command: dict[str, Any]
    expected_seq: int
    known: Known | None = None
    counted: bool = False
    decided: Decision | None = None


class Answer(Protocol):
    returning: bool  # the event loop's write returns the game row, for an answer drawn from it

    def fast(self, kind: str, command: dict[str, Any]) -> bool:
        """Whether the answer to ``command`` (a game of ``kind``) can be drawn from what the
        write returns, so that it may be written from the event loop."""

    async def landed(self, request: Request, landed: Landed, sending: Sending) -> Response:
        """The answer to a command written from the event loop (it is written: answer it)."""

    def in_thread(self, request: Request, sending: Sending) -> Response:
        """In a thread: read what the answer needs, submit, and answer (refusals too)."""


def known_seat(request: Request, game_id: str) -> Known | None:
    """The secret presented and (game kind, side) if this worker has seen it open a seat
    of the game (only a hint: each write checks the seat)."""
    token, bad_cookie = presented_token(request, game_id, request.app.state.settings)
    if not token or bad_cookie or not GAME_ID.fullmatch(game_id):
        return None
    known = request.app.state.games.known_seat(game_id, token)
    return None if known is None else (token, known)


async def send(request: Request, game_id: str, command: dict[str, Any], expected_seq: int,
               answer: Answer) -> Response:
    state = request.app.state
    sending = Sending(game_id, command, expected_seq)
    known = known_seat(request, game_id)
    if known is not None and answer.fast(known[1][0], command):
        state.limits.hit("commands", f"{game_id}:{known[1][1]}")
        sending = Sending(game_id, command, expected_seq, known, counted=True)
        if state.appends is not None:
            landed = await submit_fast(state.games, state.appends, game_id, known[1], hash_token(known[0]),
                                       command, expected_seq, returning=answer.returning)
            if isinstance(landed, Landed):
                response = await answer.landed(request, landed, sending)
                _after_answer(response, state, known[1][0], game_id, landed.snapshot)
                return response
            if isinstance(landed, Decision):
                sending = Sending(game_id, command, expected_seq, known, counted=True, decided=landed)
    elif known is not None:
        sending = Sending(game_id, command, expected_seq, known)
    response = await run_in_threadpool(answer.in_thread, request, sending)
    if known is not None:
        _after_answer(response, state, known[1][0], game_id)
    return response


def _after_answer(response: Response, state: Any, kind: str, game_id: str, snapshot: Any = None) -> None:
    """What a command's answer does once it is sent (a socket's: board_socket.py): the
    snapshot of the state after it, when one is due; what the game's coming decision will
    ask first, asked ahead (``GameService.ahead``: a First Blood movement phase's searches)."""
    tasks = []
    if snapshot is not None:
        tasks.append(BackgroundTask(write_snapshot, state.appends, kind, game_id, snapshot))
    work = state.games.ahead(kind, game_id)
    if work is not None:
        tasks.append(BackgroundTask(_ask_ahead, work))
    if tasks:
        response.background = tasks[0] if len(tasks) == 1 else BackgroundTasks(tasks)


async def _ask_ahead(work: Callable[[], None]) -> None:
    try:
        await run_in_threadpool(work)  # (some milliseconds of the engine's: off the event loop)
    except Exception:  # noqa: BLE001 - only a head start: the decision asks again when it comes
        log.warning("asking ahead after a command failed", exc_info=True)
