"""Per-address and per-seat rate limits (the ``limits`` library, moving windows).

Where the counters live is ``RATE_LIMIT_STORAGE``:

- ``database`` (the default): the limits that guard against abuse (new games, joins,
  wrong secrets and passwords, sign-in mails) count in the server's own database, so they
  hold across every worker and every host (app/rate_store.py); this worker's memory counts
  them too and refuses first, so a flood of refused requests costs the database nothing.
  The per-seat limits (commands, chat messages) count in each worker's memory: they keep a
  runaway client from flooding the game, and cost a command no I/O.
- ``memory://``: every limit in each worker's memory (one worker only).
- a shared store such as ``redis://host:6379``: every limit there.

A limit that is reached answers 429 with ``Retry-After``.
"""

from __future__ import annotations

import math
import time

from fastapi import HTTPException, Request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.config import Settings
from app.db import make_engine
from app.rate_store import DatabaseStorage

KINDS = ("create", "join", "auth_failures", "commands", "signin", "chat")


class RateLimited(HTTPException):
    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(429, f"too many {what}; try again in {retry_after} s",
                         headers={"Retry-After": str(retry_after)})


WHAT = {"create": "new games from this address", "join": "join attempts from this address",
        "auth_failures": "wrong passwords or secrets from this address", "commands": "commands from this seat",
        "signin": "sign-in links asked for (from this address, or for this e-mail address)",
        "chat": "chat messages from this seat"}


RATE_CONNECTIONS = 4  # per worker, for the database storage
SHARED = ("create", "join", "auth_failures", "signin")  # with ``database``, held across workers and hosts
EXPIRE_EVERY = 1.0  # seconds between two sweeps of the memory's expired entries


class QuietMemoryStorage(MemoryStorage):
    """``limits``' memory storage, its expired entries swept inline at most once a second.

    The library's own starts a timer thread 10 ms long whenever none is running, so on a
    worker that counts a command more than 10 ms after the last, each command started a
    thread, and waited for it to start: on the event loop, a fifth of a command's time in
    process (py-spy).  Entries past their window never count (each hit compares times);
    the sweep only frees their memory.  (Overrides the library's private hook: a test
    counts the threads, so a release that renames it turns CI red.)"""

    def __init__(self) -> None:
        super().__init__()
        self._next_sweep = 0.0

    def _MemoryStorage__schedule_expiry(self) -> None:
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + EXPIRE_EVERY
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


class RateLimits:
    def __init__(self, settings: Settings) -> None:
        self.enabled = settings.rate_limit_enabled
        storage = settings.rate_limit_storage
        memory = MovingWindowRateLimiter(QuietMemoryStorage())
        # (limiter, ...) per kind: each must admit a request; the first is the cheapest
        self.limiters: dict[str, tuple[MovingWindowRateLimiter, ...]] = dict.fromkeys(KINDS, (memory,))
        self.store: DatabaseStorage | None = None
        if storage == "database":
            # connections of its own, a few: never the requests' pool (README, "Sizing")
            self.store = DatabaseStorage(make_engine(settings.database_url, pool_size=RATE_CONNECTIONS))
            shared = MovingWindowRateLimiter(self.store)
            self.limiters.update({kind: (memory, shared) for kind in SHARED})
        elif not storage.startswith("memory://"):
            self.limiters = dict.fromkeys(KINDS, (MovingWindowRateLimiter(storage_from_string(storage)),))
        # counting a command does no I/O (app/fast_commands.py counts them on the event loop)
        self.in_memory = self.limiters["commands"] == (memory,)
        self.rules: dict[str, list[RateLimitItem]] = {
            "create": parse_many(settings.rate_limit_create),
            "join": parse_many(settings.rate_limit_join),
            "auth_failures": parse_many(settings.rate_limit_auth_failures),
            "commands": parse_many(settings.rate_limit_commands),
            "signin": parse_many(settings.rate_limit_signin),
            "chat": parse_many(settings.rate_limit_chat),
        }

    def close(self) -> None:
        if self.store is not None:
            self.store.engine.dispose()

    def hit(self, kind: str, key: str) -> None:
        """Count one request; refuse it (429) if it is over any of the kind's limits."""
        self._enforce(kind, key, count=True)

    def check(self, kind: str, key: str) -> None:
        """Refuse (429) if already over a limit, without counting this request."""
        self._enforce(kind, key, count=False)

    def _enforce(self, kind: str, key: str, count: bool) -> None:
        if not self.enabled:
            return
        for limiter in self.limiters[kind]:
            for item in self.rules[kind]:
                ok = limiter.hit(item, kind, key) if count else limiter.test(item, kind, key)
                if not ok:
                    reset = limiter.get_window_stats(item, kind, key).reset_time
                    raise RateLimited(WHAT[kind], max(1, math.ceil(reset - time.time())))


def client_address(request: Request) -> str:
    """The caller's address (uvicorn's --proxy-headers puts the real one here behind a proxy)."""
    return request.client.host if request.client else "unknown"
