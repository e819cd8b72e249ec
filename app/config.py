"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

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


def _secret_key_file() -> str:
    path = DATA_DIR / "secret_key"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()


@lru_cache
def get_settings() -> Settings:
    settings = Settings()
    if not settings.secret_key:
        settings.secret_key = _secret_key_file()
    if settings.database_url.startswith("sqlite:///") and not settings.database_url.startswith("sqlite:///:"):
        Path(settings.database_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return settings
