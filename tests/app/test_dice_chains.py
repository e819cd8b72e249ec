"""Dice nobody can bend, on the server (issue 36; app/services/dice_keys.py): a game made
now commits to two seed chains before anybody gives entropy; each player's part goes
into the record as a commitment, both are shown once both are in, and a seat that gave
none gets the server's at the first command (the record says so).  Every decision rolls
with its period's key; a finished period's open seed is published and its rolls check;
no side's copy of the record holds a seed before its time; the admin's verify replays
every decision with its key; at the end every seed and the salt come out."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from app_support import ADMIN, bearer, drive, listed
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.orm import Session
from third_game import registered

from app.config import Settings
from app.main import create_app
from app.models import Game
from app.services import dice_keys
from engine.core import dice, seeds
from engine.games import game_ids, get_rules
from engine.record import verify_record


def new_game(client: TestClient, game: str = "first_blood", side: str = "US", entropy: str | None = None,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    scenario = {"first_blood": "campaign", "sealed_bids": "standard", "pacific_battles": "short"}[game]
    body = client.post("/api/games", json={"game": game, "scenario": scenario, "side": side, "name": "Alice",
                                           "options": options or {}}).json()
    join: dict[str, Any] = {"token": body["invite_url"].split("token=")[1], "name": "Bob"}
    if entropy is not None:
        join["entropy"] = entropy
    other = client.post(f"/api/games/{body['game_id']}/join", json=join).json()
    client.cookies.clear()
    return {"id": body["game_id"], side: body["token"], other["side"]: other["token"]}


def record(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/export", params={"format": "record"},
                   **({"headers": bearer(token)} if token else {"auth": ADMIN}))
    assert r.status_code == 200, r.text
    return r.json()


def entries(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i["entry"] for i in doc["entries"] if "entry" in i and i["entry"]["kind"] == kind]


def command_moments(doc: dict[str, Any]) -> list[int]:
    """The event numbers that begin a command's events (the moments a rewind may go back to)."""
    items = [i["entry"] for i in doc["entries"]]
    return [items[k + 1]["n"] for k, e in enumerate(items[:-1]) if e["kind"] == "command"]


def turn(client: TestClient, gid: str) -> int:
    return client.get(f"/api/games/{gid}").json()["turn"]


def tops(database_url: str, gid: str) -> str:
    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(Game.dice_tops).where(Game.id == gid)).scalar_one()
    finally:
        engine.dispose()


def test_no_game_s_set_up_rolls_a_die() -> None:
    """The creation comes before the players' entropy, so it may roll nothing, whatever its
    options (a die with no secret would stop it: ``dice.NoSecret``)."""
    for game in game_ids():
        rules = get_rules(game)
        for scenario in rules.scenarios:
            for options in ({}, dict.fromkeys(rules.options, True)):
                with dice.recording() as rolled:
                    rules.create(scenario, options, None)  # type: ignore[arg-type]
                assert rolled == [], (game, scenario, options)


def test_the_commitment_comes_first_then_each_part_then_both_shown(client: TestClient, database_url: str) -> None:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid, us = body["game_id"], body["token"]
    client.cookies.clear()
    dice_now = client.get(f"/api/games/{gid}/dice").json()
    chains = dice_keys.chains(tops(database_url, gid))
    assert dice_now["commitments"] == {c: chains[c][0] for c in seeds.CHAINS}
    assert dice_now["sides"]["US"] == {"commitment": None, "made_by": None, "entropy": None}
    r = client.post(f"/api/games/{gid}/seat/entropy", headers=bearer(us), json={"entropy": "alice's own words"})
    assert r.status_code == 200, r.text
    assert r.json() == {"side": "US", "commitment": hashlib.sha256(b"alice's own words").hexdigest(),
                        "revealed": False}
    again = client.post(f"/api/games/{gid}/seat/entropy", headers=bearer(us), json={"entropy": "second thoughts"})
    assert again.status_code == 409 and "cannot change" in again.json()["detail"]
    # before the other part is in, the opponent and spectators see only the commitment
    assert client.get(f"/api/games/{gid}/dice").json()["sides"]["US"]["entropy"] is None
    assert client.get(f"/api/games/{gid}/dice", headers=bearer(us)).json()["sides"]["US"]["entropy"] == \
        "alice's own words"
    joined = client.post(f"/api/games/{gid}/join", json={"token": body["invite_url"].split("token=")[1],
                                                         "entropy": "bob's random"})
    assert joined.status_code == 200
    client.cookies.clear()
    shown = client.get(f"/api/games/{gid}/dice").json()
    assert shown["revealed"] and {s: v["entropy"] for s, v in shown["sides"].items()} == \
        {"US": "alice's own words", "IJ": "bob's random"}
    doc = record(client, gid)
    kinds = [i["entry"]["kind"] for i in doc["entries"]]
    assert kinds[0] == "dice" and kinds.count("entropy_commit") == 2 and kinds.count("entropy") == 2
    assert kinds.index("entropy") > max(k for k, kind in enumerate(kinds) if kind == "entropy_commit")
    assert verify_record(doc).ok


