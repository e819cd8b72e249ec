"""Helpers shared by the server tests (importable because pytest puts tests/ on the path)."""

from __future__ import annotations

ADMIN = ("admin", "admin-test-password")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
