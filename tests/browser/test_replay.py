"""Stepping through a game's moments in real Chromium (issue 9, item 4): the arrow keys
and the Play button move through the history; each moment is its own page."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from app_support import listed
from live_server import place_set_up, two_player_game
from playwright.sync_api import Browser, expect


def test_the_arrow_keys_and_play_step_through_the_moments(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, _ = two_player_game(http)
        place_set_up(http, gid, token, 4)  # four US set-up placements
        last = http.get(f"/api/games/{gid}").json()["seq"]
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        expect(page.locator("#replay-link")).to_be_visible()
        page.locator("#replay-link").click()
        expect(page).to_have_url(re.compile(rf"/games/{gid}/at/{last}$"))
        expect(page.locator(".prompt")).to_contain_text(f"Moment {last} of {last}")
        page.wait_for_load_state("load")  # (the keys are the page's script's: a key pressed before it ran was lost)
        page.keyboard.press("ArrowLeft")
        expect(page).to_have_url(re.compile(rf"/at/{last - 1}$"))
        page.wait_for_load_state("load")
        page.keyboard.press("ArrowLeft")
        expect(page).to_have_url(re.compile(rf"/at/{last - 2}$"))
        page.wait_for_load_state("load")
        page.screenshot(path=str(artifacts / "replay-moment.png"))
        # the map zooms as the board's does (on a phone a moment's counters are otherwise too small to read)
        before = page.locator(".map-stack").bounding_box()["width"]
        page.locator('button[data-zoom="in"]').click()
        expect(page.locator("#zoom-level")).not_to_have_text(re.compile(r"^100%$"))
        assert page.locator(".map-stack").bounding_box()["width"] > before * 1.1
        page.keyboard.press("ArrowRight")
        expect(page).to_have_url(re.compile(rf"/at/{last - 1}$"))
        page.wait_for_load_state("load")
        page.locator("#step-play").click()  # plays on by itself to the last moment
        expect(page).to_have_url(re.compile(rf"/at/{last}(#play)?$"), timeout=10_000)
        page.wait_for_load_state("load")
        page.keyboard.press("Home")
        expect(page.locator(".prompt")).to_contain_text("Moment ")
        assert int(re.search(r"/at/(\d+)", page.url).group(1)) < last - 3
    finally:
        context.close()


def test_since_your_last_move_steps_through_on_the_map(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, ij_token = two_player_game(http)
        auth = {"Authorization": f"Bearer {token}"}
        for _ in range(3):
            legal = http.get(f"/api/games/{gid}/legal", headers=auth).json()
            place = next(c for c in listed(legal) if c["type"] == "place")
            http.post(f"/api/games/{gid}/commands", headers=auth, json={**place, "expected_seq": legal["seq"]})
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={ij_token}")
        card = page.locator("#briefing")
        expect(card).to_have_attribute("open", "")
        expect(card).to_contain_text("Since your last move")
        expect(card.locator("ol li", has_text="placed in")).to_have_count(3)  # the three US placements
        page.screenshot(path=str(artifacts / "since-your-last-move.png"))
        card.locator("#briefing-replay").click()
        expect(page).to_have_url(re.compile(rf"/games/{gid}/at/\d+$"))
        page.keyboard.press("ArrowRight")
        expect(page.locator(".prompt")).to_contain_text("Moment ")
        page.get_by_role("link", name="Back to the game").click()
        expect(page).to_have_url(re.compile(rf"/games/{gid}$"))
    finally:
        context.close()
