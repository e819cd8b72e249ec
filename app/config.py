"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

import os
import secrets
from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

DATA_DIR = Path("data")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore")

    # The store: a SQLite file by default, PostgreSQL (psycopg 3) in production,
    # e.g. postgresql+psycopg://user:pass@host/dbname
    database_url: str = f"sqlite:///{DATA_DIR / 'games.db'}"
    # Signs seat cookies; generated and kept in ./data when not given.
    secret_key: str = ""
    admin_user: str = "admin"
    admin_password: str = ""  # admin pages are refused until this is set
    base_url: str = "http://127.0.0.1:8000"
    snapshot_every: int = 50  # events between stored state snapshots
    secure_cookies: bool = False  # set true behind HTTPS
    # Demonstrations and browser tests only: every new game uses this dice secret,
    # so its rolls can be known in advance.  Never set it for real play.
    fixed_dice_secret: str = ""

    # Sizing, per worker process (README, "Sizing").  Requests that touch the database
    # are admitted `threads` at a time; each admitted request holds at most one
    # pooled connection, so the pool is exactly `threads` connections and nobody
    # waits for a connection while holding another resource.
    threads: int = 16
    # of those, at most this many reads (GETs) at a time, so that actions always find
    # room; 0: half of `threads`
    read_threads: int = 0
    # PostgreSQL: connections for the commands decided and written on the event loop
    # (app/fast_commands.py), besides the pool of `threads`; 0: none, every command goes
    # through a thread
    fast_writes: int = 4
    admission_timeout: float = 60.0  # seconds a request may wait for admission before a 503

    # Limits (README, "Limits").  Rates use the `limits` library's notation, e.g.
    # "20/minute;200/day".  Counters: "database" keeps the limits against abuse in the
    # database (held across workers and hosts) and the per-seat ones in each worker's
    # memory; "memory://" keeps them all per worker; a shared store such as
    # redis://127.0.0.1:6379 keeps them all there (app/ratelimit.py).
    rate_limit_enabled: bool = True
    rate_limit_storage: str = "database"
    rate_limit_create: str = "30/minute;300/day"  # new games and imports, per client address
    rate_limit_join: str = "30/minute"  # join attempts, per client address
    rate_limit_auth_failures: str = "10/minute;100/day"  # wrong admin passwords or seat secrets, per address
    rate_limit_commands: str = "300/minute"  # commands, per seat
    rate_limit_signin: str = "5/minute;30/day"  # sign-in links asked for, per client address and per e-mail address
    rate_limit_chat: str = "20/minute;500/day"  # chat messages, per seat
    max_body_bytes: int = 64 * 1024  # any request body
    max_import_bytes: int = 8 * 1024 * 1024  # an export file being imported
    page_size: int = 50  # games per page in the admin list

    # Mail (README, "Mail").  Without smtp_url every mail stays in the outbox that admins
    # read at /admin/outbox; with it (smtp://host:port, smtps://user:pass@host:port, or
    # smtp://user:pass@host:587 for STARTTLS) mails are sent from there.
    smtp_url: str = ""
    mail_from: str = "Guadalcanal <noreply@localhost>"
    mail_grace_seconds: int = 60  # "your move" waits this long; a player watching the game gets none
    mail_interval_seconds: float = 5.0  # how often each worker looks for mail due
    clock_interval_seconds: float = 60.0  # how often the clocks' reminders and timeouts are looked for
    computer_interval_seconds: float = 2.0  # how often each worker looks for the computer's moves due
    # Webhooks go only to https URLs on public addresses; true also allows http and private
    # addresses (hooks on the server's own network; tests).  app/webhooks.py says why.
    webhook_allow_private: bool = False

    # Live updates (README, "Live updates"): open boards hear of a move at once through
    # a Server-Sent Events stream, which holds no thread and no pooled connection.
    max_streams: int = 1000  # open streams per worker; more get a 503 (the page then polls)
    live_poll_seconds: float = 0.5  # SQLite only: how often other workers' moves are looked for
    poll_seconds: int = 30  # how often a page polls anyway (a stream lost behind a proxy)


def _secret_key_file() -> str:
    path = DATA_DIR / "secret_key"
    if not path.exists():
        ensure_private_dir(DATA_DIR)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(32))
    return path.read_text().strip()


def ensure_private_dir(path: Path) -> None:
    """Create a directory readable only by this user (it holds dice secrets)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for PostgreSQL or an in-memory database)."""
    if not url.startswith("sqlite:///") or url.startswith("sqlite:///:"):
        return None
    return Path(url.removeprefix("sqlite:///").split("?", 1)[0])


@lru_cache
def get_settings() -> Settings:
    settings = Settings()
    if not settings.secret_key:
        settings.secret_key = _secret_key_file()
    path = sqlite_path(settings.database_url)
    if path is not None:
        ensure_private_dir(path.parent)
    return settings
