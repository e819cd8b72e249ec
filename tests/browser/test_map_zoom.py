"""Zoom and pan in real Chromium (issue 9, item 6): the buttons and Ctrl+wheel zoom the
map, a mouse drag pans it without acting, and a click on a hex still plays after zooming."""

from __future__ import annotations

from pathlib import Path

import httpx
from e2e_pages import PHONE, assert_fits_a_phone, click_hex
from playwright.sync_api import Browser, expect


def test_zoom_pan_and_click_after_zooming(browser: Browser, server: str, artifacts: Path) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    gid, token = created["game_id"], created["token"]
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"/games/{gid}#token={token}")
        stack = page.locator(".map-wrap .map-stack")
        page.wait_for_load_state("networkidle")
        width = stack.evaluate("e => e.offsetWidth")
        opened = int(page.locator("#zoom-level").text_content().rstrip("%"))  # framed on the counters
        page.get_by_role("button", name="Zoom in").click()
        page.get_by_role("button", name="Zoom in").click()
        expect(page.locator("#zoom-level")).to_have_text(f"{round(opened * 1.5625)}%")
        assert stack.evaluate("e => e.offsetWidth") > width * 1.4
        frame = page.locator(".map-wrap")
        box = frame.bounding_box()
        page.mouse.move(box["x"] + 300, box["y"] + 300)
        page.mouse.down()
        page.mouse.move(box["x"] + 150, box["y"] + 200, steps=5)
        page.mouse.up()
        assert frame.evaluate("e => e.scrollLeft") > 0  # the drag panned
        seq = page.locator("#board-state").get_attribute("data-seq")
        assert page.locator("#board-state").get_attribute("data-seq") == seq  # and did not act
        page.screenshot(path=str(artifacts / "map-zoomed.png"))
        # after zooming, a click on a counter's destination still plays: select, then place
        page.locator("button.chooser").first.click()
        hex_id = page.locator("g.hex-state.reachable").first.get_attribute("data-hex")
        click_hex(page, hex_id)  # where the map's grid says the hex is, zoomed
        expect(page.locator("#board-state")).not_to_have_attribute("data-seq", seq)
        page.get_by_role("button", name="Fit").click()
        expect(page.locator("#zoom-level")).to_have_text("100%")
    finally:
        context.close()


def test_on_a_phone_the_map_fits_and_the_actions_are_in_reach(browser: Browser, server: str,
                                                                artifacts: Path) -> None:
    """Issue 9, item 6: no 900 px sideways box with the actions far below it."""
    with httpx.Client(base_url=server, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    context = browser.new_context(base_url=server, viewport={"width": 400, "height": 800}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"/games/{created['game_id']}#token={created['token']}")
        expect(page.locator("button.chooser").first).to_be_visible()
        assert_fits_a_phone(page, 400, 800)
        first_action = page.locator("button.chooser").first.bounding_box()
        assert first_action["y"] < 800 * 1.25  # within about a screen: not behind a long map
        page.screenshot(path=str(artifacts / "phone-board.png"))
    finally:
        context.close()


def _pinch(page, cx: float, cy: float, start: float, end: float, steps: int = 8) -> None:  # noqa: ANN001
    """Two fingers on the screen, ``start`` px apart, spread (or closed) to ``end`` px, as a
    phone's touch screen sends them (Chromium's own touch input, through its DevTools)."""
    cdp = page.context.new_cdp_session(page)

    def points(d: float) -> list[dict]:
        return [{"x": cx - d / 2, "y": cy, "id": 1}, {"x": cx + d / 2, "y": cy, "id": 2}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for i in range(1, steps + 1):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": points(start + (end - start) * i / steps)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_a_two_finger_pinch_zooms_the_map_and_leaves_it_drawn(browser: Browser, server: str,
                                                              artifacts: Path) -> None:
    """Issue 31: a pinch blanked the map until "Fit".  Spread, then close, then two fingers
    put down on one spot: the zoom follows, stays a number, and the counters are drawn."""
    with httpx.Client(base_url=server, timeout=30) as http:
        created = http.post("/api/games", json={"side": "US", "name": "Alice"}).json()
    context = browser.new_context(base_url=server, **PHONE)
    try:
        page = context.new_page()
        page.goto(f"/games/{created['game_id']}#token={created['token']}")
        page.wait_for_load_state("networkidle")
        box = page.locator(".map-wrap").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

        def zoom() -> int:
            return int(page.locator("#zoom-level").text_content().rstrip("%"))

        before = zoom()
        _pinch(page, cx, cy, 60, 180)
        spread = zoom()
        assert spread > before
        _pinch(page, cx, cy, 180, 60)
        assert zoom() < spread
        _pinch(page, cx, cy, 0, 0)  # two fingers on one spot: nothing to measure a pinch by
        closed = zoom()
        assert closed > 0
        _pinch(page, cx, cy, 0, 60)  # put down together, then spread: measured once they part
        assert closed < zoom() <= closed * 60 / 24 + 1  # not a jump to the most (it was 800%)
        width = page.locator(".map-wrap .map-stack").evaluate("e => e.getBoundingClientRect().width")
        assert width > 0 and zoom() > 0  # a number, not NaN: the map is drawn at a size
        seen = page.locator(".map-wrap g.counter").first.bounding_box()
        assert seen is not None and seen["width"] > 0
        page.screenshot(path=str(artifacts / "map-after-pinch.png"))
    finally:
        context.close()


def test_a_zoom_chosen_in_one_game_stays_with_that_game(browser: Browser, server: str) -> None:
    """The kept zoom is the game's: another game opened in the same tab is framed on its own
    counters (it opened at the first game's 677%, showing only a tray), and the framing a
    board chose by itself is not kept as if the player had chosen it."""
    with httpx.Client(base_url=server, timeout=30) as http:
        one, two = (http.post("/api/games", json={"side": "US", "name": n}).json() for n in ("Alice", "Carol"))
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"/games/{two['game_id']}#token={two['token']}")
        page.wait_for_load_state("networkidle")
        framed = page.locator("#zoom-level").text_content()
        page.goto(f"/games/{one['game_id']}#token={one['token']}")
        page.wait_for_load_state("networkidle")
        assert page.locator("#zoom-level").text_content() == framed  # the same position: the same framing
        for _ in range(4):
            page.get_by_role("button", name="Zoom in").click()
        chosen = page.locator("#zoom-level").text_content()
        assert chosen != framed
        page.goto(f"/games/{two['game_id']}#token={two['token']}")
        page.wait_for_load_state("networkidle")
        expect(page.locator("#zoom-level")).to_have_text(framed)  # its own framing, not the other game's zoom
        page.goto(f"/games/{one['game_id']}#token={one['token']}")
        page.wait_for_load_state("networkidle")
        expect(page.locator("#zoom-level")).to_have_text(chosen)  # the zoom chosen for this game stands
    finally:
        context.close()
