"""Export files, importing them as new games, and refusing files whose log does
not replay: the first event the engine would not have written is named."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import pytest
from app_support import ADMIN, BOARD, admin_games, bearer, drive, listed, self_played
from fastapi.testclient import TestClient

from app.services import dice_keys
from engine.core.dice import commitment, derive_secret

FORMAT = "guadalcanal-pbem/1"


# --- driving a game through the API -------------------------------------------------

def seat_tokens(imported: dict[str, Any]) -> dict[str, str]:
    return {side: url.split("token=")[1] for side, url in imported["seats"].items()}


def without_id(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "game_id"}


def unordered(view: dict[str, Any]) -> dict[str, Any]:
    """A view with its legal commands as a set (to compare everything but their order)."""
    return {**view, "legal": sorted(repr(sorted(c.items())) for c in view["legal"])}


# --- export files made by the engine alone (fast, and with a known dice secret) ----------

def _is_dice_log(events: list[dict[str, Any]]) -> bool:
    types = {e["type"] for e in events}
    return ("supply_rolled" in types and "unit_moved" in types
            and any(e["type"] == "combat_resolved" and e["data"]["die"] is not None for e in events))


@functools.cache
def _engine_export(seed: str, finished: bool) -> str:
    """An export file (as JSON text) of a game played by the self-play chooser: to
    the end, or only until its log holds rolled combat and supply dice."""
    events, state = self_played(derive_secret(seed, "import-export-tests"), seed,
                                lambda events: not finished and _is_dice_log(events))
    assert (state.result is not None) if finished else _is_dice_log(events)
    return json.dumps({
        "format": FORMAT, "game": "first_blood", "scenario": "campaign", "options": {},
        "status": "finished" if state.result else "active", "result": state.result,
        "created_at": "2024-08-07T09:10:00+00:00",
        "seats": [{"side": "IJ", "name": "Kawaguchi"}, {"side": "US", "name": "Vandegrift"}],
        "events": [{"seq": n, **e} for n, e in enumerate(events)],
    })


def engine_export(finished: bool = False) -> dict[str, Any]:
    return json.loads(_engine_export("export-tests", finished))


def import_file(client: TestClient, data: Any) -> dict[str, Any]:
    r = client.post("/api/games/import", json=data, auth=ADMIN)
    assert r.status_code == 201, r.text
    return r.json()


# --- exporting ------------------------------------------------------------------------

def test_admin_exports_and_verifies_an_unfinished_game_players_export_only_finished_ones(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    gid = game["id"]
    for _ in range(2):
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                        json={**listed(legal)[0], "expected_seq": legal["seq"]})
        assert r.status_code == 200
    view = client.get(f"/api/games/{gid}").json()
    for side in ("US", "IJ"):
        r = client.get(f"/api/games/{gid}/export", headers=bearer(game[side]))
        assert r.status_code == 409 and "over" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/export").status_code == 401

    r = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN)
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="game-{gid}.json"'
    data = r.json()
    assert data["format"] == FORMAT and data["game"] == "first_blood" and data["scenario"] == "campaign"
    assert data["status"] == "active" and data["result"] is None and data["options"] == {}
    assert sorted((s["side"], s["name"]) for s in data["seats"]) == [("IJ", "Bob"), ("US", "Alice")]
    events = data["events"]
    assert [e["seq"] for e in events] == list(range(view["seq"]))
    assert events[0]["type"] == "game_created"
    # no one secret: the seed chains' top seeds, which give the commitments everybody saw
    assert events[0]["data"]["secret"] is None
    assert client.get(f"/api/games/{gid}/dice").json()["commitments"] == dice_keys.commitments(data["dice"]["tops"])
    commanded = [e for e in events if e["command"] is not None]
    assert len(commanded) == 2 and all(e["actor"] == "US" and e["command"]["type"] == "place" for e in commanded)
    assert client.get("/api/admin/games/no-such-game/export", auth=ADMIN).status_code == 404
    # the intact log verifies
    r = client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN)
    assert r.status_code == 200
    assert r.json() == {"ok": True, "events": view["seq"], "bad_seq": None,
                        "message": "the whole log replays exactly"}


# --- importing ----------------------------------------------------------------------------

def test_an_export_imports_as_a_new_game_with_the_same_view(client: TestClient, game: dict[str, str],
                                                             database_url: str, request: pytest.FixtureRequest) -> None:
    gid = game["id"]
    side, legal = drive(client, game, lambda legal: legal["prompt"]["kind"].endswith("_movement"))
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()

    imported = import_file(client, exported)
    new = imported["game_id"]
    assert new != gid and set(imported["seats"]) == {"US", "IJ"}
    tokens = seat_tokens(imported)
    for s, url in imported["seats"].items():
        assert url == f"http://testserver/games/{new}#token={tokens[s]}"
        assert tokens[s] not in (game["US"], game["IJ"])
    summary = admin_games(client)[new]
    assert summary["status"] == "active" and summary["seq"] == legal["seq"]
    assert sorted((s["side"], s["name"], s["joined"]) for s in summary["seats"]) == [
        ("IJ", "Bob", True), ("US", "Alice", True)]

    old_views, new_views = {}, {}
    for s in ("US", "IJ"):
        old_view = old_views[s] = client.get(f"/api/games/{gid}", headers=bearer(game[s])).json()
        new_view = new_views[s] = client.get(f"/api/games/{new}", headers=bearer(tokens[s])).json()
        assert new_view["game_id"] == new and new_view["you"] == s
        assert new_view["seq"] == old_view["seq"] and new_view["phase"] == old_view["phase"]
        assert new_view["units"] == old_view["units"]
        assert unordered(without_id(new_view)) == unordered(without_id(old_view))
    assert without_id(client.get(f"/api/games/{new}").json()) == without_id(client.get(f"/api/games/{gid}").json())
    # the log keeps its texts, actors and commands
    old_log = client.get(f"/api/admin/games/{gid}/log", auth=ADMIN).json()["items"]
    new_log = client.get(f"/api/admin/games/{new}/log", auth=ADMIN).json()["items"]
    strip = ("created_at",)
    assert [{k: v for k, v in i.items() if k not in strip} for i in new_log] == [
        {k: v for k, v in i.items() if k not in strip} for i in old_log]
    again = client.get(f"/api/admin/games/{new}/export", auth=ADMIN).json()
    assert again["events"] == exported["events"]
    assert client.post(f"/api/admin/games/{new}/verify", auth=ADMIN).json()["ok"] is True

    # the two games go their own ways; the old secrets do not open the new game
    assert client.get(f"/api/games/{new}/legal", headers=bearer(game[side])).status_code == 403
    cmd = listed(legal)[0]
    r = client.post(f"/api/games/{new}/commands", headers=bearer(tokens[side]),
                    json={**cmd, "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{new}").json()["seq"] == r.json()["seq"] > legal["seq"]
    assert client.get(f"/api/games/{gid}").json()["seq"] == legal["seq"]

    assert new_views[side]["legal"] == old_views[side]["legal"]  # in the same order too


def test_a_finished_game_exports_and_imports_and_takes_no_more_commands(client: TestClient) -> None:
    data = engine_export(finished=True)
    imported = import_file(client, data)
    gid, tokens = imported["game_id"], seat_tokens(imported)
    view = client.get(f"/api/games/{gid}", headers=bearer(tokens["US"])).json()
    n = len(data["events"])
    assert view["status"] == "finished" and view["seq"] == n
    assert view["result"] == data["result"] and view["result"]["winner"] in ("US", "IJ")
    assert view["prompt"]["side"] is None and view["legal"] == [] and view["your_turn"] is False
    secret = data["events"][0]["data"]["secret"]
    assert view["dice_secret"] == secret  # revealed once the game is over
    summary = admin_games(client)[gid]
    assert summary["status"] == "finished" and summary["result"] == data["result"]

    for side in ("US", "IJ"):
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": "end_phase", "data": {}, "expected_seq": n})
        assert r.status_code == 422, r.text
        assert r.json() == {"detail": "the game is over", "rule": "", "kind": "illegal", "errors": None}
    assert client.get(f"/api/games/{gid}").json()["seq"] == n

    # players may export it now; the log shows everybody the secret
    r = client.get(f"/api/games/{gid}/export", headers=bearer(tokens["IJ"]))
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="game-{gid}.json"'
    exported = r.json()
    assert exported == client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()
    assert exported["status"] == "finished" and exported["result"] == data["result"]
    assert exported["events"] == data["events"]
    log = client.get(f"/api/games/{gid}/log", params={"limit": 1}).json()
    assert log["total"] == n and log["items"][0]["data"]["secret"] == secret
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json() == {
        "ok": True, "events": n, "bad_seq": None, "message": "the whole log replays exactly"}

    again = import_file(client, exported)
    again_view = client.get(f"/api/games/{again['game_id']}").json()
    assert without_id(again_view) == without_id(client.get(f"/api/games/{gid}").json())


# --- refusing files ----------------------------------------------------------------------------

def _first(events: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> int:
    return next(n for n, e in enumerate(events) if test(e))


def tamper_combat_die(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["type"] == "combat_resolved" and e["data"]["die"] is not None)
    events[n]["data"]["die"] = events[n]["data"]["die"] % 6 + 1
    return n


def tamper_supply_die(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["type"] == "supply_rolled")
    events[n]["data"]["die"] = events[n]["data"]["die"] % 6 + 1
    return n


def tamper_destination(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["type"] == "unit_moved")
    to = events[n]["data"]["to"]
    events[n]["data"]["to"] = next(h for h in sorted(BOARD.hexes) if h != to)
    return n


def tamper_command(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: (e["command"] or {}).get("type") == "move")
    events[n]["command"]["data"]["to"] = "9999"
    return n


def delete_an_event(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["type"] == "supply_rolled")
    del events[n]
    return n


def reorder_two_events(events: list[dict[str, Any]]) -> int:
    """Two events of one command's batch (two independent commands may be swapped: another valid game)."""
    n = _first(events, lambda e: e["type"] == "combat_resolved")
    assert events[n + 1]["command"] is None and events[n + 1]["type"] != "combat_resolved"
    events[n], events[n + 1] = events[n + 1], events[n]
    return n


