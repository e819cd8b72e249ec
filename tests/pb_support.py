"""Pacific Battles games for the server tests: one created by the Japanese and joined by
the Allies through the API."""

from __future__ import annotations

import httpx

SET_UP = ("11+13 Eng", "3 K SNLF (-)", "81 Inf")  # 25.4a: placed in secret


def new_game(client: httpx.Client) -> dict[str, str]:
    """Through the API of an in-process app (a TestClient) or of a running server."""
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                        "name": "Hyakutake"})
    assert r.status_code == 201, r.text
    body = r.json()
    invite = body["invite_url"].split("token=")[1]
    r2 = client.post(f"/api/games/{body['game_id']}/join", json={"token": invite, "name": "Vandegrift"})
    assert r2.status_code == 200, r2.text
    client.cookies.clear()
    return {"id": body["game_id"], "Japanese": body["token"], "Allied": r2.json()["token"]}
