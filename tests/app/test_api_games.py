"""The game API seat by seat: creating and joining, the views, the legal
commands, movement ranges, attack previews, commands, the log, health and the
OpenAPI description."""

from __future__ import annotations

import re
from typing import Any

from app_support import ADMIN, BOARD, admin_games, bearer, drive, listed
from fastapi.testclient import TestClient

from engine.core.events import Event
from engine.core.game import replay
from engine.games.first_blood.rules import RULES

# --- driving a game through the API -------------------------------------------------

def post_first_legal(client: TestClient, game: dict[str, str], side: str = "US") -> dict[str, Any]:
    legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game[side])).json()
    cmd = listed(legal)[0]
    r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game[side]),
                    json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    return r.json()


def full_replay(client: TestClient, gid: str) -> Any:
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()
    return replay(RULES, [Event(e["type"], e["data"], e["side"]) for e in exported["events"]])


# --- creating and joining ------------------------------------------------------------

def test_create_answers_201_with_private_links(client: TestClient) -> None:
    r = client.post("/api/games", json={"side": "IJ", "name": "Hyakutake"})
    assert r.status_code == 201, r.text
    body = r.json()
    gid, token = body["game_id"], body["token"]
    assert body["side"] == "IJ"
    assert len(token) >= 24
    assert body["play_url"] == f"http://testserver/games/{gid}#token={token}"  # never in a query string
    invite = body["invite_url"]
    assert invite.startswith(f"http://testserver/join/{gid}#token=")
    other = invite.split("token=")[1]
    assert other and other != token
    # the invitation is the other seat's secret: it joins as the US
    j = client.post(f"/api/games/{gid}/join", json={"token": other, "name": "Vandegrift"})
    fresh = j.json().pop("token")
    assert j.status_code == 200 and j.json() == {"game_id": gid, "side": "US", "name": "Vandegrift", "token": fresh}
    # the invitation is single-use: the seat now has a new secret the inviter never saw
    assert fresh != other
    assert client.post(f"/api/games/{gid}/join", json={"token": other}).status_code == 403
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}", headers=bearer(other)).status_code == 403
    assert client.get(f"/api/games/{gid}", headers=bearer(fresh)).json()["you"] == "US"


def test_create_with_unknown_game_side_scenario_or_option_is_422(client: TestClient) -> None:
    for body, message in (
        ({"game": "chess", "side": "US"}, "unknown game 'chess'"),
        ({"side": "XX"}, "side must be one of ['US', 'IJ']"),
        ({"side": "US", "scenario": "midway"}, "unknown scenario 'midway'"),
        ({"side": "US", "options": {"nukes": True}}, "unknown option(s) ['nukes']"),
    ):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith(message), r.json()
    r = client.post("/api/games", json={"name": "nobody"})  # no side at all
    assert r.status_code == 422
    assert any(d["loc"] == ["body", "side"] for d in r.json()["errors"])
    assert "body.side" in r.json()["detail"]
    assert admin_games(client) == {}  # nothing was written


def test_a_game_waits_until_the_invited_seat_joins(client: TestClient) -> None:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid = body["game_id"]
    summary = admin_games(client)[gid]
    assert summary["status"] == "waiting"
    assert summary["game"] == "first_blood" and summary["scenario"] == "campaign"
    assert summary["result"] is None
    assert summary["seq"] == client.get(f"/api/games/{gid}").json()["seq"] > 0
    assert sorted(summary["seats"], key=lambda s: s["side"]) == [
        {"side": "IJ", "name": "", "email": None, "joined": False},
        {"side": "US", "name": "Alice", "email": None, "joined": True}]
    assert client.get(f"/api/games/{gid}").json()["status"] == "waiting"

    ij = body["invite_url"].split("token=")[1]
    r = client.post(f"/api/games/{gid}/join", json={"token": ij, "name": "Bob"})
    assert r.status_code == 200 and {**r.json(), "token": ""} == {"game_id": gid, "side": "IJ", "name": "Bob",
                                                                   "token": ""}
    summary = admin_games(client)[gid]
    assert summary["status"] == "active"
    assert sorted(summary["seats"], key=lambda s: s["side"]) == [
        {"side": "IJ", "name": "Bob", "email": None, "joined": True},
        {"side": "US", "name": "Alice", "email": None, "joined": True}]
    view = client.get(f"/api/games/{gid}").json()
    assert view["status"] == "active"
    admins = [{k: v for k, v in s.items() if k != "email"} for s in summary["seats"]]  # addresses: the admin's only
    assert sorted(view["seats"], key=lambda s: s["side"]) == sorted(admins, key=lambda s: s["side"])