def swap_in_the_opening(events: list[dict[str, Any]]) -> int:
    events[1], events[2] = events[2], events[1]
    return 1


def reorder_two_set_up_placements(events: list[dict[str, Any]]) -> int:
    """Two independent commands swapped with their seq fields: once a valid other game,
    now refused because the file's numbering no longer matches its order."""
    n = _first(events, lambda e: (e["command"] or {}).get("type") == "place")
    assert events[n + 1]["command"]["type"] == "place"
    events[n], events[n + 1] = events[n + 1], events[n]
    return n


def forge_an_actor(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["actor"] == "US")
    events[n]["actor"] = "IJ"
    return n


def add_a_field(events: list[dict[str, Any]]) -> int:
    n = _first(events, lambda e: e["type"] == "unit_moved")
    events[n]["note"] = "not in any export"
    return n


def change_the_secret(events: list[dict[str, Any]]) -> int:
    events[0]["data"]["secret"] = "0" * 64
    return 0


def change_secret_and_commitment(events: list[dict[str, Any]]) -> int:
    """A consistent creation event with another secret: the first die no longer matches."""
    events[0]["data"]["secret"] = "f" * 64
    events[0]["data"]["commitment"] = commitment("f" * 64)
    return _first(events, lambda e: e["data"].get("die") is not None)


