"""First Blood's board answers "what if" while moving (issue 38): with a unit selected in a
movement phase, the enemy hexes next to where it may go are listed with the odds and die
modifier it would get attacking from there, the engine's own what-if (the same answer as
the API's attack preview with positions)."""

from __future__ import annotations

import re

from app_support import BOARD, bearer, drive, listed
from fastapi.testclient import TestClient
from pb_support import seat


def next_to(command: dict, enemy: set[str]) -> bool:
    """A move that ends next to an enemy unit."""
    return command["type"] == "move" and bool(enemy & set(BOARD.adjacent.get(command["data"]["to"], ())))


def test_a_selected_mover_is_told_the_odds_of_the_attacks_it_could_join(client: TestClient,
                                                                        game: dict[str, str]) -> None:
    gid = game["id"]

    def mover_near_the_enemy(legal: dict) -> bool:
        if not legal["prompt"]["kind"].endswith("_movement"):
            return False
        units = client.get(f"/api/games/{gid}").json()["units"]
        enemy = {u["loc"] for u in units if u["side"] != legal["prompt"]["side"] and u["kind"] == "ground"}
        return any(next_to(c, enemy) for c in listed(legal))

    side, legal = drive(client, game, mover_near_the_enemy)
    units = client.get(f"/api/games/{gid}").json()["units"]
    enemy = {u["loc"] for u in units if u["side"] != side and u["kind"] == "ground"}
    move = next(c for c in listed(legal) if next_to(c, enemy))
    unit = move["data"]["unit"]
    seat(client, gid, game[side])
    board = client.get(f"/games/{gid}/board", params={"select": unit}).text
    assert 'id="what-if"' in board
    rows = re.findall(r"<li>(\d{4}) from (\d{4})[^:]*: odds <strong>([^<]+)</strong> \((\d+) against (\d+)\)", board)
    assert rows
    for target, start, odds, attack, defence in rows:
        helpers = [u["id"] for u in units if u["side"] == side and u["kind"] == "ground" and u["id"] != unit
                   and u["loc"] in BOARD.neighbors(target)]
        client.cookies.clear()
        api = client.post(f"/api/games/{gid}/attack-preview", headers=bearer(game[side]),
                          json={"targets": [target], "units": [unit, *helpers], "positions": {unit: start}}).json()
        seat(client, gid, game[side])
        assert (api["odds"], api["attack"], api["defence"]) == (odds.replace("&lt;", "<"), int(attack), int(defence))
    # nothing of it for the other side, nor without a selection
    assert 'id="what-if"' not in client.get(f"/games/{gid}/board").text


def test_an_attack_that_cannot_be_resolved_yet_says_why(client: TestClient, game: dict[str, str]) -> None:
    """R-7a: an attack whose obligations need more units offers no "Resolve" until they are
    added; the attack card says why, in the engine's words (the button simply vanished)."""
    gid = game["id"]

    def declaring_short(legal: dict) -> bool:
        kinds = {c["type"] for c in listed(legal)}
        return legal["prompt"]["kind"].endswith("_combat") and "cancel_attack" in kinds and "resolve" not in kinds

    side, legal = drive(client, game, declaring_short, limit=1500)
    seat(client, gid, game[side])
    board = client.get(f"/games/{gid}/board").text
    why = re.search(r'<p class="small not-yet" id="not-yet"><strong>Not ready to resolve:</strong> ([^<]+)</p>', board)
    assert why is not None and why.group(1).startswith("§7")
    client.cookies.clear()
    refused = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                          json={"type": "resolve", "data": {}, "expected_seq": legal["seq"]})
    assert refused.status_code == 422 and refused.json()["detail"] in why.group(1).replace("&#39;", "'")
