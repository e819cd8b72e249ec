"""Events one side may read and the others read only a stub of: the secret moves, the
decisions owed and their steps.  Above ``describe`` (a stub carries its own log line) and
below every phase that writes them; ``queries`` only asks, it never writes."""

from __future__ import annotations

from typing import Any

from engine.core.events import Event
from engine.core.game import Emitter
from engine.core.visibility import hide
from engine.games.pacific_battles.describe import describe


def secret(em: Emitter, type_: str, reader: str, public: dict[str, Any] | None, actor: str | None = None,
           **data: Any) -> None:
    """An event only ``reader`` may read (``public``: what the others read, None: nothing).
    The public stub carries its own log line ("text"), written from the stub alone."""
    if public is not None:
        line = describe(em.state, Event(type_, public, actor))
        public = {**public, "text": line} if line else public
    em.emit(type_, actor, **hide(data, [reader], public))


def owe(em: Emitter, decision: dict[str, Any]) -> None:
    """A decision owed: its details for the deciding side only (they may name its hidden
    pieces); the others read who owes what kind of decision."""
    side = decision["side"]
    secret(em, "decision_owed", side, {"decision": {"side": side, "kind": decision["kind"]}}, decision=decision)


def progress(em: Emitter, actor: str | None, changes: dict[str, Any], **extra: Any) -> None:
    """A step of the decision at the head of the queue, for its side only."""
    side = em.state.pending[0]["side"]
    secret(em, "decision_progress", side, {"side": side}, actor=actor, changes=changes, **extra)
