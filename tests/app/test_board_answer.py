"""The answer to a command posted from the board (issue 7, "cost of an action"): it is
drawn from what the command itself wrote and what was read before it, so nothing is
read after its commit (each read there would open another transaction), and it still
says exactly what a fresh look at the board says."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from live_server import map_parts, shown_digests
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
        # the reads come first (in autocommit), then the command's write and its commit, and
        # nothing after them: the answer is drawn from what was read and written
        write = next(i for i, s in enumerate(seen) if s.split()[0] in ("UPDATE", "INSERT", "WITH"))
        assert seen[-1] == "COMMIT" and seen.count("COMMIT") <= 2, seen
        assert not any(s.startswith("SELECT") for s in seen[write:]), f"read after the write: {seen[write:]}"
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
    assert {"game.html", "games/first_blood/board.html", "games/pacific_battles/board.html"} <= cached


def test_a_new_step_is_named_from_the_line_it_wrote(client: TestClient, game: dict[str, str], monkeypatch) -> None:  # noqa: ANN001
    """The take-back label of the step a command began is that command's first log line:
    the answer does not rebuild the state before the step to find it, and says what a
    fresh look (which does rebuild, in a new server) says."""
    from engine.core import undo

    gid = game["id"]
    seq = _seat(client, game, "US")
    rebuilt: list[int] = []
    real = undo.rebuild
    monkeypatch.setattr(undo, "rebuild", lambda state, step, *a: rebuilt.append(step) or real(state, step, *a))
    r = client.post(f"/games/{gid}/click", data={"hex": "0709", "select": "us-1-1", "seq": seq})
    assert "Take back: US 1/1 placed in 0709" in r.text
    assert rebuilt == []
    client.app.state.games._step_labels = type(client.app.state.games._step_labels)(16)  # a fresh worker
    assert "Take back: US 1/1 placed in 0709" in client.get(f"/games/{gid}/board", params={"seq": seq}).text
    assert rebuilt == [seq]


def test_an_answer_sends_only_the_parts_of_the_map_the_page_lacks(client: TestClient, game: dict[str, str]) -> None:
    """The page says which parts of the map's layers it shows; the answer to a command
    sends only those that differ, and the page patched with them is the page a fresh
    look draws.  A page that says nothing (or nonsense) gets the whole layers again."""
    gid = game["id"]
    seq = _seat(client, game, "US")
    page = map_parts(client.get(f"/games/{gid}").text)
    assert len(page) > 20 and "layer-units-07" in page
    for n, hex_id in enumerate(("0709", "0710", "0711")):
        r = client.post(f"/games/{gid}/click", data={"hex": hex_id, "select": f"us-1-{n + 1}", "seq": seq + n,
                                                     "parts": shown_digests(page)})
        assert r.status_code == 200 and 'role="alert"' not in r.text, r.text[:300]
        assert 'id="map-layers"' not in r.text
        sent = map_parts(r.text)
        assert "layer-units-07" in sent and "layer-units-03" not in sent and len(sent) < len(page) / 2, sorted(sent)
        page |= sent
        assert page == map_parts(client.get(f"/games/{gid}").text)
    # nothing changed since: a look with the page's digests sends no part at all
    same = client.get(f"/games/{gid}/board", params={"seq": seq + 3, "parts": shown_digests(page)}).text
    assert map_parts(same) == {} and 'id="board-state"' in same
    for parts in ("", "not-a-digest", shown_digests(page).rsplit(".", 1)[0]):
        whole = client.get(f"/games/{gid}/board", params={"seq": seq + 3, "parts": parts}).text
        assert 'id="map-layers"' in whole and map_parts(whole) == page
