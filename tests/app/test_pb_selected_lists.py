"""Pacific Battles' command lists with a piece selected: a short list (the reinforcements
sent to their home base) holds only the selected piece's choices when it has any, so
that its first choice, one "Do it" away, is never another piece's."""

from __future__ import annotations

import html
import json
import re

from app_support import bearer, listed
from fastapi.testclient import TestClient
from pb_support import new_game, seat

from engine.core.events import Command
from engine.selfplay import Chooser, choose


def _group(answer: str, kind: str) -> list[dict]:
    """The data of each choice in the list of commands of ``kind``."""
    form = re.search(rf'class="command-group">\s*<input type="hidden" name="type" value="{kind}">.*?</form>',
                     answer, re.S)
    assert form, f"no {kind} list"
    return [json.loads(html.unescape(v)) for v in re.findall(r'(?:<option|type="radio" name="data") value="([^"]*)"',
                                                             form.group(0))]


def test_a_selected_pieces_own_choices_fill_the_short_lists(client: TestClient) -> None:
    g = new_game(client)
    gid, tokens = g["id"], {"Japanese": g["Japanese"], "Allied": g["Allied"]}
    rng = Chooser("selected-lists")
    for _ in range(600):  # the chooser's commands, never a reinforcement sent home, until two may be
        legal = {s: client.get(f"/api/games/{gid}/legal", headers=bearer(t)).json() for s, t in tokens.items()}
        side = next(s for s, lg in legal.items() if lg["your_turn"])
        cmds = [Command(c["type"], c["data"]) for c in listed(legal[side]) if c["type"] != "undo"]
        home = sorted({c.data["unit"] for c in cmds if c.type == "to_base"})
        if len(home) >= 2:
            break
        cmds = [c for c in cmds if c.type != "to_base"] or cmds
        cmd = choose(rng, legal[side]["prompt"]["kind"], cmds)
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": legal[side]["seq"]})
        assert r.status_code == 200, r.text
    assert len(home) >= 2, "no two reinforcements to send home"
    seat(client, gid, tokens[side])
    page = client.get(f"/games/{gid}").text
    everyone = _group(page, "to_base")
    assert sorted(d["unit"] for d in everyone) == home  # nothing selected: every piece's
    last = home[-1]
    answer = client.get(f"/games/{gid}/board", params={"select": last, "seq": legal[side]["seq"]}).text
    assert [d["unit"] for d in _group(answer, "to_base")] == [last]
