""""Since your last move" heads each group of lines with the turn and phase they happened
in, in both games, also when the player's last command began that phase (ending one's
phase begins the opponent's, and the player's own events are not in the window: the
opponent's moves were headed "In the phase of your last move")."""

from __future__ import annotations

import html
import re

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from pb_support import new_game, seat

from engine.core.events import Command
from engine.games import get_rules
from engine.selfplay import Chooser, choose


def _headings(client: TestClient, gid: str, game: str) -> dict[int, str]:
    """Event number (as the page links it: 1-based) -> the turn and phase it happened in,
    from the admin's whole log."""
    rules = get_rules(game)
    items = client.get(f"/api/admin/games/{gid}/log", auth=ADMIN, params={"limit": 1000}).json()["items"]
    turn = phase = ""
    out = {}
    for e in items:
        if e["type"] == rules.turn_event:
            turn = rules.turn_title(e["data"]) or e.get("text") or ""
        elif e["type"] == rules.phase_event:
            phase = rules.phase_title(e["data"])
        out[e["seq"] + 1] = " · ".join(t for t in (turn, phase) if t)
    return out


def _groups(page: str) -> list[tuple[str, list[int]]]:
    card = page.split('id="briefing"', 1)[1].split("</details>", 1)[0]
    out = []
    for title, lines in re.findall(r"<h4>([^<]*)</h4>\s*<ol[^>]*>(.*?)</ol>", card, re.S):
        out.append((html.unescape(title), [int(n) for n in re.findall(r'/at/(\d+)"', lines)]))
    return out


def _play(client: TestClient, gid: str, tokens: dict[str, str], until: int, seed: str) -> None:
    """Commands of the self-play chooser over the API until the log holds ``until`` events."""
    rng = Chooser(seed)
    client.cookies.clear()
    while True:
        legal = {s: client.get(f"/api/games/{gid}/legal", headers=bearer(t)).json() for s, t in tokens.items()}
        side = next(s for s, lg in legal.items() if lg["your_turn"])
        if legal[side]["seq"] >= until:
            return
        cmds = [Command(c["type"], c["data"]) for c in listed(legal[side]) if c["type"] != "undo"]
        cmd = choose(rng, legal[side]["prompt"]["kind"], cmds)
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(tokens[side]),
                        json={"type": cmd.type, "data": cmd.data, "expected_seq": legal[side]["seq"]})
        assert r.status_code == 200, r.text


def _check(client: TestClient, gid: str, game: str, tokens: dict[str, str]) -> int:
    truth = _headings(client, gid, game)
    checked = 0
    for side, token in tokens.items():
        seat(client, gid, token)
        page = client.get(f"/games/{gid}").text
        if 'id="briefing"' not in page:
            continue
        for title, seqs in _groups(page):
            assert seqs
            for n in seqs:  # each line under the heading of the turn and phase it happened in
                assert title == (truth[n] or "In the phase of your last move"), (side, n, title, truth[n])
                checked += 1
    client.cookies.clear()
    return checked


def _played_and_checked(client: TestClient, gid: str, game: str, tokens: dict[str, str], until: int) -> int:
    """Play to ``until`` events, and on, a command at a time, until a side's page has a
    briefing (a game's own dice decide whether one does at a given moment); the lines checked."""
    for n in range(until, until + 40):
        _play(client, gid, tokens, n, f"briefing-{game}")
        checked = _check(client, gid, game, tokens)
        if checked:
            return checked
    return 0


def test_first_blood_lines_are_headed_by_their_own_phase(client: TestClient, game: dict[str, str]) -> None:
    tokens = {"US": game["US"], "IJ": game["IJ"]}
    for until in (60, 140):
        assert _played_and_checked(client, game["id"], "first_blood", tokens, until) > 0


def test_pacific_battles_lines_are_headed_by_their_own_phase(client: TestClient) -> None:
    g = new_game(client)
    tokens = {"Japanese": g["Japanese"], "Allied": g["Allied"]}
    for until in (60, 160):
        assert _played_and_checked(client, g["id"], "pacific_battles", tokens, until) > 0


def test_the_story_begins_with_what_the_players_last_command_did(client: TestClient) -> None:
    """The player's last command opens the story: its own lines and what it set going
    (rolls, arrivals, a new phase); nothing of their earlier commands is told again."""
    g = new_game(client)
    gid, tokens = g["id"], {"Japanese": g["Japanese"], "Allied": g["Allied"]}
    seen = 0
    for until in range(40, 200, 7):
        _play(client, gid, tokens, until, "briefing-own")
        client.cookies.clear()
        export = client.get(f"/api/admin/games/{gid}/export", auth=ADMIN).json()["events"]
        texts = {e["seq"]: e for e in client.get(f"/api/admin/games/{gid}/log", auth=ADMIN,
                                                   params={"limit": 1000}).json()["items"]}
        for side, token in tokens.items():
            seat(client, gid, token)
            page = client.get(f"/games/{gid}").text
            client.cookies.clear()
            if 'id="briefing"' not in page:
                continue
            start = max(e["seq"] for e in export if e["actor"] == side and e["command"] is not None)
            told = {n for _, seqs in _groups(page) for n in seqs}
            assert min(told) >= start + 1, (side, start, sorted(told))
            mine = {e["seq"] + 1 for e in export if e["seq"] >= start and e["actor"] == side
                    and texts[e["seq"]]["text"] and texts[e["seq"]]["retracted_by"] is None and e["type"] != "undone"}
            assert mine <= told, (side, sorted(mine - told))
            seen += bool(mine)
    assert seen >= 3  # commands whose lines were told (ending a phase may say nothing)
