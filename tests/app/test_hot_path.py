"""The JSON API's command served by the hot path (app/hot_path.py) answers exactly as
FastAPI's declared route does, refusals and all, and a well-formed command never reaches
FastAPI's handler; on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from app_support import listed
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.hot_path import HotCommands
from app.json_route import StrictJSONRequest


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
    """Counts the bodies FastAPI's declared route parses (its strict JSON request)."""
    seen: list[int] = []
    parse = StrictJSONRequest.json

    async def counted(self: StrictJSONRequest) -> Any:
        seen.append(1)
        return await parse(self)

    monkeypatch.setattr(StrictJSONRequest, "json", counted)
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
        client.post(url, content=b"{not json", headers={**auth, "content-type": "application/json"})
    assert handled == [1]  # a body the hot path cannot take goes on to FastAPI's route
