"""The game's record as a hash chain, kept with its log (app/services/record.py): each side's
record file verifies with the engine's checker and holds nothing its view hides; a byte
changed in the stored log is named; an old head is recognised, a made-up one is not; an
import refuses a record that does not verify, with the checker's verdict."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from app_support import ADMIN, bearer, drive, listed
from clock_support import new_game
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from app import store
from app.config import Settings
from app.main import create_app
from app.models import Game
from app.services import record
from engine.core.events import Event
from engine.core.game import replay
from engine.games import get_rules
from engine.games.pacific_battles import leaks
from engine.record import ADMIN as ADMIN_VIEWER
from engine.record import SPECTATOR, verify_record


def export(client: TestClient, gid: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{gid}/export", params={"format": "record"},
                   **({"headers": bearer(token)} if token else {"auth": ADMIN}))
    assert r.status_code == 200, r.text
    return r.json()


def play(client: TestClient, game: dict[str, str], commands: int) -> None:
    count = iter(range(commands + 1))
    drive(client, game, lambda legal: next(count) == commands)


def head_of(doc: dict[str, Any]) -> str:
    return doc["entries"][-1]["hash"]


def test_each_side_s_record_verifies_and_all_end_with_one_head(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    play(client, game, 12)
    admin = export(client, gid)
    assert admin["format"] == "hexwar-record" and admin["viewer"] == ADMIN_VIEWER and admin["game"] == "first_blood"
    verdict = verify_record(admin)
    assert verdict.ok, verdict.message
    events = [i["entry"] for i in admin["entries"] if i["entry"]["kind"] == "event"]
    assert len(events) == client.get(f"/api/games/{gid}").json()["seq"]
    assert any(i["entry"]["kind"] == "command" for i in admin["entries"])
    for side in ("US", "IJ"):
        mine = export(client, gid, game[side])
        assert mine["viewer"] == side
        assert verify_record(mine, head_of(admin)).ok, verify_record(mine).message
        assert "hidden until" not in json.dumps(mine)
        # the creation event holds the dice secret: sealed for both sides while the game goes on
        created = next(i for i in mine["entries"] if i.get("link", {}).get("kind") == "event")
        assert "secret" not in json.dumps(created["link"]["public"]) and "entry" not in created
    assert client.get(f"/api/games/{gid}/export", params={"format": "record"}).status_code == 401
    check = client.get(f"/api/games/{gid}/record/check", params={"head": head_of(admin)}).json()
    assert check["ok"] and check["head"] == head_of(admin) and check["entry"] == len(admin["entries"]) - 1


def test_a_byte_changed_in_the_stored_log_is_named(client: TestClient, game: dict[str, str],
                                                   database_url: str) -> None:
    gid = game["id"]
    play(client, game, 8)
    before = export(client, gid)
    assert verify_record(before).ok
    victim = next(i["entry"] for i in before["entries"]
                  if i["entry"]["kind"] == "event" and i["entry"]["n"] >= 3 and i["entry"]["event"]["data"])
    n = victim["n"]
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            payload = conn.execute(text("SELECT payload FROM events WHERE game_id = :g AND seq = :n"),
                                   {"g": gid, "n": n}).scalar_one()
            if isinstance(payload, str):
                payload = json.loads(payload)
            key = sorted(payload)[0]
            payload[key] = f"{payload[key]}x"  # one more byte
            conn.execute(text("UPDATE events SET payload = :p WHERE game_id = :g AND seq = :n"),
                         {"p": json.dumps(payload), "g": gid, "n": n})
    finally:
        engine.dispose()
    after = export(client, gid)
    verdict = verify_record(after)
    assert not verdict.ok and verdict.bad_seq == victim["seq"], verdict.message
    assert f"event {n}," in verdict.message and "hash" in verdict.message
    for side in ("US", "IJ"):  # each side's copy names it too, sealed or not
        mine = verify_record(export(client, gid, game[side]))
        assert not mine.ok and mine.bad_seq == victim["seq"], mine.message
    check = client.get(f"/api/games/{gid}/record/check", params={"head": head_of(before)}).json()
    assert not check["ok"] and "changed" in check["message"]


def test_an_old_head_is_recognised_a_made_up_one_is_not(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    play(client, game, 5)
    old = head_of(export(client, gid, game["US"]))
    play(client, game, 5)
    now = export(client, gid)
    assert head_of(now) != old
    answer = client.get(f"/api/games/{gid}/record/check", params={"head": old.upper() + " "}).json()
    assert answer["ok"] and answer["head"] == head_of(now), answer
    made_up = f"{random.Random(7).getrandbits(256):064x}"
    answer = client.get(f"/api/games/{gid}/record/check", params={"head": made_up}).json()
    assert not answer["ok"] and "does not extend" in answer["message"]
    answer = client.get(f"/api/games/{gid}/record/check", params={"head": "not a hash"}).json()
    assert not answer["ok"] and "64 hex digits" in answer["message"]


def test_an_import_of_a_game_of_seed_chains_is_refused_plainly(client: TestClient, game: dict[str, str]) -> None:
    play(client, game, 10)
    doc = export(client, game["id"])
    assert verify_record(doc).ok
    r = client.post("/api/admin/import", json=doc, auth=ADMIN)
    assert r.status_code == 422 and "seed chains" in r.json()["detail"], r.text


@pytest.fixture
def legacy(settings: Settings) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """A server whose dice come from one fixed secret (record version 1), and a game on it."""
    with TestClient(create_app(settings.model_copy(update={"fixed_dice_secret": "fixed-for-import"}))) as c:
        r = c.post("/api/games", json={"side": "US", "name": "Alice"})
        body = r.json()
        r2 = c.post(f"/api/games/{body['game_id']}/join", json={"token": body["invite_url"].split("token=")[1]})
        c.cookies.clear()
        yield c, {"id": body["game_id"], "US": body["token"], "IJ": r2.json()["token"]}


def test_the_admin_import_takes_a_record_that_verifies_and_refuses_one_that_does_not(
        legacy: tuple[TestClient, dict[str, str]]) -> None:
    client, game = legacy
    gid = game["id"]
    play(client, game, 10)
    doc = export(client, gid)
    assert client.post("/api/admin/import", json=doc).status_code == 401
    r = client.post("/api/admin/import", json=doc, auth=ADMIN)
    assert r.status_code == 201, r.text
    new = r.json()["game_id"]
    again = export(client, new)
    assert verify_record(again).ok
    strip = [(i["entry"]["kind"], i["entry"].get("event"), i["entry"].get("command")) for i in doc["entries"][5:]]
    assert strip == [(i["entry"]["kind"], i["entry"].get("event"), i["entry"].get("command"))
                     for i in again["entries"][5:]]

    spoiled = json.loads(json.dumps(doc))
    k = next(k for k, i in enumerate(spoiled["entries"]) if i["entry"]["kind"] == "event" and i["entry"]["n"] == 4)
    spoiled["entries"][k]["entry"]["event"]["side"] = "nobody"
    r = client.post("/api/admin/import", json=spoiled, auth=ADMIN)
    assert r.status_code == 422
    assert r.json()["detail"] == f"the record does not verify: {verify_record(spoiled).message}"
    assert r.json()["bad_seq"] == k
    side_copy = export(client, gid, game["US"])
    r = client.post("/api/admin/import", json=side_copy, auth=ADMIN)
    assert r.status_code == 422 and "sealed" in r.json()["detail"]


def test_a_head_remembered_wrong_costs_a_read_never_a_fork(client: TestClient, game: dict[str, str]) -> None:
    """Another worker wrote the game: this one's remembered head is stale (or gone); the
    write finds no row with it, reads the head and chains from there (through the API, and
    through the thread path's append on a head it did not read)."""
    gid = game["id"]
    play(client, game, 3)
    service = client.app.state.games
    for spoil in ("stale", "gone", "stale"):
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game["US"])).json()
        side = legal["prompt"]["side"]
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        seq = legal["seq"]
        known, chain = record.remembered(gid, seq)
        assert known and chain is not None
        if spoil == "stale":
            record.remember(gid, record.Chain(chain.game, chain.salt, chain.events, chain.seq, "f" * 64), seq)
        else:
            record.forget(gid)
        cmd = listed(legal)[0]
        with client.app.state.db.sessions() as session:
            service.submit(session, store.GameHead(gid, "first_blood", seq), side, cmd, seq)
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        if legal["prompt"]["side"] == side:  # the event loop's write (PostgreSQL) on a head remembered wrong
            record.remember(gid, record.Chain(chain.game, chain.salt, legal["seq"], 0, "d" * 64), legal["seq"])
            r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                            json={**listed(legal)[0], "expected_seq": legal["seq"]})
            assert r.status_code == 200, r.text
    doc = export(client, gid)
    assert verify_record(doc).ok, verify_record(doc).message
    assert len([i for i in doc["entries"] if i["entry"]["kind"] == "event"]) == client.get(
        f"/api/games/{gid}").json()["seq"]


