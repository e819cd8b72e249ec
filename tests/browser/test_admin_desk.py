"""The referee's desk in real Chromium (issue 34): from the list of games to a game, to a
moment with everything shown, to the same moment as one side saw it, stepping with the
arrow keys on that side's view."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from conftest import ADMIN
from live_server import two_player_game
from playwright.sync_api import Browser, expect


def test_from_the_list_to_a_moment_as_each_side_saw_it(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(3):  # three US set-up placements
            legal = http.get(f"/api/games/{gid}/legal", headers=auth).json()
            place = next(c for c in legal["commands"] if c["type"] == "place")
            assert http.post(f"/api/games/{gid}/commands", headers=auth,
                             json={**place, "expected_seq": legal["seq"]}).status_code == 200
        last = http.get(f"/api/games/{gid}").json()["seq"]
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000},
                                  http_credentials={"username": ADMIN[0], "password": ADMIN[1]})
    try:
        page = context.new_page()
        page.goto(f"/admin?q={gid}")
        expect(page.locator("#game-count")).to_contain_text("1 game")
        page.locator(f'tr[data-game="{gid}"] a').first.click()
        expect(page).to_have_url(re.compile(rf"/admin/games/{gid}$"))
        page.get_by_text("The board now, everything shown").click()
        expect(page).to_have_url(re.compile(rf"/admin/games/{gid}/at/{last}$"))
        expect(page.locator(".you")).to_contain_text("everything (admin)")
        page.get_by_role("link", name="As IJ saw it").click()
        expect(page).to_have_url(re.compile(rf"/admin/games/{gid}/at/{last}\?as=IJ$"))
        expect(page.locator(".you")).to_contain_text("IJ")
        page.keyboard.press("ArrowLeft")  # the steps stay on the admin's side, as the IJ saw it
        expect(page).to_have_url(re.compile(rf"/admin/games/{gid}/at/\d+\?as=IJ$"))
        page.screenshot(path=str(artifacts / "admin-moment-as-ij.png"))
    finally:
        context.close()
