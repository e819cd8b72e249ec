"""A click on the Pacific Battles map never spends a held campaign marker by itself (a
phone player tapped an enemy stack with a unit selected, and the Recon marker was played
at once): with a piece selected that may go elsewhere, a click on a hex it may not enter
is answered with the engine's reason; with nothing selected, the click lists the marker's
play in the hex's card, to be played by its own button."""

from __future__ import annotations

import functools
import re
from typing import Any

from app_support import ADMIN, bearer, listed
from fastapi.testclient import TestClient
from pb_support import seat, seq_of

from engine.core.dice import derive_secret
from engine.core.events import Command
from engine.core.game import replay
from engine.games.pacific_battles import sequence
from engine.games.pacific_battles.rules import RULES
from engine.selfplay import Chooser, choose

FORMAT = "guadalcanal-pbem/1"


def _recon_moment(state: Any, side: str, legal: list[Command]) -> tuple[str, str] | None:
    """(a piece with moves, an enemy hex the Recon marker may be played on that the piece
    cannot enter), in a movement phase of ``side``; None if there is none."""
    if sequence.step(state.phase) != "movement" or state.pending:
        return None
    targets = sorted(c.data["target"] for c in legal if c.type == "play" and c.data["marker"] == "Recon")
    moves: dict[str, set[str]] = {}
    for c in legal:
        if c.type == "move":
            moves.setdefault(c.data["unit"], set()).add(c.data["to"])
    for unit, places in sorted(moves.items()):
        for target in targets:
            if target not in places:
                return unit, target
    return None


@functools.cache
def _position() -> tuple[dict[str, Any], str, str, str]:
    """An export file of a self-played game stopped at such a moment, its side, piece and hex."""
    secret = derive_secret("marker-clicks", "pb")
    opening = RULES.create("historical", {}, secret)
    events = [{"type": e.type, "data": e.data, "side": e.side, "actor": None, "command": None} for e in opening]
    state = replay(RULES, opening)
    rng = Chooser("marker-clicks")
    for _ in range(4000):
        side = RULES.prompt(state).acting[0]
        legal = RULES.legal_commands(state, side)
        found = _recon_moment(state, side, legal)
        if found is not None:
            export = {"format": FORMAT, "game": "pacific_battles", "scenario": "historical", "options": {},
                      "status": "active", "result": None, "created_at": "2026-01-01T00:00:00+00:00",
                      "seats": [{"side": s, "name": s} for s in RULES.sides],
                      "events": [{"seq": n, **e} for n, e in enumerate(events)]}
            return export, side, *found
        cmd = choose(rng, state.phase, [c for c in legal if c.type != "play" or c.data["marker"] != "Recon"])
        cmd = Command(cmd.type, cmd.data, side)
        for i, e in enumerate(RULES.decide(state, cmd)):
            RULES.apply(state, e)
            events.append({"type": e.type, "data": e.data, "side": e.side, "actor": side,
                           "command": cmd.to_json() if i == 0 else None})
    raise AssertionError("no movement phase with a Recon marker held was reached")


def _click(client: TestClient, gid: str, page: str, **values: str) -> str:
    r = client.post(f"/games/{gid}/click", data={"seq": seq_of(page), **values})
    assert r.status_code == 200, r.text
    return r.text


def _recon_listed(client: TestClient, gid: str, token: str, target: str) -> bool:
    client_legal = client.get(f"/api/games/{gid}/legal", headers=bearer(token)).json()
    return any(c["type"] == "play" and c["data"] == {"marker": "Recon", "target": target}
               for c in listed(client_legal))


def test_a_click_never_plays_a_held_marker(client: TestClient) -> None:
    export, side, unit, target = _position()
    r = client.post("/api/games/import", json=export, auth=ADMIN)
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    token = r.json()["seats"][side].split("#token=", 1)[1]
    client.cookies.clear()
    assert _recon_listed(client, gid, token, target)
    seat(client, gid, token)
    page = client.get(f"/games/{gid}").text
    selected = _click(client, gid, page, unit=unit)
    assert "Selected: " in selected

    # the selected piece's click on a hex it may not enter: the engine's reason, nothing played
    refused = _click(client, gid, selected, hex=target, select=unit)
    error = re.search(r'<p class="error" role="alert">([^<]+)</p>', refused)
    assert error is not None and re.match(r"11\.\d", error.group(1)), error
    assert seq_of(refused) == seq_of(page)

    # nothing selected: the click lists the play in the hex's card, and plays nothing
    listed_page = _click(client, gid, refused, hex=target)
    assert seq_of(listed_page) == seq_of(page)
    card = re.search(rf'<section class="card here" aria-label="Hex {target}">(.*?)</section>', listed_page, re.S)
    assert card is not None and "Recon" in card.group(1)
    client.cookies.clear()
    assert _recon_listed(client, gid, token, target)  # still held
