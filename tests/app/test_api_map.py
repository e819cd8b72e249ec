"""The map in the API (docs/api-map.md): both games, one schema, the same for every game of a
scenario, cacheable, and the board's SVG drawn from the same data (every hex's terrain agrees)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

GAMES = [("first_blood", "campaign"), ("pacific_battles", "short")]


def new_game(client: TestClient, game: str, scenario: str) -> dict[str, str]:
    side = "US" if game == "first_blood" else "Allied"
    r = client.post("/api/games", json={"game": game, "scenario": scenario, "side": side, "name": "Alice"})
    assert r.status_code == 201, r.text
    return {"id": r.json()["game_id"]}


@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_the_map_is_served_cacheable_the_same_for_every_game_of_a_scenario(client: TestClient, game: str,
                                                                           scenario: str) -> None:
    one, two = new_game(client, game, scenario), new_game(client, game, scenario)
    client.cookies.clear()
    a = client.get(f"/api/games/{one['id']}/map")  # a spectator may read it: no secret in a map
    assert a.status_code == 200 and a.headers["etag"] and "max-age" in a.headers["cache-control"]
    b = client.get(f"/api/games/{two['id']}/map")
    assert b.content == a.content and b.headers["etag"] == a.headers["etag"]
    again = client.get(f"/api/games/{one['id']}/map", headers={"If-None-Match": a.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    m = a.json()
    terrains = set(m["terrain"]) | {"sea"}
    assert all(h["terrain"] in terrains for h in m["hexes"])
    ids = {h["id"] for h in m["hexes"]}
    assert all(set(s["hexes"]) <= ids for s in m["hexsides"]) and set(m["objectives"]) <= ids
    assert any(p["name"] == "Henderson Field" for p in m["places"]) and set(m["airfields"]) <= ids
    assert "reconstruct" in m["note"].lower()
    if game == "pacific_battles":
        assert len(m["objectives"]) == 9 and {b["side"] for b in m["boxes"]} == {"Allied", "Japanese"}
        assert {s["kind"] for s in m["hexsides"]} >= {"river", "road", "trail"}
        assert m["terrain"]["mountain"]["movement"][1] is None  # no mechanised unit enters (11.5)
    else:
        assert [b["id"] for b in m["boxes"]] == ["A", "B", "C", "D"] and m["entries"]
        assert {s["kind"] for s in m["hexsides"]} >= {"river", "bridge", "ridge", "jungle"}
    assert client.get("/api/games/nosuchgame000/map").status_code == 404


@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_the_boards_svg_agrees_with_the_map_hex_by_hex(client: TestClient, game: str, scenario: str) -> None:
    g = new_game(client, game, scenario)
    client.cookies.clear()
    m: dict[str, Any] = client.get(f"/api/games/{g['id']}/map").json()
    page = client.get(f"/games/{g['id']}")
    assert page.status_code == 200
    drawn_text = page.text
    for url in re.findall(r'href="(/maps/[^"]+)"', page.text):  # a terrain drawn as a file of its own, kept
        drawn_text += client.get(url).text
    drawn = {h: t for t, h in re.findall(r'class="hex terrain-([a-z]+)[^"]*"[^>]*data-hex="(\d{4})"', drawn_text)}
    land = {h["id"]: h["terrain"] for h in m["hexes"] if h["terrain"] != "sea"}
    assert len(drawn) >= 0.9 * len(land)
    assert {h: t for h, t in drawn.items() if land.get(h) != t} == {}