def drop_the_creation(events: list[dict[str, Any]]) -> int:
    del events[0]
    return 0


TAMPERINGS = [tamper_combat_die, tamper_supply_die, tamper_destination, tamper_command, delete_an_event,
              reorder_two_events, swap_in_the_opening, change_the_secret, change_secret_and_commitment,
              drop_the_creation, reorder_two_set_up_placements, forge_an_actor, add_a_field]


def test_a_tampered_file_is_refused_naming_the_first_bad_event(client: TestClient) -> None:
    for tamper in TAMPERINGS:
        data = engine_export()
        bad_seq = tamper(data["events"])
        r = client.post("/api/games/import", json=data, auth=ADMIN)
        assert r.status_code == 422, (tamper.__name__, r.text)
        body = r.json()
        assert body["bad_seq"] == bad_seq, (tamper.__name__, body)
        assert body["detail"].startswith(f"event {bad_seq} is refused: "), (tamper.__name__, body)
    assert admin_games(client) == {}  # no game, not even half of one


def test_a_file_whose_status_or_result_is_not_what_its_log_gives_is_refused(client: TestClient) -> None:
    finished = engine_export(finished=True)
    unfinished = engine_export()
    for data, field, value in ((finished, "result", None), (finished, "status", "active"),
                               (unfinished, "status", "finished"),
                               (unfinished, "result", {"winner": "IJ", "reason": "forged"})):
        r = client.post("/api/games/import", json={**data, field: value}, auth=ADMIN)
        assert r.status_code == 422, (field, value, r.text)
        assert "not what its log gives" in r.json()["detail"]
    assert admin_games(client) == {}


