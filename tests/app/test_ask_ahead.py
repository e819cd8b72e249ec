"""What a coming decision will ask first is asked once a command's answer has gone
(``GameRules.ahead``, app/command_path.py): in First Blood, the move searches of a movement
phase, made while its side places its reinforcements, on SQLite (a command's thread) and
on PostgreSQL (the event loop's write) alike."""

from __future__ import annotations

from app_support import bearer, drive, listed
from fastapi.testclient import TestClient

from engine.games.first_blood.phases import movement
from engine.games.first_blood.rules import RULES


def test_a_reinforcement_phase_has_its_movement_searches_made_once_its_first_answer_has_gone(
        client: TestClient, game: dict[str, str]) -> None:
    movement._SEARCHES.clear()
    side, legal = drive(client, game, lambda legal: legal["prompt"]["kind"].endswith("_reinforcements"))
    # the set-up's commands search no moves: these are the coming movement phase's, made ahead
    made = set(movement._SEARCHES)
    movement._SEARCHES.clear()
    work = RULES.ahead(client.app.state.games.cache.newest(game["id"]))
    assert work is not None
    work()
    assert made == set(movement._SEARCHES) != set()

    movement._SEARCHES.clear()  # once a phase: the next command of the same phase asks nothing ahead
    place = next(c for c in listed(legal) if c["type"] == "place")
    r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                    json={"type": place["type"], "data": place["data"], "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    assert r.json()["next"]["prompt"]["kind"].endswith("_reinforcements")
    assert not movement._SEARCHES
