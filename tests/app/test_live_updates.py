"""Live updates across real server processes: a move made on one server reaches a board
watching on another at once, the stream says nothing but the new length, and open
streams hold no request slot (issue 8, "live updates pushed, not polled")."""

from __future__ import annotations

import asyncio
import contextlib
import queue
import re
import threading
import time

import httpx
import pytest
from app_support import bearer, listed
from fastapi.testclient import TestClient
from live_server import LiveServer, server_env


def _listen(url: str, out: queue.Queue[tuple[str, str]], stop: threading.Event,
            headers: dict[str, str] | None = None) -> None:
    """Read a Server-Sent Events stream into ``out`` as (event, data) pairs (until the
    server goes away at the end of the test)."""
    with contextlib.suppress(httpx.HTTPError), httpx.Client(timeout=httpx.Timeout(30, read=60)) as http, \
            http.stream("GET", url, headers=headers) as r:
        out.put(("status", str(r.status_code)))
        event = "message"
        for line in r.iter_lines():
            if stop.is_set():
                return
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                out.put((event, line.split(":", 1)[1].strip()))
                event = "message"


def _stream(url: str, headers: dict[str, str] | None = None) -> tuple[queue.Queue[tuple[str, str]], threading.Event]:
    out: queue.Queue[tuple[str, str]] = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=_listen, args=(url, out, stop, headers), daemon=True).start()
    assert out.get(timeout=20) == ("status", "200")
    return out, stop


