"""/legal?form=grouped tells the same commands as /legal, compactly, and the answer to a
command holds it for the sender after the command (one round trip a move: issue 35)."""

from __future__ import annotations

import json

from app_support import bearer
from fastapi.testclient import TestClient

from engine.core.choices import expand


def _commands(legal: dict) -> list[str]:
    return sorted(json.dumps({"type": c["type"], "data": c["data"]}, sort_keys=True) for c in legal["commands"])


def test_grouped_is_the_list_told_compactly_and_a_command_answers_with_it(client: TestClient,
                                                                         game: dict[str, str]) -> None:
    gid, us = game["id"], bearer(game["US"])
    plain = client.get(f"/api/games/{gid}/legal", headers=us)
    grouped = client.get(f"/api/games/{gid}/legal", params={"form": "grouped"}, headers=us)
    assert grouped.status_code == 200 and grouped.json()["commands"] == []
    g = grouped.json()
    assert sorted(json.dumps(c, sort_keys=True) for c in expand(g["choices"])) == _commands(plain.json())
    assert len(plain.content) > 100_000 > 20_000 > len(grouped.content)  # the US set-up: 2,300 placements
    assert {k: g[k] for k in ("seq", "prompt", "your_turn")} == {k: plain.json()[k] for k in ("seq", "prompt",
                                                                                               "your_turn")}
    place = expand(g["choices"])[0]
    answer = client.post(f"/api/games/{gid}/commands", headers=us, json={**place, "expected_seq": g["seq"]}).json()
    after = client.get(f"/api/games/{gid}/legal", params={"form": "grouped"}, headers=us).json()
    assert answer["next"] == after and answer["next"]["seq"] == answer["seq"]
    # the other side's answer is its own: not its turn, no commands
    ij = client.get(f"/api/games/{gid}/legal", params={"form": "grouped"}, headers=bearer(game["IJ"])).json()
    assert ij["your_turn"] is False and ij["choices"] == []
    assert client.get(f"/api/games/{gid}/legal", params={"form": "all"}, headers=us).status_code == 422
