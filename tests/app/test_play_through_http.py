"""A whole game played through the HTTP API by random legal commands for both
seats, then verified, exported and replayed from the export."""

from __future__ import annotations

import pytest
from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient

from app.config import Settings
from engine.core.events import Command, Event
from engine.core.game import replay
from engine.games import get_rules
from engine.selfplay import Chooser, choose


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A whole game is thousands of commands in a minute or two: beyond the per-seat
    limit a person needs (its own tests are in test_limits.py)."""
    return settings.model_copy(update={"rate_limit_commands": "100000/minute"})


def play_to_the_end(client: TestClient, game: dict[str, str], seed: str) -> int:
    gid = game["id"]
    rng = Chooser(seed)
    for _ in range(5000):
        view = client.get(f"/api/games/{gid}").json()
        side = view["prompt"]["side"]
        if side is None:
            return view["seq"]
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        assert legal["your_turn"] and listed(legal), legal
        cmd = choose(rng, view["phase"], [Command(c["type"], c["data"]) for c in listed(legal)])
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        assert r.json()["seq"] > legal["seq"]
    raise AssertionError("the game did not end")


def test_a_whole_game_over_http_replays_to_the_same_state(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    final_seq = play_to_the_end(client, game, "http-game")
    view = client.get(f"/api/games/{gid}", headers=bearer(game["US"])).json()
    assert view["status"] == "finished" and view["result"]["winner"] in ("US", "IJ")

    verdict = client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()
    assert verdict == {"ok": True, "events": final_seq, "bad_seq": None, "message": "the whole log replays exactly"}

    exported = client.get(f"/api/games/{gid}/export", headers=bearer(game["IJ"])).json()
    assert len(exported["events"]) == final_seq
    assert [e["seq"] for e in exported["events"]] == list(range(final_seq))
    rules = get_rules("first_blood")
    state = replay(rules, [Event(e["type"], e["data"], e["side"]) for e in exported["events"]])
    assert state.result == view["result"]
    assert state.seq == final_seq

    log = client.get(f"/api/games/{gid}/log", params={"offset": 0, "limit": 1000}).json()
    assert log["total"] == final_seq
    assert any(i["text"] and " wins" in i["text"] for i in log["items"])
