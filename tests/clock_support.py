"""Helpers of the clock tests: a clock the server reads that the test moves, and a game with
a time control."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
from fastapi.testclient import TestClient

from app.models import utcnow

DAY = timedelta(days=1)


class Clock:
    def __init__(self) -> None:
        self.now = utcnow().replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now


def moved_clock(client: TestClient) -> Clock:
    """The app's clock replaced by one the test moves (the wall's time at first)."""
    c = Clock()
    client.app.state.games.now = c
    return c


def new_game(client: TestClient | httpx.Client, **clock_settings: Any) -> dict[str, str]:
    """A First Blood game with the clock settings given, both players with an address; the
    US (Alice) decides first.  (An in-process app's client, or a real server's.)"""
    created = client.post("/api/games", json={"side": "US", "name": "Alice", "email": "alice@example.org",
                                              **clock_settings})
    assert created.status_code == 201, created.text
    body = created.json()
    joined = client.post(f"/api/games/{body['game_id']}/join", json={
        "token": body["invite_url"].split("token=")[1], "name": "Bob", "email": "bob@example.net"})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return {"id": body["game_id"], "US": body["token"], "IJ": joined.json()["token"]}


def clock_of(client: TestClient, game: dict[str, str]) -> dict[str, Any]:
    return client.get(f"/api/games/{game['id']}/clock").json()["clock"]
