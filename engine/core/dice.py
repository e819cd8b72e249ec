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


def commitment(secret: str) -> str:
    """The public hash of a game's dice secret, shown when the game starts."""
    return hashlib.sha256(secret.encode()).hexdigest()


def roll(secret: str, event_no: int, index: int = 0, sides: int = 6) -> int:
    """Die number ``index`` of event ``event_no``: an int in ``1..sides`` (1 to 256)."""
    if not 1 <= sides <= 256:
        raise ValueError("a die has 1 to 256 sides")
    limit = 256 - 256 % sides  # reject bytes that would bias the die
    counter = 0
    while True:
        msg = f"{event_no}:{index}:{counter}".encode()
        digest = hmac.new(secret.encode(), msg, hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:
                return byte % sides + 1
        counter += 1


def derive_secret(seed: int | str, game_id: str = "") -> str:
    """A game secret from a seed (tests, self-play); servers pass a random one."""
    return hashlib.sha256(f"{len(game_id)}:{game_id}:{seed}".encode()).hexdigest()