def test_joining_with_a_wrong_token_is_403_and_changes_nothing(client: TestClient) -> None:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid = body["game_id"]
    other = client.post("/api/games", json={"side": "US"}).json()
    for token in ("not-a-token", "", body["invite_url"].split("token=")[1] + "x",
                  other["invite_url"].split("token=")[1]):  # another game's invitation
        r = client.post(f"/api/games/{gid}/join", json={"token": token, "name": "Mallory"})
        assert r.status_code == 403, (token, r.text)
    summary = admin_games(client)[gid]
    assert summary["status"] == "waiting"
    assert {s["side"]: s["name"] for s in summary["seats"]} == {"US": "Alice", "IJ": ""}
    assert client.post("/api/games/nope/join", json={"token": "x"}).status_code == 404


def test_joining_twice_is_harmless(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    before = client.get(f"/api/games/{gid}").json()
    for name in ("", "Bob"):
        r = client.post(f"/api/games/{gid}/join", json={"token": game["IJ"], "name": name})
        assert r.status_code == 200, r.text
        assert r.json() == {"game_id": gid, "side": "IJ", "name": "Bob", "token": game["IJ"]}  # name kept
    # the creator following the invitation path with their own secret is harmless too
    r = client.post(f"/api/games/{gid}/join", json={"token": game["US"]})
    assert r.status_code == 200 and r.json() == {"game_id": gid, "side": "US", "name": "Alice", "token": game["US"]}
    client.cookies.clear()  # joining set a seat cookie
    after = client.get(f"/api/games/{gid}").json()
    assert after == before
    assert admin_games(client)[gid]["status"] == "active"


def test_display_names_are_stored_as_data(client: TestClient) -> None:
    evil = '<script>alert("x")</script> & <b>Bob</b>'
    body = client.post("/api/games", json={"side": "US", "name": evil}).json()
    gid = body["game_id"]
    r = client.post(f"/api/games/{gid}/join", json={"token": body["invite_url"].split("token=")[1],
                                                    "name": "  O'Brien \"Jr\"  "})
    assert r.json()["name"] == "  O'Brien \"Jr\"  "
    names = {s["side"]: s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]}
    assert names == {"US": evil, "IJ": "  O'Brien \"Jr\"  "}
    assert {s["side"]: s["name"] for s in admin_games(client)[gid]["seats"]} == names
    assert client.post("/api/games", json={"side": "US", "name": "x" * 81}).status_code == 422


# --- the view -----------------------------------------------------------------------------

def test_you_comes_from_the_bearer_token_or_the_signed_cookie(client: TestClient) -> None:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid = body["game_id"]
    ij = body["invite_url"].split("token=")[1]
    assert client.get(f"/api/games/{gid}").json()["you"] == "US"  # the cookie set by create
    # an unused invitation is no seat secret: it only joins (the creator has seen it)
    assert client.get(f"/api/games/{gid}", headers=bearer(ij)).status_code == 403
    ij = client.post(f"/api/games/{gid}/join", json={"token": ij, "name": "Bob"}).json()["token"]
    assert client.get(f"/api/games/{gid}", headers=bearer(ij)).json()["you"] == "IJ"  # a bearer wins
    assert client.get(f"/api/games/{gid}").json()["you"] == "IJ"  # the cookie set by join
    client.cookies.clear()
    spectator = client.get(f"/api/games/{gid}").json()
    assert spectator["you"] is None and spectator["your_turn"] is False and spectator["legal"] == []
    assert client.get(f"/api/games/{gid}", headers=bearer(body["token"])).json()["you"] == "US"
    # a cookie is per game: another game's cookie makes nobody a seat here
    other = client.post("/api/games", json={"side": "IJ"}).json()
    assert client.get(f"/api/games/{other['game_id']}").json()["you"] == "IJ"
    assert client.get(f"/api/games/{gid}").json()["you"] is None