def test_a_seat_that_gave_nothing_gets_the_server_s_part_at_the_first_command(client: TestClient) -> None:
    game = new_game(client, entropy="only bob gave one")
    drive(client, game, lambda legal: legal["seq"] > 3)
    doc = record(client, game["id"])
    commits = {e["side"]: e for e in entries(doc, "entropy_commit")}
    assert commits["IJ"]["made_by"] == "player" and commits["US"]["made_by"] == "server"
    shown = {e["side"]: e["entropy"] for e in entries(doc, "entropy")}
    assert shown["IJ"] == "only bob gave one"
    assert seeds.entropy_commitment(shown["US"]) == commits["US"]["commitment"]
    first_command = next(k for k, i in enumerate(doc["entries"]) if i["entry"]["kind"] == "command")
    assert all(k < first_command for k, i in enumerate(doc["entries"]) if i["entry"]["kind"] == "entropy")
    assert client.post(f"/api/games/{game['id']}/seat/entropy", headers=bearer(game["US"]),
                       json={"entropy": "too late"}).status_code == 409


def test_turns_publish_their_seeds_and_every_roll_checks(client: TestClient, database_url: str) -> None:
    game = new_game(client, entropy="bob")
    gid = game["id"]
    drive(client, game, lambda legal: turn(client, gid) >= 3, limit=900)
    admin = record(client, gid)
    verdict = verify_record(admin)
    assert verdict.ok and verdict.rolls_checked > 0, verdict.message
    published = entries(admin, "seed")
    assert [s["period"] for s in published] == [1, 2] and {s["chain"] for s in published} == {"open"}
    chains = dice_keys.chains(tops(database_url, gid))
    assert all(s["seed"] == chains["open"][s["period"]] for s in published)
    # a die needs the seed and both players' entropy: with one part changed, the rolls change
    shown = {e["side"]: e["entropy"] for e in entries(admin, "entropy")}
    listed_rolls = [(e["key"], r) for e in entries(admin, "event") for r in e.get("rolls", []) if e["key"][1] <= 2]
    assert listed_rolls
    key = {p: seeds.turn_key(chains["open"][p], shown) for p in (1, 2)}
    other = {p: seeds.turn_key(chains["open"][p], {**shown, "IJ": shown["IJ"] + "!"}) for p in (1, 2)}
    assert all(dice.roll(key[k[1]], n, i, s) == v for k, (n, i, s, v) in listed_rolls)
    (_, p), (n, _, _, _) = listed_rolls[0]  # (a few dice may agree by chance: twenty in a row will not)
    assert [dice.roll(other[p], n, i) for i in range(20)] != [dice.roll(key[p], n, i) for i in range(20)]
    # each side's copy: its rolls check with what it may know, and no seed comes before its time
    for side in ("US", "IJ"):
        mine = record(client, gid, game[side])
        assert verify_record(mine, admin["entries"][-1]["hash"]).ok
        words = str(mine)
        later = [chains[c][p] for c in seeds.CHAINS for p in range(1, dice_keys.PERIODS + 1)
                 if not (c == "open" and p <= 2)]
        assert not any(seed in words for seed in later), side
    # the page makes every published roll again
    page = client.get(f"/games/{gid}/dice", headers=bearer(game["US"]))
    assert page.status_code == 200 and "every one matches its seed" in page.text, page.text
    # and the admin's verify replays the game, each decision with its key
    v = client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()
    assert v["ok"], v


