"""Issue 29: First Blood's board page (``GET /games/{id}`` with the seat's cookie) is at
most 100 KB at every stage of a game: the terrain is a file of its own that the browser
keeps, and the page holds only what changes.  Looked at as each seat and a spectator see
it, at the set-up and in the middle of a game (the benchmarks' largest pages were
between 300 and 500 events)."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from app_support import ADMIN, self_played
from fastapi.testclient import TestClient

from engine.core.dice import derive_secret

LIMIT = 100 * 1024  # bytes (benchmarks/action_latency.py's goal)
FORMAT = "guadalcanal-pbem/1"


@functools.cache
def export_after(events_wanted: int) -> dict[str, Any]:
    """A game played by the self-play chooser until it holds some ``events_wanted`` events,
    as an export file."""
    events, _state = self_played(derive_secret("page-size", "board-page-size-tests"), "page-size",
                                 lambda events: len(events) >= events_wanted)
    assert len(events) >= events_wanted, "the game ended first"
    return {"format": FORMAT, "game": "first_blood", "scenario": "campaign", "options": {}, "status": "active",
            "result": None, "created_at": "2026-01-01T00:00:00+00:00",
            "seats": [{"side": "IJ", "name": "Kawaguchi"}, {"side": "US", "name": "Vandegrift"}],
            "events": [{"seq": n, **e} for n, e in enumerate(events)]}


def pages(client: TestClient, gid: str, tokens: dict[str, str]) -> dict[str, bytes]:
    """The board page as each seat's browser gets it (its cookie), and a spectator's."""
    out = {}
    for side, token in tokens.items():
        client.cookies.clear()
        assert client.post(f"/games/{gid}/seat", data={"token": token}, follow_redirects=False).status_code == 303
        out[side] = client.get(f"/games/{gid}").content
    client.cookies.clear()
    out["spectator"] = client.get(f"/games/{gid}").content
    return out


def check(client: TestClient, got: dict[str, bytes]) -> None:
    for who, page in got.items():
        assert len(page) <= LIMIT, f"{who}'s board page: {len(page) / 1024:.1f} KB"
        assert page.count(b"<svg") == 2 and b'class="fb-map map-base"' in page and b'id="map-layers"' in page
    # the terrain, fetched once and kept, is the same file for every board
    (url,) = set(re.findall(rb'href="(/maps/first_blood\.svg\?v=[0-9a-f]+)"', b"".join(got.values())))
    r = client.get(url.decode())
    assert r.status_code == 200 and "immutable" in r.headers["cache-control"]


def test_the_board_page_at_the_set_up_is_at_most_100_kb(client: TestClient) -> None:
    made = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    joined = client.post(f"/api/games/{made['game_id']}/join",
                         json={"token": made["invite_url"].split("token=")[1], "name": "Bob"}).json()
    check(client, pages(client, made["game_id"], {"US": made["token"], joined["side"]: joined["token"]}))


@pytest.mark.parametrize("events", [150, 450])
def test_the_board_page_in_the_middle_of_a_game_is_at_most_100_kb(client: TestClient, events: int) -> None:
    client.cookies.clear()
    r = client.post("/api/games/import", json=export_after(events), auth=ADMIN)
    assert r.status_code == 201, r.text
    body = r.json()
    tokens = {side: link.split("#token=", 1)[1] for side, link in body["seats"].items()}
    got = pages(client, body["game_id"], tokens)
    assert all(b'class="counter ' in page for page in got.values())  # a game under way: counters on the map
    check(client, got)


def test_a_unit_selected_at_the_set_up_is_at_most_100_kb(client: TestClient) -> None:
    """The largest board there is: a unit selected at the set-up, each of its some 130
    places a button on the map and in its list of orders.  One hex shape for every hit
    area, the highlight its own outline, the list's type, unit and words said once (each
    button only its place), the unit lists one form each (each button only its unit), no
    id on a hex the data names: 142 KB became under 100."""
    made = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid = made["game_id"]
    client.post(f"/api/games/{gid}/join", json={"token": made["invite_url"].split("token=")[1], "name": "Bob"})
    client.cookies.clear()
    assert client.post(f"/games/{gid}/seat", data={"token": made["token"]}, follow_redirects=False).status_code == 303
    page = client.get(f"/games/{gid}", params={"select": "us-1-1"}).content
    assert page.count(b'class="hex-state reachable') > 100  # every place a button
    assert page.count(b'name="pick"') > 100  # and in the list
    assert len(page) <= LIMIT, f"{len(page) / 1024:.1f} KB"
    answer = client.get(f"/games/{gid}/board", params={"select": "us-1-1", "seq": 0}).content
    assert len(answer) <= LIMIT, f"{len(answer) / 1024:.1f} KB"
