"""A command served by the hot path (app/hot_path.py), the JSON API's or the board's,
answers exactly as FastAPI's declared route does, refusals and all, and a well-formed one
never reaches FastAPI's handler; on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import fastapi.routing
import pytest
from app_support import listed
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.deps import same_origin
from app.hot_path import HotCommands
from app.routes import pages

NET_ERROR = '<p id="net-error" class="error" role="alert" hidden></p>'  # an answer's empty, hidden error line


@contextmanager
def hot_path(app: FastAPI, on: bool) -> Iterator[None]:
    """The app with its hot path (as it is made) or without it (FastAPI's route takes every command)."""
    kept = list(app.user_middleware)
    if not on:
        app.user_middleware = [m for m in kept if m.cls is not HotCommands]
        app.middleware_stack = None  # built again, without it, at the next request
    try:
        yield
    finally:
        app.user_middleware = kept
        app.middleware_stack = None


def _first_place(client: TestClient, gid: str, token: str) -> tuple[dict[str, Any], int]:
    legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()
    return next(c for c in listed(legal) if c["type"] == "place"), legal["seq"]


def _seq(client: TestClient, gid: str, token: str) -> int:
    return int(client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()["seq"])


def _answer(r: Any) -> tuple[int, Any, str | None]:
    body = r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text
    return r.status_code, body, r.headers.get("www-authenticate")


@pytest.fixture
def handled(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the requests FastAPI's routes take: each solves its route's parameters."""
    seen: list[int] = []
    solve = fastapi.routing.solve_dependencies

    async def counted(*args: Any, **kwargs: Any) -> Any:
        seen.append(1)
        return await solve(*args, **kwargs)

    monkeypatch.setattr(fastapi.routing, "solve_dependencies", counted)
    return seen


def test_a_well_formed_command_never_reaches_fastapis_handler(client: TestClient, game: dict[str, str],
                                                              handled: list[int]) -> None:
    gid, token = game["id"], game["US"]
    for on, parsed_by_fastapi in ((True, 0), (False, 1)):
        cmd, seq = _first_place(client, gid, token)
        handled.clear()
        with hot_path(client.app, on):  # type: ignore[arg-type]
            r = client.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                            json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})
        assert r.status_code == 200, r.text
        assert r.json()["seq"] > seq
        assert len(handled) == parsed_by_fastapi


def test_an_accepted_command_is_answered_as_fastapis_route_answers_it(client: TestClient) -> None:
    """Two games made alike; the same first placement in each, one by either way."""
    answers = []
    for on in (True, False):
        made = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        client.cookies.clear()
        gid, token = made["game_id"], made["token"]
        cmd, seq = _first_place(client, gid, token)
        with hot_path(client.app, on):  # type: ignore[arg-type]
            r = client.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                            json={"type": cmd["type"], "data": cmd["data"], "expected_seq": seq})
        assert r.status_code == 200, r.text
        answers.append((r.headers["content-type"], r.text.replace(gid, "GAME")))
    assert answers[0] == answers[1]
    assert '"next"' in answers[0][1]  # the mover's next legal commands come with it


def test_every_refusal_is_fastapis_own_and_changes_nothing(client: TestClient, game: dict[str, str],
                                                         handled: list[int]) -> None:
    gid, us, ij = game["id"], game["US"], game["IJ"]
    cmd, seq = _first_place(client, gid, us)
    good = {"type": cmd["type"], "data": cmd["data"], "expected_seq": seq}
    auth = {"Authorization": f"Bearer {us}"}
    url = f"/api/games/{gid}/commands"
    sent: list[tuple[str, str, dict[str, Any]]] = [  # (what, the path, httpx's arguments)
        ("not JSON", url, {"content": b"{not json", "headers": {**auth, "content-type": "application/json"}}),
        ("NaN", url, {"content": b'{"type": "place", "data": {"x": NaN}, "expected_seq": 1}',
                      "headers": {**auth, "content-type": "application/json"}}),
        ("no seq", url, {"json": {"type": "place", "data": {}}, "headers": auth}),
        ("a negative seq", url, {"json": {**good, "expected_seq": -1}, "headers": auth}),
        ("data not an object", url, {"json": {**good, "data": [1, 2]}, "headers": auth}),
        ("a list", url, {"json": [good], "headers": auth}),
        ("an empty body", url, {"content": b"", "headers": {**auth, "content-type": "application/json"}}),
        ("not UTF-8", url, {"content": b'{"type": "\xff"}', "headers": {**auth, "content-type": "application/json"}}),
        ("text/plain", url, {"content": b'{"type": "place", "data": {}, "expected_seq": 1}',
                             "headers": {**auth, "content-type": "text/plain"}}),
        ("no secret", url, {"json": good}),
        ("a wrong secret", url, {"json": good, "headers": {"Authorization": "Bearer not-a-seat"}}),
        ("the other side's turn", url, {"json": good, "headers": {"Authorization": f"Bearer {ij}"}}),
        ("a stale seq", url, {"json": {**good, "expected_seq": seq - 1}, "headers": auth}),
        ("an illegal command", url, {"json": {**good, "data": {"unit": "nobody", "hex": "0101"}}, "headers": auth}),
        ("an unknown verb", url, {"json": {**good, "type": "fly"}, "headers": auth}),
        ("no such game", "/api/games/nosuchgame00000000000000/commands", {"json": good, "headers": auth}),
        ("a malformed game id", "/api/games/..%2F/commands", {"json": good, "headers": auth}),
    ]
    for what, path, kwargs in sent:
        both = []
        for on in (True, False):
            with hot_path(client.app, on):  # type: ignore[arg-type]
                both.append(_answer(client.post(path, **kwargs)))
        assert both[0] == both[1], what
        assert both[0][0] in (401, 403, 404, 409, 422), (what, both[0])
    assert _seq(client, gid, us) == seq  # nothing was written
    handled.clear()
    with hot_path(client.app, True):  # type: ignore[arg-type]
        r = client.post(url, json={"type": "place", "data": {}}, headers=auth)
    assert r.status_code == 422 and handled == [1]  # a body the hot path cannot take goes on to FastAPI's route


def _seat_cookie(client: TestClient, game: dict[str, str], side: str) -> None:
    client.post(f"/games/{game['id']}/seat", data={"token": game[side]}, follow_redirects=False)


def _new_game(client: TestClient) -> dict[str, str]:
    made = client.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    client.post(f"/api/games/{made['game_id']}/join", json={"token": made["invite_url"].split("token=")[1],
                                                            "name": "Bob"})
    client.cookies.clear()
    return {"id": made["game_id"], "US": made["token"]}


def test_a_board_post_never_reaches_fastapis_handler_and_is_answered_alike(client: TestClient,
                                                                          handled: list[int]) -> None:
    """The board's command and click: the same page parts either way (each way on a game of its own)."""
    games = {True: _new_game(client), False: _new_game(client)}
    answers = {}
    for on, parsed_by_fastapi in ((True, 0), (False, 1)):
        g = games[on]
        _seat_cookie(client, g, "US")
        cmd, seq = _first_place(client, g["id"], g["US"])
        hex_id = cmd["data"]["to"]
        got = []
        with hot_path(client.app, on):  # type: ignore[arg-type]
            handled.clear()
            r = client.post(f"/games/{g['id']}/click", data={"hex": hex_id, "unit": "", "select": cmd["data"]["unit"],
                                                            "seq": seq})
            assert len(handled) == parsed_by_fastapi
            got.append((r.status_code, r.headers["content-type"], r.text.replace(g["id"], "GAME")))
            cmd, seq = _first_place(client, g["id"], g["US"])
            handled.clear()
            r = client.post(f"/games/{g['id']}/command", data={"type": cmd["type"], "data": json.dumps(cmd["data"]),
                                                              "seq": seq})
            assert len(handled) == parsed_by_fastapi
            got.append((r.status_code, r.headers["content-type"], r.text.replace(g["id"], "GAME")))
        assert all(status == 200 and 'role="alert"' not in text.replace(NET_ERROR, "") for status, _, text in got)
        answers[on] = got
        client.cookies.clear()
    assert answers[True] == answers[False]


def test_the_hot_path_makes_the_board_routers_every_check() -> None:
    """It calls the board's endpoints behind ``same_origin``: that must stay the router's
    only dependency, or the hot path would skip one the router adds."""
    assert [d.dependency for d in pages.board_posts.dependencies] == [same_origin]


def test_a_board_posts_refusals_are_the_routes_own(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    _seat_cookie(client, game, "US")
    cmd, seq = _first_place(client, gid, game["US"])
    form = {"type": cmd["type"], "data": json.dumps(cmd["data"]), "seq": str(seq)}
    sent: list[tuple[str, str, dict[str, Any]]] = [
        ("from another site", "command", {"data": form, "headers": {"Sec-Fetch-Site": "cross-site"}}),
        ("from another origin", "click", {"data": {"hex": "0709", "seq": str(seq)},
                                          "headers": {"Origin": "https://elsewhere.example"}}),
        ("no seq", "command", {"data": {**form, "seq": ""}}),
        ("a field too long", "command", {"data": {**form, "type": "x" * 65}}),
        ("data not JSON", "command", {"data": {**form, "data": "{oops"}}),
        ("an illegal command", "command", {"data": {**form, "data": json.dumps({"unit": "nobody", "hex": "0101"})}}),
        ("a stale seq", "command", {"data": {**form, "seq": str(seq - 1)}}),
        ("not a form", "click", {"content": b"\xff\xfe",
                                 "headers": {"content-type": "application/x-www-form-urlencoded"}}),
        ("no such game", "command", {"data": form, "path": "/games/nosuchgame00000000000000/command"}),
    ]
    for what, kind, kwargs in sent:
        path = kwargs.pop("path", f"/games/{gid}/{kind}")
        both = []
        for on in (True, False):
            with hot_path(client.app, on):  # type: ignore[arg-type]
                r = client.post(path, **kwargs)
            both.append((r.status_code, r.headers.get("content-type"), r.text))
        assert both[0] == both[1], what
    client.cookies.clear()
    assert _seq(client, gid, game["US"]) == seq  # nothing was written
