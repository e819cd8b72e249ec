"""/legal tells the acting side's commands compactly, as choices, by default (issue 38:
no answer of a whole game over 20 KB); ``form=list`` tells the same commands one by one;
the answer to a command holds the default answer for the sender after the command (one
round trip a move: issue 35)."""

from __future__ import annotations

import json

from app_support import bearer, listed
from fastapi.testclient import TestClient


def _keys(commands: list[dict]) -> list[str]:
    return sorted(json.dumps({"type": c["type"], "data": c["data"]}, sort_keys=True) for c in commands)


def test_the_default_is_the_list_told_compactly_and_a_command_answers_with_it(client: TestClient,
                                                                             game: dict[str, str]) -> None:
    gid, us = game["id"], bearer(game["US"])
    default = client.get(f"/api/games/{gid}/legal", headers=us)
    one_by_one = client.get(f"/api/games/{gid}/legal", params={"form": "list"}, headers=us)
    assert default.status_code == one_by_one.status_code == 200
    g, flat = default.json(), one_by_one.json()
    assert "commands" not in g and "choices" not in flat  # each form tells its commands one way only
    assert _keys(listed(g)) == _keys(flat["commands"])
    assert len(one_by_one.content) > 100_000 > 20_000 > len(default.content)  # the US set-up: 2,300 placements
    assert {k: g[k] for k in ("seq", "prompt", "your_turn", "described")} == \
        {k: flat[k] for k in ("seq", "prompt", "your_turn", "described")}
    # form=grouped, as documented before it was the default, is the default
    assert client.get(f"/api/games/{gid}/legal", params={"form": "grouped"}, headers=us).content == default.content
    place = listed(g)[0]
    answer = client.post(f"/api/games/{gid}/commands", headers=us, json={**place, "expected_seq": g["seq"]}).json()
    after = client.get(f"/api/games/{gid}/legal", headers=us).json()
    assert answer["next"] == after and answer["next"]["seq"] == answer["seq"]
    # the other side's answer is its own: not its turn, no commands, in either form
    ij = bearer(game["IJ"])
    assert client.get(f"/api/games/{gid}/legal", headers=ij).json() | {"prompt": None} == \
        {"seq": after["seq"], "prompt": None, "your_turn": False, "choices": [], "described": []}
    assert client.get(f"/api/games/{gid}/legal", params={"form": "list"}, headers=ij).json()["commands"] == []
    assert client.get(f"/api/games/{gid}/legal", params={"form": "all"}, headers=us).status_code == 422
