"""Pacific Battles games for the server tests: one created by the Japanese and joined by
the Allies through the API."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import httpx

from engine.core.events import Event
from engine.games.pacific_battles.rules import RULES
from engine.games.pacific_battles.state import PBState

if TYPE_CHECKING:
    from playwright.sync_api import Locator

SET_UP = ("11+13 Eng", "3 K SNLF (-)", "81 Inf")  # 25.4a: placed in secret


def css(s: str) -> str:
    """A value quoted for a CSS attribute selector."""
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def choose_in_group(form: Locator, data: str | None = None, index: int = 0) -> None:
    """Pick a command of the board's command group ``form`` as a player does: in its list,
    or among its radio buttons (a few choices, each read whole); by its data or its place."""
    form.locator("select, input[type=radio]").first.wait_for()  # (a group an answer is bringing)
    if form.locator("select").count():
        if data is None:
            form.locator("select").select_option(index=index)
        else:
            form.locator("select").select_option(value=data)
        return
    radios = form.locator("input[type=radio]")
    (radios.nth(index) if data is None else form.locator(f"input[type=radio][value={css(data)}]")).check()


def new_game(client: httpx.Client, **settings: Any) -> dict[str, str]:
    """Through the API of an in-process app (a TestClient) or of a running server
    (``settings``: more of the new game's, e.g. ``move_days``)."""
    r = client.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                        "name": "Hyakutake", **settings})
    assert r.status_code == 201, r.text
    body = r.json()
    invite = body["invite_url"].split("token=")[1]
    r2 = client.post(f"/api/games/{body['game_id']}/join", json={"token": invite, "name": "Vandegrift"})
    assert r2.status_code == 200, r2.text
    client.cookies.clear()
    return {"id": body["game_id"], "Japanese": body["token"], "Allied": r2.json()["token"]}


def seat(client: httpx.Client, gid: str, token: str | None) -> None:
    """Sit ``client`` in the seat of ``token`` (None: a spectator) as the browser does: a cookie."""
    client.cookies.clear()
    if token:
        r = client.post(f"/games/{gid}/seat", data={"token": token}, follow_redirects=False)
        assert r.status_code == 303, r.text


def seq_of(page: str) -> int:
    """The event count a board page was drawn after (its state element carries it)."""
    found = re.search(r'id="board-state"[^>]*data-seq="(\d+)"', page)
    assert found, "no seq on the page"
    return int(found.group(1))


class Truth:
    """The game as it really is: the admin's whole log, replayed through the engine
    (``client``: a TestClient or an httpx client of a running server)."""

    def __init__(self, client: Any, gid: str, admin: tuple[str, str]) -> None:
        self.client, self.gid, self.admin = client, gid, admin
        self.events: list[Event] = []
        self.state: PBState = RULES.blank()
        self.sync()

    def sync(self) -> None:
        r = self.client.get(f"/api/admin/games/{self.gid}/log", auth=self.admin,
                            params={"offset": len(self.events), "limit": 1000})
        assert r.status_code == 200, r.text
        for item in r.json()["items"]:
            e = Event(item["type"], item["data"], item["side"])
            RULES.apply(self.state, e)
            self.events.append(e)

    @property
    def seq(self) -> int:
        return len(self.events)

    def wait_past(self, seq: int, why: str = "", timeout: float = 15.0) -> None:
        """Until the log is longer than ``seq`` (a command given through a browser)."""
        deadline = time.monotonic() + timeout
        while self.seq <= seq:
            assert time.monotonic() < deadline, f"nothing was written; {why}"
            time.sleep(0.05)
            self.sync()
