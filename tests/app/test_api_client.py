"""The client in docs/api-client.md, read from that file and run as it stands: it plays a
whole game of each game for both seats from the JSON API alone (the map, the legal commands
and their described forms, the commands, the live stream, a unit's reachable hexes by its
percent-encoded id) against a real server, on both databases, to the end of the game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, server_env

DOC = Path(__file__).resolve().parents[2] / "docs" / "api-client.md"


def client_code() -> dict[str, Any]:
    (code,) = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    namespace: dict[str, Any] = {"__name__": "api_client"}
    exec(compile(code, str(DOC), "exec"), namespace)  # noqa: S102 - the documented client, as written
    return namespace


@pytest.mark.parametrize(("game", "scenario", "seed"),
                         [("pacific_battles", "short", 3), ("first_blood", "campaign", 2)])
def test_the_documented_client_plays_a_whole_game_from_the_api_alone(database_url: str, game: str, scenario: str,
                                                                     seed: int) -> None:
    play = client_code()["play"]
    with LiveServer(server_env(database_url)) as server:
        # (whole games of the client's policy take 150-1,150 commands, in-process over a
        # thousand dice secrets: a game that never ends fails in a minute, not in eight)
        outcome = play(server.url, game, scenario, seed=seed, limit=5_000)
    assert outcome["result"] is not None, outcome  # the game ended
    assert outcome["result"]["winner"] in {"US", "IJ", "Allied", "Japanese", "draw"}
    assert outcome["moves"] > 100 and outcome["objectives"]
    assert outcome["asked_after_own_move"] == 0  # one round trip a move: each answer held the next list
