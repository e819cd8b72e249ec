"""Issue 35, item 3: a seat's board sends its commands over its page's WebSocket
(app/routes/board_socket.py): each message a command form, each answer the HTML the post
answers.  The handshake checks what a post checks (the page's own site, the seat's
cookie); a message that is no command form, or a command the rules refuse, is answered
with the reason and changes nothing; the socket stays open for the next command."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from live_server import map_parts, shown_digests, two_player_game
from starlette.websockets import WebSocketDisconnect

from app.security import cookie_name


def _seat(client: TestClient, game: dict[str, str], side: str) -> tuple[dict[str, str], str]:
    """Take ``side``'s seat as a browser does; the handshake's headers, and the page."""
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game[side]}, follow_redirects=False)
    cookie = client.cookies.get(cookie_name(gid))
    headers = {"cookie": f"{cookie_name(gid)}={cookie}", "origin": "http://testserver"}
    return headers, client.get(f"/games/{gid}").text


def _seq(client: TestClient, gid: str) -> int:
    return client.get(f"/api/games/{gid}").json()["seq"]


def _place(unit: str, to: str, seq: int, parts: str = "") -> str:
    return json.dumps({"type": "place", "data": json.dumps({"unit": unit, "to": to}), "seq": seq, "select": "",
                       "parts": parts})


def test_a_command_over_the_socket_is_answered_as_its_post(client: TestClient, game: dict[str, str]) -> None:
    """Each command sent over one game's socket and posted to a game made the same way:
    the same answers, byte for byte (but for the game's id), each with the command's log
    line and only the map's parts the page lacks."""
    gid, twin = game["id"], _twin(client)
    twin_headers, twin_page = _seat(client, twin, "US")
    headers, page = _seat(client, game, "US")
    client.cookies.clear()  # (each request below says whose seat it is)
    assert f'ws-connect="/games/{gid}/socket"' in page  # a seat's page opens it
    parts, twin_parts = map_parts(page), map_parts(twin_page)
    with client.websocket_connect(f"/games/{gid}/socket", headers=headers) as ws:
        for unit, to in (("us-1-1", "0709"), ("us-1-2", "0710"), ("us-1-3", "0711")):
            seq = _seq(client, gid)
            ws.send_text(_place(unit, to, seq, shown_digests(parts)))
            answer = ws.receive_text()
            assert _seq(client, gid) > seq, answer[:300]
            assert f"{unit[3:].replace('-', '/')} placed in {to}" in answer  # its log line
            assert 'id="map-layers"' not in answer  # only the map's parts the page lacks
            parts |= map_parts(answer)
            assert parts == map_parts(client.get(f"/games/{gid}", headers=headers).text)
            posted = client.post(f"/games/{twin['id']}/command", headers=twin_headers,
                                 data={"type": "place", "data": json.dumps({"unit": unit, "to": to}), "seq": seq,
                                       "select": "", "parts": shown_digests(twin_parts)})
            twin_parts |= map_parts(posted.text)
            assert posted.status_code == 200 and posted.text.replace(twin["id"], gid) == answer


def _twin(client: TestClient) -> dict[str, str]:
    """A second game made as the ``game`` fixture makes its (its players, its set-up)."""
    gid, us, ij = two_player_game(client)
    client.cookies.clear()
    return {"id": gid, "US": us, "IJ": ij}


def test_what_a_message_gets_wrong_is_said_and_changes_nothing(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    headers, _page = _seat(client, game, "US")
    client.cookies.clear()
    seq = _seq(client, gid)
    wrong = ["not json", "[1, 2]", json.dumps({"type": "place", "seq": "x"}), json.dumps({"seq": seq}),
             json.dumps({"type": "place", "data": "{}", "seq": True}), json.dumps({"type": "x" * 100, "seq": seq}),
             "{" + " " * 9000 + "}"]
    with client.websocket_connect(f"/games/{gid}/socket", headers=headers) as ws:
        for text in wrong:
            ws.send_text(text)
            assert ws.receive_text().startswith('<p id="net-error" class="error" role="alert" hx-swap-oob="true">')
        ws.send_bytes(b"\x00\x01")
        assert "not understood" in ws.receive_text()
        # a command the rules refuse: the rule, on the board, as a post is told
        ws.send_text(_place("us-1-1", "0101", seq))
        refused = ws.receive_text()
        assert 'role="alert"' in refused and "§3" in refused
        assert _seq(client, gid) == seq
        ws.send_text(_place("us-1-1", "0709", seq))  # and the socket still takes the next
        assert "placed in 0709" in ws.receive_text() and _seq(client, gid) > seq


@pytest.mark.parametrize("who", ["no cookie", "a forged cookie", "another site", "the opponent's game"])
def test_the_handshake_wants_the_seat_and_the_page_s_own_site(client: TestClient, game: dict[str, str],
                                                               who: str) -> None:
    gid = game["id"]
    headers, _page = _seat(client, game, "US")
    client.cookies.clear()  # (only the headers below go with the handshake)
    if who == "no cookie":
        headers = {"origin": "http://testserver"}
    elif who == "a forged cookie":
        headers = {**headers, "cookie": f"{cookie_name(gid)}=us.forged"}
    elif who == "another site":
        headers = {**headers, "origin": "https://elsewhere.example"}
    else:  # a cookie for this game sent to another game's socket
        gid = client.post("/api/games", json={"side": "US", "name": "Carol"}).json()["game_id"]
    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/games/{gid}/socket",
                                                                                headers=headers) as ws:
        ws.receive_text()
    assert closed.value.code == 1008
    assert _seq(client, game["id"]) == _seq(client, game["id"])  # (nothing was sent)


def test_a_spectator_s_page_opens_no_socket(client: TestClient, game: dict[str, str]) -> None:
    assert "ws-connect" not in client.get(f"/games/{game['id']}").text
