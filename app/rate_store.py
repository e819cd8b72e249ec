"""A ``limits`` storage in the server's own database: the moving windows of the rate
limits that must hold across every worker and every host (sign-ins, wrong secrets and
passwords, new games, joins), with no service besides the database.

Each counted request is a row (its key names the limit and what it counts); a request is
admitted by one transaction that sees every other's: on PostgreSQL under an advisory
lock on the key, on SQLite by a single INSERT ... SELECT, which holds the write lock from
its start.  Only the moving window is kept (``MovingWindowRateLimiter``).
"""

from __future__ import annotations

import time

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import Engine, delete, func, insert, literal, select, text
from sqlalchemy.exc import SQLAlchemyError

from app.models import RateHit

_LOCK = text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 7412904))")
_KEPT_SECONDS = 2 * 86_400  # longer than any window a limit may have (README, "Limits": a day)


class DatabaseStorage(Storage, MovingWindowSupport):
    """Moving windows in the ``rate_hits`` table, through its own small pool of
    connections (never the requests' pool, so that a request holding one connection never
    waits for a second: README, "Sizing")."""

    STORAGE_SCHEME = None  # made by the app with its engine, not from a URI

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    @property
    def base_exceptions(self) -> type[Exception]:
        return SQLAlchemyError

    # --- the moving window --------------------------------------------------------
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        in_window = select(func.count()).select_from(RateHit).where(RateHit.key == key, RateHit.at > now - expiry)
        hit = select(literal(key, RateHit.key.type), literal(now, RateHit.at.type))
        with self.engine.begin() as conn:
            if self.postgres:  # the count below sees every hit committed before this one
                conn.execute(_LOCK, {"key": key})
            conn.execute(delete(RateHit).where(RateHit.key == key, RateHit.at <= now - expiry))
            # (RETURNING: the driver reports no row count for an INSERT ... SELECT)
            first = conn.execute(insert(RateHit).from_select(
                ["key", "at"], hit.where(in_window.scalar_subquery() + amount <= limit)).returning(RateHit.id))
            if not first.all():
                return False
            for _ in range(amount - 1):  # room was made for them all
                conn.execute(insert(RateHit).values(key=key, at=now))
            return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self.engine.connect() as conn:
            count, oldest = conn.execute(select(func.count(), func.min(RateHit.at))
                                         .where(RateHit.key == key, RateHit.at > now - expiry)).one()
        return (oldest if oldest is not None else now), count

    # --- the rest of a storage's interface ------------------------------------------
    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(RateHit).where(RateHit.key == key))

    def reset(self) -> int:
        with self.engine.begin() as conn:
            return conn.execute(delete(RateHit)).rowcount

    def check(self) -> bool:
        with self.engine.connect() as conn:
            conn.execute(select(1))
        return True

    def purge(self) -> int:
        """Forget hits older than any window (a periodic job)."""
        with self.engine.begin() as conn:
            return conn.execute(delete(RateHit).where(RateHit.at < time.time() - _KEPT_SECONDS)).rowcount

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        raise NotImplementedError("this storage keeps moving windows only (MovingWindowRateLimiter)")

    def get(self, key: str) -> int:
        raise NotImplementedError("this storage keeps moving windows only (MovingWindowRateLimiter)")

    def get_expiry(self, key: str) -> float:
        raise NotImplementedError("this storage keeps moving windows only (MovingWindowRateLimiter)")

