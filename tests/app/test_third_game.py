"""A new game touches no shared file (issue 29): "Sealed Bids" (tests/third_game/) is
registered through the same contract as the bundled games, its rules with
``engine.games.register`` and its board with ``app.games.register``, and is then played
through the JSON API and through its pages, with its sealed bids kept from the other
side until both are in."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from app_support import bearer, listed
from fastapi.testclient import TestClient
from pb_support import seat
from third_game import registered

from app.config import Settings
from app.main import create_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def third(settings: Settings) -> Iterator[TestClient]:
    with registered(), TestClient(create_app(settings)) as c:
        yield c


def new_game(client: TestClient) -> dict[str, str]:
    r = client.post("/api/games", json={"game": "sealed_bids", "scenario": "standard", "side": "North",
                                        "name": "Nora"})
    assert r.status_code == 201, r.text
    body = r.json()
    r2 = client.post(f"/api/games/{body['game_id']}/join",
                     json={"token": body["invite_url"].split("token=")[1], "name": "Sam"})
    assert r2.status_code == 200, r2.text
    client.cookies.clear()
    return {"id": body["game_id"], "North": body["token"], "South": r2.json()["token"]}


def bid(client: TestClient, g: dict[str, str], side: str, amount: int) -> dict:
    legal = client.get(f"/api/games/{g['id']}/legal", headers=bearer(g[side])).json()
    r = client.post(f"/api/games/{g['id']}/commands", headers=bearer(g[side]),
                    json={"type": "bid", "data": {"amount": amount}, "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_third_game_lives_outside_every_shared_file() -> None:
    named = subprocess.run(["git", "grep", "-l", "-i", "sealed.bids", "--", "app", "engine", "templates", "static",
                            "migrations"], cwd=ROOT, capture_output=True, text=True)
    assert named.stdout == "", f"shared files name the third game: {named.stdout}"


def test_the_third_game_is_played_over_the_api_with_its_bids_sealed(third: TestClient) -> None:
    g = new_game(third)
    gid = g["id"]
    bid(third, g, "North", 7)
    # South may not learn North's bid: not in its view, its legal list or the log
    seen = "".join(third.get(path, headers=bearer(g["South"]), params=params).text for path, params in (
        (f"/api/games/{gid}", {}), (f"/api/games/{gid}/legal", {}), (f"/api/games/{gid}/log", {"limit": 100})))
    assert '"decision":7' not in seen and '"my_bid":7' not in seen and '"sealed":true' in seen
    assert third.get(f"/api/games/{gid}", headers=bearer(g["South"])).json()["my_bid"] is None
    assert third.get(f"/api/games/{gid}", headers=bearer(g["North"])).json()["my_bid"] == 7
    # the same side may not bid twice; an illegal bid names its rule and changes nothing
    legal = third.get(f"/api/games/{gid}/legal", headers=bearer(g["North"])).json()
    assert listed(legal) == []
    r = third.post(f"/api/games/{gid}/commands", headers=bearer(g["South"]),
                   json={"type": "bid", "data": {"amount": 11}, "expected_seq": legal["seq"]})
    assert r.status_code == 422 and "2" in r.text
    answer = bid(third, g, "South", 3)
    assert any("Lot 1 to North for 7 crowns" in (e["text"] or "") for e in answer["events"])
    bid(third, g, "North", 3)
    bid(third, g, "South", 3)  # a tie: the die decides
    bid(third, g, "North", 0)
    end = bid(third, g, "South", 0)
    view = third.get(f"/api/games/{gid}").json()
    assert view["result"] is not None and view["lot"] == 3
    assert any((e["text"] or "").startswith(("Game over", "A draw")) for e in end["events"])
    # over, each player's copy of the record is the whole record: it verifies, rules replayed
    from engine.record.check import verify_record

    record = third.get(f"/api/games/{gid}/export", params={"format": "record"}, headers=bearer(g["South"])).json()
    assert all("link" not in e for e in record["entries"]) and '"decision":7' in json.dumps(record).replace(" ", "")
    verdict = verify_record(record)
    assert verdict.ok, verdict.message
    # the log names the lots as the game's turns
    log = third.get(f"/api/games/{gid}/log", params={"limit": 100}).json()
    assert [e["text"] for e in log["items"] if e["type"] == "lot_opened"] == ["Lot 1", "Lot 2", "Lot 3"]


def test_the_third_game_is_played_through_its_pages(third: TestClient) -> None:
    landing = third.get("/").text
    assert 'class="new-game-sealed_bids"' in landing and "Sealed Bids" in landing
    g = new_game(third)
    gid = g["id"]
    seat(third, gid, g["North"])
    page = third.get(f"/games/{gid}").text
    assert "<title>(Your move) Sealed Bids \u00b7 lot 1 \u00b7 bidding</title>" in page and "Bid 10" in page
    assert "Sealed Bids is a game for tests." in page  # its own footer
    seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
    answer = third.post(f"/games/{gid}/command", data={"type": "bid", "data": json.dumps({"amount": 4}),
                                                       "seq": seq}, headers={"origin": "http://testserver"})
    assert answer.status_code == 200 and "Your sealed bid: 4" in answer.text
    # a click on the map (it has none) gets the board's own word, not an error page
    clicked = third.post(f"/games/{gid}/click", data={"seq": seq + 1, "hex": "0101"},
                         headers={"origin": "http://testserver"})
    assert clicked.status_code == 200 and "has no map" in clicked.text
    seat(third, gid, g["South"])
    south = third.get(f"/games/{gid}").text
    assert "North seals a bid" in south and "Your sealed bid" not in south and "Bid 10" in south
    log_page = third.get(f"/games/{gid}/log").text
    assert "lot 1" in log_page.lower() and "North seals a bid" in log_page
    moment = third.get(f"/games/{gid}/at/{seq + 1}")
    assert moment.status_code == 200 and "Lot 1" in moment.text