def test_the_admin_s_verify_names_a_die_changed_in_the_log(client: TestClient, database_url: str) -> None:
    game = new_game(client, entropy="bob")
    gid = game["id"]
    drive(client, game, lambda legal: turn(client, gid) >= 2, limit=600)
    engine = create_engine(database_url)
    with engine.begin() as conn:  # a supply die rewritten in the database, its rolls with it
        row = conn.execute(text("SELECT seq, payload FROM events WHERE game_id = :g AND type = 'supply_rolled' "
                                "ORDER BY seq LIMIT 1"), {"g": gid}).first()
        assert row is not None
        payload = dict(row.payload) if isinstance(row.payload, dict) else json.loads(row.payload)
        payload["die"] = payload["die"] % 6 + 1
        conn.execute(text("UPDATE events SET payload = :p WHERE game_id = :g AND seq = :s"),
                     {"p": json.dumps(payload), "g": gid, "s": row.seq})
    engine.dispose()
    v = client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()
    assert not v["ok"] and v["bad_seq"] == row.seq, v


@pytest.fixture
def third(settings: Settings) -> Iterator[TestClient]:
    with registered(), TestClient(create_app(settings)) as c:
        yield c


def test_the_end_publishes_every_seed_and_the_salt(third: TestClient) -> None:
    game = new_game(third, "sealed_bids", "North")
    gid = game["id"]
    for _ in range(40):
        view = third.get(f"/api/games/{gid}").json()
        if view.get("result") is not None or third.get(f"/api/games/{gid}", headers=bearer(game["North"])).json() \
                .get("result") is not None:
            break
        for side in ("North", "South"):
            legal = third.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
            cmds = listed(legal)
            if cmds:
                bid = min(cmds, key=lambda c: c["data"].get("amount", 0))  # ties, so that the die decides
                r = third.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                               json={**bid, "expected_seq": legal["seq"]})
                assert r.status_code == 200, r.text
    doc = record(third, gid, game["North"])
    assert entries(doc, "salt") and {(s["chain"], s["period"]) for s in entries(doc, "seed")} >= \
        {("open", dice_keys.PERIODS), ("hidden", dice_keys.PERIODS)}
    verdict = verify_record(doc)
    assert verdict.ok and verdict.replayed, verdict.message
    # a finished game's record holds its chains' top seeds: it imports, its dice decide again
    r = third.post("/api/admin/import", json=doc, auth=ADMIN)
    assert r.status_code == 201, r.text
    again = record(third, r.json()["game_id"])
    assert verify_record(again).ok
    assert [e["event"] for e in entries(again, "event")] == [e["event"] for e in entries(doc, "event")]


def test_no_side_of_pacific_battles_gets_a_seed_or_a_roll_before_its_time(client: TestClient,
                                                                        database_url: str) -> None:
    """The fog: a published seed keys only decisions both sides saw whole; the hidden chain's
    seeds, and the rolls of the decisions keyed to it, reach no side while the game goes on."""
    game = new_game(client, "pacific_battles", "Allied")
    gid = game["id"]
    rng = random.Random(36)
    for _ in range(600):
        moved = False
        for side in ("Allied", "Japanese"):
            legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
            if cmds := listed(legal):
                cmd = rng.choice(cmds)
                r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                                json={**cmd, "expected_seq": legal["seq"]})
                assert r.status_code == 200, r.text
                moved = True
                break
        if not moved or client.get(f"/api/games/{gid}/dice").json()["published"]["open"]:
            break
    admin = record(client, gid)
    assert verify_record(admin).ok
    published = {s["period"] for s in entries(admin, "seed")}
    assert published and {s["chain"] for s in entries(admin, "seed")} == {"open"}
    hidden = [e for e in entries(admin, "event") if e["key"][0] == "hidden" and e["n"] > 5]
    assert hidden and not any("rolls" in e for e in hidden)  # a hidden decision lists no roll
    chains = dice_keys.chains(tops(database_url, gid))
    for side in ("Allied", "Japanese"):
        mine = bearer(game[side])
        words = str(record(client, gid, game[side])) + client.get(f"/games/{gid}/dice", headers=mine).text \
            + client.get(f"/api/games/{gid}/dice", headers=mine).text
        unpublished = [chains[c][p] for c in seeds.CHAINS for p in range(1, dice_keys.PERIODS + 1)
                       if not (c == "open" and p in published)]
        assert not any(seed[:32] in words for seed in unpublished), side