@pytest.mark.parametrize("commands", [40, 120])
def test_no_side_s_record_of_pacific_battles_holds_what_its_view_hides(client: TestClient, commands: int) -> None:
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "historical", "side": "Allied",
                                        "name": "A"})
    assert r.status_code == 201, r.text
    body = r.json()
    gid, tokens = body["game_id"], {"Allied": body["token"]}
    joined = client.post(f"/api/games/{gid}/join", json={"token": body["invite_url"].split("token=")[1], "name": "J"})
    tokens["Japanese"] = joined.json()["token"]
    client.cookies.clear()
    rng = random.Random(commands)
    for _ in range(commands):
        side = None
        for s in tokens:
            legal = client.get(f"/api/games/{gid}/legal", headers=bearer(tokens[s])).json()
            if commands := listed(legal):
                side = s
                break
        if side is None:
            break
        cmd = rng.choice(commands)
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    admin = export(client, gid)
    assert verify_record(admin).ok
    rules = get_rules("pacific_battles")
    state = replay(rules, [Event.from_json(i["entry"]["event"]) for i in admin["entries"]
                           if i["entry"]["kind"] == "event"])
    salt = None
    for side in rules.sides:
        mine = export(client, gid, tokens[side])
        assert verify_record(mine, head_of(admin)).ok
        words = json.dumps(mine, sort_keys=True)
        needles = rules.secrets(state, side)
        assert needles and leaks.find(needles, words) == [], side
        assert leaks.find(needles, json.dumps(admin)), side  # the search bites
        assert state.secret is None  # no one secret: the seed chains' seeds are the server's until published
        salt = salt or next(i for i in mine["entries"] if "salt" in i)["salt"]
    assert salt is not None


