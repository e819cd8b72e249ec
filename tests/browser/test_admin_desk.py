"""The referee's desk in real Chromium (issue 34): from the list of games to a game, to a
moment with everything shown, to the same moment as one side saw it, stepping with the
arrow keys on that side's view."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from app_support import listed
from conftest import ADMIN
from e2e_pages import PHONE
from live_server import place_set_up, two_player_game
from playwright.sync_api import Browser, expect


def test_from_the_list_to_a_moment_as_each_side_saw_it(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        place_set_up(http, gid, token, 3)  # three US set-up placements
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


def test_the_desk_rules_and_rewinds_a_game_of_each_with_take_backs(browser: Browser, server: str,
                                                                    artifacts: Path) -> None:
    """Issue 34: through the admin's pages, a game of each game with a take-back, a ruling and
    a rewind; each shows in the players' logs, the audit, and the game still verifies."""
    games = []
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        games.append((gid, token, "US"))
        made = http.post("/api/games", json={"game": "pacific_battles", "scenario": "short", "side": "Japanese",
                                             "name": "Hyakutake"}).json()
        http.post(f"/api/games/{made['game_id']}/join", json={"token": made["invite_url"].split("token=")[1],
                                                              "name": "Vandegrift"})
        http.cookies.clear()
        games.append((made["game_id"], made["token"], "Japanese"))
        firsts = {}
        for gid, token, _side in games:
            firsts[gid] = place_set_up(http, gid, token, 3)[0]
            auth = {"Authorization": f"Bearer {token}"}
            legal = http.get(f"/api/games/{gid}/legal", headers=auth).json()
            undo = next(c for c in listed(legal) if c["type"] == "undo")
            seq = legal["seq"]
            assert http.post(f"/api/games/{gid}/commands", headers=auth,
                             json={**undo, "expected_seq": seq}).status_code == 200  # a take-back
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000},
                                  http_credentials={"username": ADMIN[0], "password": ADMIN[1]})
    try:
        page = context.new_page()
        for n, (gid, token, side) in enumerate(games):
            page.goto(f"/admin/games/{gid}")
            figures = page.locator(f'tr.side-figures[data-side="{side}"]')
            expect(figures).to_contain_text("1 (")  # one take-back, and the events it struck
            rulings = page.locator("#rulings")
            rulings.locator('input[name="note"]').fill("The set-up stands as placed")
            rulings.locator('form[action$="/rulings"] input[name="reason"]').fill("asked by both players")
            rulings.get_by_role("button", name="Write the ruling into the log").click()
            expect(page.locator("#rulings")).to_be_visible()
            rulings = page.locator("#rulings")
            rulings.locator('input[name="to"]').fill(str(firsts[gid]))  # the moment before the first placement
            rulings.locator('form[action$="/rewind"] input[name="reason"]').fill("a misplaced set-up, by consent")
            rulings.get_by_role("button", name="Rewind: strike every event after it").click()
            expect(page.locator("#rulings")).to_be_visible()
            page.screenshot(path=str(artifacts / f"admin-desk-ruled-{n}.png"), full_page=True)
            with httpx.Client(base_url=server, timeout=30) as http:
                log = http.get(f"/api/games/{gid}/log", params={"limit": 1000},
                               headers={"Authorization": f"Bearer {token}"}).json()["items"]
                assert [e["type"] for e in log][-2:] == ["ruling", "rewound"], [e["type"] for e in log][-4:]
                assert "The set-up stands as placed" in str(log)
                assert http.post(f"/api/admin/games/{gid}/verify", auth=ADMIN).json()["ok"] is True
        page.goto("/admin/audit")
        expect(page.locator("body")).to_contain_text("rewound")
    finally:
        context.close()


def test_the_history_on_a_phone_keeps_its_rows_short(browser: Browser, server: str, artifacts: Path) -> None:
    """On a phone the log's table scrolls sideways in its box: its text column keeps room
    for a line of words, and a time stays on one line."""
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        place_set_up(http, gid, token, 3)
    context = browser.new_context(base_url=server, **PHONE,
                                  http_credentials={"username": ADMIN[0], "password": ADMIN[1]})
    try:
        page = context.new_page()
        page.goto(f"/admin/games/{gid}")
        expect(page.locator("tr.history-line").first).to_be_visible()
        page.screenshot(path=str(artifacts / "admin-history-phone.png"), full_page=True)
        # each time on one line, each text in a column some words wide (before: the time in
        # three lines, the text a word or two a line, a row 322 px tall)
        shape = page.evaluate("""() => [...document.querySelectorAll('tr.history-line')].map(tr => {
            const when = tr.querySelector('td.when'), range = document.createRange();
            range.selectNodeContents(when);
            return [range.getClientRects().length, tr.querySelector('td.what').getBoundingClientRect().width];
        })""")
        assert shape and all(lines == 1 for lines, _ in shape), shape
        assert all(width >= 240 for _, width in shape), shape
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width  # the table scrolls in its box, not the page
    finally:
        context.close()