def _opening_only() -> dict[str, Any]:
    data = engine_export()
    data["events"] = data["events"][:3]
    assert [e["command"] for e in data["events"]] == [None, None, None]
    return data


def test_a_round_trip_export_of_the_engine_file_is_the_same_file(client: TestClient) -> None:
    data = engine_export()
    gid = import_file(client, data)["game_id"]
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()
    assert exported["events"] == data["events"]
    assert exported["status"] == "active" and exported["result"] is None
    assert sorted(exported["seats"], key=lambda s: s["side"]) == data["seats"]
    # a file may stop anywhere between commands, even right after the opening
    gid = import_file(client, _opening_only())["game_id"]
    view = client.get(f"/api/games/{gid}").json()
    assert view["seq"] == 3 and view["phase"] == "us_setup" and view["status"] == "active"


def test_a_file_that_is_not_an_export_is_422(client: TestClient) -> None:
    for body, detail, bad_seq in (
        ({"hello": "world"}, "not an export file (expected format 'guadalcanal-pbem/1')", None),
        ({"format": "guadalcanal-pbem/0", "game": "first_blood", "events": []},
         "not an export file (expected format 'guadalcanal-pbem/1')", None),
        ({"format": FORMAT, "game": "chess", "events": []}, "unknown game 'chess'", None),
        ({"format": FORMAT, "game": "first_blood"}, "malformed export file: 'events'", None),
        ({"format": FORMAT, "game": "first_blood", "events": [{"type": "game_created", "seq": 0}]},
         "malformed export file: 'data'", None),
        ({"format": FORMAT, "game": "first_blood", "events": []},
         "event 0 is refused: the log must start with the game's creation", 0),
    ):
        r = client.post("/api/games/import", json=body, auth=ADMIN)
        assert r.status_code == 422, r.text
        assert r.json() == {"detail": detail, "bad_seq": bad_seq, "kind": "malformed", "rule": "", "errors": None}
    for body in ([], "a string", 42):  # not even an object: a validation error
        r = client.post("/api/games/import", json=body, auth=ADMIN)
        assert r.status_code == 422 and isinstance(r.json()["errors"], list), body
    r = client.post("/api/games/import", content=b"{oops", headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert admin_games(client) == {}


def _with_seats_null(data: dict[str, Any]) -> None:
    data["seats"] = None


def _with_command_a_string(data: dict[str, Any]) -> None:
    data["events"][3]["command"] = "place"


def _with_options_a_string(data: dict[str, Any]) -> None:
    data["events"][0]["data"]["options"] = "xy"


def _with_secret_a_number(data: dict[str, Any]) -> None:
    data["events"][0]["data"]["secret"] = 5


MALFORMED = [_with_seats_null, _with_command_a_string, _with_options_a_string, _with_secret_a_number]


def test_a_malformed_export_file_is_422_not_a_server_error(client: TestClient) -> None:
    answers = {}
    for spoil in MALFORMED:
        data = engine_export()
        spoil(data)
        try:
            answers[spoil.__name__] = client.post("/api/games/import", json=data, auth=ADMIN).status_code
        except Exception as exc:  # noqa: BLE001 - the test client re-raises what the server did not catch
            answers[spoil.__name__] = type(exc).__name__
    assert answers == dict.fromkeys(answers, 422)
    assert admin_games(client) == {}


def test_a_file_with_a_huge_secret_is_not_a_server_error(client: TestClient, database_url: str,
                                                         request: pytest.FixtureRequest) -> None:
    data = _opening_only()
    secret = "s" * 200
    data["events"][0]["data"]["secret"] = secret
    data["events"][0]["data"]["commitment"] = commitment(secret)
    r = client.post("/api/games/import", json=data, auth=ADMIN)
    assert r.status_code in (201, 422), r.text