def test_the_head_is_on_the_log_page_the_seat_s_card_and_each_your_move_mail(client: TestClient,
                                                                              game: dict[str, str]) -> None:
    gid = game["id"]
    assert client.put(f"/api/games/{gid}/seat/email", headers=bearer(game["IJ"]),
                      json={"email": "ij@example.org"}).status_code == 200
    drive(client, game, lambda legal: legal["prompt"]["side"] == "IJ")  # the US sets up: IJ's move
    head = head_of(export(client, gid))
    assert f'<code id="record-head">{head}</code>' in client.get(f"/games/{gid}/log").text
    client.cookies.clear()
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)  # the seat's cookie
    board = client.get(f"/games/{gid}").text
    assert f'<code id="record-head">{head}</code>' in board and f"/games/{gid}/record/check" in board
    mine = client.get(f"/api/games/{gid}/export", params={"format": "record"})  # the card's link: the seat's cookie
    assert mine.status_code == 200 and mine.json()["viewer"] == "US" and head_of(mine.json()) == head
    client.cookies.clear()
    mails = [m for m in client.get("/api/admin/outbox", auth=ADMIN).json()["items"] if m["kind"] == "your_move"]
    assert mails and mails[0]["side"] == "IJ"
    assert f"The game's record now ends with hash {head}." in mails[0]["body"]
    old = head
    play(client, game, 4)
    assert client.get(f"/api/games/{gid}/record/check", params={"head": old}).json()["ok"]
    # the board's check box answers in words
    said = client.get(f"/games/{gid}/record/check", params={"head": old}).text
    assert 'class="ok"' in said and "extends it" in said
    said = client.get(f"/games/{gid}/record/check", params={"head": "ab" * 32}).text
    assert 'class="error"' in said and "does not extend it" in said


def test_the_admin_s_acts_are_entries_of_the_record(client: TestClient, game: dict[str, str],
                                                     database_url: str) -> None:
    gid = game["id"]
    play(client, game, 4)
    old = head_of(export(client, gid))
    r = client.post(f"/api/admin/games/{gid}/rulings", auth=ADMIN, json={"reason": "a word to both", "note": "hi"})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/admin/games/{gid}/seats/IJ/new-link", auth=ADMIN)
    assert r.status_code == 200, r.text
    game["IJ"] = r.json()["token"]
    play(client, game, 3)
    doc = export(client, gid)
    assert verify_record(doc).ok, verify_record(doc).message
    acts = [i["entry"] for i in doc["entries"] if i["entry"]["kind"] == "admin"]
    assert [(a["admin"], a["act"]) for a in acts] == [(ADMIN[0], "ruling"), (ADMIN[0], "new_seat_link")]
    assert acts[1]["detail"] == {"side": "IJ"}
    for side in ("US", "IJ"):
        assert verify_record(export(client, gid, game[side]), head_of(doc)).ok
    assert client.get(f"/api/games/{gid}/record/check", params={"head": old}).json()["ok"]
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE admin_audit SET detail = :d WHERE game_id = :g AND action = 'new_seat_link'"),
                         {"d": json.dumps({"side": "US"}), "g": gid})
    finally:
        engine.dispose()
    verdict = verify_record(export(client, gid))
    assert not verdict.ok and verdict.bad_seq == acts[1]["seq"] and "admin" in verdict.message, verdict.message


