"""Seat secrets, signed cookies and admin credentials.

A seat's secret is a random token shown once, in its private link; the server
keeps only its SHA-256.  Browsers carry it in a signed, HttpOnly cookie per
game; API clients send it as a bearer token.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets

GAME_ID = re.compile(r"[0-9a-f]{6,32}")  # what new_game_id gives; anything else is no game

def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_game_id() -> str:
    return secrets.token_hex(6)


def cookie_name(game_id: str) -> str:
    return f"seat_{game_id}"


def sign(value: str, key: str) -> str:
    mac = hmac.new(key.encode(), value.encode(), hashlib.sha256).digest()
    return f"{value}.{base64.urlsafe_b64encode(mac).decode().rstrip('=')}"


def unsign(signed: str, key: str) -> str | None:
    value, _, _mac = signed.rpartition(".")
    if not value:
        return None
    return value if hmac.compare_digest(sign(value, key), signed) else None


def check_admin(user: str, password: str, want_user: str, want_password: str) -> bool:
    if not want_password:
        return False
    ok_user = hmac.compare_digest(user.encode(), want_user.encode())
    ok_pass = hmac.compare_digest(password.encode(), want_password.encode())
    return ok_user and ok_pass