def test_only_the_acting_side_sees_legal_commands(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    us = client.get(f"/api/games/{gid}", headers=bearer(game["US"])).json()
    ij = client.get(f"/api/games/{gid}", headers=bearer(game["IJ"])).json()
    spectator = client.get(f"/api/games/{gid}").json()
    assert us["phase"] == "us_setup" and us["prompt"]["side"] == "US"
    assert us["you"] == "US" and us["your_turn"] is True
    assert us["legal"] and {c["type"] for c in us["legal"]} == {"place"}
    assert ij["you"] == "IJ" and ij["your_turn"] is False and ij["legal"] == []
    assert spectator["you"] is None and spectator["legal"] == []
    # the dice come from seed chains: no one secret, its record commits to them (GET .../dice)
    assert "dice_secret" not in us and us["dice_commitment"] == ""
    assert len(client.get(f"/api/games/{gid}/dice").json()["commitments"]["open"]) == 64
    # apart from who is asking, everybody sees the same game
    strip = ("you", "your_turn", "legal")
    assert {k: v for k, v in us.items() if k not in strip} == {k: v for k, v in ij.items() if k not in strip}
    assert {k: v for k, v in us.items() if k not in strip} == {
        k: v for k, v in spectator.items() if k not in strip}


def test_an_unknown_game_is_404(client: TestClient, game: dict[str, str]) -> None:
    for path in ("", "/legal", "/log", "/units/us-1-1/reachable"):
        r = client.get(f"/api/games/no-such-game{path}", headers=bearer(game["US"]))
        assert r.status_code == 404, path
        assert r.json()["detail"] == "no game no-such-game"
    for path, body in (("/commands", {"type": "end_phase", "data": {}, "expected_seq": 3}),
                       ("/attack-preview", {"targets": ["0101"]}), ("/join", {"token": game["US"]})):
        r = client.post(f"/api/games/no-such-game{path}", json=body, headers=bearer(game["US"]))
        assert r.status_code == 404, (path, r.text)
    assert client.get("/api/admin/games/no-such-game/log", auth=ADMIN).status_code == 404


# --- legal commands and commands ---------------------------------------------------------

def test_legal_gives_the_prompt_and_commands_to_the_acting_side_only(client: TestClient,
                                                                     game: dict[str, str]) -> None:
    gid = game["id"]
    view = client.get(f"/api/games/{gid}").json()
    us = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    ij = client.get(f"/api/games/{gid}/legal", headers=bearer(game["IJ"])).json()
    spectator = client.get(f"/api/games/{gid}/legal").json()
    assert us["seq"] == ij["seq"] == spectator["seq"] == view["seq"]
    assert us["prompt"] == {"side": "US", "sides": ["US"], "kind": "us_setup", "text": view["prompt"]["text"],
                            "rule": ""}
    assert re.fullmatch(r"Set up your units \(\d+ left to place\)", us["prompt"]["text"])
    assert us["your_turn"] is True and listed(us)
    assert all(c["type"] == "place" and set(c["data"]) == {"unit", "to"} for c in listed(us))
    for other in (ij, spectator):
        assert other["prompt"] == {**us["prompt"], "text": view["prompt"]["waiting"]}
        assert other["prompt"]["text"].startswith("Waiting for US")
        assert other["your_turn"] is False and listed(other) == []

    cmd = listed(us)[0]
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={"type": cmd["type"], "data": cmd["data"], "expected_seq": us["seq"]})
    assert r.status_code == 200, r.text
    result = r.json()
    assert result["events"] and result["seq"] == us["seq"] + len(result["events"])
    after = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    assert after["seq"] == result["seq"]
    assert listed(after) != listed(us)
    assert not [c for c in listed(after) if c["data"].get("unit") == cmd["data"]["unit"]]  # placed already
    last = listed(after)[-1]
    assert (last["type"], last["data"]) == ("undo", {"step": us["seq"]})  # the placement may be taken back
    left = int(re.search(r"\d+", us["prompt"]["text"]).group())
    assert after["prompt"]["text"] == f"Set up your units ({left - 1} left to place)"


