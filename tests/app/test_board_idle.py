"""A unit selected in its side's movement phase that has no move says why, on both
games' boards: the engine's reason (``why_idle``), in the words the API refuses a move of
that unit with; a unit that can move, or the other side's page, shows none of it.  (And a
Pacific Battles piece's listed moves give their movement points, as the map's badges do.)"""

from __future__ import annotations

import re
from html import unescape

from app_support import BOARD, bearer, drive, listed
from fastapi.testclient import TestClient
from pb_support import new_game, seat

from engine.core.events import Command
from engine.games.pacific_battles import queries as pb
from engine.selfplay import Chooser, choose

IDLE = re.compile(r'<p class="small idle" id="idle"><strong>No move:</strong> ([^<]+)</p>')


def _refusal(client: TestClient, gid: str, token: str, seq: int, unit: str, to: str) -> str:
    client.cookies.clear()
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(token),
                    json={"type": "move", "data": {"unit": unit, "to": to}, "expected_seq": seq})
    assert r.status_code == 422, r.text
    return str(r.json()["detail"])


def test_a_first_blood_unit_without_a_move_says_why(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]

    def stuck(legal: dict) -> bool:
        if not legal["prompt"]["kind"].endswith("_movement"):
            return False
        moving = {c["data"]["unit"] for c in listed(legal) if c["type"] == "move"}
        units = client.get(f"/api/games/{gid}").json()["units"]
        return any(u["side"] == legal["prompt"]["side"] and u["kind"] == "ground" and u["loc"] in BOARD.adjacent
                   and u["id"] not in moving for u in units)

    side, legal = drive(client, game, stuck)
    moving = {c["data"]["unit"] for c in listed(legal) if c["type"] == "move"}
    units = client.get(f"/api/games/{gid}").json()["units"]
    unit = next(u for u in units if u["side"] == side and u["kind"] == "ground" and u["loc"] in BOARD.adjacent
                and u["id"] not in moving)
    seat(client, gid, game[side])
    found = IDLE.search(client.get(f"/games/{gid}/board", params={"select": unit["id"]}).text)
    assert found is not None
    why = unescape(found.group(1))
    assert why.startswith("§")
    named = re.search(r"; (\d{4}), for one: ", why)
    to = named.group(1) if named else sorted(BOARD.neighbors(unit["loc"]))[0]
    assert _refusal(client, gid, game[side], legal["seq"], unit["id"], to) in why
    # a unit that can move says nothing of the kind; nor does the other side's page
    if moving:
        seat(client, gid, game[side])
        assert 'id="idle"' not in client.get(f"/games/{gid}/board", params={"select": sorted(moving)[0]}).text
    other = "IJ" if side == "US" else "US"
    seat(client, gid, game[other])
    assert 'id="idle"' not in client.get(f"/games/{gid}/board", params={"select": unit["id"]}).text


def test_a_pacific_battles_unit_that_has_moved_says_so(client: TestClient) -> None:
    g = new_game(client)
    gid = g["id"]
    rng = Chooser("idle")
    moved = None
    for _ in range(600):
        client.cookies.clear()
        legal = {s: client.get(f"/api/games/{gid}/legal", headers=bearer(g[s])).json() for s in ("Allied", "Japanese")}
        side = next(s for s, lg in legal.items() if lg["your_turn"])
        cmds = [Command(c["type"], c["data"]) for c in listed(legal[side])]
        moves = [c for c in cmds if c.type == "move"]
        cmd = moves[0] if moves else choose(rng, legal[side]["prompt"]["kind"], cmds)
        if moves:  # the selected piece's moves are listed with their cost, as the map's badges say it
            seat(client, gid, g[side])
            listing = client.get(f"/games/{gid}/board", params={"select": cmd.data["unit"]}).text
            assert re.search(rf">Move [^<]* to {cmd.data['to']}[^<]* \(\d+(\.\d+)? MP\)<", listing)
            client.cookies.clear()
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(g[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": legal[side]["seq"]})
        assert r.status_code == 200, r.text
        if moves:
            moved = (side, cmd.data["unit"], cmd.data["to"], r.json()["seq"])
            break
    assert moved is not None, "no movement phase reached"
    side, unit, there, seq = moved
    seat(client, gid, g[side])
    page = client.get(f"/games/{gid}/board", params={"select": unit}).text
    found = IDLE.search(page)
    assert found is not None and "has moved this phase" in found.group(1)
    assert found.group(1).startswith("11.2: ")
    neighbour = sorted(pb.board().neighbours(there))[0]
    assert _refusal(client, gid, g[side], seq, unit, neighbour) in unescape(found.group(1))
    other = "Japanese" if side == "Allied" else "Allied"
    seat(client, gid, g[other])
    assert 'id="idle"' not in client.get(f"/games/{gid}/board").text

