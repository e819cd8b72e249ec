"""The JSON command route's fast path (a secret this worker has seen, on the cached
state, written without reading the game first) answers exactly as the full path
would: the write itself checks the seat and the log's length, on SQLite and on
PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from app_support import listed, pick
from fastapi.testclient import TestClient
from sqlalchemy import event, update

from app.config import Settings
from app.main import create_app
from app.models import Game, Seat
from app.security import hash_token
from app.services.games import Recent


def first_place(client: TestClient, gid: str, token: str) -> tuple[dict[str, Any], int]:
    """The first legal placement for the side of ``token`` (the US sets up first), and the log's length."""
    legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()
    return next(c for c in listed(legal) if c["type"] == "place"), legal["seq"]


def new_game(client: TestClient) -> dict[str, str]:
    body = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    joined = client.post(f"/api/games/{body['game_id']}/join",
                         json={"token": body["invite_url"].split("token=")[1], "name": "Bob"}).json()
    client.cookies.clear()
    return {"id": body["game_id"], "US": body["token"], "IJ": joined["token"]}


def _post(client: TestClient, gid: str, token: str, cmd: dict[str, Any], seq: int) -> Any:
    return client.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                       json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})


def _statements(client: TestClient) -> list[str]:
    seen: list[str] = []
    event.listen(client.app.state.db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_rest: seen.append(" ".join(statement.split()[:2])))
    return seen


def first_command(client: TestClient, game: dict[str, str]) -> None:
    """The game's first command, which fixes the dice (the players' entropy shown: a transaction)."""
    cmd, seq = first_place(client, game["id"], game["US"])
    assert _post(client, game["id"], game["US"], cmd, seq).status_code == 200


