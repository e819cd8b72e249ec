"""Taking back and handing over in real Chromium (issue 9, items 1 and 2): the board's
"Take back" button undoes a placement, and the set-up passes to the IJ only when the
US says so, after a confirmation that says what it means."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from app_support import listed
from e2e_pages import click_hex
from live_server import two_player_game
from playwright.sync_api import Browser, expect

STACK = ("us-1-1", "us-1-2", "us-1-3")


def test_take_back_a_placement_then_hand_over_the_set_up(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        gid, token, ij_token = two_player_game(http)
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 1000})
    watcher = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    dialogs: list[str] = []

    def accept(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    try:
        page = context.new_page()
        page.on("dialog", accept)
        page.goto(f"/games/{gid}#token={token}")
        ij = watcher.new_page()  # the opponent watches live
        ij.goto(f"/games/{gid}#token={ij_token}")
        counter = page.locator('g.counter[data-unit="us-1-1"]')
        expect(counter).to_have_attribute("data-loc", "arriving")
        expect(page.locator(".actions.general button.cmd-undo")).to_have_count(0)  # nothing to take back

        # place 1/1 by clicking the map, then take it back
        page.locator('button.chooser[data-unit="us-1-1"]').click()
        hex_ = page.locator('g.hex-state[role=button][data-hex="0709"]')  # a place for the unit: a button
        box = hex_.bounding_box()
        hex_.click(position={"x": box["width"] / 2, "y": box["height"] * 0.86})
        expect(counter).to_have_attribute("data-hex", "0709")
        take_back = page.locator(".actions.general button.cmd-undo")
        expect(take_back).to_have_text("Take back: US 1/1 placed in 0709")
        page.screenshot(path=str(artifacts / "undo-offered.png"))
        take_back.click()
        expect(counter).to_have_attribute("data-loc", "arriving")
        expect(page.locator("#log li.retracted").first).to_contain_text("US 1/1 placed in 0709")
        expect(page.locator("#log li").first).to_contain_text("US takes back: US 1/1 placed in 0709")
        expect(take_back).to_have_count(0)
        page.screenshot(path=str(artifacts / "undo-done.png"))
        # the opponent's board follows by itself: the counter goes back, the line is struck through
        expect(ij.locator('g.counter[data-unit="us-1-1"]')).to_have_attribute("data-loc", "arriving", timeout=10_000)
        expect(ij.locator("#log li.retracted").first).to_contain_text("US 1/1 placed in 0709", timeout=10_000)

        # the rest of the set-up through the API, three units stacked in 0910 first; the
        # last placement does not hand over
        with httpx.Client(base_url=server, timeout=30) as http:
            auth = {"Authorization": f"Bearer {token}"}
            for unit in STACK:
                seq = http.get(f"/api/games/{gid}").json()["seq"]
                assert http.post(f"/api/games/{gid}/commands", headers=auth, json={
                    "type": "place", "data": {"unit": unit, "to": "0910"}, "expected_seq": seq}).status_code == 200
            while True:
                legal = http.get(f"/api/games/{gid}/legal", headers=auth).json()
                place = next((c for c in listed(legal) if c["type"] == "place"), None)
                if place is None:
                    break
                assert http.post(f"/api/games/{gid}/commands", headers=auth,
                                 json={**place, "expected_seq": legal["seq"]}).status_code == 200
        page.reload()
        expect(page.locator("#prompt")).to_contain_text("All your units are set up: hand over to IJ")

        # a click on the stack fans it out over the map; a click on a fanned counter picks it
        click_hex(page, "0910", 0.9)  # (no button: the hex is read from the map's grid)
        fan = page.locator('g.fan[data-hex="0910"]')
        expect(fan.locator("g.counter")).to_have_count(3)
        page.locator(".map-stack").screenshot(path=str(artifacts / "stack-fanned.png"))
        fan.locator('g.counter[data-unit="us-1-3"]').click()
        expect(page.locator('g.counter[data-unit="us-1-3"]')).to_have_class(re.compile(r"\bselected\b"))
        expect(fan).to_have_count(0)
        end = page.locator(".actions.general button.cmd-end_phase")
        expect(end).to_have_text("End US set-up and hand over to IJ")
        expect(page.locator(".actions.general button.cmd-undo")).to_be_visible()  # may still reconsider
        page.screenshot(path=str(artifacts / "handover-offered.png"))
        end.click()
        expect(page.locator("#prompt")).to_contain_text("Waiting for IJ", timeout=10_000)
        assert any("the game passes to IJ" in m for m in dialogs), dialogs
        expect(page.locator(".actions.general button.cmd-undo")).to_have_count(0)  # after the handover
        page.screenshot(path=str(artifacts / "handover-done.png"))
        expect(page).not_to_have_title(re.compile(r"Your move"))
    finally:
        context.close()
        watcher.close()
