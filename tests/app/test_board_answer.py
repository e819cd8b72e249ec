"""The answer to a command posted from the board (issue 7, "cost of an action"): it is
drawn from what the command itself wrote and what was read before it, so nothing is
read after its commit (each read there would open another transaction), and it still
says exactly what a fresh look at the board says."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from sqlalchemy import event


def _seat(client: TestClient, game: dict[str, str], side: str) -> int:
    """Take ``side``'s seat by cookie; the log's length as the page shows it."""
    client.post(f"/games/{game['id']}/seat", data={"token": game[side]}, follow_redirects=False)
    return int(re.search(r'data-seq="(\d+)"', client.get(f"/games/{game['id']}").text).group(1))


def _trace(client: TestClient) -> list[str]:
    """Every statement the server sends, and "COMMIT" where a transaction is committed."""
    seen: list[str] = []
    engine = client.app.state.db.engine
    event.listen(engine, "before_cursor_execute", lambda _c, _cur, sql, *_r: seen.append(" ".join(sql.split()[:2])))
    event.listen(engine, "commit", lambda _c: seen.append("COMMIT"))
    return seen


def _log_lines(html: str) -> list[str]:
    return re.findall(r'<li class="[^"]*" value="\d+">(.*?)</li>', html)


def test_a_posted_command_is_answered_without_reading_after_its_commit(
        client: TestClient, game: dict[str, str]) -> None:
    gid = game["id"]
    seq = _seat(client, game, "US")
    seen = _trace(client)
    for n, hex_id in enumerate(("0709", "0710", "0711")):
        seen.clear()
        r = client.post(f"/games/{gid}/click", data={"hex": hex_id, "select": f"us-1-{n + 1}", "seq": seq})
        assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:500]
        assert seen.count("COMMIT") == 1, seen
        assert seen[-1] == "COMMIT", f"read after the commit: {seen[seen.index('COMMIT') + 1:]}"
        # the answer holds the new line, the counter where it now is, and the next seq
        assert _log_lines(r.text) == [f"US 1/{n + 1} placed in {hex_id}"]
        assert re.search(rf'data-unit="us-1-{n + 1}" data-loc="{hex_id}"', r.text)
        seq += 1
        assert f'data-seq="{seq}"' in r.text
        # and the take-back names the step just made, as a fresh look at the board does
        assert f"Take back: US 1/{n + 1} placed in {hex_id}" in r.text
        board = client.get(f"/games/{gid}/board", params={"seq": seq - 1}).text
        assert _log_lines(board) == _log_lines(r.text)
        assert f"Take back: US 1/{n + 1} placed in {hex_id}" in board


def test_an_answer_to_a_page_left_behind_brings_every_line_it_lacks(
        client: TestClient, game: dict[str, str]) -> None:
    """A second tab of the same seat, drawn before the first tab's moves: its command is
    stale and refused, and its answer brings the lines the first tab wrote since."""
    gid = game["id"]
    seq = _seat(client, game, "US")
    for n, hex_id in enumerate(("0709", "0710")):
        r = client.post(f"/games/{gid}/click", data={"hex": hex_id, "select": f"us-1-{n + 1}", "seq": seq + n})
        assert 'role="alert"' not in r.text
    r = client.post(f"/games/{gid}/click", data={"hex": "0711", "select": "us-1-3", "seq": seq})
    assert "The game moved on" in r.text
    assert _log_lines(r.text) == ["US 1/2 placed in 0710", "US 1/1 placed in 0709"]


def test_a_take_back_label_follows_the_steps_as_they_are_taken_back(
        client: TestClient, game: dict[str, str]) -> None:
    """The take-back button's label is found once per step: after the last step is taken
    back it names the step before, and a new step at the same place gets its own."""
    gid = game["id"]
    seq = _seat(client, game, "US")
    for n, hex_id in enumerate(("0709", "0710")):
        r = client.post(f"/games/{gid}/click", data={"hex": hex_id, "select": f"us-1-{n + 1}", "seq": seq + n})
    assert "Take back: US 1/2 placed in 0710" in r.text
    data = re.search(r'name="type" value="undo"><input type="hidden" name="data" value="([^"]+)"', r.text).group(1)
    r = client.post(f"/games/{gid}/command", data={"type": "undo", "data": data.replace("&#34;", '"'),
                                                   "seq": seq + 2})
    assert 'role="alert"' not in r.text, r.text[:400]
    assert "Take back: US 1/1 placed in 0709" in r.text
    r = client.post(f"/games/{gid}/click", data={"hex": "0712", "select": "us-1-2", "seq": seq + 3})
    assert "Take back: US 1/2 placed in 0712" in r.text


def test_every_template_is_compiled_before_the_first_request(settings) -> None:  # noqa: ANN001
    """A burst of first visits to a fresh process must not compile the same templates in
    every request thread at once: the start compiles them all."""
    from app.main import create_app
    from app.templating import TEMPLATES

    TEMPLATES.env.cache.clear()
    with TestClient(create_app(settings)):
        cached = {name for (_loader, name) in TEMPLATES.env.cache}
    assert cached >= set(TEMPLATES.env.list_templates(extensions=["html"]))
    assert {"game.html", "partials/board.html", "partials/pb_board.html"} <= cached
