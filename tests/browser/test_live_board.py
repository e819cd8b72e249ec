"""Live updates in real Chromium: an open board hears of the opponent's move through the
stream at once, long before its fallback poll (every 30 s) would have asked."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import Browser, expect


def test_an_open_board_shows_the_opponents_move_at_once(browser: Browser, server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
        gid, token = created["game_id"], created["token"]
        invite = created["invite_url"].split("token=")[1]
        assert http.post(f"/api/games/{gid}/join", json={"token": invite, "name": "Bob"}).status_code == 200
        context = browser.new_context(base_url=server)
        try:
            page = context.new_page()
            page.goto(f"/games/{gid}")  # a spectator's board: the stream serves everybody
            seq = int(page.locator("#board-state").get_attribute("data-seq"))
            page.wait_for_timeout(500)  # the stream is open
            legal = http.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"}).json()
            cmd = legal["commands"][0]
            t0 = time.monotonic()
            r = http.post(f"/api/games/{gid}/commands", headers={"Authorization": f"Bearer {token}"},
                          json={**cmd, "expected_seq": seq})
            assert r.status_code == 200, r.text
            new = http.get(f"/api/games/{gid}").json()["seq"]
            expect(page.locator("#board-state")).to_have_attribute("data-seq", str(new), timeout=5_000)
            assert time.monotonic() - t0 < 5  # pushed, not the 30 s poll
            expect(page.locator(f'[data-unit="{cmd["data"]["unit"]}"]')).to_have_attribute(
                "data-hex", cmd["data"]["to"])
        finally:
            context.close()