def test_chat_lines_and_clock_acts_are_entries_of_the_record(client: TestClient, database_url: str) -> None:
    """Issue 36, item 3: the record holds chat and the clock too; a line rewritten in the
    database is named by the checker, and a spectator's copy holds the players' chat sealed."""
    game = new_game(client, move_days=3, vacation_days=5)
    gid = game["id"]
    play(client, game, 3)
    for side, words in (("US", "Good luck <b>sir</b>"), ("IJ", "And to you")):
        r = client.post(f"/api/games/{gid}/chat", headers=bearer(game[side]), json={"text": words})
        assert r.status_code == 201, r.text
    r = client.post(f"/api/games/{gid}/clock/vacation", headers=bearer(game["IJ"]), json={"days": 2})
    assert r.status_code == 200, r.text
    play(client, game, 2)
    doc = export(client, gid)
    assert verify_record(doc).ok, verify_record(doc).message
    chat = [i["entry"] for i in doc["entries"] if i["entry"]["kind"] == "chat"]
    assert [(c["side"], c["text"]) for c in chat] == [("US", "Good luck <b>sir</b>"), ("IJ", "And to you")]
    assert all(c["readers"] == ["IJ", "US"] for c in chat)
    acts = [i["entry"] for i in doc["entries"] if i["entry"]["kind"] == "clock"]
    assert [(a["side"], a["act"], a["days"]) for a in acts] == [("IJ", "vacation", 2)]
    assert chat[0]["seq"] < chat[1]["seq"] < acts[0]["seq"] < doc["entries"][-1]["entry"]["seq"]  # events after
    for side in ("US", "IJ"):  # each player reads both lines, and every copy ends at the same head
        mine = export(client, gid, game[side])
        assert verify_record(mine, head_of(doc)).ok
        assert "And to you" in json.dumps(mine) and "Good luck" in json.dumps(mine)
    with client.app.state.db.sessions() as session:  # (no route gives a spectator the record: the service does)
        watcher = record.export(session, session.get(Game, gid), SPECTATOR)
    assert "And to you" not in json.dumps(watcher) and verify_record(watcher, head_of(doc)).ok
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE chat_messages SET text = 'And to you!' WHERE game_id = :g AND side = 'IJ'"),
                         {"g": gid})
    finally:
        engine.dispose()
    verdict = verify_record(export(client, gid))
    assert not verdict.ok and verdict.bad_seq == chat[1]["seq"] and "chat" in verdict.message, verdict.message
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("UPDATE chat_messages SET text = 'And to you' WHERE game_id = :g AND side = 'IJ'"),
                         {"g": gid})
            conn.execute(text("UPDATE clock_acts SET days = 5 WHERE game_id = :g"), {"g": gid})
    finally:
        engine.dispose()
    verdict = verify_record(export(client, gid))
    assert not verdict.ok and verdict.bad_seq == acts[0]["seq"] and "clock" in verdict.message, verdict.message


def test_a_game_made_before_the_record_has_no_chain_and_plays_and_verifies_as_before(
        client: TestClient, game: dict[str, str], database_url: str) -> None:
    gid = game["id"]
    play(client, game, 3)
    engine = create_engine(database_url)
    try:
        with engine.begin() as conn:  # as migration 0013 leaves a game made before it
            conn.execute(text("UPDATE games SET record_version = 0, record_salt = NULL, record_seq = 0, "
                              "record_head = NULL WHERE id = :g"), {"g": gid})
            conn.execute(text("UPDATE events SET record_seq = NULL, record_hash = NULL, command_hash = NULL "
                              "WHERE game_id = :g"), {"g": gid})
    finally:
        engine.dispose()
    play(client, game, 4)  # this worker remembered a chain: its writes find no row, read, and write none
    r = client.get(f"/api/games/{gid}/export", params={"format": "record"}, headers=bearer(game["US"]))
    assert r.status_code == 409 and "before the record" in r.json()["detail"]
    assert client.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"]
    answer = client.get(f"/api/games/{gid}/record/check", params={"head": "0" * 64}).json()
    assert not answer["ok"] and answer["head"] is None
    assert 'id="record-head"' not in client.get(f"/games/{gid}/log").text
