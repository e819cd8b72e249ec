"""Odd input gets a clear 4xx and changes nothing: unpaired surrogates, NUL and other
control characters, NaN, deep nesting, odd bytes in a game id."""

from __future__ import annotations

import json

import pytest
from app_support import ADMIN, admin_games, bearer
from fastapi.testclient import TestClient

SURROGATE = '"\\ud800"'  # a JSON string holding an unpaired surrogate


def raw_post(client: TestClient, url: str, body: str, **headers: str):  # noqa: ANN201
    return client.post(url, content=body.encode(), headers={"content-type": "application/json", **headers})


@pytest.mark.parametrize("field", ["name", "title"])
def test_a_lone_surrogate_or_nul_in_a_name_or_title_is_422(client: TestClient, field: str) -> None:
    for value in (SURROGATE, '"a\\u0000b"', '"two\\nlines"'):
        r = raw_post(client, "/api/games", f'{{"side": "US", "{field}": {value}}}')
        assert r.status_code == 422, (value, r.text)
        assert r.json()["kind"] == "malformed" and r.json()["detail"]
    assert admin_games(client) == {}


def test_a_lone_surrogate_in_a_join_token_or_name_is_422(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    for body in (f'{{"token": {SURROGATE}}}', f'{{"token": "abc", "name": {SURROGATE}}}'):
        r = raw_post(client, f"/api/games/{gid}/join", body)
        assert r.status_code == 422, r.text


def test_nan_infinity_and_deep_nesting_are_422_not_500(client: TestClient, game: dict[str, str]) -> None:
    gid, headers = game["id"], bearer(game["US"])
    seq = client.get(f"/api/games/{gid}").json()["seq"]
    for body in ('{"type": "end_phase", "data": {}, "expected_seq": NaN}',
                 '{"type": "end_phase", "data": {"x": Infinity}, "expected_seq": 3}',
                 '{"type": "end_phase", "data": ' + "[" * 20_000 + "]" * 20_000 + ', "expected_seq": 3}'):
        r = raw_post(client, f"/api/games/{gid}/commands", body, **headers)
        assert r.status_code == 422, r.text[:300]
        assert "not valid JSON" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}").json()["seq"] == seq


def test_a_surrogate_inside_command_data_is_422(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    r = raw_post(client, f"/api/games/{gid}/commands",
                 f'{{"type": "place", "data": {{"unit": {SURROGATE}, "to": "0709"}}, "expected_seq": 3}}',
                 **bearer(game["US"]))
    assert r.status_code == 422 and r.json()["kind"] == "malformed"


def test_odd_bytes_in_a_game_id_are_404(client: TestClient) -> None:
    for gid in ("%00", "abc%00def", "%FF%FE", "x" * 200, "../etc"):
        for url in (f"/api/games/{gid}", f"/api/games/{gid}/log", f"/games/{gid}"):
            r = client.get(url)
            assert r.status_code == 404, (url, r.status_code)


def test_an_imported_seat_name_with_a_surrogate_or_control_character_is_422(client: TestClient,
                                                                             game: dict[str, str]) -> None:
    exported = client.get(f"/api/admin/games/{game['id']}/export", auth=ADMIN).json()
    text = json.dumps(exported)
    before = admin_games(client)
    for bad in ("\\ud800", "\\u0000", "\\u0007"):
        body = text.replace('"name": "Alice"', f'"name": "Al{bad}ice"')
        assert body != text
        r = client.post("/api/games/import", content=body.encode(), auth=ADMIN,
                        headers={"content-type": "application/json"})
        assert r.status_code == 422, (bad, r.text[:300])
    assert admin_games(client).keys() == before.keys()


def test_form_posts_refuse_nul_and_control_characters(client: TestClient) -> None:
    for field in ("name", "title"):
        r = client.post("/new", data={"side": "US", field: "a\x00b"}, follow_redirects=False)
        assert r.status_code == 422, r.text
        assert "control characters" in r.text
    r = client.post("/new", data={"side": "US", "name": "x" * 81}, follow_redirects=False)
    assert r.status_code == 422
    assert admin_games(client) == {}


def test_a_browser_sees_errors_as_a_page_and_the_api_as_json(client: TestClient) -> None:
    r = client.post("/new", data={"side": "XX"}, headers={"accept": "text/html"}, follow_redirects=False)
    assert r.status_code == 422 and r.headers["content-type"].startswith("text/html")
    assert "side must be one of" in r.text and 'id="error-detail"' in r.text
    r = client.post("/api/games", json={"side": "XX"}, headers={"accept": "text/html"})
    assert r.status_code == 422 and r.json()["detail"].startswith("side must be one of")
