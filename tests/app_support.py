"""Helpers shared by the server tests (importable because pytest puts tests/ on the path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from engine.core.choices import expand
from engine.core.events import Command
from engine.core.game import replay
from engine.games.first_blood.board import load_board
from engine.games.first_blood.rules import RULES as FB_RULES
from engine.selfplay import Chooser, choose

ADMIN = ("admin", "admin-test-password")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}

BOARD = load_board()
Legal = dict[str, Any]


def listed(legal: Legal) -> list[dict[str, Any]]:
    """The commands a ``/legal`` answer (its default form, or a command's ``next``) stands
    for, one by one as ``{"type", "data"}``: its choices expanded."""
    return expand(legal["choices"])


def pick(client: TestClient, gid: str, side: str, legal: Legal) -> dict[str, Any]:
    """A deterministic player: place first; in movement, step next to the enemy if it
    can; otherwise end the phase (or take the first legal command)."""
    cmds = listed(legal)
    places = [c for c in cmds if c["type"] == "place"]
    if places:
        return places[0]
    if legal["prompt"]["kind"].endswith("_movement"):
        enemy = {u["loc"] for u in client.get(f"/api/games/{gid}").json()["units"] if u["side"] != side}
        near = [c for c in cmds if c["type"] == "move" and c["data"]["to"] in BOARD.adjacent
                and enemy & set(BOARD.neighbors(c["data"]["to"]))]
        if near:
            return near[0]
    ends = [c for c in cmds if c["type"] == "end_phase"]
    return ends[0] if ends else cmds[0]


def drive(client: TestClient, game: dict[str, str], until: Callable[[Legal], bool],
          limit: int = 300) -> tuple[str, Legal]:
    gid, side = game["id"], "US"
    for _ in range(limit):
        legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        acting = legal["prompt"]["side"]
        assert acting is not None, "the game ended while driving it"
        if acting != side:
            side = acting
            legal = client.get(f"/api/games/{gid}/legal", headers=bearer(game[side])).json()
        if until(legal):
            return side, legal
        cmd = pick(client, gid, side, legal)
        r = client.post(f"/api/games/{gid}/commands", headers=bearer(game[side]),
                        json={"type": cmd["type"], "data": cmd["data"], "expected_seq": legal["seq"]})
        assert r.status_code == 200, r.text
    raise AssertionError(f"not reached within {limit} commands")


def admin_games(client: TestClient) -> dict[str, dict[str, Any]]:
    return {g["game_id"]: g for g in client.get("/api/admin/games", auth=ADMIN, params={"limit": 500}).json()["items"]}


def self_played(secret: str, seed: str, stop: Callable[[list[dict[str, Any]]], bool],
                limit: int = 3000) -> tuple[list[dict[str, Any]], Any]:
    """A First Blood game of ``secret`` played by the self-play chooser (``seed``) until
    ``stop(events)`` or its end: its events as an export file lists them, and its last state."""
    opening = FB_RULES.create("campaign", {}, secret)
    events = [{"type": e.type, "data": e.data, "side": e.side, "actor": None, "command": None} for e in opening]
    state = replay(FB_RULES, opening)
    rng = Chooser(seed)
    for _ in range(limit):
        side = FB_RULES.prompt(state).side
        if side is None or stop(events):
            break
        cmd = choose(rng, state.phase, FB_RULES.legal_commands(state, side))
        cmd = Command(cmd.type, cmd.data, side)
        for i, e in enumerate(FB_RULES.decide(state, cmd)):
            FB_RULES.apply(state, e)
            events.append({"type": e.type, "data": e.data, "side": e.side, "actor": side,
                           "command": cmd.to_json() if i == 0 else None})
    return events, state