def test_command_events_carry_their_log_lines(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    cmd = listed(legal)[0]
    result = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                         json={**cmd, "expected_seq": legal["seq"]}).json()
    events = result["events"]
    assert [e["seq"] for e in events] == list(range(legal["seq"], result["seq"]))
    placed = events[0]
    assert placed["type"] == "unit_placed" and placed["side"] == "US"
    assert placed["data"]["unit"] == cmd["data"]["unit"] and placed["data"]["to"] == cmd["data"]["to"]
    assert placed["text"].endswith(f" placed in {cmd['data']['to']}")
    log = client.get(f"/api/games/{gid}/log", params={"offset": legal["seq"]}).json()
    assert [(i["seq"], i["type"], i["text"], i["actor"]) for i in log["items"]] == [
        (e["seq"], e["type"], e["text"], "US") for e in events]


def test_a_bad_or_missing_expected_seq_is_a_validation_error(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
    cmd = listed(legal)[0]  # {"type", "data"}
    for body in ({**cmd, "expected_seq": -1}, {**cmd, "expected_seq": -100}, {**cmd, "expected_seq": "three"},
                 {**cmd, "expected_seq": None}, cmd):
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]), json=body)
        assert r.status_code == 422, body
        assert [d["loc"] for d in r.json()["errors"]] == [["body", "expected_seq"]]
    assert client.get(f"/api/games/{gid}").json()["seq"] == legal["seq"]


