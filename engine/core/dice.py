"""Deterministic, recorded dice.

Every roll is derived from the game's secret and the number of the event that
records it, with HMAC-SHA256 and rejection sampling for a fair die.  Anyone
who later learns the secret can recompute every roll; nobody who only knows
its hash (``commitment``) can predict one.  The values are always written into
the event, so a replay never rolls again.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

T = TypeVar("T")


def commitment(secret: str | None) -> str:
    """The public hash of a game's dice secret, shown when the game starts ("" for a game
    made without one: its record commits to seed chains instead, engine/core/seeds.py)."""
    return "" if secret is None else hashlib.sha256(secret.encode()).hexdigest()


_RECORDING: ContextVar[list[list[int]] | None] = ContextVar("dice_recording", default=None)


@contextmanager
def recording() -> Iterator[list[list[int]]]:
    """Every die rolled in this block (in this context), as ``[event number, index, sides,
    value]``: what a game record lists so that each die can be checked (engine/record)."""
    rolls: list[list[int]] = []
    token = _RECORDING.set(rolls)
    try:
        yield rolls
    finally:
        _RECORDING.reset(token)


class NoSecret(RuntimeError):
    """A die rolled from a state with no dice secret: a game of seed chains (engine/core/seeds.py)
    rolls only with its period's key, never from its creation's empty secret."""


def roll(secret: str, event_no: int, index: int = 0, sides: int = 6) -> int:
    """Die number ``index`` of event ``event_no``: an int in ``1..sides`` (1 to 256)."""
    if secret is None:
        raise NoSecret("a die was rolled with no dice secret (a decision made without its period's key)")
    if not 1 <= sides <= 256:
        raise ValueError("a die has 1 to 256 sides")
    limit = 256 - 256 % sides  # reject bytes that would bias the die
    counter = 0
    while True:
        msg = f"{event_no}:{index}:{counter}".encode()
        digest = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:
                value = byte % sides + 1
                rolls = _RECORDING.get()
                if rolls is not None:
                    rolls.append([event_no, index, sides, value])
                return value
        counter += 1


def draw(secret: str, event_no: int, pool: Sequence[T], index: int = 0) -> T:
    """Draw number ``index`` of event ``event_no`` from ``pool`` (a marker from a cup):
    every item equally likely, from the same secret as the dice.  The caller records
    what was drawn in the event, and removes it from the pool if it stays out."""
    if not pool:
        raise ValueError("nothing to draw from an empty pool")
    if len(pool) > 256:
        raise ValueError("a pool holds at most 256 items")
    return pool[roll(secret, event_no, 1000 + index, len(pool)) - 1]


def derive_secret(seed: int | str, game_id: str = "") -> str:
    """A game secret from a seed (tests, self-play); servers pass a random one."""
    return hashlib.sha256(f"{len(game_id)}:{game_id}:{seed}".encode()).hexdigest()


def force(state: object, value: int, index: int = 0) -> None:
    """For tests and examples: give ``state`` a secret under which die ``index`` of its next
    event shows ``value``."""
    for n in range(10_000):
        secret = f"forced-{value}-{n}"
        if roll(secret, state.seq, index) == value:  # type: ignore[attr-defined]
            state.secret = secret  # type: ignore[attr-defined]
            return
    raise RuntimeError("no secret found")  # practically impossible