def _next_move(out: queue.Queue[tuple[str, str]], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        event, data = out.get(timeout=max(0.01, deadline - time.monotonic()))
        assert re.fullmatch(r"\d+", data), (event, data)  # a length and nothing else: no hidden thing can pass
        if event == "moved":
            return data


def _new_game(http: httpx.Client) -> tuple[str, str, int]:
    created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid, token = created["game_id"], created["token"]
    invite = created["invite_url"].split("token=")[1]
    assert http.post(f"/api/games/{gid}/join", json={"token": invite, "name": "Bob"}).status_code == 200
    return gid, token, http.get(f"/api/games/{gid}").json()["seq"]


def _move(http: httpx.Client, gid: str, token: str, seq: int) -> int:
    legal = http.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
    r = http.post(f"/api/games/{gid}/commands", headers=bearer(token),
                  json={**listed(legal)[0], "expected_seq": seq})
    assert r.status_code == 200, r.text
    return http.get(f"/api/games/{gid}").json()["seq"]


@pytest.mark.parametrize("topology", ["two servers", "two workers"])
def test_a_move_on_one_server_reaches_a_board_on_another_at_once(database_url: str, topology: str) -> None:
    """Two server processes on one database, or one server with two workers (the stream
    and the command then land on either): each move arrives within a second."""
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0")
    with contextlib.ExitStack() as stack:
        if topology == "two servers":
            a, b = stack.enter_context(LiveServer(env)), stack.enter_context(LiveServer(env))
        else:
            a = b = stack.enter_context(LiveServer(env, workers=2))
        http = stack.enter_context(httpx.Client(base_url=a.url, timeout=30))
        gid, token, seq = _new_game(http)
        out, stop = _stream(f"{b.url}/games/{gid}/stream?seq={seq}")
        stack.callback(stop.set)
        for _ in range(4):
            seq = _move(http, gid, token, seq)
            t0 = time.monotonic()  # the command has landed: from here the stream must tell
            assert _next_move(out, timeout=5) == str(seq)
            assert time.monotonic() - t0 < 1.0  # SQLite looks twice a second, PostgreSQL is told
        # a stream opened behind the game (a page drawn before the last move) hears at once
        late, stop_late = _stream(f"{b.url}/games/{gid}/stream?seq={seq - 1}")
        stack.callback(stop_late.set)
        assert _next_move(late, timeout=5) == str(seq)


def test_a_chat_message_on_one_server_is_announced_on_another(database_url: str) -> None:
    """The stream says "chat" with the new message's number only; what was said is read
    as the reader's side (a spectator's stream is told too, but may not read it)."""
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0")
    with LiveServer(env) as a, LiveServer(env) as b, httpx.Client(base_url=a.url, timeout=30) as http:
        gid, token, seq = _new_game(http)
        out, stop = _stream(f"{b.url}/games/{gid}/stream?seq={seq}")
        try:
            t0 = time.monotonic()
            r = http.post(f"/api/games/{gid}/chat", headers=bearer(token), json={"text": "secret plans"})
            assert r.status_code == 201
            event, data = out.get(timeout=5)
            assert event == "chat" and data == str(r.json()["messages"][-1]["id"])
            assert time.monotonic() - t0 < 2.0
        finally:
            stop.set()


def test_the_opponent_sitting_down_on_one_server_is_announced_on_another(database_url: str) -> None:
    """The creator's page, still inviting, asks its stream for the seats taken: the join
    (on another server) is told as the new count, and only to a stream that asked."""
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0")
    with LiveServer(env) as a, LiveServer(env) as b, httpx.Client(base_url=a.url, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        gid = created["game_id"]
        seq = http.get(f"/api/games/{gid}").json()["seq"]
        inviting, stop = _stream(f"{b.url}/games/{gid}/stream?seq={seq}&seats=1")
        api, stop_api = _stream(f"{b.url}/api/games/{gid}/stream?seq={seq}&seats=1",  # a program, as the creator
                                headers=bearer(created["token"]))
        other, stop_other = _stream(f"{b.url}/games/{gid}/stream?seq={seq}")
        try:
            assert inviting.empty() and api.empty()  # one seat taken, as the page knows
            t0 = time.monotonic()
            invite = created["invite_url"].split("token=")[1]
            assert http.post(f"/api/games/{gid}/join", json={"token": invite, "name": "Bob"}).status_code == 200
            assert inviting.get(timeout=5) == ("seats", "2") == api.get(timeout=5)
            assert time.monotonic() - t0 < 2.0
            time.sleep(1)
            assert other.empty()  # a stream that did not ask hears nothing of it
        finally:
            stop.set()
            stop_api.set()
            stop_other.set()


def test_the_api_stream_takes_the_apis_secrets(database_url: str) -> None:
    """``GET /api/games/{id}/stream``: a player with the bearer secret, a spectator without
    one, and a wrong secret refused like everywhere else in the API."""
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0")
    with LiveServer(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        gid, token, seq = _new_game(http)
        assert http.get(f"/api/games/{gid}/stream", headers=bearer("wrong")).status_code == 403
        assert http.get("/api/games/abcdef012345/stream").status_code == 404
        url = f"{server.url}/api/games/{gid}/stream?seq={seq}"
        mine, stop = _stream(url, headers=bearer(token))
        theirs, stop2 = _stream(url)
        try:
            seq = _move(http, gid, token, seq)
            assert _next_move(mine, timeout=5) == _next_move(theirs, timeout=5) == str(seq)
        finally:
            stop.set()
            stop2.set()


def test_open_streams_hold_no_request_slot(database_url: str) -> None:
    """Two request threads per worker and six open streams: the server still answers."""
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0", THREADS="2", ADMISSION_TIMEOUT="3")
    with LiveServer(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        gid, token, seq = _new_game(http)
        stops = [_stream(f"{server.url}/games/{gid}/stream?seq={seq}")[1] for _ in range(6)]
        try:
            t0 = time.monotonic()
            assert http.get(f"/api/games/{gid}").status_code == 200
            assert http.get(f"/games/{gid}").status_code == 200
            assert _move(http, gid, token, seq) > seq
            assert time.monotonic() - t0 < 3
        finally:
            for s in stops:
                s.set()


def test_a_stream_for_no_game_says_so(database_url: str) -> None:
    env = server_env(database_url, MAIL_INTERVAL_SECONDS="0")
    with LiveServer(env) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.get("/games/not-a-game!/stream").status_code == 404
        with http.stream("GET", "/games/abcdef012345/stream") as r:
            assert r.status_code == 200
            lines = [line for line in r.iter_lines() if line]
        assert lines[:2] == ["event: gone", "data: no such game"]


def test_the_hub_counts_seats_only_where_a_stream_asked(client: TestClient) -> None:
    """Every open stream is read a few times a second on SQLite: the seats (a subquery) only
    for the games a page still inviting watches, the length and chat for all."""
    made = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    other = client.post("/api/games", json={"side": "IJ", "name": "Bob"}).json()
    gid, oid = made["game_id"], other["game_id"]
    hub = client.app.state.hub
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    read = asyncio.run(hub.values([gid, oid], [oid]))
    assert read[gid] == {"moved": seq, "chat": 0}
    assert read[oid]["seats"] == 1
    assert asyncio.run(hub.values([gid]))[gid]["seats"] == 1  # (a stream's first read: all it watches)
    assert all("seats" not in v for v in asyncio.run(hub.values([gid, oid], [])).values())