def test_a_rewind_keeps_the_record_whole_and_a_finished_game_is_not_rewound(client: TestClient,
                                                                           third: TestClient) -> None:
    game = new_game(client, entropy="bob")
    gid = game["id"]
    drive(client, game, lambda legal: turn(client, gid) >= 2, limit=600)
    to = command_moments(record(client, gid))[-3]
    r = client.post(f"/api/admin/games/{gid}/rewind", auth=ADMIN, json={"to": to, "reason": "a wrong click",
                                                                         "agreed": True})
    assert r.status_code == 200, r.text
    drive(client, game, lambda legal: legal["seq"] > r.json()["seq"] + 5)
    assert verify_record(record(client, gid)).ok
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"]
    exported = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()  # the rewind and the dice travel
    moved = client.post("/api/games/import", json=exported, auth=ADMIN)
    assert moved.status_code == 201, moved.text
    assert verify_record(record(client, moved.json()["game_id"])).ok

    done = new_game(third, "sealed_bids", "North")
    while (legal := third.get(f"/api/games/{done['id']}/legal", headers=bearer(done["North"])).json())["prompt"][
            "side"] is not None or legal["prompt"]["sides"]:
        for side in ("North", "South"):
            legal = third.get(f"/api/games/{done['id']}/legal", headers=bearer(done[side])).json()
            if cmds := listed(legal):
                third.post(f"/api/games/{done['id']}/commands", headers=bearer(done[side]),
                           json={**cmds[0], "expected_seq": legal["seq"]})
    first = command_moments(record(third, done["id"]))[0]
    r = third.post(f"/api/admin/games/{done['id']}/rewind", auth=ADMIN, json={"to": first, "reason": "again",
                                                                               "agreed": True})
    assert r.status_code == 422 and "foresee" in r.text, r.text


def test_pacific_battles_variable_forces_are_each_side_s_first_roll(client: TestClient) -> None:
    """35.4 "Prior to start of play, each player rolls one die": each side's first decision, so
    that the die comes after both players' entropy, on the hidden chain (the other side may
    not see it), its roll listed nowhere a side reads until the game is over."""
    game = new_game(client, "pacific_battles", "Allied", options={"variable_forces": True})
    gid = game["id"]
    for _ in range(2):  # one die each
        side = client.get(f"/api/games/{gid}/legal").json()["prompt"]["side"]
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        assert listed(legal) == [{"type": "roll_start_force", "data": {}}]
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                        json={"type": "roll_start_force", "data": {}, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    admin = record(client, gid)
    rolled = [e for e in entries(admin, "event") if e["event"]["type"] == "start_force"]
    assert len(rolled) == 2 and all(e["key"][0] == "hidden" and "rolls" not in e for e in rolled)
    assert verify_record(admin).ok and client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"]


def test_the_record_shows_the_entropy_from_the_first_command_on(client: TestClient, database_url: str) -> None:
    """``dice_keys.revealed``, the one question a worker asks the database before it keeps a
    game's dice material: False until the first command writes both parts, True after."""
    game = new_game(client, entropy="bob's words")
    engine = create_engine(database_url)
    try:
        with Session(engine) as session:
            assert dice_keys.revealed(session, game["id"]) is False
        legal = client.get(f"/api/games/{game['id']}/legal", headers=bearer(game["US"])).json()
        first = listed(legal)[0]
        r = client.post(f"/api/games/{game['id']}/commands", headers=bearer(game["US"]),
                        json={**first, "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
        with Session(engine) as session:
            assert dice_keys.revealed(session, game["id"]) is True
    finally:
        engine.dispose()
