"""Chat between the players (issue 8, item 5): stored, escaped, unread counts, spectators
only with both players' leave, bad text refused without a trace, and the board's panel."""

from __future__ import annotations

import re

from app_support import bearer
from fastapi.testclient import TestClient

EVIL = '<script>alert("x")</script> & <b>bold</b>'


def chat(client: TestClient, game: dict[str, str], side: str | None = None) -> dict:
    r = client.get(f"/api/games/{game['id']}/chat", headers=bearer(game[side]) if side else {})
    assert r.status_code == 200, r.text
    return r.json()


def say(client: TestClient, game: dict[str, str], side: str, text: str) -> dict:
    r = client.post(f"/api/games/{game['id']}/chat", headers=bearer(game[side]), json={"text": text})
    assert r.status_code == 201, r.text
    return r.json()


def test_players_write_and_read_with_unread_counts(client: TestClient, game: dict[str, str]) -> None:
    assert chat(client, game, "US") == {"messages": [], "unread": 0, "spectators_may_read": False,
                                        "you_allow": False}
    say(client, game, "US", "Good luck!")
    say(client, game, "US", "  Second line  ")
    ij = chat(client, game, "IJ")
    assert [(m["side"], m["name"], m["text"]) for m in ij["messages"]] == [
        ("US", "Alice", "Good luck!"), ("US", "Alice", "Second line")]
    assert ij["unread"] == 2 and chat(client, game, "US")["unread"] == 0  # your own lines are read
    r = client.put(f"/api/games/{game['id']}/chat/read", headers=bearer(game["IJ"]))
    assert r.json()["unread"] == 0
    answer = say(client, game, "IJ", "And to you.")
    assert answer["unread"] == 0 and answer["messages"][-1]["text"] == "And to you."
    assert chat(client, game, "US")["unread"] == 1


def test_spectators_read_only_while_both_players_allow(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    say(client, game, "US", "between us")
    assert client.get(f"/api/games/{gid}/chat").status_code == 403
    client.put(f"/api/games/{gid}/chat/spectators", headers=bearer(game["US"]), json={"allow": True})
    assert client.get(f"/api/games/{gid}/chat").status_code == 403  # the IJ has not allowed it
    r = client.put(f"/api/games/{gid}/chat/spectators", headers=bearer(game["IJ"]), json={"allow": True})
    assert r.json()["spectators_may_read"] is True
    seen = chat(client, game)
    assert seen["messages"][0]["text"] == "between us" and seen["unread"] is None and seen["you_allow"] is None
    client.put(f"/api/games/{gid}/chat/spectators", headers=bearer(game["US"]), json={"allow": False})
    assert client.get(f"/api/games/{gid}/chat").status_code == 403
    html = client.get(f"/games/{gid}").text  # nor on the spectator's board
    assert "between us" not in html


def test_only_players_write_and_bad_text_changes_nothing(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/chat", json={"text": "hi"}).status_code == 401
    assert client.post(f"/api/games/{gid}/chat", headers=bearer("wrong"), json={"text": "hi"}).status_code == 403
    for bad in ("", "   ", "x" * 1001, "nul\x00here", "\x1b[2J\x1b[31mred", "abc\u202edcba", "csi\x9b31m",
                "isolate\u2066x\u2069", "bell\x07", "cr\ronly"):
        r = client.post(f"/api/games/{gid}/chat", headers=bearer(game["US"]), json={"text": bad})
        assert r.status_code == 422, (bad, r.text)
    r = client.post(f"/api/games/{gid}/chat", headers={**bearer(game["US"]), "Content-Type": "application/json"},
                    content=b'{"text": "\\ud800"}')
    assert r.status_code == 422
    assert chat(client, game, "US")["messages"] == []
    r = client.post(f"/api/games/{gid}/chat", headers=bearer(game["US"]), json={"text": "two\r\nlines\tand a tab"})
    assert r.status_code == 201 and chat(client, game, "US")["messages"][-1]["text"] == "two\nlines\tand a tab"


def test_the_board_shows_the_chat_escaped_and_marks_it_read(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    say(client, game, "IJ", EVIL)
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    html = client.get(f"/games/{gid}").text
    panel = html.split('id="chat"', 1)[1].split("</section>", 1)[0]
    assert "<script>alert" not in panel and "&lt;script&gt;alert(" in panel and "&lt;b&gt;bold" in panel
    assert re.search(r"1 unread", panel)
    # the player writes from the board (a same-origin form post) and reads the panel again
    r = client.post(f"/games/{gid}/chat", data={"text": "Banzai yourself"}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200 and "Banzai yourself" in r.text
    assert chat(client, game, "US")["unread"] == 0  # opening the panel read it
    assert chat(client, game, "IJ")["unread"] == 1


def test_players_get_a_spectator_link_that_opens_a_spectators_board(client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    client.post(f"/games/{gid}/seat", data={"token": game["US"]}, follow_redirects=False)
    html = client.get(f"/games/{gid}").text
    link = re.search(r'id="spectator-link"[^>]*value="([^"]+)"', html).group(1)
    assert link == f"http://testserver/games/{gid}" and game["US"] not in link
    client.cookies.clear()
    seen = client.get(link.replace("http://testserver", "")).text
    assert "spectator" in seen and 'id="spectator-link"' not in seen and "chat-form" not in seen
