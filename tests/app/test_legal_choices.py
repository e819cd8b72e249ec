"""/legal tells the acting side's commands compactly, as choices, by default (issue 38:
no answer of a whole game over 20 KB); ``form=list`` tells the same commands one by one;
the answer to a command holds the default answer for the sender after the command (one
round trip a move: issue 35)."""

from __future__ import annotations

import json

import pytest
from app_support import bearer, listed
from fastapi.testclient import TestClient

from app.config import Settings
from engine.core.events import Command
from engine.games import get_rules
from engine.selfplay import Chooser, choose

LIMIT = 20_000  # bytes: the most a /legal answer may be (issue 38)


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Whole games are thousands of commands in a minute: beyond the per-seat limit a person
    needs (its own tests are in test_limits.py); and their dice fixed, so that each run plays
    the same whole games."""
    return settings.model_copy(update={"rate_limit_commands": "100000/minute", "fixed_dice_secret": "legal-size"})


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


def seated(client: TestClient, game: str) -> tuple[str, dict[str, str]]:
    """A new game of ``game`` in its longest scenario, both seats taken: its id and their secrets."""
    first, second = get_rules(game).sides
    r = client.post("/api/games", json={"game": game, "side": first, "name": "Alice"})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    joined = client.post(f"/api/games/{gid}/join", json={"token": r.json()["invite_url"].split("token=")[1]})
    assert joined.status_code == 200, joined.text
    client.cookies.clear()
    return gid, {first: r.json()["token"], second: joined.json()["token"]}


@pytest.mark.parametrize("game", ["first_blood", "pacific_battles"])
def test_no_answer_of_a_whole_game_is_over_20_kb(client: TestClient, game: str) -> None:
    """A whole game of each, played over the API by the self-play chooser from the default
    answers: at every decision each seat's /legal answer, as sent, is at most 20 KB."""
    gid, tokens = seated(client, game)
    rng, largest, most, asked = Chooser(f"legal-size:{game}"), 0, 0, 0
    for _ in range(5000):
        answers = {}
        for side, token in tokens.items():
            r = client.get(f"/api/games/{gid}/legal", headers={**bearer(token), "accept-encoding": "identity"})
            assert r.status_code == 200, r.text
            assert len(r.content) <= LIMIT, f"{game} event {r.json()['seq']}, {side}: {len(r.content)} bytes"
            largest, asked = max(largest, len(r.content)), asked + 1
            answers[side] = r.json()
        acting = [side for side, answer in answers.items() if answer["your_turn"]]
        if not acting:
            assert next(iter(answers.values()))["prompt"]["side"] is None  # the game is over
            break
        side, answer = acting[0], answers[acting[0]]
        commands = listed(answer)
        most = max(most, len(commands))
        cmd = choose(rng, answer["prompt"]["kind"], [Command(c["type"], c["data"]) for c in commands])
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": answer["seq"]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("the game did not end")
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    assert asked > 500 and most > 1000, (asked, most, largest)  # the set-up's long lists were among them
