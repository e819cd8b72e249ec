"""Undo through the server (issue 9, item 1): the board's "Take back" button and the
API's ``undo`` command, the log keeping both, and what the opponent reads."""

from __future__ import annotations

import html as htmllib
import re

from app_support import ADMIN, bearer, drive, listed
from fastapi.testclient import TestClient


def legal(client: TestClient, game: dict[str, str], side: str) -> dict:
    return client.get(f"/api/games/{game['id']}/legal", headers=bearer(game[side])).json()


def send(client: TestClient, game: dict[str, str], side: str, cmd: dict, seq: int) -> dict:
    r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                    json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})
    assert r.status_code == 200, r.text
    return r.json()


def units_at(client: TestClient, gid: str) -> dict[str, str]:
    return {u["id"]: u["loc"] for u in client.get(f"/api/games/{gid}").json()["units"]}


def test_a_placement_taken_back_through_the_api_is_gone_and_the_log_keeps_both(
        client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    before = units_at(client, gid)
    first = legal(client, game, "US")
    assert not any(c["type"] == "undo" for c in listed(first))  # nothing decided yet
    place = listed(first)[0]
    placed = send(client, game, "US", place, first["seq"])
    assert units_at(client, gid)[place["data"]["unit"]] == place["data"]["to"]
    now = legal(client, game, "US")
    (take_back,) = [c for c in listed(now) if c["type"] == "undo"]
    assert take_back["data"] == {"step": first["seq"]}
    # the IJ cannot take back the US's step, and a stale step is refused with the rule
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["IJ"]),
                    json={"type": "undo", "data": take_back["data"], "expected_seq": now["seq"]})
    assert r.status_code in (403, 409, 422) and units_at(client, gid) != before
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={"type": "undo", "data": {"step": 1}, "expected_seq": now["seq"]})
    assert r.status_code == 422 and "only the last step" in r.text
    done = send(client, game, "US", take_back, now["seq"])
    assert [e["type"] for e in done["events"]] == ["undone"]
    assert units_at(client, gid) == before
    assert not any(c["type"] == "undo" for c in listed(legal(client, game, "US")))
    log = client.get(f"/api/games/{gid}/log", params={"offset": first["seq"]}, headers=bearer(game["US"])).json()
    rows = {e["seq"]: e for e in log["items"]}
    assert rows[first["seq"]]["retracted_by"] == placed["seq"]  # the placement, taken back by the undo
    assert rows[placed["seq"]]["type"] == "undone" and rows[placed["seq"]]["retracted_by"] is None
    assert rows[placed["seq"]]["text"].startswith("US takes back: ")
    # the admin's log strikes it through and the whole log still verifies
    admin = client.get(f"/admin/games/{gid}", auth=ADMIN).text
    assert f"(taken back by #{placed['seq']})" in admin and "<del>" in admin
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True


def test_the_board_offers_take_back_and_the_opponent_is_not_briefed_on_it(
        client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    page = client.get(f"/games/{gid}").text
    seq = int(re.search(r'data-seq="(\d+)"', page).group(1))
    r = client.post(f"/games/{gid}/click", data={"hex": "0709", "select": "us-1-1", "seq": seq})
    assert r.status_code == 200 and "Take back: US 1/1 placed in 0709" in r.text
    button = re.search(r'<form[^>]*>\s*<input type="hidden" name="type" value="undo">'
                       r'<input type="hidden" name="data" value="([^"]+)">', r.text)
    assert button, "the Take back button is among the general actions"
    r = client.post(f"/games/{gid}/command", data={"type": "undo", "data": htmllib.unescape(button.group(1)),
                                                   "seq": seq + 1})
    assert r.status_code == 200 and 'role="alert"' not in r.text
    assert units_at(client, gid)["us-1-1"] != "0709"
    assert "<del>US 1/1 placed in 0709</del>" in r.text  # the log struck it through at once
    story = client.get(f"/games/{gid}/log").text
    assert "<del>US 1/1 placed in 0709</del>" in story and "(taken back)" in story
    # the US finishes the set-up; the IJ's briefing has no trace of the placement taken back
    client.cookies.clear()
    drive(client, game, lambda lg: lg["prompt"]["side"] == "IJ")
    client.post(f"/games/{gid}/seat", data={"token": game["IJ"]}, follow_redirects=False)
    card = client.get(f"/games/{gid}").text.split('id="briefing"', 1)[1].split("</details>", 1)[0]
    assert "US setup" in card and "takes back" not in card
    assert card.count("US 1/1 placed in") == 1