def test_a_known_secret_commands_without_reading_the_game(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    first_command(client, game)
    seen = _statements(client)
    for n in range(3):
        cmd, seq = first_place(client, gid, game["US"])  # a legal list teaches this worker the secret too
        if n == 0:
            client.app.state.games.seats = Recent(16)  # a worker that has not seen it
        seen.clear()
        r = _post(client, gid, game["US"], cmd, seq)
        assert r.status_code == 200, r.text
        assert r.json()["seq"] > seq
        reads = [s for s in seen if s.startswith("SELECT")]
        # the first command reads the game and the seat; later ones only write
        assert (reads != []) == (n == 0), seen


def test_a_replaced_secret_is_refused_on_the_fast_path(client: TestClient, game: dict[str, str]) -> None:
    """A secret that opened the seat a moment ago and has since been replaced (a new
    link) is refused with 403 and writes nothing, though this worker remembers it."""
    gid = game["id"]
    cmd, seq = first_place(client, gid, game["US"])
    assert _post(client, gid, game["US"], cmd, seq).status_code == 200  # now remembered
    cmd, seq = first_place(client, gid, game["US"])
    with client.app.state.db.sessions() as s:
        s.execute(update(Seat).where(Seat.game_id == gid, Seat.side == "US")
                  .values(token_hash=hash_token("a-new-secret")))
        s.commit()
    r = _post(client, gid, game["US"], cmd, seq)
    assert r.status_code == 403, r.text
    assert r.json()["detail"] == "that seat secret is not valid for this game"
    assert client.get(f"/api/games/{gid}/legal").json()["seq"] == seq  # nothing written


def test_a_stale_cached_state_gives_409_with_the_current_length(settings: Any) -> None:
    """Two workers on one database: the second appends; the first, whose cached state
    is one command behind, answers 409 naming the log's real length."""
    a, b = create_app(settings), create_app(settings)
    with TestClient(a) as ca, TestClient(b) as cb:
        game = new_game(ca)
        gid = game["id"]
        cmd, seq = first_place(ca, gid, game["US"])
        assert _post(ca, gid, game["US"], cmd, seq).status_code == 200  # worker a: seat known, state cached
        cmd, seq = first_place(ca, gid, game["US"])
        r = _post(cb, gid, game["US"], cmd, seq)  # worker b moves on
        assert r.status_code == 200, r.text
        new_seq = r.json()["seq"]
        cmd_a, _ = first_place(cb, gid, game["US"])
        r = _post(ca, gid, game["US"], cmd_a, seq)  # a still has the state after `seq` events
        assert r.status_code == 409, r.text
        assert r.json()["current_seq"] == new_seq


def test_an_illegal_command_on_the_fast_path_names_its_rule(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    cmd, seq = first_place(client, gid, game["US"])
    assert _post(client, gid, game["US"], cmd, seq).status_code == 200
    cmd, seq = first_place(client, gid, game["US"])
    r = _post(client, gid, game["US"], {"type": "place", "data": {**cmd["data"], "to": "0101"}}, seq)
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "§3"
    assert client.get(f"/api/games/{gid}/legal").json()["seq"] == seq


def test_a_legal_list_is_one_light_read(client: TestClient, game: dict[str, str]) -> None:
    """The list asked before every command reads the game's head and the seat in one
    statement (not the game and its seats as objects); a wrong secret is still refused,
    and a spectator still gets the prompt without commands."""
    gid = game["id"]
    first_place(client, gid, game["US"])  # the state is cached now
    seen: list[str] = []
    event.listen(client.app.state.db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_rest: seen.append(" ".join(statement.split())))
    legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {game['US']}"})
    assert legal.status_code == 200 and listed(legal.json())
    assert len(seen) == 1 and seen[0].startswith("SELECT"), seen
    assert "title" not in seen[0] and "display_name" not in seen[0], seen  # the head, not whole rows
    assert client.get(f"/api/games/{gid}/legal", headers={"Authorization": "Bearer wrong"}).status_code == 403
    spectator = client.get(f"/api/games/{gid}/legal").json()
    assert listed(spectator) == [] and spectator["prompt"]["side"] == "US" and spectator["your_turn"] is False


def test_a_handover_reads_the_title_and_seats_once(client: TestClient, game: dict[str, str]) -> None:
    """A command that hands the decision over starts the next clock and queues the
    notices: one read of the game's title and seats serves both (four reads before).
    (Both seats want mail: on PostgreSQL a handover to a seat that wants none is written
    from the event loop in one statement, app/fast_commands.py.)"""
    gid, side = game["id"], "US"
    with client.app.state.db.sessions() as s:
        s.execute(update(Seat).where(Seat.game_id == gid).values(email="player@example.com"))
        s.commit()
    full: list[str] = []
    event.listen(client.app.state.db.engine, "before_cursor_execute",
                 lambda _c, _cur, statement, *_rest: full.append(" ".join(statement.split())))
    for _ in range(200):
        legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {game[side]}"}).json()
        cmd = pick(client, gid, side, legal)
        full.clear()
        r = _post(client, gid, game[side], cmd, legal["seq"])
        assert r.status_code == 200, r.text
        acting = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {game[side]}"}
                            ).json()["prompt"]["side"]
        if acting != side:
            break
    else:
        raise AssertionError("no handover within 200 commands")
    # (besides the game's head and the seat, when this worker has not seen the secret yet)
    reads = [s for s in full if s.startswith("SELECT") and "token_hash = " not in s]
    assert len(reads) == 1 and "seats.vacation_until" in reads[0] and "games.title" in reads[0], reads
    with client.app.state.db.sessions() as s:  # the next decision's clock did start
        row = s.get(Game, gid)
        assert row.decision_side == acting and row.decision_since is not None


def _writes(client: TestClient) -> list[str]:
    """Each write statement's first word, and whether the database had a transaction
    open around it ("alone": it committed by itself, without BEGIN and COMMIT)."""
    seen: list[str] = []

    def after(conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        word = statement.split()[0]
        if word in ("WITH", "UPDATE", "INSERT"):
            raw = conn.connection.driver_connection
            sqlite = hasattr(raw, "in_transaction")
            open_tx = raw.in_transaction if sqlite else raw.info.transaction_status.name != "IDLE"
            seen.append(f"{word} {'in a transaction' if open_tx else 'alone'}")

    event.listen(client.app.state.db.engine, "after_cursor_execute", after)
    return seen


@pytest.fixture
def threads_only(settings: Settings) -> Iterator[TestClient]:
    """An app whose every command goes through a thread: no event loop's pool (``fast_writes`` 0)."""
    with TestClient(create_app(settings.model_copy(update={"fast_writes": 0}))) as client:
        yield client


def test_a_command_that_only_appends_is_one_statement_without_a_transaction(
        threads_only: TestClient, database_url: str) -> None:
    """On PostgreSQL the append (the seat check, the optimistic lock, the events and the
    notification) is one statement, atomic by itself: a command that writes nothing else
    sends it alone, over the API and from the board.  A handover also starts a clock and
    may queue notices: those go in one transaction with it; and SQLite's append is two
    statements, always in a transaction.  (Through the threads: the event loop's own
    connections write in autocommit, tests/app/test_fast_commands.py.)"""
    client, game = threads_only, new_game(threads_only)
    gid, pg = game["id"], database_url.startswith("postgresql")
    first_command(client, game)
    writes = _writes(client)
    cmd, seq = first_place(client, gid, game["US"])
    assert _post(client, gid, game["US"], cmd, seq).status_code == 200
    assert writes == (["WITH alone"] if pg else ["UPDATE in a transaction", "INSERT in a transaction"]), writes
    writes.clear()
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    cmd, seq = first_place(client, gid, game["US"])
    r = client.post(f"/games/{gid}/command", data={"type": "place", "data": json.dumps(cmd["data"]), "seq": seq})
    assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:300]
    assert writes == (["WITH alone"] if pg else ["UPDATE in a transaction", "INSERT in a transaction"]), writes
    # the US set-up's last placement and its end hand the decision to the IJ
    side = "US"
    for _ in range(200):
        legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {game[side]}"}).json()
        writes.clear()
        assert _post(client, gid, game[side], pick(client, gid, side, legal), legal["seq"]).status_code == 200
        if client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {game[side]}"}
                      ).json()["prompt"]["side"] != side:
            break
    assert writes and all(w.endswith("in a transaction") for w in writes), writes
    assert any(w.startswith("UPDATE") for w in writes[1 if pg else 2:]), writes  # the clock's