def test_during_set_up_nothing_ends_moves_or_attacks(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    view = client.get(f"/api/games/{gid}", headers=bearer(game["US"])).json()
    seq = view["seq"]
    r = client.post(f"/api/games/{gid}/commands", headers=bearer(game["US"]),
                    json={"type": "end_phase", "data": {}, "expected_seq": seq})
    assert r.status_code == 422
    assert r.json() == {"detail": "§3: place every unit first (25 left)", "rule": "§3",
                        "kind": "illegal", "errors": None}
    uid = next(u["id"] for u in view["units"] if u["side"] == "US")
    r = client.get(f"/api/games/{gid}/units/{uid}/reachable", headers=bearer(game["US"]))
    assert r.status_code == 200 and r.json() == {"unit": uid, "seq": seq, "hexes": {}}
    r = client.post(f"/api/games/{gid}/attack-preview", json={"targets": ["0300"]}, headers=bearer(game["US"]))
    assert r.status_code == 422  # a "what if" at any moment, but nothing there to attack
    assert r.json()["rule"] == "§7" and r.json()["kind"] == "illegal"
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq


# --- movement ranges ---------------------------------------------------------------------

def test_reachable_hexes_are_the_units_legal_moves(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    side, legal = drive(client, game, lambda legal: legal["prompt"]["kind"].endswith("_movement"))
    other = "US" if side == "IJ" else "IJ"
    view = client.get(f"/api/games/{gid}", headers=bearer(game[side])).json()
    assert view["phase"].endswith("_movement") and view["prompt"]["side"] == side
    moves: dict[str, set[str]] = {}
    for c in listed(legal):
        if c["type"] == "move":
            moves.setdefault(c["data"]["unit"], set()).add(c["data"]["to"])
    assert moves
    units = {u["id"]: u for u in view["units"]}
    for uid in sorted(moves)[:3]:
        r = client.get(f"/api/games/{gid}/units/{uid}/reachable", headers=bearer(game[side]))
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["unit"] == uid and body["seq"] == legal["seq"]
        assert set(body["hexes"]) == moves[uid]
        for dest, reach in body["hexes"].items():
            assert isinstance(reach["cost"], int) and 0 < reach["cost"] <= units[uid]["mf_left"]
            assert isinstance(reach["path"], list) and isinstance(reach["stops"], bool)
            if dest in BOARD.hexes:
                assert reach["path"] and reach["path"][-1] == dest
        # the other seat gets nothing, whatever the unit
        r = client.get(f"/api/games/{gid}/units/{uid}/reachable", headers=bearer(game[other]))
        assert r.status_code == 200 and r.json() == {"unit": uid, "seq": legal["seq"], "hexes": {}}
    # an enemy unit has no moves for the acting side
    enemy = next(u["id"] for u in view["units"] if u["side"] == other)
    r = client.get(f"/api/games/{gid}/units/{enemy}/reachable", headers=bearer(game[side]))
    assert r.status_code == 200 and r.json()["hexes"] == {}
    r = client.get(f"/api/games/{gid}/units/no-such-unit/reachable", headers=bearer(game[side]))
    assert r.status_code == 404 and r.json()["detail"] == "no unit no-such-unit"
    assert client.get(f"/api/games/{gid}/units/{uid}/reachable").status_code == 401
    assert client.get(f"/api/games/{gid}/units/{uid}/reachable", headers=bearer("forged")).status_code == 403
    assert client.get(f"/api/games/{gid}").json()["seq"] == legal["seq"]  # asking changes nothing


# --- attack previews -------------------------------------------------------------------------

def test_attack_preview_refuses_illegal_attacks_and_predicts_the_resolution(client: TestClient,
                                                                            game: dict[str, str]) -> None:
    gid = game["id"]
    side, legal = drive(client, game, lambda legal: any(c["type"] == "attack" for c in listed(legal)))
    other = "US" if side == "IJ" else "IJ"
    assert legal["prompt"]["kind"].endswith("_combat")
    target = next(c["data"]["hex"] for c in listed(legal) if c["type"] == "attack")
    view = client.get(f"/api/games/{gid}").json()
    defenders = [u for u in view["units"] if u["loc"] == target]
    assert defenders and all(u["side"] == other for u in defenders)
    url, auth = f"/api/games/{gid}/attack-preview", bearer(game[side])

    # illegal proposals name their rule; only the acting seat may ask
    own_hex = next(u["loc"] for u in view["units"] if u["side"] == side and u["loc"] in BOARD.hexes)
    enemy = next(u["id"] for u in view["units"] if u["side"] == other)
    r = client.post(url, json={"targets": [own_hex]}, headers=auth)
    assert r.status_code == 422
    assert r.json() == {"detail": f"§7: {own_hex} holds no enemy ground units", "rule": "§7",
                        "kind": "illegal", "errors": None}
    r = client.post(url, json={"targets": [target], "units": [enemy]}, headers=auth)
    assert r.status_code == 422 and r.json()["rule"] == "§7" and "is not one of your units" in r.json()["detail"]
    r = client.post(url, json={"targets": [target]}, headers=bearer(game[other]))
    assert r.status_code == 422 and r.json()["rule"] == "§7"  # the other side's "what if": its own units there
    assert client.post(url, json={"targets": [target]}).status_code == 401
    assert client.post(url, json={"targets": []}, headers=auth).status_code == 422
    assert client.get(f"/api/games/{gid}").json()["seq"] == legal["seq"]

    # with no attacker yet: nothing attacks, the defenders' strength counts once or twice
    bare = client.post(url, json={"targets": [target]}, headers=auth)
    assert bare.status_code == 200, bare.text
    cf = sum(u["cf"] for u in defenders)
    assert bare.json()["attack"] == 0 and bare.json()["defence"] in (cf, 2 * cf)
    assert bare.json()["odds"] == "worse than 1:2" and bare.json()["automatic_elimination"] is True

    # declare for real, add every unit the rules allow, and preview that attack
    r = client.post(f"/api/games/{gid}/commands", headers=auth,
                    json={"type": "attack", "data": {"hex": target}, "expected_seq": legal["seq"]})
    assert r.status_code == 200, r.text
    adds: list[str] = []
    while True:
        legal = client.get(f"/api/games/{gid}/legal", headers=auth).json()
        more = [c for c in listed(legal) if c["type"] == "add"]
        if not more:
            break
        adds.append(more[0]["data"]["unit"])
        r = client.post(f"/api/games/{gid}/commands", headers=auth, json={**more[0], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    assert adds
    combat_before = client.get(f"/api/games/{gid}").json()["combat"]
    r = client.post(url, json={"targets": [target], "units": adds}, headers=auth)
    assert r.status_code == 200, r.text
    preview = r.json()
    assert {"attack", "defence", "odds", "column", "modifier", "modifiers", "lines"} <= set(preview)
    assert preview["attack"] > 0 and preview["defence"] == bare.json()["defence"]
    assert preview["modifier"] == sum(m["value"] for m in preview["modifiers"])
    assert all({"value", "why", "rule"} <= set(m) for m in preview["modifiers"])
    # the engine, replaying the log from scratch, previews the same
    assert preview == RULES.preview_attack(full_replay(client, gid), side, [target], adds)
    # previewing changed nothing, and the declared attack assesses the same
    after = client.get(f"/api/games/{gid}").json()
    assert after["seq"] == legal["seq"] and after["combat"] == combat_before
    assert after["combat"]["assessment"] == preview

    resolve = [c for c in listed(legal) if c["type"] == "resolve"]
    if resolve:  # the die is rolled with the odds and modifiers the preview showed
        r = client.post(f"/api/games/{gid}/commands", headers=auth, json={**resolve[0], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        resolved = next(e for e in r.json()["events"] if e["type"] == "combat_resolved")
        for key in ("attack", "defence", "odds", "modifier", "modifiers"):
            assert resolved["data"][key] == preview[key], key


# --- the log -------------------------------------------------------------------------------

def test_the_log_pages_and_hides_the_dice_secret_from_players(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    for _ in range(3):
        post_first_legal(client, game)
    view = client.get(f"/api/games/{gid}").json()
    total = view["seq"]
    whole = client.get(f"/api/games/{gid}/log").json()
    assert whole["total"] == total and whole["offset"] == 0 and whole["limit"] == 100
    assert [i["seq"] for i in whole["items"]] == list(range(total))
    page = client.get(f"/api/games/{gid}/log", params={"offset": 2, "limit": 3}).json()
    assert page["total"] == total and page["offset"] == 2 and page["limit"] == 3
    assert page["items"] == whole["items"][2:5]
    assert client.get(f"/api/games/{gid}/log", params={"offset": total}).json()["items"] == []
    for bad in ({"limit": 0}, {"limit": 1001}, {"offset": -1}, {"limit": "many"}):
        assert client.get(f"/api/games/{gid}/log", params=bad).status_code == 422, bad

    created = whole["items"][0]
    assert created["type"] == "game_created" and created["actor"] is None
    assert created["text"] == "Game created (campaign); the dice come from the seed chains its record commits to"
    assert created["data"]["secret"] is None  # no one secret: the seeds are the server's until published
    assert created["data"]["commitment"] == view["dice_commitment"] == ""
    placed = [i for i in whole["items"] if i["type"] == "unit_placed"]
    assert len(placed) == 3 and all(i["text"] and i["actor"] == "US" for i in placed)
    assert all(isinstance(i["created_at"], str) for i in whole["items"])
    # a seat sees the same as a spectator
    assert client.get(f"/api/games/{gid}/log", headers=bearer(game["US"])).json() == whole

    admin = client.get(f"/api/admin/games/{gid}/log", auth=ADMIN).json()
    assert admin["total"] == total and admin["limit"] == 500
    assert admin["items"][0]["data"]["secret"] is None  # the dice come from the seed chains
    assert admin["items"] == whole["items"]


# --- health and the API description ------------------------------------------------------------

def test_health_and_openapi(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok"}
    spec = client.get("/openapi.json")
    assert spec.status_code == 200
    paths = spec.json()["paths"]
    expected = {
        "/api/games": {"post"},
        "/api/games/{game_id}/join": {"post"},
        "/api/games/{game_id}": {"get"},
        "/api/games/{game_id}/legal": {"get"},
        "/api/games/{game_id}/commands": {"post"},
        "/api/games/{game_id}/log": {"get"},
        "/api/games/{game_id}/export": {"get"},
        "/api/games/import": {"post"},
        "/api/games/{game_id}/units/{unit_id}/reachable": {"get"},
        "/api/games/{game_id}/attack-preview": {"post"},
        "/api/admin/games/{game_id}/verify": {"post"},
        "/api/admin/games/{game_id}/export": {"get"},
    }
    for path, methods in expected.items():
        assert path in paths and methods <= set(paths[path]), path
    commands = paths["/api/games/{game_id}/commands"]["post"]
    assert {"200", "409", "422"} <= set(commands["responses"])
