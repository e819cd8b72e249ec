"""Per-address and per-seat rate limits (the ``limits`` library).

Counters live in memory, per worker process, unless ``RATE_LIMIT_STORAGE`` names a
shared store (``redis://host:6379``), which all workers then share.  A limit that is
reached answers 429 with ``Retry-After``.
"""

from __future__ import annotations

import math
import time

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.config import Settings

KINDS = ("create", "join", "auth_failures", "commands", "signin", "chat")


class RateLimited(HTTPException):
    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(429, f"too many {what}; try again in {retry_after} s",
                         headers={"Retry-After": str(retry_after)})


WHAT = {"create": "new games from this address", "join": "join attempts from this address",
        "auth_failures": "wrong passwords or secrets from this address", "commands": "commands from this seat",
        "signin": "sign-in links asked for (from this address, or for this e-mail address)",
        "chat": "chat messages from this seat"}


class RateLimits:
    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limit_enabled
        self.in_memory = settings.rate_limit_storage.startswith("memory://")  # counting does no I/O
        self.limiter = MovingWindowRateLimiter(storage_from_string(settings.rate_limit_storage))
        self.rules: dict[str, list[RateLimitItem]] = {
            "create": parse_many(settings.rate_limit_create),
            "join": parse_many(settings.rate_limit_join),
            "auth_failures": parse_many(settings.rate_limit_auth_failures),
            "commands": parse_many(settings.rate_limit_commands),
            "signin": parse_many(settings.rate_limit_signin),
            "chat": parse_many(settings.rate_limit_chat),
        }

    def hit(self, kind: str, key: str) -> None:
        """Count one request; refuse it (429) if it is over any of the kind's limits."""
        self._enforce(kind, key, count=True)

    def check(self, kind: str, key: str) -> None:
        """Refuse (429) if already over a limit, without counting this request."""
        self._enforce(kind, key, count=False)

    def _enforce(self, kind: str, key: str, count: bool) -> None:
        if not self.enabled:
            return
        for item in self.rules[kind]:
            ok = self.limiter.hit(item, kind, key) if count else self.limiter.test(item, kind, key)
            if not ok:
                raise RateLimited(WHAT[kind], self._retry_after(item, kind, key))

    def _retry_after(self, item: RateLimitItem, kind: str, key: str) -> int:
        reset = self.limiter.get_window_stats(item, kind, key).reset_time
        return max(1, math.ceil(reset - time.time()))


def client_address(request: Request) -> str:
    """The caller's address (uvicorn's --proxy-headers puts the real one here behind a proxy)."""
    return request.client.host if request.client else "unknown"
