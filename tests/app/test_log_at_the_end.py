"""A board drawn while the game ran shows the enemy's hidden moves as stubs; the answer
that tells it the game is over sends its whole log again, as every side may read it now
(app/games/base.py ``log_window``)."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from app_support import ADMIN, bearer, listed
from clock_support import DAY, moved_clock
from fastapi.testclient import TestClient
from pb_support import new_game, seat, seq_of

from engine.core.events import Command
from engine.selfplay import Chooser, choose


def _lines(answer: str) -> dict[int, str]:
    """The board's log lines (the whole log, or those added to it): their number (1-based) -> their text."""
    return {int(n): html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
            for n, t in re.findall(r'<li value="(\d+)"[^>]*>(.*?)</li>', answer)}


def test_the_answer_that_ends_the_game_sends_the_hidden_lines_whole(client: TestClient) -> None:
    moved = moved_clock(client)
    g = new_game(client, move_days=1)
    gid, tokens = g["id"], {"Japanese": g["Japanese"], "Allied": g["Allied"]}
    rng = Chooser("log-at-the-end")
    for _ in range(400):  # the chooser's commands until a side's board shows a stub
        legal = {s: client.get(f"/api/games/{gid}/legal", headers=bearer(t)).json() for s, t in tokens.items()}
        side = next(s for s, lg in legal.items() if lg["your_turn"])
        other = next(s for s in tokens if s != side)
        truth = {e["seq"] + 1: e["text"] for e in client.get(f"/api/admin/games/{gid}/log", auth=ADMIN,
                                                            params={"limit": 1000}).json()["items"] if e["text"]}
        seat(client, gid, tokens[other])
        page = client.get(f"/games/{gid}").text
        stubs = {n for n, t in _lines(page).items() if truth.get(n) != t}
        if stubs and not legal[other]["your_turn"]:
            break
        cmds = [Command(c["type"], c["data"]) for c in listed(legal[side]) if c["type"] != "undo"]
        cmd = choose(rng, legal[side]["prompt"]["kind"], cmds)
        client.cookies.clear()
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": legal[side]["seq"]})
        assert r.status_code == 200, r.text
    assert stubs, "no stub on the board"
    # ``side`` runs out of time; ``other`` claims the game, and its open board asks what changed
    moved.now += DAY + timedelta(minutes=1)
    client.cookies.clear()
    r = client.post(f"/api/games/{gid}/clock/claim", headers=bearer(tokens[other]))
    assert r.status_code == 200, r.text
    seat(client, gid, tokens[other])
    answer = client.get(f"/games/{gid}/board", params={"seq": seq_of(page)}).text
    shown = _lines(answer)
    assert stubs <= shown.keys() and all(shown[n] == truth[n] for n in stubs), sorted(stubs)
